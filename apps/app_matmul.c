/* app_matmul.c: a process computes a block of rows of C = A x B, the
 * next columns of the block in each quantum, with a blocked kernel on
 * operands kept packed (below).  Its context carries
 * the descriptor (n, seed, first row), the cursor (entries done, whole
 * columns of the block) and the columns of C done so far.  A and B are
 * input every host regenerates from (n, seed), like an input file present
 * on every machine: carrying the block's rows of A made each context
 * ~(rows x n x 8) bytes, all of which the master sent to the first host
 * and that host, at its emulated speed, re-packed for every migration.
 * The rows of A are built where the process first runs, inside its
 * quantum, so their cost is counted as the process's work. */
#include <stdlib.h>
#include <string.h>
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

/* The product is our own blocked kernel on operands stored packed, the
 * way a dgemm packs them before every call: a farm process multiplies
 * a block of ~80-330 rows by a panel of ~100-400 columns per quantum,
 * and OpenBLAS re-packs the block's rows of A and the panel of B on
 * every such call (a fifth of its time at these shapes;
 * docs/PERFORMANCE.md).  Here A and B are generated straight into
 * packed form once, so a quantum only multiplies.
 *
 * Layouts.  A: row tiles of MR rows (the last padded with zeros), tile
 * t holding, for each k, its MR entries a[t MR + r][k] (n x MR).  B:
 * micro-panels of NR columns (the last padded with zeros), micro-panel
 * g holding, for each k, the NR entries b[k][g NR + c] (n x NR).  An
 * MR x NR tile of C is a sum over k of one column of A's tile times one
 * row of B's micro-panel, taken KC values of k at a time so that the
 * block's A stays in L2 while the quantum's micro-panels pass by.
 * Entries are small integers, so every sum is exact and results do not
 * depend on the kernel variant or on where quanta start and end. */
#define MR 12
#define NR 16
#ifndef KC
#define KC 256
#endif
#ifndef NC
#define NC 256
#endif
#define PANEL 256   /* B is built a panel of PANEL columns at a time */

/* c (MR x NR, row stride ldc) = [c +] sum over kc of a column of a
 * (kc x MR) times a row of b (kc x NR).  pf, if not NULL, is data
 * needed next (kc x 16 doubles), asked into the cache meanwhile. */
typedef void ukernel(size_t kc, const double *a, const double *b, double *c, size_t ldc, int add,
                     const double *pf);

/* Portable: plain loops over the tile (the compiler vectorises what it
 * can).  Machines without AVX2 only. */
static void uk_generic(size_t kc, const double *a, const double *b, double *c, size_t ldc, int add,
                       const double *pf)
{
  double acc[MR][NR] = { { 0 } };
  (void)pf;
  for (size_t k = 0; k < kc; k++)
    for (int r = 0; r < MR; r++)
      for (int q = 0; q < NR; q++) acc[r][q] += a[k * MR + r] * b[k * NR + q];
  for (int r = 0; r < MR; r++)
    for (int q = 0; q < NR; q++) c[r * ldc + q] = add ? c[r * ldc + q] + acc[r][q] : acc[r][q];
}

#if defined(__GNUC__) && !defined(__clang__) && defined(__x86_64__)
#pragma GCC diagnostic ignored "-Wpsabi"   /* vectors between inlined code */
typedef double v8 __attribute__((vector_size(64)));
typedef double v4 __attribute__((vector_size(32)));
#define LD(T, p) ({ T v_; memcpy(&v_, (p), sizeof v_); v_; })
#define ST(p, v) do { __typeof__(v) v_ = (v); memcpy((p), &v_, sizeof v_); } while (0)

/* AVX-512: the whole 12 x 16 tile in 24 registers. */
__attribute__((target("avx512f,fma"))) static void uk_avx512(size_t kc, const double *a, const double *b, double *c,
                                                             size_t ldc, int add, const double *pf)
{
  v8 z = { 0 };
#define R2(r) v8 c##r##0 = z, c##r##1 = z;
  R2(0) R2(1) R2(2) R2(3) R2(4) R2(5) R2(6) R2(7) R2(8) R2(9) R2(10) R2(11)
  if (!pf) pf = b;   /* harmless: already in cache */
  for (size_t k = 0; k < kc; k++, a += MR, b += NR, pf += NR) {
    __builtin_prefetch(pf);
    __builtin_prefetch(pf + 8);
    v8 b0 = LD(v8, b), b1 = LD(v8, b + 8);
#define F2(r) c##r##0 += a[r] * b0; c##r##1 += a[r] * b1;
    F2(0) F2(1) F2(2) F2(3) F2(4) F2(5) F2(6) F2(7) F2(8) F2(9) F2(10) F2(11)
  }
#define S2(r) if (add) { c##r##0 += LD(v8, c + r * ldc); c##r##1 += LD(v8, c + r * ldc + 8); } \
  ST(c + r * ldc, c##r##0); ST(c + r * ldc + 8, c##r##1);
  S2(0) S2(1) S2(2) S2(3) S2(4) S2(5) S2(6) S2(7) S2(8) S2(9) S2(10) S2(11)
}

/* AVX2: the tile as four 6 x 8 quarters, 12 registers each. */
__attribute__((target("avx2,fma"))) static void quarter_avx2(size_t kc, const double *a, const double *b, double *c,
                                                             size_t ldc, int add)
{
  v4 z = { 0 };
#define Q2(r) v4 c##r##0 = z, c##r##1 = z;
  Q2(0) Q2(1) Q2(2) Q2(3) Q2(4) Q2(5)
  for (size_t k = 0; k < kc; k++, a += MR, b += NR) {
    v4 b0 = LD(v4, b), b1 = LD(v4, b + 4);
#define G2(r) c##r##0 += a[r] * b0; c##r##1 += a[r] * b1;
    G2(0) G2(1) G2(2) G2(3) G2(4) G2(5)
  }
#define T2(r) if (add) { c##r##0 += LD(v4, c + r * ldc); c##r##1 += LD(v4, c + r * ldc + 4); } \
  ST(c + r * ldc, c##r##0); ST(c + r * ldc + 4, c##r##1);
  T2(0) T2(1) T2(2) T2(3) T2(4) T2(5)
}

__attribute__((target("avx2,fma"))) static void uk_avx2(size_t kc, const double *a, const double *b, double *c,
                                                        size_t ldc, int add, const double *pf)
{
  (void)pf;
  for (int h = 0; h < 2; h++)
    for (int w = 0; w < 2; w++) quarter_avx2(kc, a + 6 * h, b + 8 * w, c + 6 * h * ldc + 8 * w, ldc, add);
}

static ukernel *pick_kernel(void)
{
  __builtin_cpu_init();
  if (__builtin_cpu_supports("avx512f")) return uk_avx512;
  if (__builtin_cpu_supports("avx2") && __builtin_cpu_supports("fma")) return uk_avx2;
  return uk_generic;
}
#else
static ukernel *pick_kernel(void) { return uk_generic; }
#endif

/* B, one per (n, seed) in this process, packed, built a panel at a time
 * when a quantum first needs it: a host builds only the columns it
 * multiplies by, and no quantum stalls its host (and the messages
 * waiting for it) to fault in and build all of B. */
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

static unsigned long round_up(unsigned long x, unsigned long m) { return (x + m - 1) / m * m; }

/* B for (n, seed) with panels up to the one holding column `last` built. */
static const double *operand_b(unsigned long n, unsigned long seed, unsigned long first, unsigned long last)
{
  if (!b_cache || b_n != n || b_seed != seed) {
    operand_b_free();
    b_cache = app_mem_big((size_t)n * round_up(n, NR) * sizeof *b_cache);
    b_keys = malloc(n * sizeof *b_keys);
    b_ready = calloc(n / PANEL + 1, 1);
    if (!b_cache || !b_keys || !b_ready) { operand_b_free(); return NULL; }
    for (unsigned long i = 0; i < n; i++) b_keys[i] = row_key(n, seed, 2, i);
    b_n = n;
    b_seed = seed;
  }
  for (unsigned long p = first / PANEL; p <= last / PANEL; p++) {
    if (b_ready[p]) continue;
    unsigned long j0 = p * PANEL, j1 = round_up(j0 + PANEL < n ? j0 + PANEL : n, NR);
    for (unsigned long k = 0; k < n; k++)
      for (unsigned long j = j0; j < j1; j++)
        b_cache[(size_t)(j / NR) * NR * n + k * NR + j % NR] = j < n ? value(b_keys[k], j) : 0.0;
    b_ready[p] = 1;
  }
  return b_cache;
}

/* A process is rows [row0, row0 + rows) of C; its units are the block's
 * entries, done a column at a time: cursor = rows x columns done. */
static unsigned long block_rows(const app_task *t) { return (unsigned long)(t->total / t->n); }
static unsigned long cols_done(const app_task *t) { return (unsigned long)(t->cursor / block_rows(t)); }

static int alloc_rows(app_task *t)
{
  size_t cells = (size_t)t->total;
  /* Every entry of C is written (by the kernel or a loaded context)
   * before it is read, so neither block needs clearing. */
  t->a = app_mem_big(round_up(block_rows(t), MR) * (size_t)t->n * sizeof *t->a);
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

/* A's rows, packed.  a_ready is then 1 + the number of columns of C
 * known to be computed: a quantum computes whole micro-panels, so it
 * may finish a few columns of the next quantum, which then skips them
 * (after a move they are simply computed again). */
static void fill_a(app_task *t)
{
  unsigned long rows = block_rows(t), n = (unsigned long)t->n, prow = round_up(rows, MR);
  for (unsigned long i = 0; i < prow; i++) {
    double *tile = t->a + (size_t)(i / MR) * MR * n + i % MR;
    if (i >= rows) {
      for (unsigned long k = 0; k < n; k++) tile[k * MR] = 0.0;
      continue;
    }
    uint64_t key = row_key(n, (unsigned long)t->seed, 1, (unsigned long)(t->row0 + i));
    for (unsigned long k = 0; k < n; k++) tile[k * MR] = value(key, k);
  }
  t->a_ready = 1 + (int)cols_done(t);
}

/* Columns [g0 NR, g1 NR) of the block (clipped to n): every micro-panel
 * times every row tile, KC values of k at a time. */
static void multiply(app_task *t, const double *b, unsigned long g0, unsigned long g1)
{
  static ukernel *uk;
  if (!uk) uk = pick_kernel();
  unsigned long rows = block_rows(t), n = (unsigned long)t->n, tiles = (rows + MR - 1) / MR;
  double edge[MR * NR];
  for (unsigned long h0 = g0; h0 < g1; h0 += NC / NR) {   /* C's columns stay in L2 */
  unsigned long h1 = h0 + NC / NR < g1 ? h0 + NC / NR : g1;
  for (unsigned long kk = 0; kk < n; kk += KC) {
    size_t kc = n - kk < KC ? n - kk : KC;
    int add = kk > 0;
    for (unsigned long g = h0; g < h1; g++) {
      const double *bp = b + (size_t)g * NR * n + kk * NR;
      unsigned long cols = n - g * NR < NR ? n - g * NR : NR;
      for (unsigned long ti = 0; ti < tiles; ti++) {
        const double *ap = t->a + (size_t)ti * MR * n + kk * MR;
        double *ct = t->c + (size_t)ti * MR * n + g * NR;
        unsigned long nr = rows - ti * MR < MR ? rows - ti * MR : MR;
        /* The first tile brings in the next micro-panel for the others;
         * on the first micro-panel of a K block each tile brings in the
         * next tile's A, not yet in cache. */
        const double *pf = ti == 0 && g + 1 < g1 ? bp + (size_t)NR * n
                         : g == h0 && ti + 1 < tiles ? ap + (size_t)MR * n : NULL;
        if (nr == MR && cols == NR) {
          uk(kc, ap, bp, ct, n, add, pf);
          continue;
        }
        uk(kc, ap, bp, edge, NR, 0, pf);   /* a tile cut by the block's edge */
        for (unsigned long r = 0; r < nr; r++)
          for (unsigned long q = 0; q < cols; q++)
            ct[r * n + q] = add ? ct[r * n + q] + edge[r * NR + q] : edge[r * NR + q];
      }
    }
  }
  }
}

/* One quantum: the next columns of the block. */
int app_matmul_run(app_task *t, unsigned long units)
{
  unsigned long rows = block_rows(t), n = (unsigned long)t->n, c0 = cols_done(t);
  unsigned long k = units / rows;
  if (k < 1) k = 1;
  if (k > n - c0) k = n - c0;
  if (!t->a_ready) fill_a(t);
  unsigned long from = (unsigned long)t->a_ready - 1, end = c0 + k;
  if (from < c0) from = c0;
  if (from < end) {
    const double *b = operand_b(n, (unsigned long)t->seed, from, end - 1);
    if (!b) return lb_error(LB_ENOMEM, "operand B of order %lu", n);
    unsigned long g0 = from / NR, g1 = (end + NR - 1) / NR;
    multiply(t, b, g0, g1);
    t->a_ready = 1 + (int)(g1 * NR < n ? g1 * NR : n);
  }
  t->cursor += (uint64_t)k * rows;
  return LB_SUCCESS;
}

/* Body: n, seed, row0, then of each row the columns done. */
size_t app_matmul_body_size(const app_task *t)
{
  return 3 * 8 + 8 * (size_t)t->cursor;
}

void app_matmul_save(const app_task *t, lb_wbuf *b)
{
  lb_w_u64(b, t->n);
  lb_w_u64(b, t->seed);
  lb_w_u64(b, t->row0);
  unsigned long rows = block_rows(t), done = cols_done(t);
  for (unsigned long i = 0; i < rows; i++) lb_w_f64s(b, t->c + i * t->n, done);
}

int app_matmul_load(app_task *t, lb_rbuf *b)
{
  t->n = lb_r_u64(b);
  t->seed = lb_r_u64(b);
  t->row0 = lb_r_u64(b);
  if (b->bad) return lb_error(LB_EFORMAT, "matmul blob truncated");
  if (t->n < 1 || t->n > 8192 || t->total % t->n || t->total / t->n > t->n ||
      t->row0 > t->n - t->total / t->n || !t->total)
    return lb_error(LB_EFORMAT, "matmul blob: %llu entries from row %llu of order %llu",
                    (unsigned long long)t->total, (unsigned long long)t->row0, (unsigned long long)t->n);
  if (t->cursor % block_rows(t))
    return lb_error(LB_EFORMAT, "matmul blob: cursor %llu is not a whole number of columns",
                    (unsigned long long)t->cursor);
  if (lb_r_left(b) != 8 * (size_t)t->cursor)
    return lb_error(LB_EFORMAT, "matmul blob: %zu body bytes for %llu entries of C done", lb_r_left(b),
                    (unsigned long long)t->cursor);
  int s = alloc_rows(t);
  if (s) return s;
  unsigned long rows = block_rows(t), done = cols_done(t);
  for (unsigned long i = 0; i < rows; i++) lb_r_f64s(b, t->c + i * t->n, done);
  return LB_SUCCESS;
}

size_t app_matmul_result_size(const app_task *t)
{
  return 3 * 8 + 8 * (size_t)t->total;
}

void app_matmul_result(const app_task *t, lb_wbuf *b)
{
  lb_w_u64(b, t->n);
  lb_w_u64(b, t->row0);
  lb_w_u64(b, block_rows(t));
  lb_w_f64s(b, t->c, (size_t)t->total);
}
