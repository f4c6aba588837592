/* sim_prefetch.c: a large run finds each event's node, runtime, policy
 * state and processes out of cache, and would wait on a miss at each.
 * The events a few pops ahead are fetched in steps, each a pointer the
 * step before brought in.  Only speed depends on this, never an output. */
#include "sim_impl.h"

/* The second step for one node: its node record and its runtime (which
 * may straddle two lines). */
static void prefetch_node(const simnode *x)
{
  lb_node_prefetch(x->nd, 0);
  __builtin_prefetch(x->rt);
  __builtin_prefetch((const char *)x->rt + 64);
}

/* Arrivals are not in the queue, so sim_prefetch does not see them:
 * fetch the nodes of the ones a few to come in steps as it does (driver
 * state; node and runtime; run queue and policy state). */
#define ARR_AHEAD 16

void sim_prefetch_arrivals(const sim *S)
{
  size_t j = S->next_arr;
  if (j + 3 * ARR_AHEAD < S->np) __builtin_prefetch(&S->node[sim_arr_node(S, j + 3 * ARR_AHEAD)]);
  if (j + 2 * ARR_AHEAD < S->np) prefetch_node(&S->node[sim_arr_node(S, j + 2 * ARR_AHEAD)]);
  if (j + ARR_AHEAD < S->np) lb_node_prefetch(S->node[sim_arr_node(S, j + ARR_AHEAD)].nd, 1);
}

/* Four steps: the node's driver state; its runtime and node (and a
 * message's body); the node's run queue and policy state; the
 * processes at the queue's head. */
#define AHEAD 16

void sim_prefetch(const sim *S)
{
  static const size_t k[5] = {AHEAD, 2 * AHEAD, 3 * AHEAD, 4 * AHEAD, 6 * AHEAD};
  const sim_ev *e[5];
  sim_queue_ahead(&S->h, k, e, 5);
  if (e[4]) __builtin_prefetch(e[4]); /* the event, in a bucket made a time unit ago */
  if (e[3]) __builtin_prefetch(&S->node[e[3]->node]);
  if (e[2]) {
    prefetch_node(&S->node[e[2]->node]);
    if (e[2]->kind == SIM_EV_DELIVER) __builtin_prefetch(e[2]->msg);
  }
  if (e[1]) {
    lb_node_prefetch(S->node[e[1]->node].nd, 1);
    /* Where its next quantum's end, or a message of one hop, will go. */
    sim_queue_prefetch_push(&S->h, e[1]->t + S->c->quantum);
    /* A quantum shorter than a whole one is the process's last: its
     * record will be written (sim_ran). */
    if (e[1]->kind == SIM_EV_QEND && e[1]->work < S->c->quantum * sim_speed(S, e[1]->node))
      __builtin_prefetch(&S->pr[e[1]->id]);
  }
  if (e[0]) lb_node_prefetch(S->node[e[0]->node].nd, 2);
}
