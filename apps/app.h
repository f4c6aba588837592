/* app.h: the workloads of the task farm, with no PVM in them.
 *
 * A workload is cut into processes.  A process (app_task) holds its
 * descriptor, a progress cursor and its partial results; it runs in
 * short quanta and can be saved to a byte blob at any quantum boundary
 * and loaded again, anywhere, to resume exactly where it stopped.  The
 * blob is little-endian with fixed-width fields, so it means the same on
 * every host whatever its byte order.
 *
 * Work is counted in units: for matmul a row of the process's block
 * times one value of the inner index k (n multiply-adds, the cost of
 * one entry of C; done a panel of k at a time), a tested number for
 * primes.  Costs per unit differ between the two (and within primes). */
#ifndef APP_H
#define APP_H

#include <stddef.h>
#include <stdint.h>

typedef enum app_kind {
  APP_MATMUL = 1, /* C = A x B, a process = a block of rows of C */
  APP_PRIMES = 2  /* count primes in [2, size], a process = a range */
} app_kind;

/* Matmul: the largest order, and the operands' range [-ENTRY_MAX,
 * ENTRY_MAX): every entry of C, and every partial sum of one, is an
 * integer of magnitude at most n ENTRY_MAX^2 <= 2^33 < 2^53, exact in
 * double precision in any order (apps/app_matmul.c, docs/FARM.md). */
#define APP_MATMUL_ORDER_MAX 8192
#define APP_MATMUL_ENTRY_MAX 1024

typedef struct app_workload {
  app_kind kind;
  unsigned long size;  /* matmul: order n of the matrices; primes: upper limit */
  unsigned long nproc; /* number of processes the work is cut into */
  unsigned long seed;  /* matmul: the operands are a pure function of (n, seed) */
} app_workload;

typedef struct app_task app_task;

/* Parse "matmul"/"primes"; 0 or LB_EINVAL. */
int app_kind_parse(const char *s, app_kind *k);
const char *app_kind_name(app_kind k);
/* Check a workload (size and process count in range); LB_* status. */
int app_workload_check(const app_workload *w);

/* The index-th process (0 <= index < nproc) of the workload, fresh. */
int app_task_alloc(const app_workload *w, size_t index, app_task **out);
void app_task_free(app_task *t);

/* Run about `units` units of work: at most that many, except that a
 * process always advances by at least its step (app_task_step), and
 * matmul by whole values of k (multiples of its block's rows).  *ran
 * gets the units done.  Returns LB_SUCCESS; app_task_finished() tells
 * whether all work is done. */
int app_task_run(app_task *t, unsigned long units, unsigned long *ran);
/* The fewest units the next app_task_run does (unless fewer are left):
 * primes 1; matmul a panel of 16 values of k (its block's rows x 16),
 * so that a first, short quantum still multiplies more than it moves. */
unsigned long app_task_step(const app_task *t);
int app_task_finished(const app_task *t);
unsigned long app_task_units_left(const app_task *t);
unsigned long app_task_units_total(const app_task *t);
uint64_t app_task_id(const app_task *t);
app_kind app_task_kind(const app_task *t);

/* The application's cost model, the work it declares: the work of units
 * [from, to) of the process, in the workload's own unit.  matmul: an
 * entry of C (each costs the same n multiply-adds), so the units
 * themselves.  primes: sqrt(m) / ln(m) summed over the numbers m tested,
 * which follows trial division's count within 10 % from 10^3 to 4 x
 * 10^9 (about 0.6 divisions each).  A node balances these (lb_proc's
 * work and est on the farm); the CPU seconds a process really takes are
 * known only after it ran.  app_workload_work: the whole workload's. */
double app_task_work(const app_task *t, unsigned long from, unsigned long to);
double app_workload_work(const app_workload *w);

/* Bookkeeping that travels with the process: where it was created,
 * how often it moved, and the CPU seconds spent on it so far (the
 * measured cost the ideal makespan is built from). */
int app_task_origin(const app_task *t);
void app_task_set_origin(app_task *t, int origin);
unsigned app_task_hops(const app_task *t);
void app_task_add_hop(app_task *t);
double app_task_cost(const app_task *t);
void app_task_add_cost(app_task *t, double cpu_s);

/* Save: app_task_blob_size() bytes into buf.  Load: a new task from a
 * blob; LB_EFORMAT names what is wrong with a damaged blob. */
size_t app_task_blob_size(const app_task *t);
int app_task_save(const app_task *t, unsigned char *buf, size_t size);
int app_task_load(const unsigned char *buf, size_t size, app_task **out);

/* The result of a finished task, as a blob (same encoding) that the
 * master decodes with app_result_decode. */
size_t app_task_result_size(const app_task *t);
int app_task_result(const app_task *t, unsigned char *buf, size_t size);

typedef struct app_result {
  app_kind kind;
  uint64_t id;
  int origin;
  unsigned hops;
  double cost; /* CPU seconds */
  /* matmul: rows [row0, row0+nrows) of C, n columns, row-major */
  unsigned long row0, nrows, n;
  const double *c; /* points into the blob's copy below */
  /* primes: [lo, hi), the primes in it: count and sum (mod 2^64) */
  uint64_t lo, hi, count, sum;
  double *owned; /* storage for c */
} app_result;
int app_result_decode(const unsigned char *buf, size_t size, app_result *r);
void app_result_clear(app_result *r);

/* Matmul operands: integers in [-1024, 1023], so every product and sum
 * is exact in double precision, C is the same whatever the summation
 * order, and the master can check it exactly by an independent route. */
double app_matmul_a(unsigned long n, unsigned long seed, unsigned long i, unsigned long j);
double app_matmul_b(unsigned long n, unsigned long seed, unsigned long i, unsigned long j);
/* Row i of A or B (n entries), the same values at one hash round each. */
void app_matmul_row_a(unsigned long n, unsigned long seed, unsigned long i, double *row);
void app_matmul_row_b(unsigned long n, unsigned long seed, unsigned long i, double *row);
/* Rows [row0, row0+nrows) of process `index` of nproc (balanced blocks);
 * the same split for primes ranges over [2, size+1). */
void app_split(unsigned long total, unsigned long nproc, unsigned long index, unsigned long *start,
               unsigned long *count);

#endif
