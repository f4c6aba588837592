/* lb_node_impl.h: what lb_node.c shares with the policy files (not
 * installed, not for drivers). */
#ifndef LB_NODE_IMPL_H
#define LB_NODE_IMPL_H

#include "lb_node.h"
#include "lb_rng.h"

typedef struct lb_policy_ops {
  int (*init)(lb_node *nd);
  void (*fini)(lb_node *nd);
  /* The message is owned by the policy from here on. */
  int (*on_msg)(lb_node *nd, lb_msg *m, double now, lb_out *out);
  int (*on_timer)(lb_node *nd, uint64_t id, double now, lb_out *out);
  int (*on_tick)(lb_node *nd, double now, lb_out *out);
  /* A result is ready here (run here or returned here): *r, malloc'd,
   * which the policy may take (setting *r to NULL); the caller frees what
   * is left.  NULL: the default sends it straight to its origin. */
  int (*on_result)(lb_node *nd, uint64_t pid, size_t origin, unsigned char **r,
                   size_t len, double now, lb_out *out);
  int (*quiescent)(const lb_node *nd);
  long (*lepn)(const lb_node *nd);
  long (*lipn)(const lb_node *nd);
  size_t (*rmtv)(const lb_node *nd);
  size_t (*nrt_size)(const lb_node *nd);
  size_t (*pending)(const lb_node *nd);
} lb_policy_ops;

struct lb_node {
  lb_policy pol;
  const lb_policy_ops *ops;
  size_t id;
  const lb_topo *topo;
  lb_node_params par;
  int C, A;
  lb_proc **q;          /* run queue, head q[0] */
  size_t nq, capq;
  lb_node_stats st;
  lb_rng *rng;
  void *ps;             /* policy state */
  int was_heavy;        /* for counting heavy episodes */
};

extern const lb_policy_ops lb_policy_none_ops, lb_policy_rmtlb_ops,
  lb_policy_lowest_ops, lb_policy_dasud_ops, lb_policy_cchspmd_ops,
  lb_policy_diffusion_ops;

/* Helpers for the policies. */
int lb_node_send(lb_node *nd, lb_out *out, size_t dst, lb_msg *m);
int lb_node_timer(lb_out *out, uint64_t id, double at);
/* HOME for process pid; takes the malloc'd result *r (*r becomes NULL). */
int lb_node_home(lb_node *nd, lb_out *out, uint64_t pid, unsigned char **r, size_t len);
int lb_node_enqueue(lb_node *nd, lb_proc *p);
/* Remove a process from the tail, never the head (it may be running). */
lb_proc *lb_node_dequeue_tail(lb_node *nd);
/* Processes that may leave now: Q - 1 (the head stays), or 0. */
size_t lb_node_movable(const lb_node *nd);
/* Default result routing: HOME when here, else RESULT to the origin. */
int lb_node_result_direct(lb_node *nd, uint64_t pid, size_t origin,
                          unsigned char **r, size_t len, lb_out *out);
/* Move every process of a TRANSFER message into the queue (frees m). */
int lb_node_accept_transfer(lb_node *nd, lb_msg *m);
/* Send k tail processes to dst in one TRANSFER; returns how many went. */
int lb_node_transfer(lb_node *nd, lb_out *out, size_t dst, size_t k, size_t *sent);
/* Count a heavy episode when the node has just turned heavy; returns
 * whether it is heavy now. */
int lb_node_track_heavy(lb_node *nd);
/* Index of neighbour j in t's list of nd's neighbours, or (size_t)-1. */
size_t lb_node_nbr_index(const lb_node *nd, size_t j);
int lb_node_tracef(lb_out *out, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

#endif
