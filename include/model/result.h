/*
 * result: the figures of one converted result that --compare sets side by
 * side (SPEC §14), as summary.json and batch_summary.json hold them. Plain
 * data: the reader (read/result_read.h) fills it, the comparison
 * (model/compare.h) reads it. Every string is a span into the result's own
 * decoded text, which lives as long as the result.
 */
#ifndef CSIM_RESULT_H
#define CSIM_RESULT_H

#include <stddef.h>
#include <stdint.h>

#include "base/span.h"

/* A figure summary.json writes as null (no clock, no path). */
#define CSIM_RESULT_NONE INT64_MIN

enum csim_result_kind {
	CSIM_RESULT_SINGLE,   /* a summary.json: one dump, one or several runs */
	CSIM_RESULT_BATCH     /* a batch_summary.json: one row per dump */
};

struct csim_result_pipe {
	struct csim_span pipe;
	int64_t busy_ns;
	int64_t path_ns;      /* its busy time on the critical path; NONE: no path */
};

struct csim_result_core {
	struct csim_span core;
	int64_t span_ns;
	int64_t span_cycles;  /* NONE: the clock is unknown */
	size_t pipe0, npipes; /* into the run's pipes */
	int has_path;
};

/* An instruction (summary.json top_instructions, or instructions: flag set there). */
struct csim_result_instr {
	struct csim_span name, source, address, pipe;
	int64_t cycles;
	int flag;                     /* a SET/WAIT flag row */
};

/* A top source line (summary.json top_source_lines). */
struct csim_result_line {
	struct csim_span source;
	int64_t cycles;
};

/* An estimate of the kernel's what-if (load_balance.what_if): its span with
   one pipe twice as fast on every core. */
struct csim_result_estimate {
	struct csim_span pipe;
	int64_t span_ns;
};

struct csim_result_diag {
	struct csim_span id, text;
	int primary;
	size_t ncores;        /* the cores it holds on */
};

/* summary.json's "timeline": the slowest core's busy ns per bin, per pipe. */
struct csim_result_timeline {
	struct csim_span core;
	int64_t first_ns, span_ns, bin_ns;   /* bin_ns 0: none */
	size_t nbins;                 /* of every row */
	struct csim_span *pipes;      /* the rows' pipes */
	size_t nrows;
	int64_t *busy;                /* [row * nbins + bin] */
};

struct csim_result_run {
	unsigned index;               /* 1-based, as summary.json's run.index */
	int side_by_side;             /* --run all: cores named "<pid> run <k>" in the file */
	struct csim_span op, soc;     /* p NULL: not in the file */
	double mhz;                   /* 0: no clock */
	struct csim_result_core *cores;
	size_t ncores;
	struct csim_result_pipe *pipes;
	size_t npipes;
	size_t slowest;               /* index into cores; ncores when none */
	struct csim_result_instr *instrs;
	size_t ninstrs;
	struct csim_result_instr *all;    /* "instructions": every row with cycles */
	size_t nall;
	int has_all;                      /* the summary has them (newer than top ten) */
	struct csim_result_line *lines;
	size_t nlines;
	struct csim_result_diag *diags;
	size_t ndiags;
	struct csim_result_estimate *estimates;   /* in the file's order */
	size_t nestimates;
	struct csim_result_timeline timeline;
};

/* A batch row (batch_summary.json rows[]). */
struct csim_result_dump {
	int64_t index;                /* its place in the whole sorted list; NONE: absent */
	struct csim_span dump, message, op;
	int ok;
	int64_t span_ns;              /* the slowest core's; NONE: failed or no core */
	int64_t span_cycles;          /* NONE: no clock */
	struct csim_span path_top;    /* p NULL: no path */
	double path_share;
	struct csim_span primary;     /* p NULL: no rule fired */
};

struct csim_result {
	enum csim_result_kind kind;
	char *file;                   /* the JSON file read (malloc'd path) */
	char *json;                   /* its bytes, NUL-terminated */
	size_t size;
	char *text;                   /* decoded strings; spans point here */
	size_t text_len;
	struct csim_result_run *runs; /* SINGLE: every run, in file order */
	size_t nruns;
	struct csim_result_dump *dumps;   /* BATCH: rows in file order (shards: by index) */
	size_t ndumps;
	int64_t shard_k, shard_n;     /* BATCH of one --shard K/N; shard_n 0: none */
	char **held;                  /* merged shards' json and text, spans point there */
	size_t nheld;
};

void csim_result_init(struct csim_result *r);
void csim_result_release(struct csim_result *r);

/* The index of the core, pipe, dump named s in its list; n when absent. */
size_t csim_result_core_find(const struct csim_result_run *run, struct csim_span s);
size_t csim_result_pipe_find(const struct csim_result_run *run,
			     const struct csim_result_core *c, struct csim_span s);
size_t csim_result_dump_find(const struct csim_result *r, struct csim_span s);

/*
 * Do two dump paths name the same place in two builds (docs/compare.md,
 * "Batches")? The part up to a kernel_insight_all_funcs_<ts> folder is
 * left out, and an OPPROF_<ts> folder matches any other OPPROF_ folder:
 * the timestamped levels msprof and its callers add. Exact paths are
 * compared first (csim_result_dump_find); this only pairs what is left.
 */
int csim_result_dump_same_place(struct csim_span a, struct csim_span b);

/* Whether two spans hold the same bytes (both absent counts as equal). */
int csim_result_same(struct csim_span a, struct csim_span b);

#endif
