/*
 * run_select: which blocks of a file make up the run to convert (SPEC §2.1).
 *
 * The producer appends: one simulator run writes one TRACE block, so a file
 * with N TRACE blocks holds N runs. Run k is the k-th TRACE block with the
 * k-th API_INSTR and OP_BASIC_INFO block when the file holds as many of those
 * as TRACE blocks, else with the last of them. The file is read as a stream,
 * so N is known only at its end: the reader asks block by block what to do
 * and settles the rest once the file is read. No I/O here.
 */
#ifndef CSIM_RUN_SELECT_H
#define CSIM_RUN_SELECT_H

#include <stdint.h>

#include "base/csim_error.h"
#include "model/run_info.h"   /* struct csim_run_choice */

/* What to do with the TRACE block just met. */
enum csim_run_trace_action {
	CSIM_RUN_SKIP,      /* --run K: another run's block, not parsed */
	CSIM_RUN_ADD,       /* parse; its rows join those held (first, or --run all) */
	CSIM_RUN_REPLACE    /* parse after discarding the rows of the run before */
};

struct csim_runs {
	uint32_t want;          /* --run K (1-based), 0: the last */
	int all;                /* --run all */
	uint64_t ntrace, ninstr, nbasic;
	uint64_t basic_kth, basic_last;    /* OP_BASIC_INFO header offsets */
};

void csim_runs_init(struct csim_runs *rs, uint32_t want, int all);

/* A TRACE block: counts it and says whether and how to read it. */
enum csim_run_trace_action csim_runs_trace(struct csim_runs *rs);

/*
 * Where a block of a type the runs take (API_INSTR, OP_BASIC_INFO) is held
 * until the runs are settled: with --run all each in a slot of its own,
 * else the K-th of --run K apart and the latest in one slot. Never more
 * than these two are needed.
 */
enum csim_run_slot {
	CSIM_RUN_SLOT_OWN,    /* --run all: the block's own, the k-th */
	CSIM_RUN_SLOT_KTH,    /* the K-th block of --run K */
	CSIM_RUN_SLOT_LAST    /* the latest block (any earlier one replaced) */
};

/* An API_INSTR block: counts it and says where it is held. */
enum csim_run_slot csim_runs_instr(struct csim_runs *rs);

/* An OP_BASIC_INFO block at header offset `offset`: likewise. */
enum csim_run_slot csim_runs_basic_info(struct csim_runs *rs, uint64_t offset);

/* Where the k-th block of a type (csim_runs_block_of, k > 0) was held. */
enum csim_run_slot csim_runs_slot_of(const struct csim_runs *rs, uint64_t k);

/*
 * Once the file is read: the run, its API_INSTR and OP_BASIC_INFO. --run K
 * beyond the count of runs is an input error naming the count (the file,
 * not the command line, lacks the run). Call only with ntrace > 0.
 */
int csim_runs_settle(const struct csim_runs *rs, const char *path,
		     struct csim_run_choice *choice, struct csim_error *err);

/*
 * Of `count` blocks of a type, the 1-based one run `run` of `runs` takes:
 * its own when there is one per run, else the last; 0: none.
 */
uint64_t csim_runs_block_of(uint64_t count, uint64_t runs, uint64_t run);

#endif
