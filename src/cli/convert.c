#include "cli/convert.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "base/array_grow.h"
#include "read/basic_info.h"
#include "read/block_reader.h"
#include "read/event_ingest.h"
#include "read/event_scan.h"
#include "read/instr_files.h"
#include "write/metrics_thread.h"
#include "write/metrics_writer.h"
#include "model/lane_verdict.h"
#include "model/model.h"
#include "write/out_file.h"
#include "base/path.h"
#include "model/passes.h"
#include "write/raw_copy.h"
#include "write/run_notes.h"
#include "read/run_select.h"
#include "write/summary_html.h"
#include "write/summary_table.h"
#include "write/summary_writer.h"
#include "read/scan_pipe.h"
#include "read/slice_store.h"
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
	uint64_t in_size;                  /* as stored, for the progress line */
	struct csim_model model;
	struct csim_slice_store slices;
	struct csim_lane_verdict verdict;  /* which rows the store records */
	char *profiling_type;
	char *schema_version;
	struct csim_metrics metrics;
	struct csim_metrics_plan metrics_plan;
	int have_metrics;
	struct csim_metrics_thread *metrics_thread;   /* NULL: written in line */
	uint64_t instr_offset;
	uint64_t trailing_bytes, trailing_offset;
	struct csim_runs runs;             /* which blocks form the run (SPEC §2.1) */
	struct csim_run_choice choice;     /* settled at the end of the reading */
	/* API_INSTR and OP_BASIC_INFO payloads, unparsed, until the run is
	   settled: the K-th one (--run K) and the latest other one; the one
	   chosen is then loaded. A plain file's API_INSTR stays in the file
	   (in_file): it is read again where it lies (read/instr_index.h). */
	struct held_block {
		char *payload;
		size_t size;
		uint64_t offset;
		struct csim_block blk;
		int in_file;
	} instr_kth, instr_last, basic_kth, basic_last;
	struct held_block files;           /* the first API_FILE (format-notes §3) */
	struct csim_basic_info basic;      /* the run's facts, if any */
	struct csim_summary_table table;   /* printed last (not with -q) */
};

/*
 * The run read so far is not the one converted (without --run, every run
 * but the last): its rows, records and top-level fields are discarded, so
 * only one run is ever held and the writer's second reading sees only the
 * converted run's blocks.
 */
static void discard_run(struct run *r)
{
	csim_table_release(&r->model.table);
	csim_table_init(&r->model.table);
	csim_slice_store_clear(&r->slices);
	free(r->profiling_type);
	free(r->schema_version);
	r->profiling_type = r->schema_version = NULL;
}

/*
 * The slice store records where a new row's text lies only if the lane rule
 * keeps the row: the writer never fetches the others, and on dumps where
 * most slices are noise the locations would outweigh the rows.
 */
static int record_slice(struct run *r, const struct csim_event *ev, struct csim_error *err)
{
	const struct csim_table *t = &r->model.table;
	size_t row = t->nslices - 1;
	int kept;

	if (csim_lane_verdict_keeps(&r->verdict, t, &t->slices[row], &kept) != 0)
		return csim_error_nomem(err, CSIM_E_INPUT);
	return kept ? csim_slice_store_add(&r->slices, ev, row, err) : CSIM_OK;
}

/*
 * The events of one TRACE block, ingested as they come. A large payload is
 * scanned on a second thread (scan_pipe.h) while this one ingests; ingest
 * then walks values with its own scanner's stack and buffers (isc), never
 * with sc, which the thread owns until the block ends.
 */
static int read_events(struct run *r, const struct csim_block_reader *reader,
		       struct csim_trace_scan *sc, struct csim_trace_scan *isc,
		       const struct csim_block *blk, struct csim_error *err)
{
	struct csim_table *t = &r->model.table;
	const struct csim_ingest in = { t, r->opt->counters, r->model.rule };
	struct csim_scan_pipe *pipe = NULL;
	/* Only a size checked against the file may size the table (a gzip
	   block's size is unverified until its bytes run out), and only once
	   the payload has shown an event: a sparse 5 GiB block of zeros must
	   not reserve gigabytes before failing at its first byte. */
	int reserve = csim_block_reader_sizes_checked(reader);
	int rc = CSIM_OK, has = 1;

	/* With -j 2 or more the other dumps' workers already fill the cores:
	   a second thread per dump would only contend (measured: the 20-dump
	   batch took 1.33-1.61 s with it against 1.14-1.35 s without). */
	if (r->opt->jobs < 2 && blk->payload_size >= CSIM_SCAN_PIPE_MIN_BYTES)
		rc = csim_scan_pipe_start(&pipe, sc, isc, err);
	while (rc == CSIM_OK) {
		struct csim_event ev;
		size_t rows = t->nslices;

		rc = pipe != NULL ? csim_scan_pipe_next(pipe, &ev, &has, err)
				  : csim_trace_scan_next(sc, &ev, &has, err);
		if (rc != CSIM_OK || !has)
			break;
		rc = csim_ingest_event(&in, isc, &ev, err);
		if (rc == CSIM_OK && t->nslices > rows)
			rc = record_slice(r, &ev, err);
		if (rc == CSIM_OK && reserve) {
			csim_table_reserve(t, blk->payload_size);
			csim_slice_store_reserve(&r->slices, t->slices_cap);
			reserve = 0;
		}
	}
	csim_scan_pipe_finish(pipe);
	return rc;
}

static int read_trace(struct run *r, struct csim_block_reader *reader,
		      struct csim_trace_scan *sc, struct csim_trace_scan *isc,
		      const struct csim_block *blk, struct csim_error *err)
{
	struct csim_table *t = &r->model.table;
	enum csim_run_trace_action act = csim_runs_trace(&r->runs);
	int rc;

	if (act == CSIM_RUN_SKIP)
		return CSIM_OK;   /* --run K: another run's payload is not parsed */
	if (act == CSIM_RUN_REPLACE)
		discard_run(r);
	/* The id scope of the run (--run all). It would wrap only past 2^32
	   runs, i.e. over 64 GB of TRACE blocks holding nothing. */
	t->run = (uint32_t)(r->runs.ntrace - 1);
	rc = csim_slice_store_begin_block(&r->slices, blk, err);
	if (rc == CSIM_OK)
		rc = csim_trace_scan_begin(sc, reader, blk, err);
	if (rc == CSIM_OK)
		rc = read_events(r, reader, sc, isc, blk, err);
	/* Top-level fields come from the first TRACE block converted. */
	if (rc == CSIM_OK && r->slices.nblocks == 1) {
		csim_trace_scan_take_top_level(sc, &r->profiling_type, &r->schema_version);
	}
	return rc;
}

/* Reads a block's payload into h, in place of what h held. */
static int hold_block(struct held_block *h, struct csim_block_reader *reader,
		      const struct csim_block *blk, struct csim_error *err)
{
	char *payload;
	int rc = csim_block_reader_read_payload(reader, blk, &payload, err);

	if (rc != CSIM_OK)
		return rc;
	free(h->payload);
	h->payload = payload;
	h->size = (size_t)blk->payload_size;
	h->offset = blk->offset;
	h->blk = *blk;
	h->in_file = 0;
	return CSIM_OK;
}

/*
 * An API_INSTR block: held unparsed until the run is settled; from a plain
 * file only its place (gzip input keeps the payload: reading it again
 * would inflate the file from its start).
 */
static int read_instr(struct run *r, struct csim_block_reader *reader,
		      const struct csim_block *blk, struct csim_error *err)
{
	struct held_block *h = csim_runs_instr_is_kth(&r->runs) ? &r->instr_kth
								 : &r->instr_last;

	if (!csim_block_reader_sizes_checked(reader))
		return hold_block(h, reader, blk, err);
	free(h->payload);
	h->payload = NULL;
	h->offset = blk->offset;
	h->blk = *blk;
	h->in_file = 1;
	return CSIM_OK;
}

/* An OP_BASIC_INFO block: likewise (it is small). */
static int read_basic(struct run *r, struct csim_block_reader *reader,
		      const struct csim_block *blk, struct csim_error *err)
{
	csim_runs_basic_info(&r->runs, blk->offset);
	return hold_block(r->runs.want != 0 && r->runs.nbasic == r->runs.want
			  ? &r->basic_kth : &r->basic_last, reader, blk, err);
}

static void drop_held_instr(struct run *r)
{
	free(r->instr_kth.payload);
	free(r->instr_last.payload);
	r->instr_kth.payload = r->instr_last.payload = NULL;
	free(r->basic_kth.payload);
	free(r->basic_last.payload);
	r->basic_kth.payload = r->basic_last.payload = NULL;
}

/*
 * The converted run's OP_BASIC_INFO (SPEC §2.1, §10). It only describes the
 * run, so a malformed one is a warning: the summary loses its run facts,
 * the conversion goes on.
 */
static int load_basic(struct run *r, struct csim_error *err)
{
	struct held_block *h = r->basic_kth.payload != NULL &&
			       r->basic_kth.offset == r->choice.basic_offset
			       ? &r->basic_kth : &r->basic_last;
	int rc;

	if (r->choice.basic == 0 || h->payload == NULL)
		return CSIM_OK;
	/* load() owns the payload from here, also when it fails. */
	rc = csim_basic_info_load(&r->basic, r->bin_path, h->offset, h->payload, h->size, err);
	h->payload = NULL;
	if (rc != CSIM_OK && !csim_error_is_nomem(err)) {
		csim_log_warn(r->log, "%s; the summary has no run facts", err->message);
		csim_error_clear(err);
		rc = CSIM_OK;
	}
	return rc;
}

/* The converted run's API_INSTR (SPEC §2.1, §7), once the run is settled. */
static int load_metrics(struct run *r, struct csim_error *err)
{
	struct held_block *h;
	int rc;

	if (r->choice.instr == 0)
		return CSIM_OK;
	h = csim_runs_instr_held_as_kth(&r->runs, r->choice.instr) ? &r->instr_kth
								   : &r->instr_last;
	/* load() owns the payload from here, also when it fails. */
	if (h->in_file)
		rc = csim_metrics_load_block(&r->metrics, r->bin_path, &h->blk,
					     &r->slices.file_id, err);
	else
		rc = csim_metrics_load(&r->metrics, r->bin_path, h->offset, h->payload,
				       h->size, err);
	h->payload = NULL;
	r->have_metrics = 1;
	r->instr_offset = h->offset;
	drop_held_instr(r);
	/* The rows' one reading before the writer's: sizes and the digest. */
	if (rc == CSIM_OK)
		rc = csim_metrics_plan_make(&r->metrics_plan, &r->metrics, &r->model.instr,
					    err);
	return rc;
}

/*
 * The API_FILE's address ranges: source lines for older files (SPEC §10).
 * They only enrich the trace, so a malformed block is a warning.
 */
static int load_files(struct run *r, struct csim_error *err)
{
	int rc;

	if (r->files.payload == NULL)
		return CSIM_OK;
	rc = csim_instr_files_load(&r->model.instr, r->bin_path, r->files.offset,
				   r->files.payload, r->files.size, err);
	free(r->files.payload);
	r->files.payload = NULL;
	if (rc != CSIM_OK && !csim_error_is_nomem(err)) {
		csim_log_warn(r->log, "%s; its source lines are not used", err->message);
		csim_error_clear(err);
		rc = CSIM_OK;
	}
	return rc;
}

/* First pass: every block, every event. */
static int read_input(struct run *r, struct csim_error *err)
{
	struct csim_block_reader reader;
	struct csim_trace_scan *sc = NULL, *isc = NULL;
	int rc, has = 1;

	rc = csim_trace_scan_new(&sc, err);
	if (rc == CSIM_OK)
		rc = csim_trace_scan_new(&isc, err);
	if (rc != CSIM_OK) {
		csim_trace_scan_free(sc);   /* the reader is not open yet */
		return rc;
	}
	rc = csim_block_reader_open(&reader, r->bin_path, err);
	if (rc != CSIM_OK)
		goto out;   /* a failed open leaves the reader safe to release */
	csim_slice_store_init(&r->slices, r->bin_path, csim_block_reader_file_id(&reader));
	if (!csim_block_reader_sizes_checked(&reader))
		csim_slice_store_keep_text(&r->slices);   /* gzip: never inflated twice */
	csim_lane_verdict_init(&r->verdict, &r->model.rule);
	r->slices.progress = r->log->progress;
	r->in_size = (uint64_t)csim_block_reader_file_id(&reader)->size;
	csim_stream_set_progress(&reader.stream, r->log->progress);
	csim_progress_phase(r->log->progress, CSIM_PHASE_READING, r->in_size);
	while (rc == CSIM_OK) {
		struct csim_block blk;

		rc = csim_block_reader_next(&reader, &blk, &has, err);
		if (rc != CSIM_OK || !has)
			break;
		if (blk.type == CSIM_BLOCK_TRACE)
			rc = read_trace(r, &reader, sc, isc, &blk, err);
		else if (blk.type == CSIM_BLOCK_API_INSTR)
			rc = read_instr(r, &reader, &blk, err);
		else if (blk.type == CSIM_BLOCK_OP_BASIC_INFO)
			rc = read_basic(r, &reader, &blk, err);
		else if (blk.type == CSIM_BLOCK_API_FILE && r->files.payload == NULL)
			rc = hold_block(&r->files, &reader, &blk, err);
	}
	r->trailing_bytes = reader.trailing_bytes;
	r->trailing_offset = reader.trailing_offset;
	if (rc == CSIM_OK && r->trailing_bytes > 0)
		csim_log_warn(r->log, "%s: %llu trailing byte(s) at offset %llu ignored: too short for a block header",
			      r->bin_path, (unsigned long long)r->trailing_bytes,
			      (unsigned long long)r->trailing_offset);
	if (rc == CSIM_OK && r->runs.ntrace == 0)
		rc = csim_error_set(err, CSIM_E_INPUT, CSIM_NO_OFFSET, "%s: no TRACE block%s",
				    r->bin_path,
				    csim_stream_tell(&reader.stream) == 0
				    ? ": the file is empty"
				    : " (only simulator dumps carry a timeline; on-board dumps do not)");
	if (rc == CSIM_OK)
		rc = csim_runs_settle(&r->runs, r->bin_path, &r->choice, err);
	if (rc == CSIM_OK)
		rc = load_basic(r, err);
	if (rc == CSIM_OK)
		rc = load_metrics(r, err);
	if (rc == CSIM_OK)
		rc = load_files(r, err);
out:
	csim_block_reader_release(&reader);
	csim_trace_scan_free(sc);
	csim_trace_scan_free(isc);
	return rc;
}

/*
 * After a good run the folder holds one trace, the one just written: an older
 * trace in the other form (plain vs -z) would disagree with summary.json
 * (docs/decisions.md). Failing to remove it does not undo the run.
 */
static void drop_other_trace(const struct run *r, const char *path)
{
	if (unlink(path) != 0 && errno != ENOENT)
		csim_log_warn(r->log, "cannot remove the older %s: %s", path,
			      strerror(errno));
}

/*
 * instr_metrics.json is written on a second thread (metrics_thread.h) from
 * the end of the reading if its folder exists, else from its making; in
 * line with -j 2 or more (as scan_pipe) or a small API_INSTR. A failed
 * start leaves the write in line, which reports any error in its place.
 */
static void start_metrics(struct run *r)
{
	struct csim_error ignored;

	if (!r->have_metrics || r->metrics_thread != NULL || r->opt->jobs >= 2 ||
	    r->metrics.src.block.payload_size < CSIM_METRICS_THREAD_MIN_BYTES)
		return;
	(void)csim_metrics_thread_start(&r->metrics_thread, &r->metrics, &r->metrics_plan,
					r->opt->raw_metrics, r->out_dir, "instr_metrics.json",
					&ignored);
}

/*
 * Every file is complete before any replaces an older one: a failed write
 * is reported (by its commit) before the first rename. NULL: not written.
 */
static int commit_all(struct csim_out *const *outs, size_t n, struct csim_error *err)
{
	int rc = CSIM_OK;

	for (size_t i = 0; i < n && rc == CSIM_OK; i++)
		if (outs[i] != NULL && csim_out_failed(outs[i]))
			rc = csim_out_commit(outs[i], err);
	for (size_t i = 0; i < n && rc == CSIM_OK; i++)
		if (outs[i] != NULL)
			rc = csim_out_commit(outs[i], err);
	return rc;
}

static int write_outputs(struct run *r, struct csim_error *err)
{
	struct csim_out trace = { .fd = -1 }, metrics = { .fd = -1 }, summary = { .fd = -1 },
			page = { .fd = -1 };
	/* Joined before anything is written: no allocation after the renames. */
	char *other = csim_path_join(r->out_dir, r->opt->gzip ? TRACE_PLAIN : TRACE_GZ);
	/* Two threads for the rows unless -j fills the cores already (as scan_pipe). */
	struct csim_trace_input in = { &r->slices, r->profiling_type, r->schema_version,
				       r->opt->jobs < 2 ? CSIM_TRACE_SPLIT_CHUNK : 0 };
	const struct csim_summary_run facts = { r->choice.run, r->choice.runs,
						r->opt->run_all, &r->basic };
	int rc, before_rc;

	start_metrics(r);
	if (other == NULL)
		rc = csim_error_nomem(err, CSIM_E_OUTPUT);
	else if (r->opt->gzip)
		rc = csim_out_open_gzip(&trace, r->out_dir, TRACE_GZ, err);
	else
		rc = csim_out_open(&trace, r->out_dir, TRACE_PLAIN, err);
	if (rc == CSIM_OK)
		rc = csim_trace_write(&r->model, &in, &trace, err);
	/* The writer reads the input again through the reading modules. */
	if (rc != CSIM_OK && csim_error_is_nomem(err))
		rc = csim_error_nomem(err, CSIM_E_OUTPUT);
	if (rc == CSIM_OK && r->have_metrics && r->metrics_thread == NULL) {
		rc = csim_out_open(&metrics, r->out_dir, "instr_metrics.json", err);
		if (rc == CSIM_OK)
			rc = csim_metrics_write(&r->metrics, &r->metrics_plan,
						r->opt->raw_metrics, &metrics, err);
	}
	before_rc = rc;
	if (rc == CSIM_OK) {
		rc = csim_out_open(&summary, r->out_dir, "summary.json", err);
		if (rc == CSIM_OK)
			csim_summary_write(&r->model, &facts, &summary);
	}
	if (rc == CSIM_OK) {
		rc = csim_out_open(&page, r->out_dir, "summary.html", err);
		if (rc == CSIM_OK)
			rc = csim_summary_html_write(&r->model, &facts, &page, err);
	}
	if (r->metrics_thread != NULL)   /* its place: after the trace, before the summaries */
		rc = csim_metrics_thread_join(&r->metrics_thread, before_rc, rc, &metrics, err);
	if (rc == CSIM_OK) {
		struct csim_out *const outs[] = { &trace, r->have_metrics ? &metrics : NULL,
						  &summary, &page };

		rc = commit_all(outs, sizeof(outs) / sizeof(outs[0]), err);
	}
	if (rc == CSIM_OK) {
		drop_other_trace(r, other);
		csim_log_wrote(r->log, r->out_dir, r->opt->gzip ? TRACE_GZ : TRACE_PLAIN);
		if (r->have_metrics)
			csim_log_wrote(r->log, r->out_dir, "instr_metrics.json");
		csim_log_wrote(r->log, r->out_dir, "summary.json");
		csim_log_wrote(r->log, r->out_dir, "summary.html");
	}
	csim_out_abort(&trace);
	csim_out_abort(&metrics);
	csim_out_abort(&summary);
	csim_out_abort(&page);
	free(other);
	return rc;
}

static int copy_raw(struct run *r, struct csim_error *err)
{
	const char *slash = strrchr(r->bin_path, '/');

	if (r->output_dir == NULL || !r->opt->copy_raw || csim_path_same_folder(r->out_dir, r->bin_dir))
		return CSIM_OK;
	return csim_raw_copy_reported(r->bin_dir, slash != NULL ? slash + 1 : r->bin_path,
				      r->out_dir, r->log, err);
}

static void report_notes(const struct run *r)
{
	/* --raw-metrics writes every row: nothing is left out. */
	const int reshaped = r->have_metrics && !r->opt->raw_metrics;
	const struct csim_run_facts facts = {
		r->bin_path, r->slices.nblocks, r->have_metrics, r->instr_offset,
		&r->choice, r->opt->run != 0, r->opt->run_all,
		reshaped ? (uint64_t)r->metrics.nrows * r->metrics.ncores : 0,
		reshaped ? r->metrics_plan.left_out : 0
	};

	csim_run_notes_print(r->log, &r->model, &facts);
}

/* The summary table (SPEC §1, §10), readied before any output is committed. */
static int prepare_table(struct run *r, struct csim_error *err)
{
	const struct csim_summary_run facts = { r->choice.run, r->choice.runs,
						r->opt->run_all, &r->basic };

	if (r->log->quiet)
		return CSIM_OK;
	return csim_summary_table_prepare(&r->table, &r->model, &facts, err);
}

/* A batch row's figures (SPEC §11): with the op name and clock the summary shows. */
static int take_figures(struct run *r, struct csim_dump_figures *figures,
			struct csim_error *err)
{
	const struct csim_summary_run facts = { r->choice.run, r->choice.runs,
						r->opt->run_all, &r->basic };
	struct csim_clock clock;
	const int has_clock = csim_summary_run_clock(&facts, &r->model.summary, &clock);
	const struct csim_span name = r->basic.payload != NULL
		? csim_basic_info_text(&r->basic, CSIM_BASIC_NAME) : csim_span_of(NULL, 0);
	const struct csim_dump_run run = { name.p, name.n, has_clock ? &clock : NULL };

	return csim_dump_figures_take(figures, &r->model, &run, err);
}

static void run_release(struct run *r)
{
	csim_metrics_thread_abort(r->metrics_thread);   /* the run failed before its join */
	free(r->bin_path);
	free(r->bin_dir);
	free(r->out_dir);
	csim_slice_store_release(&r->slices);
	csim_lane_verdict_release(&r->verdict);
	free(r->profiling_type);
	free(r->schema_version);
	csim_model_release(&r->model);
	csim_metrics_release(&r->metrics);
	csim_metrics_plan_release(&r->metrics_plan);
	csim_basic_info_release(&r->basic);
	csim_summary_table_release(&r->table);
	drop_held_instr(r);
	free(r->files.payload);
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
	r.opt = opt;
	r.output_dir = output_dir;
	r.log = log;
	csim_model_init(&r.model);
	r.model.rule.keep_scalar = opt->keep_scalar;
	r.model.rule.keep_cache_ccu = opt->keep_cache_ccu;
	r.model.cut.cores = opt->cores;
	r.model.cut.ncores = opt->ncores;
	r.model.cut.window = opt->window;
	r.model.progress = log->progress;
	csim_runs_init(&r.runs, opt->run, opt->run_all);
	rc = csim_input_locate(input, &r.bin_path, &r.bin_dir, err);
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
		rc = read_input(&r, err);
	if (rc == CSIM_OK)
		start_metrics(&r);
	if (rc == CSIM_OK) {
		csim_progress_phase(log->progress, CSIM_PHASE_PASSES, r.in_size);
		rc = csim_passes_run(&r.model, err);
	}
	if (rc == CSIM_OK)
		rc = prepare_table(&r, err);
	/* Before any output is committed: a failure here leaves none. */
	if (rc == CSIM_OK && figures != NULL)
		rc = take_figures(&r, figures, err);
	if (rc == CSIM_OK && output_dir != NULL)
		rc = csim_path_make_dirs(r.out_dir, err);
	if (rc == CSIM_OK) {
		csim_progress_phase(log->progress, CSIM_PHASE_WRITING, r.in_size);
		rc = write_outputs(&r, err);
		csim_progress_end(log->progress);
	}
	if (rc == CSIM_OK)
		report_notes(&r);
	if (rc == CSIM_OK)
		rc = copy_raw(&r, err);
	/* On stdout after every "wrote" line (SPEC §1). */
	if (rc == CSIM_OK && !log->quiet)
		csim_summary_table_print(&r.table, log->out);
out:
	csim_progress_end(log->progress);   /* main prints the error next */
	run_release(&r);
	return rc;
}
