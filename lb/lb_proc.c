/* lb_proc.c: processes and messages as owned plain data. */
#include <string.h>
#include "lb_proc.h"
#include "lb_codec.h"
#include "lb_errno.h"
#include "lb_mem.h"

static unsigned char *room(lb_proc *p) { return (unsigned char *)(p + 1); }

int lb_proc_alloc(uint64_t id, size_t origin, double work, const void *ctx, size_t ctx_len, lb_proc **out)
{
  return lb_proc_alloc_head(id, origin, work, ctx, ctx_len, ctx_len, out);
}

int lb_proc_alloc_head(uint64_t id, size_t origin, double work, const void *ctx, size_t head, size_t ctx_len,
                       lb_proc **out)
{
  *out = NULL;
  if (!(work >= 0 && work < 1e300))
    return lb_error(LB_EINVAL, "process %llu: work %g outside [0, 1e300)", (unsigned long long)id, work);
  if (head && !ctx) return lb_error(LB_EINVAL, "NULL context of %zu bytes", head);
  if (head > ctx_len) return lb_error(LB_EINVAL, "a context's head of %zu bytes in %zu", head, ctx_len);
  if (ctx_len >= UINT32_MAX) return lb_error(LB_ERANGE, "context of %zu bytes: 4 GiB or more", ctx_len);
  /* One allocation: a migrating or running process is one block, not two.
   * A zero tail comes zeroed from the allocator, whose fresh pages need
   * not be written. */
  lb_proc *p = head < ctx_len ? lb_mem_calloc(sizeof *p + ctx_len) : lb_mem_alloc(sizeof *p + ctx_len);
  if (!p) return lb_error(LB_ENOMEM, "process %llu", (unsigned long long)id);
  *p = (lb_proc){.id = id,
                 .origin = origin,
                 .work = work,
                 .ctx = ctx_len ? room(p) : NULL,
                 .ctx_len = (uint32_t)ctx_len,
                 .ctx_room = (uint32_t)ctx_len};
  if (head) memcpy(p->ctx, ctx, head);
  *out = p;
  return LB_SUCCESS;
}

void lb_proc_free(lb_proc *p)
{
  if (!p) return;
  if (p->ctx != room(p)) lb_mem_free(p->ctx, p->ctx_len); /* out of line: ctx_len bytes */
  lb_mem_free(p, sizeof *p + p->ctx_room);
}

int lb_proc_copy(const lb_proc *p, lb_proc **out)
{
  int rc = lb_proc_alloc(p->id, p->origin, p->work, p->ctx, p->ctx_len, out);
  if (!rc) {
    (*out)->quanta = p->quanta;
    (*out)->hops = p->hops;
    (*out)->est = p->est;
    (*out)->ran = p->ran;
  }
  return rc;
}

int lb_proc_set_ctx(lb_proc *p, const void *ctx, size_t len)
{
  if (len && !ctx) return lb_error(LB_EINVAL, "NULL context of %zu bytes", len);
  if (len >= UINT32_MAX) return lb_error(LB_ERANGE, "context of %zu bytes: 4 GiB or more", len);
  unsigned char *b = len <= p->ctx_room ? room(p) : lb_mem_alloc(len);
  if (!b) return lb_error(LB_ENOMEM, "context of %zu bytes", len);
  if (len) memmove(b, ctx, len); /* ctx may be the process's own */
  if (p->ctx && p->ctx != room(p) && p->ctx != b) lb_mem_free(p->ctx, p->ctx_len);
  p->ctx = len ? b : NULL;
  p->ctx_len = (uint32_t)len;
  return LB_SUCCESS;
}

int lb_msg_alloc(lb_msg_type type, size_t src, size_t dst, lb_msg **out)
{
  *out = NULL;
  if ((unsigned)type >= LB_MSG_NTYPES) return lb_error(LB_EINVAL, "message type %d", (int)type);
  lb_msg *m = lb_mem_alloc(sizeof *m);
  if (!m) return lb_error(LB_ENOMEM, "message");
  memset(m, 0, sizeof *m); /* all of the union, whichever member is used */
  m->type = type;
  m->src = m->hop_src = src;
  m->dst = m->hop_dst = dst;
  m->res.origin = LB_NO_NODE;
  switch (type) {
  case LB_MSG_RM: m->u.rm.hv = LB_NO_NODE; break;
  case LB_MSG_AM: m->u.am.hv = m->u.am.lv = LB_NO_NODE; break;
  case LB_MSG_CM: m->u.cm.hv = m->u.cm.lv = LB_NO_NODE; break;
  case LB_MSG_LMM: m->u.lmm.hv = m->u.lmm.lv = LB_NO_NODE; break;
  case LB_MSG_DRM: m->u.drm.hv = m->u.drm.lv = LB_NO_NODE; break;
  case LB_MSG_ABORT: m->u.abort.hv = m->u.abort.lv = LB_NO_NODE; break;
  default: break;
  }
  *out = m;
  return LB_SUCCESS;
}

void lb_msg_free(lb_msg *m)
{
  if (!m) return;
  for (size_t k = 0; k < m->nproc; k++) lb_proc_free(m->procs[k]);
  lb_mem_free(m->procs, m->capproc * sizeof *m->procs);
  lb_mem_free(m->pairs, m->cappair * sizeof *m->pairs);
  lb_mem_free(m, sizeof *m);
}

int lb_msg_copy(const lb_msg *m, lb_msg **out)
{
  *out = NULL;
  lb_msg *c = lb_mem_alloc(sizeof *c);
  if (!c) return lb_error(LB_ENOMEM, "message copy");
  *c = *m;
  c->procs = NULL;
  c->nproc = c->capproc = 0;
  c->pairs = NULL;
  c->npair = c->cappair = 0;
  int rc = LB_SUCCESS;
  for (size_t k = 0; !rc && k < m->npair; k++) rc = lb_msg_add_pair(c, m->pairs[k].node, m->pairs[k].count);
  for (size_t k = 0; !rc && k < m->nproc; k++) {
    lb_proc *p;
    rc = lb_proc_copy(m->procs[k], &p);
    if (!rc && (rc = lb_msg_add_proc(c, p))) lb_proc_free(p);
  }
  if (rc) {
    lb_msg_free(c);
    return rc;
  }
  *out = c;
  return LB_SUCCESS;
}

int lb_msg_add_proc(lb_msg *m, lb_proc *p)
{
  lb_proc **v = lb_mem_grow(m->procs, &m->capproc, m->nproc, sizeof *v, 1);
  if (!v) return lb_error(LB_ENOMEM, "message process list");
  m->procs = v;
  m->procs[m->nproc++] = p;
  return LB_SUCCESS;
}

int lb_msg_add_pair(lb_msg *m, size_t node, long count)
{
  lb_pair *v = lb_mem_grow(m->pairs, &m->cappair, m->npair, sizeof *v, 1);
  if (!v) return lb_error(LB_ENOMEM, "message pair list");
  m->pairs = v;
  m->pairs[m->npair++] = (lb_pair){node, count};
  return LB_SUCCESS;
}

int lb_msg_type_has_procs(lb_msg_type t) { return t == LB_MSG_LMM || t == LB_MSG_TRANSFER; }
int lb_msg_type_has_result(lb_msg_type t) { return t == LB_MSG_DRM || t == LB_MSG_RESULT; }

size_t lb_msg_size(const lb_msg *m)
{
  size_t s = lb_codec_size(m);
  if (lb_msg_type_has_result(m->type) && m->res.payload) s += (size_t)m->res.len;
  return s;
}

const char *lb_msg_type_name(lb_msg_type t)
{
  static const char *names[LB_MSG_NTYPES] = {"RM",   "AM",    "CM",     "LMM",   "DRM",    "PROBE", "REPLY", "TRANSFER",
                                             "LOAD", "INSTR", "REPORT", "ORDER", "RESULT", "ABORT", "POLICY"};
  return (unsigned)t < LB_MSG_NTYPES ? names[t] : "?";
}
