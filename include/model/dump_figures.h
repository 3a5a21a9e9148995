/*
 * dump_figures: the few figures of one converted dump that a batch summary
 * row carries (SPEC §11), taken from the model after the passes: the op
 * name, the slowest core's span, what the trace holds, what was skipped,
 * each pipe's busy time against the span of the cores running it, the
 * diagnosis and the slowest core's critical path. Plain data: it crosses from a batch worker to the parent as
 * bytes (cli/batch_wire.h).
 */
#ifndef CSIM_DUMP_FIGURES_H
#define CSIM_DUMP_FIGURES_H

#include <stddef.h>
#include <stdint.h>

#include "base/csim_error.h"
#include "model/clock.h"
#include "model/model.h"

/* One pipe over every core that has it: sums, not unions (cores run at once). */
struct csim_dump_share {
	char *pipe;
	int64_t busy_ns;       /* its busy time (summary.json busy_ns), summed */
	int64_t span_ns;       /* the spans of the cores having it, summed */
};

struct csim_dump_figures {
	char *op_name;            /* OP_BASIC_INFO name as the summary table
				     prints it; NULL: none */
	int has_span;             /* the run has cores */
	int64_t slowest_span_ns;  /* the slowest core's span (summary.json
				     load_balance max_span_ns) */
	int has_cycles;           /* the run's clock is known */
	int64_t slowest_span_cycles;   /* that span at the clock, as the core's
					  span_cycles in summary.json */
	uint64_t slices;          /* instruction slices in the trace */
	uint64_t arrows;          /* arrows in the trace */
	uint64_t skipped_events;  /* events skipped for missing or bad fields */
	uint64_t skipped_flags;   /* sync flags that could not be re-anchored */
	struct csim_dump_share *shares;   /* in order of first appearance */
	size_t nshares;
	char *diag_ids;           /* rule ids in rank order, space-separated ("" for none) */
	char *diag_text;          /* the lines as printed, joined by " | " */
	char *diag_primary;       /* the primary line's rule id ("" for none) */
	char **primary_cores;     /* the pids it holds on */
	size_t nprimary_cores;
	/* the largest part of the slowest core's critical path (SPEC §13), as
	   the table's critical-path line names it ("MTE2", "wait MTE2->VECTOR",
	   "cross-core wait", "issue"; "" without a path), and its share of the
	   core's span in 1/10000 (-1: none) */
	char *path_top;
	int64_t path_share_e4;
};

/*
 * Fills f from a model the passes have run on (the op name and clock from
 * its run facts, model/run_info.h, as the summary gives them). Returns
 * CSIM_OK or, out of memory, CSIM_E_INPUT (f is then empty).
 */
int csim_dump_figures_take(struct csim_dump_figures *f, const struct csim_model *m,
			   struct csim_error *err);

void csim_dump_figures_release(struct csim_dump_figures *f);

/*
 * busy/span as a share with 4 decimals in 1/10000 units, rounded half up
 * (summary.json's busy_share); -1 when span <= 0.
 */
int64_t csim_dump_share_e4(int64_t busy_ns, int64_t span_ns);

#endif
