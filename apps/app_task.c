/* app_task.c: the process record, its blob encoding, and dispatch to
 * the application modules. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include "app_impl.h"
#include "app_mem.h"
#include "lb_errno.h"

#define TASK_MAGIC   0x4B54424Cu /* "LBTK" */
#define RESULT_MAGIC 0x53524C4Cu /* "LLRS" */
#define BLOB_VERSION 3u          /* 3: matmul runs by panels of k and carries partial sums */
#define HEAD_BYTES   (6 * 4 + 4 * 8)

int app_kind_parse(const char *s, app_kind *k)
{
  if (!strcmp(s, "matmul")) *k = APP_MATMUL;
  else if (!strcmp(s, "primes")) *k = APP_PRIMES;
  else return lb_error(LB_EINVAL, "unknown workload '%s' (expected matmul or primes)", s);
  return LB_SUCCESS;
}

const char *app_kind_name(app_kind k) { return k == APP_MATMUL ? "matmul" : k == APP_PRIMES ? "primes" : "?"; }

int app_workload_check(const app_workload *w)
{
  if (w->kind == APP_MATMUL) {
    /* Up to this order every sum in C is exact (app.h). */
    if (w->size < 1 || w->size > APP_MATMUL_ORDER_MAX)
      return lb_error(LB_ERANGE, "matmul size %lu outside [1, %d]", w->size, APP_MATMUL_ORDER_MAX);
    if (w->nproc < 1 || w->nproc > w->size)
      return lb_error(LB_ERANGE, "%lu processes for %lu rows: need 1..rows", w->nproc, w->size);
  } else if (w->kind == APP_PRIMES) {
    if (w->size < 2 || w->size > 4000000000UL) return lb_error(LB_ERANGE, "primes size %lu outside [2, 4e9]", w->size);
    if (w->nproc < 1 || w->nproc > w->size - 1)
      return lb_error(LB_ERANGE, "%lu processes for %lu numbers", w->nproc, w->size - 1);
  } else {
    return lb_error(LB_EINVAL, "unknown workload kind %d", (int)w->kind);
  }
  return LB_SUCCESS;
}

void app_split(unsigned long total, unsigned long nproc, unsigned long index, unsigned long *start,
               unsigned long *count)
{
  unsigned long long a = (unsigned long long)total * index / nproc;
  unsigned long long b = (unsigned long long)total * (index + 1) / nproc;
  *start = (unsigned long)a;
  *count = (unsigned long)(b - a);
}

int app_task_alloc(const app_workload *w, size_t index, app_task **out)
{
  int s = app_workload_check(w);
  if (s) return s;
  if (index >= w->nproc) return lb_error(LB_EINVAL, "process %zu of %lu", index, w->nproc);
  app_task *t = calloc(1, sizeof *t);
  if (!t) return lb_error(LB_ENOMEM, "task");
  t->kind = w->kind;
  t->id = index;
  s = w->kind == APP_MATMUL ? app_matmul_init(t, w, index) : app_primes_init(t, w, index);
  if (s) {
    app_task_free(t);
    return s;
  }
  *out = t;
  return LB_SUCCESS;
}

void app_task_free(app_task *t)
{
  if (!t) return;
  app_mem_free(t->c);
  free(t);
}

int app_task_run(app_task *t, unsigned long units, unsigned long *ran)
{
  uint64_t left = t->total - t->cursor, before = t->cursor;
  if (units > left) units = (unsigned long)left;
  *ran = 0;
  if (!units) return LB_SUCCESS;
  int s = t->kind == APP_MATMUL ? app_matmul_run(t, units) : app_primes_run(t, units);
  *ran = (unsigned long)(t->cursor - before);
  return s;
}

double app_task_work(const app_task *t, unsigned long from, unsigned long to)
{
  if (to > t->total) to = (unsigned long)t->total;
  if (from >= to) return 0;
  return t->kind == APP_PRIMES ? app_primes_work(t->lo + from, t->lo + to) : (double)(to - from);
}

double app_workload_work(const app_workload *w)
{
  if (app_workload_check(w)) return 0;
  return w->kind == APP_PRIMES ? app_primes_work(2, (uint64_t)w->size + 1) : (double)w->size * (double)w->size;
}

int app_task_finished(const app_task *t) { return t->cursor >= t->total; }
unsigned long app_task_step(const app_task *t)
{
  if (app_task_finished(t)) return 0;
  return t->kind == APP_MATMUL ? app_matmul_step(t) : 1;
}
unsigned long app_task_units_left(const app_task *t) { return (unsigned long)(t->total - t->cursor); }
unsigned long app_task_units_total(const app_task *t) { return (unsigned long)t->total; }
uint64_t app_task_id(const app_task *t) { return t->id; }
app_kind app_task_kind(const app_task *t) { return t->kind; }
int app_task_origin(const app_task *t) { return t->origin; }
void app_task_set_origin(app_task *t, int origin) { t->origin = origin; }
unsigned app_task_hops(const app_task *t) { return t->hops; }
void app_task_add_hop(app_task *t) { t->hops++; }
double app_task_cost(const app_task *t) { return t->cost; }
void app_task_add_cost(app_task *t, double cpu_s) { t->cost += cpu_s; }

/* --- the common head ------------------------------------------------- */

static void put_head(const app_task *t, lb_wbuf *b, uint32_t magic)
{
  lb_w_u32(b, magic);
  lb_w_u32(b, BLOB_VERSION);
  lb_w_u32(b, (uint32_t)t->kind);
  lb_w_u32(b, (uint32_t)t->origin);
  lb_w_u32(b, t->hops);
  lb_w_u32(b, 0); /* reserved, keeps the 64-bit fields aligned */
  lb_w_u64(b, t->id);
  lb_w_f64(b, t->cost);
  lb_w_u64(b, t->total);
  lb_w_u64(b, t->cursor);
}

static int get_head(app_task *t, lb_rbuf *b, uint32_t magic)
{
  if (lb_r_u32(b) != magic || b->bad) return lb_error(LB_EFORMAT, "not a task blob (bad magic)");
  uint32_t v = lb_r_u32(b);
  if (v != BLOB_VERSION) return lb_error(LB_EFORMAT, "task blob version %u, expected %u", v, BLOB_VERSION);
  uint32_t k = lb_r_u32(b);
  if (k != APP_MATMUL && k != APP_PRIMES) return lb_error(LB_EFORMAT, "task blob of unknown kind %u", k);
  t->kind = (app_kind)k;
  t->origin = (int32_t)lb_r_u32(b);
  t->hops = lb_r_u32(b);
  (void)lb_r_u32(b);
  t->id = lb_r_u64(b);
  t->cost = lb_r_f64(b);
  t->total = lb_r_u64(b);
  t->cursor = lb_r_u64(b);
  if (b->bad) return lb_error(LB_EFORMAT, "task blob truncated in its head");
  /* The master adds the costs up: a NaN or a huge one spoils the sum. */
  if (!(t->cost >= 0 && t->cost <= 1e9)) return lb_error(LB_EFORMAT, "task blob: cost %g s out of range", t->cost);
  if (t->cursor > t->total)
    return lb_error(LB_EFORMAT, "task cursor %llu beyond its %llu units", (unsigned long long)t->cursor,
                    (unsigned long long)t->total);
  return LB_SUCCESS;
}

size_t app_task_blob_size(const app_task *t)
{
  return HEAD_BYTES + (t->kind == APP_MATMUL ? app_matmul_body_size(t) : 4 * 8);
}

int app_task_save(const app_task *t, unsigned char *buf, size_t size)
{
  lb_wbuf b = {.p = buf, .cap = size};
  put_head(t, &b, TASK_MAGIC);
  if (t->kind == APP_MATMUL) app_matmul_save(t, &b);
  else app_primes_save(t, &b);
  if (!buf || !lb_wbuf_ok(&b))
    return lb_error(LB_ERANGE, "task blob needs %zu bytes, buffer has %zu", app_task_blob_size(t), size);
  return LB_SUCCESS;
}

int app_task_load(const unsigned char *buf, size_t size, app_task **out)
{
  app_task *t = calloc(1, sizeof *t);
  if (!t) return lb_error(LB_ENOMEM, "task");
  lb_rbuf b = {.p = buf, .len = size};
  int s = get_head(t, &b, TASK_MAGIC);
  if (!s) s = t->kind == APP_MATMUL ? app_matmul_load(t, &b) : app_primes_load(t, &b);
  if (!s && b.bad) s = lb_error(LB_EFORMAT, "task blob truncated (%zu bytes)", size);
  if (!s && lb_r_left(&b) != 0) s = lb_error(LB_EFORMAT, "task blob has %zu trailing bytes", lb_r_left(&b));
  if (s) {
    app_task_free(t);
    return s;
  }
  *out = t;
  return LB_SUCCESS;
}

size_t app_task_result_size(const app_task *t)
{
  return HEAD_BYTES + (t->kind == APP_MATMUL ? app_matmul_result_size(t) : 4 * 8);
}

int app_task_result(const app_task *t, unsigned char *buf, size_t size)
{
  if (!app_task_finished(t)) return lb_error(LB_EINVAL, "task %llu has not finished", (unsigned long long)t->id);
  lb_wbuf b = {.p = buf, .cap = size};
  put_head(t, &b, RESULT_MAGIC);
  if (t->kind == APP_MATMUL) app_matmul_result(t, &b);
  else app_primes_result(t, &b);
  if (!buf || !lb_wbuf_ok(&b))
    return lb_error(LB_ERANGE, "result blob needs %zu bytes, buffer has %zu", app_task_result_size(t), size);
  return LB_SUCCESS;
}

int app_result_decode(const unsigned char *buf, size_t size, app_result *r)
{
  memset(r, 0, sizeof *r);
  app_task h = {0};
  lb_rbuf b = {.p = buf, .len = size};
  int s = get_head(&h, &b, RESULT_MAGIC);
  if (s) return s;
  r->kind = h.kind;
  r->id = h.id;
  r->origin = h.origin;
  r->hops = h.hops;
  r->cost = h.cost;
  if (h.kind == APP_MATMUL) {
    r->n = (unsigned long)lb_r_u64(&b);
    r->row0 = (unsigned long)lb_r_u64(&b);
    r->nrows = (unsigned long)lb_r_u64(&b);
    /* Whole rows inside the matrix first: rows x n cannot wrap then. */
    if (b.bad || r->n == 0 || r->n > APP_MATMUL_ORDER_MAX || r->nrows == 0 || r->nrows > r->n ||
        r->row0 > r->n - r->nrows || (uint64_t)r->nrows * r->n != h.total ||
        (lb_r_left(&b)) / 8 != (size_t)r->nrows * r->n)
      return lb_error(LB_EFORMAT, "matmul result blob has the wrong size");
    r->owned = malloc((size_t)r->nrows * r->n * sizeof *r->owned + 1);
    if (!r->owned) return lb_error(LB_ENOMEM, "result rows");
    lb_r_f64s(&b, r->owned, (size_t)r->nrows * r->n);
    r->c = r->owned;
  } else {
    r->lo = lb_r_u64(&b);
    r->hi = lb_r_u64(&b);
    r->count = lb_r_u64(&b);
    r->sum = lb_r_u64(&b);
  }
  if (b.bad || lb_r_left(&b) != 0) {
    app_result_clear(r);
    return lb_error(LB_EFORMAT, "result blob truncated or too long");
  }
  return LB_SUCCESS;
}

void app_result_clear(app_result *r)
{
  free(r->owned);
  r->owned = NULL;
  r->c = NULL;
}
