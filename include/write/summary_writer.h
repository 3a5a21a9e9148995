/*
 * summary_writer: the model's summary (pass_summary.h) as summary.json,
 * schema 1 (docs/summary.md). Numbers are integers or fixed decimals
 * computed in integers, so the same input gives the same bytes. Fields of
 * SPEC §10 that no pass computes yet are written as null.
 */
#ifndef CSIM_SUMMARY_WRITER_H
#define CSIM_SUMMARY_WRITER_H

#include <stdint.h>

#include "base/csim_error.h"
#include "model/model.h"
#include "read/basic_info.h"
#include "write/out_file.h"

/* Which run was converted (SPEC §2.1) and what its OP_BASIC_INFO says. */
struct csim_summary_run {
	uint64_t run, runs;      /* 1-based run converted; TRACE blocks in the file */
	int merged;              /* --run all: every run on one timeline */
	const struct csim_basic_info *basic;   /* no payload: no OP_BASIC_INFO */
};

/* Writes the whole file into o; a write error is reported by commit(). */
void csim_summary_write(const struct csim_model *m, const struct csim_summary_run *run,
			struct csim_out *o);

#endif
