/* cli_clock.c: the drivers' clocks (cli.h); lb/ reads none. */
#include <stdio.h>
#include <string.h>
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
double cli_thread_cpu(void) { return seconds(CLOCK_THREAD_CPUTIME_ID); }
double cli_epoch(void) { return seconds(CLOCK_REALTIME); }

int cli_boot_id(char out[37])
{
  out[0] = '\0';
  FILE *f = fopen("/proc/sys/kernel/random/boot_id", "r");
  if (!f) return -1;
  char b[64];
  int ok = fgets(b, sizeof b, f) != NULL;
  fclose(f);
  b[ok ? strcspn(b, "\n") : 0] = '\0';
  if (strlen(b) != 36 || strspn(b, "0123456789abcdef-") != 36) return -1;
  memcpy(out, b, 37);
  return 0;
}
