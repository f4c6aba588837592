/* lb_errno.c: per-thread last-error message. */
#include <stdio.h>
#include "lb_errno.h"

static _Thread_local char msg[512];

int lb_verror(int code, const char *fmt, va_list ap)
{
  vsnprintf(msg, sizeof msg, fmt, ap);
  return code;
}

int lb_error(int code, const char *fmt, ...)
{
  va_list ap;
  va_start(ap, fmt);
  lb_verror(code, fmt, ap);
  va_end(ap);
  return code;
}

int lb_error_wrap(int code, const char *fmt, ...)
{
  char old[sizeof msg], pre[sizeof msg];
  va_list ap;
  snprintf(old, sizeof old, "%s", msg);
  va_start(ap, fmt);
  vsnprintf(pre, sizeof pre, fmt, ap);
  va_end(ap);
  snprintf(msg, sizeof msg, "%.250s: %.250s", pre, old);
  return code;
}

const char *lb_errmsg(void) { return msg; }

void lb_error_clear(void) { msg[0] = '\0'; }

const char *lb_strerror(int code)
{
  switch (code) {
  case LB_SUCCESS: return "success";
  case LB_EINVAL: return "invalid argument";
  case LB_ENOMEM: return "out of memory";
  case LB_EFORMAT: return "malformed input";
  case LB_EIO: return "input/output error";
  case LB_ETOPO: return "invalid topology";
  case LB_ERANGE: return "value out of range";
  case LB_ENOCONV: return "did not converge";
  case LB_ESTATE: return "invalid protocol state";
  default: return "unknown error";
  }
}
