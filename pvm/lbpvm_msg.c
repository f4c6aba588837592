/* lbpvm_msg.c: envelopes and bodies over libpvm3 (see lbpvm_msg.h). */
#include <stdio.h>
#include <stdlib.h>
#include <sys/time.h>
#include <pvm3.h>
#include "lbpvm_msg.h"
#include "lb_errno.h"
#include "cli.h"

int lbpvm_send(farm_auth *a, int tid, int tag, uint32_t run, const void *body, size_t len)
{
  if (len > 0x7fffffff) return PvmBadParam;
  unsigned char env[FARM_ENVELOPE];
  farm_auth_seal(a, env, tag, run, (uint32_t)tid, body, len);
  int s = pvm_initsend(PvmDataRaw);
  if (s >= 0) s = pvm_pkbyte((char *)env, FARM_ENVELOPE, 1);
  if (s >= 0 && len) s = pvm_pkbyte((char *)body, (int)len, 1);
  if (s >= 0) s = pvm_send(tid, tag);
  if (s >= 0) farm_msg_count_sent(tag, (long)(FARM_ENVELOPE + len));
  return s;
}

int lbpvm_send_junk(int tid, int kind)
{
  unsigned char env[FARM_ENVELOPE];
  farm_envelope_put(env, &(farm_envelope){.tag = FARM_TASKS});
  if (kind) env[0] ^= 0xff;
  pvm_initsend(PvmDataRaw);
  pvm_pkbyte((char *)env, FARM_ENVELOPE, 1);
  return pvm_send(tid, kind ? FARM_LBMSG : 4242);
}

static void drop(int bufid, int src, int tag, const char *why)
{
  farm_msg_count_dropped();
  fprintf(stderr, "%s: dropped a message from t%x with tag %d: %s\n", cli_prog(), src, tag, why);
  pvm_freebuf(bufid);
}

void lbpvm_in_clear(farm_in *in)
{
  free(in->body);
  in->body = NULL;
  if (in->bufid > 0) pvm_freebuf(in->bufid);
  in->bufid = 0;
}

/* A pvmd's notice: one int (XDR), from a pvmd (its tid has the TIDPVMD
 * bit, which no task's has, and which the sending pvmd sets, not the
 * sender), never from a task. */
static int notice(int bufid, int src, int tag, farm_in *in)
{
  int v;
  if (!((unsigned)src & 0x80000000u)) {
    drop(bufid, src, tag, "a notice that no pvmd sent");
    return 0;
  }
  if (pvm_upkint(&v, 1, 1) < 0) {
    drop(bufid, src, tag, "a notice without its task id");
    return 0;
  }
  *in = (farm_in){.tag = tag, .src = src, .notice = v};
  pvm_freebuf(bufid);
  return 1;
}

int lbpvm_recv(farm_auth *a, uint32_t run, int tid, int tag, double timeout_s, farm_in *in)
{
  for (;;) {
    int bufid;
    if (timeout_s < 0) bufid = pvm_recv(tid, tag);
    else if (timeout_s == 0) bufid = pvm_nrecv(tid, tag);
    else {
      struct timeval tv = {(long)timeout_s, (long)((timeout_s - (long)timeout_s) * 1e6)};
      bufid = pvm_trecv(tid, tag, &tv);
    }
    if (bufid <= 0) return bufid; /* 0: nothing within the timeout */
    int bytes, mtag, src;
    if (pvm_bufinfo(bufid, &bytes, &mtag, &src) < 0) return PvmNoBuf;
    if (mtag == FARM_EXITED || mtag == FARM_HOSTDEL) {
      if (notice(bufid, src, mtag, in)) return 1;
      continue;
    }
    unsigned char env[FARM_ENVELOPE];
    farm_envelope e;
    int has = farm_tag_name(mtag) && bytes >= (int)FARM_ENVELOPE && pvm_upkbyte((char *)env, FARM_ENVELOPE, 1) >= 0;
    if (farm_wire_accept(mtag, has ? env : NULL, (size_t)bytes, run, &e)) {
      drop(bufid, src, mtag, lb_errmsg());
      continue;
    }
    int payload = mtag == FARM_PAYLOAD || mtag == FARM_RESULT;
    size_t take = payload ? FARM_PAYLOAD_HEAD : e.body_len;
    unsigned char *body = malloc(take ? take : 1);
    if (!body) {
      drop(bufid, src, mtag, "out of memory");
      continue;
    }
    if (take && pvm_upkbyte((char *)body, (int)take, 1) < 0) {
      free(body);
      drop(bufid, src, mtag, "body shorter than announced");
      continue;
    }
    if (farm_auth_open(a, mtag, (uint32_t)src, env, body, take)) {
      free(body);
      drop(bufid, src, mtag, lb_errmsg());
      continue;
    }
    *in = (farm_in){.tag = mtag, .src = src, .body = body, .len = take, .seq = e.seq};
    if (payload) in->bufid = pvm_setrbuf(0); /* keep it: PVM frees it at the next receive */
    else pvm_freebuf(bufid);
    return 1;
  }
}
