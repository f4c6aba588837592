/* farm_msg.h: the one place where lbfarm's PVM messages are packed and
 * checked.  Every message starts with the same header:
 *
 *   int magic   FARM_MAGIC ("LBFM")
 *   int version FARM_VERSION
 *   int run     the run identifier chosen by the master
 *   int items   number of body values that follow, for a length check
 *
 * A message whose tag is not in the table, or whose header, run or
 * length does not check out, is logged and dropped; it never reaches
 * the protocol code and never crashes the receiver. */
#ifndef FARM_MSG_H
#define FARM_MSG_H

#include <stddef.h>

#define FARM_MAGIC 0x4C42464D
#define FARM_VERSION 1

/* Tags: one table, one range, so a foreign tag is easy to spot. */
#define FARM_TAGS(X)                                                         \
  X(FARM_SUM_REQ, 7101, "SUM_REQ")   /* master -> worker: int array */     \
  X(FARM_SUM_REP, 7102, "SUM_REP")   /* worker -> master: its sum */       \
  X(FARM_QUIT, 7103, "QUIT")         /* master -> worker: exit */          \
  X(FARM_EXITED, 7104, "EXITED")     /* pvmd -> master: pvm_notify TaskExit */ \
  X(FARM_SETUP, 7105, "SETUP")       /* master -> worker: host, neighbours, parameters */ \
  X(FARM_TASKS, 7106, "TASKS")       /* master -> worker: initial processes */ \
  X(FARM_LMM, 7107, "LMM")           /* worker -> worker: migrating processes */ \
  X(FARM_DRM, 7108, "DRM")           /* worker -> origin worker: a result */ \
  X(FARM_RESULT, 7109, "RESULT")     /* origin worker -> master: a result */ \
  X(FARM_ORDER, 7110, "ORDER")       /* master -> worker: move K processes to host j */ \
  X(FARM_STOP, 7111, "STOP")         /* master -> worker: all results in; report, exit */ \
  X(FARM_REPORT, 7112, "REPORT")     /* worker -> master: counters and trace */ \
  X(FARM_LBMSG, 7113, "LBMSG")       /* worker -> worker: a policy message (lb_msg) */

/* Tags run from FARM_TAG_MIN to FARM_TAG_MIN + FARM_NTAGS - 1. */
#define FARM_TAG_MIN 7101
#define FARM_NTAGS 13

enum farm_tag {
#define FARM_ENUM(name, val, str) name = val,
  FARM_TAGS(FARM_ENUM)
#undef FARM_ENUM
};

const char *farm_tag_name(int tag);   /* NULL if not ours */

/* Start a message: pvm_initsend + header.  Returns 0 or a PVM error. */
int farm_msg_begin(int run, int items);
/* Pack body values (count each call); PVM status. */
int farm_msg_pk_int(const int *v, int n);
/* 64-bit integers travel as (hi, lo) pairs of 32-bit words: PVM's XDR
 * pklong carries only 32 bits and silently truncates. */
int farm_msg_pk_i64(const long long *v, int n);
int farm_msg_pk_double(const double *v, int n);
/* Pack a byte string; counts (len+3)/4 items (XDR pads to words). */
int farm_msg_pk_bytes(const void *v, int len);
int farm_msg_upk_bytes(void *v, int len);
static inline int farm_msg_words(long bytes) { return (int)((bytes + 3) / 4); }
int farm_msg_send(int tid, int tag);

/* Messages and bytes sent by this process, per tag (0 for foreign). */
long farm_msg_sent(int tag);
long farm_msg_sent_bytes(int tag);
/* Called after every successful send (e.g. to write a trace). */
void farm_msg_on_send(void (*cb)(int tid, int tag, int bytes, void *arg), void *arg);

/* A received, header-checked message. */
typedef struct farm_in {
  int tag;
  int src;       /* sender tid */
  int items;     /* body values announced in the header */
  int bytes;     /* buffer size reported by PVM */
} farm_in;

/* Wait (timeout_s < 0: forever, 0: poll) for a message from `tid`
 * (-1 any) with `tag` (-1 any).  Foreign or malformed messages are
 * logged to stderr with the program name and dropped, and waiting goes
 * on.  Returns 1 with *in filled, 0 on timeout, < 0 on a PVM error. */
int farm_msg_recv(int run, int tid, int tag, double timeout_s, farm_in *in);

/* Unpack from the current receive buffer; 0 or a PVM error (also when
 * the body is shorter than announced). */
int farm_msg_upk_int(int *v, int n);
int farm_msg_upk_i64(long long *v, int n);
int farm_msg_upk_double(double *v, int n);

/* Send a raw message with no header check (tests of the drop path:
 * `kind` 0 = a foreign tag, 1 = one of ours with a bad magic). */
int farm_msg_send_junk(int tid, int kind);

/* Count of messages dropped by farm_msg_recv in this process. */
long farm_msg_dropped(void);

#endif
