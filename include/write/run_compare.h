/*
 * run_compare: the compare view of SPEC §14 between consecutive runs of a
 * file converted with --run all (SPEC §2.1), printed after the runs'
 * tables. Its figures are summary.json's: the document is written into
 * memory and read back as --compare reads a file, so the view and
 * `--compare` of two runs' summaries cannot disagree.
 */
#ifndef CSIM_RUN_COMPARE_H
#define CSIM_RUN_COMPARE_H

#include <stddef.h>
#include <stdio.h>

#include "base/csim_error.h"
#include "model/compare.h"
#include "model/model.h"
#include "model/result.h"
#include "write/summary_view.h"

struct csim_run_compare {
	struct csim_result summary;   /* summary.json of every run, read back */
	struct csim_compare *pairs;   /* run k against run k + 1 */
	size_t npairs;
};

/* Nothing for one run. Out of memory: CSIM_E_INPUT. */
int csim_run_compare_prepare(struct csim_run_compare *rc, const struct csim_model *const *runs,
			     size_t n, const struct csim_view_input *in, struct csim_error *err);

void csim_run_compare_print(const struct csim_run_compare *rc, FILE *f);

void csim_run_compare_release(struct csim_run_compare *rc);

#endif
