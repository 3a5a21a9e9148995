/*
 * critical_path: per core, the chain of work that sets its span (SPEC
 * §13), as the path pass (pass_path.h) leaves it in the model for the
 * writers. All times are ns on the grid of the event table; the rules that
 * find the chain are in path_bind.h and docs/critical-path.md.
 */
#ifndef CSIM_CRITICAL_PATH_H
#define CSIM_CRITICAL_PATH_H

#include <stddef.h>
#include <stdint.h>

enum csim_path_seg_kind {
	CSIM_SEG_BUSY,    /* inside one instruction slice */
	CSIM_SEG_WAIT,    /* from a flag's producer's end to its consumer's start */
	CSIM_SEG_CROSS,   /* waiting on another core: along a cross-core
			     arrow, or inside a WAIT_INTRA_BLOCK slice */
	CSIM_SEG_ISSUE    /* nothing the trace shows explains the time */
};

/* One segment; a core's segments tile its span in time order. */
struct csim_path_seg {
	int64_t start, end;
	uint32_t slice;      /* BUSY, CROSS inside a slice: that slice; WAIT,
				CROSS along an arrow: the consumer it released;
				ISSUE: CSIM_NONE */
	uint32_t producer;   /* WAIT, CROSS along an arrow: the producer slice
				(on the other core for CROSS); else CSIM_NONE */
	uint32_t pipe;       /* BUSY, CROSS inside a slice: the slice's pipe;
				WAIT, CROSS along an arrow: the consumer pipe
				the flag names; ISSUE: CSIM_NONE */
	uint32_t producer_pipe;   /* WAIT, CROSS along an arrow: the producer
				     pipe the flag names; else CSIM_NONE */
	uint8_t kind;        /* enum csim_path_seg_kind */
};

/* Busy time on the path by pipe. */
struct csim_path_busy {
	uint32_t pipe;
	int64_t ns;
};

/* Flag-wait time on the path by (producer pipe, consumer pipe). */
struct csim_path_wait {
	uint32_t producer, consumer;
	int64_t ns;
};

/* The instructions holding the most time on a core's path: at most this
   many (SPEC §13). */
#define CSIM_PATH_TOP 10

/* Time on the path by instruction (an id in table->instrs): inside it,
   and waited for its release (flag and cross-core waits it released). */
struct csim_path_instr {
	uint32_t instr;
	int64_t ns;              /* busy_ns + released_ns */
	int64_t busy_ns, released_ns;
};

/* The span estimated with one pipe's instructions twice as fast; for the
   pipes busiest on the paths of a core and the cores it syncs with, at
   most this many (path_what_if.h). */
#define CSIM_PATH_WHAT_IF_MAX 16

struct csim_path_what_if {
	uint32_t pipe;
	int64_t span_ns;
};

/* The kernel's span (its slowest core's) with one pipe twice as fast on
   every core, and the core that sets it then (an index in summary.cores). */
struct csim_path_kernel_what_if {
	uint32_t pipe;
	int64_t span_ns;
	uint32_t core;
};

/*
 * One core's path: its segments and their sums. busy, wait, cross_ns and
 * issue_ns add up to span_ns; busy and wait are sorted by ns, largest
 * first (ties: lane order), top likewise (ties: the instruction the path
 * reaches first in time), what_if by span_ns, smallest first.
 */
struct csim_path_core {
	int64_t first_ns, span_ns;   /* the summary core's span */
	size_t seg0, nseg;
	size_t busy0, nbusy;
	size_t wait0, nwait;
	int64_t cross_ns, issue_ns;
	size_t top0, ntop;           /* largest first; ties: reached first */
	size_t what_if0, nwhat_if;   /* none with --window: see pass_path.h */
};

struct csim_path {
	struct csim_path_core *cores;   /* one per summary core, in its order */
	size_t ncores;
	struct csim_path_seg *segs;
	size_t nsegs;
	struct csim_path_busy *busy;
	size_t nbusy;
	struct csim_path_wait *waits;
	size_t nwaits;
	struct csim_path_instr *top;
	size_t ntop;
	struct csim_path_what_if *what_if;
	size_t nwhat_if;
	/* by span_ns, smallest first; none with --window */
	struct csim_path_kernel_what_if kernel[CSIM_PATH_WHAT_IF_MAX];
	size_t nkernel;
};

void csim_path_release(struct csim_path *p);

#endif
