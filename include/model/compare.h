/*
 * compare: two results side by side (SPEC §14): which spans changed and
 * by how much, per pipe busy time and critical-path share, the top
 * instructions and source lines whose cycles moved most, the diagnosis
 * lines that appeared or went away, and the gate of --fail-if-slower.
 * No I/O: the writers (write/compare_table.h, write/compare_json.h) print
 * what this holds.
 */
#ifndef CSIM_COMPARE_H
#define CSIM_COMPARE_H

#include <stddef.h>
#include <stdint.h>

#include "base/csim_error.h"
#include "model/compare_rows.h"
#include "model/result.h"

/* A span compared: ns and cycles on both sides. */
struct csim_compare_span {
	struct csim_compare_pair ns, cycles;
};

struct csim_compare_pipe {
	struct csim_span pipe;
	struct csim_compare_pair busy_ns;
	struct csim_compare_pair path_ns;   /* NONE: that side's core has no path */
};

struct csim_compare_core {
	struct csim_span core;
	struct csim_compare_span span;
	size_t pipe0, npipes;               /* into pipes */
};

/* The kernel's span with one pipe twice as fast on each side (estimates). */
struct csim_compare_estimate {
	struct csim_span pipe;
	struct csim_compare_pair span_ns;   /* NONE: that side estimates no such pipe */
};

struct csim_compare_diag {
	const struct csim_result_diag *d;
	int appeared;               /* 1: in NEW only; 0: in BASE only */
};

struct csim_compare_dump {
	struct csim_span dump;
	const struct csim_result_dump *base, *now;   /* NULL: removed / added */
};

/* Why two results may not be like for like (a warning each). */
enum {
	CSIM_COMPARE_OTHER_OP = 1,
	CSIM_COMPARE_OTHER_SOC = 2,
	CSIM_COMPARE_OTHER_CLOCK = 4
};

/* A span past the threshold of --fail-if-slower. */
struct csim_compare_slower {
	struct csim_span what;      /* the core or dump; p NULL: the kernel */
	struct csim_compare_pair ns;
};

/* What the table's first line calls a side. */
#define CSIM_COMPARE_LABEL 32

struct csim_compare {
	enum csim_result_kind kind;
	const struct csim_result *base, *now;
	char base_label[CSIM_COMPARE_LABEL], now_label[CSIM_COMPARE_LABEL];   /* "": the file */
	/* single */
	const struct csim_result_run *base_run, *now_run;
	struct csim_compare_span kernel;    /* the slowest core's span */
	struct csim_compare_core *cores;    /* NEW's order, then BASE's others */
	size_t ncores;
	size_t shown;                       /* the core whose pipes the table shows */
	struct csim_compare_pipe *pipes;
	size_t npipes;
	int complete;                       /* instrs and lines: every one that moved
					       (both summaries carry every instruction),
					       not only the top tens */
	struct csim_compare_item *instrs;   /* largest change first */
	size_t ninstrs;
	struct csim_compare_item *lines;
	size_t nlines;
	struct csim_compare_diag *diags;    /* appeared, then gone */
	size_t ndiags;
	struct csim_compare_estimate *estimates;   /* NEW's order, then BASE's others */
	size_t nestimates;
	/* batch */
	struct csim_compare_dump *dumps;    /* in both, then added, then removed */
	size_t ndumps, nadded, nremoved;
	unsigned other;                     /* CSIM_COMPARE_OTHER_* */
	size_t other_ops;                   /* batch: dumps whose op differs */
	/* the gate */
	double threshold;                   /* percent; < 0: no gate */
	struct csim_compare_slower *slower;
	size_t nslower;
};

/*
 * Compares nw against base (both of one kind; a file of several runs is
 * compared by its last run). threshold: --fail-if-slower's percent, or
 * negative. CSIM_E_USAGE when the kinds differ; out of memory is
 * CSIM_E_INPUT.
 */
int csim_compare_build(struct csim_compare *c, const struct csim_result *base,
		       const struct csim_result *nw, double threshold, struct csim_error *err);

/*
 * Run base_run of base against run now_run of nw (0-based, both SINGLE):
 * consecutive runs of one file (--run all, SPEC §2.1), labelled "run K".
 */
int csim_compare_runs(struct csim_compare *c, const struct csim_result *base, size_t base_run,
		      const struct csim_result *nw, size_t now_run, struct csim_error *err);

void csim_compare_release(struct csim_compare *c);

/* (now - base) / base, or 0 when either is NONE or base is 0 (*known 0). */
double csim_compare_change(struct csim_compare_pair p, int *known);

/* now - base, or CSIM_RESULT_NONE. */
int64_t csim_compare_delta(struct csim_compare_pair p);

#endif
