/* tools/cli: numbers (fractions, negatives, ranges, lists) with their
 * messages, and output files that only appear once complete. */
#include <dirent.h>
#include <unistd.h>
#include <sys/stat.h>
#include "testutil.h"
#include "cli.h"

static char err[CLI_ERR_MAX];

static void test_reals(void **state)
{
  (void)state;
  double v;
  assert_int_equal(cli_parse_double("--x", "2.5", 0, 10, &v, err, sizeof err), 0);
  assert_true(v == 2.5);
  /* A fraction is the double nearest to it: the division rounds once. */
  assert_int_equal(cli_parse_double("--x", "1501/21", 0, 1e9, &v, err, sizeof err), 0);
  assert_true(v == 1501.0 / 21.0);
  assert_int_equal(cli_parse_double("--x", "-3/4", -1, 1, &v, err, sizeof err), 0);
  assert_true(v == -0.75);
  assert_int_equal(cli_parse_double("--x", "1e-3/2e-3", 0, 1, &v, err, sizeof err), 0);
  assert_true(v == 1e-3 / 2e-3);
  assert_int_equal(cli_parse_double("--x", "0x10", 0, 100, &v, err, sizeof err), 0);
  assert_true(v == 16);

  struct {
    const char *s, *msg;
  } bad[] = {
      {"", "--x: '' is not a number"},
      {"abc", "--x: 'abc' is not a number (a decimal such as 2.5 or a fraction such as 5/2)"},
      {" 1", "--x: ' 1' is not a number"},
      {"1 ", "--x: '1 ' is not a number"},
      {"nan", "--x: 'nan' is not a number"},
      {"inf", "--x: 'inf' is not a number"},
      {"1/", "--x: '1/' is not a number"},
      {"/2", "--x: '/2' is not a number"},
      {"1/2/3", "--x: '1/2/3' is not a number"},
      {"1/0", "--x: '1/0' divides by zero"},
      {"1e308/1e-308", "--x: '1e308/1e-308' is too large"},
      {"1e999", "--x: '1e999' is not a number"},
      {"-1", "--x: '-1' is not a number in [0, 10] (it is negative)"},
      {"-1/3", "--x: '-1/3' is not a number in [0, 10] (it is negative)"},
      {"21/2", "--x: '21/2' is not a number in [0, 10]"},
  };
  for (size_t k = 0; k < sizeof bad / sizeof *bad; k++) {
    assert_int_equal(cli_parse_double("--x", bad[k].s, 0, 10, &v, err, sizeof err), CLI_EXIT_USAGE);
    if (strncmp(err, bad[k].msg, strlen(bad[k].msg))) fprintf(stderr, "%s: got '%s'\n", bad[k].s, err);
    assert_memory_equal(err, bad[k].msg, strlen(bad[k].msg));
  }
  /* A long value is quoted in part; the message always ends. */
  char big[600];
  memset(big, '7', sizeof big - 1);
  big[sizeof big - 1] = '\0';
  assert_int_equal(cli_parse_double("--x", big, 0, 10, &v, err, 8), CLI_EXIT_USAGE);
  assert_int_equal(strlen(err), 7);
  assert_int_equal(cli_parse_double("--x", big, 0, 10, &v, err, sizeof err), CLI_EXIT_USAGE);
  assert_non_null(strstr(err, "...' is not a number"));
}

static void test_integers(void **state)
{
  (void)state;
  unsigned long v;
  assert_int_equal(cli_parse_ulong("-n", "42", 1, 100, &v, err, sizeof err), 0);
  assert_int_equal(v, 42);
  assert_int_equal(cli_parse_ulong("-n", "18446744073709551615", 0, (unsigned long)-1, &v, err, sizeof err), 0);
  assert_true(v == (unsigned long)-1);
  struct {
    const char *s, *msg;
  } bad[] = {
      {"0", "-n: '0' is not an integer in 1..100"},
      {"101", "-n: '101' is not an integer in 1..100"},
      {"-5", "-n: '-5' is not an integer in 1..100 (it is negative)"},
      {"+5", "-n: '+5' is not an integer in 1..100"},
      {" 5", "-n: ' 5' is not an integer in 1..100"},
      {"5x", "-n: '5x' is not an integer in 1..100"},
      {"2.0", "-n: '2.0' is not an integer in 1..100"},
      {"", "-n: '' is not an integer in 1..100"},
      {"-", "-n: '-' is not an integer in 1..100"},
      {"99999999999999999999999", "-n: '99999999999999999999999' is not an integer in 1..100 (it is too large)"},
  };
  for (size_t k = 0; k < sizeof bad / sizeof *bad; k++) {
    assert_int_equal(cli_parse_ulong("-n", bad[k].s, 1, 100, &v, err, sizeof err), CLI_EXIT_USAGE);
    assert_string_equal(err, bad[k].msg);
  }
}

static void test_lists(void **state)
{
  (void)state;
  double v[4];
  size_t n;
  assert_int_equal(cli_parse_doubles("L", "1,2/3,4e1", v, 4, 0, 100, &n, err, sizeof err), 0);
  assert_int_equal(n, 3);
  assert_true(v[0] == 1 && v[1] == 2.0 / 3.0 && v[2] == 40);
  struct {
    const char *s, *msg;
  } bad[] = {
      {"", "L: no values"},
      {"1,,2", "L: value 2 is empty"},
      {"1,", "L: value 2 is empty"},
      {",1", "L: value 1 is empty"},
      {"1,2,3,4,5", "L: more than 4 values"},
      {"1,-2", "L value 2: '-2' is not a number in [0, 100] (it is negative)"},
      {"1,x", "L value 2: 'x' is not a number"},
  };
  for (size_t k = 0; k < sizeof bad / sizeof *bad; k++) {
    assert_int_equal(cli_parse_doubles("L", bad[k].s, v, 4, 0, 100, &n, err, sizeof err), CLI_EXIT_USAGE);
    if (strncmp(err, bad[k].msg, strlen(bad[k].msg))) fprintf(stderr, "%s: got '%s'\n", bad[k].s, err);
    assert_memory_equal(err, bad[k].msg, strlen(bad[k].msg));
  }
}

/* Files in dir other than "." and "..". */
static int entries(const char *dir)
{
  DIR *d = opendir(dir);
  int n = 0;
  struct dirent *e;
  while ((e = readdir(d))) n += strcmp(e->d_name, ".") && strcmp(e->d_name, "..");
  closedir(d);
  return n;
}

static void slurp(const char *path, char *buf, size_t cap)
{
  FILE *f = fopen(path, "r");
  assert_non_null(f);
  size_t n = fread(buf, 1, cap - 1, f);
  buf[n] = '\0';
  fclose(f);
}

static void test_out_files(void **state)
{
  (void)state;
  char dir[] = "/tmp/lbfarm-cli.XXXXXX", path[64], buf[64];
  assert_non_null(mkdtemp(dir));
  snprintf(path, sizeof path, "%s/out.csv", dir);
  FILE *f = fopen(path, "w");
  fputs("old\n", f);
  fclose(f);
  /* Until the commit the target keeps its old content. */
  f = cli_out_open("--out", path);
  fputs("new\n", f);
  fflush(f);
  slurp(path, buf, sizeof buf);
  assert_string_equal(buf, "old\n");
  assert_int_equal(entries(dir), 2);
  cli_out_abort(f);
  slurp(path, buf, sizeof buf);
  assert_string_equal(buf, "old\n");
  assert_int_equal(entries(dir), 1);
  /* A commit replaces it, with the mode a new file gets. */
  f = cli_out_open("--out", path);
  fputs("new\n", f);
  cli_out_commit(f);
  slurp(path, buf, sizeof buf);
  assert_string_equal(buf, "new\n");
  assert_int_equal(entries(dir), 1);
  struct stat st;
  assert_int_equal(stat(path, &st), 0);
  mode_t um = umask(0);
  umask(um);
  assert_int_equal(st.st_mode & 0777, 0666 & ~um);
  /* A file that did not exist appears only at the commit. */
  snprintf(path, sizeof path, "%s/fresh.csv", dir);
  f = cli_out_open("--out", path);
  assert_int_equal(access(path, F_OK), -1);
  fputs("x\n", f);
  cli_out_commit(f);
  assert_int_equal(access(path, F_OK), 0);
  /* Through a symbolic link: the file it names changes, the link stays. */
  char link[80], target[64];
  snprintf(target, sizeof target, "%s/fresh.csv", dir);
  snprintf(link, sizeof link, "%s/link.csv", dir);
  assert_int_equal(symlink("fresh.csv", link), 0);
  f = cli_out_open("--out", link);
  fputs("via link\n", f);
  cli_out_commit(f);
  assert_int_equal(lstat(link, &st), 0);
  assert_true(S_ISLNK(st.st_mode));
  slurp(target, buf, sizeof buf);
  assert_string_equal(buf, "via link\n");
  assert_int_equal(entries(dir), 3);
  unlink(link);
  /* Not a regular file: written in place. */
  f = cli_out_open("--out", "/dev/null");
  fputs("x\n", f);
  cli_out_commit(f);
  assert_int_equal(stat("/dev/null", &st), 0);
  assert_true(S_ISCHR(st.st_mode));
  unlink(path);
  snprintf(path, sizeof path, "%s/out.csv", dir);
  unlink(path);
  assert_int_equal(rmdir(dir), 0);
}

int main(void)
{
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_reals),
      cmocka_unit_test(test_integers),
      cmocka_unit_test(test_lists),
      cmocka_unit_test(test_out_files),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
