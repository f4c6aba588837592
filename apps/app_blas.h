/* app_blas.h: the BLAS the matmul workload runs, and a check of it.
 *
 * Where GSL's reference CBLAS (libgslcblas) comes first on a program's
 * link line, cblas_dgemm binds to it, 20-30x slower than OpenBLAS, and
 * nothing else says so: every program that runs or measures the
 * kernel links OpenBLAS ahead of GSL (apps/local.mk) and can ask here
 * which shared object its cblas_dgemm resolved to. */
#ifndef APP_BLAS_H
#define APP_BLAS_H

#include <stddef.h>

/* One BLAS thread: each emulated host is one share of one core.  Called
 * before every matmul quantum (cheap after the first call). */
void app_blas_setup(void);

/* OpenBLAS reads OPENBLAS_NUM_THREADS when the program loads it; left
 * unset, it starts a thread per core more, and each spins about 0.1 s
 * of CPU before it sleeps (its thread timeout): CPU an emulated host's
 * quota pays for, and on a small machine other hosts' CPU.  Called
 * first in main: where the variable is not "1", set it and run the
 * program again, same pid and arguments (a pvmd's or mpirun's task
 * stays theirs).  Returns only where it is "1" or the exec failed. */
void app_blas_one_thread(char **argv);

/* Describe the BLAS that cblas_dgemm resolved to in this program into
 * buf ("OpenBLAS 0.3.21 ... (core Haswell) in /lib/.../libopenblas.so.0",
 * or the file it is in): LB_SUCCESS when that is OpenBLAS, else LB_EINVAL
 * with a message naming the library it is. */
int app_blas_check(char *buf, size_t size);

/* NULL, or a sentence saying that this CPU has AVX-512 (F, BW, DQ, VL)
 * while OpenBLAS chose kernels without it: a CPU newer than the
 * installed OpenBLAS knows (docs/FARM.md: OPENBLAS_CORETYPE). */
const char *app_blas_unused_avx512(void);

#endif
