/* farm_journal.c: see farm_journal.h. */
#include <stdlib.h>
#include <string.h>
#include <sodium.h>
#include "farm_journal.h"
#include "lb_wire.h"
#include "lb_errno.h"

#define HEADER_HEAD 8u /* magic, version, description length */

static void sum(const unsigned char *p, size_t n, unsigned char out[FARM_JOURNAL_SUM])
{
  crypto_generichash(out, FARM_JOURNAL_SUM, p, n, NULL, 0);
}

static int sum_ok(const unsigned char *p, size_t n)
{
  unsigned char s[FARM_JOURNAL_SUM];
  sum(p, n, s);
  return memcmp(s, p + n, FARM_JOURNAL_SUM) == 0;
}

int farm_journal_header_encode(const char *desc, unsigned char **buf, size_t *len)
{
  size_t n = strlen(desc);
  if (n > FARM_JOURNAL_DESC_MAX) return lb_error(LB_ERANGE, "a run description of %zu bytes", n);
  if (sodium_init() < 0) return lb_error(LB_EINVAL, "libsodium cannot start");
  size_t total = HEADER_HEAD + n + FARM_JOURNAL_SUM;
  unsigned char *b = malloc(total);
  if (!b) return lb_error(LB_ENOMEM, "journal header");
  lb_wbuf w = {b, total, 0};
  lb_w_u32(&w, FARM_JOURNAL_MAGIC);
  lb_w_u16(&w, FARM_JOURNAL_VERSION);
  lb_w_u16(&w, (unsigned)n);
  lb_w_bytes(&w, desc, n);
  sum(b, HEADER_HEAD + n, b + HEADER_HEAD + n);
  *buf = b;
  *len = total;
  return LB_SUCCESS;
}

int farm_journal_record_encode(uint64_t pid, const void *bytes, size_t n, unsigned char **buf, size_t *len)
{
  if (sodium_init() < 0) return lb_error(LB_EINVAL, "libsodium cannot start");
  size_t total = FARM_JOURNAL_REC_HEAD + n + FARM_JOURNAL_SUM;
  if (total < n) return lb_error(LB_ERANGE, "a result of %zu bytes", n);
  unsigned char *b = malloc(total);
  if (!b) return lb_error(LB_ENOMEM, "journal record of %zu bytes", total);
  lb_wbuf w = {b, total, 0};
  lb_w_u32(&w, FARM_JOURNAL_REC_MAGIC);
  lb_w_u64(&w, pid);
  lb_w_u64(&w, n);
  lb_w_bytes(&w, bytes, n);
  sum(b, FARM_JOURNAL_REC_HEAD + n, b + FARM_JOURNAL_REC_HEAD + n);
  *buf = b;
  *len = total;
  return LB_SUCCESS;
}

int farm_journal_header_decode(const unsigned char *buf, size_t len, char **desc, size_t *used)
{
  *desc = NULL;
  if (sodium_init() < 0) return lb_error(LB_EINVAL, "libsodium cannot start");
  lb_rbuf r = {buf, len, 0, 0};
  uint32_t magic = lb_r_u32(&r);
  unsigned ver = lb_r_u16(&r), n = lb_r_u16(&r);
  if (r.bad || magic != FARM_JOURNAL_MAGIC) return lb_error(LB_EFORMAT, "not an lbfarm journal");
  if (ver != FARM_JOURNAL_VERSION) return lb_error(LB_EFORMAT, "journal version %u, not %u", ver, FARM_JOURNAL_VERSION);
  if (n > FARM_JOURNAL_DESC_MAX || HEADER_HEAD + n + FARM_JOURNAL_SUM > len)
    return lb_error(LB_EFORMAT, "its header is cut short");
  if (!sum_ok(buf, HEADER_HEAD + n)) return lb_error(LB_EFORMAT, "its header's checksum does not match");
  if (memchr(buf + HEADER_HEAD, '\0', n)) return lb_error(LB_EFORMAT, "a NUL byte in its run description");
  char *d = malloc(n + 1);
  if (!d) return lb_error(LB_ENOMEM, "journal header");
  memcpy(d, buf + HEADER_HEAD, n);
  d[n] = '\0';
  *desc = d;
  *used = HEADER_HEAD + n + FARM_JOURNAL_SUM;
  return LB_SUCCESS;
}

static int all_zero(const unsigned char *p, size_t n)
{
  for (size_t k = 0; k < n; k++)
    if (p[k]) return 0;
  return 1;
}

int farm_journal_next(const unsigned char *buf, size_t len, size_t *off, uint64_t nproc, uint64_t max_len,
                      farm_journal_rec *rec, int *have, int *torn)
{
  *have = 0;
  *torn = 0;
  if (*off > len) return lb_error(LB_EINVAL, "offset %zu past the end %zu", *off, len);
  size_t rem = len - *off;
  const unsigned char *p = buf + *off;
  if (!rem) return LB_SUCCESS;
  if (sodium_init() < 0) return lb_error(LB_EINVAL, "libsodium cannot start");
  /* A crash while appending leaves a prefix of the record, or (a file
   * grown before its data reached the disk) zero bytes. */
  if (rem < 4 || all_zero(p, rem)) {
    *torn = 1;
    return lb_error(LB_EFORMAT, "%zu byte(s) at byte %zu are not a whole record", rem, *off);
  }
  lb_rbuf r = {p, rem, 0, 0};
  if (lb_r_u32(&r) != FARM_JOURNAL_REC_MAGIC) return lb_error(LB_EFORMAT, "no record at byte %zu", *off);
  if (rem < FARM_JOURNAL_REC_HEAD) {
    *torn = 1;
    return lb_error(LB_EFORMAT, "the record at byte %zu is cut short", *off);
  }
  uint64_t pid = lb_r_u64(&r), n = lb_r_u64(&r);
  if (pid >= nproc)
    return lb_error(LB_EFORMAT, "the record at byte %zu names process %llu of %llu", *off, (unsigned long long)pid,
                    (unsigned long long)nproc);
  if (n > max_len)
    return lb_error(LB_EFORMAT, "the record at byte %zu holds %llu bytes, more than a result has", *off,
                    (unsigned long long)n);
  uint64_t total = FARM_JOURNAL_REC_HEAD + n + FARM_JOURNAL_SUM;
  if (total > rem) {
    *torn = 1;
    return lb_error(LB_EFORMAT, "the record at byte %zu is cut short (%zu of %llu bytes)", *off, rem,
                    (unsigned long long)total);
  }
  if (!sum_ok(p, (size_t)(FARM_JOURNAL_REC_HEAD + n))) {
    *torn = total == rem;
    return lb_error(LB_EFORMAT, "the record at byte %zu does not match its checksum", *off);
  }
  *rec = (farm_journal_rec){pid, p + FARM_JOURNAL_REC_HEAD, n};
  *off += (size_t)total;
  *have = 1;
  return LB_SUCCESS;
}
