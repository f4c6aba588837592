/* master_journal.h: the master's journal of verified results, a file
 * (--journal FILE, --resume FILE) in farm/farm_journal.h's format: every
 * verified result is appended and on the disk before it counts, so a
 * master that restarts after it died takes them from the journal and
 * runs only the other processes (not installed). */
#ifndef MASTER_JOURNAL_H
#define MASTER_JOURNAL_H

#include <stddef.h>
#include <stdint.h>
#include "master_run.h"

typedef struct master_journal master_journal;

/* The run's description, which a journal must carry to be resumed:
 * what decides the processes and their results. */
int master_journal_describe(const master_opts *o, char *buf, size_t len);
/* Before the run (bad input exits 2): --journal names a file that does
 * not exist in a writable directory; --resume one that is a journal of
 * this run's description, whole but for perhaps its last record. */
int master_journal_check(const master_opts *o);

/* A journalled result for the run to take: 0, or non-zero to stop. */
typedef int (*master_journal_take)(void *arg, uint64_t pid, const unsigned char *bytes, size_t n);
/* --journal: create the file.  --resume: each of its records to `take`,
 * a torn last record skipped with a line and cut off; *taken the
 * records read.  Then open for appending.  0, or -1 with a message. */
int master_journal_open(const master_opts *o, master_journal_take take, void *arg, master_journal **out, size_t *taken);
/* pid's verified result, appended whole and on the disk: 0, or -1 with
 * a message naming the file. */
int master_journal_append(master_journal *j, uint64_t pid, const void *bytes, size_t n);
void master_journal_close(master_journal *j);

#endif
