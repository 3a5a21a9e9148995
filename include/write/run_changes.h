/*
 * run_changes: how the span moved from each run to the next (--run all of
 * a file of several runs, SPEC §2.1: the compare view of §14 between
 * consecutive runs), in summary.json's "run_changes" and summary.html's
 * table (the table on stdout shows the compare view: write/run_compare.h).
 * The slowest core's span of each run, and per core that both runs hold
 * (matched by the pid the dump gives it) its span; changes in ns, as a
 * share of the earlier span, and in percent.
 */
#ifndef CSIM_RUN_CHANGES_H
#define CSIM_RUN_CHANGES_H

#include <stddef.h>

#include "write/out_file.h"
#include "model/model.h"

/* "run_changes":[…], one entry per pair of consecutive runs (n >= 2). */
void csim_run_changes_json(const struct csim_model *const *runs, size_t n, struct csim_out *o);

/* summary.html's "Run to run" section (n >= 2). */
void csim_run_changes_html(const struct csim_model *const *runs, size_t n, struct csim_out *o);

#endif
