/* mpi_xport.h: the farm transport (farm_xport.h) over MPI point-to-point
 * in MPI_COMM_WORLD: peers are ranks, farm tags are MPI tags, every
 * message is its envelope and body as one MPI_BYTE buffer.
 *
 * Sends are non-blocking (MPI_Isend, the buffer kept until the request
 * completes): two hosts that send each other a large message at once
 * must not both wait in MPI_Send.  MPI keeps the order of two messages
 * from one rank to another, so a result's payload still arrives before
 * the policy message that refers to it.  A payload is held as the bytes
 * it arrived in and sent on as they are.  MPI has no notices: a rank
 * that dies ends the job (MPI_ERRORS_ARE_FATAL), so gone does nothing.
 * A rank fenced when its lease ran out (frozen, say) cannot be ended
 * alone: kill remembers it, and lbmpi ends the job once the run is
 * written. */
#ifndef MPI_XPORT_H
#define MPI_XPORT_H

#include "farm_xport.h"

/* Messages sealed and checked with auth (borrowed: it outlives x; rank
 * 0 sends the key to the others, lbmpi.c).  0, or -1 when out of memory. */
int mpi_xport_init(farm_xport *x, uint32_t run, farm_auth *auth);
/* Wait at most wait_s for this rank's sends to complete, then free
 * everything: 0, or the number of sends that never completed. */
int mpi_xport_free(farm_xport *x, double wait_s);
/* How many ranks the master ended (kill): a job with any is ended with
 * MPI_Abort, a frozen rank would hold MPI_Finalize for ever. */
int mpi_xport_ended(const farm_xport *x);

#endif
