/* lb_param.c: the parameter table (see lb_param.h). */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "lb_param.h"
#include "lb_errno.h"
#include "lb_node_impl.h"

/* Enumerations are stored as int fields. */
_Static_assert(sizeof(lb_results) == sizeof(int) && sizeof(lb_sched) == sizeof(int) &&
                   sizeof(lb_route) == sizeof(int) && sizeof(lb_rmtlb_estimate) == sizeof(int),
               "enumerations must be ints");

static const char *const results_names[] = {"origin", "direct", NULL};
static const char *const sched_names[] = {"rr", "fifo", NULL};
static const char *const route_names[] = {"hops", "direct", NULL};
static const char *const estimate_names[] = {"mean", "declared", "oracle", NULL};
static const char *const plan_names[] = {"greedy", "transport", NULL};
static const char *const amount_names[] = {"one", "half", NULL};
static const char *const chunk_names[] = {"factoring", "gss", "one", NULL};

#define OFF(f) offsetof(lb_node_params, f)
#define ALL    (-1)
#define BIG    1e12

/* Time is in the driver's unit: simulated time units in lbsim, seconds
 * on the farm. */
static const lb_param table[] = {
    {"capacity", LB_PARAM_INT, 0, 1e9, 0, 4, NULL, ALL, "C", "C_i: processes a node holds in its normal band",
     OFF(capacity), LB_PARAM_C_INT},
    {"threshold", LB_PARAM_REAL, -1, 1e9, 0, -1, NULL, ALL, "A", "A_i: the band's half-width (-1: 10 % of C)",
     OFF(threshold), LB_PARAM_C_DOUBLE},
    {"threshold_ceil", LB_PARAM_FLAG, 0, 1, 0, 0, NULL, ALL, NULL,
     "round the default A (10 % of C) up to a whole process", OFF(threshold_ceil), LB_PARAM_C_INT},
    {"hop_time", LB_PARAM_REAL, 0, BIG, 0, 1, NULL, ALL, "H",
     "expected one-hop time of a small message, on which RMTLB's Tmax and LOWEST's timeout rest "
     "(0: the driver's estimate)",
     OFF(hop_time), LB_PARAM_C_DOUBLE},
    {"seed", LB_PARAM_INT, 0, 4294967295.0, 0, 0, NULL, ALL, "N", "seed of every random choice", OFF(seed),
     LB_PARAM_C_ULONG},
    {"results", LB_PARAM_ENUM, 0, 0, 0, LB_RESULTS_ORIGIN, results_names, ALL, "M",
     "where result bytes go: origin (back along the policy's path, as the paper) or direct (to the "
     "sink from where the process finished; the path carries a receipt)",
     OFF(results), LB_PARAM_C_INT},
    {"sched", LB_PARAM_ENUM, 0, 0, 0, LB_SCHED_RR, sched_names, ALL, "S",
     "rr (a node time-shares its processes, a quantum each) or fifo (one at a time, to completion)", OFF(sched),
     LB_PARAM_C_INT},
    {"route", LB_PARAM_ENUM, 0, 0, 0, LB_ROUTE_HOPS, route_names, ALL, "R",
     "hops (a message for a node that is not a neighbour goes through the graph, a neighbour at a "
     "time) or direct (straight there)",
     OFF(route), LB_PARAM_C_INT},
    {"lease.period", LB_PARAM_REAL, 0, 3600, LB_PARAM_LO_OPEN, 0.5, NULL, ALL, "P",
     "a host renews its lease with the master this often, with its progress (the simulator: with "
     "silent faults only)",
     OFF(lease.period), LB_PARAM_C_DOUBLE},
    {"lease.duration", LB_PARAM_REAL, 0, 86400, LB_PARAM_LO_OPEN, 2, NULL, ALL, "L",
     "the master fences a host whose last renewal is this old: stops and kills it, runs its work "
     "again elsewhere and drops whatever it sends later (at least twice the period)",
     OFF(lease.duration), LB_PARAM_C_DOUBLE},

    {"rmtlb.tmax", LB_PARAM_REAL, 0, BIG, 0, 0, NULL, LB_POLICY_RMTLB, "T",
     "answer window Tmax (0: 2 x hop time x eccentricity, the paper's)", OFF(rmtlb.tmax), LB_PARAM_C_DOUBLE},
    {"rmtlb.backoff_max", LB_PARAM_INT, 0, 30, 0, 0, NULL, LB_POLICY_RMTLB, "K",
     "after a round with no answer wait Tmax x 2^j, j up to K, before flooding again (0: flood "
     "again at once, the paper's)",
     OFF(rmtlb.backoff_max), LB_PARAM_C_UNSIGNED},
    {"rmtlb.drain", LB_PARAM_REAL, 0, 1e6, 0, 0, NULL, LB_POLICY_RMTLB, "F",
     "the variant RMTLB-drain: the load index is the work left in mean processes, and C falls by "
     "one for each mean process's work a node runs, down to F (0: off, the paper's RMTLB)",
     OFF(rmtlb.drain), LB_PARAM_C_DOUBLE},
    {"rmtlb.work_mean", LB_PARAM_REAL, 0, 1e18, 0, 0, NULL, LB_POLICY_RMTLB, "W",
     "the mean process's work in RMTLB-drain, as the application declares it (0: the running mean "
     "of the processes finished at the node)",
     OFF(rmtlb.work_mean), LB_PARAM_C_DOUBLE},
    {"rmtlb.estimate", LB_PARAM_ENUM, 0, 0, 0, LB_EST_MEAN, estimate_names, LB_POLICY_RMTLB, "E",
     "how RMTLB-drain estimates a process's work left: the mean process's less what it ran (mean), "
     "what its application declared less what it ran (declared), or the true work left (oracle: an "
     "upper bound that no host can reach)",
     OFF(rmtlb.estimate), LB_PARAM_C_INT},

    {"lowest.probes", LB_PARAM_INT, 1, 1e6, 0, 3, NULL, LB_POLICY_LOWEST, "K", "nodes probed per attempt",
     OFF(lowest.probes), LB_PARAM_C_SIZE},
    {"lowest.timeout", LB_PARAM_REAL, 0, BIG, 0, 0, NULL, LB_POLICY_LOWEST, "T",
     "how long a probe round waits for replies (0: 4 x hop time x eccentricity)", OFF(lowest.timeout),
     LB_PARAM_C_DOUBLE},
    {"lowest.backoff_max", LB_PARAM_INT, 0, 30, 0, 0, NULL, LB_POLICY_LOWEST, "K",
     "a round with no light node waits timeout x 2^j, j up to K, before the next (0: no doubling; "
     "seed 000 describes no back-off)",
     OFF(lowest.backoff_max), LB_PARAM_C_UNSIGNED},

    {"dasud.period", LB_PARAM_REAL, 0, BIG, LB_PARAM_LO_OPEN, 1, NULL, LB_POLICY_DASUD, "P", "exchange period",
     OFF(dasud.period), LB_PARAM_C_DOUBLE},

    {"cchspmd.period", LB_PARAM_REAL, 0, BIG, LB_PARAM_LO_OPEN, 1, NULL, LB_POLICY_CCHSPMD, "P",
     "report and plan period", OFF(cchspmd.period), LB_PARAM_C_DOUBLE},
    {"cchspmd.controller", LB_PARAM_INT, 0, 4194303, 0, 0, NULL, LB_POLICY_CCHSPMD, "N", "the node that plans",
     OFF(cchspmd.controller), LB_PARAM_C_SIZE},
    {"cchspmd.plan", LB_PARAM_ENUM, 0, 0, 0, 0, plan_names, LB_POLICY_CCHSPMD, "P",
     "greedy, or transport (a transport problem: fewest process-hops)", OFF(cchspmd.plan), LB_PARAM_C_INT},

    {"diffusion.period", LB_PARAM_REAL, 0, BIG, LB_PARAM_LO_OPEN, 1, NULL, LB_POLICY_DIFFUSION, "P",
     "exchange period (first and second order)", OFF(diffusion.period), LB_PARAM_C_DOUBLE},
    {"diffusion.alpha", LB_PARAM_REAL, 0, 1, 0, 0, NULL, LB_POLICY_DIFFUSION, "X",
     "uniform diffusion coefficient (0: Boillat's, per edge)", OFF(diffusion.alpha), LB_PARAM_C_DOUBLE},
    {"diffusion.beta", LB_PARAM_REAL, 0, 2, LB_PARAM_HI_OPEN, 0, NULL, LB_POLICY_DIFFUSION2, "X",
     "second order's beta (0: beta_opt of the graph)", OFF(diffusion.beta), LB_PARAM_C_DOUBLE},

    {"steal.amount", LB_PARAM_ENUM, 0, 0, 0, 1, amount_names, LB_POLICY_STEAL, "N",
     "what a victim with work sends a thief: one process (Blumofe-Leiserson) or half its movable ones "
     "(ours, as task farms steal; never past an even split)",
     OFF(steal.amount), LB_PARAM_C_INT},
    {"steal.below", LB_PARAM_INT, 1, 1e9, 0, 1, NULL, LB_POLICY_STEAL, "K",
     "a node holding fewer than K processes asks for work (1: only when idle)", OFF(steal.below), LB_PARAM_C_INT},
    {"steal.retry", LB_PARAM_REAL, 0, BIG, 0, 0, NULL, LB_POLICY_STEAL, "T",
     "the wait after a refusal before the next request (0: none, as Blumofe-Leiserson; one request is "
     "open at a time)",
     OFF(steal.retry), LB_PARAM_C_DOUBLE},
    {"steal.tries", LB_PARAM_INT, 0, 1e9, 0, 0, NULL, LB_POLICY_STEAL, "K",
     "after K refusals in a row a thief waits until a victim that refused it has work again (0: once "
     "every other node has refused it, ours)",
     OFF(steal.tries), LB_PARAM_C_SIZE},

    {"pool.node", LB_PARAM_INT, 0, 4194303, 0, 0, NULL, LB_POLICY_POOL, "N", "the node that keeps the pool",
     OFF(pool.node), LB_PARAM_C_SIZE},
    {"pool.chunk", LB_PARAM_ENUM, 0, 0, 0, 0, chunk_names, LB_POLICY_POOL, "R",
     "chunk sizes: factoring (Hummel, Schonberg, Flynn: each batch hands out half the pool in P equal "
     "chunks), gss (Polychronopoulos, Kuck: ceil(pool / P)) or one",
     OFF(pool.chunk), LB_PARAM_C_INT},
    {"pool.below", LB_PARAM_INT, 1, 1e9, 0, 1, NULL, LB_POLICY_POOL, "K",
     "a node holding fewer than K processes asks the pool (1: only when idle)", OFF(pool.below), LB_PARAM_C_INT},

    {"dasud-ring.timeout", LB_PARAM_REAL, 0, BIG, 0, 0, NULL, LB_POLICY_DASUD_RING, "T",
     "how long the search of ring d waits for its answers (0: 4 x hop time x d, ours)", OFF(ring.timeout),
     LB_PARAM_C_DOUBLE},
    {"dasud-ring.max_ring", LB_PARAM_INT, 0, 4194303, 0, 0, NULL, LB_POLICY_DASUD_RING, "D",
     "the widest ring searched (0: the node's eccentricity, the whole graph, as the paper)", OFF(ring.max_ring),
     LB_PARAM_C_SIZE},
};

#define NPARAM (sizeof table / sizeof table[0])

/* A program's policies' rows (lb_policy_register), after the table's. */
static lb_param ext[LB_PARAM_EXT];
static size_t next;

size_t lb_param_count(void) { return NPARAM + next; }

const lb_param *lb_param_at(size_t k)
{
  if (k < NPARAM) return &table[k];
  return k - NPARAM < next ? &ext[k - NPARAM] : NULL;
}

const lb_param *lb_param_find(const char *name)
{
  for (size_t k = 0; name && k < lb_param_count(); k++)
    if (!strcmp(lb_param_at(k)->name, name)) return lb_param_at(k);
  return NULL;
}

long lb_param_index(const lb_param *p)
{
  if (p >= table && p < table + NPARAM) return (long)(p - table);
  return p >= ext && p < ext + next ? (long)(NPARAM + (size_t)(p - ext)) : -1;
}

int lb_param_add_rows(const char *policy_name, const lb_param *rows, size_t n, int policy)
{
  size_t pre = strlen(policy_name);
  if (n > LB_PARAM_EXT - next)
    return lb_error(LB_ENOMEM, "%zu parameters, room for %zu more", n, (size_t)LB_PARAM_EXT - next);
  for (size_t k = 0; k < n; k++) {
    const lb_param *r = &rows[k];
    if (!r->name || strncmp(r->name, policy_name, pre) || r->name[pre] != '.' || !r->name[pre + 1] ||
        strlen(r->name) > 40 || strspn(r->name, "abcdefghijklmnopqrstuvwxyz0123456789-._") != strlen(r->name))
      return lb_error(LB_EINVAL, "parameter '%s': a name '%s.x' of lower-case letters, digits, '-' and '_'",
                      r->name ? r->name : "", policy_name);
    int dup = lb_param_find(r->name) != NULL;
    for (size_t j = 0; j < k && !dup; j++) dup = !strcmp(rows[j].name, r->name);
    if (dup) return lb_error(LB_EINVAL, "parameter '%s' is defined already", r->name);
    if (r->type > LB_PARAM_FLAG || !r->help || (r->type == LB_PARAM_ENUM && (!r->names || !r->names[0])) ||
        ((r->type == LB_PARAM_REAL || r->type == LB_PARAM_INT) &&
         !(r->lo <= r->hi && fabs(r->lo) < 9e15 && fabs(r->hi) < 9e15)))
      return lb_error(LB_EINVAL, "parameter '%s': its type, range, names or help", r->name);
  }
  for (size_t k = 0; k < n; k++) {
    lb_param *r = &ext[next + k];
    *r = rows[k];
    r->policy = policy;
    r->offset = offsetof(lb_node_params, ext) + (next + k) * sizeof(double);
    r->ctype = LB_PARAM_C_DOUBLE;
    int rc = lb_param_check(r, r->dflt, NULL);
    if (rc) return lb_error_wrap(rc, "the default of '%s'", r->name);
  }
  next += n;
  return LB_SUCCESS;
}

const char *lb_param_policy_name(const lb_param *p)
{
  return p->policy < 0 ? "every policy" : lb_policy_name((lb_policy)p->policy);
}

static size_t nnames(const lb_param *p)
{
  size_t n = 0;
  while (p->names && p->names[n]) n++;
  return n;
}

/* The row's limits as the values it stores: an enum's indices, a flag's 0 and 1. */
static void limits(const lb_param *p, double *lo, double *hi)
{
  *lo = p->lo;
  *hi = p->hi;
  if (p->type == LB_PARAM_ENUM) {
    *lo = 0;
    *hi = (double)nnames(p) - 1;
  }
  if (p->type == LB_PARAM_FLAG) {
    *lo = 0;
    *hi = 1;
  }
}

double lb_param_get(const lb_param *p, const lb_node_params *par)
{
  const char *f = (const char *)par + p->offset;
  switch (p->ctype) {
  case LB_PARAM_C_DOUBLE: {
    double v;
    memcpy(&v, f, sizeof v);
    return v;
  }
  case LB_PARAM_C_INT: {
    int v;
    memcpy(&v, f, sizeof v);
    return v;
  }
  case LB_PARAM_C_UNSIGNED: {
    unsigned v;
    memcpy(&v, f, sizeof v);
    return v;
  }
  case LB_PARAM_C_ULONG: {
    unsigned long v;
    memcpy(&v, f, sizeof v);
    return (double)v;
  }
  case LB_PARAM_C_SIZE: {
    size_t v;
    memcpy(&v, f, sizeof v);
    return (double)v;
  }
  }
  return NAN;
}

int lb_param_range(const lb_param *p, char *buf, size_t len)
{
  if (p->type == LB_PARAM_FLAG) return snprintf(buf, len, "0 or 1");
  if (p->type == LB_PARAM_ENUM) {
    size_t n = 0;
    if (len) buf[0] = '\0';
    for (size_t k = 0; p->names[k]; k++)
      n += (size_t)snprintf(buf + (n < len ? n : len), n < len ? len - n : 0, "%s%s", k ? ", " : "", p->names[k]);
    return (int)n;
  }
  if (p->type == LB_PARAM_INT) return snprintf(buf, len, "%.0f..%.0f", p->lo, p->hi);
  return snprintf(buf, len, "%c%g,%g%c", p->open & LB_PARAM_LO_OPEN ? '(' : '[', p->lo, p->hi,
                  p->open & LB_PARAM_HI_OPEN ? ')' : ']');
}

int lb_param_check(const lb_param *p, double v, const char *who)
{
  double lo, hi;
  limits(p, &lo, &hi);
  int ok = v >= lo && v <= hi && !(p->open & LB_PARAM_LO_OPEN && v == lo) && !(p->open & LB_PARAM_HI_OPEN && v == hi);
  /* a whole number, and not -0, which would read back as 0 */
  if (ok && p->type != LB_PARAM_REAL && (v != floor(v) || signbit(v))) ok = 0;
  if (ok) return LB_SUCCESS;
  char r[160];
  lb_param_range(p, r, sizeof r);
  if (p->type == LB_PARAM_ENUM && v == floor(v) && v >= 0 && v < 1e9)
    return lb_error(LB_ERANGE, "%s: value %.0f is not one of %s", who ? who : p->name, v, r);
  return lb_error(LB_ERANGE, "%s: %.17g is outside %s", who ? who : p->name, v, r);
}

int lb_param_set(const lb_param *p, lb_node_params *par, double v, const char *who)
{
  int rc = lb_param_check(p, v, who);
  if (rc) return rc;
  char *f = (char *)par + p->offset;
  switch (p->ctype) {
  case LB_PARAM_C_DOUBLE: memcpy(f, &v, sizeof v); break;
  case LB_PARAM_C_INT: {
    int x = (int)v;
    memcpy(f, &x, sizeof x);
    break;
  }
  case LB_PARAM_C_UNSIGNED: {
    unsigned x = (unsigned)v;
    memcpy(f, &x, sizeof x);
    break;
  }
  case LB_PARAM_C_ULONG: {
    unsigned long x = (unsigned long)v;
    memcpy(f, &x, sizeof x);
    break;
  }
  case LB_PARAM_C_SIZE: {
    size_t x = (size_t)v;
    memcpy(f, &x, sizeof x);
    break;
  }
  }
  return LB_SUCCESS;
}

/* A real: strtod's decimal forms, or A/B; the whole text, finite. */
static int read_real(const char *s, double *v)
{
  char *end;
  errno = 0;
  double a = strtod(s, &end);
  if (end == s || errno == ERANGE) return -1;
  if (*end == '/') {
    const char *t = end + 1;
    errno = 0;
    double b = strtod(t, &end);
    if (end == t || errno == ERANGE || b == 0) return -1;
    a /= b;
  }
  if (*end || !isfinite(a)) return -1;
  *v = a;
  return 0;
}

int lb_param_parse(const lb_param *p, lb_node_params *par, const char *text, const char *who)
{
  const char *w = who ? who : p->name;
  char r[160];
  lb_param_range(p, r, sizeof r);
  if (!text || !*text) return lb_error(LB_EINVAL, "%s: no value (%s)", w, r);
  double v = 0;
  switch (p->type) {
  case LB_PARAM_ENUM: {
    size_t k = 0;
    while (p->names[k] && strcmp(p->names[k], text)) k++;
    if (!p->names[k]) return lb_error(LB_EINVAL, "%s: unknown value '%s' (%s)", w, text, r);
    v = (double)k;
    break;
  }
  case LB_PARAM_FLAG:
    if (!strcmp(text, "0") || !strcmp(text, "1")) v = text[0] - '0';
    else return lb_error(LB_EINVAL, "%s: '%s' is not 0 or 1", w, text);
    break;
  case LB_PARAM_INT: {
    if (strspn(text, "0123456789") != strlen(text) || strlen(text) > 15)
      return strspn(text, "0123456789") == strlen(text)
                 ? lb_error(LB_ERANGE, "%s: %s is outside %s", w, text, r)
                 : lb_error(LB_EINVAL, "%s: '%s' is not a whole number (%s)", w, text, r);
    v = strtod(text, NULL);
    break;
  }
  case LB_PARAM_REAL:
    if (read_real(text, &v)) return lb_error(LB_EINVAL, "%s: '%s' is not a number (%s)", w, text, r);
    break;
  }
  return lb_param_set(p, par, v, who);
}

int lb_param_format(const lb_param *p, const lb_node_params *par, char *buf, size_t len)
{
  double v = lb_param_get(p, par);
  switch (p->type) {
  case LB_PARAM_ENUM: {
    size_t n = nnames(p);
    if (v >= 0 && v < (double)n) return snprintf(buf, len, "%s", p->names[(size_t)v]);
    return snprintf(buf, len, "%.0f", v);
  }
  case LB_PARAM_FLAG:
  case LB_PARAM_INT: return snprintf(buf, len, "%.0f", v);
  case LB_PARAM_REAL: break;
  }
  return snprintf(buf, len, "%.17g", v);
}

int lb_params_check(const lb_node_params *par)
{
  for (size_t k = 0; k < lb_param_count(); k++) {
    const lb_param *q = lb_param_at(k);
    int rc = lb_param_check(q, lb_param_get(q, par), NULL);
    if (rc) return rc;
  }
  return LB_SUCCESS;
}

void lb_node_params_default(lb_node_params *p)
{
  memset(p, 0, sizeof *p);
  p->speed = 1;
  for (size_t k = 0; k < lb_param_count(); k++) (void)lb_param_set(lb_param_at(k), p, lb_param_at(k)->dflt, NULL);
}

/* ---- shorthands ---- */
static const char *const a_tmax[] = {"rmtlb.tmax", "lowest.timeout", NULL};
static const char *const a_backoff[] = {"rmtlb.backoff_max", "lowest.backoff_max", NULL};
static const char *const a_period[] = {"dasud.period", "cchspmd.period", "diffusion.period", NULL};
static const char *const a_probes[] = {"lowest.probes", NULL};
static const char *const a_drain[] = {"rmtlb.drain", NULL};
static const char *const a_plan[] = {"cchspmd.plan", NULL};
static const char *const a_alpha[] = {"diffusion.alpha", NULL};
static const char *const a_beta[] = {"diffusion.beta", NULL};
static const char *const a_lease[] = {"lease.duration", NULL};
static const lb_param_alias aliases[] = {
    {"tmax", a_tmax, "T", "RMTLB's Tmax and LOWEST's timeout"},
    {"backoff-max", a_backoff, "K", "RMTLB's and LOWEST's back-off"},
    {"period", a_period, "P", "the exchange period of DASUD, CCHSPMD and the diffusions"},
    {"probes", a_probes, "K", NULL},
    {"drain", a_drain, "F", NULL},
    {"plan", a_plan, "P", NULL},
    {"alpha", a_alpha, "X", NULL},
    {"beta", a_beta, "X", NULL},
    {"lease", a_lease, "L", NULL},
};

size_t lb_param_alias_count(void) { return sizeof aliases / sizeof aliases[0]; }
const lb_param_alias *lb_param_alias_at(size_t k) { return k < lb_param_alias_count() ? &aliases[k] : NULL; }
