/* cli_clock.c: the drivers' clocks (cli.h); lb/ reads none. */
#include <time.h>
#include "cli.h"

static double seconds(clockid_t id)
{
  struct timespec ts;
  clock_gettime(id, &ts);
  return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

double cli_now(void) { return seconds(CLOCK_MONOTONIC); }
double cli_cpu(void) { return seconds(CLOCK_PROCESS_CPUTIME_ID); }
double cli_epoch(void) { return seconds(CLOCK_REALTIME); }
