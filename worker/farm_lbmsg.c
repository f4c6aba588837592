/* farm_lbmsg.c: pack and unpack lb_msg.  Node ids (size_t, LB_NO_NODE
 * = all ones) travel as 64-bit pairs; counts are checked against the
 * header's length before anything is allocated. */
#include <stdlib.h>
#include "farm_lbmsg.h"
#include "lb_errno.h"

static long items_of(const lb_msg *m)
{
  long it = 1 + 2 * 4 + 2 + 1 + 2 * 2 + 2 + 2;     /* type, src..lv, n, flag, tag, round, load, nproc */
  for (size_t k = 0; k < m->nproc; k++)
    it += 2 + 2 + 2 + 1 + farm_msg_words((long)m->procs[k]->ctx_len);
  it += 2 + 2 + 1 + farm_msg_words((long)m->result_len); /* rid, rorigin, result */
  it += 1 + 2 * (long)m->nval;
  return it;
}

static void pk_u64(uint64_t v) { long long x = (long long)v; farm_msg_pk_i64(&x, 1); }

int farm_lbmsg_send(int run, int tid, const lb_msg *m)
{
  int s = farm_msg_begin(run, (int)items_of(m));
  if (s < 0) return s;
  int type = (int)m->type, flag = m->flag, rlen = (int)m->result_len, nval = (int)m->nval;
  farm_msg_pk_int(&type, 1);
  pk_u64(m->src); pk_u64(m->dst); pk_u64(m->hv); pk_u64(m->lv);
  long long n = m->n;
  farm_msg_pk_i64(&n, 1);
  farm_msg_pk_int(&flag, 1);
  pk_u64(m->tag); pk_u64(m->round);
  farm_msg_pk_double(&m->load, 1);
  pk_u64(m->nproc);
  for (size_t k = 0; k < m->nproc; k++) {
    const lb_proc *p = m->procs[k];
    int len = (int)p->ctx_len;
    pk_u64(p->id); pk_u64(p->origin);
    farm_msg_pk_double(&p->work, 1);
    farm_msg_pk_int(&len, 1);
    if (len) farm_msg_pk_bytes(p->ctx, len);
  }
  pk_u64(m->rid); pk_u64(m->rorigin);
  farm_msg_pk_int(&rlen, 1);
  if (rlen) farm_msg_pk_bytes(m->result, rlen);
  farm_msg_pk_int(&nval, 1);
  if (nval) farm_msg_pk_double(m->vals, nval);
  return farm_msg_send(tid, FARM_LBMSG);
}

static int up_u64(uint64_t *v)
{
  long long x;
  if (farm_msg_upk_i64(&x, 1)) return -1;
  *v = (uint64_t)x;
  return 0;
}
static int up_size(size_t *v)
{
  uint64_t x;
  if (up_u64(&x)) return -1;
  *v = (size_t)x;
  return 0;
}

int farm_lbmsg_recv(const farm_in *in, lb_msg **out)
{
  int type, flag, len;
  size_t src, dst;
  long left = in->items;
  if (left < 20 || farm_msg_upk_int(&type, 1) || type < 0 || type >= LB_MSG_NTYPES ||
      up_size(&src) || up_size(&dst))
    return -1;
  lb_msg *m;
  if (lb_msg_alloc((lb_msg_type)type, src, dst, &m)) return -1;
  long long n;
  size_t nproc;
  if (up_size(&m->hv) || up_size(&m->lv) || farm_msg_upk_i64(&n, 1) || farm_msg_upk_int(&flag, 1) ||
      up_u64(&m->tag) || up_u64(&m->round) || farm_msg_upk_double(&m->load, 1) || up_size(&nproc))
    goto bad;
  m->n = (long)n;
  m->flag = flag;
  left -= 20;
  for (size_t k = 0; k < nproc; k++) {
    uint64_t id;
    size_t origin;
    double work;
    if ((left -= 7) < 0 || up_u64(&id) || up_size(&origin) || farm_msg_upk_double(&work, 1) ||
        farm_msg_upk_int(&len, 1) || len < 0 || (left -= farm_msg_words(len)) < 0)
      goto bad;
    unsigned char *ctx = malloc((size_t)len + 1);
    lb_proc *p = NULL;
    if (!ctx || (len && farm_msg_upk_bytes(ctx, len)) || lb_proc_alloc(id, origin, work, ctx, (size_t)len, &p)) {
      free(ctx);
      goto bad;
    }
    free(ctx);
    if (lb_msg_add_proc(m, p)) { lb_proc_free(p); goto bad; }
  }
  uint64_t rid;
  size_t rorigin;
  if ((left -= 5) < 0 || up_u64(&rid) || up_size(&rorigin) || farm_msg_upk_int(&len, 1) || len < 0 ||
      (left -= farm_msg_words(len)) < 0)
    goto bad;
  if (len) {
    unsigned char *r = malloc((size_t)len);
    if (!r || farm_msg_upk_bytes(r, len)) { free(r); goto bad; }
    lb_msg_take_result(m, rid, rorigin, &r, (size_t)len);
  } else {
    m->rid = rid;
    m->rorigin = rorigin;
  }
  int nval;
  if ((left -= 1) < 0 || farm_msg_upk_int(&nval, 1) || nval < 0 || (left -= 2L * nval) != 0) goto bad;
  if (nval) {
    double *v = malloc((size_t)nval * sizeof *v);
    if (!v || farm_msg_upk_double(v, nval) || lb_msg_set_vals(m, v, (size_t)nval)) { free(v); goto bad; }
    free(v);
  }
  *out = m;
  return 0;
bad:
  lb_msg_free(m);
  return -1;
}
