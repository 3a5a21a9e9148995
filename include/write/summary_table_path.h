/*
 * summary_table_path: a core's critical path in the summary table
 * (docs/summary.md, "The table"; SPEC §13): the line of its parts, the
 * line of its busiest instructions, and the what-ifs worth a percent.
 */
#ifndef CSIM_SUMMARY_TABLE_PATH_H
#define CSIM_SUMMARY_TABLE_PATH_H

#include <stddef.h>
#include <stdio.h>

#include "model/model.h"

/* The lines of summary core `core` (< m->path.ncores); none where a line
   would be empty. */
void csim_table_path_print(FILE *f, const struct csim_model *m, size_t core);

/* The kernel's what-ifs that change its span by 1 % or more, the two
   largest (`MTE2 2x faster: kernel -23 % (estimate)`). */
void csim_table_path_kernel_print(FILE *f, const struct csim_model *m);

#endif
