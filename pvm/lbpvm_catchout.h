/* lbpvm_catchout.h: the workers' output in lbmaster's stderr as
 * pvm_catchout passes it on ("[tTID] line"), without the "[tTID] BEGIN"
 * and "[tTID] EOF" lines PVM adds around each task's output. */
#ifndef LBPVM_CATCHOUT_H
#define LBPVM_CATCHOUT_H

#include <stdio.h>

/* A stream for pvm_catchout that writes to `to` what is worth reading;
 * `to` itself if the stream cannot be made.  Never closed: PVM writes
 * to it until pvm_exit. */
FILE *lbpvm_catchout_stream(FILE *to);

#endif
