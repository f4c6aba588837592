/* farm_msg.c: header packing and checking over libpvm3. */
#include <stdio.h>
#include <sys/time.h>
#include <pvm3.h>
#include "farm_msg.h"
#include "cli.h"

static long dropped;

long farm_msg_dropped(void) { return dropped; }

const char *farm_tag_name(int tag)
{
  switch (tag) {
#define FARM_NAME(name, val, str) case val: return str;
    FARM_TAGS(FARM_NAME)
#undef FARM_NAME
  default: return NULL;
  }
}

int farm_msg_begin(int run, int items)
{
  int hdr[4] = { FARM_MAGIC, FARM_VERSION, run, items };
  int s = pvm_initsend(PvmDataDefault);
  if (s < 0) return s;
  return pvm_pkint(hdr, 4, 1);
}

int farm_msg_pk_int(const int *v, int n) { return pvm_pkint((int *)v, n, 1); }
int farm_msg_pk_i64(const long long *v, int n)
{
  for (int i = 0; i < n; i++) {
    unsigned long long u = (unsigned long long)v[i];
    unsigned w[2] = { (unsigned)(u >> 32), (unsigned)(u & 0xffffffffu) };
    int s = pvm_pkuint(w, 2, 1);
    if (s < 0) return s;
  }
  return 0;
}
int farm_msg_pk_double(const double *v, int n) { return pvm_pkdouble((double *)v, n, 1); }
int farm_msg_pk_bytes(const void *v, int len) { return pvm_pkbyte((char *)v, len, 1); }
int farm_msg_upk_bytes(void *v, int len) { return pvm_upkbyte(v, len, 1) < 0 ? PvmNoData : 0; }

static long sent[FARM_NTAGS], sent_bytes[FARM_NTAGS];
static void (*send_cb)(int, int, int, void *);
static void *send_arg;

void farm_msg_on_send(void (*cb)(int, int, int, void *), void *arg)
{
  send_cb = cb;
  send_arg = arg;
}

static int tag_index(int tag)
{
  return tag >= FARM_TAG_MIN && tag < FARM_TAG_MIN + FARM_NTAGS ? tag - FARM_TAG_MIN : -1;
}
long farm_msg_sent(int tag) { int i = tag_index(tag); return i < 0 ? 0 : sent[i]; }
long farm_msg_sent_bytes(int tag) { int i = tag_index(tag); return i < 0 ? 0 : sent_bytes[i]; }

int farm_msg_send(int tid, int tag)
{
  int bytes = 0, t, s;
  pvm_bufinfo(pvm_getsbuf(), &bytes, &t, &s);
  int r = pvm_send(tid, tag);
  if (r >= 0) {
    int i = tag_index(tag);
    if (i >= 0) { sent[i]++; sent_bytes[i] += bytes; }
    if (send_cb) send_cb(tid, tag, bytes, send_arg);
  }
  return r;
}

int farm_msg_send_junk(int tid, int kind)
{
  int body[4] = { kind ? 0x12345678 : FARM_MAGIC, FARM_VERSION, 0, 0 };
  pvm_initsend(PvmDataDefault);
  pvm_pkint(body, 4, 1);
  return pvm_send(tid, kind ? FARM_LMM : 4242);
}

int farm_msg_upk_int(int *v, int n) { return pvm_upkint(v, n, 1) < 0 ? PvmNoData : 0; }
int farm_msg_upk_i64(long long *v, int n)
{
  for (int i = 0; i < n; i++) {
    unsigned w[2];
    if (pvm_upkuint(w, 2, 1) < 0) return PvmNoData;
    v[i] = (long long)(((unsigned long long)w[0] << 32) | w[1]);
  }
  return 0;
}
int farm_msg_upk_double(double *v, int n) { return pvm_upkdouble(v, n, 1) < 0 ? PvmNoData : 0; }

static void drop(int bufid, int src, int tag, const char *why)
{
  dropped++;
  fprintf(stderr, "%s: dropped a message from t%x with tag %d: %s\n", cli_prog(),
          src, tag, why);
  pvm_freebuf(bufid);
}

int farm_msg_recv(int run, int tid, int tag, double timeout_s, farm_in *in)
{
  for (;;) {
    int bufid;
    if (timeout_s < 0) bufid = pvm_recv(tid, tag);
    else if (timeout_s == 0) bufid = pvm_nrecv(tid, tag);
    else {
      struct timeval tv = { (long)timeout_s, (long)((timeout_s - (long)timeout_s) * 1e6) };
      bufid = pvm_trecv(tid, tag, &tv);
    }
    if (bufid <= 0) return bufid;  /* 0: nothing within the timeout */
    int bytes, mtag, src;
    if (pvm_bufinfo(bufid, &bytes, &mtag, &src) < 0) return PvmNoBuf;
    if (mtag == FARM_EXITED) {  /* from the pvmd: body is one tid, no header */
      in->tag = mtag;
      in->src = src;
      in->items = 1;
      in->bytes = bytes;
      return 1;
    }
    if (!farm_tag_name(mtag)) { drop(bufid, src, mtag, "unknown tag"); continue; }
    int hdr[4];
    if (pvm_upkint(hdr, 4, 1) < 0) { drop(bufid, src, mtag, "no header"); continue; }
    if (hdr[0] != FARM_MAGIC) { drop(bufid, src, mtag, "bad magic"); continue; }
    if (hdr[1] != FARM_VERSION) { drop(bufid, src, mtag, "unsupported version"); continue; }
    if (hdr[2] != run) { drop(bufid, src, mtag, "belongs to another run"); continue; }
    if (hdr[3] < 0 || (long)hdr[3] * 4 > (long)bytes) {
      drop(bufid, src, mtag, "announced length exceeds the buffer");
      continue;
    }
    in->tag = mtag;
    in->src = src;
    in->items = hdr[3];
    in->bytes = bytes;
    return 1;
  }
}
