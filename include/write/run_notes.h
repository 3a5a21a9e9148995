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
	size_t trace_blocks;
	int have_metrics;
	unsigned instr_ignored;   /* API_INSTR blocks after the first */
	uint64_t instr_offset;    /* of the one used */
};

void csim_run_notes_print(struct csim_log *log, const struct csim_model *m,
			  const struct csim_run_facts *facts);

#endif
