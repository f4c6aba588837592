/* farm_wire.h: the task farm's own messages as bytes, with no PVM in
 * them, so each decoder can be tested and fuzzed on its own.
 *
 * Every farm message is an envelope and a body, fixed-width
 * little-endian (lb_wire.h):
 *
 *   u32 magic "LBF1"   u16 version   u16 tag - FARM_TAG_MIN
 *   u32 run            u32 body length
 *   u32 sender         u32 receiver        (transport ids: PVM task ids, MPI ranks)
 *   u64 sequence number
 *   u8[32] MAC         (farm_auth.h: over the 32 bytes above and the body)
 *
 * A policy message's body is an lb_codec message (lb_codec.h).  A
 * result's bytes travel as a payload: after the envelope a fixed head
 * (u64 pid, u32 origin, u32 host it ran on, u64 length, u8[32] the MAC
 * of the bytes), then the bytes, which a relay never unpacks
 * (lbpvm_payload.h); a payload's envelope is its maker's (receiver
 * FARM_ID_ANY, sequence 0) and its MAC covers the head, not the bytes.
 *
 * Each decoder checks every length, count, id and value against the
 * message's real size and the run's sizes before it acts, and returns
 * LB_EFORMAT with a message saying what is wrong. */
#ifndef FARM_WIRE_H
#define FARM_WIRE_H

#include <stddef.h>
#include <stdint.h>
#include "lb_node.h"
#include "app.h"

#define FARM_WIRE_MAGIC 0x3146424Cu /* "LBF1" */
#define FARM_WIRE_VERSION                                                                                              \
  7u /* 4: SETUP carries the parameters by name; 5: every message its MAC;
                                * 6: CLOCK, the trace's clock exchange;
                                * 7: HEARTBEAT and ECHO, and SETUP's test switch `silent` */
#define FARM_ENVELOPE     64u
#define FARM_ENV_SIGNED   32u /* the envelope's bytes before its MAC */
#define FARM_MAC_LEN      32u /* crypto_auth_hmacsha512256_BYTES */
#define FARM_KEY_LEN      32u /* crypto_auth_hmacsha512256_KEYBYTES */
#define FARM_PAYLOAD_HEAD 56u
#define FARM_MAX_HOSTS    4096
#define FARM_ID_ANY       0xFFFFFFFFu /* a payload's receiver: whoever holds it */

/* Tags: one table, one range, so a foreign tag is easy to spot. */
#define FARM_TAGS(X)                                                                                                   \
  X(FARM_SUM_REQ, 7101, "SUM_REQ")     /* master -> worker: int array */                                               \
  X(FARM_SUM_REP, 7102, "SUM_REP")     /* worker -> master: its sum */                                                 \
  X(FARM_QUIT, 7103, "QUIT")           /* master -> worker: exit now */                                                \
  X(FARM_EXITED, 7104, "EXITED")       /* pvmd: a task exited (pvm_notify) */                                          \
  X(FARM_SETUP, 7105, "SETUP")         /* master -> worker: host, VM, parameters */                                    \
  X(FARM_TASKS, 7106, "TASKS")         /* master -> worker: initial processes */                                       \
  X(FARM_PAYLOAD, 7107, "PAYLOAD")     /* worker -> worker: a result's bytes */                                        \
  X(FARM_HOSTDEL, 7108, "HOSTDEL")     /* pvmd: a host left the VM (pvm_notify) */                                     \
  X(FARM_RESULT, 7109, "RESULT")       /* worker -> master: a result's bytes */                                        \
  X(FARM_ORDER, 7110, "ORDER")         /* master -> worker: move K processes to host j */                              \
  X(FARM_STOP, 7111, "STOP")           /* master -> worker: all results in; report, exit */                            \
  X(FARM_REPORT, 7112, "REPORT")       /* worker -> master: counters and trace */                                      \
  X(FARM_LBMSG, 7113, "LBMSG")         /* worker -> worker: a policy message (lb_codec) */                             \
  X(FARM_DOWN, 7114, "DOWN")           /* master -> worker: hosts that failed; send an inventory */                    \
  X(FARM_INVENTORY, 7115, "INVENTORY") /* worker -> master: the processes it holds */                                  \
  X(FARM_LOST, 7116, "LOST")           /* worker -> master: a process it cannot run */                                 \
  X(FARM_CLOCK, 7117, "CLOCK")         /* master <-> worker: the trace's clock exchange */                             \
  X(FARM_HEARTBEAT, 7118, "HEARTBEAT") /* worker -> master: its lease renewed, its progress */                         \
  X(FARM_ECHO, 7119, "ECHO")           /* worker -> itself through its pvmd: the pvmd answers */

#define FARM_TAG_MIN 7101
#define FARM_NTAGS   19

enum farm_tag {
#define FARM_ENUM(name, val, str) name = val,
  FARM_TAGS(FARM_ENUM)
#undef FARM_ENUM
};

const char *farm_tag_name(int tag); /* NULL if not ours */

/* ---- envelope ---- */
typedef struct farm_envelope {
  int tag;
  uint32_t run, body_len;
  uint32_t from, to; /* sender and receiver, transport ids */
  uint64_t seq;      /* the sender's, increasing; 0 for a payload */
  unsigned char mac[FARM_MAC_LEN];
} farm_envelope;

/* Write an envelope (farm_auth_seal writes a message's own). */
void farm_envelope_put(unsigned char out[FARM_ENVELOPE], const farm_envelope *e);
/* Read an envelope and check it against the tag the transport reported
 * and the run (a RESULT's envelope says PAYLOAD). */
int farm_envelope_check(const unsigned char *buf, size_t len, int tag, uint32_t run, farm_envelope *e);
/* The whole length of a message whose envelope was written or checked
 * here: envelope and body. */
size_t farm_envelope_total(const unsigned char env[FARM_ENVELOPE]);
/* Every transport's check of a received message of `total` bytes that
 * its transport tagged `tag` and that begins with `env` (NULL when it
 * has none): a farm tag, an envelope that checks out, the announced
 * length the message's, a payload with its head.  0 and *e, or
 * LB_EFORMAT saying why the message must be dropped.  Whether it is
 * authentic is farm_auth_open's question, asked once the body (a
 * payload's head) is read. */
int farm_wire_accept(int tag, const unsigned char *env, size_t total, uint32_t run, farm_envelope *e);

/* ---- SETUP ----
 * u8[32] the run's key (first, where farm_auth_open finds it before the
 * rest is decoded: farm_auth.h; a QUIT's body is the key alone), u32
 * host, u32 hosts, u32 policy, f64 this host's speed, the parameters of
 * lb/lb_param.c by name (u16 count; each u8 name length, name, f64
 * value, checked against the table's range; every one exactly once),
 * the workload (u32 kind, u64 size, u64 processes, u64 seed), u32
 * throttle, u32 trace, u32 the test switches `wrong` and `silent`, f64
 * quantum, f64 start time, the hosts' task ids and the edges. */
typedef struct farm_setup {
  unsigned char key[FARM_KEY_LEN];
  uint32_t me, nhosts;
  lb_policy policy;
  lb_node_params par; /* prepared by the master; speed is this host's */
  app_workload w;
  uint32_t throttle; /* farm_throttle_mode */
  uint32_t trace;    /* collect the per-message trace */
  uint32_t wrong;    /* test path: every result this host makes is wrong */
  uint32_t silent;   /* test path: this host stops itself at STOP, unreported */
  double quantum_s;  /* CPU seconds per quantum */
  double t0;         /* the master's clock at the start (wall, s) */
  int32_t *tids;     /* nhosts tids, host order */
  uint32_t nedges;
  uint32_t (*edges)[2]; /* the whole topology */
} farm_setup;

int farm_setup_encode(const farm_setup *s, unsigned char **buf, size_t *len);
/* On success *s owns tids and edges: farm_setup_clear frees them. */
int farm_setup_decode(const unsigned char *buf, size_t len, farm_setup *s);
void farm_setup_clear(farm_setup *s);

/* ---- TASKS: processes as lb_proc (context = the app's task blob) ---- */
int farm_tasks_encode(lb_proc *const *p, size_t n, unsigned char **buf, size_t *len);
/* Every process's origin must be `host`; *p is a new array of n new
 * processes. */
int farm_tasks_decode(const unsigned char *buf, size_t len, uint32_t host, lb_proc ***p, size_t *n);

/* ---- ORDER ---- */
typedef struct farm_order {
  uint32_t dst;
  int64_t count;
} farm_order;
int farm_order_encode(const farm_order *o, unsigned char *buf, size_t cap, size_t *len);
int farm_order_decode(const unsigned char *buf, size_t len, uint32_t nhosts, farm_order *o);

/* ---- REPORT ---- */
enum {
  FARM_C_MIGRATED,
  FARM_C_MOVED_STARTED,
  FARM_C_CTX_BYTES,
  FARM_C_HOPS,
  FARM_C_INVOCATIONS,
  FARM_C_DROPPED,
  FARM_C_UNITS,
  FARM_C_FINISHED,
  FARM_C_RELAYED,
  FARM_C_RECEIVED,
  FARM_C_HOMED,
  FARM_C_DELIVERED,
  FARM_C_EPISODES,
  FARM_C_PLACED1, /* 7 counts: episodes placed by k = 1..7 floods (7: or more), lb_node_stats */
  FARM_C_DISSOLVED = FARM_C_PLACED1 + 7,
  FARM_C_SENT0 /* then FARM_NTAGS message counts */
};
#define FARM_NCOUNTERS (FARM_C_SENT0 + FARM_NTAGS)

typedef struct farm_report {
  uint32_t me, throttle;
  int64_t c[FARM_NCOUNTERS];
  int64_t lbsent[LB_MSG_NTYPES]; /* policy messages sent, by type */
  double busy, cpu, span, msg, idle;
  char *trace; /* rows of lb_rt_trace_header, '\n'-ended */
  size_t trace_len;
} farm_report;

int farm_report_encode(const farm_report *r, unsigned char **buf, size_t *len);
int farm_report_decode(const unsigned char *buf, size_t len, uint32_t nhosts, farm_report *r);
void farm_report_clear(farm_report *r);

/* ---- DOWN, INVENTORY, LOST (recovery, lb_sink.h) ---- */
/* DOWN: u64 epoch, u32 count, count host ids (every host down so far). */
int farm_down_encode(uint64_t epoch, const uint32_t *hosts, uint32_t n, unsigned char **buf, size_t *len);
int farm_down_decode(const unsigned char *buf, size_t len, uint32_t nhosts, uint64_t *epoch, uint32_t **hosts,
                     uint32_t *n);
/* INVENTORY: u64 epoch, u32 count, count process ids. */
int farm_inventory_encode(uint64_t epoch, const uint64_t *pids, uint32_t n, unsigned char **buf, size_t *len);
int farm_inventory_decode(const unsigned char *buf, size_t len, uint64_t nproc, uint64_t *epoch, uint64_t **pids,
                          uint32_t *n);
/* LOST: u64 pid. */
int farm_lost_encode(uint64_t pid, unsigned char *buf, size_t cap, size_t *len);
int farm_lost_decode(const unsigned char *buf, size_t len, uint64_t nproc, uint64_t *pid);

/* ---- CLOCK: how a host's trace times relate to the master's ----
 * The master asks (u32 round, u32 0, f64 its time); the worker answers
 * at once (u32 round, u32 1, f64 the master's time back, f64 its node
 * time, f64 its CLOCK_MONOTONIC, read together, u8[36] its kernel's
 * boot id, or zeros when unknown): master/master_trace.c. */
#define FARM_BOOT_ID_LEN 36
typedef struct farm_clock {
  uint32_t round;
  int reply;
  double master;                   /* s since the master's start, on its clock */
  double node, mono;               /* the worker's, in a reply */
  char boot[FARM_BOOT_ID_LEN + 1]; /* "" when unknown */
} farm_clock;
#define FARM_CLOCK_MAX (16u + 16u + FARM_BOOT_ID_LEN)
int farm_clock_encode(const farm_clock *c, unsigned char *buf, size_t cap, size_t *len);
/* Times finite; a boot id of [0-9a-f-] or all zeros. */
int farm_clock_decode(const unsigned char *buf, size_t len, farm_clock *c);

/* ---- HEARTBEAT: a host renews its lease (lb_lease.h) ----
 * u32 host, u64 quanta run, u64 units of work done, u64 processes it
 * holds (queued, and results not yet delivered). */
typedef struct farm_beat {
  uint32_t me;
  uint64_t quanta, units, held;
} farm_beat;
#define FARM_BEAT_LEN 28u
int farm_beat_encode(const farm_beat *b, unsigned char *buf, size_t cap, size_t *len);
int farm_beat_decode(const unsigned char *buf, size_t len, uint32_t nhosts, farm_beat *b);

/* ---- SUM_REQ / SUM_REP (the self-test) ---- */
int farm_sum_req_encode(const int32_t *v, uint32_t n, unsigned char **buf, size_t *len);
int farm_sum_req_decode(const unsigned char *buf, size_t len, int32_t **v, uint32_t *n);
int farm_sum_rep_encode(int64_t n, int64_t sum, unsigned char *buf, size_t cap, size_t *len);
int farm_sum_rep_decode(const unsigned char *buf, size_t len, int64_t *n, int64_t *sum);

/* ---- payload head ---- */
typedef struct farm_payload_head {
  uint64_t pid;
  uint32_t origin, exec; /* where it started, the host that ran it */
  uint64_t len;
  unsigned char digest[FARM_MAC_LEN]; /* the maker's MAC of the bytes (farm_auth.h) */
} farm_payload_head;
void farm_payload_head_put(unsigned char out[FARM_PAYLOAD_HEAD], const farm_payload_head *h);
int farm_payload_head_get(const unsigned char *buf, size_t len, uint32_t nhosts, farm_payload_head *h);

#endif
