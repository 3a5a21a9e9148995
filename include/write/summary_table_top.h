/*
 * summary_table_top: the table's lists from API_INSTR (docs/summary.md,
 * "The table"): the first rows of summary.json's top_instructions and of
 * its top_source_lines, each source line fitted keeping its end
 * (`…/mm_kernel.cpp:91`, SPEC §10).
 */
#ifndef CSIM_SUMMARY_TABLE_TOP_H
#define CSIM_SUMMARY_TABLE_TOP_H

#include <stdio.h>

#include "model/model.h"

/* How many rows of each list the table prints (summary.json has ten). */
#define CSIM_TABLE_TOP 5

/* Prints both lists when the run has rows for them; nothing otherwise. */
void csim_table_top_print(FILE *f, const struct csim_model *m);

#endif
