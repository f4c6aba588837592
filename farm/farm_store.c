/* farm_store.c: see farm_store.h. */
#include <stdlib.h>
#include "farm_store.h"

/* Few payloads wait at a time (those between their arrival and their
 * reference's turn, and a host's finished results under the origin
 * mode), so an open-addressed table would be more than needed; a list
 * with swap-remove keeps it simple. */
struct farm_store {
  struct held {
    uint64_t pid;
    void *item;
  } * v;
  size_t n, cap;
  void (*free_item)(void *);
};

int farm_store_alloc(void (*free_item)(void *item), farm_store **out)
{
  *out = calloc(1, sizeof **out);
  if (!*out) return -1;
  (*out)->free_item = free_item;
  return 0;
}

void farm_store_free(farm_store *s)
{
  if (!s) return;
  for (size_t k = 0; k < s->n; k++) s->free_item(s->v[k].item);
  free(s->v);
  free(s);
}

int farm_store_put(farm_store *s, uint64_t pid, void *item)
{
  for (size_t k = 0; k < s->n; k++)
    if (s->v[k].pid == pid) {
      s->free_item(item);
      return -1;
    }
  if (s->n == s->cap) {
    size_t cap = s->cap ? 2 * s->cap : 16;
    struct held *v = realloc(s->v, cap * sizeof *v);
    if (!v) {
      s->free_item(item);
      return -1;
    }
    s->v = v;
    s->cap = cap;
  }
  s->v[s->n++] = (struct held){pid, item};
  return 0;
}

void *farm_store_take(farm_store *s, uint64_t pid)
{
  for (size_t k = 0; k < s->n; k++)
    if (s->v[k].pid == pid) {
      void *item = s->v[k].item;
      s->v[k] = s->v[--s->n];
      return item;
    }
  return NULL;
}

size_t farm_store_count(const farm_store *s) { return s->n; }

size_t farm_store_pids(const farm_store *s, uint64_t *pids, size_t cap)
{
  for (size_t k = 0; k < s->n && k < cap; k++) pids[k] = s->v[k].pid;
  return s->n;
}
