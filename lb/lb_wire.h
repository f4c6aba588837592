/* lb_wire.h: bounded little-endian writing and reading of fixed-width
 * fields, the one place where lbfarm turns numbers into bytes.
 *
 * A writer with p == NULL only counts, so an encoder run once without a
 * buffer gives the exact size.  A writer never writes past cap; len
 * still advances, and lb_wbuf_ok() tells whether everything fitted.
 * A reader never reads past len: a short read returns zeros and marks
 * the reader bad, so a decoder can read a whole record and check once. */
#ifndef LB_WIRE_H
#define LB_WIRE_H

#include <stddef.h>
#include <stdint.h>
#include <string.h>

typedef struct lb_wbuf {
  unsigned char *p;
  size_t cap, len;
} lb_wbuf;
typedef struct lb_rbuf {
  const unsigned char *p;
  size_t len, off;
  int bad;
} lb_rbuf;

static inline int lb_wbuf_ok(const lb_wbuf *w) { return !w->p || w->len <= w->cap; }

static inline void lb_w_bytes(lb_wbuf *w, const void *v, size_t n)
{
  if (!w->p) {
    w->len += n;
    return;
  }
  if (w->p && n && w->len <= w->cap && n <= w->cap - w->len) memcpy(w->p + w->len, v, n);
  w->len += n;
}

/* Little-endian on every host; one load or store where the host is
 * little-endian itself. */
#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
#define LB_WIRE_NATIVE_LE 1
#else
#define LB_WIRE_NATIVE_LE 0
#endif

static inline void lb_w_uint(lb_wbuf *w, uint64_t v, unsigned bytes)
{
  if (w->p && w->len <= w->cap && bytes <= w->cap - w->len) {
    unsigned char *d = w->p + w->len;
    if (LB_WIRE_NATIVE_LE) memcpy(d, &v, bytes);
    else
      for (unsigned k = 0; k < bytes; k++) d[k] = (unsigned char)(v >> (8 * k));
  }
  w->len += bytes;
}

static inline void lb_w_u8(lb_wbuf *w, unsigned v) { lb_w_uint(w, v, 1); }
static inline void lb_w_u16(lb_wbuf *w, unsigned v) { lb_w_uint(w, v, 2); }
static inline void lb_w_u32(lb_wbuf *w, uint32_t v) { lb_w_uint(w, v, 4); }
static inline void lb_w_u64(lb_wbuf *w, uint64_t v) { lb_w_uint(w, v, 8); }
static inline void lb_w_i64(lb_wbuf *w, int64_t v) { lb_w_uint(w, (uint64_t)v, 8); }
static inline void lb_w_f64(lb_wbuf *w, double v)
{
  uint64_t u;
  memcpy(&u, &v, sizeof u);
  lb_w_u64(w, u);
}

/* An array of doubles: on a little-endian host its bytes as they are. */
static inline void lb_w_f64s(lb_wbuf *w, const double *v, size_t n)
{
  if (n > SIZE_MAX / 8) {
    w->len = SIZE_MAX;
    return;
  }
  if (LB_WIRE_NATIVE_LE) {
    lb_w_bytes(w, v, 8 * n);
    return;
  }
  for (size_t i = 0; i < n; i++) lb_w_f64(w, v[i]);
}

static inline const unsigned char *lb_r_take(lb_rbuf *r, size_t n)
{
  if (r->bad || n > r->len - r->off) {
    r->bad = 1;
    return NULL;
  }
  const unsigned char *s = r->p + r->off;
  r->off += n;
  return s;
}

static inline uint64_t lb_r_uint(lb_rbuf *r, unsigned bytes)
{
  const unsigned char *s = lb_r_take(r, bytes);
  if (!s) return 0;
  uint64_t v = 0;
  if (LB_WIRE_NATIVE_LE) memcpy(&v, s, bytes);
  else
    for (unsigned k = 0; k < bytes; k++) v |= (uint64_t)s[k] << (8 * k);
  return v;
}

static inline unsigned lb_r_u8(lb_rbuf *r) { return (unsigned)lb_r_uint(r, 1); }
static inline unsigned lb_r_u16(lb_rbuf *r) { return (unsigned)lb_r_uint(r, 2); }
static inline uint32_t lb_r_u32(lb_rbuf *r) { return (uint32_t)lb_r_uint(r, 4); }
static inline uint64_t lb_r_u64(lb_rbuf *r) { return lb_r_uint(r, 8); }
static inline int64_t lb_r_i64(lb_rbuf *r) { return (int64_t)lb_r_uint(r, 8); }
static inline double lb_r_f64(lb_rbuf *r)
{
  uint64_t u = lb_r_u64(r);
  double v;
  memcpy(&v, &u, sizeof v);
  return v;
}
static inline void lb_r_f64s(lb_rbuf *r, double *v, size_t n)
{
  if (n > SIZE_MAX / 8) {
    r->bad = 1;
    return;
  }
  if (LB_WIRE_NATIVE_LE) {
    const unsigned char *s = lb_r_take(r, 8 * n);
    if (s && n) memcpy(v, s, 8 * n);
    return;
  }
  for (size_t i = 0; i < n && !r->bad; i++) v[i] = lb_r_f64(r);
}
/* Bytes left to read. */
static inline size_t lb_r_left(const lb_rbuf *r) { return r->bad ? 0 : r->len - r->off; }

#endif
