/* app_matmul.c: a process computes a block of rows of C = A x B with
 * OpenBLAS dgemm, a panel of columns per quantum.  Its context carries
 * the descriptor (n, seed, first row), the cursor (entries done, whole
 * columns of the block) and the columns of C done so far.  A and B are
 * input every host regenerates from (n, seed), like an input file present
 * on every machine: carrying the block's rows of A made each context
 * ~(rows x n x 8) bytes, all of which the master sent to the first host
 * and that host, at its emulated speed, re-packed for every migration.
 * The rows of A are built where the process first runs, inside its
 * quantum, so their cost is counted as the process's work. */
#include <stdlib.h>
#include <cblas.h>
#include "app_impl.h"
#include "app_mem.h"
#include "lb_errno.h"

/* splitmix64: a cheap, well-mixed hash, so A and B are a pure function
 * of (n, seed, i, j) on every host, and the master can rebuild them. */
static uint64_t mix(uint64_t x)
{
  x += 0x9E3779B97F4A7C15ull;
  x = (x ^ (x >> 30)) * 0xBF58476D1CE4E5B9ull;
  x = (x ^ (x >> 27)) * 0x94D049BB133111EBull;
  return x ^ (x >> 31);
}

/* Entry (i, j) is mix(mix(mix(mix(4 seed + which) ^ n) ^ i) ^ j) mod 9,
 * minus 4.  The first three rounds depend on the row only, so a row
 * costs one round per entry (tests/test_apps.c checks the formula). */
static uint64_t row_key(unsigned long n, unsigned long seed, unsigned which, unsigned long i)
{
  return mix(mix(mix((uint64_t)seed * 4 + which) ^ n) ^ i);
}

static double value(uint64_t key, unsigned long j) { return (double)((int)(mix(key ^ j) % 9) - 4); }

double app_matmul_a(unsigned long n, unsigned long seed, unsigned long i, unsigned long j)
{ return value(row_key(n, seed, 1, i), j); }
double app_matmul_b(unsigned long n, unsigned long seed, unsigned long i, unsigned long j)
{ return value(row_key(n, seed, 2, i), j); }

static void fill_row(unsigned long n, unsigned long seed, unsigned which, unsigned long i, double *row)
{
  uint64_t key = row_key(n, seed, which, i);
  for (unsigned long j = 0; j < n; j++) row[j] = value(key, j);
}

void app_matmul_row_a(unsigned long n, unsigned long seed, unsigned long i, double *row)
{ fill_row(n, seed, 1, i, row); }
void app_matmul_row_b(unsigned long n, unsigned long seed, unsigned long i, double *row)
{ fill_row(n, seed, 2, i, row); }

/* B, one per (n, seed) in this process, stored and generated a panel
 * of PANEL columns at a time when a quantum first needs it.  Panel p
 * holds columns [p PANEL, p PANEL + w) of every row, its own rows
 * contiguous (n x w, at b + p PANEL n), so building a panel touches only
 * that panel's memory: a host builds only the columns it multiplies by,
 * and no quantum stalls its host (and the messages waiting for it) to
 * fault in and build all of B. */
#define PANEL 256
static double *b_cache;
static uint64_t *b_keys;           /* row keys of B */
static unsigned char *b_ready;     /* per panel */
static unsigned long b_n, b_seed;

static void operand_b_free(void)
{
  app_mem_free(b_cache);
  free(b_keys);
  free(b_ready);
  b_cache = NULL;
  b_keys = NULL;
  b_ready = NULL;
  b_n = 0;
}

/* Panel p of B for (n, seed), built if needed; its width in *w. */
static const double *operand_b(unsigned long n, unsigned long seed, unsigned long p, unsigned long *w)
{
  if (!b_cache || b_n != n || b_seed != seed) {
    operand_b_free();
    b_cache = app_mem_big((size_t)n * n * sizeof *b_cache);
    b_keys = malloc(n * sizeof *b_keys);
    b_ready = calloc(n / PANEL + 1, 1);
    if (!b_cache || !b_keys || !b_ready) { operand_b_free(); return NULL; }
    for (unsigned long i = 0; i < n; i++) b_keys[i] = row_key(n, seed, 2, i);
    b_n = n;
    b_seed = seed;
  }
  unsigned long j0 = p * PANEL, width = n - j0 < PANEL ? n - j0 : PANEL;
  double *panel = b_cache + (size_t)j0 * n;
  if (!b_ready[p]) {
    for (unsigned long i = 0; i < n; i++)
      for (unsigned long j = 0; j < width; j++) panel[i * width + j] = value(b_keys[i], j0 + j);
    b_ready[p] = 1;
  }
  *w = width;
  return panel;
}

/* A process is rows [row0, row0 + rows) of C; its units are the block's
 * entries, done a column at a time: cursor = rows x columns done. */
static unsigned long block_rows(const app_task *t) { return (unsigned long)(t->total / t->n); }
static unsigned long cols_done(const app_task *t) { return (unsigned long)(t->cursor / block_rows(t)); }

static int alloc_rows(app_task *t)
{
  size_t cells = (size_t)t->total;
  /* Every entry of C is written (by dgemm or a loaded context) before it
   * is read, so neither block needs clearing. */
  t->a = app_mem_big(cells * sizeof *t->a);
  t->c = app_mem_big(cells * sizeof *t->c);
  if (!t->a || !t->c) return lb_error(LB_ENOMEM, "matmul rows (%zu cells)", cells);
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
  return alloc_rows(t);
}

static void fill_a(app_task *t)
{
  unsigned long rows = block_rows(t);
  for (unsigned long i = 0; i < rows; i++)
    app_matmul_row_a((unsigned long)t->n, (unsigned long)t->seed, (unsigned long)(t->row0 + i),
                      t->a + i * t->n);
  t->a_ready = 1;
}

/* One quantum: the next columns of the block, one dgemm of the whole
 * block of A by each panel of B they fall in.  A quantum of whole rows
 * instead would stream all of B (8 n^2 bytes) through the cache for
 * every few rows (docs/PERFORMANCE.md, "Matmul kernel"). */
int app_matmul_run(app_task *t, unsigned long units)
{
  unsigned long rows = block_rows(t), n = (unsigned long)t->n, c0 = cols_done(t);
  unsigned long k = units / rows;
  if (k < 1) k = 1;
  if (k > n - c0) k = n - c0;
  if (!t->a_ready) fill_a(t);
  for (unsigned long c = c0, end = c0 + k; c < end;) {
    unsigned long p = c / PANEL, w, j0 = p * PANEL;
    const double *panel = operand_b(n, (unsigned long)t->seed, p, &w);
    if (!panel) return lb_error(LB_ENOMEM, "operand B of order %lu", n);
    unsigned long stop = j0 + w < end ? j0 + w : end;
    cblas_dgemm(CblasRowMajor, CblasNoTrans, CblasNoTrans, (int)rows, (int)(stop - c), (int)n, 1.0, t->a,
                (int)n, panel + (c - j0), (int)w, 0.0, t->c + c, (int)n);
    c = stop;
  }
  t->cursor += (uint64_t)k * rows;
  return LB_SUCCESS;
}

/* Body: n, seed, row0, then of each row the columns done. */
size_t app_matmul_body_size(const app_task *t)
{
  return 3 * 8 + 8 * (size_t)t->cursor;
}

void app_matmul_save(const app_task *t, blob *b)
{
  blob_put_u64(b, t->n);
  blob_put_u64(b, t->seed);
  blob_put_u64(b, t->row0);
  unsigned long rows = block_rows(t), done = cols_done(t);
  for (unsigned long i = 0; i < rows; i++) blob_put_f64s(b, t->c + i * t->n, done);
}

int app_matmul_load(app_task *t, blob *b)
{
  t->n = blob_get_u64(b);
  t->seed = blob_get_u64(b);
  t->row0 = blob_get_u64(b);
  if (b->bad) return lb_error(LB_EFORMAT, "matmul blob truncated");
  if (t->n < 1 || t->n > 8192 || t->total % t->n || t->total / t->n > t->n ||
      t->row0 > t->n - t->total / t->n || !t->total)
    return lb_error(LB_EFORMAT, "matmul blob: %llu entries from row %llu of order %llu",
                    (unsigned long long)t->total, (unsigned long long)t->row0, (unsigned long long)t->n);
  if (t->cursor % block_rows(t))
    return lb_error(LB_EFORMAT, "matmul blob: cursor %llu is not a whole number of columns",
                    (unsigned long long)t->cursor);
  if (b->size - b->pos != 8 * (size_t)t->cursor)
    return lb_error(LB_EFORMAT, "matmul blob: %zu body bytes for %llu entries of C done", b->size - b->pos,
                    (unsigned long long)t->cursor);
  int s = alloc_rows(t);
  if (s) return s;
  unsigned long rows = block_rows(t), done = cols_done(t);
  for (unsigned long i = 0; i < rows; i++) blob_get_f64s(b, t->c + i * t->n, done);
  return LB_SUCCESS;
}

size_t app_matmul_result_size(const app_task *t)
{
  return 3 * 8 + 8 * (size_t)t->total;
}

void app_matmul_result(const app_task *t, blob *b)
{
  blob_put_u64(b, t->n);
  blob_put_u64(b, t->row0);
  blob_put_u64(b, block_rows(t));
  blob_put_f64s(b, t->c, (size_t)t->total);
}
