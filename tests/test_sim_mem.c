/* The engine's allocator belongs to a run (lb/lb_mem.h): a program
 * with its own allocator keeps it across a simulation, and two
 * simulations on two threads give the results each gives alone. */
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "testutil.h"
#include "lb_sim.h"
#include "lb_mem.h"
#include "lb_errno.h"

/* A caller's allocator that marks its blocks: a block it did not make,
 * or one made by it and freed elsewhere, is caught. */
#define MARK 0x6c62666d61726b31ull
typedef struct mine {
  unsigned long blocks;
} mine;

static void *mine_alloc(void *ctx, size_t size)
{
  unsigned char *b = malloc(size + 64);
  if (!b) return NULL;
  *(unsigned long long *)b = MARK;
  ((mine *)ctx)->blocks++;
  return b + 64; /* keeps lb_mem's 64-byte alignment of whole lines */
}

static void mine_free(void *ctx, void *p, size_t size)
{
  (void)size;
  if (!p) return;
  unsigned char *b = (unsigned char *)p - 64;
  assert_true(*(unsigned long long *)b == MARK);
  *(unsigned long long *)b = 0;
  ((mine *)ctx)->blocks--;
  free(b);
}

static void config(lb_sim_config *c, const lb_topo *t, lb_policy pol, unsigned long seed)
{
  lb_sim_config_default(c);
  c->policy = pol;
  c->topo = t;
  c->seed = seed;
  c->jitter = 1.5;
  c->load = LB_SIM_LOAD_SKEW;
}

/* The reported failure: a message made with the caller's allocator,
 * freed after a simulation, went to free() and aborted. */
static void test_caller_allocator_kept(void **state)
{
  (void)state;
  mine a = {0};
  lb_mem saved;
  lb_mem_get(&saved);
  lb_mem_set(&(lb_mem){.alloc = mine_alloc, .free = mine_free, .ctx = &a});
  lb_msg *m;
  assert_int_equal(lb_msg_alloc(LB_MSG_LOAD, 0, 1, &m), LB_SUCCESS);
  assert_int_equal(a.blocks, 1);
  lb_topo *t;
  assert_int_equal(lb_topo_from_spec("torus:4x4", &t), LB_SUCCESS);
  lb_sim_config c;
  config(&c, t, LB_POLICY_RMTLB, 3);
  lb_sim_result r;
  assert_int_equal(lb_sim_run(&c, &r), LB_SUCCESS);
  assert_int_equal(r.violations, 0);
  assert_int_equal(a.blocks, 1); /* the run took none of the caller's */
  lb_msg_free(m);                /* and the caller's allocator frees it */
  assert_int_equal(a.blocks, 0);
  /* It is still the one in use. */
  assert_int_equal(lb_msg_alloc(LB_MSG_LOAD, 0, 1, &m), LB_SUCCESS);
  assert_int_equal(a.blocks, 1);
  lb_msg_free(m);
  lb_mem_set(&saved);
  lb_topo_free(t);
}

typedef struct job {
  const char *spec;
  lb_policy pol;
  unsigned long seed;
  int rc;
  lb_sim_result r;
  char *trace;
  size_t ntrace;
} job;

static void *run_job(void *arg)
{
  job *j = arg;
  lb_topo *t;
  j->rc = lb_topo_from_spec(j->spec, &t);
  if (j->rc) return NULL;
  lb_sim_config c;
  config(&c, t, j->pol, j->seed);
  FILE *f = open_memstream(&j->trace, &j->ntrace);
  c.msg_trace = f;
  j->rc = f ? lb_sim_run(&c, &j->r) : LB_ENOMEM;
  if (f) fclose(f);
  lb_topo_free(t);
  return NULL;
}

static void same(const job *a, const job *b)
{
  assert_int_equal(a->rc, LB_SUCCESS);
  assert_int_equal(b->rc, LB_SUCCESS);
  assert_int_equal(a->r.violations, 0);
  assert_true(a->r.makespan == b->r.makespan);
  assert_int_equal(a->r.events, b->r.events);
  assert_int_equal(a->r.messages, b->r.messages);
  assert_int_equal(a->r.bytes, b->r.bytes);
  assert_int_equal(a->r.migrated, b->r.migrated);
  assert_int_equal(a->r.hops, b->r.hops);
  assert_int_equal(a->ntrace, b->ntrace);
  assert_true(a->ntrace > 0);
  assert_memory_equal(a->trace, b->trace, a->ntrace);
}

/* The reported failure: two runs on two threads shared one arena, and
 * the first to end reset the other's allocator under it. */
static void test_two_threads(void **state)
{
  (void)state;
  job alone[2] = {{.spec = "torus:6x6", .pol = LB_POLICY_RMTLB, .seed = 5},
                  {.spec = "random:30:20:2", .pol = LB_POLICY_DASUD, .seed = 9}};
  for (int k = 0; k < 2; k++) run_job(&alone[k]);
  for (int round = 0; round < 4; round++) {
    job both[2] = {alone[0], alone[1]};
    pthread_t th[2];
    for (int k = 0; k < 2; k++) {
      both[k].trace = NULL;
      assert_int_equal(pthread_create(&th[k], NULL, run_job, &both[k]), 0);
    }
    for (int k = 0; k < 2; k++) assert_int_equal(pthread_join(th[k], NULL), 0);
    for (int k = 0; k < 2; k++) {
      same(&alone[k], &both[k]);
      free(both[k].trace);
    }
  }
  for (int k = 0; k < 2; k++) free(alone[k].trace);
}

int main(void)
{
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_caller_allocator_kept),
      cmocka_unit_test(test_two_threads),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
