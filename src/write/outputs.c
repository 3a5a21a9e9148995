#include "write/outputs.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "base/array_grow.h"
#include "base/path.h"
#include "write/out_left.h"
#include "write/run_notes.h"
#include "write/summary_html.h"
#include "write/summary_writer.h"
#include "write/trace_split.h"
#include "write/trace_writer.h"
#include "write/pftrace_writer.h"

#define TRACE_PLAIN "trace.clean.json"
#define TRACE_GZ "trace.clean.json.gz"
#define PFTRACE_PLAIN "trace.pftrace"
#define PFTRACE_GZ "trace.pftrace.gz"

void csim_outputs_init(struct csim_outputs *o, const struct csim_outputs_choices *choices,
		       struct csim_log *log)
{
	memset(o, 0, sizeof(*o));
	o->choices = choices;
	o->log = log;
	csim_out_set_init(&o->set);
}

int csim_outputs_rows_open(void *ctx, size_t part, const struct csim_metrics *mt,
			   struct csim_instr_sink *sink, struct csim_error *err)
{
	struct csim_outputs *o = ctx;
	size_t cap = o->nplans;

	if (part >= o->nplans) {
		if (csim_array_grow((void **)&o->plans, &cap, part + 1, sizeof(*o->plans)) != 0)
			return csim_error_nomem(err, CSIM_E_INPUT);
		memset(o->plans + o->nplans, 0, (cap - o->nplans) * sizeof(*o->plans));
		o->nplans = cap;
	}
	return csim_metrics_plan_begin(&o->plans[part], mt, sink, err);
}

/* What becomes of instr_metrics.json when its reshape is refused. */
static const char *refused_file_text(const struct csim_outputs_choices *ch)
{
	if (ch->summary_only)
		return "not reshaped (--summary-only)";
	return ch->raw_metrics ? "instr_metrics.json holds the payload as it is (--raw-metrics)"
			       : "instr_metrics.json not written (--raw-metrics writes the payload as it is)";
}

/*
 * An API_INSTR whose reshape would pass its bound (write/metrics_writer.h)
 * is refused as a whole: no half file, and no figures from the rows read
 * before the bound, which would look complete in the summary. The raw
 * payload is still written under --raw-metrics; it costs its own size.
 */
int csim_outputs_rows_refused(void *ctx, size_t part, const struct csim_metrics *mt)
{
	const struct csim_outputs *o = ctx;
	const struct csim_metrics_plan *plan = &o->plans[part];

	if (!plan->over)
		return 0;
	csim_log_warn(o->log,
		      "%s: API_INSTR block at offset %llu: its reshape would write more than %llu bytes (%ux its %llu-byte payload + %u MiB; a value that is not an array as long as Cores is copied into each of its %zu cores' records): %s, and the summary has no API_INSTR figures",
		      o->choices->bin_path, (unsigned long long)csim_metrics_block_offset(mt),
		      (unsigned long long)plan->limit, CSIM_METRICS_GROWTH,
		      (unsigned long long)csim_metrics_payload_size(mt),
		      CSIM_METRICS_SLACK >> 20, mt->ncores,
		      refused_file_text(o->choices));
	return 1;
}

void csim_outputs_take_runs(struct csim_outputs *o, const struct csim_output_run *runs,
			    size_t n, const char *profiling_type, const char *schema_version)
{
	o->runs = runs;
	o->nruns = n;
	o->profiling_type = profiling_type;
	o->schema_version = schema_version;
}

void csim_outputs_take_input(struct csim_outputs *o, uint64_t size, int gzip)
{
	o->input = (struct csim_view_input){ o->choices->bin_path, size, gzip };
}

/* Run i's API_INSTR as instr_metrics.json has it; NULL: none (or refused). */
static const struct csim_metrics *written_metrics(const struct csim_outputs *o, size_t i)
{
	const struct csim_output_run *run = &o->runs[i];

	if (run->metrics == NULL || (run->metrics_refused && !o->choices->raw_metrics))
		return NULL;
	return run->metrics;
}

/* Run i's plan; a zeroed one for a run the rows hook never saw. */
static const struct csim_metrics_plan *plan_of(const struct csim_outputs *o, size_t i)
{
	static const struct csim_metrics_plan none;

	return i < o->nplans ? &o->plans[i] : &none;
}

/* Whether any run writes metrics: instr_metrics.json is written then. */
static int any_metrics(const struct csim_outputs *o)
{
	for (size_t i = 0; i < o->nruns; i++)
		if (written_metrics(o, i) != NULL)
			return 1;
	return 0;
}

/*
 * instr_metrics.json is written on a second thread (metrics_thread.h) from
 * the folder's locking; in line with -j 2 or more (as the scanning
 * thread), a small API_INSTR, or several runs (one file of every run's
 * metrics). The thread's start is only tried once the folder exists, and
 * a failed start leaves the write in line, which reports any error in its
 * place.
 */
static void start_metrics(struct csim_outputs *o)
{
	const struct csim_metrics *mt = o->nruns == 1 ? written_metrics(o, 0) : NULL;
	struct csim_error ignored;

	if (mt == NULL || o->thread != NULL || !o->choices->threads ||
	    csim_metrics_payload_size(mt) < CSIM_METRICS_THREAD_MIN_BYTES)
		return;
	(void)csim_metrics_thread_start(&o->thread, mt, plan_of(o, 0), o->choices->raw_metrics,
					o->choices->out_dir, "instr_metrics.json", &ignored);
}

int csim_outputs_lock(struct csim_outputs *o, struct csim_error *err)
{
	int rc = csim_out_set_begin(&o->set, o->choices->out_dir, o->log, err);

	if (rc == CSIM_OK && csim_out_set_begun(&o->set))
		start_metrics(o);
	return rc;
}

int csim_outputs_locked(const struct csim_outputs *o)
{
	return csim_out_set_begun(&o->set);
}

/* The trace of every run, each in processes of its own (SPEC §2.1). */
static int write_trace(struct csim_outputs *o, struct csim_out *trace, struct csim_error *err)
{
	struct csim_trace_part *parts = calloc(o->nruns, sizeof(*parts));
	/* Two threads for the rows unless -j fills the cores already. */
	const struct csim_trace_input in = {
		.parts = parts, .nparts = o->nruns, .profiling_type = o->profiling_type,
		.schema_version = o->schema_version,
		.split_chunk = o->choices->threads ? CSIM_TRACE_SPLIT_CHUNK : 0,
		.meta = &o->meta
	};
	int rc;

	if (parts == NULL)
		return csim_error_nomem(err, CSIM_E_OUTPUT);
	for (size_t i = 0; i < o->nruns; i++)
		parts[i] = (struct csim_trace_part){ o->runs[i].m, o->runs[i].slices };
	rc = csim_trace_write(&in, trace, err);
	/* The writer reads the input again through the reading modules. */
	if (rc != CSIM_OK && csim_error_is_nomem(err))
		rc = csim_error_nomem(err, CSIM_E_OUTPUT);
	free(parts);
	return rc;
}

/* trace.pftrace of every run (SPEC §15). */
static int write_pftrace(struct csim_outputs *o, struct csim_out *pftrace,
			 struct csim_error *err)
{
	struct csim_trace_part *parts = calloc(o->nruns, sizeof(*parts));
	int rc;

	if (parts == NULL)
		return csim_error_nomem(err, CSIM_E_OUTPUT);
	for (size_t i = 0; i < o->nruns; i++)
		parts[i] = (struct csim_trace_part){ o->runs[i].m, o->runs[i].slices };
	rc = csim_pftrace_write(parts, o->nruns, &o->meta, pftrace, &o->pftrace, err);
	if (rc != CSIM_OK && csim_error_is_nomem(err))
		rc = csim_error_nomem(err, CSIM_E_OUTPUT);
	free(parts);
	return rc;
}

/* instr_metrics.json in line: one run's, or every run's (SPEC §2.1, §7). */
static int write_metrics(struct csim_outputs *o, struct csim_out *metrics,
			 struct csim_error *err)
{
	const struct csim_metrics **mts = calloc(o->nruns, sizeof(*mts));
	const struct csim_metrics_plan **plans = calloc(o->nruns, sizeof(*plans));
	const int raw = o->choices->raw_metrics;
	int rc = CSIM_OK;

	if (mts == NULL || plans == NULL)
		rc = csim_error_nomem(err, CSIM_E_OUTPUT);
	for (size_t i = 0; i < o->nruns && rc == CSIM_OK; i++) {
		mts[i] = written_metrics(o, i);
		plans[i] = plan_of(o, i);
	}
	if (rc == CSIM_OK)
		rc = csim_out_open(metrics, o->choices->out_dir, "instr_metrics.json", err);
	if (rc == CSIM_OK && o->nruns == 1)
		rc = csim_metrics_write(mts[0], plans[0], raw, metrics, err);
	else if (rc == CSIM_OK)
		rc = csim_metrics_write_runs(mts, plans, o->nruns, raw, metrics, err);
	free(mts);
	free(plans);
	return rc;
}

/* Every run's model, in run order, as the summary writers take them; NULL: out of memory. */
static const struct csim_model **run_models(const struct csim_outputs *o)
{
	const struct csim_model **runs = calloc(o->nruns, sizeof(*runs));

	for (size_t i = 0; runs != NULL && i < o->nruns; i++)
		runs[i] = o->runs[i].m;
	return runs;
}

/* summary.json and summary.html: one run's, or every run's. */
static int write_summaries(struct csim_outputs *o, struct csim_out *summary,
			   struct csim_out *page, struct csim_error *err)
{
	const struct csim_model **runs = run_models(o);
	int rc;

	if (runs == NULL)
		return csim_error_nomem(err, CSIM_E_OUTPUT);
	rc = csim_out_open(summary, o->choices->out_dir, "summary.json", err);
	if (rc == CSIM_OK)
		csim_summary_write(runs, o->nruns, &o->input, summary);
	if (rc == CSIM_OK)
		rc = csim_out_open(page, o->choices->out_dir, "summary.html", err);
	if (rc == CSIM_OK)
		rc = csim_summary_html_write(runs, o->nruns, &o->input, page, err);
	free(runs);
	return rc;
}

/* The dump's file name within its folder. */
static const char *bin_name(const struct csim_outputs *o)
{
	const char *slash = strrchr(o->choices->bin_path, '/');

	return slash != NULL ? slash + 1 : o->choices->bin_path;
}

/*
 * The raw copy (SPEC §8), into the set with the other outputs. Without one
 * an older copy is of another run: it goes, unless it holds the input.
 */
static int copy_raw(struct csim_outputs *o, struct csim_error *err)
{
	const struct csim_outputs_choices *ch = o->choices;

	if (!ch->out_given || csim_path_same_folder(ch->out_dir, ch->bin_dir))
		return CSIM_OK;
	if (ch->copy_raw)
		return csim_raw_copy(ch->bin_dir, bin_name(o), &o->set, o->log, &o->raw, err);
	if (csim_path_within(ch->bin_dir, o->set.dir))
		return CSIM_OK;
	return csim_out_set_drop(&o->set, "raw_simulator", 1, err);
}

/* A trace file, -z's form or the plain one. */
static int open_trace(struct csim_outputs *o, struct csim_out *trace, const char *plain,
		      const char *gz, struct csim_error *err)
{
	if (o->choices->gzip)
		return csim_out_open_gzip(trace, o->choices->out_dir, gz, err);
	return csim_out_open(trace, o->choices->out_dir, plain, err);
}

/* Every output, under its temporary name; the metrics thread joined. */
static int write_files(struct csim_outputs *o, struct csim_out *trace, struct csim_out *pftrace,
		       struct csim_out *metrics, struct csim_out *summary, struct csim_out *page,
		       int have_metrics, struct csim_error *err)
{
	int rc = CSIM_OK, before_rc;

	start_metrics(o);
	csim_trace_meta_fill(&o->meta, o->runs[0].m, o->nruns, &o->input, o->choices->options);
	if (o->choices->trace_json)
		rc = open_trace(o, trace, TRACE_PLAIN, TRACE_GZ, err);
	if (rc == CSIM_OK && o->choices->trace_json) {
		csim_progress_writing(o->log->progress, o->choices->gzip ? TRACE_GZ : TRACE_PLAIN);
		rc = write_trace(o, trace, err);
	}
	if (rc == CSIM_OK && o->choices->trace_perfetto)
		rc = open_trace(o, pftrace, PFTRACE_PLAIN, PFTRACE_GZ, err);
	if (rc == CSIM_OK && o->choices->trace_perfetto) {
		csim_progress_writing(o->log->progress,
				      o->choices->gzip ? PFTRACE_GZ : PFTRACE_PLAIN);
		rc = write_pftrace(o, pftrace, err);
	}
	if (rc == CSIM_OK && have_metrics && o->thread == NULL)
		rc = write_metrics(o, metrics, err);
	before_rc = rc;
	if (rc == CSIM_OK)
		rc = write_summaries(o, summary, page, err);
	if (o->thread != NULL)   /* its place: after the trace, before the summaries */
		rc = csim_metrics_thread_join(&o->thread, before_rc, rc, metrics, err);
	return rc;
}

/*
 * A trace written goes into the set and its other form (-z or not) goes;
 * a trace not written (--format) goes in both forms.
 */
static int keep_trace(struct csim_outputs *o, struct csim_out *written, const char *plain,
		      const char *gz, struct csim_error *err)
{
	const int gzip = o->choices->gzip;
	int rc = CSIM_OK;

	if (written != NULL)
		rc = csim_out_set_add(&o->set, written, err);
	if (rc == CSIM_OK && (written == NULL || !gzip))
		rc = csim_out_set_drop(&o->set, gz, 0, err);
	if (rc == CSIM_OK && (written == NULL || gzip))
		rc = csim_out_set_drop(&o->set, plain, 0, err);
	return rc;
}

/*
 * What this run does not write of an older set goes in the same commit:
 * a trace of the other form or format (it would disagree with summary.json),
 * instr_metrics.json of a dump without API_INSTR.
 */
int csim_outputs_write(struct csim_outputs *o, struct csim_error *err)
{
	struct csim_out trace = { .fd = -1 }, pftrace = { .fd = -1 }, metrics = { .fd = -1 },
			summary = { .fd = -1 }, page = { .fd = -1 };
	const int have_metrics = any_metrics(o), gzip = o->choices->gzip;
	const int json = o->choices->trace_json, perfetto = o->choices->trace_perfetto;
	int rc = write_files(o, &trace, &pftrace, &metrics, &summary, &page, have_metrics, err);

	if (rc == CSIM_OK)
		rc = keep_trace(o, json ? &trace : NULL, TRACE_PLAIN, TRACE_GZ, err);
	if (rc == CSIM_OK)
		rc = keep_trace(o, perfetto ? &pftrace : NULL, PFTRACE_PLAIN, PFTRACE_GZ, err);
	if (rc == CSIM_OK)
		rc = have_metrics ? csim_out_set_add(&o->set, &metrics, err)
				  : csim_out_set_drop(&o->set, "instr_metrics.json", 0, err);
	if (rc == CSIM_OK)
		rc = csim_out_set_add(&o->set, &summary, err);
	if (rc == CSIM_OK)
		rc = csim_out_set_add(&o->set, &page, err);
	if (rc == CSIM_OK)
		rc = copy_raw(o, err);
	if (rc == CSIM_OK)
		rc = csim_out_set_commit(&o->set, err);
	if (rc == CSIM_OK) {
		if (json)
			csim_log_wrote(o->log, o->choices->out_dir, gzip ? TRACE_GZ : TRACE_PLAIN);
		if (perfetto)
			csim_log_wrote(o->log, o->choices->out_dir, gzip ? PFTRACE_GZ : PFTRACE_PLAIN);
		if (have_metrics)
			csim_log_wrote(o->log, o->choices->out_dir, "instr_metrics.json");
		csim_log_wrote(o->log, o->choices->out_dir, "summary.json");
		csim_log_wrote(o->log, o->choices->out_dir, "summary.html");
	}
	csim_out_abort(&trace);
	csim_out_abort(&pftrace);
	csim_out_abort(&metrics);
	csim_out_abort(&summary);
	csim_out_abort(&page);
	return rc;
}

/* The closing notes of each run (run-prefixed with several), then the raw copy's lines. */
void csim_outputs_report(const struct csim_outputs *o)
{
	const struct csim_outputs_choices *ch = o->choices;

	for (size_t i = 0; i < o->nruns; i++) {
		const struct csim_output_run *run = &o->runs[i];
		/* --raw-metrics writes every row: nothing is left out; a refused
		   reshape was warned of when its rows were read. */
		const int reshaped = written_metrics(o, i) != NULL && !ch->raw_metrics &&
				     !ch->summary_only;
		const struct csim_run_facts facts = {
			ch->bin_path, run->slices->nblocks, run->metrics != NULL,
			run->instr_offset, ch->run_given, ch->run_all,
			reshaped ? (uint64_t)run->metrics->nrows * csim_metrics_cores_in(run->metrics) : 0,
			reshaped ? plan_of(o, i)->left_out : 0,
			o->nruns > 1 ? run->run : 0, i == 0, !ch->summary_only
		};

		csim_run_notes_print(o->log, run->m, &facts);
	}
	if (ch->trace_perfetto && o->pftrace.shift != 0)
		csim_log_note(o->log, "trace.pftrace: every time is %lld ns later than the input's: "
			      "Perfetto's times cannot be negative",
			      (long long)o->pftrace.shift);
	if (!ch->summary_only)
		csim_raw_copy_report(o->log, ch->out_dir, &o->raw, bin_name(o), ch->bin_dir);
}

int csim_outputs_prepare_tables(struct csim_outputs *o, struct csim_error *err)
{
	int rc = CSIM_OK;

	/* --summary-only prints its tables also with -q: they are what was asked for. */
	if (o->choices->json || (o->log->quiet && !o->choices->summary_only))
		return CSIM_OK;
	o->tables = calloc(o->nruns, sizeof(*o->tables));
	if (o->tables == NULL)
		return csim_error_nomem(err, CSIM_E_INPUT);
	for (size_t i = 0; i < o->nruns && rc == CSIM_OK; i++)
		rc = csim_summary_table_prepare(&o->tables[i], o->runs[i].m, err);
	if (rc == CSIM_OK && o->nruns > 1) {
		const struct csim_model **runs = run_models(o);

		rc = runs != NULL ? csim_run_compare_prepare(&o->run_cmp, runs, o->nruns, &o->input, err)
				  : csim_error_nomem(err, CSIM_E_INPUT);
		free(runs);
	}
	return rc;
}

void csim_outputs_print_tables(const struct csim_outputs *o)
{
	if (o->tables == NULL)
		return;
	for (size_t i = 0; i < o->nruns; i++)
		csim_summary_table_print(&o->tables[i], o->log->out);
	csim_run_compare_print(&o->run_cmp, o->log->out);
}

/* The summary.json bytes of every run, onto the log's stdout. */
static int print_json(const struct csim_outputs *o, struct csim_error *err)
{
	const struct csim_model **runs = run_models(o);
	char buf[4096];   /* the stream buffers too: this only batches the small pieces */
	struct csim_out out;

	if (runs == NULL)
		return csim_error_nomem(err, CSIM_E_OUTPUT);
	csim_out_stream(&out, buf, sizeof(buf), o->log->out);
	csim_summary_write(runs, o->nruns, &o->input, &out);
	csim_out_flush(&out);
	free(runs);
	return CSIM_OK;
}

int csim_outputs_print_summary(const struct csim_outputs *o, struct csim_error *err)
{
	if (o->choices->json)
		return print_json(o, err);
	csim_outputs_print_tables(o);
	return CSIM_OK;
}

void csim_outputs_abandon(struct csim_outputs *o, size_t made, int tell,
			  struct csim_error *err)
{
	const char *dir = o->choices->out_dir;
	struct csim_out_left left = { dir, made, 0, 0, err->code == CSIM_E_INTERRUPTED };
	const int locked = csim_out_set_begun(&o->set);
	int removed_locked = 0;
	char *above;

	if (csim_out_set_committed(&o->set))
		return;   /* the new set is the folder's (or its record's) */
	csim_metrics_thread_abort(o->thread);
	o->thread = NULL;
	if (made > 0 && locked) {
		removed_locked = csim_out_set_release_made(&o->set);
		/* The folder was removed under its lock, or kept for what another
		   writer put in it. Once the lock is let go, a run that waited
		   for it may make the folder again: only the parents this run
		   made are left to remove. */
		above = csim_path_dir(dir);
		if (above == NULL) {
			left.kept = ENOMEM;
		} else {
			left.kept = strlen(above) >= made
				    ? csim_path_unmake_dirs(above, made, &left.removed) : 0;
			free(above);
		}
		if (removed_locked && left.removed == 0)
			left.removed = strlen(dir);
	} else {
		csim_out_set_release(&o->set);
		left.kept = csim_path_unmake_dirs(dir, made, &left.removed);
	}
	if (tell)
		csim_out_left_tell(&left, err);
}

void csim_outputs_release(struct csim_outputs *o)
{
	csim_metrics_thread_abort(o->thread);   /* the run failed before its join */
	if (o->tables != NULL)
		for (size_t i = 0; i < o->nruns; i++)
			csim_summary_table_release(&o->tables[i]);
	free(o->tables);
	csim_run_compare_release(&o->run_cmp);
	for (size_t i = 0; i < o->nplans; i++)
		csim_metrics_plan_release(&o->plans[i]);
	free(o->plans);
	csim_out_set_release(&o->set);
	memset(o, 0, sizeof(*o));
}
