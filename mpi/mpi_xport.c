/* mpi_xport.c: see mpi_xport.h. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <limits.h>
#include <time.h>
#include <mpi.h>
#include "mpi_xport.h"
#include "farm_store.h"
#include "lb_errno.h"
#include "cli.h"

typedef struct pend {
  MPI_Request req;
  unsigned char *buf;
} pend;

typedef struct xmpi {
  uint32_t run;
  farm_auth *auth;
  pend *pv; /* sends under way */
  size_t np, capp;
  farm_store *store; /* payloads held here: envelope, head, bytes */
  int ended;         /* ranks the master took for failed (kill) */
} xmpi;

/* Free the buffers of the sends that completed. */
static void progress(xmpi *p)
{
  for (size_t k = 0; k < p->np;) {
    int done = 0;
    MPI_Test(&p->pv[k].req, &done, MPI_STATUS_IGNORE);
    if (!done) {
      k++;
      continue;
    }
    free(p->pv[k].buf);
    p->pv[k] = p->pv[--p->np];
  }
}

/* Send buf[0..len-1] (taken: freed once sent) with `tag` to rank id. */
static int post(xmpi *p, int id, int tag, unsigned char *buf, size_t len)
{
  if (len > INT_MAX) {
    free(buf);
    return -1;
  }
  if (p->np == p->capp) {
    size_t cap = p->capp ? 2 * p->capp : 64;
    pend *v = realloc(p->pv, cap * sizeof *v);
    if (!v) {
      free(buf);
      return -1;
    }
    p->pv = v;
    p->capp = cap;
  }
  pend *e = &p->pv[p->np];
  e->buf = buf;
  if (MPI_Isend(buf, (int)len, MPI_BYTE, id, tag, MPI_COMM_WORLD, &e->req) != MPI_SUCCESS) {
    free(buf);
    return -1;
  }
  p->np++;
  farm_msg_count_sent(tag, (long)len);
  progress(p);
  return 0;
}

static int x_send(void *ctx, int id, int tag, const void *body, size_t len)
{
  xmpi *p = ctx;
  unsigned char *buf = malloc(FARM_ENVELOPE + len);
  if (!buf) return -1;
  farm_auth_seal(p->auth, buf, tag, p->run, (uint32_t)id, body, len);
  if (len) memcpy(buf + FARM_ENVELOPE, body, len);
  return post(p, id, tag, buf, FARM_ENVELOPE + len);
}

static void drop(int src, int tag, const char *why)
{
  farm_msg_count_dropped();
  fprintf(stderr, "%s: dropped a message from rank %d with tag %d: %s\n", cli_prog(), src, tag, why);
}

/* One probed message, checked as every transport does (farm_wire_accept,
 * farm_auth_open): 1 with *in filled, 0 when it was dropped. */
static int take(xmpi *p, const MPI_Status *st, farm_in *in)
{
  int n = 0, src = st->MPI_SOURCE, tag = st->MPI_TAG;
  MPI_Get_count(st, MPI_BYTE, &n);
  unsigned char *buf = malloc(n > 0 ? (size_t)n : 1);
  if (!buf) {
    MPI_Recv(NULL, 0, MPI_BYTE, src, tag, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    drop(src, tag, "out of memory");
    return 0;
  }
  MPI_Recv(buf, n, MPI_BYTE, src, tag, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
  farm_envelope e;
  int payload = tag == FARM_PAYLOAD || tag == FARM_RESULT;
  if (farm_wire_accept(tag, n >= (int)FARM_ENVELOPE ? buf : NULL, (size_t)n, p->run, &e) ||
      farm_auth_open(p->auth, tag, (uint32_t)src, buf, buf + FARM_ENVELOPE, payload ? FARM_PAYLOAD_HEAD : e.body_len)) {
    drop(src, tag, lb_errmsg());
    free(buf);
    return 0;
  }
  size_t blen = e.body_len;
  *in = (farm_in){.tag = tag, .src = src, .seq = e.seq};
  if (payload) {
    /* The head to read; the whole message kept to hold or forward. */
    in->body = malloc(FARM_PAYLOAD_HEAD);
    if (!in->body) {
      drop(src, tag, "out of memory");
      free(buf);
      return 0;
    }
    memcpy(in->body, buf + FARM_ENVELOPE, FARM_PAYLOAD_HEAD);
    in->len = FARM_PAYLOAD_HEAD;
    in->raw = buf;
    in->raw_len = (size_t)n;
  } else {
    memmove(buf, buf + FARM_ENVELOPE, blen);
    in->body = buf;
    in->len = blen;
  }
  return 1;
}

/* MPI has no receive that waits without spinning on the CPU, which a
 * throttled host must not spend: probe, spinning for the first SPIN_S
 * (an answer in flight comes at once), then sleeping from 10 us up to
 * NAP_MAX_NS between probes. */
#define SPIN_S     100e-6
#define NAP_MAX_NS 250000L
static int x_recv(void *ctx, int id, int tag, double timeout_s, farm_in *in)
{
  xmpi *p = ctx;
  double t0 = cli_now(), end = t0 + (timeout_s > 0 ? timeout_s : 0);
  long nap = 10000;
  for (;;) {
    progress(p);
    int flag = 0;
    MPI_Status st;
    if (MPI_Iprobe(id < 0 ? MPI_ANY_SOURCE : id, tag < 0 ? MPI_ANY_TAG : tag, MPI_COMM_WORLD, &flag, &st) !=
        MPI_SUCCESS)
      return -1;
    if (flag) {
      if (take(p, &st, in)) return 1;
      continue;
    }
    double t = cli_now(), left = end - t;
    if (timeout_s == 0 || (timeout_s > 0 && left <= 0)) return 0;
    if (t - t0 < SPIN_S) continue;
    if (timeout_s > 0 && left * 1e9 < nap) nap = (long)(left * 1e9) + 1;
    struct timespec ts = {0, nap};
    nanosleep(&ts, NULL);
    if (nap < NAP_MAX_NS) nap *= 2;
  }
}

static void x_clear(void *ctx, farm_in *in)
{
  (void)ctx;
  free(in->body);
  free(in->raw);
  in->body = NULL;
  in->raw = NULL;
}

static int x_hold(void *ctx, const farm_payload_head *h, const void *blob)
{
  xmpi *p = ctx;
  size_t len = FARM_ENVELOPE + FARM_PAYLOAD_HEAD + h->len;
  unsigned char *buf = malloc(len);
  if (!buf) return -1;
  farm_payload_head sealed = *h;
  farm_auth_seal_payload(p->auth, buf, buf + FARM_ENVELOPE, p->run, &sealed, blob);
  memcpy(buf + FARM_ENVELOPE + FARM_PAYLOAD_HEAD, blob, h->len);
  return farm_store_put(p->store, h->pid, buf);
}

static int x_keep(void *ctx, uint64_t pid, farm_in *in)
{
  unsigned char *buf = in->raw;
  in->raw = NULL;
  return buf ? farm_store_put(((xmpi *)ctx)->store, pid, buf) : -1;
}

/* The bytes go on as they came; the envelope says PAYLOAD whatever the
 * tag (RESULT to the master). */
static long x_forward(void *ctx, uint64_t pid, int id, int tag)
{
  xmpi *p = ctx;
  unsigned char *buf = farm_store_take(p->store, pid);
  if (!buf) return -1;
  size_t len = farm_envelope_total(buf);
  return post(p, id, tag, buf, len) ? -2 : (long)len;
}

static int x_drop(void *ctx, uint64_t pid)
{
  unsigned char *buf = farm_store_take(((xmpi *)ctx)->store, pid);
  if (!buf) return -1;
  free(buf);
  return 0;
}

static size_t x_held(void *ctx, uint64_t *pids, size_t cap) { return farm_store_pids(((xmpi *)ctx)->store, pids, cap); }

static int x_read(void *ctx, farm_in *in, void *buf, size_t len)
{
  (void)ctx;
  if (!in->raw || in->raw_len != FARM_ENVELOPE + FARM_PAYLOAD_HEAD + len) return -1;
  memcpy(buf, (unsigned char *)in->raw + FARM_ENVELOPE + FARM_PAYLOAD_HEAD, len);
  return 0;
}

static int x_junk(void *ctx, int id, int kind)
{
  unsigned char *buf = malloc(FARM_ENVELOPE);
  if (!buf) return -1;
  farm_envelope_put(buf, &(farm_envelope){.tag = FARM_TASKS});
  if (kind) buf[0] ^= 0xff;
  return post(ctx, id, kind ? FARM_LBMSG : 4242, buf, FARM_ENVELOPE);
}

/* MPI cannot end one rank: the master's order is remembered, and lbmpi
 * ends the job once the run is written (a frozen rank would hold
 * MPI_Finalize for ever). */
static void x_kill(void *ctx, int id)
{
  (void)id;
  ((xmpi *)ctx)->ended++;
}

int mpi_xport_ended(const farm_xport *x) { return x->ctx ? ((const xmpi *)x->ctx)->ended : 0; }

int mpi_xport_init(farm_xport *x, uint32_t run, farm_auth *auth)
{
  xmpi *p = calloc(1, sizeof *p);
  if (!p || farm_store_alloc(free, &p->store)) {
    free(p);
    return -1;
  }
  p->run = run;
  p->auth = auth;
  /* No notices: a rank that dies ends the job. */
  *x = (farm_xport){.ctx = p,
                    .run = run,
                    .auth = auth,
                    .send = x_send,
                    .recv = x_recv,
                    .clear = x_clear,
                    .junk = x_junk,
                    .hold = x_hold,
                    .keep = x_keep,
                    .forward = x_forward,
                    .held = x_held,
                    .drop = x_drop,
                    .read = x_read,
                    .kill = x_kill};
  return 0;
}

int mpi_xport_free(farm_xport *x, double wait_s)
{
  xmpi *p = x->ctx;
  if (!p) return 0;
  double end = cli_now() + wait_s;
  struct timespec ts = {0, 1000000};
  while (p->np && cli_now() < end) {
    progress(p);
    if (p->np) nanosleep(&ts, NULL);
  }
  int left = (int)p->np;
  if (!left) free(p->pv); /* else the requests may still read their buffers */
  farm_store_free(p->store);
  free(p);
  x->ctx = NULL;
  return left;
}
