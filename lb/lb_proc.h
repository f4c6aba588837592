/* lb_proc.h: processes (tasks), result references and protocol messages
 * of the balancing policies.  All are plain data with alloc / copy /
 * free, so the simulator and the PVM worker can move them between nodes;
 * lb_codec.h turns a message into bytes and back.  Their blocks come
 * from the thread's allocator (lb_mem.h).
 *
 * A message is a tagged union: `type` says which member of `u` is valid,
 * and each member names its fields as the policy that sends it does.
 * Three owned parts sit beside the union: the processes an LMM or a
 * TRANSFER carries, the (destination, count) pairs of an ORDER, and the
 * result reference of a DRM or a RESULT. */
#ifndef LB_PROC_H
#define LB_PROC_H

#include <stddef.h>
#include <stdint.h>

/* No node: an unset rmtv, an unknown route. */
#define LB_NO_NODE ((size_t)-1)

/* A process: identity, origin, remaining work (work units; a node of
 * speed s does s units per unit time), the quanta it has run and the
 * links it has crossed, and the application's context.  The context is
 * kept in the process's own allocation, right after it, while it fits
 * the room made there at lb_proc_alloc; read it through ctx, and change
 * it only with lb_proc_set_ctx.
 *
 * `work` is what the driver knows to be left: in the simulator the true
 * work, which no real host knows (a policy that reads it is an oracle);
 * on the farm the application's own estimate (apps/app.h).  What any
 * host knows is `est`, the work the application declared for the whole
 * process when it made it (0: none), and `ran`, the work the nodes have
 * run of it so far (each adds what it ran).  Single precision: they are
 * estimates and their tallies.
 *
 * 56 bytes, so that a process with the simulator's 8-byte context is
 * one cache line: a context is below 4 GiB (the codec carries its
 * length in 32 bits). */
typedef struct lb_proc {
  uint64_t id;
  size_t origin;
  double work;
  unsigned char *ctx;
  uint32_t quanta; /* > 0: it has started */
  uint32_t hops;
  float est; /* declared work of the whole process, 0: none */
  float ran; /* work run so far, on every node */
  uint32_t ctx_len;
  uint32_t ctx_room; /* bytes of room after the struct */
} lb_proc;

int lb_proc_alloc(uint64_t id, size_t origin, double work, const void *ctx, size_t ctx_len, lb_proc **out);
/* The same for a context of ctx_len bytes whose first `head` are ctx's
 * and the rest zeros (a simulated process's padding): a large zero tail
 * is not written (lb_mem_calloc). */
int lb_proc_alloc_head(uint64_t id, size_t origin, double work, const void *ctx, size_t head, size_t ctx_len,
                       lb_proc **out);
void lb_proc_free(lb_proc *p);
int lb_proc_copy(const lb_proc *p, lb_proc **out);
/* Replace the context with a copy of ctx[0..len-1]. */
int lb_proc_set_ctx(lb_proc *p, const void *ctx, size_t len);

/* The result of a finished process, by reference: its bytes stay with
 * the driver (the simulator's store, the worker's PVM buffer).  When
 * `payload` is set the bytes travel with the message that carries the
 * reference; otherwise the reference is a receipt. */
typedef struct lb_result_ref {
  uint64_t pid;
  size_t origin;
  uint64_t len;
  int payload;
} lb_result_ref;

typedef enum {
  /* RMTLB, seed 000 section 1.2 */
  LB_MSG_RM = 0,
  LB_MSG_AM,
  LB_MSG_CM,
  LB_MSG_LMM,
  LB_MSG_DRM,
  /* the other policies */
  LB_MSG_PROBE,    /* LOWEST: how loaded are you? */
  LB_MSG_REPLY,    /* LOWEST: my queue length */
  LB_MSG_TRANSFER, /* processes moved directly */
  LB_MSG_LOAD,     /* DASUD / diffusion: my queue length */
  LB_MSG_INSTR,    /* DASUD: send me one process */
  LB_MSG_REPORT,   /* CCHSPMD: my load and books, to the controller */
  LB_MSG_ORDER,    /* CCHSPMD: (destination, count) pairs to send */
  LB_MSG_RESULT,   /* a result (or its receipt) sent straight to its origin */
  LB_MSG_ABORT,    /* RMTLB: a transaction broken by a failed node; its records go */
  LB_MSG_POLICY,   /* any other policy's own message (lb_policy.h): a kind
                     * the policy defines, a tag and two counts */
  LB_MSG_NTYPES
} lb_msg_type;

typedef struct lb_pair {
  size_t node;
  long count;
} lb_pair;

typedef struct lb_msg {
  lb_msg_type type;
  uint32_t trace_id;       /* its number in the trace (lb_trace.h), given by
                        * the runtime as it is sent; not on the wire */
  size_t src, dst;         /* the node that sent it and the one it is for */
  size_t hop_src, hop_dst; /* this link: the same, or a step of the way
                             * when it goes through other nodes */
  union {
    struct {
      size_t hv;
      long epn;
      uint64_t round;
      double lease;
    } rm;
    struct {
      size_t hv, lv;
      uint64_t tag;
      long ipn;
      uint32_t hops;
    } am;
    struct {
      size_t hv, lv;
      uint64_t tag;
      int aor;
      long depn;
    } cm;
    struct {
      size_t hv, lv;
      uint64_t tag;
      int fon;
      long total;
    } lmm;
    struct {
      size_t hv, lv;
      uint64_t tag;
      int fon;
    } drm;
    struct {
      size_t hv, lv;
      uint64_t tag;
    } abort;
    struct {
      uint32_t epoch;
    } order;
    struct {
      uint64_t round;
    } probe;
    struct {
      uint64_t round;
      long q;
    } reply;
    struct {
      long ordered;
      uint32_t epoch;
    } transfer;
    struct {
      long q;
    } load;
    struct {
      long min;
    } instr;
    struct {
      long q;
      double speed;
      long in, out;
      uint32_t epoch;
    } report;
    /* kind: the policy's own message type (below LB_MSG_POLICY_KINDS);
     * tag: its round or transaction; a, b: counts (0 .. the codec's
     * max_count) */
    struct {
      uint32_t kind;
      uint64_t tag;
      long a, b;
    } pol;
  } u;
  size_t nproc; /* LMM, TRANSFER: processes carried (owned) */
  lb_proc **procs;
  size_t npair; /* ORDER (owned) */
  lb_pair *pairs;
  size_t capproc, cappair; /* room in procs and pairs (lb_proc.c's) */
  lb_result_ref res;       /* DRM, RESULT */
} lb_msg;

/* A zeroed message of the given type; every node field of the union is
 * LB_NO_NODE and res.origin too. */
int lb_msg_alloc(lb_msg_type type, size_t src, size_t dst, lb_msg **out);
void lb_msg_free(lb_msg *m);
int lb_msg_copy(const lb_msg *m, lb_msg **out);
/* Append a process (the message takes ownership of p on success). */
int lb_msg_add_proc(lb_msg *m, lb_proc *p);
int lb_msg_add_pair(lb_msg *m, size_t node, long count);
/* The kinds of LB_MSG_POLICY a decoder accepts: 0 .. this - 1. */
#define LB_MSG_POLICY_KINDS 64u
/* Does this type carry processes, a result reference? */
int lb_msg_type_has_procs(lb_msg_type t);
int lb_msg_type_has_result(lb_msg_type t);
/* Bytes on the wire: the encoded message (lb_codec.h) plus the result
 * bytes that travel with it; the simulator's bandwidth cost. */
size_t lb_msg_size(const lb_msg *m);
const char *lb_msg_type_name(lb_msg_type t);

#endif
