/* app_impl.h: the task record and per-application hooks shared by the
 * application modules (app_*.c) and their dispatcher (app_task.c). */
#ifndef APP_IMPL_H
#define APP_IMPL_H

#include "app.h"
#include "lb_wire.h"

struct app_task {
  app_kind kind;
  uint64_t id;
  int32_t origin;
  uint32_t hops;
  double cost;
  uint64_t total, cursor; /* units; cursor = units done */
  /* matmul */
  uint64_t n, seed, row0; /* nrows = total / n */
  double *c;              /* the block of C (nrows x n, row-major), once it ran */
  /* primes: [lo, lo+total) */
  uint64_t lo, count, sum;
};

/* Per-application hooks. */
int app_matmul_init(app_task *t, const app_workload *w, size_t index);
int app_matmul_run(app_task *t, unsigned long units);
unsigned long app_matmul_step(const app_task *t);
size_t app_matmul_body_size(const app_task *t);
void app_matmul_save(const app_task *t, lb_wbuf *b);
int app_matmul_load(app_task *t, lb_rbuf *b);
size_t app_matmul_result_size(const app_task *t);
void app_matmul_result(const app_task *t, lb_wbuf *b);

int app_primes_init(app_task *t, const app_workload *w, size_t index);
int app_primes_run(app_task *t, unsigned long units);
void app_primes_save(const app_task *t, lb_wbuf *b);
int app_primes_load(app_task *t, lb_rbuf *b);
void app_primes_result(const app_task *t, lb_wbuf *b);
/* The cost model of the numbers [a, b) (app_task_work). */
double app_primes_work(uint64_t a, uint64_t b);

#endif
