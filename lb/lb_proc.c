/* lb_proc.c: processes and messages as owned plain data. */
#include <stdlib.h>
#include <string.h>
#include "lb_proc.h"
#include "lb_errno.h"

static int dup_bytes(const void *src, size_t len, unsigned char **out)
{
  *out = NULL;
  if (!len) return LB_SUCCESS;
  if (!src) return lb_error(LB_EINVAL, "NULL blob of %zu bytes", len);
  unsigned char *b = malloc(len);
  if (!b) return lb_error(LB_ENOMEM, "blob of %zu bytes", len);
  memcpy(b, src, len);
  *out = b;
  return LB_SUCCESS;
}

int lb_proc_alloc(uint64_t id, size_t origin, double work, const void *ctx,
                  size_t ctx_len, lb_proc **out)
{
  *out = NULL;
  if (!(work >= 0)) return lb_error(LB_EINVAL, "process %llu: work %g < 0",
                                    (unsigned long long)id, work);
  lb_proc *p = calloc(1, sizeof *p);
  if (!p) return lb_error(LB_ENOMEM, "process %llu", (unsigned long long)id);
  p->id = id;
  p->origin = origin;
  p->work = work;
  if (dup_bytes(ctx, ctx_len, &p->ctx)) { free(p); return LB_ENOMEM; }
  p->ctx_len = ctx_len;
  *out = p;
  return LB_SUCCESS;
}

void lb_proc_free(lb_proc *p)
{
  if (!p) return;
  free(p->ctx);
  free(p);
}

int lb_proc_copy(const lb_proc *p, lb_proc **out)
{
  return lb_proc_alloc(p->id, p->origin, p->work, p->ctx, p->ctx_len, out);
}

int lb_proc_set_ctx(lb_proc *p, const void *ctx, size_t len)
{
  unsigned char *b;
  int rc = dup_bytes(ctx, len, &b);
  if (rc) return rc;
  free(p->ctx);
  p->ctx = b;
  p->ctx_len = len;
  return LB_SUCCESS;
}

int lb_msg_alloc(lb_msg_type type, size_t src, size_t dst, lb_msg **out)
{
  *out = NULL;
  if ((unsigned)type >= LB_MSG_NTYPES) return lb_error(LB_EINVAL, "message type %d", (int)type);
  lb_msg *m = calloc(1, sizeof *m);
  if (!m) return lb_error(LB_ENOMEM, "message");
  m->type = type;
  m->src = src;
  m->dst = dst;
  m->hv = m->lv = m->rorigin = LB_NO_NODE;
  *out = m;
  return LB_SUCCESS;
}

void lb_msg_free(lb_msg *m)
{
  if (!m) return;
  for (size_t k = 0; k < m->nproc; k++) lb_proc_free(m->procs[k]);
  free(m->procs);
  free(m->result);
  free(m->vals);
  free(m);
}

int lb_msg_copy(const lb_msg *m, lb_msg **out)
{
  *out = NULL;
  lb_msg *c = malloc(sizeof *c);
  if (!c) return lb_error(LB_ENOMEM, "message copy");
  *c = *m;
  c->procs = NULL;
  c->nproc = 0;
  c->result = NULL;
  c->vals = NULL;
  c->nval = 0;
  int rc = dup_bytes(m->result, m->result_len, &c->result);
  if (!rc) rc = lb_msg_set_vals(c, m->vals, m->nval);
  for (size_t k = 0; !rc && k < m->nproc; k++) {
    lb_proc *p;
    rc = lb_proc_copy(m->procs[k], &p);
    if (!rc && (rc = lb_msg_add_proc(c, p))) lb_proc_free(p);
  }
  if (rc) { lb_msg_free(c); return rc; }
  *out = c;
  return LB_SUCCESS;
}

int lb_msg_add_proc(lb_msg *m, lb_proc *p)
{
  lb_proc **v = realloc(m->procs, (m->nproc + 1) * sizeof *v);
  if (!v) return lb_error(LB_ENOMEM, "message process list");
  m->procs = v;
  m->procs[m->nproc++] = p;
  return LB_SUCCESS;
}

void lb_msg_take_result(lb_msg *m, uint64_t id, size_t origin, unsigned char **r, size_t len)
{
  free(m->result);
  m->result = *r;
  m->result_len = *r ? len : 0;
  m->rid = id;
  m->rorigin = origin;
  *r = NULL;
}

int lb_msg_set_vals(lb_msg *m, const double *v, size_t n)
{
  double *c = NULL;
  if (n) {
    if (!(c = malloc(n * sizeof *c))) return lb_error(LB_ENOMEM, "message values");
    memcpy(c, v, n * sizeof *c);
  }
  free(m->vals);
  m->vals = c;
  m->nval = n;
  return LB_SUCCESS;
}

/* Header: type, two node ids, hv, lv, n, flag, tag, round, load as a
 * PVM packing of ints and doubles would carry them (4- and 8-byte
 * fields); each process adds its id, origin, work and context. */
size_t lb_msg_size(const lb_msg *m)
{
  size_t s = 4 + 4 * 4 + 8 + 4 + 8 + 8 + 8;
  for (size_t k = 0; k < m->nproc; k++) s += 8 + 4 + 8 + 4 + m->procs[k]->ctx_len;
  if (m->type == LB_MSG_DRM || m->type == LB_MSG_RESULT) s += 8 + 4 + 4 + m->result_len;
  s += m->nval * 8;
  return s;
}

const char *lb_msg_type_name(lb_msg_type t)
{
  static const char *names[LB_MSG_NTYPES] = {
    "RM", "AM", "CM", "LMM", "DRM", "PROBE", "REPLY", "TRANSFER",
    "LOAD", "INSTR", "REPORT", "ORDER", "RESULT"
  };
  return (unsigned)t < LB_MSG_NTYPES ? names[t] : "?";
}
