/* The journal's bytes (farm/farm_journal.h): records read back as
 * written; a journal cut at every byte gives exactly its whole records
 * and says the rest is a torn last record; damage before the end, a
 * zero tail, a bad header, and records out of the run's range. */
#include "testutil.h"
#include "farm_journal.h"
#include "lb_errno.h"

enum { NREC = 7 };

/* A journal of NREC records, process 3k+1 with 8 + 5k bytes each. */
static unsigned char *journal(size_t *len, size_t *ends)
{
  unsigned char *h, *all;
  size_t hl;
  assert_int_equal(farm_journal_header_encode("workload primes, size 100, 30 processes, seed 1", &h, &hl), LB_SUCCESS);
  all = malloc(hl);
  memcpy(all, h, hl);
  free(h);
  size_t n = hl;
  for (int k = 0; k < NREC; k++) {
    unsigned char bytes[64], *r;
    size_t rl, m = 8 + 5 * (size_t)k;
    for (size_t j = 0; j < m; j++) bytes[j] = (unsigned char)(k * 31 + j);
    assert_int_equal(farm_journal_record_encode(3 * (uint64_t)k + 1, bytes, m, &r, &rl), LB_SUCCESS);
    assert_int_equal(rl, FARM_JOURNAL_REC_HEAD + m + FARM_JOURNAL_SUM);
    all = realloc(all, n + rl);
    memcpy(all + n, r, rl);
    free(r);
    n += rl;
    ends[k] = n;
  }
  *len = n;
  return all;
}

/* Read records from buf[0..len-1] after the header: how many whole
 * ones, checking each; *status and *torn of the last call. */
static int scan(const unsigned char *buf, size_t len, int *status, int *torn)
{
  char *desc;
  size_t off;
  assert_int_equal(farm_journal_header_decode(buf, len, &desc, &off), LB_SUCCESS);
  assert_string_equal(desc, "workload primes, size 100, 30 processes, seed 1");
  free(desc);
  int n = 0;
  for (;;) {
    farm_journal_rec r;
    int have;
    *status = farm_journal_next(buf, len, &off, 30, 64, &r, &have, torn);
    if (*status || !have) return n;
    assert_int_equal(r.pid, 3 * (uint64_t)n + 1);
    assert_int_equal(r.len, 8 + 5 * (uint64_t)n);
    for (size_t j = 0; j < r.len; j++) assert_int_equal(r.bytes[j], (unsigned char)(n * 31 + j));
    n++;
  }
}

static void test_round_trip(void **state)
{
  (void)state;
  size_t len, ends[NREC];
  unsigned char *j = journal(&len, ends);
  int st, torn;
  assert_int_equal(scan(j, len, &st, &torn), NREC);
  assert_int_equal(st, LB_SUCCESS);
  free(j);
}

/* A crash while appending leaves a prefix of the last record: cut at
 * every byte, the whole records before the cut are read and the rest
 * is a torn record; cut on a record's end, nothing is torn. */
static void test_cut_everywhere(void **state)
{
  (void)state;
  size_t len, ends[NREC];
  unsigned char *j = journal(&len, ends);
  size_t start = ends[0] - (FARM_JOURNAL_REC_HEAD + 8 + FARM_JOURNAL_SUM);
  for (size_t cut = start; cut <= len; cut++) {
    int whole = 0;
    while (whole < NREC && ends[whole] <= cut) whole++;
    int boundary = cut == start || (whole > 0 && ends[whole - 1] == cut);
    int st, torn;
    assert_int_equal(scan(j, cut, &st, &torn), whole);
    if (boundary) {
      assert_int_equal(st, LB_SUCCESS);
    } else {
      assert_int_equal(st, LB_EFORMAT);
      assert_true(torn);
    }
  }
  free(j);
}

/* Damage inside a record that others follow is not a torn end; in the
 * last record, where the bytes end with it, it is.  A tail of zero bytes
 * (a file grown before its data reached the disk) is torn. */
static void test_damage(void **state)
{
  (void)state;
  size_t len, ends[NREC];
  unsigned char *j = journal(&len, ends);
  int st, torn;
  j[ends[2] + FARM_JOURNAL_REC_HEAD + 3] ^= 1; /* a byte of record 3 */
  assert_int_equal(scan(j, len, &st, &torn), 3);
  assert_int_equal(st, LB_EFORMAT);
  assert_false(torn);
  j[ends[2] + FARM_JOURNAL_REC_HEAD + 3] ^= 1;
  j[ends[3] + 1] ^= 0x40; /* the magic of record 5 */
  assert_int_equal(scan(j, len, &st, &torn), 4);
  assert_false(torn);
  j[ends[3] + 1] ^= 0x40;
  j[len - 1] ^= 0x80; /* the last record's checksum */
  assert_int_equal(scan(j, len, &st, &torn), NREC - 1);
  assert_true(torn);
  j[len - 1] ^= 0x80;
  unsigned char *z = calloc(len + 100, 1);
  memcpy(z, j, len);
  assert_int_equal(scan(z, len + 100, &st, &torn), NREC);
  assert_int_equal(st, LB_EFORMAT);
  assert_true(torn);
  free(z);
  free(j);
}

/* Records out of the run's range: a process id, a result longer than any
 * of the run's; a bad header. */
static void test_ranges_and_header(void **state)
{
  (void)state;
  unsigned char *r, *h;
  size_t rl, hl, off = 0;
  unsigned char bytes[100] = {1};
  farm_journal_rec rec;
  int have, torn;
  assert_int_equal(farm_journal_record_encode(30, bytes, 8, &r, &rl), LB_SUCCESS);
  assert_int_equal(farm_journal_next(r, rl, &off, 30, 64, &rec, &have, &torn), LB_EFORMAT);
  assert_false(torn || have);
  free(r);
  assert_int_equal(farm_journal_record_encode(2, bytes, 100, &r, &rl), LB_SUCCESS);
  off = 0;
  assert_int_equal(farm_journal_next(r, rl, &off, 30, 64, &rec, &have, &torn), LB_EFORMAT);
  assert_false(torn);
  off = rl + 1;
  assert_int_equal(farm_journal_next(r, rl, &off, 30, 100, &rec, &have, &torn), LB_EINVAL);
  off = 0;
  assert_int_equal(farm_journal_next(r, rl, &off, 30, 100, &rec, &have, &torn), LB_SUCCESS);
  assert_true(have);
  assert_int_equal(off, rl);
  free(r);

  char *desc;
  size_t used;
  assert_int_equal(farm_journal_header_encode("a run", &h, &hl), LB_SUCCESS);
  assert_int_equal(farm_journal_header_decode(h, hl, &desc, &used), LB_SUCCESS);
  assert_int_equal(used, hl);
  free(desc);
  assert_int_equal(farm_journal_header_decode(h, hl - 1, &desc, &used), LB_EFORMAT); /* cut short */
  h[9] ^= 1;
  assert_int_equal(farm_journal_header_decode(h, hl, &desc, &used), LB_EFORMAT); /* checksum */
  h[9] ^= 1;
  h[4] = 9;
  assert_int_equal(farm_journal_header_decode(h, hl, &desc, &used), LB_EFORMAT); /* version */
  h[0] = 'X';
  assert_int_equal(farm_journal_header_decode(h, hl, &desc, &used), LB_EFORMAT); /* magic */
  assert_null(desc);
  free(h);
  char big[FARM_JOURNAL_DESC_MAX + 2];
  memset(big, 'a', sizeof big - 1);
  big[sizeof big - 1] = '\0';
  assert_int_equal(farm_journal_header_encode(big, &h, &hl), LB_ERANGE);
}

int main(void)
{
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_round_trip),
      cmocka_unit_test(test_cut_everywhere),
      cmocka_unit_test(test_damage),
      cmocka_unit_test(test_ranges_and_header),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
