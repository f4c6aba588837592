/* Fuzz target: one policy node, as a worker drives it, fed what its
 * neighbours may send.  Bytes 0-2 pick the policy, result mode, schedule,
 * topology (ring or complete, 2 to 9 nodes), this node and its capacity;
 * then each record is one event: a message (type, sender and body bytes,
 * under the header a worker would check), a new process, a quantum run, a
 * tick, the next timer, an outside order, time passing, or another
 * node's failure (with the repaired graph, as the survivors get it).  Messages go
 * through lb_codec_decode first, as on the farm.  What the node sends
 * must be addressed from it to another node and be a message every
 * receiver's decoder takes (but one open case below); its timers must
 * be finite; errors must come with a message; and everything is freed. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <math.h>
#include <stdio.h>
#include "lb_codec.h"
#include "lb_wire.h"
#include "lb_rt.h"
#include "lb_errno.h"
#include "fuzz_check.h"
#include "fuzz_sel.h"

#define MAX_EVENTS 256
#define MAX_DOWN   4

typedef struct drv {
  size_t me, n;
  lb_codec_limits lim;
} drv;

/* Every message the node sends must reach its receiver intact. */
static int cb_send(void *ctx, lb_msg *m, double now)
{
  (void)now;
  drv *d = ctx;
  CHECK(m->src == d->me && m->dst < d->n && m->dst != d->me);
  unsigned char *b;
  size_t len;
  CHECK(lb_codec_encode_alloc(m, FZ_RUN, &b, &len) == LB_SUCCESS);
  lb_msg *back = NULL;
  if (lb_codec_decode(b, len, FZ_RUN, &d->lim, &back)) {
    fprintf(stderr, "node %zu sent a message its receiver refuses: %s\n", d->me, lb_errmsg());
    abort();
  }
  lb_msg_free(back);
  free(b);
  lb_msg_free(m);
  return LB_SUCCESS;
}
static int cb_deliver(void *ctx, const lb_result_ref *r, double now)
{
  (void)ctx;
  (void)r;
  (void)now;
  return LB_SUCCESS;
}
static const lb_rt_ops ops = {.send = cb_send, .deliver = cb_deliver};

typedef struct in {
  const uint8_t *p;
  size_t left;
} in;
static unsigned take(in *s)
{
  if (!s->left) return 0;
  s->left--;
  return *s->p++;
}

/* A message of `type` from `src` to `me` with the input's next bytes as
 * its body, decoded as a worker does. */
static lb_msg *message(in *s, const drv *d)
{
  unsigned type = take(s) % LB_MSG_NTYPES, src = take(s) % (unsigned)d->n, blen = take(s);
  if (blen > s->left) blen = (unsigned)s->left;
  unsigned char buf[LB_CODEC_HEADER + 255];
  lb_wbuf w = {buf, sizeof buf, 0};
  lb_w_u32(&w, LB_CODEC_MAGIC);
  lb_w_u16(&w, LB_CODEC_VERSION);
  lb_w_u16(&w, type);
  lb_w_u32(&w, FZ_RUN);
  lb_w_u32(&w, src);
  lb_w_u32(&w, (uint32_t)d->me);
  lb_w_u32(&w, blen);
  lb_w_bytes(&w, s->p, blen);
  s->p += blen;
  s->left -= blen;
  lb_msg *m;
  if (src == d->me || lb_codec_decode(buf, w.len, FZ_RUN, &d->lim, &m)) return NULL;
  return m;
}

static void step(lb_rt *rt, const lb_event *ev, double now)
{
  if (lb_rt_step(rt, ev, now)) CHECK(lb_errmsg()[0] != '\0');
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
  if (size < 3) return 0;
  in s = {data + 3, size - 3};
  drv d;
  d.n = 2 + (data[1] & 7);
  d.me = (data[1] >> 4) % d.n;
  lb_codec_limits_default(&d.lim, d.n);
  lb_policy pol = (lb_policy)(data[0] % LB_POLICY_COUNT);
  lb_topo *t;
  CHECK((data[0] & 0x40 ? lb_topo_complete(d.n, &t) : lb_topo_ring(d.n, &t)) == LB_SUCCESS);
  lb_node_params par;
  lb_node_params_default(&par);
  par.hop_time = 0.002;
  par.dasud.period = par.cchspmd.period = par.diffusion.period = 0.05;
  par.results = data[0] & 0x10 ? LB_RESULTS_DIRECT : LB_RESULTS_ORIGIN;
  par.sched = data[0] & 0x20 ? LB_SCHED_FIFO : LB_SCHED_RR;
  par.capacity = 1 + (data[2] & 7);
  par.speed = data[2] & 0x80 ? 0.25 : 1;
  par.seed = data[2];
  lb_rt *rt = NULL;
  if (lb_policy_prepare(pol, t, &par) || lb_rt_alloc(pol, d.me, t, &par, &ops, &d, &rt)) {
    lb_topo_free(t);
    return 0;
  }
  double now = 0;
  uint64_t next_id = 1;
  unsigned char dead[16] = {0};
  lb_topo *repaired[MAX_DOWN];
  size_t ndown = 0;
  for (int k = 0; k < MAX_EVENTS && s.left; k++) {
    unsigned op = take(&s) & 7;
    lb_event ev = {.type = LB_EV_TICK};
    switch (op) {
    case 0:
      if (!(ev.msg = message(&s, &d))) continue;
      ev.type = LB_EV_MSG;
      break;
    case 7: {
      /* another node fails: the graph without it (kept until the node
       * goes, as a driver keeps it) */
      size_t j = take(&s) % d.n;
      if (j == d.me || dead[j] || ndown == MAX_DOWN) continue;
      dead[j] = 1;
      if (lb_topo_repair(t, dead, &repaired[ndown])) {
        dead[j] = 0;
        continue;
      }
      ev = (lb_event){.type = LB_EV_DOWN, .dst = j, .topo = repaired[ndown++]};
      break;
    }
    case 1: {
      lb_proc *p;
      CHECK(lb_proc_alloc(next_id++ << 8 | d.me, d.me, 1 + take(&s), NULL, 0, &p) == LB_SUCCESS);
      ev = (lb_event){.type = LB_EV_ARRIVE, .proc = p};
      break;
    }
    case 2: {
      const lb_proc *p = lb_node_current(lb_rt_node(rt));
      if (!p) continue;
      double done = take(&s) / 16.0;
      ev = (lb_event){
          .type = LB_EV_RAN, .pid = p->id, .work_done = done, .finished = done >= p->work, .result_len = 100};
      break;
    }
    case 3: break;
    case 4: {
      double at;
      if (lb_rt_next_timer(rt, &at)) {
        CHECK(isfinite(at));
        if (at > now) now = at;
        if (lb_rt_fire(rt, now)) CHECK(lb_errmsg()[0] != '\0');
      }
      continue;
    }
    case 5: ev = (lb_event){.type = LB_EV_ORDER, .dst = take(&s) % d.n, .count = take(&s) % 8}; break;
    case 6: now += take(&s) * 0.001; continue;
    }
    step(rt, &ev, now);
  }
  lb_rt_free(rt);
  for (size_t k = 0; k < ndown; k++) lb_topo_free(repaired[k]);
  lb_topo_free(t);
  return 0;
}
