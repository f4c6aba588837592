/* farm_count.c: see farm_count.h. */
#include "farm_count.h"
#include "farm_wire.h"

static long dropped;
static long sent[FARM_NTAGS], sent_bytes[FARM_NTAGS];

static int tag_index(int tag)
{
  return tag >= FARM_TAG_MIN && tag < FARM_TAG_MIN + FARM_NTAGS ? tag - FARM_TAG_MIN : -1;
}

long farm_msg_sent(int tag)
{
  int i = tag_index(tag);
  return i < 0 ? 0 : sent[i];
}
long farm_msg_sent_bytes(int tag)
{
  int i = tag_index(tag);
  return i < 0 ? 0 : sent_bytes[i];
}

void farm_msg_count_sent(int tag, long bytes)
{
  int i = tag_index(tag);
  if (i >= 0) {
    sent[i]++;
    sent_bytes[i] += bytes;
  }
}

long farm_msg_dropped(void) { return dropped; }
void farm_msg_count_dropped(void) { dropped++; }
