/*
 * summary: what each core and pipe spent its time on (SPEC §10), as the
 * summary pass leaves it in the model (pass_summary.h says how) for the
 * summary writer. All times are ns on the grid of the event table.
 */
#ifndef CSIM_SUMMARY_H
#define CSIM_SUMMARY_H

#include <stddef.h>
#include <stdint.h>

/* Time a pipe spent in WAIT_FLAG for one producing pipe. */
struct csim_summary_wait {
	uint32_t producer;     /* id in table.pipes, or CSIM_NONE: not named */
	int64_t ns;            /* union of those waits' intervals */
};

struct csim_summary_pipe {
	uint32_t pipe;         /* id in table.pipes */
	int kept;              /* the lane is in the trace */
	uint64_t instructions; /* instruction slices (not SET/WAIT, BAR, cache/ccu) */
	int64_t busy_ns;       /* union of the instruction slices' intervals */
	uint32_t peak_depth;   /* kept: the packing's sub-lanes; dropped: peak
				  number of slices in progress in one ns */
	int64_t wait_ns;       /* union of all its WAIT_FLAG intervals */
	size_t wait0, nwaits;  /* its waits[] by producer, in pipe order */
};

struct csim_summary_core {
	uint32_t pid;          /* id in table.pids */
	int64_t first_ns, last_ns;   /* span: first start, last end */
	int64_t cross_wait_ns; /* union of its WAIT_INTRA_BLOCK intervals */
	size_t pipe0, npipes;  /* its pipes[], in lane order */
};

struct csim_summary {
	struct csim_summary_core *cores;   /* in output (process) order */
	size_t ncores;
	struct csim_summary_pipe *pipes;
	size_t npipes;
	struct csim_summary_wait *waits;
	size_t nwaits;
	/* load balance; meaningful when ncores > 0 */
	int64_t min_span_ns, median_span_ns, max_span_ns;
	size_t slowest;        /* index in cores[]: largest span, first in order */
};

void csim_summary_release(struct csim_summary *s);

#endif
