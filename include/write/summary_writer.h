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
#include "model/clock.h"
#include "model/model.h"
#include "read/basic_info.h"
#include "write/out_file.h"

/* Which run was converted (SPEC §2.1) and what its OP_BASIC_INFO says. */
struct csim_summary_run {
	uint64_t run, runs;      /* 1-based run converted; TRACE blocks in the file */
	int side_by_side;        /* --run all of several runs: each summarized apart */
	const struct csim_basic_info *basic;   /* no payload: no OP_BASIC_INFO */
};

/* One run's model and what the summaries say of its run. */
struct csim_summary_part {
	const struct csim_model *m;
	struct csim_summary_run run;
};

/*
 * The run's clock (SPEC §10): 1 and *clock filled when the run has an
 * OP_BASIC_INFO (its cur_freq, else its SoC's clock, else the simulator's
 * default), or else when API_INSTR gives one (summary.derived_mhz); 0 when
 * the clock is unknown. The table prints the same clock.
 */
int csim_summary_run_clock(const struct csim_summary_run *run, const struct csim_summary *s,
			   struct csim_clock *clock);

/* ns as cycles of the clock, rounded half away from zero. */
int64_t csim_summary_cycles(const struct csim_clock *clock, int64_t ns);

/* Mean bandwidth in MB/s (GB/s with 3 decimals): bytes over busy_ns > 0. */
int64_t csim_summary_bandwidth_mbps(uint64_t bytes, int64_t busy_ns);

/*
 * Writes the whole file into o; a write error is reported by commit(). One
 * run: its summary. Several (--run all): {"schema":1,"runs":[...],
 * "run_changes":[...]}, each run's summary as one would stand alone (but
 * for "schema") and the span's change from each run to the next.
 */
void csim_summary_write(const struct csim_summary_part *parts, size_t n, struct csim_out *o);

#endif
