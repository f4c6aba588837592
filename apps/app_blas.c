/* app_blas.c: see app_blas.h. */
#define _GNU_SOURCE /* dladdr */
#include <dlfcn.h>
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>
#include <string.h>
#include <strings.h>
#include <cblas.h>
#include "app_blas.h"
#include "lb_errno.h"

void app_blas_setup(void)
{
  static int done;
  if (done) return;
  openblas_set_num_threads(1);
  done = 1;
}

void app_blas_one_thread(char **argv)
{
  const char *v = getenv("OPENBLAS_NUM_THREADS");
  if (v && !strcmp(v, "1")) return;
  /* Once only: the program run again finds "1".  If it cannot be run
   * again, it goes on with the helper thread, which costs CPU only. */
  if (setenv("OPENBLAS_NUM_THREADS", "1", 1)) return;
  /* By its own path, not /proc/self/exe: the name ps and pgrep show is
   * the file's. */
  char path[4096];
  ssize_t n = readlink("/proc/self/exe", path, sizeof path - 1);
  if (n <= 0 || (size_t)n >= sizeof path - 1) return;
  path[n] = '\0';
  execv(path, argv);
}

/* Case-insensitive strstr. */
static int names(const char *s, const char *word)
{
  for (size_t n = strlen(word); *s; s++)
    if (!strncasecmp(s, word, n)) return 1;
  return 0;
}

int app_blas_check(char *buf, size_t size)
{
  Dl_info info;
  /* The address this program calls: the definition the dynamic linker
   * chose, in whichever loaded object comes first. */
  void *f = (void *)&cblas_dgemm;
  const char *where = dladdr(f, &info) && info.dli_fname && info.dli_fname[0] ? info.dli_fname : "the program itself";
  if (!names(where, "openblas")) {
    if (size) snprintf(buf, size, "cblas_dgemm from %s", where);
    return lb_error(LB_EINVAL, "cblas_dgemm resolves to %s, not OpenBLAS: link -lopenblas ahead of -lgslcblas", where);
  }
  if (size) snprintf(buf, size, "%s (core %s) in %s", openblas_get_config(), openblas_get_corename(), where);
  return LB_SUCCESS;
}

const char *app_blas_unused_avx512(void)
{
#if defined(__GNUC__) && defined(__x86_64__)
  static const char *avx512_cores[] = {"SkylakeX", "Cooperlake", "SapphireRapids"};
  __builtin_cpu_init();
  if (!__builtin_cpu_supports("avx512f") || !__builtin_cpu_supports("avx512bw") ||
      !__builtin_cpu_supports("avx512dq") || !__builtin_cpu_supports("avx512vl"))
    return NULL;
  const char *core = openblas_get_corename();
  for (size_t i = 0; i < sizeof avx512_cores / sizeof *avx512_cores; i++)
    if (core && names(core, avx512_cores[i])) return NULL;
  return "this CPU has AVX-512, which OpenBLAS's kernels for the core it chose do not use "
         "(OPENBLAS_CORETYPE=SkylakeX would: docs/FARM.md)";
#else
  return NULL;
#endif
}
