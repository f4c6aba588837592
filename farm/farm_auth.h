/* farm_auth.h: every farm message authenticated under a key of the run,
 * for any transport: sealed by the sender, checked by the receiver
 * before anything acts on it.  libsodium's crypto_auth primitive
 * (HMAC-SHA-512-256) computes every MAC; nothing here is hand-made
 * cryptography.
 *
 * A message's MAC covers its envelope (tag, run, body length, sender,
 * receiver, sequence number) and its body.  A receiver takes a message
 * only when the MAC is right, it is the receiver named, the sender named
 * is the one its transport reports, and the sequence number is above the
 * last it took from that sender (PVM and MPI keep the order between two
 * tasks, so a replayed or reordered copy is refused).
 *
 * A result's payload is relayed unopened, so it carries its maker's
 * MACs instead: the envelope's covers the head (pid, origin, the host
 * that ran it, length) and in it the MAC of the bytes, which the master
 * checks when it reads them (farm_auth_check_bytes).
 *
 * The key (docs/FARM.md): the master draws it; a PVM worker is spawned
 * with only its commitment (BLAKE2b-256 of the key, crypto_generichash)
 * and takes the key from the first SETUP or QUIT whose body starts with
 * a key of that commitment and whose MAC that key verifies; an MPI rank
 * gets it from rank 0.  Until then a worker takes nothing else but the
 * self-test's SUM_REQ, which carries no part of a run: SUM_REQ and
 * SUM_REP are not authenticated. */
#ifndef FARM_AUTH_H
#define FARM_AUTH_H

#include <stddef.h>
#include <stdint.h>
#include "farm_wire.h"

#define FARM_COMMIT_HEX (2 * FARM_KEY_LEN + 1) /* a commitment as hex, with its NUL */

typedef struct farm_auth farm_auth;

/* One task's state: `self` is its id in the transport (PVM task id, MPI
 * rank).  LB_ENOMEM, or LB_EINVAL when libsodium cannot start. */
int farm_auth_alloc(uint32_t self, farm_auth **out);
/* Wipes the key. */
void farm_auth_free(farm_auth *a);
uint32_t farm_auth_self(const farm_auth *a);

/* The master: a fresh random key (randombytes_buf). */
void farm_auth_draw(farm_auth *a);
/* An MPI rank: the key rank 0 sent. */
void farm_auth_set_key(farm_auth *a, const unsigned char key[FARM_KEY_LEN]);
/* A PVM worker: only a key of this commitment will be taken. */
void farm_auth_expect(farm_auth *a, const unsigned char commit[FARM_KEY_LEN]);
int farm_auth_has_key(const farm_auth *a);
/* The key (NULL without one): SETUP and QUIT carry it to its worker. */
const unsigned char *farm_auth_key(const farm_auth *a);
/* The commitment to the key, and as lower-case hex; parse one: 0 or
 * LB_EFORMAT. */
void farm_auth_commit(const farm_auth *a, unsigned char out[FARM_KEY_LEN]);
void farm_auth_commit_hex(const farm_auth *a, char out[FARM_COMMIT_HEX]);
int farm_auth_commit_parse(const char *hex, unsigned char out[FARM_KEY_LEN]);

/* The sequence number the next sealed message will carry: its number
 * in the trace (lb_trace.h). */
uint64_t farm_auth_next_seq(const farm_auth *a);
/* The sealed envelope of a message of `len` body bytes with `tag` to
 * `to`: the next sequence number and the MAC (zero without a key). */
void farm_auth_seal(farm_auth *a, unsigned char env[FARM_ENVELOPE], int tag, uint32_t run, uint32_t to,
                    const void *body, size_t len);
/* A new result payload's envelope and head: h->digest gets the MAC of
 * bytes[0..h->len-1], the envelope (sender this task, receiver
 * FARM_ID_ANY, sequence 0) the MAC of itself and the head. */
void farm_auth_seal_payload(const farm_auth *a, unsigned char env[FARM_ENVELOPE], unsigned char head[FARM_PAYLOAD_HEAD],
                            uint32_t run, farm_payload_head *h, const void *bytes);
/* A received message that farm_wire_accept took: its transport's tag
 * and sender `src`, its envelope env[0..FARM_ENVELOPE-1], and body[0..len-1]
 * (for PAYLOAD and RESULT, the head only).  0 when it is authentic and
 * new (the sender's sequence number is then recorded, and a worker's
 * first SETUP or QUIT gives it the key); else LB_EFORMAT saying why it
 * must be dropped. */
int farm_auth_open(farm_auth *a, int tag, uint32_t src, const unsigned char *env, const unsigned char *body,
                   size_t len);
/* The bytes of a payload whose head farm_auth_open took: 0 when they
 * are the ones its maker's MAC names, else LB_EFORMAT. */
int farm_auth_check_bytes(const farm_auth *a, const farm_payload_head *h, const void *bytes, size_t len);
/* Overwrite a copy of the key (sodium_memzero). */
void farm_auth_wipe(void *p, size_t n);

#endif
