/* lbsg_actor.h: lbsim's run on a SimGrid platform.  One S4U actor per
 * node, on that node's host: it runs quanta of its node's current
 * process as executions at the host's speed, receives the encoded
 * messages from its mailbox, sends them with Mailbox::put (the link's
 * latency and bandwidth, shared with the other flows that cross it,
 * decide when they arrive), and waits for its timers as timeouts of
 * that wait.  lbsg_run.h is what each event does to the node. */
#ifndef LBSG_ACTOR_H
#define LBSG_ACTOR_H

extern "C" {
#include "lbsg_platform.h"
#include "lb_sim.h"
}

typedef struct lbsg_options {
  const char *platform; /* a platform file, or NULL: lbtopo's for the run's graph and costs */
  lbsg_zone zone;       /* the form of that platform, and */
  int shared;           /* its links' sharing (lbsg_platform.h) */
  int reverse;          /* make the nodes' actors last to first */
} lbsg_options;

/* lb_sim_run's contract, on the SimGrid engine already made (the
 * process's only one; SimGrid's options already parsed). */
int lbsg_simulate(const lb_sim_config *c, lb_sim_result *res, const lbsg_options *o);

#endif
