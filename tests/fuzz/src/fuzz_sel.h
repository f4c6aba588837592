/* fuzz_sel.h: what the first bytes of a message target's input select,
 * shared by the harnesses and the seed generator (gen_seeds.c), so that
 * the committed seeds mean what the harnesses read. */
#ifndef LB_FUZZ_SEL_H
#define LB_FUZZ_SEL_H

#include <stddef.h>
#include <stdint.h>

/* Every seed is of this run. */
#define FZ_RUN 0x1234abcdu

/* lb_codec: byte 0 = node count (bits 0-2), limits (bits 3-4), and
 * bit 7: decode as another run (must fail); then the message. */
static inline size_t fz_nodes(unsigned sel)
{
  static const size_t v[8] = { 1, 2, 3, 6, 16, 4096, 0xFFFFFFFFu, (size_t)1 << 40 };
  return v[sel & 7];
}
enum { FZ_LIM_DEFAULT, FZ_LIM_TIGHT, FZ_LIM_NO_CTX, FZ_LIM_NO_COUNT };
#define FZ_LIMITS(sel) (((sel) >> 3) & 3)
#define FZ_OTHER_RUN 0x80u
/* The selector of the seeds: 16 nodes, default limits. */
#define FZ_CODEC_SEL 4u

/* farm_wire: byte 0 = the decoder, byte 1 = its parameter (host count;
 * TASKS: the receiving host; envelope: tag and run), then the bytes. */
enum { FZ_ENVELOPE, FZ_SETUP, FZ_TASKS, FZ_ORDER, FZ_REPORT, FZ_SUM_REQ, FZ_SUM_REP, FZ_PAYLOAD_HEAD,
       FZ_NDECODERS };
static inline uint32_t fz_hosts(unsigned par)
{
  static const uint32_t v[8] = { 1, 2, 3, 6, 16, 256, 4096, 0xFFFFFFFFu };
  return v[par & 7];
}
/* Envelope: tag 7100 + (par & 15), so 7100 and 7114-7115 are foreign;
 * bit 7: checked as another run. */
#define FZ_ENV_TAG(par) (7100 + (int)((par) & 15))

/* app_result: u8 processes, u8 seed, u32 size of the workload the
 * master would verify the result against, then the result blob. */
#define FZ_RESULT_PREFIX 6u

#endif
