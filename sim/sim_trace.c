/* sim_trace.c: the trace's state rows (lb_trace.h) of a simulated run.
 * A node's CPU does one thing at a time, in the order the simulator
 * hands it work: its quanta (busy) and the CPU cost of the messages it
 * sends and takes (balancing: lb_sim_config.cost_msg, cost_byte), each
 * from the later of now and the end of what it did before; between
 * them it is idle.  Without message costs a node is busy or idle.  The
 * message rows are the runtime's (lb_rt.h), as on the farm. */
#include <stdlib.h>
#include "sim_impl.h"
#include "lb_errno.h"

typedef struct sim_tnode {
  lb_trace_states st;
  double until; /* the end of the work handed to its CPU so far */
} sim_tnode;

static void put(sim *S, const lb_trace_row *r)
{
  char row[LB_TRACE_ROW_MAX];
  size_t n;
  if (!lb_trace_format(r, row, sizeof row, &n)) fprintf(S->c->msg_trace, "%s\n", row);
}

static void enter(sim *S, size_t i, lb_host_state s, double t)
{
  lb_trace_row r;
  if (lb_trace_enter(&S->tr[i].st, i, s, t, &r)) put(S, &r);
}

int sim_trace_alloc(sim *S)
{
  if (!S->c->msg_trace) return LB_SUCCESS;
  if (!(S->tr = malloc(S->n * sizeof *S->tr))) return lb_error(LB_ENOMEM, "trace of %zu nodes", S->n);
  for (size_t i = 0; i < S->n; i++) {
    lb_trace_states_init(&S->tr[i].st);
    S->tr[i].until = 0;
    enter(S, i, LB_HOST_IDLE, 0);
  }
  return LB_SUCCESS;
}

void sim_trace_cpu(sim *S, size_t i, lb_host_state s, double start, double end)
{
  sim_tnode *x = &S->tr[i];
  if (!(end > start) || x->st.state < 0) return;
  if (start > x->until) enter(S, i, LB_HOST_IDLE, x->until);
  enter(S, i, s, start);
  x->until = end;
}

/* Node i failed at the time of the event being handled: its lane ends
 * there, or where the work its CPU had begun by then ends. */
void sim_trace_down(sim *S, size_t i)
{
  if (!S->tr) return;
  sim_tnode *x = &S->tr[i];
  double t = S->tr_last;
  if (t > x->until) enter(S, i, LB_HOST_IDLE, x->until);
  else if (t < x->st.since) t = x->st.since;
  lb_trace_row r;
  if (lb_trace_leave(&x->st, i, t, &r)) put(S, &r);
}

void sim_trace_end(sim *S)
{
  if (!S->tr) return;
  for (size_t i = 0; i < S->n; i++) {
    sim_tnode *x = &S->tr[i];
    if (x->st.state < 0) continue; /* failed: closed already */
    double t = S->tr_last > x->until ? S->tr_last : x->until;
    if (t > x->until) enter(S, i, LB_HOST_IDLE, x->until);
    lb_trace_row r;
    if (lb_trace_leave(&x->st, i, t, &r)) put(S, &r);
  }
}

void sim_trace_free(sim *S)
{
  free(S->tr);
  S->tr = NULL;
}
