/* policy: a balancing policy written outside the library, registered
 * at start-up and run in liblb's simulator beside the library's own.
 *
 * "halve": every period a node tells its neighbours its queue length
 * when it has changed; a node that holds at least `halve.gap` more
 * processes than its least loaded neighbour (as last told) sends that
 * neighbour half the difference, so neither ends above the other.  It
 * is a whole policy in the sense of lb_policy.h: its state, its own
 * message (a POLICY message of kind LOAD), a timer, its parameters in
 * the registry (halve.period, halve.gap: set here as NAME=VALUE
 * arguments, through the same parser the library's drivers use), and
 * what it does when a node fails (its neighbours change: it starts its
 * table afresh).
 *
 * It uses only the installed library:
 *   cc policy.c $(pkg-config --cflags --libs --static lbfarm) -o policy
 *   ./policy torus:4x4 halve.period=2 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <lb_errno.h>
#include <lb_mem.h>
#include <lb_param.h>
#include <lb_policy.h>
#include <lb_sim.h>
#include <lb_topo.h>

/* ---- the policy ---- */
enum { LOAD = 0 }; /* its one message kind: "my queue length is a" */

typedef struct halve {
  size_t deg;  /* neighbours in the node's current graph */
  long *known; /* their last told lengths, -1 unknown */
  long told;   /* the length last told, -1 none */
  int armed;   /* the period's timer runs */
  double period;
  long gap;
} halve;

static int table_fit(lb_node *nd, halve *h)
{
  size_t deg = lb_topo_degree(lb_node_topo(nd), lb_node_id(nd));
  long *k = lb_mem_alloc((deg + 1) * sizeof *k);
  if (!k) return lb_error(LB_ENOMEM, "halve: loads of %zu neighbours", deg);
  if (h->known) lb_mem_free(h->known, (h->deg + 1) * sizeof *h->known);
  for (size_t j = 0; j < deg; j++) k[j] = -1;
  h->known = k;
  h->deg = deg;
  h->told = -1;
  return LB_SUCCESS;
}

static int ha_init(lb_node *nd)
{
  halve *h = lb_mem_calloc(sizeof *h);
  if (!h) return lb_error(LB_ENOMEM, "halve state");
  h->period = lb_node_param(nd, "halve.period");
  h->gap = (long)lb_node_param(nd, "halve.gap");
  int rc = table_fit(nd, h);
  if (rc) {
    lb_mem_free(h, sizeof *h);
    return rc;
  }
  lb_node_set_policy_state(nd, h);
  return LB_SUCCESS;
}

static void ha_fini(lb_node *nd)
{
  halve *h = lb_node_policy_state(nd);
  if (!h) return;
  lb_mem_free(h->known, (h->deg + 1) * sizeof *h->known);
  lb_mem_free(h, sizeof *h);
}

static int ha_tick(lb_node *nd, double now, lb_out *out)
{
  halve *h = lb_node_policy_state(nd);
  lb_node_track_heavy(nd);
  if (h->armed) return LB_SUCCESS;
  h->armed = 1;
  return lb_node_timer(out, 0, now + h->period);
}

/* Tell the neighbours our length if it changed, then send half the
 * difference to the least loaded one when it is gap or more below. */
static int ha_timer(lb_node *nd, uint64_t id, double now, lb_out *out)
{
  (void)id;
  halve *h = lb_node_policy_state(nd);
  const size_t *nb = lb_topo_neighbours(lb_node_topo(nd), lb_node_id(nd));
  long q = (long)lb_node_queue_len(nd);
  int rc = LB_SUCCESS;
  if (q != h->told) {
    h->told = q;
    for (size_t k = 0; k < h->deg && !rc; k++) rc = lb_node_send_policy(nd, out, nb[k], LOAD, 0, q, 0);
  }
  size_t best = (size_t)-1;
  for (size_t k = 0; k < h->deg; k++)
    if (h->known[k] >= 0 && (best == (size_t)-1 || h->known[k] < h->known[best])) best = k;
  if (!rc && best != (size_t)-1 && q - h->known[best] >= h->gap) {
    size_t sent;
    lb_node_count_invocation(nd);
    rc = lb_node_transfer(nd, out, nb[best], (size_t)((q - h->known[best]) / 2), 0, &sent);
    h->known[best] += (long)sent; /* what it will hold, until it tells */
  }
  return rc ? rc : lb_node_timer(out, 0, now + h->period);
}

static int ha_msg(lb_node *nd, lb_msg *m, double now, lb_out *out)
{
  (void)now;
  (void)out;
  if (m->type != LB_MSG_POLICY || m->u.pol.kind != LOAD) return lb_node_unexpected(nd, m);
  int rc = LB_SUCCESS;
  size_t k = lb_node_sender(nd, m, &rc); /* frees m when it is not a neighbour's */
  if (k == (size_t)-1) return rc;
  ((halve *)lb_node_policy_state(nd))->known[k] = m->u.pol.a;
  lb_msg_free(m);
  return LB_SUCCESS;
}

/* A node failed and the graph changed: new neighbours, nothing known. */
static int ha_down(lb_node *nd, size_t dead, double now, lb_out *out)
{
  (void)dead;
  (void)now;
  (void)out;
  return table_fit(nd, lb_node_policy_state(nd));
}

static const lb_policy_ops halve_ops = {
    .init = ha_init, .fini = ha_fini, .on_msg = ha_msg, .on_timer = ha_timer, .on_tick = ha_tick, .on_down = ha_down};

static const lb_param halve_params[] = {
    {"halve.period", LB_PARAM_REAL, 0, 1e12, LB_PARAM_LO_OPEN, 1, NULL, 0, "P",
     "how often a node tells its load and balances", 0, LB_PARAM_C_DOUBLE},
    {"halve.gap", LB_PARAM_INT, 2, 1e9, 0, 2, NULL, 0, "K",
     "the least difference with a neighbour that moves processes", 0, LB_PARAM_C_DOUBLE},
};

static const lb_policy_desc halve_desc = {"halve",
                                          "send half the difference to the least loaded neighbour",
                                          &halve_ops,
                                          halve_params,
                                          sizeof halve_params / sizeof halve_params[0],
                                          NULL};

/* ---- the program ---- */
static int run(lb_policy pol, const lb_topo *t, const lb_node_params *par, unsigned long seed, size_t procs,
               lb_sim_result *r)
{
  lb_sim_config c;
  lb_sim_config_default(&c);
  c.policy = pol;
  c.topo = t;
  c.node = *par;
  c.load = LB_SIM_LOAD_SKEW;
  c.nproc = procs;
  c.seed = seed;
  c.jitter = 0.5;
  c.crashes = NULL;
  return lb_sim_run(&c, r);
}

int main(int argc, char **argv)
{
  if (argc > 1 && (!strcmp(argv[1], "--help") || !strcmp(argv[1], "-h"))) {
    printf("Usage: policy [TOPOLOGY [NAME=VALUE...]]\n"
           "Register the policy \"halve\" (send half the difference to the least loaded\n"
           "neighbour), run it in the simulator on TOPOLOGY (default torus:4x4) from a\n"
           "skewed start of 12 processes a node, beside none and the library's diffusion,\n"
           "and print each run's makespan / ideal and its invariant violations.  Any\n"
           "parameter of the registry may be set, halve.period and halve.gap among them.\n");
    return 0;
  }
  lb_policy mine;
  if (lb_policy_register(&halve_desc, &mine)) {
    fprintf(stderr, "policy: %s\n", lb_errmsg());
    return 1;
  }
  lb_topo *t;
  if (lb_topo_from_spec(argc > 1 ? argv[1] : "torus:4x4", &t)) {
    fprintf(stderr, "policy: TOPOLOGY: %s\n", lb_errmsg());
    return 2;
  }
  lb_node_params par;
  lb_node_params_default(&par);
  par.hop_time = 0; /* the simulator's own estimate */
  for (int k = 2; k < argc; k++) {
    char name[64];
    const char *eq = strchr(argv[k], '=');
    size_t n = eq ? (size_t)(eq - argv[k]) : 0;
    const lb_param *p = NULL;
    if (n && n < sizeof name) {
      memcpy(name, argv[k], n);
      name[n] = '\0';
      p = lb_param_find(name);
    }
    if (!p || lb_param_parse(p, &par, eq + 1, name)) {
      fprintf(stderr, "policy: %s: %s\n", argv[k], p ? lb_errmsg() : "not NAME=VALUE of a parameter");
      lb_topo_free(t);
      return 2;
    }
  }
  const lb_policy pols[] = {LB_POLICY_NONE, LB_POLICY_DIFFUSION, mine};
  int bad = 0;
  printf("%-10s %10s %8s %9s %9s %10s\n", "policy", "makespan", "ratio", "messages", "migrated", "violations");
  for (size_t k = 0; k < 3; k++) {
    lb_sim_result r;
    if (run(pols[k], t, &par, 7, 12 * t->n, &r)) {
      fprintf(stderr, "policy: %s: %s\n", lb_policy_name(pols[k]), lb_errmsg());
      bad = 1;
      continue;
    }
    printf("%-10s %10.3f %8.4f %9lu %9lu %10lu\n", lb_policy_name(pols[k]), r.makespan, r.makespan / r.ideal,
           r.messages, r.migrated, r.violations);
    if (r.violations) fprintf(stderr, "policy: %s: %s\n", lb_policy_name(pols[k]), r.first_violation);
    bad |= r.violations != 0;
  }
  lb_topo_free(t);
  return bad;
}
