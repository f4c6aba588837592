/* lb_node_impl.h: what lb_node.c shares with the library's own policy
 * files beyond lb_policy.h (not installed, not for drivers): the node's
 * record, read directly where a public accessor would cost a call. */
#ifndef LB_NODE_IMPL_H
#define LB_NODE_IMPL_H

#include "lb_node.h"
#include "lb_policy.h"
#include "lb_rng.h"

/* The fields every event reads come first, with a small run queue kept
 * inline: on a large simulated run each event finds its node out of
 * cache, and every line it needs is a miss. */
#define LB_NODE_QINLINE 4
/* A run queue whose buffer has this many slots (it held three quarters
 * of half as many) keeps an index by work left (lb_qindex.h).  Only
 * speed depends on it: a build with another value gives the same
 * outputs. */
#ifndef LB_NODE_QX_MIN
#define LB_NODE_QX_MIN 256
#endif

struct lb_node {
  const lb_policy_ops *ops;
  void *ps;    /* policy state */
  lb_proc **q; /* run queue, head q[0]: qin while it fits */
  size_t nq, capq;
  size_t id;
  const lb_topo *topo;
  double A;
  int C;
  lb_policy pol;
  lb_proc *qin[LB_NODE_QINLINE];
  lb_proc **qbuf; /* the buffer q slides in: qin, or capq on the heap */
  /* The rest of the parameters: shared by a driver's nodes (a copy is
   * 184 bytes a node, a cache line and more at scale), or the node's own
   * copy right after the record (lb_node_alloc).  In the second line,
   * with the inline queue: most events read both. */
  const lb_node_params *par;
  int was_heavy;       /* for counting heavy episodes */
  int passed_on;       /* the last step only relayed a message */
  int capacity;        /* this node's C at the start (RMTLB-drain lowers C) */
  unsigned char *down; /* nodes known to have failed (NULL: none yet) */
  size_t ndown;
  double speed; /* this node's */
  lb_node_stats st;
  lb_rng rng;           /* the small kind: per-node decisions (LOWEST's probes) */
  struct lb_qindex *qx; /* the queue's index by work left: iff capq >= LB_NODE_QX_MIN */
};

extern const lb_policy_ops lb_policy_none_ops, lb_policy_rmtlb_ops, lb_policy_lowest_ops, lb_policy_dasud_ops,
    lb_policy_cchspmd_ops, lb_policy_diffusion_ops, lb_policy_steal_ops, lb_policy_pool_ops, lb_policy_ring_ops;

/* Copy a program's policy's rows into the registry (lb_param.c), their
 * values in lb_node_params.ext: all of them or none. */
int lb_param_add_rows(const char *policy_name, const lb_param *rows, size_t n, int policy);

/* The library's graph-wide set-up of its own policies (lb_policy_prepare.c). */
int lb_policy_prepare_builtin(lb_policy pol, const lb_topo *t, lb_node_params *p);

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
  size_t deg;   /* neighbours in the node's current graph */
  long *known;  /* known[k]: neighbour k's last load, -1 unknown */
  double *edge; /* edge[per_edge * k ...]: neighbour k's numbers */
  size_t per_edge;
  long last_sent; /* the load last told; -1: tell it at the next period */
  int armed;      /* the period's timer runs (lb_node_periodic_tick) */
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
