/* fuzz_check.h: what the harnesses assert beyond the sanitizers.  A
 * failed check prints where and aborts, which libFuzzer reports as a
 * crash with the input that caused it. */
#ifndef LB_FUZZ_CHECK_H
#define LB_FUZZ_CHECK_H

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define CHECK(c)                                                                                                       \
  do {                                                                                                                 \
    if (!(c)) {                                                                                                        \
      fprintf(stderr, "%s:%d: check failed: %s\n", __FILE__, __LINE__, #c);                                            \
      abort();                                                                                                         \
    }                                                                                                                  \
  } while (0)

#ifdef LB_TOPO_H
/* A graph's invariants: CSR offsets, sorted neighbour lists without self
 * loops, edges sorted i < j, each edge seen from both ends, a name. */
static inline void fuzz_check_topo(const lb_topo *t)
{
  CHECK(t->n >= 1 && t->off[0] == 0 && t->off[t->n] == 2 * t->m);
  CHECK(memchr(t->name, '\0', sizeof t->name) != NULL);
  for (size_t i = 0; i < t->n; i++) {
    CHECK(t->off[i] <= t->off[i + 1]);
    for (size_t k = t->off[i]; k < t->off[i + 1]; k++) {
      CHECK(t->nbr[k] < t->n && t->nbr[k] != i);
      CHECK(k == t->off[i] || t->nbr[k - 1] < t->nbr[k]);
    }
  }
  for (size_t k = 0; k < t->m; k++) {
    size_t i = t->edge[k][0], j = t->edge[k][1];
    CHECK(i < j && j < t->n);
    CHECK(k == 0 || t->edge[k - 1][0] < i || (t->edge[k - 1][0] == i && t->edge[k - 1][1] < j));
    CHECK(lb_topo_edge_index(t, i, j) == k && lb_topo_edge_index(t, j, i) == k);
  }
}
#endif

#endif
