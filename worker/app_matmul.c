/* app_matmul.c: a process computes a block of rows of C = A x B with
 * OpenBLAS dgemm.  Its context carries the descriptor (n, seed, first
 * row), the cursor (next row) and the rows of C done so far.  A and B are
 * input every host regenerates from (n, seed), like an input file present
 * on every machine: carrying the block's rows of A made each context
 * ~(rows x n x 8) bytes, all of which the master sent to the first host
 * and that host, at its emulated speed, re-packed for every migration.
 * The rows of A are built where the process first runs, inside its
 * quantum, so their cost is counted as the process's work. */
#include <stdlib.h>
#include <cblas.h>
#include "farm_app_impl.h"
#include "farm_mem.h"
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

double farm_matmul_a(unsigned long n, unsigned long seed, unsigned long i, unsigned long j)
{ return value(row_key(n, seed, 1, i), j); }
double farm_matmul_b(unsigned long n, unsigned long seed, unsigned long i, unsigned long j)
{ return value(row_key(n, seed, 2, i), j); }

static void fill_row(unsigned long n, unsigned long seed, unsigned which, unsigned long i, double *row)
{
  uint64_t key = row_key(n, seed, which, i);
  for (unsigned long j = 0; j < n; j++) row[j] = value(key, j);
}

void farm_matmul_row_a(unsigned long n, unsigned long seed, unsigned long i, double *row)
{ fill_row(n, seed, 1, i, row); }
void farm_matmul_row_b(unsigned long n, unsigned long seed, unsigned long i, double *row)
{ fill_row(n, seed, 2, i, row); }

/* One B per (n, seed) in this process, built on first use. */
static double *b_cache;
static unsigned long b_n, b_seed;

static const double *operand_b(unsigned long n, unsigned long seed)
{
  if (b_cache && b_n == n && b_seed == seed) return b_cache;
  farm_mem_free(b_cache);
  b_cache = farm_mem_big((size_t)n * n * sizeof *b_cache);
  if (!b_cache) return NULL;
  for (unsigned long i = 0; i < n; i++) farm_matmul_row_b(n, seed, i, b_cache + i * n);
  b_n = n;
  b_seed = seed;
  return b_cache;
}

static int alloc_rows(farm_task *t)
{
  size_t cells = (size_t)t->total * t->n;
  /* Every row of C is written (by dgemm or a loaded context) before it
   * is read, so neither block needs clearing. */
  t->a = farm_mem_big(cells * sizeof *t->a);
  t->c = farm_mem_big(cells * sizeof *t->c);
  if (!t->a || !t->c) return lb_error(LB_ENOMEM, "matmul rows (%zu cells)", cells);
  return LB_SUCCESS;
}

int app_matmul_init(farm_task *t, const farm_workload *w, size_t index)
{
  unsigned long row0, nrows;
  farm_app_split(w->size, w->nproc, index, &row0, &nrows);
  t->n = w->size;
  t->seed = w->seed;
  t->row0 = row0;
  t->total = nrows;
  return alloc_rows(t);
}

/* Only the rows still to do: a resumed process never reads the others. */
static void fill_a(farm_task *t)
{
  for (uint64_t i = t->cursor; i < t->total; i++)
    farm_matmul_row_a((unsigned long)t->n, (unsigned long)t->seed, (unsigned long)(t->row0 + i),
                      t->a + i * t->n);
  t->a_ready = 1;
}

int app_matmul_run(farm_task *t, unsigned long units)
{
  const double *b = operand_b((unsigned long)t->n, (unsigned long)t->seed);
  if (!b) return lb_error(LB_ENOMEM, "operand B of order %llu", (unsigned long long)t->n);
  if (!t->a_ready) fill_a(t);
  int n = (int)t->n;
  size_t off = (size_t)t->cursor * t->n;
  cblas_dgemm(CblasRowMajor, CblasNoTrans, CblasNoTrans, (int)units, n, n, 1.0, t->a + off, n,
              b, n, 0.0, t->c + off, n);
  t->cursor += units;
  return LB_SUCCESS;
}

/* Body: n, seed, row0, then only the rows of C done. */
size_t app_matmul_body_size(const farm_task *t)
{
  return 3 * 8 + 8 * (size_t)t->n * (size_t)t->cursor;
}

void app_matmul_save(const farm_task *t, blob *b)
{
  blob_put_u64(b, t->n);
  blob_put_u64(b, t->seed);
  blob_put_u64(b, t->row0);
  blob_put_f64s(b, t->c, (size_t)t->cursor * t->n);
}

int app_matmul_load(farm_task *t, blob *b)
{
  t->n = blob_get_u64(b);
  t->seed = blob_get_u64(b);
  t->row0 = blob_get_u64(b);
  if (b->bad) return lb_error(LB_EFORMAT, "matmul blob truncated");
  if (t->n < 1 || t->n > 8192 || t->total > t->n || t->row0 > t->n - t->total)
    return lb_error(LB_EFORMAT, "matmul blob: rows %llu+%llu of order %llu",
                    (unsigned long long)t->row0, (unsigned long long)t->total, (unsigned long long)t->n);
  if (b->size - b->pos != 8 * (size_t)t->n * (size_t)t->cursor)
    return lb_error(LB_EFORMAT, "matmul blob: %zu body bytes for %llu rows of C", b->size - b->pos,
                    (unsigned long long)t->cursor);
  int s = alloc_rows(t);
  if (s) return s;
  blob_get_f64s(b, t->c, (size_t)t->cursor * t->n);
  return LB_SUCCESS;
}

size_t app_matmul_result_size(const farm_task *t)
{
  return 3 * 8 + 8 * (size_t)t->n * (size_t)t->total;
}

void app_matmul_result(const farm_task *t, blob *b)
{
  blob_put_u64(b, t->n);
  blob_put_u64(b, t->row0);
  blob_put_u64(b, t->total);
  blob_put_f64s(b, t->c, (size_t)t->total * t->n);
}
