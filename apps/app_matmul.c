/* app_matmul.c: a process computes a block of rows of C = A x B with
 * OpenBLAS's dgemm, one panel of the inner dimension after another:
 *
 *   C_block  = A_block[:, 0:k1]  B[0:k1, :]              (first panel)
 *   C_block += A_block[:, k0:k1] B[k0:k1, :]             (the next ones)
 *
 * A quantum multiplies the next panel, as wide as the quantum's units
 * allow (at least PANEL_MIN, and in calls of at most PANEL_MAX), so it
 * ends within the quantum.  Split by k rather than by columns of C,
 * each call packs only its own slices of A and B, once, as one dgemm
 * of the whole block would (split by columns, every call packed the
 * whole block's A again: 0.84-0.93 of one dgemm against 0.96-1.0 by k,
 * docs/PERFORMANCE.md).  The context carries the descriptor (n, seed,
 * first row), the cursor (rows x the panels' width done) and, once a
 * panel is done, the block's partial sums.  A and B are input every
 * host regenerates from (n, seed), like an input file present on every
 * machine; a panel's slice of A is built inside its quantum, so its
 * cost is counted as the process's work.
 *
 * Exact in any order: entries of A and B are integers in [-2^10, 2^10),
 * so every product is an integer of magnitude at most 2^20 and every
 * partial sum of a row-by-column product, in any grouping, at most
 * n 2^20 <= 2^33 < 2^53 (n <= 8192): each is a double exactly, every
 * addition and fused multiply-add is exact, and C is the same bits
 * whatever the kernel, blocking, summation order or panel split, i.e.
 * wherever a process ran.  The master verifies exactly (app_verify.c). */
#include <stdlib.h>
#include <string.h>
#include <cblas.h>
#include "app_impl.h"
#include "app_blas.h"
#include "app_mem.h"
#include "app_operand.h"
#include "lb_errno.h"

static uint64_t row_key(unsigned long n, unsigned long seed, unsigned which, unsigned long i)
{
  return app_operand_key(n, seed, which, i);
}

static double value(uint64_t key, unsigned long j) { return (double)app_operand(key, j); }

double app_matmul_a(unsigned long n, unsigned long seed, unsigned long i, unsigned long j)
{
  return value(row_key(n, seed, 1, i), j);
}
double app_matmul_b(unsigned long n, unsigned long seed, unsigned long i, unsigned long j)
{
  return value(row_key(n, seed, 2, i), j);
}

static void fill_row(unsigned long n, unsigned long seed, unsigned which, unsigned long i, double *row)
{
  uint64_t key = row_key(n, seed, which, i);
  for (unsigned long j = 0; j < n; j++) row[j] = value(key, j);
}

void app_matmul_row_a(unsigned long n, unsigned long seed, unsigned long i, double *row)
{
  fill_row(n, seed, 1, i, row);
}
void app_matmul_row_b(unsigned long n, unsigned long seed, unsigned long i, double *row)
{
  fill_row(n, seed, 2, i, row);
}

/* Panel widths (values of k).  PANEL_MIN keeps the first, short quanta
 * of a host from spending more on reading and writing the block's C
 * than on multiplying; PANEL_MAX bounds the slice of A built per call
 * (rows x PANEL_MAX) and matches OpenBLAS's own k blocking (256 on
 * Haswell and Zen), so a long quantum costs what one dgemm would. */
#define PANEL_MIN 16
#define PANEL_MAX 256
#define B_CHUNK   64 /* B is built B_CHUNK rows at a time */

/* B, one per (n, seed) in this process, row-major, built B_CHUNK rows
 * at a time when a panel first needs them: a host builds only the rows
 * it multiplies by, and no quantum stalls its host (and the messages
 * waiting for it) to build all of B. */
static double *b_cache;
static unsigned char *b_ready; /* per chunk */
static unsigned long b_n, b_seed;

/* The current panel's slice of A (rows x PANEL_MAX at most), shared by
 * the processes of this program: a host runs one quantum at a time. */
static double *a_slice;
static size_t a_slice_cap;

static void operand_b_free(void)
{
  app_mem_free(b_cache);
  free(b_ready);
  b_cache = NULL;
  b_ready = NULL;
  b_n = 0;
}

/* B for (n, seed) with rows [k0, k1) built. */
static const double *operand_b(unsigned long n, unsigned long seed, unsigned long k0, unsigned long k1)
{
  if (!b_cache || b_n != n || b_seed != seed) {
    operand_b_free();
    b_cache = app_mem_big((size_t)n * n * sizeof *b_cache);
    b_ready = calloc(n / B_CHUNK + 1, 1);
    if (!b_cache || !b_ready) {
      operand_b_free();
      return NULL;
    }
    b_n = n;
    b_seed = seed;
  }
  for (unsigned long c = k0 / B_CHUNK; c <= (k1 - 1) / B_CHUNK; c++) {
    if (b_ready[c]) continue;
    unsigned long r1 = (c + 1) * B_CHUNK < n ? (c + 1) * B_CHUNK : n;
    for (unsigned long k = c * B_CHUNK; k < r1; k++) fill_row(n, seed, 2, k, b_cache + (size_t)k * n);
    b_ready[c] = 1;
  }
  return b_cache;
}

/* Columns [k0, k1) of the block's rows of A, row-major (rows x (k1-k0)). */
static const double *operand_a(const app_task *t, unsigned long rows, unsigned long k0, unsigned long k1)
{
  size_t need = (size_t)rows * PANEL_MAX;
  if (need > a_slice_cap) {
    app_mem_free(a_slice);
    a_slice = app_mem_big(need * sizeof *a_slice);
    a_slice_cap = a_slice ? need : 0;
    if (!a_slice) return NULL;
  }
  unsigned long w = k1 - k0;
  for (unsigned long i = 0; i < rows; i++) {
    uint64_t key = row_key((unsigned long)t->n, (unsigned long)t->seed, 1, (unsigned long)(t->row0 + i));
    double *row = a_slice + (size_t)i * w;
    for (unsigned long k = k0; k < k1; k++) row[k - k0] = value(key, k);
  }
  return a_slice;
}

/* A process is rows [row0, row0 + rows) of C; its units are rows times
 * the values of k done (a unit is n multiply-adds, the cost of one
 * entry of C): cursor = rows x k reached. */
static unsigned long block_rows(const app_task *t) { return (unsigned long)(t->total / t->n); }
static unsigned long k_done(const app_task *t) { return (unsigned long)(t->cursor / block_rows(t)); }

/* C is allocated when the first panel runs (or a started context is
 * loaded): the master builds tasks only to send or to size them. */
static int alloc_c(app_task *t)
{
  size_t cells = (size_t)t->total;
  if (t->c) return LB_SUCCESS;
  /* Every entry is written (by the first panel, beta = 0, or by a
   * loaded context) before it is read: no clearing. */
  t->c = app_mem_big(cells * sizeof *t->c);
  if (!t->c) return lb_error(LB_ENOMEM, "matmul rows (%zu cells)", cells);
  return LB_SUCCESS;
}

int app_matmul_init(app_task *t, const app_workload *w, size_t index)
{
  unsigned long row0, nrows;
  app_split(w->size, w->nproc, index, &row0, &nrows);
  t->n = w->size;
  t->seed = w->seed;
  t->row0 = row0;
  t->total = (uint64_t)nrows * w->size;
  return LB_SUCCESS;
}

unsigned long app_matmul_step(const app_task *t)
{
  unsigned long left = (unsigned long)(t->n - k_done(t));
  return block_rows(t) * (left < PANEL_MIN ? left : PANEL_MIN);
}

/* One quantum: the next panel, in dgemm calls of at most PANEL_MAX. */
int app_matmul_run(app_task *t, unsigned long units)
{
  unsigned long rows = block_rows(t), n = (unsigned long)t->n, k0 = k_done(t);
  unsigned long k1 = k0 + (units / rows < PANEL_MIN ? PANEL_MIN : units / rows);
  if (k1 > n) k1 = n;
  int s = alloc_c(t);
  if (s) return s;
  app_blas_setup();
  for (unsigned long k = k0; k < k1; k += PANEL_MAX) {
    unsigned long e = k1 - k < PANEL_MAX ? k1 : k + PANEL_MAX;
    const double *b = operand_b(n, (unsigned long)t->seed, k, e), *a = b ? operand_a(t, rows, k, e) : NULL;
    if (!a) return lb_error(LB_ENOMEM, "operands of order %lu", n);
    cblas_dgemm(CblasRowMajor, CblasNoTrans, CblasNoTrans, (int)rows, (int)n, (int)(e - k), 1.0, a, (int)(e - k),
                b + (size_t)k * n, (int)n, k ? 1.0 : 0.0, t->c, (int)n);
    t->cursor += (uint64_t)(e - k) * rows;
  }
  /* A kernel that sums from a first product rather than from +0 may
   * leave -0 where all n products were -0; x + 0 is +0 then and x
   * otherwise, so C's bits are the same whatever the kernel. */
  if (k1 == n)
    for (size_t e = 0; e < (size_t)t->total; e++) t->c[e] += 0.0;
  return LB_SUCCESS;
}

/* Body: n, seed, row0, then, once a panel is done, the block's partial
 * sums, row by row. */
size_t app_matmul_body_size(const app_task *t) { return 3 * 8 + (t->cursor ? 8 * (size_t)t->total : 0); }

void app_matmul_save(const app_task *t, lb_wbuf *b)
{
  lb_w_u64(b, t->n);
  lb_w_u64(b, t->seed);
  lb_w_u64(b, t->row0);
  if (t->cursor) lb_w_f64s(b, t->c, (size_t)t->total);
}

int app_matmul_load(app_task *t, lb_rbuf *b)
{
  t->n = lb_r_u64(b);
  t->seed = lb_r_u64(b);
  t->row0 = lb_r_u64(b);
  if (b->bad) return lb_error(LB_EFORMAT, "matmul blob truncated");
  if (t->n < 1 || t->n > APP_MATMUL_ORDER_MAX || t->total % t->n || t->total / t->n > t->n ||
      t->row0 > t->n - t->total / t->n || !t->total)
    return lb_error(LB_EFORMAT, "matmul blob: %llu entries from row %llu of order %llu", (unsigned long long)t->total,
                    (unsigned long long)t->row0, (unsigned long long)t->n);
  if (t->cursor % block_rows(t))
    return lb_error(LB_EFORMAT, "matmul blob: cursor %llu is not a whole number of panel columns",
                    (unsigned long long)t->cursor);
  size_t want = t->cursor ? 8 * (size_t)t->total : 0;
  if (lb_r_left(b) != want)
    return lb_error(LB_EFORMAT, "matmul blob: %zu body bytes where %llu of %llu units done need %zu", lb_r_left(b),
                    (unsigned long long)t->cursor, (unsigned long long)t->total, want);
  if (!t->cursor) return LB_SUCCESS;
  int s = alloc_c(t);
  if (s) return s;
  lb_r_f64s(b, t->c, (size_t)t->total);
  return LB_SUCCESS;
}

size_t app_matmul_result_size(const app_task *t) { return 3 * 8 + 8 * (size_t)t->total; }

void app_matmul_result(const app_task *t, lb_wbuf *b)
{
  lb_w_u64(b, t->n);
  lb_w_u64(b, t->row0);
  lb_w_u64(b, block_rows(t));
  lb_w_f64s(b, t->c, (size_t)t->total);
}
