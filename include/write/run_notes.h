/*
 * run_notes: the warning and note lines that end a conversion — what was
 * read, kept, dropped and skipped, and why — from the model and a few facts
 * of the reading.
 */
#ifndef CSIM_RUN_NOTES_H
#define CSIM_RUN_NOTES_H

#include <stddef.h>
#include <stdint.h>

#include "model/model.h"
#include "base/log.h"

/* Facts of the reading that the model does not hold. */
struct csim_run_facts {
	const char *bin_path;
	size_t trace_blocks;      /* converted */
	int have_metrics;
	uint64_t instr_offset;    /* of the one used */
	int run_given;            /* --run K */
	int run_all;              /* --run all */
	uint64_t metrics_records; /* per-core rows of the API_INSTR (rows x cores) */
	uint64_t metrics_left_out;   /* of those, left out of instr_metrics.json */
	uint64_t run_label;       /* --run all of several runs: the run, which
				     starts each of its notes ("run 2: "); 0: none */
	int first;                /* the first run's notes: say which runs */
	int files;                /* outputs are written (not --summary-only) */
};

void csim_run_notes_print(struct csim_log *log, const struct csim_model *m,
			  const struct csim_run_facts *facts);

#endif
