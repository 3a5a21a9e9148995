/*
 * outputs: a conversion's output stage (SPEC §1, §7, §8, §10). From the runs
 * a reading left (each run's model, slice store and API_INSTR) to the files
 * of one output set: the trace, instr_metrics.json, summary.json,
 * summary.html and the raw copy, all written under temporary names and
 * committed at once (write/out_set.h); then the closing notes and the
 * summary tables on stdout. With --summary-only none of the files: the
 * notes, then the tables or summary.json's document on stdout.
 *
 * The stage also sizes instr_metrics.json in the reading's walk of the
 * API_INSTR rows (read/dump_read.h's rows hook: csim_outputs_rows_open,
 * csim_outputs_rows_refused), so the rows are read once before the write,
 * and writes that file on a second thread (write/metrics_thread.h) from as
 * soon as the output folder is locked.
 *
 * Ownership: the stage owns its plans, tables, metrics thread and output
 * set until csim_outputs_release(); it borrows the runs and the choices.
 */
#ifndef CSIM_OUTPUTS_H
#define CSIM_OUTPUTS_H

#include <stddef.h>
#include <stdint.h>

#include "base/csim_error.h"
#include "base/log.h"
#include "model/model.h"
#include "read/instr_digest.h"
#include "read/instr_index.h"
#include "read/slice_store.h"
#include "write/metrics_thread.h"
#include "write/metrics_writer.h"
#include "write/out_set.h"
#include "write/pftrace_writer.h"
#include "write/raw_copy.h"
#include "write/run_compare.h"
#include "write/summary_table.h"
#include "write/trace_meta.h"

/* What the stage takes of the command line and the input's place. */
struct csim_outputs_choices {
	const char *out_dir;        /* the output folder */
	int out_given;              /* -o (or a batch dump's folder): a raw copy is made */
	const char *bin_dir;        /* the simulator folder */
	const char *bin_path;       /* the dump, as the notes name it */
	int gzip;                   /* -z */
	int trace_json;             /* --format: trace.clean.json */
	int trace_perfetto;         /* --format: trace.pftrace (SPEC §15) */
	int raw_metrics;            /* --raw-metrics */
	int copy_raw;               /* not --no-copy-raw */
	int threads;                /* second threads for the metrics and the rows
				       (not with -j 2 or more) */
	int run_given, run_all;     /* --run K, --run all (the notes say which) */
	int summary_only;           /* --summary-only: no file, the summary on stdout */
	int json;                   /* --json: that summary as summary.json's document */
	const char *options;        /* the options as the traces' metadata name them */
};

/* One run converted, as the reading left it. */
struct csim_output_run {
	uint64_t run;                          /* 1-based run of the file */
	const struct csim_model *m;
	const struct csim_slice_store *slices;
	const struct csim_metrics *metrics;    /* NULL: no API_INSTR */
	int metrics_refused;                   /* its reshape passed its bound */
	uint64_t instr_offset;
};

struct csim_outputs {
	const struct csim_outputs_choices *choices;
	struct csim_log *log;
	const struct csim_output_run *runs;    /* in run order */
	size_t nruns;
	const char *profiling_type;            /* the first TRACE block's, raw JSON */
	const char *schema_version;
	struct csim_view_input input;          /* the dump, as the summaries name it */
	struct csim_metrics_plan *plans;       /* per run, by index */
	size_t nplans;
	struct csim_metrics_thread *thread;    /* NULL: written in line */
	struct csim_summary_table *tables;     /* per run (not with -q) */
	struct csim_run_compare run_cmp;       /* run to run, with tables of several runs */
	struct csim_out_set set;
	struct csim_raw_copy_stats raw;
	struct csim_pftrace_result pftrace;    /* what writing trace.pftrace did */
	struct csim_trace_meta meta;           /* what the traces say of themselves */
};

void csim_outputs_init(struct csim_outputs *o, const struct csim_outputs_choices *choices,
		       struct csim_log *log);

/*
 * The rows hook of the reading (read/dump_read.h) for run index `part`:
 * its instr_metrics.json plan, sized in the digest's walk; ctx is the
 * stage. Out of memory: CSIM_E_INPUT.
 */
int csim_outputs_rows_open(void *ctx, size_t part, const struct csim_metrics *mt,
			   struct csim_instr_sink *sink, struct csim_error *err);

/*
 * Whether run `part`'s reshape passed its bound, once its rows are read
 * (then warned of: its API_INSTR is refused whole); ctx is the stage.
 */
int csim_outputs_rows_refused(void *ctx, size_t part, const struct csim_metrics *mt);

/* The runs read, borrowed until release. */
void csim_outputs_take_runs(struct csim_outputs *o, const struct csim_output_run *runs,
			    size_t n, const char *profiling_type, const char *schema_version);

/*
 * The dump read: its size on disk and whether it is gzip, for the
 * summaries' "input" (its path is choices->bin_path).
 */
void csim_outputs_take_input(struct csim_outputs *o, uint64_t size, int gzip);

/*
 * Locks (and mends) the output folder if it exists, and then starts the
 * metrics thread; a missing folder is made later (csim_path_make_dirs) and
 * locked by a second call. Errors as csim_out_set_begin's.
 */
int csim_outputs_lock(struct csim_outputs *o, struct csim_error *err);

/* Whether the folder is locked. */
int csim_outputs_locked(const struct csim_outputs *o);

/*
 * The summary tables, readied before any output is committed (the passes
 * have run): running out of memory leaves no half-announced run.
 */
int csim_outputs_prepare_tables(struct csim_outputs *o, struct csim_error *err);

/*
 * Every output into the set, then one commit; the "wrote" lines. The older
 * set stays whole until all are written and fsynced.
 */
int csim_outputs_write(struct csim_outputs *o, struct csim_error *err);

/* After the commit: each run's notes, the raw copy's lines. */
void csim_outputs_report(const struct csim_outputs *o);

/* Each run's table, then the span's change from run to run (not with -q). */
void csim_outputs_print_tables(const struct csim_outputs *o);

/*
 * --summary-only's output on the log's stdout, also with -q: the tables,
 * or with --json the bytes summary.json would hold. A failed write stays
 * in the stream's error flag, which main checks once for all of stdout;
 * out of memory is CSIM_E_OUTPUT.
 */
int csim_outputs_print_summary(const struct csim_outputs *o, struct csim_error *err);

/*
 * A failed run, before release: the metrics thread stopped, the
 * temporaries removed, the folders this run made removed again (made:
 * csim_path_make_dirs's record; the output folder itself before its lock
 * goes) and, with tell, err's message told what the folder holds
 * (write/out_left.h). Past the commit point nothing is removed or told:
 * the folder holds the new set, or the record that completes it.
 */
void csim_outputs_abandon(struct csim_outputs *o, size_t made, int tell,
			  struct csim_error *err);

void csim_outputs_release(struct csim_outputs *o);

#endif
