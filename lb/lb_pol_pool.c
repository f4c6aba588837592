/* lb_pol_pool.c: master-worker self-scheduling, the pool of tasks of
 * PVM's own examples, as a policy on the same loads as the others.
 *
 * One node keeps the pool (pool.node; after it fails, the lowest live
 * node): the pool is its run queue beyond the process it runs.  The
 * processes start where the load puts them, as for every policy; a
 * node that is heavy by eq. 1 sends its excess (EPN) to the pool, and
 * keeps the rest, so the pool collects what the others would balance.
 * A worker holding fewer than pool.below processes asks the pool for
 * work (ASK); the pool sends a chunk in one TRANSFER, or EMPTY.  An
 * emptied worker asks no more: the pool keeps it on its waiting list
 * and sends it a chunk as soon as it has one (from a heavy node's
 * excess), so a run whose work is done goes quiet.  A request with no
 * answer within twice its round trip (a relay on its way failed, or the
 * hop time is longer than expected) is asked again, with twice the
 * wait (lb_node_answer_window).
 *
 * Chunk sizes, with R the processes in the pool and P the live nodes:
 *  - factoring (Hummel, Schonberg, Flynn 1992): work goes in batches;
 *    each batch hands out half of R in P chunks of ceil(R / 2P); a
 *    batch ends after P chunks, or when new work reaches the pool;
 *  - gss, guided self-scheduling (Polychronopoulos, Kuck 1987):
 *    ceil(R / P) at each request;
 *  - one: a process at a time (pure self-scheduling). */
#include <stdio.h>
#include <string.h>
#include "lb_node_impl.h"
#include "lb_errno.h"
#include "lb_load.h"
#include "lb_mem.h"

enum { K_ASK = 0, K_EMPTY = 1 };
enum { CH_FACTORING = 0, CH_GSS = 1, CH_ONE = 2 };

typedef struct pool {
  size_t at;      /* the pool's node */
  uint64_t round; /* the last request's */
  int asking;     /* a request to `at` is open */
  int hungry;     /* the pool said empty: it sends when it can */
  /* at the pool */
  unsigned char *waiting; /* waiting[j]: worker j was told empty (n bytes) */
  size_t nwaiting, cursor;
  size_t batch_left, chunk; /* factoring: chunks left in this batch, their size */
  unsigned late;            /* answers in a row that came after their window */
} pool;

#define P(nd) ((pool *)(nd)->ps)

static int po_init(lb_node *nd)
{
  pool *s = lb_mem_calloc(sizeof *s);
  if (!s) return lb_error(LB_ENOMEM, "pool state");
  s->at = nd->par->pool.node < nd->topo->n ? nd->par->pool.node : 0;
  nd->ps = s;
  return LB_SUCCESS;
}

static void po_fini(lb_node *nd)
{
  pool *s = P(nd);
  if (!s) return;
  lb_mem_free(s->waiting, nd->topo->n);
  lb_mem_free(s, sizeof *s);
  nd->ps = NULL;
}

/* The next chunk's size for the pool's R movable processes. */
static size_t next_chunk(lb_node *nd)
{
  pool *s = P(nd);
  size_t r = lb_node_movable(nd), p = nd->topo->n - nd->ndown;
  if (!r) return 0;
  switch (nd->par->pool.chunk) {
  case CH_GSS: return (r + p - 1) / p;
  case CH_ONE: return 1;
  default: break;
  }
  if (!s->batch_left) {
    s->chunk = (r + 2 * p - 1) / (2 * p);
    s->batch_left = p;
  }
  s->batch_left--;
  return s->chunk < r ? s->chunk : r;
}

static int give(lb_node *nd, lb_out *out, size_t to, uint32_t tag, size_t *sent)
{
  size_t k = next_chunk(nd);
  *sent = 0;
  return k ? lb_node_transfer_epoch(nd, out, to, k, 0, tag, sent) : LB_SUCCESS;
}

/* The pool sends chunks to its waiting workers while it has any. */
static int serve_waiting(lb_node *nd, lb_out *out)
{
  pool *s = P(nd);
  size_t n = nd->topo->n;
  int rc = LB_SUCCESS;
  for (size_t k = 0; k < n && s->nwaiting && lb_node_movable(nd) && !rc; k++) {
    size_t j = (s->cursor + k) % n;
    if (!s->waiting[j]) continue;
    size_t sent;
    rc = give(nd, out, j, 0, &sent);
    if (sent) {
      s->waiting[j] = 0;
      s->nwaiting--;
      s->cursor = (j + 1) % n;
    }
  }
  return rc;
}

static int ask(lb_node *nd, double now, lb_out *out)
{
  pool *s = P(nd);
  s->round++;
  s->asking = 1;
  nd->st.invocations++;
  int rc = lb_node_send_policy(nd, out, s->at, K_ASK, s->round, (long)nd->nq, 0);
  return rc ? rc : lb_node_timer(out, s->round, now + lb_node_answer_window(nd, s->at, s->late));
}

/* No answer in time: ask again at the next check point, and wait twice
 * as long for that answer (the answer that comes late is dropped). */
static int po_timer(lb_node *nd, uint64_t id, double now, lb_out *out)
{
  (void)now;
  (void)out;
  pool *s = P(nd);
  if (s->asking && id == s->round) {
    s->asking = 0;
    if (s->late < 10) s->late++;
  }
  return LB_SUCCESS;
}

static int po_tick(lb_node *nd, double now, lb_out *out)
{
  pool *s = P(nd);
  int heavy = lb_node_track_heavy(nd);
  if (s->at == nd->id) return serve_waiting(nd, out);
  if (heavy) {
    long epn = lb_load_epn((long)nd->nq, nd->C, nd->A);
    size_t sent;
    nd->st.invocations++;
    return lb_node_transfer(nd, out, s->at, (size_t)epn, 0, &sent);
  }
  if ((long)nd->nq < nd->par->pool.below && !s->asking && !s->hungry) return ask(nd, now, out);
  return LB_SUCCESS;
}

static int on_ask(lb_node *nd, const lb_msg *m, lb_out *out)
{
  pool *s = P(nd);
  size_t sent = 0;
  int rc = LB_SUCCESS;
  /* Only the pool serves.  A node that is not the pool yet (the asker
   * learnt before it that the pool failed, and it is the next) says
   * empty too, and keeps the asker waiting: it serves it once it
   * learns that it keeps the pool. */
  if (s->at == nd->id) rc = give(nd, out, m->src, (uint32_t)m->u.pol.tag, &sent);
  if (rc || sent) return rc;
  if (!s->waiting && !(s->waiting = lb_mem_calloc(nd->topo->n))) return lb_error(LB_ENOMEM, "pool's waiting list");
  if (!s->waiting[m->src]) {
    s->waiting[m->src] = 1;
    s->nwaiting++;
  }
  return lb_node_send_policy(nd, out, m->src, K_EMPTY, m->u.pol.tag, 0, 0);
}

static int po_msg(lb_node *nd, lb_msg *m, double now, lb_out *out)
{
  (void)now;
  pool *s = P(nd);
  int rc = LB_SUCCESS;
  if (m->type != LB_MSG_POLICY) return lb_node_unexpected(nd, m);
  switch (m->u.pol.kind) {
  case K_ASK: rc = on_ask(nd, m, out); break;
  case K_EMPTY:
    /* From the pool, or from a node that is no longer the pool (it
     * failed, and this worker has not learnt it yet): wait, either for
     * the pool's chunk or for the failure, which makes it ask anew. */
    if (s->asking && m->u.pol.tag == s->round) {
      s->asking = 0;
      s->hungry = 1;
      s->late = 0;
    }
    break;
  default: return lb_node_unexpected(nd, m);
  }
  lb_msg_free(m);
  return rc;
}

static int po_transfer(lb_node *nd, const lb_msg *m, double now, lb_out *out)
{
  (void)now;
  pool *s = P(nd);
  if (s->at == nd->id) {
    s->batch_left = 0; /* new work: a new batch */
    return s->nwaiting ? serve_waiting(nd, out) : LB_SUCCESS;
  }
  if (m->src == s->at) {
    if (s->asking && m->u.transfer.epoch == (uint32_t)s->round) {
      s->asking = 0;
      s->late = 0;
    }
    if (!m->u.transfer.epoch) s->hungry = 0;
  }
  return LB_SUCCESS;
}

static int po_down(lb_node *nd, size_t dead, double now, lb_out *out)
{
  (void)now;
  (void)out;
  pool *s = P(nd);
  if (s->waiting && s->waiting[dead]) {
    s->waiting[dead] = 0;
    s->nwaiting--;
  }
  if (dead != s->at) return LB_SUCCESS;
  /* The pool is lost (the sink runs its processes again): the lowest
   * live node keeps the pool from now on, and every worker asks it. */
  for (s->at = 0; s->at < nd->topo->n && lb_node_is_down(nd, s->at); s->at++) {}
  s->asking = 0;
  s->hungry = 0;
  s->batch_left = 0;
  return LB_SUCCESS;
}

static int po_quiet(const lb_node *nd) { return !P(nd)->asking; }

static int po_describe(const lb_node *nd, char *buf, size_t cap)
{
  const pool *s = P(nd);
  if (!s->asking) return snprintf(buf, cap, "%s", "");
  return snprintf(buf, cap, "asked the pool at node %zu for work (round %llu)", s->at, (unsigned long long)s->round);
}

const lb_policy_ops lb_policy_pool_ops = {.init = po_init,
                                          .fini = po_fini,
                                          .on_msg = po_msg,
                                          .on_timer = po_timer,
                                          .on_tick = po_tick,
                                          .on_transfer = po_transfer,
                                          .on_down = po_down,
                                          .quiescent = po_quiet,
                                          .describe = po_describe};
