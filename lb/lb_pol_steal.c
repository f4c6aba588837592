/* lb_pol_steal.c: random work stealing, receiver-initiated (Blumofe,
 * Leiserson 1999; the steal-half of task farms).
 *
 * A thief, a node holding fewer than steal.below processes, asks one
 * node drawn at random (ASK, with its queue length): its draws follow a
 * random cyclic order of the nodes (a random start and a random stride
 * prime to n), so a sweep of refusals asks every other node once.  The victim sends
 * what it can spare in one TRANSFER: one process (steal.amount one) or
 * half its movable ones (half), never so many that the thief would end
 * with more than the victim; or it refuses (NONE) when it cannot spare
 * one.  A refused thief asks the next node at once (Blumofe-Leiserson),
 * or after steal.retry; with one request open at a time its requests
 * are bounded to one per round trip (and retry interval); after
 * steal.tries refusals in a row (by default a whole sweep: every other
 * node refused) it stops asking, and the victims that
 * refused it last (each remembers up to WAKE_LIST thieves) send it a
 * WAKE once they have a process to spare, and it asks that one.  So a
 * run whose work is done goes quiet instead of asking for ever.
 *
 * One request is open at a time; its answer carries its round (the
 * TRANSFER's epoch, the NONE's tag), so a late answer is recognised.  A
 * failed victim counts as a refusal, and so does an answer that has not
 * come within twice its round trip (a relay on its way failed, or the
 * hop time is longer than expected: the next wait is twice as long,
 * lb_node_answer_window). */
#include <stdio.h>
#include "lb_node_impl.h"
#include "lb_errno.h"
#include "lb_load.h"
#include "lb_mem.h"

enum { K_ASK = 0, K_NONE = 1, K_WAKE = 2 };
enum { T_RETRY = 0, T_ANSWER = 1 };
#define WAKE_LIST 8

typedef struct steal {
  uint64_t round; /* the last request's */
  size_t victim;  /* asked and not answered yet, or LB_NO_NODE */
  int retrying;   /* the retry timer of `round` runs */
  int asleep;     /* refused `tries` times in a row: waits for a WAKE */
  size_t refusals;
  size_t start, stride, pos; /* the sweep: node (start + pos x stride) mod n */
  double retry;              /* the wait after a refusal */
  unsigned late;             /* answers in a row that came after their window */
  size_t refused[WAKE_LIST]; /* thieves this node refused lately */
  size_t nrefused;
} steal;

#define S(nd) ((steal *)(nd)->ps)

static int st_init(lb_node *nd)
{
  steal *s = lb_mem_calloc(sizeof *s);
  if (!s) return lb_error(LB_ENOMEM, "steal state");
  s->retry = nd->par->steal.retry;
  s->victim = LB_NO_NODE;
  nd->ps = s;
  return LB_SUCCESS;
}

static void st_fini(lb_node *nd)
{
  lb_mem_free(nd->ps, sizeof(steal));
  nd->ps = NULL;
}

static size_t live_others(const lb_node *nd) { return nd->topo->n - 1 - nd->ndown; }

static size_t gcd(size_t a, size_t b)
{
  while (b) {
    size_t r = a % b;
    a = b;
    b = r;
  }
  return a;
}

/* The sweep's next live node other than this one, or LB_NO_NODE when
 * it has asked them all. */
static size_t draw(lb_node *nd)
{
  steal *s = S(nd);
  size_t n = nd->topo->n;
  if (!s->pos) {
    s->start = lb_rng_below(&nd->rng, n);
    do s->stride = 1 + lb_rng_below(&nd->rng, n - 1);
    while (gcd(s->stride, n) != 1);
  }
  while (s->pos < n) {
    size_t j = (size_t)(((uint64_t)s->start + (uint64_t)s->pos++ * s->stride) % n);
    if (j != nd->id && !lb_node_is_down(nd, j)) return j;
  }
  return LB_NO_NODE;
}

/* A fresh start: work came, or a victim woke this thief. */
static void restart(steal *s)
{
  s->asleep = 0;
  s->refusals = 0;
  s->pos = 0;
}

/* Ask `to`, or the sweep's next node when it is LB_NO_NODE (none left:
 * sleep). */
static int ask(lb_node *nd, size_t to, double now, lb_out *out)
{
  steal *s = S(nd);
  if (!live_others(nd)) return LB_SUCCESS;
  if (to == LB_NO_NODE && (to = draw(nd)) == LB_NO_NODE) {
    s->asleep = 1;
    return LB_SUCCESS;
  }
  s->round++;
  s->victim = to;
  s->retrying = 0;
  nd->st.invocations++;
  int rc = lb_node_send_policy(nd, out, to, K_ASK, s->round, (long)nd->nq, 0);
  return rc ? rc : lb_node_timer(out, (s->round << 1) | T_ANSWER, now + lb_node_answer_window(nd, to, s->late));
}

static int short_of_work(const lb_node *nd) { return (long)nd->nq < nd->par->steal.below; }

/* A refusal, or a victim lost: wait, then ask another; or sleep. */
static int refused(lb_node *nd, double now, lb_out *out)
{
  steal *s = S(nd);
  s->victim = LB_NO_NODE;
  s->refusals++;
  if (nd->par->steal.tries && s->refusals >= nd->par->steal.tries) {
    s->asleep = 1;
    return LB_SUCCESS;
  }
  if (!(s->retry > 0)) return ask(nd, LB_NO_NODE, now, out);
  s->retrying = 1;
  return lb_node_timer(out, (s->round << 1) | T_RETRY, now + s->retry);
}

/* Wake the thieves refused lately once one process can be spared. */
static int wake(lb_node *nd, lb_out *out)
{
  steal *s = S(nd);
  if (!s->nrefused || nd->nq < 2) return LB_SUCCESS;
  int rc = LB_SUCCESS;
  for (size_t k = 0; k < s->nrefused && !rc; k++) rc = lb_node_send_policy(nd, out, s->refused[k], K_WAKE, 0, 0, 0);
  s->nrefused = 0;
  return rc;
}

static int st_tick(lb_node *nd, double now, lb_out *out)
{
  steal *s = S(nd);
  lb_node_track_heavy(nd);
  int rc = wake(nd, out);
  if (rc) return rc;
  if (!short_of_work(nd)) {
    restart(s);
    return LB_SUCCESS;
  }
  if (s->victim != LB_NO_NODE || s->retrying || s->asleep) return LB_SUCCESS;
  return ask(nd, LB_NO_NODE, now, out);
}

/* How many to give a thief holding `q`: at most half the difference,
 * so the thief never ends with more than the victim. */
static size_t spare(const lb_node *nd, long q)
{
  long mine = (long)nd->nq, movable = (long)lb_node_movable(nd);
  long give = nd->par->steal.amount == 0 ? 1 : (movable + 1) / 2;
  long cap = (mine - q) / 2;
  if (give > cap) give = cap;
  if (give > movable) give = movable;
  return give > 0 ? (size_t)give : 0;
}

static void remember(steal *s, size_t thief)
{
  for (size_t k = 0; k < s->nrefused; k++)
    if (s->refused[k] == thief) return;
  if (s->nrefused < WAKE_LIST) s->refused[s->nrefused++] = thief;
  else { /* the oldest goes */
    for (size_t k = 1; k < WAKE_LIST; k++) s->refused[k - 1] = s->refused[k];
    s->refused[WAKE_LIST - 1] = thief;
  }
}

static int on_ask(lb_node *nd, const lb_msg *m, lb_out *out)
{
  size_t k = spare(nd, m->u.pol.a), sent = 0;
  int rc = LB_SUCCESS;
  if (k) rc = lb_node_transfer_epoch(nd, out, m->src, k, 0, (uint32_t)m->u.pol.tag, &sent);
  if (rc || sent) return rc;
  remember(S(nd), m->src);
  return lb_node_send_policy(nd, out, m->src, K_NONE, m->u.pol.tag, (long)nd->nq, 0);
}

static int st_msg(lb_node *nd, lb_msg *m, double now, lb_out *out)
{
  steal *s = S(nd);
  int rc = LB_SUCCESS;
  if (m->type != LB_MSG_POLICY) return lb_node_unexpected(nd, m);
  switch (m->u.pol.kind) {
  case K_ASK: rc = on_ask(nd, m, out); break;
  case K_NONE:
    if (m->src == s->victim && m->u.pol.tag == s->round) {
      s->late = 0;
      rc = refused(nd, now, out);
    }
    break;
  case K_WAKE:
    if (s->asleep && s->victim == LB_NO_NODE && short_of_work(nd)) {
      restart(s);
      rc = ask(nd, m->src, now, out);
    }
    break;
  default: return lb_node_unexpected(nd, m);
  }
  lb_msg_free(m);
  return rc;
}

static int st_transfer(lb_node *nd, const lb_msg *m, double now, lb_out *out)
{
  (void)now;
  (void)out;
  steal *s = S(nd);
  if (m->src == s->victim && m->u.transfer.epoch == (uint32_t)s->round) {
    s->victim = LB_NO_NODE;
    s->late = 0;
  }
  restart(s);
  return LB_SUCCESS;
}

static int st_timer(lb_node *nd, uint64_t id, double now, lb_out *out)
{
  steal *s = S(nd);
  if ((id >> 1) != s->round) return LB_SUCCESS;
  if ((id & 1) == T_ANSWER) {
    if (s->victim == LB_NO_NODE) return LB_SUCCESS;
    if (s->late < 10) s->late++;
    return refused(nd, now, out);
  }
  if (!s->retrying) return LB_SUCCESS;
  s->retrying = 0;
  return short_of_work(nd) && s->victim == LB_NO_NODE ? ask(nd, LB_NO_NODE, now, out) : LB_SUCCESS;
}

static int st_down(lb_node *nd, size_t dead, double now, lb_out *out)
{
  steal *s = S(nd);
  size_t j = 0;
  for (size_t k = 0; k < s->nrefused; k++)
    if (s->refused[k] != dead) s->refused[j++] = s->refused[k];
  s->nrefused = j;
  /* The answer will never come: a refusal. */
  return s->victim == dead ? refused(nd, now, out) : LB_SUCCESS;
}

static int st_quiet(const lb_node *nd) { return S(nd)->victim == LB_NO_NODE; }

static int st_describe(const lb_node *nd, char *buf, size_t cap)
{
  const steal *s = S(nd);
  if (s->victim == LB_NO_NODE) return snprintf(buf, cap, "%s", "");
  return snprintf(buf, cap, "asked node %zu for work (round %llu), no answer yet", s->victim,
                  (unsigned long long)s->round);
}

const lb_policy_ops lb_policy_steal_ops = {.init = st_init,
                                           .fini = st_fini,
                                           .on_msg = st_msg,
                                           .on_timer = st_timer,
                                           .on_tick = st_tick,
                                           .on_transfer = st_transfer,
                                           .on_down = st_down,
                                           .quiescent = st_quiet,
                                           .describe = st_describe,
                                           .steady_tick = 1};
