/* lb_taskgraph.h: task graphs partitioned onto processors, the
 * processor graph they induce, and moving actual tasks (seed 003).
 *
 * A task graph is an lb_topo whose nodes are tasks; owner[t] is the
 * processor of task t.  Two processors are adjacent when some task
 * edge joins their sets. */
#ifndef LB_TASKGRAPH_H
#define LB_TASKGRAPH_H

#include <stddef.h>
#include "lb_topo.h"
#include "lb_hublake.h"

struct lb_rng;

/* A random task graph with locality, as a circuit netlist has: tasks
 * 0..n-1 on a line, each joined to `local` tasks at most `window`
 * further on, plus each task with probability `p_far` to a uniformly
 * random task.  Then P contiguous blocks whose sizes are (n/P)(1+u),
 * u uniform in [-spread, spread], rescaled to sum to n: an unbalanced
 * but local initial placement.  owner (n) is caller-allocated. */
int lb_taskgraph_random(size_t n, size_t P, size_t local, size_t window, double p_far, double spread, struct lb_rng *r,
                        lb_topo **tasks, size_t *owner);

/* The processor graph of a placement (must come out connected). */
int lb_taskgraph_quotient(const lb_topo *tasks, const size_t *owner, size_t P, lb_topo **proc);

/* load[p] = |C_p| */
void lb_taskgraph_loads(const size_t *owner, size_t ntasks, size_t P, long *load);

/* Carry out transfers (in order) on actual tasks.  For each transfer
 * u->v of q tasks the tasks leaving u are chosen: first tasks that
 * started the plan on v (they go home), then tasks only passing
 * through u, then u's own tasks with the most task-graph neighbours on
 * v minus on u (ties to the lower id): the first two keep the
 * migration level Q to one move per task, the last keeps the edge cut
 * small.  `origin` (ntasks) is each task's owner before the plan. */
int lb_taskgraph_migrate(const lb_topo *tasks, size_t *owner, const size_t *origin, const lb_transfer *tr, size_t ntr);

#endif
