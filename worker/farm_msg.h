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
  X(FARM_EXITED, 7104, "EXITED")     /* pvmd -> master: pvm_notify TaskExit */

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
int farm_msg_send(int tid, int tag);

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

/* Count of messages dropped by farm_msg_recv in this process. */
long farm_msg_dropped(void);

#endif
