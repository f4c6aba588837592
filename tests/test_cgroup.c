/* farm_cgroup's file logic on fake cgroup trees in a temporary
 * directory: which version and which directory it picks, what it writes
 * there, what it says when it cannot, and how it waits before it
 * removes a cgroup.  A fake tree has no kernel behind it: a test plays
 * the kernel's part where one is needed (the files of a cgroup whose
 * last task left go with it).  What the kernel then does with cpu.max
 * is not seen here (docs/FARM.md). */
#define _GNU_SOURCE
#include "testutil.h"
#include <ftw.h>
#include <signal.h>
#include <time.h>
#include <unistd.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include "farm_cgroup.h"
#include "farm_throttle.h"

static char root[256], fs[512], self[512];

static void path(char *buf, size_t n, const char *rel) { snprintf(buf, n, "%s/%s", fs, rel); }

static void mkdirs(const char *rel)
{
  char p[1024], *s;
  path(p, sizeof p, rel);
  for (s = p + strlen(root) + 1; (s = strchr(s, '/')); s++) {
    *s = '\0';
    mkdir(p, 0755);
    *s = '/';
  }
  mkdir(p, 0755);
}

static void put(const char *rel, const char *text)
{
  char p[1024], dir[512];
  snprintf(dir, sizeof dir, "%s", rel);
  char *slash = strrchr(dir, '/');
  if (slash) {
    *slash = '\0';
    mkdirs(dir);
  }
  path(p, sizeof p, rel);
  FILE *f = fopen(p, "w");
  assert_non_null(f);
  fputs(text, f);
  assert_int_equal(fclose(f), 0);
}

static const char *get(const char *rel)
{
  static char buf[4096];
  char p[1024];
  path(p, sizeof p, rel);
  FILE *f = fopen(p, "r");
  if (!f) return NULL;
  size_t n = fread(buf, 1, sizeof buf - 1, f);
  buf[n] = '\0';
  fclose(f);
  return buf;
}

static int exists(const char *rel)
{
  char p[1024];
  path(p, sizeof p, rel);
  return access(p, F_OK) == 0;
}

/* The kernel's part when a cgroup's last task has left: its files go. */
static void emptied(const char *rel)
{
  char p[1024];
  const char *files[] = {"cgroup.procs", "cpu.max", "cpu.cfs_period_us", "cpu.cfs_quota_us"};
  for (size_t i = 0; i < 4; i++) {
    snprintf(p, sizeof p, "%s/%s/%s", fs, rel, files[i]);
    unlink(p);
  }
}

static int rm_one(const char *p, const struct stat *st, int flag, struct FTW *ftw)
{
  (void)st;
  (void)flag;
  (void)ftw;
  return remove(p);
}

static int setup(void **state)
{
  (void)state;
  snprintf(root, sizeof root, "%s/lbfarm-cgtest.XXXXXX", getenv("TMPDIR") ? getenv("TMPDIR") : "/tmp");
  assert_non_null(mkdtemp(root));
  snprintf(fs, sizeof fs, "%s/fs", root);
  snprintf(self, sizeof self, "%s/self", root);
  mkdir(fs, 0755);
  farm_cgroup_set_paths(fs, self);
  return 0;
}

static int teardown(void **state)
{
  (void)state;
  farm_cgroup_set_paths(NULL, NULL);
  nftw(root, rm_one, 16, FTW_DEPTH | FTW_PHYS);
  return 0;
}

static void self_is(const char *text)
{
  FILE *f = fopen(self, "w");
  assert_non_null(f);
  fputs(text, f);
  assert_int_equal(fclose(f), 0);
}

/* cgroup v1 (this machine's kind): cfs period and quota, the pid, and
 * back home on stop. */
static void test_v1(void **state)
{
  (void)state;
  mkdirs("cpu/user.slice");
  put("cpu/cpu.cfs_quota_us", "-1\n");
  self_is("5:cpu,cpuacct:/user.slice\n2:memory:/\n0::/\n");
  farm_cgroup cg;
  char why[512];
  assert_int_equal(farm_cgroup_start(&cg, 4242, 123456, 3, 0.3, 0, why, sizeof why), 1);
  assert_string_equal(get("cpu/lbfarm-4242-123456-3/cpu.cfs_period_us"), "10000\n");
  assert_string_equal(get("cpu/lbfarm-4242-123456-3/cpu.cfs_quota_us"), "3000\n");
  assert_string_equal(get("cpu/lbfarm-4242-123456-3/cgroup.procs"), "4242\n");
  emptied("cpu/lbfarm-4242-123456-3");
  assert_int_equal(farm_cgroup_stop(&cg, 4242, 0.5), 0);
  assert_false(exists("cpu/lbfarm-4242-123456-3"));
  assert_string_equal(get("cpu/user.slice/cgroup.procs"), "4242\n");
}

/* A share under 0.1 gets a longer period, not a wrong quota (the kernel
 * takes none under 1 ms). */
static void test_small_share(void **state)
{
  (void)state;
  mkdirs("cpu");
  put("cpu/cpu.cfs_quota_us", "-1\n");
  self_is("1:cpu:/\n");
  farm_cgroup cg;
  char why[512];
  assert_int_equal(farm_cgroup_start(&cg, 7, 1, 0, 0.05, 1, why, sizeof why), 1);
  assert_string_equal(get("cpu/lbfarm-7-1-0/cpu.cfs_period_us"), "20000\n");
  assert_string_equal(get("cpu/lbfarm-7-1-0/cpu.cfs_quota_us"), "1000\n");
}

/* A pure cgroup v2 machine as root (a standard Debian 12): the
 * controller is enabled at the top if it was not, cpu.max is
 * "QUOTA PERIOD", and home is the cgroup it came from. */
static void test_v2_top(void **state)
{
  (void)state;
  put("cgroup.controllers", "cpuset cpu io memory pids\n");
  put("cgroup.subtree_control", "memory pids\n");
  mkdirs("user.slice/user-0.slice/session-3.scope");
  self_is("0::/user.slice/user-0.slice/session-3.scope\n");
  farm_cgroup cg;
  char why[512];
  assert_int_equal(farm_cgroup_start(&cg, 300, 9, 1, 0.3, 0, why, sizeof why), 2);
  assert_string_equal(get("cgroup.subtree_control"), "+cpu\n");
  assert_string_equal(get("lbfarm-300-9-1/cpu.max"), "3000 10000\n");
  assert_string_equal(get("lbfarm-300-9-1/cgroup.procs"), "300\n");
  emptied("lbfarm-300-9-1");
  assert_int_equal(farm_cgroup_stop(&cg, 300, 0.5), 0);
  assert_false(exists("lbfarm-300-9-1"));
  assert_string_equal(get("user.slice/user-0.slice/session-3.scope/cgroup.procs"), "300\n");
}

/* Where the top cannot be written (a user), a cgroup delegated for the
 * run (systemd-run --user --scope -p Delegate=yes): its processes move
 * to the leaf, the cpu controller goes to its children, lbfarm-PID is
 * made there, and home is the leaf.  A second worker, already in the
 * leaf, makes its own beside the first. */
static void test_v2_delegated(void **state)
{
  (void)state;
  const char *d = "user.slice/user-1000.slice/user@1000.service/app.slice/run-r1.scope";
  char rel[512];
  put("cgroup.controllers", "cpuset cpu io memory pids\n");
  mkdirs("cgroup.subtree_control"); /* a directory: cannot be written, as for a user */
  mkdirs(d);
  snprintf(rel, sizeof rel, "%s/cgroup.controllers", d);
  put(rel, "cpu memory pids\n");
  snprintf(rel, sizeof rel, "%s/cgroup.subtree_control", d);
  put(rel, "");
  snprintf(rel, sizeof rel, "%s/cgroup.procs", d);
  put(rel, "100\n200\n");
  char text[600];
  snprintf(text, sizeof text, "0::/%s\n", d);
  self_is(text);
  farm_cgroup cg;
  char why[2048];
  assert_int_equal(farm_cgroup_start(&cg, 200, 44, 0, 0.3, 2, why, sizeof why), 2);
  snprintf(rel, sizeof rel, "%s/cgroup.subtree_control", d);
  assert_string_equal(get(rel), "+cpu\n");
  snprintf(rel, sizeof rel, "%s/" FARM_CGROUP_LEAF "/cgroup.procs", d);
  assert_string_equal(get(rel), "200\n"); /* the last one moved (a fake file keeps one) */
  snprintf(rel, sizeof rel, "%s/lbfarm-200-44-0/cpu.max", d);
  assert_string_equal(get(rel), "3000 10000\n");
  snprintf(rel, sizeof rel, "%s/" FARM_CGROUP_LEAF, d);
  assert_non_null(strstr(cg.home, rel));
  /* The second worker, in the leaf by now. */
  snprintf(text, sizeof text, "0::/%s/" FARM_CGROUP_LEAF "\n", d);
  self_is(text);
  snprintf(rel, sizeof rel, "%s/cgroup.procs", d);
  put(rel, "");
  farm_cgroup cg2;
  assert_int_equal(farm_cgroup_start(&cg2, 201, 44, 1, 0.5, 0, why, sizeof why), 2);
  snprintf(rel, sizeof rel, "%s/lbfarm-201-44-1/cpu.max", d);
  assert_string_equal(get(rel), "5000 10000\n");
  /* The master, in the leaf too, finds a killed worker's cgroup there. */
  snprintf(rel, sizeof rel, "%s/lbfarm-201-44-1", d);
  emptied(rel);
  assert_int_equal(farm_cgroup_forget(201, 44, 0.5), 0);
  assert_false(exists(rel));
}

/* This machine's kind seen through v2 only: the cpu controller is bound
 * to v1, so v2 has none, and the reason says so. */
static void test_v2_without_cpu(void **state)
{
  (void)state;
  put("unified/cgroup.controllers", "hugetlb\n");
  self_is("0::/\n");
  farm_cgroup cg;
  char why[2048];
  assert_int_equal(farm_cgroup_start(&cg, 9, 1, 0, 0.3, 0, why, sizeof why), -1);
  assert_non_null(strstr(why, "cgroup v1: no cpu controller at"));
  assert_non_null(strstr(why, "has no cpu controller"));
  assert_int_equal(farm_cgroup_start(&cg, 9, 1, 0, 0.3, 2, why, sizeof why), -1);
  assert_non_null(strstr(why, "cgroup v2: "));
  assert_null(strstr(why, "cgroup v1: "));
}

/* A cgroup delegated without the cpu controller is not used. */
static void test_v2_not_delegated(void **state)
{
  (void)state;
  put("cgroup.controllers", "cpu memory pids\n");
  mkdirs("cgroup.subtree_control");
  put("user.slice/cgroup.controllers", "memory pids\n");
  self_is("0::/user.slice\n");
  farm_cgroup cg;
  char why[2048];
  assert_int_equal(farm_cgroup_start(&cg, 9, 1, 0, 0.3, 2, why, sizeof why), -1);
  assert_non_null(strstr(why, "has no cpu controller (not delegated)"));
  assert_false(exists("user.slice/lbfarm-9-1-0"));
}

static double now_s(void)
{
  struct timespec t;
  clock_gettime(CLOCK_MONOTONIC, &t);
  return (double)t.tv_sec + (double)t.tv_nsec * 1e-9;
}

/* A killed worker's cgroup: removed once its last task has left, which
 * here happens 0.2 s later; and one whose task never leaves is given up
 * on at the bound, and left for its owner. */
static void test_forget_waits(void **state)
{
  (void)state;
  put("cpu/cpu.cfs_quota_us", "-1\n");
  put("cpu/lbfarm-77-5-0/cgroup.procs", "77\n");
  put("cpu/lbfarm-78-5-1/cgroup.procs", "78\n");
  self_is("1:cpu:/\n");
  pid_t kernel = fork();
  assert_true(kernel >= 0);
  if (kernel == 0) {
    struct timespec t = {0, 200 * 1000 * 1000};
    nanosleep(&t, NULL);
    emptied("cpu/lbfarm-77-5-0");
    _exit(0);
  }
  double t0 = now_s();
  assert_int_equal(farm_cgroup_forget(77, 5, 5.0), 0);
  double took = now_s() - t0;
  assert_true(took >= 0.15);
  assert_false(exists("cpu/lbfarm-77-5-0"));
  waitpid(kernel, NULL, 0);
  t0 = now_s();
  assert_int_equal(farm_cgroup_forget(78, 5, 0.2), -1);
  assert_true(now_s() - t0 >= 0.2);
  assert_true(exists("cpu/lbfarm-78-5-1"));
  assert_int_equal(farm_cgroup_forget(79, 5, 1.0), 0); /* none: nothing to do */
}

/* Every process of one run (pid 0, as lbmpi's master asks for the ranks
 * whose pids it never learns): that run's cgroups go, another run's
 * with the same digits in another place, and other names, stay. */
static void test_forget_run(void **state)
{
  (void)state;
  put("cpu/cpu.cfs_quota_us", "-1\n");
  put("cpu/lbfarm-77-5-0/cgroup.procs", "");
  put("cpu/lbfarm-78-5-1/cgroup.procs", "");
  put("cpu/lbfarm-79-55-1/cgroup.procs", "");
  put("cpu/lbfarm-5-6-1/cgroup.procs", "");
  put("cpu/lbfarm-x-5-1/cgroup.procs", "");
  self_is("1:cpu:/\n");
  const char *all[] = {"cpu/lbfarm-77-5-0", "cpu/lbfarm-78-5-1", "cpu/lbfarm-79-55-1", "cpu/lbfarm-5-6-1",
                       "cpu/lbfarm-x-5-1"};
  for (int i = 0; i < 5; i++) emptied(all[i]); /* every task has left */
  assert_int_equal(farm_cgroup_forget(0, 5, 1.0), 0);
  assert_false(exists("cpu/lbfarm-77-5-0"));
  assert_false(exists("cpu/lbfarm-78-5-1"));
  assert_true(exists("cpu/lbfarm-79-55-1"));
  assert_true(exists("cpu/lbfarm-5-6-1"));
  assert_true(exists("cpu/lbfarm-x-5-1"));
  /* Any process of any run is not a request this call takes. */
  assert_int_equal(farm_cgroup_forget(0, FARM_CGROUP_ANY_RUN, 1.0), 0);
  assert_true(exists("cpu/lbfarm-79-55-1"));
}

/* Names that are not this run's: the same pid in another pid namespace
 * (another host of the run, or another run) has a cgroup of its own,
 * and a name already there is refused, not taken over, and left. */
static void test_names(void **state)
{
  (void)state;
  char name[96];
  assert_int_equal(farm_cgroup_name(name, sizeof name, 4242, 2147483647u, 5), 0);
  assert_string_equal(name, "lbfarm-4242-2147483647-5");
  assert_int_equal(farm_cgroup_name(name, 10, 4242, 1, 5), -1);
  put("cpu/cpu.cfs_quota_us", "-1\n");
  self_is("1:cpu:/\n");
  farm_cgroup a, b, c;
  char why[2048];
  assert_int_equal(farm_cgroup_start(&a, 500, 7, 1, 0.3, 0, why, sizeof why), 1);
  assert_int_equal(farm_cgroup_start(&b, 500, 7, 4, 0.3, 0, why, sizeof why), 1); /* same pid, host 4 */
  assert_int_equal(farm_cgroup_start(&c, 500, 8, 1, 0.3, 0, why, sizeof why), 1); /* same pid, run 8 */
  assert_string_equal(get("cpu/lbfarm-500-7-1/cgroup.procs"), "500\n");
  assert_string_equal(get("cpu/lbfarm-500-7-4/cgroup.procs"), "500\n");
  assert_string_equal(get("cpu/lbfarm-500-8-1/cgroup.procs"), "500\n");
  /* There already (say a pid reused after a crash in run 7): refused. */
  farm_cgroup d;
  assert_int_equal(farm_cgroup_start(&d, 500, 7, 1, 0.5, 1, why, sizeof why), -1);
  assert_non_null(strstr(why, "exists already"));
  assert_string_equal(get("cpu/lbfarm-500-7-1/cpu.cfs_quota_us"), "3000\n");
  assert_int_equal(d.version, 0);
  assert_int_equal(farm_cgroup_stop(&d, 500, 0.1), 0); /* nothing of its own to remove */
  assert_true(exists("cpu/lbfarm-500-7-1"));
  /* Run 7's master removes run 7's only, never a longer pid's. */
  put("cpu/lbfarm-5000-7-1/cgroup.procs", "");
  emptied("cpu/lbfarm-500-7-1");
  emptied("cpu/lbfarm-500-7-4");
  emptied("cpu/lbfarm-500-8-1");
  emptied("cpu/lbfarm-5000-7-1");
  assert_int_equal(farm_cgroup_forget(500, 7, 0.5), 0);
  assert_false(exists("cpu/lbfarm-500-7-1"));
  assert_false(exists("cpu/lbfarm-500-7-4"));
  assert_true(exists("cpu/lbfarm-500-8-1"));
  assert_true(exists("cpu/lbfarm-5000-7-1"));
  /* Any run: a VM left behind by a master whose run is not known. */
  assert_int_equal(farm_cgroup_forget(500, FARM_CGROUP_ANY_RUN, 0.5), 0);
  assert_false(exists("cpu/lbfarm-500-8-1"));
  assert_true(exists("cpu/lbfarm-5000-7-1"));
}

/* The signal handler's part, one try each: a busy cgroup is counted,
 * an emptied one goes; a process leaves its own and goes home. */
static void test_now(void **state)
{
  (void)state;
  put("cpu/user.slice/cgroup.procs", ""); /* the kernel's file: never created by us */
  put("cpu/cpu.cfs_quota_us", "-1\n");
  self_is("5:cpu:/user.slice\n");
  put("cpu/lbfarm-61-3-0/cgroup.procs", "61\n");
  put("cpu/lbfarm-61-3-1/cgroup.procs", "");
  emptied("cpu/lbfarm-61-3-1");
  farm_cgroup_places();
  assert_int_equal(farm_cgroup_forget_now(61, 3), 1);
  assert_true(exists("cpu/lbfarm-61-3-0"));
  assert_false(exists("cpu/lbfarm-61-3-1"));
  emptied("cpu/lbfarm-61-3-0");
  assert_int_equal(farm_cgroup_forget_now(61, 3), 0);
  assert_false(exists("cpu/lbfarm-61-3-0"));
  farm_cgroup cg;
  char why[512];
  assert_int_equal(farm_cgroup_start(&cg, 62, 3, 2, 0.3, 0, why, sizeof why), 1);
  emptied("cpu/lbfarm-62-3-2");
  assert_int_equal(farm_cgroup_leave_now(&cg, 62), 0);
  assert_false(exists("cpu/lbfarm-62-3-2"));
  const char *home = get("cpu/user.slice/cgroup.procs");
  assert_non_null(home);
  assert_string_equal(home, "62\n");
}

static void test_modes(void **state)
{
  (void)state;
  for (int m = 0; m < FARM_THROTTLE_NMODES; m++) {
    farm_throttle_mode back;
    assert_int_equal(farm_throttle_parse(farm_throttle_name((farm_throttle_mode)m), &back), 0);
    assert_int_equal((int)back, m);
  }
  farm_throttle_mode x;
  assert_int_equal(farm_throttle_parse("cgroup-v3", &x), -1);
  assert_string_equal(farm_throttle_name(FARM_THROTTLE_NMODES), "?");
}

int main(void)
{
  const struct CMUnitTest tests[] = {
      cmocka_unit_test_setup_teardown(test_v1, setup, teardown),
      cmocka_unit_test_setup_teardown(test_small_share, setup, teardown),
      cmocka_unit_test_setup_teardown(test_v2_top, setup, teardown),
      cmocka_unit_test_setup_teardown(test_v2_delegated, setup, teardown),
      cmocka_unit_test_setup_teardown(test_v2_without_cpu, setup, teardown),
      cmocka_unit_test_setup_teardown(test_v2_not_delegated, setup, teardown),
      cmocka_unit_test_setup_teardown(test_forget_waits, setup, teardown),
      cmocka_unit_test_setup_teardown(test_forget_run, setup, teardown),
      cmocka_unit_test_setup_teardown(test_names, setup, teardown),
      cmocka_unit_test_setup_teardown(test_now, setup, teardown),
      cmocka_unit_test(test_modes),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
