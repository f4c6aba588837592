/* lb_pol_rmtlb.c: RMTLB, seed 000 Algorithms 1 and 2, as a state machine.
 *
 * docs/RMTLB.md records each place where the paper's text could not be
 * coded literally and what we do instead; the tags [R1]..[R27] below
 * point to its table.  In short: every message after RM is dispatched by
 * its type and its (HV, LV, tag) transaction, not by the node's current
 * load state, so a transaction survives its nodes changing state; every
 * AM is answered by a CM routed back along its path; the NRT keeps a
 * record per transaction until all its results have passed. */
#include <math.h>
#include <stdarg.h>
#include <stdlib.h>
#include <sys/types.h>
#include <string.h>
#include "lb_node_impl.h"
#include "lb_rmtlb.h"
#include "lb_load.h"
#include "lb_errno.h"
#include "lb_mem.h"

typedef struct nrt_rec {
  size_t hv, dv;  /* heavy node; light node (the paper's DV / LV) */
  uint64_t tag;   /* chosen by the light node: (HV, DV) alone is ambiguous [R8] */
  size_t pv, nxv; /* prior vertex (towards HV), next vertex (towards DV) */
  int confirmed;  /* CM(True) seen here */
  long total;     /* processes of the transaction, -1 until an LMM tells */
  long got;       /* processes that reached or passed this node */
  long back;      /* results that reached or passed this node */
} nrt_rec;

typedef struct arrival {
  uint64_t pid;
  size_t hv;
  uint64_t tag;
} arrival;

enum { T_ROUND = 0, T_BACKOFF = 1, T_LEASE = 2 };

/* What every check point and the quiescence check read comes first:
 * the driver prefetches the first two cache lines. */
typedef struct rmtlb {
  int active;           /* a heavy episode is running (Algorithm 1) */
  int answered;         /* an AM reached us in this round */
  unsigned fails;       /* rounds in a row without any AM */
  size_t rmtv, rmtv_hv; /* the lock: who sent the RM we took, for which HV */
  uint64_t lock_seq;
  long lepn, lipn;
  nrt_rec *nrt;
  size_t nnrt, capnrt;
  arrival *arr; /* processes that came here by LMM [R24] */
  size_t narr, caparr;
  uint64_t round_seq;
  unsigned floods; /* floods in the current episode */
  uint64_t next_tag;
  double tmax;
  struct seen {
    size_t hv;
    uint64_t round;
  } * seen; /* last round taken part in, per HV [R29] */
  size_t nseen, capseen;
  /* Transactions aborted here after a failure, newest last (a ring of
   * NTOMB, allocated at the first): a message of one of them still on
   * its way must not open it again. */
  struct tomb {
    size_t hv, dv;
    uint64_t tag;
  } * tomb;
  size_t ntomb;
  /* What this host knows of the work it ran (RMTLB-drain's estimates):
   * all of it; the quanta that did not finish a process, and their
   * work; the processes that finished here, and their whole work
   * (lb_proc.ran: here and on the nodes before). */
  double work_run, quanta_work, fin_work;
  unsigned long quanta_n, fin_n;
} rmtlb;

#define NTOMB 64

#define S(nd)               ((rmtlb *)(nd)->ps)
#define TIMER_ID(seq, kind) (((seq) << 2) | (uint64_t)(kind))

static int rm_init(lb_node *nd)
{
  rmtlb *s = lb_mem_calloc(sizeof *s);
  if (!s) return lb_error(LB_ENOMEM, "RMTLB state");
  s->rmtv = s->rmtv_hv = LB_NO_NODE;
  s->lepn = s->lipn = -1;
  if (nd->par->rmtlb.tmax > 0) s->tmax = nd->par->rmtlb.tmax;
  else {
    /* Tmax = 2 x the time to the farthest node [R20]. */
    size_t ecc;
    int rc = lb_topo_eccentricity_e(nd->topo, nd->id, &ecc);
    if (rc) {
      lb_mem_free(s, sizeof *s);
      return rc;
    }
    s->tmax = 2.0 * nd->par->hop_time * (double)(ecc ? ecc : 1);
  }
  nd->ps = s;
  return LB_SUCCESS;
}

static void rm_fini(lb_node *nd)
{
  rmtlb *s = S(nd);
  if (!s) return;
  /* Its tables come from lb_mem: a large simulated run reads them out
   * of cache, beside the node's other records. */
  lb_mem_free(s->nrt, s->capnrt * sizeof *s->nrt);
  lb_mem_free(s->arr, s->caparr * sizeof *s->arr);
  lb_mem_free(s->seen, s->capseen * sizeof *s->seen);
  lb_mem_free(s->tomb, NTOMB * sizeof *s->tomb);
  lb_mem_free(s, sizeof *s);
}

/* ---- NRT ---- */
static nrt_rec *nrt_find(rmtlb *s, size_t hv, size_t dv, uint64_t tag)
{
  for (size_t k = 0; k < s->nnrt; k++)
    if (s->nrt[k].hv == hv && s->nrt[k].dv == dv && s->nrt[k].tag == tag) return &s->nrt[k];
  return NULL;
}

static nrt_rec *nrt_add(rmtlb *s, size_t hv, size_t dv, uint64_t tag, size_t pv, size_t nxv)
{
  nrt_rec *v = lb_mem_grow(s->nrt, &s->capnrt, s->nnrt, sizeof *v, 4);
  if (!v) return NULL;
  s->nrt = v;
  nrt_rec *r = &s->nrt[s->nnrt++];
  *r = (nrt_rec){hv, dv, tag, pv, nxv, 0, -1, 0, 0};
  return r;
}

static void nrt_del(rmtlb *s, nrt_rec *r) { *r = s->nrt[--s->nnrt]; }

static int tombed(const rmtlb *s, size_t hv, size_t dv, uint64_t tag)
{
  size_t n = s->ntomb < NTOMB ? s->ntomb : NTOMB;
  for (size_t k = 0; k < n; k++)
    if (s->tomb[k].hv == hv && s->tomb[k].dv == dv && s->tomb[k].tag == tag) return 1;
  return 0;
}

/* A record whose CM has not passed yet: the search it belongs to is
 * still open here. */
static int awaiting_cm(const rmtlb *s, size_t hv)
{
  for (size_t k = 0; k < s->nnrt; k++)
    if (s->nrt[k].hv == hv && !s->nrt[k].confirmed) return 1;
  return 0;
}

static int own_awaiting(const rmtlb *s, size_t self)
{
  for (size_t k = 0; k < s->nnrt; k++)
    if (s->nrt[k].dv == self && !s->nrt[k].confirmed) return 1;
  return 0;
}

/* LIPN returns to -1 when no transaction towards this node is still
 * unconfirmed or still bringing processes [R26]. */
static void lipn_settle(lb_node *nd)
{
  rmtlb *s = S(nd);
  for (size_t k = 0; k < s->nnrt; k++) {
    const nrt_rec *r = &s->nrt[k];
    if (r->dv == nd->id && (!r->confirmed || r->total < 0 || r->got < r->total)) return;
  }
  s->lipn = -1;
}

/* Release the rmtv lock once no answer of its search is awaiting a CM
 * here [R13]. */
static void lock_settle(rmtlb *s, size_t hv)
{
  if (s->rmtv != LB_NO_NODE && s->rmtv_hv == hv && !awaiting_cm(s, hv)) s->rmtv = s->rmtv_hv = LB_NO_NODE;
}

/* A record is done when its CM has passed and every process of its
 * transaction has passed both ways; with reordering the CM can be the
 * last of these [R26]. */
static void rec_done_check(rmtlb *s, nrt_rec *r)
{
  if (r->confirmed && r->total >= 0 && r->back >= r->total && r->got >= r->total) nrt_del(s, r);
}

/* Messages of a transaction carry (HV, LV, tag) in the same places. */
static int new_msg(lb_msg_type t, size_t hv, size_t lv, uint64_t tag, lb_msg **m)
{
  int rc = lb_msg_alloc(t, LB_NO_NODE, LB_NO_NODE, m);
  if (rc) return rc;
  switch (t) {
  case LB_MSG_AM:
    (*m)->u.am.hv = hv;
    (*m)->u.am.lv = lv;
    (*m)->u.am.tag = tag;
    break;
  case LB_MSG_CM:
    (*m)->u.cm.hv = hv;
    (*m)->u.cm.lv = lv;
    (*m)->u.cm.tag = tag;
    break;
  case LB_MSG_LMM:
    (*m)->u.lmm.hv = hv;
    (*m)->u.lmm.lv = lv;
    (*m)->u.lmm.tag = tag;
    break;
  case LB_MSG_DRM:
    (*m)->u.drm.hv = hv;
    (*m)->u.drm.lv = lv;
    (*m)->u.drm.tag = tag;
    break;
  case LB_MSG_ABORT:
    (*m)->u.abort.hv = hv;
    (*m)->u.abort.lv = lv;
    (*m)->u.abort.tag = tag;
    break;
  default: (*m)->u.rm.hv = hv; break;
  }
  return LB_SUCCESS;
}

/* The transaction key of a CM, LMM or DRM. */
static void key_of(const lb_msg *m, size_t *hv, size_t *lv, uint64_t *tag)
{
  switch (m->type) {
  case LB_MSG_CM:
    *hv = m->u.cm.hv;
    *lv = m->u.cm.lv;
    *tag = m->u.cm.tag;
    break;
  case LB_MSG_LMM:
    *hv = m->u.lmm.hv;
    *lv = m->u.lmm.lv;
    *tag = m->u.lmm.tag;
    break;
  case LB_MSG_ABORT:
    *hv = m->u.abort.hv;
    *lv = m->u.abort.lv;
    *tag = m->u.abort.tag;
    break;
  default:
    *hv = m->u.drm.hv;
    *lv = m->u.drm.lv;
    *tag = m->u.drm.tag;
    break;
  }
}

static int send_cm(lb_node *nd, lb_out *out, size_t to, size_t hv, size_t lv, uint64_t tag, int aor, long depn)
{
  lb_msg *m;
  int rc = new_msg(LB_MSG_CM, hv, lv, tag, &m);
  if (rc) return rc;
  m->u.cm.aor = aor;
  m->u.cm.depn = depn;
  return lb_node_send(nd, out, to, m);
}

/* ---- Algorithm 1: the heavy node's rounds ---- */
static int flood_rm(lb_node *nd, double now, lb_out *out)
{
  rmtlb *s = S(nd);
  s->round_seq++;
  s->answered = 0;
  s->floods++;
  nd->st.invocations++;
  const size_t *nb = lb_topo_neighbours(nd->topo, nd->id);
  for (size_t k = 0; k < lb_topo_degree(nd->topo, nd->id); k++) {
    lb_msg *m;
    int rc = new_msg(LB_MSG_RM, nd->id, LB_NO_NODE, 0, &m);
    if (rc) return rc;
    m->u.rm.epn = s->lepn;
    m->u.rm.round = s->round_seq;
    m->u.rm.lease = s->tmax;
    if ((rc = lb_node_send(nd, out, nb[k], m))) return rc;
  }
  return lb_node_timer(out, TIMER_ID(s->round_seq, T_ROUND), now + s->tmax);
}

static long epn_now(const lb_node *nd)
{
  long e = lb_load_epn((long)nd->nq, nd->C, nd->A);
  long mv = (long)lb_node_movable(nd);
  return e < mv ? e : mv;
}

/* An episode ends with its excess placed, or dissolved (run down here). */
static void end_episode(lb_node *nd, int placed)
{
  rmtlb *s = S(nd);
  if (placed) nd->st.placed[s->floods < 7 ? s->floods : 7]++;
  else nd->st.dissolved++;
  s->active = 0;
  s->lepn = -1;
}

/* RMTLB-drain's estimate of a queued process's work left, from what a
 * host knows (lb_rmtlb_estimate): the mean process, or what its
 * application declared, less what it has run; at least `least`, the
 * work of a quantum here (a process still queued has one more to run).
 * The oracle reads the simulator's true work left. */
static double work_left(const lb_node *nd, const lb_proc *p, double mean, double least)
{
  lb_rmtlb_estimate e = nd->par->rmtlb.estimate;
  if (e == LB_EST_ORACLE) return p->work;
  double l = (e == LB_EST_DECLARED && p->est > 0 ? (double)p->est : mean) - (double)p->ran;
  return l > least ? l : least;
}

/* RMTLB-drain: the load index is the work left here, in mean
 * processes, and C follows the system's average, which falls by one
 * mean process for each mean process's work a busy node runs.  Under
 * round robin a queue's length stays flat while its work drains, so
 * the count alone cannot follow the average.  Both enter through C,
 * Q - C_eff = Q_work - C(t), so no message changes.  The mean process
 * is the one the application declares (rmtlb.work_mean), else the
 * running mean of the processes finished here; until one has, the
 * index stays the count.  The oracle's mean is the true mean of the
 * processes this node has held. */
static void drain_capacity(lb_node *nd)
{
  const rmtlb *s = S(nd);
  const lb_rmtlb_params *rp = &nd->par->rmtlb;
  double mean = rp->work_mean > 0 ? rp->work_mean : s->fin_n ? s->fin_work / (double)s->fin_n : 0;
  double least = s->quanta_n ? s->quanta_work / (double)s->quanta_n : 0;
  if (rp->estimate == LB_EST_ORACLE && !(rp->work_mean > 0)) {
    double w = 0, seen = (double)(nd->st.executed + nd->nq);
    for (size_t k = 0; k < nd->nq; k++) w += nd->q[k]->work;
    mean = seen > 0 ? (s->work_run + w) / seen : 0;
  }
  if (!(mean > 0)) return;
  double w = 0;
  for (size_t k = 0; k < nd->nq; k++) w += work_left(nd, nd->q[k], mean, least);
  double c = (double)nd->capacity - s->work_run / mean;
  if (c < rp->drain) c = rp->drain;
  double ce = (double)nd->nq - w / mean + c;
  nd->C = ce > 0 ? (int)lround(ce) : 0;
  if (nd->par->threshold < 0) nd->A = lb_load_threshold((int)ceil(c), LB_LOAD_DEFAULT_PCT);
}

/* Only RMTLB-drain reads these: the paper's RMTLB does not touch its
 * state on a quantum (on a large run, a cache miss every time). */
static void rm_ran(lb_node *nd, const lb_proc *p, double work, int finished)
{
  if (!(nd->par->rmtlb.drain > 0)) return;
  rmtlb *s = S(nd);
  s->work_run += work;
  if (finished) {
    s->fin_work += p->ran;
    s->fin_n++;
  } else {
    s->quanta_work += work;
    s->quanta_n++;
  }
}

static int rm_tick(lb_node *nd, double now, lb_out *out)
{
  rmtlb *s = S(nd);
  if (nd->par->rmtlb.drain > 0) drain_capacity(nd);
  if (s->active || epn_now(nd) <= 0) return LB_SUCCESS;
  s->active = 1;
  s->fails = 0;
  s->floods = 0;
  s->lepn = epn_now(nd);
  nd->st.episodes++;
  return flood_rm(nd, now, out);
}

static int rm_timer(lb_node *nd, uint64_t id, double now, lb_out *out)
{
  rmtlb *s = S(nd);
  int kind = (int)(id & 3);
  uint64_t seq = id >> 2;
  if (kind == T_LEASE) {
    /* A search that produced no CM here must not lock us forever [R21]. */
    if (seq == s->lock_seq) s->rmtv = s->rmtv_hv = LB_NO_NODE;
    return LB_SUCCESS;
  }
  if (!s->active || seq != s->round_seq) return LB_SUCCESS;
  long e = epn_now(nd);
  if (e <= 0) {
    end_episode(nd, 0);
    return LB_SUCCESS;
  }
  if (kind == T_ROUND && !s->answered && nd->par->rmtlb.backoff_max > 0) {
    /* No light node answered: with the back-off option, wait, doubling
     * up to 2^backoff_max Tmax, then search again [R19]; without it
     * (the paper) search again at once. */
    unsigned f = s->fails < nd->par->rmtlb.backoff_max ? s->fails : nd->par->rmtlb.backoff_max;
    s->fails++;
    return lb_node_timer(out, TIMER_ID(s->round_seq, T_BACKOFF), now + s->tmax * (double)(1u << f));
  }
  if (kind == T_ROUND) s->fails = 0;
  s->lepn = e; /* what is left now, after the answers of the last round [R22] */
  return flood_rm(nd, now, out);
}

/* Step 4.1, corrected: answer every AM with a CM along its path, send
 * this light node's share [R15, R16, R17]. */
static int heavy_am(lb_node *nd, lb_msg *m, lb_out *out)
{
  rmtlb *s = S(nd);
  size_t from = m->src, lv = m->u.am.lv;
  uint64_t tag = m->u.am.tag;
  long ipn = m->u.am.ipn;
  lb_msg_free(m);
  /* An answer from a failed node, or of a transaction aborted here: its
   * path is gone, nobody waits for a CM. */
  if (lb_node_is_down(nd, lv) || tombed(s, nd->id, lv, tag)) return LB_SUCCESS;
  long mv = (long)lb_node_movable(nd);
  long depn = s->active && s->lepn > 0 ? (ipn < s->lepn ? ipn : s->lepn) : 0;
  if (depn > mv) depn = mv;
  if (depn <= 0) return send_cm(nd, out, from, nd->id, lv, tag, 0, 0);
  s->answered = 1;
  s->lepn -= depn;
  nrt_rec *r = nrt_add(s, nd->id, lv, tag, LB_NO_NODE, from);
  if (!r) return lb_error(LB_ENOMEM, "NRT");
  r->confirmed = 1;
  r->total = r->got = depn;
  int rc = send_cm(nd, out, from, nd->id, lv, tag, 1, depn);
  if (rc) return rc;
  /* The processes that leave, taken in one go (the sends wait in `out`,
   * so the queue is the same as it would be one at a time). */
  lb_proc **v = lb_mem_alloc((size_t)depn * sizeof *v);
  if (!v) return lb_error(LB_ENOMEM, "processes to send");
  size_t got = lb_node_take_movable_n(nd, v, (size_t)depn), k = 0;
  /* One LMM per process, FON on the last; n carries the total so the
   * path can count results even if LMMs overtake each other [R26]. */
  for (; !rc && k < (size_t)depn; k++) {
    lb_msg *l;
    if ((rc = new_msg(LB_MSG_LMM, nd->id, lv, tag, &l))) break;
    l->u.lmm.total = depn;
    l->u.lmm.fon = k == (size_t)depn - 1;
    if (k >= got || (rc = lb_msg_add_proc(l, v[k]))) {
      lb_msg_free(l);
      if (!rc) rc = lb_error(LB_ESTATE, "node %zu: no process to send", nd->id);
      break;
    }
    lb_node_count_leaving(nd, v[k]);
    rc = lb_node_send(nd, out, from, l);
  }
  for (; k < got; k++) lb_node_put_back(nd, v[k]); /* not sent: back in the queue */
  lb_mem_free(v, (size_t)depn * sizeof *v);
  if (!rc && s->lepn == 0) end_episode(nd, 1);
  return rc;
}

/* ---- Algorithm 2 ---- */
/* Rule 3: a node takes part in an HV's search once.  The round number
 * tells a copy of a flood it has handled from a new flood [R29]. */
static uint64_t seen_round(const rmtlb *s, size_t hv)
{
  for (size_t k = 0; k < s->nseen; k++)
    if (s->seen[k].hv == hv) return s->seen[k].round;
  return 0;
}

static int seen_set(rmtlb *s, size_t hv, uint64_t round)
{
  for (size_t k = 0; k < s->nseen; k++)
    if (s->seen[k].hv == hv) {
      s->seen[k].round = round;
      return LB_SUCCESS;
    }
  struct seen *v = lb_mem_grow(s->seen, &s->capseen, s->nseen, sizeof *v, 4);
  if (!v) return lb_error(LB_ENOMEM, "RMTLB round table");
  s->seen = v;
  s->seen[s->nseen++] = (struct seen){hv, round};
  return LB_SUCCESS;
}

static int on_rm(lb_node *nd, lb_msg *m, double now, lb_out *out)
{
  rmtlb *s = S(nd);
  size_t from = m->src, hv = m->u.rm.hv;
  long epn = m->u.rm.epn;
  double lease = m->u.rm.lease > 0 ? m->u.rm.lease : s->tmax;
  uint64_t round = m->u.rm.round;
  lb_msg_free(m);
  /* Locked nodes neither answer nor forward (Rules 1, 3) [R10]; heavy
   * nodes do not forward (Rule 3). */
  if (hv == nd->id || s->rmtv != LB_NO_NODE || s->active || lb_node_is_down(nd, hv) || lb_node_state(nd) == LB_HEAVY ||
      epn <= 0 || round <= seen_round(s, hv))
    return LB_SUCCESS;
  if (s->lipn < 0 && lb_node_state(nd) == LB_LIGHT) s->lipn = lb_load_ipn((long)nd->nq, nd->C, nd->A);
  /* LIPN = 0 (all seats promised) or an answer still unconfirmed: act
   * as a normal node [R12]. */
  int answer = s->lipn > 0 && !own_awaiting(s, nd->id);
  size_t deg = lb_topo_degree(nd->topo, nd->id);
  int forward = deg > 1 && (!answer || s->lipn < epn); /* Rule 2: EPN > LIPN [R9] */
  if (!answer && !forward) return LB_SUCCESS;
  /* Every node that takes part sets rmtv, forwarding ones too [R11]. */
  int rc = seen_set(s, hv, round);
  if (rc) return rc;
  s->rmtv = from;
  s->rmtv_hv = hv;
  s->lock_seq++;
  rc = lb_node_timer(out, TIMER_ID(s->lock_seq, T_LEASE), now + lease);
  if (!rc && answer) {
    uint64_t tag = ++s->next_tag;
    if (!nrt_add(s, hv, nd->id, tag, from, nd->id)) return lb_error(LB_ENOMEM, "NRT");
    lb_msg *a;
    if ((rc = new_msg(LB_MSG_AM, hv, nd->id, tag, &a))) return rc;
    a->u.am.ipn = s->lipn;
    rc = lb_node_send(nd, out, from, a);
  }
  if (!rc && forward) {
    long left = answer ? epn - s->lipn : epn;
    const size_t *nb = lb_topo_neighbours(nd->topo, nd->id);
    for (size_t k = 0; !rc && k < deg; k++) {
      if (nb[k] == from) continue;
      lb_msg *f;
      if ((rc = new_msg(LB_MSG_RM, hv, LB_NO_NODE, 0, &f))) break;
      f->u.rm.epn = left;
      f->u.rm.round = round;
      /* The HV's round ends Tmax after its flood: a lock further out
       * need not outlive it [R21]. */
      f->u.rm.lease = lease - nd->par->hop_time > nd->par->hop_time ? lease - nd->par->hop_time : nd->par->hop_time;
      rc = lb_node_send(nd, out, nb[k], f);
    }
  }
  return rc;
}

static int on_am(lb_node *nd, lb_msg *m, lb_out *out)
{
  rmtlb *s = S(nd);
  size_t hv = m->u.am.hv, lv = m->u.am.lv;
  uint64_t tag = m->u.am.tag;
  if (hv == nd->id) return heavy_am(nd, m, out);
  if (lb_node_is_down(nd, hv) || lb_node_is_down(nd, lv) || tombed(s, hv, lv, tag)) {
    lb_msg_free(m);
    return LB_SUCCESS;
  }
  size_t from = m->src, up = LB_NO_NODE;
  /* Steps 2.2 / 3.2: the path back is the lock's rmtv while it is held
   * for this HV, else the PV of a confirmed record of that HV: a CM(True)
   * came down that way, and its chain up to HV lives until its results
   * have passed.  Unconfirmed records may belong to answers that will be
   * refused; following them can wander [R4, R27]. */
  if (s->rmtv != LB_NO_NODE && s->rmtv_hv == hv) up = s->rmtv;
  for (size_t k = 0; up == LB_NO_NODE && k < s->nnrt; k++)
    if (s->nrt[k].hv == hv && s->nrt[k].confirmed && s->nrt[k].pv != LB_NO_NODE) up = s->nrt[k].pv;
  /* No way back (the search is over here), or a path that came back to
   * a node it passed (old records can form a loop): refuse on the HV's
   * behalf [R22, R27]. */
  if (up == LB_NO_NODE || up == from || m->u.am.hops > nd->topo->n || nrt_find(s, hv, lv, tag)) {
    lb_msg_free(m);
    return send_cm(nd, out, from, hv, lv, tag, 0, 0);
  }
  if (!nrt_add(s, hv, lv, tag, up, from)) {
    lb_msg_free(m);
    return lb_error(LB_ENOMEM, "NRT");
  }
  m->u.am.hops++;
  return lb_node_send(nd, out, up, m);
}

/* The record a CM, LMM or DRM travels on.  Without one the message
 * cannot be routed: it is freed and the status says why. */
/* After a failure, a message of a transaction that was broken (its
 * records gone) may still arrive: its processes stay here, its result
 * goes home the direct way (or is delivered here). */
static int orphan(lb_node *nd, lb_msg *m, lb_out *out)
{
  int rc = LB_SUCCESS;
  for (size_t k = 0; k < m->nproc && !rc; k++)
    if (!(rc = lb_node_enqueue(nd, m->procs[k]))) m->procs[k] = NULL;
  if (!rc && m->type == LB_MSG_DRM) rc = lb_node_result_direct(nd, &m->res, out);
  lb_msg_free(m);
  return rc;
}

/* The record a CM, LMM or DRM travels on.  Without one the message
 * cannot be routed: after a failure it is an orphan (handled, *rc
 * says how it went), otherwise a protocol error; m is consumed. */
static nrt_rec *rec_of(lb_node *nd, lb_msg *m, lb_out *out, int *rc)
{
  size_t hv, lv;
  uint64_t tag;
  key_of(m, &hv, &lv, &tag);
  nrt_rec *r = nrt_find(S(nd), hv, lv, tag);
  if (r) return r;
  if (nd->ndown) {
    *rc = orphan(nd, m, out);
    return NULL;
  }
  *rc = lb_error(LB_ESTATE, "node %zu: %s for (%zu, %zu, %llu) without an NRT record", nd->id,
                 lb_msg_type_name(m->type), hv, lv, (unsigned long long)tag);
  lb_msg_free(m);
  return NULL;
}

static int on_cm(lb_node *nd, lb_msg *m, lb_out *out)
{
  rmtlb *s = S(nd);
  int rc;
  nrt_rec *r = rec_of(nd, m, out, &rc);
  if (!r) return rc;
  size_t hv = m->u.cm.hv;
  rc = LB_SUCCESS;
  if (m->u.cm.lv == nd->id) {
    if (m->u.cm.aor) {
      r->confirmed = 1;
      s->lipn -= m->u.cm.depn;
      if (s->lipn < 0) s->lipn = 0;
      rec_done_check(s, r);
    } else nrt_del(s, r);
    lb_msg_free(m);
    lipn_settle(nd);
  } else {
    /* Both CM(True) and CM(False) travel on to the light node [R14]. */
    size_t nx = r->nxv;
    if (m->u.cm.aor) {
      r->confirmed = 1;
      rec_done_check(s, r);
    } else nrt_del(s, r);
    rc = lb_node_send(nd, out, nx, m);
  }
  lock_settle(s, hv);
  return rc;
}

static int on_lmm(lb_node *nd, lb_msg *m, lb_out *out)
{
  rmtlb *s = S(nd);
  int rc;
  nrt_rec *r = rec_of(nd, m, out, &rc);
  if (!r) return rc;
  r->total = m->u.lmm.total;
  r->got += (long)m->nproc;
  if (m->u.lmm.lv != nd->id) return lb_node_send(nd, out, r->nxv, m); /* [R23] */
  for (size_t k = 0; k < m->nproc; k++) {
    arrival *v = lb_mem_grow(s->arr, &s->caparr, s->narr, sizeof *v, 4);
    if (!v) {
      lb_msg_free(m);
      return lb_error(LB_ENOMEM, "arrival table");
    }
    s->arr = v;
    s->arr[s->narr++] = (arrival){m->procs[k]->id, m->u.lmm.hv, m->u.lmm.tag};
  }
  rc = LB_SUCCESS;
  for (size_t k = 0; !rc && k < m->nproc; k++)
    if (!(rc = lb_node_enqueue(nd, m->procs[k]))) m->procs[k] = NULL;
  if (!rc) m->nproc = 0;
  lb_msg_free(m);
  lipn_settle(nd);
  return rc;
}

static int result_ready(lb_node *nd, const lb_result_ref *res, double now, lb_out *out);

static int on_drm(lb_node *nd, lb_msg *m, double now, lb_out *out)
{
  rmtlb *s = S(nd);
  int rc;
  nrt_rec *r = rec_of(nd, m, out, &rc);
  if (!r) return rc;
  r->back++;
  size_t pv = r->pv;
  rec_done_check(s, r);
  if (m->u.drm.hv != nd->id) return lb_node_send(nd, out, pv, m);
  /* Back at the heavy node: it continues as if run here [R24]. */
  lb_result_ref res = m->res;
  lb_msg_free(m);
  return result_ready(nd, &res, now, out);
}

static int result_ready(lb_node *nd, const lb_result_ref *res, double now, lb_out *out)
{
  (void)now;
  rmtlb *s = S(nd);
  /* A process that passed through here twice has two arrivals: its
   * result unwinds the latest first, the way it came [R24]. */
  for (size_t k = s->narr; k-- > 0;) {
    if (s->arr[k].pid != res->pid) continue;
    arrival a = s->arr[k];
    memmove(s->arr + k, s->arr + k + 1, (--s->narr - k) * sizeof *s->arr);
    nrt_rec *r = nrt_find(s, a.hv, nd->id, a.tag);
    if (!r)
      return lb_error(LB_ESTATE, "node %zu: no NRT record to return process %llu", nd->id,
                      (unsigned long long)res->pid);
    lb_msg *d;
    int rc = new_msg(LB_MSG_DRM, a.hv, nd->id, a.tag, &d);
    if (rc) return rc;
    d->res = *res;
    r->back++;
    size_t pv = r->pv;
    d->u.drm.fon = r->back == r->total; /* FON: the last result of the transaction */
    rec_done_check(s, r);
    return lb_node_send(nd, out, pv, d);
  }
  /* Not brought by an LMM (run at its origin, or moved by an outside
   * order): the default route. */
  return lb_node_result_direct(nd, res, out);
}

/* ---- failures ---- */
static int send_abort(lb_node *nd, lb_out *out, size_t to, const nrt_rec *r)
{
  if (to == LB_NO_NODE || to == nd->id || lb_node_is_down(nd, to)) return LB_SUCCESS;
  lb_msg *a;
  int rc = new_msg(LB_MSG_ABORT, r->hv, r->dv, r->tag, &a);
  return rc ? rc : lb_node_send(nd, out, to, a);
}

/* Forget a transaction here: its processes that came here keep running
 * but their results go home the direct way. */
static int forget(lb_node *nd, nrt_rec *r)
{
  rmtlb *s = S(nd);
  size_t hv = r->hv;
  if (!s->tomb && !(s->tomb = lb_mem_alloc(NTOMB * sizeof *s->tomb)))
    return lb_error(LB_ENOMEM, "RMTLB aborted transactions");
  s->tomb[s->ntomb++ % NTOMB] = (struct tomb){r->hv, r->dv, r->tag};
  if (r->dv == nd->id) {
    size_t j = 0; /* keep the arrivals in order (result_ready) */
    for (size_t k = 0; k < s->narr; k++)
      if (s->arr[k].hv != r->hv || s->arr[k].tag != r->tag) s->arr[j++] = s->arr[k];
    s->narr = j;
  }
  nrt_del(s, r);
  lipn_settle(nd);
  lock_settle(s, hv);
  return LB_SUCCESS;
}

static int queued(const lb_node *nd, uint64_t pid)
{
  for (size_t k = 0; k < nd->nq; k++)
    if (nd->q[k]->id == pid) return 1;
  return 0;
}

/* This node, as a heavy node, lost a transaction: the processes it had
 * passed on may never come back through it.  Any that had come here by
 * an earlier transaction would leave that one waiting for ever, so it
 * is aborted too; its other processes' results then go home the direct
 * way. */
static int cascade(lb_node *nd, lb_out *out)
{
  rmtlb *s = S(nd);
  int rc = LB_SUCCESS;
  for (size_t k = 0; k < s->narr && !rc;) {
    arrival a = s->arr[k];
    nrt_rec *r = queued(nd, a.pid) ? NULL : nrt_find(s, a.hv, nd->id, a.tag);
    if (!r) {
      k++;
      continue;
    }
    nrt_rec copy = *r;
    /* forget removes this transaction's arrivals: restart the scan */
    if (!(rc = forget(nd, r))) rc = send_abort(nd, out, copy.pv, &copy);
    k = 0;
  }
  return rc;
}

/* An ABORT travels on away from where it came, deleting the records of
 * its transaction (our extension: the paper has no failures). */
static int on_abort(lb_node *nd, lb_msg *m, lb_out *out)
{
  size_t hv, lv, from = m->src;
  uint64_t tag;
  key_of(m, &hv, &lv, &tag);
  lb_msg_free(m);
  nrt_rec *r = nrt_find(S(nd), hv, lv, tag);
  if (!r) return LB_SUCCESS;
  size_t to = from == r->pv ? r->nxv : from == r->nxv ? r->pv : LB_NO_NODE;
  nrt_rec copy = *r;
  int rc = forget(nd, r);
  if (!rc) rc = send_abort(nd, out, to, &copy);
  return rc || copy.hv != nd->id ? rc : cascade(nd, out);
}

/* Node d failed: every lock and record tied to it goes, and each broken
 * transaction is aborted along the rest of its path, both ways. */
static int rm_down(lb_node *nd, size_t d, double now, lb_out *out)
{
  (void)now;
  rmtlb *s = S(nd);
  int rc = LB_SUCCESS;
  if (s->rmtv == d || s->rmtv_hv == d) s->rmtv = s->rmtv_hv = LB_NO_NODE;
  for (size_t k = 0; k < s->nseen; k++)
    if (s->seen[k].hv == d) {
      s->seen[k] = s->seen[--s->nseen];
      break;
    }
  for (size_t k = 0; k < s->nnrt && !rc;) {
    nrt_rec r = s->nrt[k];
    if (r.hv != d && r.dv != d && r.pv != d && r.nxv != d) {
      k++;
      continue;
    }
    if (!(rc = forget(nd, &s->nrt[k])) && !(rc = send_abort(nd, out, r.pv, &r))) rc = send_abort(nd, out, r.nxv, &r);
    if (!rc && r.hv == nd->id) {
      rc = cascade(nd, out);
      k = 0;
    }
  }
  /* Tmax rests on the distances of the graph the survivors use. */
  if (!(nd->par->rmtlb.tmax > 0)) {
    size_t ecc;
    if (!lb_topo_eccentricity_e(nd->topo, nd->id, &ecc)) s->tmax = 2.0 * nd->par->hop_time * (double)(ecc ? ecc : 1);
  }
  return rc;
}

static int rm_msg(lb_node *nd, lb_msg *m, double now, lb_out *out)
{
  switch (m->type) {
  case LB_MSG_RM: return on_rm(nd, m, now, out);
  case LB_MSG_AM: return on_am(nd, m, out);
  case LB_MSG_CM: return on_cm(nd, m, out);
  case LB_MSG_LMM: return on_lmm(nd, m, out);
  case LB_MSG_DRM: return on_drm(nd, m, now, out);
  case LB_MSG_ABORT: return on_abort(nd, m, out);
  default: return lb_node_unexpected(nd, m);
  }
}

static int rm_quiet(const lb_node *nd)
{
  const rmtlb *s = S(nd);
  return !s->active && s->rmtv == LB_NO_NODE && !s->nnrt && !s->narr && s->lepn == -1 && s->lipn == -1;
}

static size_t rm_pending(const lb_node *nd) { return S(nd)->narr; }

long lb_rmtlb_lepn(const lb_node *nd) { return nd->pol == LB_POLICY_RMTLB ? S(nd)->lepn : -1; }
long lb_rmtlb_lipn(const lb_node *nd) { return nd->pol == LB_POLICY_RMTLB ? S(nd)->lipn : -1; }
size_t lb_rmtlb_rmtv(const lb_node *nd) { return nd->pol == LB_POLICY_RMTLB ? S(nd)->rmtv : LB_NO_NODE; }
size_t lb_rmtlb_nrt_size(const lb_node *nd) { return nd->pol == LB_POLICY_RMTLB ? S(nd)->nnrt : 0; }

/* Appends to buf[0..cap-1] at *at, as snprintf; *at counts what the
 * whole text needs. */
static void add(char *buf, size_t cap, int *at, const char *fmt, ...) __attribute__((format(printf, 4, 5)));
static void add(char *buf, size_t cap, int *at, const char *fmt, ...)
{
  va_list ap;
  va_start(ap, fmt);
  size_t k = (size_t)*at < cap ? (size_t)*at : cap;
  int n = vsnprintf(buf + k, cap - k, fmt, ap);
  va_end(ap);
  if (n > 0) *at += n;
}

static int rm_quiet(const lb_node *nd);

static int rm_describe(const lb_node *nd, char *buf, size_t cap)
{
  const rmtlb *s = S(nd);
  int at = 0;
  if (cap) buf[0] = '\0';
  if (rm_quiet(nd)) return 0;
  add(buf, cap, &at, "LEPN %ld LIPN %ld rmtv %zd NRT %zu", s->lepn, s->lipn, (ssize_t)s->rmtv, s->nnrt);
  for (size_t k = 0; k < s->nnrt; k++) {
    const nrt_rec *r = &s->nrt[k];
    add(buf, cap, &at, "; NRT hv %zu dv %zu tag %llu pv %zd nxv %zd confirmed %d total %ld got %ld back %ld", r->hv,
        r->dv, (unsigned long long)r->tag, (ssize_t)r->pv, (ssize_t)r->nxv, r->confirmed, r->total, r->got, r->back);
  }
  for (size_t k = 0; k < s->narr; k++)
    add(buf, cap, &at, "; arrival: process %llu of (%zu, %llu)", (unsigned long long)s->arr[k].pid, s->arr[k].hv,
        (unsigned long long)s->arr[k].tag);
  return at;
}

void lb_rmtlb_nrt_print(const lb_node *nd, FILE *f)
{
  if (nd->pol != LB_POLICY_RMTLB) return;
  const rmtlb *s = S(nd);
  for (size_t k = 0; k < s->nnrt; k++) {
    const nrt_rec *r = &s->nrt[k];
    fprintf(f, "  node %zu NRT: hv %zu dv %zu tag %llu pv %zd nxv %zd confirmed %d total %ld got %ld back %ld\n",
            nd->id, r->hv, r->dv, (unsigned long long)r->tag, (ssize_t)r->pv, (ssize_t)r->nxv, r->confirmed, r->total,
            r->got, r->back);
  }
  for (size_t k = 0; k < s->narr; k++)
    fprintf(f, "  node %zu arrival: process %llu of (%zu, %llu)\n", nd->id, (unsigned long long)s->arr[k].pid,
            s->arr[k].hv, (unsigned long long)s->arr[k].tag);
}

const lb_policy_ops lb_policy_rmtlb_ops = {.init = rm_init,
                                           .fini = rm_fini,
                                           .on_msg = rm_msg,
                                           .on_timer = rm_timer,
                                           .on_tick = rm_tick,
                                           .on_result = result_ready,
                                           .on_down = rm_down,
                                           .quiescent = rm_quiet,
                                           .pending = rm_pending,
                                           .describe = rm_describe,
                                           .on_ran = rm_ran};
