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
  static const size_t v[8] = {1, 2, 3, 6, 16, 4096, 0xFFFFFFFFu, (size_t)1 << 40};
  return v[sel & 7];
}
enum { FZ_LIM_DEFAULT, FZ_LIM_TIGHT, FZ_LIM_NO_CTX, FZ_LIM_NO_COUNT };
#define FZ_LIMITS(sel) (((sel) >> 3) & 3)
#define FZ_OTHER_RUN   0x80u
/* The selector of the seeds: 16 nodes, default limits. */
#define FZ_CODEC_SEL   4u

/* farm_wire: byte 0 = the decoder, byte 1 = its parameter (host count;
 * TASKS: the receiving host; envelope: tag and run; auth: below;
 * journal: the run's processes and longest result), then the bytes. */
enum {
  FZ_ENVELOPE,
  FZ_SETUP,
  FZ_TASKS,
  FZ_ORDER,
  FZ_REPORT,
  FZ_SUM_REQ,
  FZ_SUM_REP,
  FZ_PAYLOAD_HEAD,
  FZ_AUTH,
  FZ_CLOCK,
  FZ_BEAT,
  FZ_JOURNAL,
  FZ_NDECODERS
};
/* journal: processes fz_hosts(par), results up to 64 << ((par >> 3) & 7) bytes */
#define FZ_JOURNAL_MAX(par) ((uint64_t)64 << (((par) >> 3) & 7))
static inline uint32_t fz_hosts(unsigned par)
{
  static const uint32_t v[8] = {1, 2, 3, 6, 16, 256, 4096, 0xFFFFFFFFu};
  return v[par & 7];
}
/* Envelope: tag 7100 + (par & 31), so 7100 and 7120-7131 are foreign;
 * bit 7: checked as another run. */
#define FZ_ENV_TAG(par) (7100 + (int)((par)&31))

/* auth: a whole message (envelope and body) that a transport received
 * with tag 7101 + k from FZ_SRC, k = (par & 15) + 16 x bit 7 of par (bit 6: from FZ_SRC + 1), taken
 * by task FZ_SELF holding the key fz_key (bit 4: only its commitment, as
 * a worker before SETUP); bit 5: the harness seals it again first (a
 * right MAC over whatever the envelope and body now say), so that the
 * checks after the MAC are reached too.  The seeds are sealed with
 * fz_key. */
#define FZ_SELF           0x40002u
#define FZ_SRC            0x40001u
#define FZ_AUTH_TAG(par)  (7101 + (int)(((par)&15) | (((par)&0x80) >> 3)))
#define FZ_AUTH_PAR(tag)  ((unsigned)(((tag)-7101) & 15) | (unsigned)((((tag)-7101) & 16) << 3))
#define FZ_AUTH_KEYLESS   0x10u
#define FZ_AUTH_RESEAL    0x20u
#define FZ_AUTH_OTHER_SRC 0x40u
static inline void fz_key(unsigned char key[32])
{
  for (int k = 0; k < 32; k++) key[k] = (unsigned char)(0xA0 + k);
}

/* app_result: u8 processes, u8 seed, u32 size of the workload the
 * master would verify the result against, then the result blob. */
#define FZ_RESULT_PREFIX 6u

#endif
