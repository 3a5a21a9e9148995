/*
 * compare_rows: the instructions and source lines of two summaries that
 * carry every instruction ("instructions", docs/summary.md), set against
 * each other whole (docs/compare.md, "Instructions"): an instruction is
 * its mnemonic and source line (its address where a row has no line), a
 * line its source text; the cycles of every row with that key are summed
 * on each side, and only what changed is listed. Flag rows (waits) are
 * left out of the instructions and kept in their lines.
 */
#ifndef CSIM_COMPARE_ROWS_H
#define CSIM_COMPARE_ROWS_H

#include <stddef.h>
#include <stdint.h>

#include "model/result.h"

/* A figure on both sides; CSIM_RESULT_NONE where a side lacks it. */
struct csim_compare_pair {
	int64_t base, now;
};

/* An instruction or a source line whose cycles moved. */
struct csim_compare_item {
	struct csim_span name;      /* instructions: the mnemonic; lines: NULL */
	struct csim_span source;
	struct csim_span address;   /* NEW's address, else BASE's */
	struct csim_compare_pair cycles;   /* NONE: outside that side's top 10, or
					      (complete) not on that side */
};

/*
 * The items of base and now (both with has_all): *instrs and *lines, the
 * changed ones, unsorted, malloc'd (the caller frees them). -1 when out of
 * memory (each then NULL or whole).
 */
int csim_compare_rows(const struct csim_result_run *base, const struct csim_result_run *now,
		      struct csim_compare_item **instrs, size_t *ninstrs,
		      struct csim_compare_item **lines, size_t *nlines);

#endif
