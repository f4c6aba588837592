/* lb_proc.h: processes (tasks) and protocol messages of the balancing
 * policies.  Both are plain data with deep copy / free pairs, so the
 * simulator and the PVM worker can move them between nodes. */
#ifndef LB_PROC_H
#define LB_PROC_H

#include <stddef.h>
#include <stdint.h>

/* No node: an unset rmtv, an unknown route. */
#define LB_NO_NODE ((size_t)-1)

/* A process: identity, origin, remaining work (work units; a node of
 * speed s does s units per unit time) and the application's context. */
typedef struct lb_proc {
  uint64_t id;
  size_t origin;
  double work;
  unsigned char *ctx;
  size_t ctx_len;
} lb_proc;

int lb_proc_alloc(uint64_t id, size_t origin, double work, const void *ctx,
                  size_t ctx_len, lb_proc **out);
void lb_proc_free(lb_proc *p);
int lb_proc_copy(const lb_proc *p, lb_proc **out);
/* Replace the context with a copy of ctx[0..len-1]. */
int lb_proc_set_ctx(lb_proc *p, const void *ctx, size_t len);

typedef enum {
  /* RMTLB, seed 000 section 1.2 */
  LB_MSG_RM = 0,    /* request: hv, n = EPN still wanted */
  LB_MSG_AM,        /* answer: hv, lv, n = IPN offered, tag */
  LB_MSG_CM,        /* confirm: hv, lv, flag = AOR, n = DEPN, tag */
  LB_MSG_LMM,       /* load migration: hv, lv, flag = FON, n = total, procs */
  LB_MSG_DRM,       /* dealing result: hv, lv, tag, result */
  /* the other policies */
  LB_MSG_PROBE,     /* LOWEST: how loaded are you? */
  LB_MSG_REPLY,     /* LOWEST: n = my queue length, flag = I accept */
  LB_MSG_TRANSFER,  /* processes moved directly: procs */
  LB_MSG_LOAD,      /* DASUD / diffusion: load = my load, vals = extra */
  LB_MSG_INSTR,     /* DASUD: instruction, hv = who sends, lv = to whom, n */
  LB_MSG_REPORT,    /* CCHSPMD: n = my queue length, load = my speed */
  LB_MSG_ORDER,     /* CCHSPMD: vals = (dst, count) pairs to send */
  LB_MSG_RESULT,    /* a result sent straight to its origin */
  LB_MSG_NTYPES
} lb_msg_type;

/* One message.  `src` and `dst` are this hop's sender and receiver; the
 * other fields are used as the comment on each type says. */
typedef struct lb_msg {
  lb_msg_type type;
  size_t src, dst;
  size_t hv, lv;         /* originating heavy / answering light node */
  long n;                /* EPN, IPN, DEPN, a count or a queue length */
  int flag;              /* AOR, FON, accept */
  uint64_t tag;          /* transaction tag (RMTLB: chosen by the LV) */
  uint64_t round;        /* the sender's round / episode number */
  double load;           /* a load value; RM: the HV's Tmax (lock lease) */
  size_t nproc;          /* LMM / TRANSFER: processes carried (owned) */
  lb_proc **procs;
  uint64_t rid;          /* DRM / RESULT: process id, its origin, result */
  size_t rorigin;
  unsigned char *result;
  size_t result_len;
  size_t nval;           /* LOAD / ORDER: extra values (owned) */
  double *vals;
} lb_msg;

/* A zeroed message of the given type, with every node field LB_NO_NODE. */
int lb_msg_alloc(lb_msg_type type, size_t src, size_t dst, lb_msg **out);
void lb_msg_free(lb_msg *m);
int lb_msg_copy(const lb_msg *m, lb_msg **out);
/* Append a process (the message takes ownership of p on success). */
int lb_msg_add_proc(lb_msg *m, lb_proc *p);
/* Set the result of process id (origin): m takes the malloc'd buffer *r
 * (*r becomes NULL), without a copy; results are the bulk of what a node
 * relays. */
void lb_msg_take_result(lb_msg *m, uint64_t id, size_t origin, unsigned char **r, size_t len);
int lb_msg_set_vals(lb_msg *m, const double *v, size_t n);
/* Size on the wire in bytes: a fixed header plus blobs and values, for
 * the simulator's bandwidth cost. */
size_t lb_msg_size(const lb_msg *m);
const char *lb_msg_type_name(lb_msg_type t);

#endif
