/* farm_journal.h: the master's journal of verified results as bytes,
 * with no file in it (master/master_journal.c writes and reads the
 * file), so the reader can be tested and fuzzed on its own.
 *
 * A journal is a header and records, appended one by one, fixed-width
 * little-endian:
 *
 *   header: u32 magic "LBFJ"  u16 version  u16 n  u8[n] the run's
 *           description (text)  u8[32] checksum
 *   record: u32 magic "LBJR"  u64 pid  u64 n  u8[n] the result's bytes
 *           u8[32] checksum
 *
 * Each checksum is BLAKE2b-256 (libsodium's crypto_generichash) of the
 * bytes before it in its header or record.  It guards against a torn
 * or damaged write, not against a forger: the master verifies every
 * result it takes from a journal as it verifies one from a host.
 *
 * The description names what decides the processes and their results
 * (workload, size, processes, seed), so a journal is taken only by a
 * run of the same description. */
#ifndef FARM_JOURNAL_H
#define FARM_JOURNAL_H

#include <stddef.h>
#include <stdint.h>

#define FARM_JOURNAL_MAGIC     0x4A46424Cu /* "LBFJ" */
#define FARM_JOURNAL_REC_MAGIC 0x524A424Cu /* "LBJR" */
#define FARM_JOURNAL_VERSION   1u
#define FARM_JOURNAL_SUM       32u
#define FARM_JOURNAL_REC_HEAD  20u /* magic, pid, length */
#define FARM_JOURNAL_DESC_MAX  1024u

/* The header for `desc` (at most FARM_JOURNAL_DESC_MAX bytes), in a new
 * buffer; a record of pid's result bytes[0..n-1], in a new buffer. */
int farm_journal_header_encode(const char *desc, unsigned char **buf, size_t *len);
int farm_journal_record_encode(uint64_t pid, const void *bytes, size_t n, unsigned char **buf, size_t *len);

/* The header at buf[0..len-1]: its description (a new string) and its
 * length in *used; LB_EFORMAT saying what is wrong. */
int farm_journal_header_decode(const unsigned char *buf, size_t len, char **desc, size_t *used);

typedef struct farm_journal_rec {
  uint64_t pid;
  const unsigned char *bytes; /* inside the buffer read */
  uint64_t len;
} farm_journal_rec;

/* The record at buf[*off..len-1].  LB_SUCCESS: *have = 1 with *rec and
 * *off past it, or *have = 0 at the end.  LB_EFORMAT for bytes that are
 * not a whole record, its process id out of `nproc`, or a result longer
 * than `max_len`; *torn then says whether the bad bytes reach the end
 * of the buffer (a last record cut short by a crash: what comes before
 * it holds) or are followed by more (a journal damaged inside). */
int farm_journal_next(const unsigned char *buf, size_t len, size_t *off, uint64_t nproc, uint64_t max_len,
                      farm_journal_rec *rec, int *have, int *torn);

#endif
