/*
 * summary: what each core and pipe spent its time on (SPEC §10), as the
 * summary pass leaves it in the model (pass_summary.h says how) for the
 * summary writer. All times are ns on the grid of the event table.
 */
#ifndef CSIM_SUMMARY_H
#define CSIM_SUMMARY_H

#include <stddef.h>
#include <stdint.h>

#include "model/event_table.h"

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
	uint32_t depth;        /* pipeline depth (SPEC §4, model/occupancy.h) of
				  its slices (with --window: those in the window,
				  clipped to it); 0 without instructions */
	int has_rows;          /* a kept lane: it has rows in the trace */
	uint32_t rows;         /* its sub-lanes (with --window: those its slices
				  in the window use, highest + 1) */
	/* MTE1/2/3 with busy time: the part of busy_ns during which a compute
	   pipe of the core (CUBE, the vector family, FIXP) is busy too */
	int has_overlap;
	int64_t overlap_ns;
	int64_t wait_ns;       /* union of all its WAIT_FLAG intervals */
	size_t wait0, nwaits;  /* its waits[] by producer, in pipe order */
	/* From API_INSTR (SPEC §10), when the run has one and it names this
	   core and pipe: rows whose Pipe is this pipe, their column of this core */
	int has_instr;
	uint64_t instr_cycles;     /* sum of Cycles */
	uint64_t instr_executed;   /* sum of Instructions Executed */
	double util_weighted;      /* sum of Vector Utilization x Cycles, over
				      rows whose utilization is not -1 */
	uint64_t util_cycles;      /* the Cycles of those rows; 0: no utilization */
	uint64_t instr_sync_cycles; /* Cycles of its SET/WAIT flag rows */
	/* MTE pipes: bytes moved, from the slices' args.process_bytes (with
	   --window, each slice's in proportion to its part in the window) */
	int has_bytes;
	uint64_t bytes;
	int64_t slice_ns;      /* sum of its instruction slices' lengths: with
				  instr_cycles, it gives the clock (below) */
};

struct csim_summary_core {
	uint32_t pid;          /* id in table.pids */
	int64_t first_ns, last_ns;   /* span: first start, last end */
	int64_t cross_wait_ns; /* union of its WAIT_INTRA_BLOCK intervals */
	size_t pipe0, npipes;  /* its pipes[], in lane order */
};

/* How many source lines the summary ranks (SPEC §10: the top 10). */
#define CSIM_SUMMARY_TOP_LINES 10

/* A source line among those with the most cycles: its API_INSTR rows summed. */
struct csim_summary_line {
	uint32_t source;       /* id in the model's instr.text ("file:line") */
	uint64_t cycles, executed;
	uint64_t addresses;    /* distinct addresses of its rows with cycles */
};

/* Why API_INSTR gives no clock (derived_mhz 0): what "clock unknown" says. */
enum csim_clock_gap {
	CSIM_CLOCK_GAP_NO_INSTR,   /* no API_INSTR figures (none, or refused) */
	CSIM_CLOCK_GAP_WINDOW,     /* --window: whole-run cycles, clipped slices */
	CSIM_CLOCK_GAP_NO_MATCH,   /* no pipe whose executions equal its slices */
	CSIM_CLOCK_GAP_DISAGREE,   /* the matching pipes more than 1 % apart */
	CSIM_CLOCK_GAP_NOT_SIM     /* their pooled value no simulator clock */
};

/* Whether a slice is one of a pipe's instructions (not a SET/WAIT flag, a
   BAR or a cache/ccu companion): what `instructions` and `busy` count. */
int csim_summary_counts_as_instruction(const struct csim_slice *sl);

/*
 * The slowest core's timeline (model/timeline_bins.h): per pipe of it (its
 * pipes[] in order), the ns its instructions are busy in each bin of the
 * core's span, summed over sub-lanes; what summary.json's "timeline"
 * holds and compare.html draws.
 */
struct csim_summary_timeline {
	int64_t bin_ns;        /* 0: no timeline (no core) */
	size_t nbins, nrows;
	uint64_t *busy;        /* [row * nbins + bin] */
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
	/* The clock API_INSTR's cycles and the slices' lengths agree on
	   (summary_instr.h), 0 when they do not */
	double derived_mhz;
	enum csim_clock_gap clock_gap;   /* why, when derived_mhz is 0 */
	/* The source lines with the most cycles, most first (summary_instr.h);
	   none without API_INSTR */
	struct csim_summary_line lines[CSIM_SUMMARY_TOP_LINES];
	size_t nlines;
	struct csim_summary_timeline timeline;
};

/*
 * Diagnosis lines (diagnosis.h computes them): one per rule that fired,
 * the cores it holds on with each core's numbers, in rank order.
 */
/* The core of a whole-run line. */
#define CSIM_DIAG_ALL SIZE_MAX

enum csim_diag_rule {
	CSIM_DIAG_NEAR_EMPTY,
	CSIM_DIAG_NO_CUBE,
	CSIM_DIAG_TRUNCATED,
	CSIM_DIAG_TRANSFER_BOUND,
	CSIM_DIAG_VECTOR_SHAPE,
	CSIM_DIAG_SCALAR_BOUND,
	CSIM_DIAG_SYNC_BOUND,
	CSIM_DIAG_CROSS_CORE,
	CSIM_DIAG_LOAD_IMBALANCE,
	CSIM_DIAG_PATH_BOUND,      /* the pipe holding the critical path, where the
				      core's other lines name less of it */
	CSIM_DIAG_RULE_COUNT
};

/* What a number of a line is: an integer, a pipe id or a pid id (CSIM_NONE: none). */
enum csim_diag_kind { CSIM_DIAG_INT, CSIM_DIAG_PIPE, CSIM_DIAG_PID };

/*
 * The figures a line or core entry can hold, each with its one name in
 * summary.json (csim_diag_fig_name, diagnosis.h): an enum so that a
 * misspelt figure does not compile. Enum order is not output order: a
 * line lists its figures in the order its rule adds them.
 */
enum csim_diag_fig {
	CSIM_DIAG_FIG_INSTRUCTIONS,
	CSIM_DIAG_FIG_CORES,
	CSIM_DIAG_FIG_CUBE_CORES,
	CSIM_DIAG_FIG_CUBE_CORE_INSTRUCTIONS,
	CSIM_DIAG_FIG_CUBE_INSTRUCTIONS,
	CSIM_DIAG_FIG_CUBE_CYCLES,
	CSIM_DIAG_FIG_UNRELEASED_WAITS,
	CSIM_DIAG_FIG_CORES_WAITING,
	CSIM_DIAG_FIG_PIPE,
	CSIM_DIAG_FIG_BUSY_NS,
	CSIM_DIAG_FIG_SPAN_NS,
	CSIM_DIAG_FIG_COMPUTE_PIPE,
	CSIM_DIAG_FIG_COMPUTE_BUSY_NS,
	CSIM_DIAG_FIG_UTILIZATION_X100,
	CSIM_DIAG_FIG_UTILIZATION_CYCLES,
	CSIM_DIAG_FIG_STARVED_PIPE,
	CSIM_DIAG_FIG_STARVED_WAIT_NS,
	CSIM_DIAG_FIG_WAIT_FLAG_NS,
	CSIM_DIAG_FIG_PRODUCER,
	CSIM_DIAG_FIG_PRODUCER_NS,
	CSIM_DIAG_FIG_CROSS_CORE_WAIT_NS,
	CSIM_DIAG_FIG_PARTNER_CORE,
	CSIM_DIAG_FIG_PARTNER_PIPE,
	CSIM_DIAG_FIG_PARTNER_WAITS,
	CSIM_DIAG_FIG_WAITS,
	CSIM_DIAG_FIG_MAX_SPAN_NS,
	CSIM_DIAG_FIG_MEDIAN_SPAN_NS,
	CSIM_DIAG_FIG_MIN_SPAN_NS,
	CSIM_DIAG_FIG_PATH_NS,
	CSIM_DIAG_FIG_COUNT
};

struct csim_diag_num {
	enum csim_diag_fig fig;
	int kind;              /* enum csim_diag_kind */
	int64_t v;
};

#define CSIM_DIAG_MAX_NUMS 8

/* What a rule found on one core: its numbers and how much they weigh. */
struct csim_diag_at {
	size_t core;                 /* index in summary.cores */
	int64_t evidence_ns;         /* the rule's evidence on this core (diagnosis.h) */
	struct csim_diag_num nums[CSIM_DIAG_MAX_NUMS];
	size_t nnums;
};

struct csim_diag {
	enum csim_diag_rule rule;
	int primary;                 /* the first line: the likely main cause */
	size_t core;                 /* the core nums describe (index in
					summary.cores), or CSIM_DIAG_ALL: the run */
	struct csim_diag_num nums[CSIM_DIAG_MAX_NUMS];
	size_t nnums;
	size_t at0, nat;             /* its cores: diagnosis.at[at0, at0 + nat),
					in core order */
	int64_t evidence_ns;         /* the ranking measure (diagnosis.h) */
};

struct csim_diagnosis {
	struct csim_diag *lines;     /* in rank order, the primary first */
	size_t n;
	struct csim_diag_at *at;
	size_t nat;
	int64_t rank_span_ns;        /* what evidence is a share of: the slowest
					core's span */
};

void csim_summary_release(struct csim_summary *s);
void csim_diagnosis_release(struct csim_diagnosis *d);

/* The value of a line's own figure; 0 when it has none; csim_diag_has: whether it has it. */
int64_t csim_diag_num(const struct csim_diag *d, enum csim_diag_fig fig);
int csim_diag_has(const struct csim_diag *d, enum csim_diag_fig fig);

/* The same for one core's entry. */
int64_t csim_diag_at_num(const struct csim_diag_at *at, enum csim_diag_fig fig);
int csim_diag_at_has(const struct csim_diag_at *at, enum csim_diag_fig fig);

#endif
