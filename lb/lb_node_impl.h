/* lb_node_impl.h: what lb_node.c shares with the policy files (not
 * installed, not for drivers). */
#ifndef LB_NODE_IMPL_H
#define LB_NODE_IMPL_H

#include "lb_node.h"
#include "lb_rng.h"

typedef struct lb_policy_ops {
  int (*init)(lb_node *nd);
  void (*fini)(lb_node *nd);
  /* The message is owned by the policy from here on.  RESULT and
   * TRANSFER never come here: lb_node.c handles them for every policy. */
  int (*on_msg)(lb_node *nd, lb_msg *m, double now, lb_out *out);
  int (*on_timer)(lb_node *nd, uint64_t id, double now, lb_out *out);
  int (*on_tick)(lb_node *nd, double now, lb_out *out);
  /* A result reference is ready here (the process ran here, or its
   * result came back here).  NULL: lb_node_result_direct. */
  int (*on_result)(lb_node *nd, const lb_result_ref *r, double now, lb_out *out);
  /* Process p ran here for a quantum that did `work` (p->ran counts
   * it already); `finished`: it is done, and freed after this. */
  void (*on_ran)(lb_node *nd, const lb_proc *p, double work, int finished);
  /* A TRANSFER came in (its processes are queued already). */
  int (*on_transfer)(lb_node *nd, const lb_msg *m);   /* after its processes are queued */
  /* Node `dead` failed; nd->topo is already the repaired graph.  Free
   * every lock, record and count tied to it. */
  int (*on_down)(lb_node *nd, size_t dead, double now, lb_out *out);
  int (*quiescent)(const lb_node *nd);
  size_t (*pending)(const lb_node *nd);
  /* What is open here, for lb_node_describe (NULL: nothing to say). */
  int (*describe)(const lb_node *nd, char *buf, size_t cap);
} lb_policy_ops;

/* The fields every event reads come first, with a small run queue kept
 * inline: on a large simulated run each event finds its node out of
 * cache, and every line it needs is a miss. */
#define LB_NODE_QINLINE 4

struct lb_node {
  const lb_policy_ops *ops;
  void *ps;             /* policy state */
  lb_proc **q;          /* run queue, head q[0]: qin while it fits */
  size_t nq, capq;
  size_t id;
  const lb_topo *topo;
  double A;
  int C;
  lb_policy pol;
  lb_proc *qin[LB_NODE_QINLINE];
  lb_proc **qbuf;       /* the buffer q slides in: qin, or capq on the heap */
  /* The rest of the parameters: shared by a driver's nodes (a copy is
   * 184 bytes a node, a cache line and more at scale), or the node's own
   * copy right after the record (lb_node_alloc).  In the second line,
   * with the inline queue: most events read both. */
  const lb_node_params *par;
  int was_heavy;        /* for counting heavy episodes */
  int capacity;         /* this node's C at the start (RMTLB-drain lowers C) */
  unsigned char *down;  /* nodes known to have failed (NULL: none yet) */
  size_t ndown;
  double speed;         /* this node's */
  lb_node_stats st;
  lb_rng rng;           /* the small kind: per-node decisions (LOWEST's probes) */
};

extern const lb_policy_ops lb_policy_none_ops, lb_policy_rmtlb_ops,
  lb_policy_lowest_ops, lb_policy_dasud_ops, lb_policy_cchspmd_ops,
  lb_policy_diffusion_ops;

/* Helpers for the policies. */
int lb_node_send(lb_node *nd, lb_out *out, size_t dst, lb_msg *m);
int lb_node_timer(lb_out *out, uint64_t id, double at);
/* HOME for r (this node is its origin); DELIVER too when its bytes are here. */
int lb_node_home(lb_node *nd, lb_out *out, const lb_result_ref *r);
int lb_node_enqueue(lb_node *nd, lb_proc *p);
/* Take a process that may leave now: never the head (it may be running);
 * of the others, the one with the most work left (latest on ties), so a
 * migration moves as much work as it can, and a process that has not
 * started (a small context) before one that has.  NULL if none. */
lb_proc *lb_node_take_movable(lb_node *nd);
/* Queue again a process just taken (it could not leave): never fails,
 * its slot is still there. */
void lb_node_put_back(lb_node *nd, lb_proc *p);
/* Count a process leaving this node. */
void lb_node_count_leaving(lb_node *nd, const lb_proc *p);
/* Processes that may leave now: Q - 1 (the head stays), or 0. */
size_t lb_node_movable(const lb_node *nd);
/* Default result routing: HOME when here, else RESULT to the origin. */
int lb_node_result_direct(lb_node *nd, const lb_result_ref *r, lb_out *out);
/* Send k movable processes to dst in one TRANSFER (ordered count in the
 * message); *sent gets how many went. */
int lb_node_transfer(lb_node *nd, lb_out *out, size_t dst, size_t k, long ordered, size_t *sent);
/* The same, with the sender's book-keeping epoch in the message. */
int lb_node_transfer_epoch(lb_node *nd, lb_out *out, size_t dst, size_t k, long ordered, uint32_t epoch,
                           size_t *sent);
/* Count a heavy episode when the node has just turned heavy; returns
 * whether it is heavy now. */
int lb_node_track_heavy(lb_node *nd);
/* Index of neighbour j in t's list of nd's neighbours, or (size_t)-1. */
size_t lb_node_nbr_index(const lb_node *nd, size_t j);
/* Deliver the result r here, off the protocol's path, because its way
 * home failed (a node on it, or its origin, is down). */
int lb_node_orphan_result(lb_node *nd, const lb_result_ref *r, lb_out *out);
/* An error status for a message this policy does not take; frees m. */
int lb_node_unexpected(lb_node *nd, lb_msg *m);
/* The index of m's sender among nd's neighbours; or (size_t)-1 with m
 * freed when it is not one: *rc LB_SUCCESS after a failure changed the
 * graph (a message from a former neighbour, stale), else the error of
 * lb_node_unexpected. */
size_t lb_node_sender(lb_node *nd, lb_msg *m, int *rc);

/* ---- what the periodic policies (DASUD, CCHSPMD, diffusion) share,
 * lb_pol_exchange.c ---- */
/* A check point: count a heavy episode, and start the period's timer
 * (id 0) the first time. */
int lb_node_periodic_tick(lb_node *nd, int *armed, double period, double now, lb_out *out);

/* The neighbour-load exchange, the whole state of DASUD and diffusion
 * (nd->ps): every period a node tells its neighbours its queue length
 * when it has changed, and keeps the last length each told it.  `edge`
 * holds per_edge numbers of the policy's own for each neighbour
 * (diffusion: its coefficient and its last flow). */
typedef struct lb_nbr_loads {
  size_t deg;          /* neighbours in the node's current graph */
  long *known;         /* known[k]: neighbour k's last load, -1 unknown */
  double *edge;        /* edge[per_edge * k ...]: neighbour k's numbers */
  size_t per_edge;
  long last_sent;      /* the load last told; -1: tell it at the next period */
  int armed;           /* the period's timer runs (lb_node_periodic_tick) */
} lb_nbr_loads;

#define LB_NBR(nd) ((lb_nbr_loads *)(nd)->ps)

/* The state, fitted to the node's graph (lb_nbr_loads_reset). */
int lb_nbr_loads_init(lb_node *nd, size_t per_edge);
void lb_nbr_loads_fini(lb_node *nd);
/* Fit the state to the node's current graph, at the start and after a
 * failure changed it: every load unknown, the edge numbers 0, the load
 * told again at the next period.  Out of memory: as it was. */
int lb_nbr_loads_reset(lb_node *nd);
/* LOAD with the queue's length to every neighbour, when it changed
 * since the last. */
int lb_nbr_loads_tell(lb_node *nd, lb_out *out);

#endif
