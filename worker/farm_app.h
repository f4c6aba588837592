/* farm_app.h: the workloads of the task farm, with no PVM in them.
 *
 * A workload is cut into processes.  A process (farm_task) holds its
 * descriptor, a progress cursor and its partial results; it runs in
 * short quanta and can be saved to a byte blob at any quantum boundary
 * and loaded again, anywhere, to resume exactly where it stopped.  The
 * blob is little-endian with fixed-width fields, so it means the same on
 * every host whatever its byte order.
 *
 * Work is counted in units: an entry of C for matmul (done a column of
 * the process's block at a time), a tested number for primes.  Costs
 * per unit differ between the two (and within primes). */
#ifndef FARM_APP_H
#define FARM_APP_H

#include <stddef.h>
#include <stdint.h>

typedef enum farm_app_kind {
  FARM_APP_MATMUL = 1,  /* C = A x B, a process = a block of rows of C */
  FARM_APP_PRIMES = 2   /* count primes in [2, size], a process = a range */
} farm_app_kind;

typedef struct farm_workload {
  farm_app_kind kind;
  unsigned long size;   /* matmul: order n of the matrices; primes: upper limit */
  unsigned long nproc;  /* number of processes the work is cut into */
  unsigned long seed;   /* matmul: the operands are a pure function of (n, seed) */
} farm_workload;

typedef struct farm_task farm_task;

/* Parse "matmul"/"primes"; 0 or LB_EINVAL. */
int farm_app_kind_parse(const char *s, farm_app_kind *k);
const char *farm_app_kind_name(farm_app_kind k);
/* Check a workload (size and process count in range); LB_* status. */
int farm_workload_check(const farm_workload *w);

/* The index-th process (0 <= index < nproc) of the workload, fresh. */
int farm_task_alloc(const farm_workload *w, size_t index, farm_task **out);
void farm_task_free(farm_task *t);

/* Run about `units` units of work: at most that many, except that a
 * process always advances by at least its step (matmul: one column of
 * its block, i.e. as many units as it has rows).  *ran gets the units
 * done.  Returns LB_SUCCESS; farm_task_finished() tells whether all
 * work is done. */
int farm_task_run(farm_task *t, unsigned long units, unsigned long *ran);
int farm_task_finished(const farm_task *t);
unsigned long farm_task_units_left(const farm_task *t);
unsigned long farm_task_units_total(const farm_task *t);
uint64_t farm_task_id(const farm_task *t);
farm_app_kind farm_task_kind(const farm_task *t);

/* Bookkeeping that travels with the process: where it was created,
 * how often it moved, and the CPU seconds spent on it so far (the
 * measured cost the ideal makespan is built from). */
int farm_task_origin(const farm_task *t);
void farm_task_set_origin(farm_task *t, int origin);
unsigned farm_task_hops(const farm_task *t);
void farm_task_add_hop(farm_task *t);
double farm_task_cost(const farm_task *t);
void farm_task_add_cost(farm_task *t, double cpu_s);

/* Save: farm_task_blob_size() bytes into buf.  Load: a new task from a
 * blob; LB_EFORMAT names what is wrong with a damaged blob. */
size_t farm_task_blob_size(const farm_task *t);
int farm_task_save(const farm_task *t, unsigned char *buf, size_t size);
int farm_task_load(const unsigned char *buf, size_t size, farm_task **out);

/* The result of a finished task, as a blob (same encoding) that the
 * master decodes with farm_result_decode. */
size_t farm_task_result_size(const farm_task *t);
int farm_task_result(const farm_task *t, unsigned char *buf, size_t size);

typedef struct farm_result {
  farm_app_kind kind;
  uint64_t id;
  int origin;
  unsigned hops;
  double cost;          /* CPU seconds */
  /* matmul: rows [row0, row0+nrows) of C, n columns, row-major */
  unsigned long row0, nrows, n;
  const double *c;      /* points into the blob's copy below */
  /* primes: [lo, hi), the primes in it: count and sum (mod 2^64) */
  uint64_t lo, hi, count, sum;
  double *owned;        /* storage for c */
} farm_result;
int farm_result_decode(const unsigned char *buf, size_t size, farm_result *r);
void farm_result_clear(farm_result *r);

/* Matmul operands: small integers, so every product and sum is exact in
 * double precision, C is the same whatever the summation order, and the
 * master can check it bit for bit by an independent route. */
double farm_matmul_a(unsigned long n, unsigned long seed, unsigned long i, unsigned long j);
double farm_matmul_b(unsigned long n, unsigned long seed, unsigned long i, unsigned long j);
/* Row i of A or B (n entries), the same values at one hash round each. */
void farm_matmul_row_a(unsigned long n, unsigned long seed, unsigned long i, double *row);
void farm_matmul_row_b(unsigned long n, unsigned long seed, unsigned long i, double *row);
/* Rows [row0, row0+nrows) of process `index` of nproc (balanced blocks);
 * the same split for primes ranges over [2, size+1). */
void farm_app_split(unsigned long total, unsigned long nproc, unsigned long index,
                    unsigned long *start, unsigned long *count);

#endif
