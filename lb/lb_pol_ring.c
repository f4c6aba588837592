/* lb_pol_ring.c: dasud-ring, the DASUD that seed 000 compares RMTLB
 * with (section 2.2, algorithm (2)): "distributed control; HV limits
 * its search for an LV first to its neighbours; if none qualifies, it
 * widens the search by one ring, and so on, until it finds a qualifying
 * LV".  Cortes et al.'s diffusion DASUD is lb_pol_dasud.c.  What the
 * paper leaves open, we define so:
 *  - a run starts at a check point of a node that is heavy by eq. 1
 *    (EPN > 0) and has a process to move, and has no run open;
 *  - ring d is every live node at distance d in the node's current
 *    graph.  The HV sends each a PROBE (its tag the run, its count d);
 *    each answers at once with its IPN by eq. 1 (0 unless it is light);
 *  - an LV qualifies when it is light by eq. 1, i.e. its IPN > 0;
 *  - the ring is decided when every node of it has answered, or when
 *    its window (dasud-ring.timeout, 4 x hop time x d by default; twice
 *    as long after each ring in a row that some answer missed) ends:
 *    of the qualifying answers the HV picks the largest IPN, then the
 *    lowest id (all are at distance d: the nearest);
 *  - it sends min(EPN, IPN) processes, EPN as it is then, to that one
 *    LV in one TRANSFER, and the run ends: one LV per run, as the paper
 *    says of algorithms 1 and 2 ("each run picks only one LV").  Still
 *    heavy, it starts a new run, from ring 1, at its next check point;
 *  - with no LV up to the widest ring (its eccentricity, or
 *    dasud-ring.max_ring), the run ends empty, and the next waits one
 *    window of that ring (so a graph with no light node is not flooded
 *    at every quantum).
 * Nothing is reserved at the LV, as in the paper: an LV picked by two
 * HVs at once may turn heavy, and then balances in its turn.  A failure
 * ends the run open at the time (its rings are of the old graph). */
#include <stdio.h>
#include "lb_node_impl.h"
#include "lb_errno.h"
#include "lb_load.h"
#include "lb_mem.h"

enum { K_PROBE = 0, K_ANSWER = 1 };
enum { T_RING = 0, T_PAUSE = 1 };

typedef struct ring {
  uint64_t run;   /* the run's tag */
  int open;       /* a run is open */
  int paused;     /* after an empty run */
  size_t d, maxd; /* the ring searched, the widest */
  size_t *probed; /* this ring's nodes; LB_NO_NODE once answered */
  size_t nprobed, cap, answers;
  size_t best; /* the qualifying LV so far, or LB_NO_NODE */
  long best_ipn;
  unsigned late; /* rings in a row decided with answers missing */
} ring;

#define R(nd) ((ring *)(nd)->ps)

static int ri_init(lb_node *nd)
{
  ring *s = lb_mem_calloc(sizeof *s);
  if (!s) return lb_error(LB_ENOMEM, "dasud-ring state");
  nd->ps = s;
  return LB_SUCCESS;
}

static void ri_fini(lb_node *nd)
{
  ring *s = R(nd);
  if (!s) return;
  lb_mem_free(s->probed, s->cap * sizeof *s->probed);
  lb_mem_free(s, sizeof *s);
  nd->ps = NULL;
}

/* Ring d's window, twice as long for each ring in a row whose answers
 * did not all come in time (up to 2^10): a hop time that underestimates
 * the network would otherwise have every run skip the rings whose
 * answers are late. */
static double window(const lb_node *nd, size_t d)
{
  double w = nd->par->ring.timeout > 0 ? nd->par->ring.timeout : 4.0 * nd->par->hop_time * (double)d;
  return w * (double)(1u << R(nd)->late);
}

static uint64_t timer_id(uint64_t run, size_t d, int kind) { return (run << 25) | ((uint64_t)d << 1) | (uint64_t)kind; }

static int pause_after(lb_node *nd, double now, lb_out *out)
{
  ring *s = R(nd);
  s->open = 0;
  s->paused = 1;
  return lb_node_timer(out, timer_id(s->run, s->d, T_PAUSE), now + window(nd, s->d));
}

/* Probe ring d, or the next non-empty one; none left: the run ends. */
static int probe_ring(lb_node *nd, double now, lb_out *out)
{
  ring *s = R(nd);
  const lb_topo *t = nd->topo;
  for (; s->d <= s->maxd; s->d++) {
    s->nprobed = s->answers = 0;
    s->best = LB_NO_NODE;
    s->best_ipn = 0;
    for (size_t j = 0; j < t->n; j++) {
      if (j == nd->id || lb_node_is_down(nd, j) || lb_topo_distance(t, nd->id, j) != s->d) continue;
      if (s->nprobed == s->cap) {
        size_t c = s->cap ? 2 * s->cap : 8;
        size_t *v = lb_mem_realloc(s->probed, s->cap * sizeof *v, c * sizeof *v);
        if (!v) return lb_error(LB_ENOMEM, "node %zu: ring %zu", nd->id, s->d);
        s->probed = v;
        s->cap = c;
      }
      s->probed[s->nprobed++] = j;
    }
    if (s->nprobed) break;
  }
  if (s->d > s->maxd) {
    s->d = s->maxd;
    return pause_after(nd, now, out);
  }
  int rc = LB_SUCCESS;
  for (size_t k = 0; k < s->nprobed && !rc; k++)
    rc = lb_node_send_policy(nd, out, s->probed[k], K_PROBE, s->run, (long)s->d, 0);
  return rc ? rc : lb_node_timer(out, timer_id(s->run, s->d, T_RING), now + window(nd, s->d));
}

static int decide(lb_node *nd, double now, lb_out *out)
{
  ring *s = R(nd);
  long epn = lb_load_epn((long)nd->nq, nd->C, nd->A);
  if (epn <= 0) {
    s->open = 0;
    return LB_SUCCESS;
  } /* it ran its excess down itself */
  if (s->best == LB_NO_NODE) {
    s->d++;
    return probe_ring(nd, now, out);
  }
  s->open = 0;
  size_t k = (size_t)(epn < s->best_ipn ? epn : s->best_ipn), sent;
  return lb_node_transfer(nd, out, s->best, k, 0, &sent);
}

static int ri_tick(lb_node *nd, double now, lb_out *out)
{
  ring *s = R(nd);
  if (!lb_node_track_heavy(nd) || s->open || s->paused || !lb_node_movable(nd)) return LB_SUCCESS;
  size_t ecc;
  int rc = lb_topo_eccentricity_e(nd->topo, nd->id, &ecc);
  if (rc) return rc;
  s->maxd = nd->par->ring.max_ring && nd->par->ring.max_ring < ecc ? nd->par->ring.max_ring : ecc;
  if (!s->maxd) return LB_SUCCESS; /* alone */
  s->run++;
  s->open = 1;
  s->d = 1;
  nd->st.invocations++;
  return probe_ring(nd, now, out);
}

static int on_answer(lb_node *nd, const lb_msg *m, double now, lb_out *out)
{
  ring *s = R(nd);
  if (!s->open || m->u.pol.tag != s->run || (size_t)m->u.pol.b != s->d) return LB_SUCCESS; /* late */
  size_t k = 0;
  while (k < s->nprobed && s->probed[k] != m->src) k++;
  if (k == s->nprobed) return LB_SUCCESS; /* not probed, or answered already */
  s->probed[k] = LB_NO_NODE;
  s->answers++;
  long ipn = m->u.pol.a;
  if (ipn > 0 && (s->best == LB_NO_NODE || ipn > s->best_ipn || (ipn == s->best_ipn && m->src < s->best))) {
    s->best = m->src;
    s->best_ipn = ipn;
  }
  if (s->answers < s->nprobed) return LB_SUCCESS;
  s->late = 0;
  return decide(nd, now, out);
}

static int ri_msg(lb_node *nd, lb_msg *m, double now, lb_out *out)
{
  int rc = LB_SUCCESS;
  if (m->type != LB_MSG_POLICY) return lb_node_unexpected(nd, m);
  switch (m->u.pol.kind) {
  case K_PROBE:
    rc = lb_node_send_policy(nd, out, m->src, K_ANSWER, m->u.pol.tag, lb_load_ipn((long)nd->nq, nd->C, nd->A),
                             m->u.pol.a);
    break;
  case K_ANSWER: rc = on_answer(nd, m, now, out); break;
  default: return lb_node_unexpected(nd, m);
  }
  lb_msg_free(m);
  return rc;
}

static int ri_timer(lb_node *nd, uint64_t id, double now, lb_out *out)
{
  ring *s = R(nd);
  if ((id & 1) == T_PAUSE) {
    if (id == timer_id(s->run, s->d, T_PAUSE)) s->paused = 0;
    return LB_SUCCESS;
  }
  if (!s->open || id != timer_id(s->run, s->d, T_RING)) return LB_SUCCESS;
  if (s->answers < s->nprobed && s->late < 10) s->late++;
  return decide(nd, now, out);
}

static int ri_down(lb_node *nd, size_t dead, double now, lb_out *out)
{
  (void)dead;
  (void)now;
  (void)out;
  ring *s = R(nd);
  s->open = 0; /* its rings were of the old graph; a new run starts from ring 1 */
  s->paused = 0;
  return LB_SUCCESS;
}

static int ri_quiet(const lb_node *nd) { return !R(nd)->open; }

static int ri_describe(const lb_node *nd, char *buf, size_t cap)
{
  const ring *s = R(nd);
  if (!s->open) return snprintf(buf, cap, "%s", "");
  return snprintf(buf, cap, "run %llu: ring %zu, %zu of %zu answered", (unsigned long long)s->run, s->d, s->answers,
                  s->nprobed);
}

const lb_policy_ops lb_policy_ring_ops = {.init = ri_init,
                                          .fini = ri_fini,
                                          .on_msg = ri_msg,
                                          .on_timer = ri_timer,
                                          .on_tick = ri_tick,
                                          .on_down = ri_down,
                                          .quiescent = ri_quiet,
                                          .describe = ri_describe};
