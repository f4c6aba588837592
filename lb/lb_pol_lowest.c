/* lb_pol_lowest.c: LOWEST (Zhou's threshold-and-probe policy, seed 000
 * reference [3]).  A heavy node probes a bounded number of random nodes,
 * migrates its excess (up to the target's room) to the least loaded one
 * below the light threshold, and repeats while still heavy.  A round
 * with no light node backs off, doubling up to 2^backoff_max timeouts. */
#include <stdint.h>
#include <stdio.h>
#include "lb_node_impl.h"
#include "lb_load.h"
#include "lb_errno.h"
#include "lb_mem.h"

typedef struct lowest {
  int waiting, backing_off;
  uint64_t round;
  size_t expected, replies;
  size_t *probed; /* this round's probed nodes; SIZE_MAX once answered */
  size_t capprobed;
  size_t best;
  long best_q;
  unsigned fails;
  double timeout;
} lowest;

#define L(nd) ((lowest *)(nd)->ps)
enum { T_TIMEOUT = 0, T_BACKOFF = 1 };

static int lo_init(lb_node *nd)
{
  lowest *s = lb_mem_calloc(sizeof *s);
  if (!s) return lb_error(LB_ENOMEM, "LOWEST state");
  size_t ecc;
  int rc = lb_topo_eccentricity_e(nd->topo, nd->id, &ecc);
  if (rc) {
    lb_mem_free(s, sizeof *s);
    return rc;
  }
  /* A probe and its reply cross at most 2 x eccentricity hops; wait
   * twice that, since a reply landing exactly at the deadline is lost. */
  s->timeout =
      nd->par->lowest.timeout > 0 ? nd->par->lowest.timeout : 4.0 * nd->par->hop_time * (double)(ecc ? ecc : 1);
  nd->ps = s;
  return LB_SUCCESS;
}

static void lo_fini(lb_node *nd)
{
  if (nd->ps) lb_mem_free(L(nd)->probed, L(nd)->capprobed * sizeof *L(nd)->probed);
  lb_mem_free(nd->ps, sizeof(lowest));
}

static int decide(lb_node *nd, double now, lb_out *out)
{
  lowest *s = L(nd);
  s->waiting = 0;
  long epn = lb_load_epn((long)nd->nq, nd->C, nd->A);
  if (s->best != LB_NO_NODE && epn > 0) {
    long room = lb_load_ipn(s->best_q, nd->C, nd->A);
    size_t k = (size_t)(epn < room ? epn : room), sent;
    s->fails = 0;
    return lb_node_transfer(nd, out, s->best, k, 0, &sent);
  }
  if (epn <= 0) return LB_SUCCESS;
  unsigned f = s->fails < nd->par->lowest.backoff_max ? s->fails : nd->par->lowest.backoff_max;
  s->fails++;
  s->backing_off = 1;
  return lb_node_timer(out, (s->round << 1) | T_BACKOFF, now + s->timeout * (double)(1u << f));
}

static int lo_tick(lb_node *nd, double now, lb_out *out)
{
  lowest *s = L(nd);
  if (!lb_node_track_heavy(nd) || s->waiting || s->backing_off || !lb_node_movable(nd)) return LB_SUCCESS;
  size_t n = nd->topo->n, live = n - 1 - nd->ndown;
  size_t want = nd->par->lowest.probes < live ? nd->par->lowest.probes : live;
  if (!want) return LB_SUCCESS;
  /* `want` distinct random nodes other than this one; kept, so that
   * only their first answers count. */
  if (want > s->capprobed) {
    size_t *v = lb_mem_realloc(s->probed, s->capprobed * sizeof *v, want * sizeof *v);
    if (!v) return lb_error(LB_ENOMEM, "probe list");
    s->probed = v;
    s->capprobed = want;
  }
  size_t *pick = s->probed;
  s->round++;
  s->waiting = 1;
  s->expected = want;
  s->replies = 0;
  s->best = LB_NO_NODE;
  s->best_q = 0;
  nd->st.invocations++;
  for (size_t k = 0; k < want;) {
    size_t j = lb_rng_below(&nd->rng, n);
    int dup = j == nd->id || lb_node_is_down(nd, j);
    for (size_t i = 0; i < k && !dup; i++) dup = pick[i] == j;
    if (!dup) pick[k++] = j;
  }
  int rc = LB_SUCCESS;
  for (size_t k = 0; k < want && !rc; k++) {
    lb_msg *m;
    if ((rc = lb_msg_alloc(LB_MSG_PROBE, nd->id, pick[k], &m))) break;
    m->u.probe.round = s->round;
    rc = lb_node_send(nd, out, pick[k], m);
  }
  return rc ? rc : lb_node_timer(out, (s->round << 1) | T_TIMEOUT, now + s->timeout);
}

static int lo_msg(lb_node *nd, lb_msg *m, double now, lb_out *out)
{
  lowest *s = L(nd);
  int rc = LB_SUCCESS;
  switch (m->type) {
  case LB_MSG_PROBE: {
    lb_msg *r;
    size_t to = m->src;
    if ((rc = lb_msg_alloc(LB_MSG_REPLY, nd->id, to, &r))) break;
    r->u.reply.q = (long)nd->nq;
    r->u.reply.round = m->u.probe.round;
    rc = lb_node_send(nd, out, to, r);
    break;
  }
  case LB_MSG_REPLY:
    if (s->waiting && m->u.reply.round == s->round) {
      size_t k = 0;
      while (k < s->expected && s->probed[k] != m->src) k++;
      if (k == s->expected) break; /* not probed, or answered already: ignored */
      s->probed[k] = SIZE_MAX;
      long q = m->u.reply.q;
      s->replies++;
      /* below the threshold: light; the least loaded wins */
      if (lb_load_state(q, nd->C, nd->A) == LB_LIGHT && (s->best == LB_NO_NODE || q < s->best_q)) {
        s->best = m->src;
        s->best_q = q;
      }
      if (s->replies == s->expected) rc = decide(nd, now, out);
    }
    break;
  default: return lb_node_unexpected(nd, m);
  }
  lb_msg_free(m);
  return rc;
}

static int lo_timer(lb_node *nd, uint64_t id, double now, lb_out *out)
{
  lowest *s = L(nd);
  if ((id >> 1) != s->round) return LB_SUCCESS;
  if ((id & 1) == T_BACKOFF) {
    s->backing_off = 0;
    return LB_SUCCESS;
  }
  return s->waiting ? decide(nd, now, out) : LB_SUCCESS;
}

static int lo_quiet(const lb_node *nd) { return !L(nd)->waiting; }

static int lo_describe(const lb_node *nd, char *buf, size_t cap)
{
  const lowest *s = L(nd);
  if (!s->waiting) return snprintf(buf, cap, "%s", "");
  return snprintf(buf, cap, "round %llu: %zu of %zu probes answered", (unsigned long long)s->round, s->replies,
                  s->expected);
}

const lb_policy_ops lb_policy_lowest_ops = {.init = lo_init,
                                            .fini = lo_fini,
                                            .on_msg = lo_msg,
                                            .on_timer = lo_timer,
                                            .on_tick = lo_tick,
                                            .quiescent = lo_quiet,
                                            .describe = lo_describe};
