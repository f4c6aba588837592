/* cli_csv.h: the one CSV schema of a run, shared by lbsim, lbmaster and
 * lbmpi: the same header from every program (cells a program cannot
 * fill stay empty), every setting of the run (every parameter of
 * lb/lb_param.h by its name, the policy, speeds, capacities, load or
 * workload, topology, seed), its provenance (driver, commit, UTC time,
 * host name, load average) and its results.  docs/FORMATS.md lists the
 * columns and their units.
 *
 * A row is filled by column name and written whole; a cell with a comma,
 * a quote or a line break is quoted (RFC 4180). */
#ifndef CLI_CSV_H
#define CLI_CSV_H

#include <stddef.h>
#include <stdio.h>
#include "lb_node.h"

typedef struct cli_csv_row cli_csv_row;

/* The header line, '\n' included; 0, or -1 when writing failed. */
int cli_csv_header(FILE *f);
/* The number of columns and the k-th name. */
size_t cli_csv_ncols(void);
const char *cli_csv_col(size_t k);

/* A row with its provenance filled: driver ("lbsim", "lbmaster",
 * "lbmpi"), the build's commit, the UTC time, the host's name and its
 * load average now. */
cli_csv_row *cli_csv_row_new(const char *driver);
void cli_csv_row_free(cli_csv_row *r);
/* Fill the cell of column `col` (an unknown column is a program error:
 * it exits with status 1, naming it).  cli_csv_real writes %.17g;
 * cli_csv_list the values ';'-separated, or one value when all are
 * equal. */
void cli_csv_set(cli_csv_row *r, const char *col, const char *fmt, ...) __attribute__((format(printf, 3, 4)));
void cli_csv_real(cli_csv_row *r, const char *col, double v);
void cli_csv_ulong(cli_csv_row *r, const char *col, unsigned long v);
void cli_csv_list(cli_csv_row *r, const char *col, const double *v, size_t n);
/* Empty the cell again. */
void cli_csv_clear(cli_csv_row *r, const char *col);
/* Every parameter's column (lb_param.h), from par. */
void cli_csv_params(cli_csv_row *r, const lb_node_params *par);
/* The row, '\n' included; 0, or -1 when writing failed. */
int cli_csv_write(FILE *f, const cli_csv_row *r);

/* The build's commit (git describe), "unknown" outside a git tree. */
const char *cli_csv_commit(void);

#endif
