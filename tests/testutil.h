/* testutil.h: cmocka includes and small helpers shared by the tests. */
#ifndef LB_TESTUTIL_H
#define LB_TESTUTIL_H

#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#define assert_close(a, b, tol) assert_true(fabs((double)(a) - (double)(b)) <= (tol) * (1.0 + fabs((double)(b))))

/* Path of a file in the source tree (VPATH builds: $srcdir). */
static inline const char *srcpath(const char *rel)
{
  static char buf[4096];
  const char *top = getenv("LB_TOP_SRCDIR");
  snprintf(buf, sizeof buf, "%s/%s", top && *top ? top : ".", rel);
  return buf;
}

#endif
