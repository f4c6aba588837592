/* lb_errno.h: status codes and error messages for the lb library.
 *
 * Modelled on GSL: every fallible function returns an int status,
 * LB_SUCCESS (0) or one of the codes below, and records a message
 * naming the fault.  Nothing in lb/ aborts on bad input. */
#ifndef LB_ERRNO_H
#define LB_ERRNO_H

#include <stdarg.h>

enum {
  LB_SUCCESS = 0,
  LB_EINVAL = 1,  /* invalid argument or value */
  LB_ENOMEM = 2,  /* allocation failed */
  LB_EFORMAT = 3, /* malformed input text or message */
  LB_EIO = 4,     /* reading or writing failed */
  LB_ETOPO = 5,   /* graph is not valid, symmetric or connected */
  LB_ERANGE = 6,  /* value out of the supported range */
  LB_ENOCONV = 7, /* an iteration did not converge */
  LB_ESTATE = 8   /* protocol message not valid in this state */
};

/* Record a message for status `code` and return `code`, so callers can
 * write `return lb_error(LB_EINVAL, "speed %g <= 0", s);`. */
int lb_error(int code, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
int lb_verror(int code, const char *fmt, va_list ap);

/* Prefix the current message: "<prefix>: <old message>", return code. */
int lb_error_wrap(int code, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

/* The message of the most recent error in this thread ("" if none). */
const char *lb_errmsg(void);

/* A fixed description of a status code. */
const char *lb_strerror(int code);

/* Forget the last message. */
void lb_error_clear(void);

#endif
