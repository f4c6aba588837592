/* The duty mode's token bucket (farm_throttle.h), driven by a played
 * clock: the CPU a throttled worker gets over a long stretch is its
 * share of the wall time, whatever each wake-up's delay, within one
 * burst and one slice; a worker short of CPU is never stopped; idle
 * time banks no more than the burst. */
#include "testutil.h"
#include "farm_throttle.h"

#define P     0.010 /* the cgroup's period */
#define SHARE 0.30

/* A worker that computes whenever it is not stopped: each slice of CPU
 * takes `stretch` times its length in wall time (other work on the
 * core), and each stop ends `late` seconds after it should. */
static void run(double slice, double stretch, double late, int n, double *cpu, double *wall, int *stops)
{
  farm_duty_bucket b;
  double c = 0, w = 0;
  farm_duty_init(&b, SHARE, P, w, c);
  *stops = 0;
  for (int i = 0; i < n; i++) {
    c += slice;
    w += slice * stretch;
    double until = farm_duty_pay(&b, c, w);
    if (until > w) {
      w = until + late;
      ++*stops;
    }
  }
  *cpu = c;
  *wall = w;
}

static void test_late_wakeups_made_up(void **state)
{
  (void)state;
  /* Slices of 3 ms (the quota) and of 4 ms (the kernel's tick), stops
   * that end 0, 0.5 and 2 ms late: the share holds. */
  const double slices[] = {0.003, 0.004}, lates[] = {0, 0.0005, 0.002};
  for (int i = 0; i < 2; i++)
    for (int j = 0; j < 3; j++) {
      double cpu, wall;
      int stops;
      run(slices[i], 1.0, lates[j], 2000, &cpu, &wall, &stops);
      /* Bounded by one burst and one slice, not growing with time. */
      assert_true(fabs(cpu - SHARE * wall) <= SHARE * 2 * P + slices[i]);
      assert_close(cpu / wall, SHARE, 0.01);
      assert_true(stops > 1000);
    }
}

static void test_short_of_cpu_never_stopped(void **state)
{
  (void)state;
  double cpu, wall;
  int stops;
  /* Each 3 ms slice takes 12 ms: a quarter of a core, under the share. */
  run(0.003, 4.0, 0.0005, 500, &cpu, &wall, &stops);
  assert_int_equal(stops, 0);
  assert_close(cpu / wall, 0.25, 1e-9);
}

static void test_idle_banks_one_burst(void **state)
{
  (void)state;
  farm_duty_bucket b;
  farm_duty_init(&b, SHARE, P, 0, 0);
  /* A second idle, then 50 ms of CPU at once (a slice the tick let run
   * long): the full bucket, one burst, pays for part of it, and the
   * rest is slept off at the share.  (Payments come every slice of
   * 3 ms, so what accrues during the slice itself is lost only once
   * after an idle stretch: at most s x 3 ms.) */
  double until = farm_duty_pay(&b, 0.050, 1.050);
  assert_close(until, 1.050 + (0.050 - SHARE * 2 * P) / SHARE, 1e-9);
  assert_true(0.050 <= SHARE * (until - 1.0) + SHARE * 2 * P + 1e-12);
  /* Paying the same CPU again changes nothing once the debt is slept. */
  assert_close(farm_duty_pay(&b, 0.050, until), until, 1e-12);
}

int main(void)
{
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_late_wakeups_made_up),
      cmocka_unit_test(test_short_of_cpu_never_stopped),
      cmocka_unit_test(test_idle_banks_one_burst),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
