/* farm_auth: a message sealed by one task opens at its receiver once;
 * a replay, another receiver, another sender, a changed body or MAC, a
 * key of another run are refused; a worker without the key takes it from
 * the SETUP or QUIT whose key has its commitment, and nothing else; a
 * payload's head and bytes are checked against its maker's MACs. */
#include "testutil.h"
#include "farm_auth.h"
#include "lb_errno.h"

#define RUN    77u
#define MASTER 0x40001u
#define WORKER 0x40002u

static farm_auth *task(uint32_t self, const unsigned char *key)
{
  farm_auth *a;
  assert_int_equal(farm_auth_alloc(self, &a), LB_SUCCESS);
  if (key) farm_auth_set_key(a, key);
  return a;
}

/* A message as its transport carries it: envelope, then body. */
static size_t seal(farm_auth *a, int tag, uint32_t to, const void *body, size_t len, unsigned char *m)
{
  farm_auth_seal(a, m, tag, RUN, to, body, len);
  if (len) memcpy(m + FARM_ENVELOPE, body, len);
  return FARM_ENVELOPE + len;
}

static int take(farm_auth *a, int tag, uint32_t src, const unsigned char *m, size_t n)
{
  farm_envelope e;
  int rc = farm_wire_accept(tag, m, n, RUN, &e);
  if (rc) return rc;
  return farm_auth_open(a, tag, src, m, m + FARM_ENVELOPE, n - FARM_ENVELOPE);
}

static void test_seal_open(void **state)
{
  (void)state;
  farm_auth *m = task(MASTER, NULL);
  farm_auth_draw(m);
  farm_auth *w = task(WORKER, farm_auth_key(m)), *other = task(0x40003u, farm_auth_key(m));
  unsigned char a[FARM_ENVELOPE + 16], b[FARM_ENVELOPE + 16], body[16] = "sixteen bytes...";
  size_t na = seal(m, FARM_TASKS, WORKER, body, sizeof body, a);
  size_t nb = seal(m, FARM_ORDER, WORKER, body, 8, b);
  /* b before a: a lower sequence number after a higher one is a replay */
  assert_int_equal(take(w, FARM_ORDER, MASTER, b, nb), LB_SUCCESS);
  assert_int_equal(take(w, FARM_TASKS, MASTER, a, na), LB_EFORMAT);
  assert_non_null(strstr(lb_errmsg(), "replayed"));
  assert_int_equal(take(w, FARM_ORDER, MASTER, b, nb), LB_EFORMAT); /* the same again */
  na = seal(m, FARM_TASKS, WORKER, body, sizeof body, a);
  assert_int_equal(take(other, FARM_TASKS, MASTER, a, na), LB_EFORMAT); /* not its receiver */
  assert_int_equal(take(w, FARM_TASKS, 0x40003u, a, na), LB_EFORMAT);   /* another sender */
  a[FARM_ENVELOPE + 3] ^= 1;
  assert_int_equal(take(w, FARM_TASKS, MASTER, a, na), LB_EFORMAT); /* the body changed */
  assert_non_null(strstr(lb_errmsg(), "forged"));
  a[FARM_ENVELOPE + 3] ^= 1;
  assert_int_equal(take(w, FARM_TASKS, MASTER, a, na), LB_SUCCESS); /* as sent: taken */
  /* a key of another run */
  farm_auth *x = task(MASTER, NULL);
  farm_auth_draw(x);
  na = seal(x, FARM_STOP, WORKER, NULL, 0, a);
  assert_int_equal(take(w, FARM_STOP, MASTER, a, na), LB_EFORMAT);
  farm_auth_free(x);
  farm_auth_free(other);
  farm_auth_free(w);
  farm_auth_free(m);
}

/* A worker started with the commitment: another key's SETUP, a policy
 * message before the key, refused; the real SETUP gives it the key. */
static void test_key_by_setup(void **state)
{
  (void)state;
  farm_auth *m = task(MASTER, NULL), *x = task(MASTER, NULL), *w = task(WORKER, NULL);
  farm_auth_draw(m);
  farm_auth_draw(x);
  char hex[FARM_COMMIT_HEX];
  unsigned char commit[FARM_KEY_LEN];
  farm_auth_commit_hex(m, hex);
  assert_int_equal(strlen(hex), 64);
  assert_int_equal(farm_auth_commit_parse(hex, commit), LB_SUCCESS);
  assert_int_equal(farm_auth_commit_parse("12", commit), LB_EFORMAT);
  farm_auth_expect(w, commit);
  assert_false(farm_auth_has_key(w));
  unsigned char msg[FARM_ENVELOPE + FARM_KEY_LEN + 8], body[FARM_KEY_LEN + 8] = {0};
  memcpy(body, farm_auth_key(x), FARM_KEY_LEN);
  size_t n = seal(x, FARM_SETUP, WORKER, body, sizeof body, msg);
  assert_int_equal(take(w, FARM_SETUP, MASTER, msg, n), LB_EFORMAT); /* the adversary's own key */
  n = seal(m, FARM_LBMSG, WORKER, body, 8, msg);
  assert_int_equal(take(w, FARM_LBMSG, MASTER, msg, n), LB_EFORMAT); /* no key yet */
  n = seal(m, FARM_SUM_REQ, WORKER, body, 8, msg);
  assert_int_equal(take(w, FARM_SUM_REQ, MASTER, msg, n), LB_SUCCESS); /* the self-test's */
  memcpy(body, farm_auth_key(m), FARM_KEY_LEN);
  n = seal(m, FARM_SETUP, WORKER, body, sizeof body, msg);
  msg[FARM_ENV_SIGNED] ^= 1; /* its MAC spoiled */
  assert_int_equal(take(w, FARM_SETUP, MASTER, msg, n), LB_EFORMAT);
  assert_false(farm_auth_has_key(w));
  msg[FARM_ENV_SIGNED] ^= 1;
  assert_int_equal(take(w, FARM_SETUP, MASTER, msg, n), LB_SUCCESS);
  assert_true(farm_auth_has_key(w));
  assert_memory_equal(farm_auth_key(w), farm_auth_key(m), FARM_KEY_LEN);
  n = seal(m, FARM_LBMSG, WORKER, body, 8, msg);
  assert_int_equal(take(w, FARM_LBMSG, MASTER, msg, n), LB_SUCCESS);
  farm_auth_free(w);
  farm_auth_free(x);
  farm_auth_free(m);
}

/* A payload made by one host, checked by a relay and by the master. */
static void test_payload(void **state)
{
  (void)state;
  farm_auth *maker = task(WORKER, NULL);
  farm_auth_draw(maker);
  farm_auth *master = task(MASTER, farm_auth_key(maker)), *x = task(WORKER, NULL);
  farm_auth_draw(x);
  unsigned char bytes[40], m[FARM_ENVELOPE + FARM_PAYLOAD_HEAD + sizeof bytes];
  for (size_t k = 0; k < sizeof bytes; k++) bytes[k] = (unsigned char)k;
  farm_payload_head h = {.pid = 5, .origin = 1, .exec = 2, .len = sizeof bytes};
  farm_auth_seal_payload(maker, m, m + FARM_ENVELOPE, RUN, &h, bytes);
  memcpy(m + FARM_ENVELOPE + FARM_PAYLOAD_HEAD, bytes, sizeof bytes);
  /* from any sender (a relay): taken, and again (no sequence number) */
  assert_int_equal(take(master, FARM_RESULT, 0x40005u, m, sizeof m), LB_SUCCESS);
  assert_int_equal(take(master, FARM_PAYLOAD, 0x40006u, m, sizeof m), LB_SUCCESS);
  farm_payload_head got;
  assert_int_equal(farm_payload_head_get(m + FARM_ENVELOPE, FARM_PAYLOAD_HEAD, 4, &got), LB_SUCCESS);
  assert_int_equal(farm_auth_check_bytes(master, &got, bytes, sizeof bytes), LB_SUCCESS);
  bytes[7] ^= 1; /* a byte changed on its way */
  assert_int_equal(farm_auth_check_bytes(master, &got, bytes, sizeof bytes), LB_EFORMAT);
  assert_int_equal(farm_auth_check_bytes(master, &got, bytes, sizeof bytes - 1), LB_EFORMAT);
  m[FARM_ENVELOPE + 12] ^= 1; /* the head says another host ran it */
  assert_int_equal(take(master, FARM_RESULT, 0x40005u, m, sizeof m), LB_EFORMAT);
  m[FARM_ENVELOPE + 12] ^= 1;
  farm_auth_seal_payload(x, m, m + FARM_ENVELOPE, RUN, &h, bytes); /* another key's */
  assert_int_equal(take(master, FARM_RESULT, 0x40005u, m, sizeof m), LB_EFORMAT);
  farm_auth_free(x);
  farm_auth_free(master);
  farm_auth_free(maker);
}

int main(void)
{
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_seal_open),
      cmocka_unit_test(test_key_by_setup),
      cmocka_unit_test(test_payload),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
