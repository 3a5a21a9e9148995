/*
 * dump_read: the first reading of a dump (SPEC §2, §2.1). Every block is
 * met once; each TRACE block of the runs to convert is ingested into a run
 * part of its own, and the runs' API_INSTR, OP_BASIC_INFO and API_FILE
 * blocks are located, then loaded into their parts once the runs are
 * settled at the end of the file.
 *
 * A part is one run with everything it owns: its model (which holds the
 * run's place in the file and its OP_BASIC_INFO), the slice store of its
 * TRACE block, its metrics. The default and --run K convert one part;
 * --run all makes one per run of the file, so pairing, anchoring and
 * packing never cross a run (SPEC §2.1) by construction.
 */
#ifndef CSIM_DUMP_READ_H
#define CSIM_DUMP_READ_H

#include <stddef.h>
#include <stdint.h>

#include "base/csim_error.h"
#include "base/log.h"
#include "model/cut.h"
#include "model/lane_rule.h"
#include "model/lane_verdict.h"
#include "model/model.h"
#include "read/block_reader.h"
#include "read/instr_digest.h"
#include "read/instr_index.h"
#include "read/run_select.h"
#include "read/slice_store.h"

/*
 * A reader of each run's API_INSTR rows besides the digest, in the digest's
 * reading (the metrics writer's sizing: the rows are then read once before
 * the write). open() fills *sink for the rows of part `part`; once they are
 * read, refused() says whether that run's API_INSTR is refused whole (its
 * reshape would pass its bound): its digest is then dropped, and the
 * summary has no API_INSTR figures.
 */
struct csim_rows_hook {
	int (*open)(void *ctx, size_t part, const struct csim_metrics *mt,
		    struct csim_instr_sink *sink, struct csim_error *err);
	int (*refused)(void *ctx, size_t part, const struct csim_metrics *mt);
	void *ctx;
};

/* What the reading takes of the command line: which runs, the model's choices. */
struct csim_read_choices {
	uint32_t run;                /* --run K (1-based); 0: the last run */
	int run_all;                 /* --run all: every run side by side */
	struct csim_lane_rule rule;  /* --keep-scalar, --keep-cache-ccu */
	const char *const *cores;    /* --core patterns (outlive the dump) */
	size_t ncores;
	struct csim_window window;   /* --window */
	int counters;                /* counters kept (not --no-counters) */
	int scan_thread;             /* a large TRACE payload scanned on a second
					thread (not with -j 2 or more: the other
					dumps' workers fill the cores) */
	struct csim_rows_hook rows;  /* open NULL: the digest alone */
	int exact_times;             /* each row's exact ns (SPEC §15), for
					trace.pftrace */
	int slice_texts;             /* the slice store records where each kept
					slice's text lies, for the trace writer
					(not with --summary-only: no trace) */
};

struct csim_dump_part {
	uint64_t run;                      /* 1-based run of the file */
	struct csim_model model;
	struct csim_slice_store slices;
	struct csim_lane_verdict verdict;  /* which rows the store records */
	char *profiling_type;              /* top-level fields of its TRACE block */
	char *schema_version;
	struct csim_metrics metrics;       /* its API_INSTR (§2.1 rule) */
	int have_metrics;
	int metrics_refused;               /* its reshape passes its bound (rows hook) */
	uint64_t instr_offset;
};

/* A block held unparsed until the runs are settled (a plain file's API_INSTR: its place). */
struct csim_held_block {
	char *payload;
	size_t size;
	uint64_t offset;
	struct csim_block blk;
	int in_file;
};

/*
 * Blocks of one type (API_INSTR or OP_BASIC_INFO): with --run all every one
 * (each run may take its own), else the K-th of --run K and the latest.
 */
struct csim_held_set {
	struct csim_held_block kth, last;
	struct csim_held_block *all;
	size_t nall, cap;
};

struct csim_dump {
	const struct csim_read_choices *choices;
	struct csim_log *log;
	const char *bin_path;
	uint64_t in_size;                  /* as stored (gzip: compressed): the
					      progress line, summary.json's input */
	int in_gzip;                       /* the file is gzip-compressed */
	struct csim_dump_part **parts;     /* in run order */
	size_t nparts, parts_cap;
	struct csim_runs runs;             /* which blocks form the runs (SPEC §2.1) */
	struct csim_run_choice choice;     /* settled at the end of the reading */
	struct csim_held_set instr, basic;
	struct csim_held_block files;      /* the first API_FILE (format-notes §3) */
};

void csim_dump_init(struct csim_dump *d, const struct csim_read_choices *choices,
		    struct csim_log *log, const char *bin_path);

/*
 * Reads the whole file into d's parts and loads each part's API_INSTR and
 * OP_BASIC_INFO (a malformed OP_BASIC_INFO or API_FILE is a warning). Input
 * errors as the reading modules give them.
 */
int csim_dump_read(struct csim_dump *d, struct csim_error *err);

/* Frees every part and held block; accepts an initialised, unread dump. */
void csim_dump_release(struct csim_dump *d);

#endif
