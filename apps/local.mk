# apps/: the workloads (matmul, primes) with resumable contexts, and the
# master's independent verifier; no PVM here.
noinst_LIBRARIES += apps/libapp.a
apps_libapp_a_SOURCES = apps/app.h apps/app_impl.h apps/app_task.c \
	apps/app_matmul.c apps/app_primes.c apps/app_mem.c apps/app_mem.h apps/app_operand.h \
	apps/app_blas.c apps/app_blas.h apps/app_verify.c apps/app_verify.h
# OpenBLAS right after the library that calls it, and so ahead of GSL's
# -lgslcblas in LB_LIBS, which every program lists after APP_LIBS: the
# first object on the link line that defines cblas_dgemm is the one
# every call binds to (app_blas_check says which one it was).
APP_LIBS = apps/libapp.a $(OPENBLAS_LIBS)
