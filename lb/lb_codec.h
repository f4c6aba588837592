/* lb_codec.h: protocol messages as bytes, and back.
 *
 * Every message is a 32-byte header and a body, all fixed-width
 * little-endian:
 *
 *   u32 magic "LBM1"   u16 version   u16 type   u32 run
 *   u32 src   u32 dst   u32 hop src   u32 hop dst   u32 body length
 *
 * (src and dst are the ends; hop src and hop dst this link.)
 *
 * The body holds exactly the fields of its type (lb_proc.h); node ids
 * are u32 (all ones: none), counts i64, times and speeds IEEE doubles.
 * A process is u64 id, u32 origin, f64 work, u32 quanta, u32 hops,
 * f64 est, f64 ran (floats in lb_proc), u32 context length and the
 * context; a result reference is u64 pid,
 * u32 origin, u64 length, u8 payload; an ORDER pair is u32 node, i64
 * count; a POLICY message (lb_policy.h) is u32 kind, u64 tag, i64 a,
 * i64 b.  The result bytes themselves never pass through here.
 *
 * The decoder checks everything before it acts: magic, version, type,
 * the run id, the exact length, every node id against the number of
 * nodes, every count and size against the limits, every double for
 * being finite and in range, and that no byte is left over.  It returns
 * LB_EFORMAT with a message saying what is wrong, never crashes, and
 * allocates nothing it has not checked first. */
#ifndef LB_CODEC_H
#define LB_CODEC_H

#include <stddef.h>
#include <stdint.h>
#include "lb_proc.h"

#define LB_CODEC_MAGIC   0x314D424Cu /* "LBM1" */
#define LB_CODEC_VERSION 2u
#define LB_CODEC_HEADER  32u

typedef struct lb_codec_limits {
  size_t nodes;     /* node ids must be below this (and below 2^32 - 1) */
  size_t max_procs; /* processes in one message */
  size_t max_ctx;   /* bytes in one context */
  size_t max_pairs; /* pairs in one ORDER */
  long max_count;   /* any count (EPN, queue length, ...) */
} lb_codec_limits;

/* nodes as given; 1 << 20 processes, 1 GiB contexts, nodes pairs,
 * INT_MAX for counts. */
void lb_codec_limits_default(lb_codec_limits *l, size_t nodes);

/* Bytes lb_codec_encode writes for m. */
size_t lb_codec_size(const lb_msg *m);
/* Encode m into buf[0..cap-1]; *len gets the size.  LB_ERANGE when it
 * does not fit (nothing is promised about buf then) or a field cannot
 * be represented (a node id of 2^32 - 1 or more). */
int lb_codec_encode(const lb_msg *m, uint32_t run, unsigned char *buf, size_t cap, size_t *len);
/* The same into a new malloc'd buffer. */
int lb_codec_encode_alloc(const lb_msg *m, uint32_t run, unsigned char **buf, size_t *len);
/* Decode buf[0..len-1], which must be one whole message of run `run`. */
int lb_codec_decode(const unsigned char *buf, size_t len, uint32_t run, const lb_codec_limits *lim, lb_msg **out);
/* Read only the header: type and run, for a receiver's first check. */
int lb_codec_peek(const unsigned char *buf, size_t len, lb_msg_type *type, uint32_t *run);

#endif
