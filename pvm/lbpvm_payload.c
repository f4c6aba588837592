/* lbpvm_payload.c: see lbpvm_payload.h. */
#include <stdlib.h>
#include <pvm3.h>
#include "lbpvm_payload.h"

int lbpvm_payload_pack(const farm_auth *a, uint32_t run, const farm_payload_head *h, const void *blob)
{
  if (h->len > 0x7fffffffu - FARM_PAYLOAD_HEAD - FARM_ENVELOPE) return PvmBadParam;
  unsigned char env[FARM_ENVELOPE], head[FARM_PAYLOAD_HEAD];
  farm_payload_head sealed = *h;
  farm_auth_seal_payload(a, env, head, run, &sealed, blob);
  int bufid = pvm_mkbuf(PvmDataRaw);
  if (bufid < 0) return bufid;
  int old = pvm_setsbuf(bufid);
  int s = pvm_pkbyte((char *)env, FARM_ENVELOPE, 1);
  if (s >= 0) s = pvm_pkbyte((char *)head, FARM_PAYLOAD_HEAD, 1);
  if (s >= 0) s = pvm_pkbyte((char *)blob, (int)h->len, 1);
  pvm_setsbuf(old);
  if (s < 0) {
    pvm_freebuf(bufid);
    return s;
  }
  return bufid;
}

int lbpvm_payload_send(int bufid, int tid, int tag)
{
  int bytes = 0, t, src;
  pvm_bufinfo(bufid, &bytes, &t, &src);
  /* The envelope says PAYLOAD whatever the PVM tag (RESULT to the
   * master): the buffer goes on untouched. */
  int old = pvm_setsbuf(bufid);
  int s = pvm_send(tid, tag);
  pvm_setsbuf(old);
  pvm_freebuf(bufid);
  if (s >= 0) farm_msg_count_sent(tag, bytes);
  return s;
}

int lbpvm_payload_read(farm_in *in, void *buf, size_t len)
{
  if (in->bufid <= 0 || len > 0x7fffffff) return PvmNoBuf;
  int old = pvm_setrbuf(in->bufid);
  int s = pvm_upkbyte(buf, (int)len, 1);
  pvm_setrbuf(old);
  return s < 0 ? s : 0;
}
