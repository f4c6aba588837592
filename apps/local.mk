# apps/: the workloads (matmul, primes) with resumable contexts, and the
# master's independent verifier; no PVM here.
noinst_LIBRARIES += apps/libapp.a
apps_libapp_a_SOURCES = apps/app.h apps/app_impl.h apps/app_task.c \
	apps/app_matmul.c apps/app_primes.c apps/app_mem.c apps/app_mem.h \
	apps/app_verify.c apps/app_verify.h
APP_LIBS = apps/libapp.a
