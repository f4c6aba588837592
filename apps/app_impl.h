/* app_impl.h: the task record and blob helpers shared by the
 * application modules (app_*.c) and their dispatcher (app_task.c). */
#ifndef APP_IMPL_H
#define APP_IMPL_H

#include "app.h"

struct app_task {
  app_kind kind;
  uint64_t id;
  int32_t origin;
  uint32_t hops;
  double cost;
  uint64_t total, cursor;   /* units; cursor = units done */
  /* matmul */
  uint64_t n, seed, row0;   /* nrows = total */
  double *a, *c;            /* total x n each, row-major */
  int a_ready;              /* a holds this block's rows of A */
  /* primes: [lo, lo+total) */
  uint64_t lo, count, sum;
};

/* A cursor over a blob; an overrun sets bad instead of reading past. */
typedef struct blob {
  unsigned char *w;
  const unsigned char *r;
  size_t pos, size;
  int bad;
} blob;

void blob_put_u32(blob *b, uint32_t v);
void blob_put_u64(blob *b, uint64_t v);
void blob_put_f64(blob *b, double v);
void blob_put_f64s(blob *b, const double *v, size_t n);
uint32_t blob_get_u32(blob *b);
uint64_t blob_get_u64(blob *b);
double blob_get_f64(blob *b);
void blob_get_f64s(blob *b, double *v, size_t n);

/* Per-application hooks. */
int app_matmul_init(app_task *t, const app_workload *w, size_t index);
int app_matmul_run(app_task *t, unsigned long units);
size_t app_matmul_body_size(const app_task *t);
void app_matmul_save(const app_task *t, blob *b);
int app_matmul_load(app_task *t, blob *b);
size_t app_matmul_result_size(const app_task *t);
void app_matmul_result(const app_task *t, blob *b);

int app_primes_init(app_task *t, const app_workload *w, size_t index);
int app_primes_run(app_task *t, unsigned long units);
void app_primes_save(const app_task *t, blob *b);
int app_primes_load(app_task *t, blob *b);
void app_primes_result(const app_task *t, blob *b);

#endif
