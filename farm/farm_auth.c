/* farm_auth.c: see farm_auth.h. */
#include <stdlib.h>
#include <string.h>
#include <sodium.h>
#include "farm_auth.h"
#include "lb_errno.h"
#include "lb_wire.h"

/* The last sequence number taken from each sender.  Only a message that
 * passed its MAC adds a sender, so the table holds the run's tasks. */
typedef struct last {
  uint32_t id;
  uint64_t seq;
} last;

struct farm_auth {
  uint32_t self;
  uint64_t seq; /* the last one this task sent */
  int has_key, has_commit;
  unsigned char key[FARM_KEY_LEN];
  unsigned char commit[FARM_KEY_LEN];
  last *v;
  size_t n, cap;
};

/* A result's bytes are MAC'd behind this label, so their MAC can never
 * be taken for a message's (whose input starts with the envelope). */
static const unsigned char BYTES_LABEL[4] = {'L', 'B', 'F', 'R'};

typedef crypto_auth_hmacsha512256_state mac_state;

static void mac2(const unsigned char *key, const void *a, size_t na, const void *b, size_t nb,
                 unsigned char out[FARM_MAC_LEN])
{
  mac_state st;
  crypto_auth_hmacsha512256_init(&st, key, FARM_KEY_LEN);
  crypto_auth_hmacsha512256_update(&st, a, na);
  if (nb) crypto_auth_hmacsha512256_update(&st, b, nb);
  crypto_auth_hmacsha512256_final(&st, out);
  sodium_memzero(&st, sizeof st);
}

int farm_auth_alloc(uint32_t self, farm_auth **out)
{
  *out = NULL;
  if (sodium_init() < 0) return lb_error(LB_EINVAL, "libsodium cannot start");
  farm_auth *a = calloc(1, sizeof *a);
  if (!a) return lb_error(LB_ENOMEM, "message keys");
  a->self = self;
  *out = a;
  return LB_SUCCESS;
}

void farm_auth_free(farm_auth *a)
{
  if (!a) return;
  sodium_memzero(a->key, sizeof a->key);
  free(a->v);
  free(a);
}

uint32_t farm_auth_self(const farm_auth *a) { return a->self; }
int farm_auth_has_key(const farm_auth *a) { return a->has_key; }
const unsigned char *farm_auth_key(const farm_auth *a) { return a->has_key ? a->key : NULL; }

void farm_auth_draw(farm_auth *a)
{
  randombytes_buf(a->key, FARM_KEY_LEN);
  a->has_key = 1;
}

void farm_auth_set_key(farm_auth *a, const unsigned char key[FARM_KEY_LEN])
{
  memcpy(a->key, key, FARM_KEY_LEN);
  a->has_key = 1;
}

void farm_auth_expect(farm_auth *a, const unsigned char commit[FARM_KEY_LEN])
{
  memcpy(a->commit, commit, FARM_KEY_LEN);
  a->has_commit = 1;
}

static void commit_of(const unsigned char key[FARM_KEY_LEN], unsigned char out[FARM_KEY_LEN])
{
  crypto_generichash(out, FARM_KEY_LEN, key, FARM_KEY_LEN, NULL, 0);
}

void farm_auth_commit(const farm_auth *a, unsigned char out[FARM_KEY_LEN])
{
  if (a->has_key) commit_of(a->key, out);
  else memcpy(out, a->commit, FARM_KEY_LEN);
}

void farm_auth_commit_hex(const farm_auth *a, char out[FARM_COMMIT_HEX])
{
  unsigned char c[FARM_KEY_LEN];
  farm_auth_commit(a, c);
  sodium_bin2hex(out, FARM_COMMIT_HEX, c, FARM_KEY_LEN);
}

int farm_auth_commit_parse(const char *hex, unsigned char out[FARM_KEY_LEN])
{
  size_t n = 0;
  const char *end;
  if (strlen(hex) != 2 * FARM_KEY_LEN || sodium_hex2bin(out, FARM_KEY_LEN, hex, strlen(hex), NULL, &n, &end) ||
      n != FARM_KEY_LEN || *end)
    return lb_error(LB_EFORMAT, "a key commitment is %u hexadecimal digits", 2 * FARM_KEY_LEN);
  return LB_SUCCESS;
}

uint64_t farm_auth_next_seq(const farm_auth *a) { return a->seq + 1; }

void farm_auth_seal(farm_auth *a, unsigned char env[FARM_ENVELOPE], int tag, uint32_t run, uint32_t to,
                    const void *body, size_t len)
{
  farm_envelope e = {.tag = tag, .run = run, .body_len = (uint32_t)len, .from = a->self, .to = to, .seq = ++a->seq};
  farm_envelope_put(env, &e);
  if (a->has_key) mac2(a->key, env, FARM_ENV_SIGNED, body, len, env + FARM_ENV_SIGNED);
}

void farm_auth_seal_payload(const farm_auth *a, unsigned char env[FARM_ENVELOPE], unsigned char head[FARM_PAYLOAD_HEAD],
                            uint32_t run, farm_payload_head *h, const void *bytes)
{
  memset(h->digest, 0, FARM_MAC_LEN);
  if (a->has_key) mac2(a->key, BYTES_LABEL, sizeof BYTES_LABEL, bytes, h->len, h->digest);
  farm_payload_head_put(head, h);
  farm_envelope e = {.tag = FARM_PAYLOAD,
                     .run = run,
                     .body_len = (uint32_t)(FARM_PAYLOAD_HEAD + h->len),
                     .from = a->self,
                     .to = FARM_ID_ANY,
                     .seq = 0};
  farm_envelope_put(env, &e);
  if (a->has_key) mac2(a->key, env, FARM_ENV_SIGNED, head, FARM_PAYLOAD_HEAD, env + FARM_ENV_SIGNED);
}

static int mac_ok(const unsigned char *key, const unsigned char *env, const void *body, size_t len)
{
  unsigned char m[FARM_MAC_LEN];
  mac2(key, env, FARM_ENV_SIGNED, body, len, m);
  return sodium_memcmp(m, env + FARM_ENV_SIGNED, FARM_MAC_LEN) == 0;
}

static last *last_of(farm_auth *a, uint32_t id)
{
  for (size_t k = 0; k < a->n; k++)
    if (a->v[k].id == id) return &a->v[k];
  return NULL;
}

/* Record seq as the last one taken from `id`. */
static int took(farm_auth *a, uint32_t id, uint64_t seq)
{
  last *l = last_of(a, id);
  if (!l) {
    if (a->n == a->cap) {
      size_t cap = a->cap ? 2 * a->cap : 16;
      last *v = realloc(a->v, cap * sizeof *v);
      if (!v) return lb_error(LB_ENOMEM, "sequence numbers");
      a->v = v;
      a->cap = cap;
    }
    l = &a->v[a->n++];
    l->id = id;
  }
  l->seq = seq;
  return LB_SUCCESS;
}

int farm_auth_open(farm_auth *a, int tag, uint32_t src, const unsigned char *env, const unsigned char *body, size_t len)
{
  farm_envelope e;
  int etag = tag == FARM_RESULT ? FARM_PAYLOAD : tag;
  /* Read again: farm_wire_accept checked it, its run included. */
  lb_rbuf r = {env + 8, 4, 0, 0};
  if (farm_envelope_check(env, FARM_ENVELOPE, etag, lb_r_u32(&r), &e)) return LB_EFORMAT;
  /* The self-test's: a worker answers it before it has the key. */
  if (tag == FARM_SUM_REQ || tag == FARM_SUM_REP) return LB_SUCCESS;
  if (tag == FARM_PAYLOAD || tag == FARM_RESULT) {
    /* Its maker's: it may come from any host on its way. */
    if (!a->has_key) return lb_error(LB_EFORMAT, "a result before the run's key");
    if (len < FARM_PAYLOAD_HEAD) return lb_error(LB_EFORMAT, "a payload without its head");
    if (e.to != FARM_ID_ANY || e.seq) return lb_error(LB_EFORMAT, "not a payload's envelope");
    if (!mac_ok(a->key, env, body, FARM_PAYLOAD_HEAD)) return lb_error(LB_EFORMAT, "MAC does not match: forged");
    return LB_SUCCESS;
  }
  const unsigned char *key = a->key;
  if (!a->has_key) {
    /* The key comes to its worker first in a SETUP or QUIT. */
    unsigned char c[FARM_KEY_LEN];
    if (!a->has_commit || (tag != FARM_SETUP && tag != FARM_QUIT))
      return lb_error(LB_EFORMAT, "before the run's key only its SETUP or QUIT is taken");
    if (len < FARM_KEY_LEN) return lb_error(LB_EFORMAT, "no key in it");
    commit_of(body, c);
    if (sodium_memcmp(c, a->commit, FARM_KEY_LEN))
      return lb_error(LB_EFORMAT, "its key is not the one this task was started for: forged");
    key = body;
  }
  if (e.to != a->self) return lb_error(LB_EFORMAT, "addressed to %#x, not here", e.to);
  if (e.from != src) return lb_error(LB_EFORMAT, "its sender says %#x, the transport %#x", e.from, src);
  if (!mac_ok(key, env, body, len)) return lb_error(LB_EFORMAT, "MAC does not match: forged");
  last *l = last_of(a, e.from);
  if (l && e.seq <= l->seq)
    return lb_error(LB_EFORMAT, "sequence number %llu after %llu: replayed", (unsigned long long)e.seq,
                    (unsigned long long)l->seq);
  if (took(a, e.from, e.seq)) return LB_ENOMEM;
  if (!a->has_key) farm_auth_set_key(a, key);
  return LB_SUCCESS;
}

int farm_auth_check_bytes(const farm_auth *a, const farm_payload_head *h, const void *bytes, size_t len)
{
  unsigned char m[FARM_MAC_LEN];
  if (!a->has_key || len != h->len) return lb_error(LB_EFORMAT, "a result's bytes without the key or length");
  mac2(a->key, BYTES_LABEL, sizeof BYTES_LABEL, bytes, len, m);
  if (sodium_memcmp(m, h->digest, FARM_MAC_LEN))
    return lb_error(LB_EFORMAT, "the bytes are not the ones their maker's MAC names");
  return LB_SUCCESS;
}

void farm_auth_wipe(void *p, size_t n) { sodium_memzero(p, n); }
