/*
 * run_changes: how the span moved from each run to the next (--run all of
 * a file of several runs, SPEC §2.1: the compare view of §14 between
 * consecutive runs), in each output that shows it: summary.json's
 * "run_changes", the table's run-to-run lines and summary.html's table.
 * The slowest core's span of each run, and per core that both runs hold
 * (matched by the pid the dump gives it) its span; changes in ns, as a
 * share of the earlier span, and in percent.
 */
#ifndef CSIM_RUN_CHANGES_H
#define CSIM_RUN_CHANGES_H

#include <stddef.h>
#include <stdio.h>

#include "write/out_file.h"
#include "model/model.h"
#include "write/summary_table.h"

/* "run_changes":[…], one entry per pair of consecutive runs (n >= 2). */
void csim_run_changes_json(const struct csim_model *const *runs, size_t n, struct csim_out *o);

/* The table's lines after the runs' tables; nothing for one run. */
void csim_run_changes_print(const struct csim_summary_table *t, size_t n, FILE *f);

/* summary.html's "Run to run" section (n >= 2). */
void csim_run_changes_html(const struct csim_model *const *runs, size_t n, struct csim_out *o);

#endif
