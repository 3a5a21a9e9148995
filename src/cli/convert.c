#include "cli/convert.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "cli/dump_read.h"
#include "write/metrics_thread.h"
#include "write/metrics_writer.h"
#include "model/model.h"
#include "write/out_file.h"
#include "write/out_set.h"
#include "base/interrupt.h"
#include "base/path.h"
#include "model/pass_cut.h"
#include "model/passes.h"
#include "write/raw_copy.h"
#include "write/run_changes.h"
#include "write/run_notes.h"
#include "write/summary_html.h"
#include "write/summary_table.h"
#include "write/summary_writer.h"
#include "write/trace_split.h"
#include "write/trace_writer.h"
#include "read/input_locate.h"

#define TRACE_PLAIN "trace.clean.json"
#define TRACE_GZ "trace.clean.json.gz"

/* Everything one conversion owns. */
struct run {
	const struct csim_options *opt;
	const char *output_dir;            /* -o, or a batch dump's folder under it */
	struct csim_log *log;
	char *bin_path;
	char *bin_dir;
	char *out_dir;
	struct csim_dump dump;             /* the runs read, one part each */
	struct csim_metrics_thread *metrics_thread;   /* NULL: written in line */
	struct csim_summary_table *tables; /* per part, printed last (not with -q) */
	struct csim_out_set set;           /* the output folder, locked from the reading's end */
	struct csim_raw_copy_stats raw;    /* the raw copy made, reported after the commit */
};

/* The part the batch row, the metrics thread and a one-run file use: the last. */
static struct csim_dump_part *last_part(const struct run *r)
{
	return r->dump.parts[r->dump.nparts - 1];
}

/*
 * instr_metrics.json is written on a second thread (metrics_thread.h) from
 * the end of the reading if its folder exists, else from its making; in
 * line with -j 2 or more (as scan_pipe), a small API_INSTR, or several runs
 * (one file of every run's metrics). A failed start leaves the write in
 * line, which reports any error in its place.
 */
static void start_metrics(struct run *r)
{
	const struct csim_dump_part *p = last_part(r);
	struct csim_error ignored;

	if (r->dump.nparts != 1 || !p->have_metrics || r->metrics_thread != NULL ||
	    r->opt->jobs >= 2 ||
	    p->metrics.src.block.payload_size < CSIM_METRICS_THREAD_MIN_BYTES)
		return;
	(void)csim_metrics_thread_start(&r->metrics_thread, &p->metrics, &p->metrics_plan,
					r->opt->raw_metrics, r->out_dir, "instr_metrics.json",
					&ignored);
}

/* Whether any run has metrics: instr_metrics.json is written then. */
static int any_metrics(const struct run *r)
{
	for (size_t i = 0; i < r->dump.nparts; i++)
		if (r->dump.parts[i]->have_metrics)
			return 1;
	return 0;
}

/* The trace of every run, each in processes of its own (SPEC §2.1). */
static int write_trace(struct run *r, struct csim_out *trace, struct csim_error *err)
{
	const struct csim_dump *d = &r->dump;
	struct csim_trace_part *parts = calloc(d->nparts, sizeof(*parts));
	/* Two threads for the rows unless -j fills the cores already (as scan_pipe). */
	struct csim_trace_input in = { parts, d->nparts, d->parts[0]->profiling_type,
				       d->parts[0]->schema_version,
				       r->opt->jobs < 2 ? CSIM_TRACE_SPLIT_CHUNK : 0 };
	int rc;

	if (parts == NULL)
		return csim_error_nomem(err, CSIM_E_OUTPUT);
	for (size_t i = 0; i < d->nparts; i++)
		parts[i] = (struct csim_trace_part){ &d->parts[i]->model, &d->parts[i]->slices };
	rc = csim_trace_write(&in, trace, err);
	/* The writer reads the input again through the reading modules. */
	if (rc != CSIM_OK && csim_error_is_nomem(err))
		rc = csim_error_nomem(err, CSIM_E_OUTPUT);
	free(parts);
	return rc;
}

/* instr_metrics.json in line: one run's, or every run's (SPEC §2.1, §7). */
static int write_metrics(struct run *r, struct csim_out *metrics, struct csim_error *err)
{
	const struct csim_dump *d = &r->dump;
	const struct csim_metrics **mts = calloc(d->nparts, sizeof(*mts));
	const struct csim_metrics_plan **plans = calloc(d->nparts, sizeof(*plans));
	int rc = CSIM_OK;

	if (mts == NULL || plans == NULL)
		rc = csim_error_nomem(err, CSIM_E_OUTPUT);
	for (size_t i = 0; i < d->nparts && rc == CSIM_OK; i++) {
		mts[i] = d->parts[i]->have_metrics ? &d->parts[i]->metrics : NULL;
		plans[i] = &d->parts[i]->metrics_plan;
	}
	if (rc == CSIM_OK)
		rc = csim_out_open(metrics, r->out_dir, "instr_metrics.json", err);
	if (rc == CSIM_OK && d->nparts == 1)
		rc = csim_metrics_write(mts[0], plans[0], r->opt->raw_metrics, metrics, err);
	else if (rc == CSIM_OK)
		rc = csim_metrics_write_runs(mts, plans, d->nparts, r->opt->raw_metrics, metrics,
					     err);
	free(mts);
	free(plans);
	return rc;
}

/* summary.json and summary.html: one run's, or every run's. */
static int write_summaries(struct run *r, struct csim_out *summary, struct csim_out *page,
			   struct csim_error *err)
{
	const struct csim_dump *d = &r->dump;
	const struct csim_model **runs = calloc(d->nparts, sizeof(*runs));
	int rc;

	if (runs == NULL)
		return csim_error_nomem(err, CSIM_E_OUTPUT);
	for (size_t i = 0; i < d->nparts; i++)
		runs[i] = &d->parts[i]->model;
	rc = csim_out_open(summary, r->out_dir, "summary.json", err);
	if (rc == CSIM_OK)
		csim_summary_write(runs, d->nparts, summary);
	if (rc == CSIM_OK)
		rc = csim_out_open(page, r->out_dir, "summary.html", err);
	if (rc == CSIM_OK)
		rc = csim_summary_html_write(runs, d->nparts, page, err);
	free(runs);
	return rc;
}

/*
 * The raw copy (SPEC §8), into the set with the other outputs. Without one
 * an older copy is of another run: it goes, unless it holds the input.
 */
static int copy_raw(struct run *r, struct csim_error *err)
{
	const char *slash = strrchr(r->bin_path, '/');
	int within;

	if (r->output_dir == NULL || csim_path_same_folder(r->out_dir, r->bin_dir))
		return CSIM_OK;
	if (r->opt->copy_raw)
		return csim_raw_copy(r->bin_dir, slash != NULL ? slash + 1 : r->bin_path, &r->set,
				     r->log, &r->raw, err);
	within = csim_path_within(r->bin_dir, r->set.dir);
	return within ? CSIM_OK : csim_out_set_drop(&r->set, "raw_simulator", 1, err);
}

/*
 * Every output into the set, then one commit (write/out_set.h): the older
 * set stays whole until all are written and fsynced. What this run does not
 * write of an older set goes in the same commit: the trace of the other
 * form (it would disagree with summary.json), instr_metrics.json of a dump
 * without API_INSTR.
 */
static int write_outputs(struct run *r, struct csim_error *err)
{
	struct csim_out trace = { .fd = -1 }, metrics = { .fd = -1 }, summary = { .fd = -1 },
			page = { .fd = -1 };
	const int have_metrics = any_metrics(r);
	int rc, before_rc;

	start_metrics(r);
	if (r->opt->gzip)
		rc = csim_out_open_gzip(&trace, r->out_dir, TRACE_GZ, err);
	else
		rc = csim_out_open(&trace, r->out_dir, TRACE_PLAIN, err);
	if (rc == CSIM_OK)
		rc = write_trace(r, &trace, err);
	if (rc == CSIM_OK && have_metrics && r->metrics_thread == NULL)
		rc = write_metrics(r, &metrics, err);
	before_rc = rc;
	if (rc == CSIM_OK)
		rc = write_summaries(r, &summary, &page, err);
	if (r->metrics_thread != NULL)   /* its place: after the trace, before the summaries */
		rc = csim_metrics_thread_join(&r->metrics_thread, before_rc, rc, &metrics, err);
	if (rc == CSIM_OK)
		rc = csim_out_set_add(&r->set, &trace, err);
	if (rc == CSIM_OK)
		rc = csim_out_set_drop(&r->set, r->opt->gzip ? TRACE_PLAIN : TRACE_GZ, 0, err);
	if (rc == CSIM_OK)
		rc = have_metrics ? csim_out_set_add(&r->set, &metrics, err)
				  : csim_out_set_drop(&r->set, "instr_metrics.json", 0, err);
	if (rc == CSIM_OK)
		rc = csim_out_set_add(&r->set, &summary, err);
	if (rc == CSIM_OK)
		rc = csim_out_set_add(&r->set, &page, err);
	if (rc == CSIM_OK)
		rc = copy_raw(r, err);
	if (rc == CSIM_OK)
		rc = csim_out_set_commit(&r->set, err);
	if (rc == CSIM_OK) {
		csim_log_wrote(r->log, r->out_dir, r->opt->gzip ? TRACE_GZ : TRACE_PLAIN);
		if (have_metrics)
			csim_log_wrote(r->log, r->out_dir, "instr_metrics.json");
		csim_log_wrote(r->log, r->out_dir, "summary.json");
		csim_log_wrote(r->log, r->out_dir, "summary.html");
	}
	csim_out_abort(&trace);
	csim_out_abort(&metrics);
	csim_out_abort(&summary);
	csim_out_abort(&page);
	return rc;
}

/* The raw copy's lines, after the notes of the runs as before the commit. */
static void report_raw(const struct run *r)
{
	const char *slash = strrchr(r->bin_path, '/');

	csim_raw_copy_report(r->log, r->out_dir, &r->raw, slash != NULL ? slash + 1 : r->bin_path,
			     r->bin_dir);
}

/* The closing notes of each run converted (run-prefixed with several). */
static void report_notes(const struct run *r)
{
	const struct csim_dump *d = &r->dump;

	for (size_t i = 0; i < d->nparts; i++) {
		const struct csim_dump_part *p = d->parts[i];
		/* --raw-metrics writes every row: nothing is left out. A refused
		   reshape was warned about when read (dump_read.c). */
		const int reshaped = p->have_metrics && !r->opt->raw_metrics;
		const struct csim_run_facts facts = {
			r->bin_path, p->slices.nblocks, p->have_metrics || p->metrics_plan.over,
			p->instr_offset, r->opt->run != 0, r->opt->run_all,
			reshaped ? (uint64_t)p->metrics.nrows * p->metrics.ncores : 0,
			reshaped ? p->metrics_plan.left_out : 0,
			d->nparts > 1 ? p->run : 0, i == 0
		};

		csim_run_notes_print(r->log, &p->model, &facts);
	}
}

/* The summary tables (SPEC §1, §10), readied before any output is committed. */
static int prepare_tables(struct run *r, struct csim_error *err)
{
	const struct csim_dump *d = &r->dump;
	int rc = CSIM_OK;

	if (r->log->quiet)
		return CSIM_OK;
	r->tables = calloc(d->nparts, sizeof(*r->tables));
	if (r->tables == NULL)
		return csim_error_nomem(err, CSIM_E_INPUT);
	for (size_t i = 0; i < d->nparts && rc == CSIM_OK; i++)
		rc = csim_summary_table_prepare(&r->tables[i], &d->parts[i]->model, err);
	return rc;
}

/* Each run's table, then the span's change from each run to the next. */
static void print_tables(const struct run *r)
{
	const struct csim_dump *d = &r->dump;

	for (size_t i = 0; i < d->nparts; i++)
		csim_summary_table_print(&r->tables[i], r->log->out);
	csim_run_changes_print(r->tables, d->nparts, r->log->out);
}

/* A batch row's figures (SPEC §11): the last run's, with the op name and clock the summary shows. */
static int take_figures(struct run *r, struct csim_dump_figures *figures,
			struct csim_error *err)
{
	return csim_dump_figures_take(figures, &last_part(r)->model, err);
}

/*
 * The passes of every run; with several runs each run's processes are then
 * named after it (SPEC §2.1: "core0.cubecore0 run 1"), after the cut matched
 * the pids as the dump names them. A --core pattern need match a core of
 * one run only: the runs of one file may have run on different cores.
 */
static int run_passes(struct run *r, struct csim_error *err)
{
	const struct csim_dump *d = &r->dump;
	const struct csim_model **runs = NULL;
	int rc = CSIM_OK;

	for (size_t i = 0; i < d->nparts && rc == CSIM_OK; i++)
		rc = csim_passes_run(&d->parts[i]->model, err);
	if (rc == CSIM_OK && d->nparts > 0) {
		runs = malloc(d->nparts * sizeof(*runs));
		if (runs == NULL)
			return csim_error_nomem(err, CSIM_E_INPUT);
		for (size_t i = 0; i < d->nparts; i++)
			runs[i] = &d->parts[i]->model;
		rc = csim_cut_check_runs(runs, d->nparts, err);
		free(runs);
	}
	for (size_t i = 0; i < d->nparts && rc == CSIM_OK && d->nparts > 1; i++)
		rc = csim_model_label_run(&d->parts[i]->model, d->parts[i]->run, err);
	return rc;
}

static void run_release(struct run *r)
{
	csim_metrics_thread_abort(r->metrics_thread);   /* the run failed before its join */
	if (r->tables != NULL)
		for (size_t i = 0; i < r->dump.nparts; i++)
			csim_summary_table_release(&r->tables[i]);
	free(r->tables);
	csim_dump_release(&r->dump);
	csim_out_set_release(&r->set);
	free(r->bin_path);
	free(r->bin_dir);
	free(r->out_dir);
}

int csim_convert(const struct csim_options *opt, struct csim_log *log,
		 struct csim_error *err)
{
	return csim_convert_dump(opt, opt->input, opt->output_dir, log, NULL, err);
}

int csim_convert_dump(const struct csim_options *opt, const char *input,
		      const char *output_dir, struct csim_log *log,
		      struct csim_dump_figures *figures, struct csim_error *err)
{
	struct run r;
	int rc;

	memset(&r, 0, sizeof(r));
	csim_out_set_init(&r.set);
	r.opt = opt;
	r.output_dir = output_dir;
	r.log = log;
	rc = csim_input_locate(input, &r.bin_path, &r.bin_dir, err);
	csim_dump_init(&r.dump, opt, log, r.bin_path);
	if (rc != CSIM_OK)
		goto out;
	r.out_dir = csim_path_trim(output_dir != NULL ? output_dir : r.bin_dir);
	if (r.out_dir == NULL) {
		rc = csim_error_nomem(err, CSIM_E_INPUT);
		goto out;
	}
	/* A bad output folder is reported before the input is read (SPEC §1);
	   nothing is created until the input has proved convertible. */
	rc = csim_path_probe_dirs(r.out_dir, err);
	if (rc == CSIM_OK)
		rc = csim_dump_read(&r.dump, err);
	/* The folder is locked (and mended) before any temporary is made in it. */
	if (rc == CSIM_OK)
		rc = csim_out_set_begin(&r.set, r.out_dir, log, err);
	if (rc == CSIM_OK && csim_out_set_begun(&r.set))
		start_metrics(&r);
	if (rc == CSIM_OK) {
		csim_progress_phase(log->progress, CSIM_PHASE_PASSES, r.dump.in_size);
		rc = run_passes(&r, err);
	}
	if (rc == CSIM_OK)
		rc = prepare_tables(&r, err);
	/* Before any output is committed: a failure here leaves none. */
	if (rc == CSIM_OK && figures != NULL)
		rc = take_figures(&r, figures, err);
	if (rc == CSIM_OK && output_dir != NULL)
		rc = csim_path_make_dirs(r.out_dir, err);
	if (rc == CSIM_OK)
		rc = csim_out_set_begin(&r.set, r.out_dir, log, err);
	if (rc == CSIM_OK && !csim_out_set_begun(&r.set))
		rc = csim_error_set(err, CSIM_E_OUTPUT, CSIM_NO_OFFSET, "cannot write %s: %s",
				    r.out_dir, strerror(ENOENT));
	if (rc == CSIM_OK) {
		csim_progress_phase(log->progress, CSIM_PHASE_WRITING, r.dump.in_size);
		rc = write_outputs(&r, err);
		csim_progress_end(log->progress);
	}
	if (rc == CSIM_OK) {
		report_notes(&r);
		report_raw(&r);
	}
	/* A signal held off during the commit: the run ends by it, the set in place. */
	if (rc == CSIM_OK && csim_interrupt_pending())
		rc = csim_interrupt_fail_committed(err);
	/* On stdout after every "wrote" line (SPEC §1). */
	if (rc == CSIM_OK && !log->quiet)
		print_tables(&r);
out:
	csim_progress_end(log->progress);   /* main prints the error next */
	run_release(&r);
	return rc;
}
