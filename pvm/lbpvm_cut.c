/* lbpvm_cut.c: see lbpvm_cut.h.  No libpvm here: the unit test runs
 * without a pvmd. */
#include "lbpvm_cut.h"

int lbpvm_cut_host(int host, int self, const int *live, int nlive)
{
  if (host <= 0 || host == self) return 0;
  for (int i = 0; i < nlive; i++)
    if (live[i] == host) return 0;
  return host;
}
