/* farm_payload.c: see farm_payload.h. */
#include <stdlib.h>
#include <pvm3.h>
#include "farm_payload.h"

int farm_payload_pack(int run, int origin, int exec, uint64_t pid, const void *blob, int len)
{
  int head[2] = { origin, exec };
  long long id = (long long)pid;
  int s = farm_msg_begin(run, FARM_PAYLOAD_ITEMS(len));
  if (s >= 0) s = farm_msg_pk_int(head, 2);
  if (s >= 0) s = farm_msg_pk_i64(&id, 1);
  if (s >= 0) s = farm_msg_pk_int(&len, 1);
  if (s >= 0) s = farm_msg_pk_bytes(blob, len);
  int bufid = pvm_setsbuf(0);   /* detach: it waits for its protocol message */
  if (s < 0) { pvm_freebuf(bufid); return s; }
  return bufid;
}

int farm_payload_head(const farm_in *in, int *origin, int *exec, uint64_t *pid, int *len)
{
  int head[2];
  long long id;
  if (farm_msg_upk_int(head, 2) || farm_msg_upk_i64(&id, 1) || farm_msg_upk_int(len, 1) || *len <= 0 ||
      in->items != FARM_PAYLOAD_ITEMS(*len))
    return -1;
  *origin = head[0];
  *exec = head[1];
  *pid = (uint64_t)id;
  return 0;
}

int farm_payload_keep_received(void) { return pvm_setrbuf(0); }

int farm_payload_send(int bufid, int tid, int tag)
{
  int old = pvm_setsbuf(bufid);
  int s = farm_msg_send(tid, tag);
  pvm_setsbuf(old);
  pvm_freebuf(bufid);
  return s;
}

/* Few payloads wait at a time (those between their arrival and their
 * protocol message's turn), so a list is enough. */
static struct held { uint64_t pid; int bufid; } *held;
static size_t nheld, capheld;

int farm_payload_hold(uint64_t pid, int bufid)
{
  for (size_t k = 0; k < nheld; k++)
    if (held[k].pid == pid) { pvm_freebuf(bufid); return -1; }
  if (nheld == capheld) {
    size_t cap = capheld ? 2 * capheld : 16;
    struct held *v = realloc(held, cap * sizeof *v);
    if (!v) { pvm_freebuf(bufid); return -1; }
    held = v;
    capheld = cap;
  }
  held[nheld++] = (struct held){ pid, bufid };
  return 0;
}

int farm_payload_take(uint64_t pid)
{
  for (size_t k = 0; k < nheld; k++)
    if (held[k].pid == pid) {
      int b = held[k].bufid;
      held[k] = held[--nheld];
      return b;
    }
  return -1;
}
