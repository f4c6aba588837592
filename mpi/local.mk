# mpi/: lbmpi, the task farm over MPI (rank 0 the master, every other
# rank one host), built only where configure found MPI (mpicc, or
# pkg-config ompi-c or mpich).  It links the same host core and master library as
# the PVM programs; only the transport is its own.
# The batch script that docs/FARM.md shows; tests/slurm_farm.sh runs it.
EXTRA_DIST += mpi/lbmpi.sbatch
if HAVE_MPI
bin_PROGRAMS += mpi/lbmpi
mpi_lbmpi_SOURCES = mpi/lbmpi.c mpi/mpi_xport.c mpi/mpi_xport.h
mpi_lbmpi_CPPFLAGS = $(AM_CPPFLAGS) -I$(top_srcdir)/worker -I$(top_srcdir)/master $(MPI_CFLAGS)
mpi_lbmpi_LDADD = $(MASTER_LIBS) $(HOST_LIBS) $(FARM_LIBS) $(APP_LIBS) $(CLI_LIBS) $(LB_LIBS) $(MPI_LIBS)
endif
