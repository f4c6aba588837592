/* Which PVM host a fenced worker's cut deletes (pvm/lbpvm_cut.h): its
 * own, never one where the master or a live worker runs.  Hosts are
 * pvmd tids as pvm_tidtohost gives them. */
#include "testutil.h"
#include "lbpvm_cut.h"

enum { H1 = 0x40000, H2 = 0x80000, H3 = 0xc0000, H4 = 0x100000 };

static void test_alone_on_its_host(void **state)
{
  (void)state;
  int live[] = {H1, H2, H4};
  assert_int_equal(lbpvm_cut_host(H3, H1, live, 3), H3);
  assert_int_equal(lbpvm_cut_host(H3, H1, NULL, 0), H3);
}

static void test_master_or_live_worker_there(void **state)
{
  (void)state;
  int live[] = {H1, H2, H3};
  /* The master's own host: the one-host VM, or a worker beside it. */
  assert_int_equal(lbpvm_cut_host(H1, H1, NULL, 0), 0);
  /* Another logical host on the same pvmd still runs. */
  assert_int_equal(lbpvm_cut_host(H3, H1, live, 3), 0);
  assert_int_equal(lbpvm_cut_host(H2, H4, live + 1, 1), 0);
}

static void test_no_host(void **state)
{
  (void)state;
  assert_int_equal(lbpvm_cut_host(0, H1, NULL, 0), 0);
  assert_int_equal(lbpvm_cut_host(-5, H1, NULL, 0), 0);
}

/* Against a plain model: many tables of up to 12 workers on 4 hosts. */
static void test_against_model(void **state)
{
  (void)state;
  const int hosts[] = {H1, H2, H3, H4};
  unsigned seed = 12345;
  for (int round = 0; round < 20000; round++) {
    seed = seed * 1103515245u + 12345u;
    int n = (int)(seed >> 16) % 13, live[12];
    for (int i = 0; i < n; i++) {
      seed = seed * 1103515245u + 12345u;
      live[i] = hosts[(seed >> 16) % 4];
    }
    seed = seed * 1103515245u + 12345u;
    int self = hosts[(seed >> 16) % 4], victim = hosts[(seed >> 20) % 4];
    int shared = victim == self;
    for (int i = 0; i < n; i++) shared |= live[i] == victim;
    assert_int_equal(lbpvm_cut_host(victim, self, live, n), shared ? 0 : victim);
  }
}

int main(void)
{
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_alone_on_its_host),
      cmocka_unit_test(test_master_or_live_worker_there),
      cmocka_unit_test(test_no_host),
      cmocka_unit_test(test_against_model),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
