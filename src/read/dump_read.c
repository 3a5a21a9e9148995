#include "read/dump_read.h"

#include <stdlib.h>
#include <string.h>

#include "read/basic_info.h"
#include "read/event_ingest.h"
#include "read/event_scan.h"
#include "read/instr_files.h"
#include "read/scan_pipe.h"

void csim_dump_init(struct csim_dump *d, const struct csim_read_choices *choices,
		    struct csim_log *log, const char *bin_path)
{
	memset(d, 0, sizeof(*d));
	d->choices = choices;
	d->log = log;
	d->bin_path = bin_path;
	csim_runs_init(&d->runs, choices->run, choices->run_all);
}

static void part_release(struct csim_dump_part *p)
{
	if (p == NULL)
		return;
	csim_slice_store_release(&p->slices);
	csim_lane_verdict_release(&p->verdict);
	free(p->profiling_type);
	free(p->schema_version);
	csim_model_release(&p->model);
	csim_metrics_release(&p->metrics);
	free(p);
}

static void held_release(struct csim_held_block *h)
{
	free(h->payload);
	h->payload = NULL;
}

static void held_set_release(struct csim_held_set *s)
{
	held_release(&s->kth);
	held_release(&s->last);
	for (size_t i = 0; i < s->nall; i++)
		held_release(&s->all[i]);
	free(s->all);
	s->all = NULL;
	s->nall = s->cap = 0;
}

void csim_dump_release(struct csim_dump *d)
{
	for (size_t i = 0; i < d->nparts; i++)
		part_release(d->parts[i]);
	free(d->parts);
	d->parts = NULL;
	d->nparts = 0;
	held_set_release(&d->instr);
	held_set_release(&d->basic);
	held_release(&d->files);
}

/* A new part for the run just met, with the model's choices from the reading's. */
static int part_add(struct csim_dump *d, const struct csim_block_reader *reader,
		    struct csim_error *err)
{
	struct csim_dump_part *p;

	if (d->nparts == d->parts_cap) {
		size_t cap = d->parts_cap ? 2 * d->parts_cap : 1;
		struct csim_dump_part **grown = realloc(d->parts, cap * sizeof(*grown));

		if (grown == NULL)
			return csim_error_nomem(err, CSIM_E_INPUT);
		d->parts = grown;
		d->parts_cap = cap;
	}
	p = calloc(1, sizeof(*p));
	if (p == NULL)
		return csim_error_nomem(err, CSIM_E_INPUT);
	p->run = d->runs.ntrace;
	csim_model_init(&p->model);
	p->model.rule = d->choices->rule;
	p->model.table.want_exact = d->choices->exact_times;
	p->model.tracks.wanted = d->choices->exact_times;
	p->model.cut.cores = d->choices->cores;
	p->model.cut.ncores = d->choices->ncores;
	p->model.cut.window = d->choices->window;
	p->model.cut.across_runs = d->choices->run_all;
	p->model.progress = d->log->progress;
	csim_slice_store_init(&p->slices, d->bin_path, csim_block_reader_file_id(reader));
	if (!csim_block_reader_sizes_checked(reader) && d->choices->slice_texts)
		csim_slice_store_keep_text(&p->slices);   /* gzip: never inflated twice */
	p->slices.progress = d->log->progress;
	csim_lane_verdict_init(&p->verdict, &p->model.rule);
	d->parts[d->nparts++] = p;
	return CSIM_OK;
}

/*
 * The slice store records where a new row's text lies only if the lane rule
 * keeps the row: the writer never fetches the others, and on dumps where
 * most slices are noise the locations would outweigh the rows.
 */
static int record_slice(struct csim_dump_part *p, const struct csim_event *ev,
			struct csim_error *err)
{
	const struct csim_table *t = &p->model.table;
	size_t row = t->nslices - 1;
	int kept;

	if (csim_lane_verdict_keeps(&p->verdict, t, &t->slices[row], &kept) != 0)
		return csim_error_nomem(err, CSIM_E_INPUT);
	return kept ? csim_slice_store_add(&p->slices, ev, row, err) : CSIM_OK;
}

/*
 * The events of one TRACE block, ingested as they come. A large payload is
 * scanned on a second thread (scan_pipe.h) while this one ingests; ingest
 * then walks values with its own scanner's stack and buffers (isc), never
 * with sc, which the thread owns until the block ends.
 */
static int read_events(struct csim_dump *d, struct csim_dump_part *p,
		       const struct csim_block_reader *reader, struct csim_trace_scan *sc,
		       struct csim_trace_scan *isc, const struct csim_block *blk,
		       struct csim_error *err)
{
	struct csim_table *t = &p->model.table;
	const struct csim_ingest in = { t, d->choices->counters, p->model.rule };
	const int record = d->choices->slice_texts;
	struct csim_scan_pipe *pipe = NULL;
	/* Only a size checked against the file may size the table (a gzip
	   block's size is unverified until its bytes run out), and only once
	   the payload has shown an event: a sparse 5 GiB block of zeros must
	   not reserve gigabytes before failing at its first byte. */
	int reserve = csim_block_reader_sizes_checked(reader);
	int rc = CSIM_OK, has = 1;

	if (d->choices->scan_thread && blk->payload_size >= CSIM_SCAN_PIPE_MIN_BYTES)
		rc = csim_scan_pipe_start(&pipe, sc, isc, err);
	while (rc == CSIM_OK) {
		struct csim_event ev;
		size_t rows = t->nslices;

		rc = pipe != NULL ? csim_scan_pipe_next(pipe, &ev, &has, err)
				  : csim_trace_scan_next(sc, &ev, &has, err);
		if (rc != CSIM_OK || !has)
			break;
		rc = csim_ingest_event(&in, isc, &ev, err);
		if (rc == CSIM_OK && t->nslices > rows && record)
			rc = record_slice(p, &ev, err);
		if (rc == CSIM_OK && reserve) {
			csim_table_reserve(t, blk->payload_size);
			if (record)
				csim_slice_store_reserve(&p->slices, t->slices_cap);
			reserve = 0;
		}
	}
	csim_scan_pipe_finish(pipe);
	return rc;
}

/*
 * A TRACE block: skipped (--run K, another run), ingested into a new part
 * (the first run, or --run all), or, without --run, into the one part in
 * place of the run before: only one run is ever held then, and the
 * writer's second reading sees only the converted run's block.
 */
static int read_trace(struct csim_dump *d, struct csim_block_reader *reader,
		      struct csim_trace_scan *sc, struct csim_trace_scan *isc,
		      const struct csim_block *blk, struct csim_error *err)
{
	enum csim_run_trace_action act = csim_runs_trace(&d->runs);
	struct csim_dump_part *p;
	int rc = CSIM_OK;

	if (act == CSIM_RUN_SKIP)
		return CSIM_OK;   /* --run K: another run's payload is not parsed */
	if (act == CSIM_RUN_REPLACE) {
		part_release(d->parts[--d->nparts]);
		d->parts[d->nparts] = NULL;
	}
	rc = part_add(d, reader, err);
	if (rc != CSIM_OK)
		return rc;
	p = d->parts[d->nparts - 1];
	rc = csim_slice_store_begin_block(&p->slices, blk, err);
	if (rc == CSIM_OK)
		rc = csim_trace_scan_begin(sc, reader, blk, err);
	if (rc == CSIM_OK)
		rc = read_events(d, p, reader, sc, isc, blk, err);
	if (rc == CSIM_OK)
		csim_trace_scan_take_top_level(sc, &p->profiling_type, &p->schema_version);
	return rc;
}

/* Reads a block's payload into h, in place of what h held. */
static int hold_block(struct csim_held_block *h, struct csim_block_reader *reader,
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

/* The held block of the set that slot names; a new one for a block's own slot. */
static int held_slot(struct csim_held_set *s, enum csim_run_slot slot,
		     struct csim_held_block **h, struct csim_error *err)
{
	if (slot != CSIM_RUN_SLOT_OWN) {
		*h = slot == CSIM_RUN_SLOT_KTH ? &s->kth : &s->last;
		return CSIM_OK;
	}
	if (s->nall == s->cap) {
		size_t cap = s->cap ? 2 * s->cap : 2;
		struct csim_held_block *grown = realloc(s->all, cap * sizeof(*grown));

		if (grown == NULL)
			return csim_error_nomem(err, CSIM_E_INPUT);
		s->all = grown;
		s->cap = cap;
	}
	*h = &s->all[s->nall++];
	memset(*h, 0, sizeof(**h));
	return CSIM_OK;
}

/*
 * An API_INSTR block: held unparsed until the run is settled; from a plain
 * file only its place (gzip input keeps the payload: reading it again
 * would inflate the file from its start).
 */
static int read_instr(struct csim_dump *d, struct csim_block_reader *reader,
		      const struct csim_block *blk, struct csim_error *err)
{
	struct csim_held_block *h = NULL;
	int rc = held_slot(&d->instr, csim_runs_instr(&d->runs), &h, err);

	if (rc != CSIM_OK)
		return rc;
	if (!csim_block_reader_sizes_checked(reader))
		return hold_block(h, reader, blk, err);
	free(h->payload);
	h->payload = NULL;
	h->offset = blk->offset;
	h->blk = *blk;
	h->in_file = 1;
	return CSIM_OK;
}

/* An OP_BASIC_INFO block: likewise, payload and all (it is small). */
static int read_basic(struct csim_dump *d, struct csim_block_reader *reader,
		      const struct csim_block *blk, struct csim_error *err)
{
	struct csim_held_block *h = NULL;
	int rc = held_slot(&d->basic, csim_runs_basic_info(&d->runs, blk->offset), &h, err);

	return rc == CSIM_OK ? hold_block(h, reader, blk, err) : rc;
}

/*
 * The held block that run `run` takes from its set (SPEC §2.1): its own
 * when the file holds one per run, else the last; NULL for none.
 */
static struct csim_held_block *held_of_run(struct csim_dump *d, struct csim_held_set *s,
					   uint64_t count, uint64_t run)
{
	uint64_t k = csim_runs_block_of(count, d->runs.ntrace, run);

	if (k == 0)
		return NULL;
	switch (csim_runs_slot_of(&d->runs, k)) {
	case CSIM_RUN_SLOT_OWN:
		return &s->all[k - 1];
	case CSIM_RUN_SLOT_KTH:
		return &s->kth;
	default:
		return &s->last;
	}
}

/*
 * A payload to hand to a loader, which takes ownership of it: h's own, or
 * a copy when a later run takes the same block (keep).
 */
static int take_payload(struct csim_held_block *h, int keep, char **payload,
			struct csim_error *err)
{
	*payload = h->payload;
	if (!keep || h->payload == NULL) {
		h->payload = NULL;
		return CSIM_OK;
	}
	*payload = malloc(h->size ? h->size : 1);
	if (*payload == NULL)
		return csim_error_nomem(err, CSIM_E_INPUT);
	memcpy(*payload, h->payload, h->size);
	return CSIM_OK;
}

/*
 * A part's OP_BASIC_INFO (SPEC §2.1, §10). It only describes the run, so a
 * malformed one is a warning: the summary loses its run facts, the
 * conversion goes on.
 */
static int load_basic(struct csim_dump *d, struct csim_dump_part *p, int keep,
		      struct csim_error *err)
{
	struct csim_held_block *h = held_of_run(d, &d->basic, d->runs.nbasic, p->run);
	char *payload;
	int rc;

	if (h == NULL || h->payload == NULL)
		return CSIM_OK;
	rc = take_payload(h, keep, &payload, err);
	/* load() owns the payload from here, also when it fails. */
	if (rc == CSIM_OK)
		rc = csim_basic_info_load(&p->model.run.basic, d->bin_path, h->offset, payload, h->size,
					  err);
	if (rc != CSIM_OK && !csim_error_is_nomem(err)) {
		csim_log_warn(d->log, "%s; the summary has no run facts", err->message);
		csim_error_clear(err);
		rc = CSIM_OK;
	}
	return rc;
}

/*
 * The rows' one reading before the writer's: the digest, and the rows hook's
 * reader (the writer's sizing). An API_INSTR refused whole leaves no figure
 * from the rows read before its bound, which would look complete in the
 * summary.
 */
static int read_rows(struct csim_dump *d, size_t i, struct csim_error *err)
{
	struct csim_dump_part *p = d->parts[i];
	const struct csim_rows_hook *hook = &d->choices->rows;
	struct csim_instr_sink sink;
	int rc = CSIM_OK;

	if (hook->open != NULL)
		rc = hook->open(hook->ctx, i, &p->metrics, &sink, err);
	if (rc == CSIM_OK)
		rc = csim_instr_digest_rows(&p->model.instr, &p->metrics,
					    hook->open != NULL ? &sink : NULL, err);
	if (rc == CSIM_OK && hook->open != NULL && hook->refused(hook->ctx, i, &p->metrics)) {
		p->metrics_refused = 1;
		csim_instr_stats_release(&p->model.instr);
		csim_instr_stats_init(&p->model.instr);
	}
	return rc;
}

/* A part's API_INSTR (SPEC §2.1, §7), once the runs are settled. */
static int load_metrics(struct csim_dump *d, size_t i, int keep, struct csim_error *err)
{
	struct csim_dump_part *p = d->parts[i];
	struct csim_held_block *h = held_of_run(d, &d->instr, d->runs.ninstr, p->run);
	char *payload;
	int rc;

	if (h == NULL)
		return CSIM_OK;
	p->have_metrics = 1;
	p->instr_offset = h->offset;
	if (h->in_file) {
		rc = csim_metrics_load_block(&p->metrics, d->bin_path, &h->blk,
					     &p->slices.file_id, err);
	} else {
		rc = take_payload(h, keep, &payload, err);
		/* load() owns the payload from here, also when it fails. */
		if (rc == CSIM_OK)
			rc = csim_metrics_load(&p->metrics, d->bin_path, h->offset, payload,
					       h->size, err);
	}
	/* --core cuts the summary's API_INSTR figures and instr_metrics.json
	   to the cores it keeps, as it cuts the trace (SPEC §10). */
	if (rc == CSIM_OK)
		rc = csim_metrics_cut(&p->metrics, d->choices->cores, d->choices->ncores, err);
	if (rc == CSIM_OK)
		rc = read_rows(d, i, err);
	return rc;
}

/*
 * The API_FILE's address ranges: source lines for older files (SPEC §10).
 * They only enrich the trace, so a malformed block is a warning.
 */
static int load_files(struct csim_dump *d, struct csim_dump_part *p, struct csim_error *err)
{
	int rc;

	if (d->files.payload == NULL)
		return CSIM_OK;
	rc = csim_instr_files_load(&p->model.instr, d->bin_path, d->files.offset,
				   d->files.payload, d->files.size, err);
	if (rc != CSIM_OK && !csim_error_is_nomem(err)) {
		csim_log_warn(d->log, "%s; its source lines are not used", err->message);
		csim_error_clear(err);
		rc = CSIM_OK;
	}
	return rc;
}

/*
 * Each part's blocks, once the runs are settled. Runs share a block only
 * when the file holds fewer than one per run (all take the last): then
 * every part but the last loads a copy of its payload.
 */
static int load_parts(struct csim_dump *d, struct csim_error *err)
{
	const struct csim_runs *rs = &d->runs;
	int rc = CSIM_OK;

	for (size_t i = 0; i < d->nparts && rc == CSIM_OK; i++) {
		struct csim_dump_part *p = d->parts[i];
		int later = i + 1 < d->nparts;

		p->model.run.run = p->run;
		p->model.run.side_by_side = d->nparts > 1;
		p->model.run.choice = d->choice;
		rc = load_basic(d, p, later && rs->nbasic != rs->ntrace, err);
		if (rc == CSIM_OK)
			rc = load_metrics(d, i, later && rs->ninstr != rs->ntrace, err);
		if (rc == CSIM_OK)
			rc = load_files(d, p, err);
	}
	held_set_release(&d->instr);
	held_set_release(&d->basic);
	held_release(&d->files);
	return rc;
}

/* Every block, every event, then the runs settled and their blocks loaded. */
int csim_dump_read(struct csim_dump *d, struct csim_error *err)
{
	struct csim_block_reader reader;
	struct csim_trace_scan *sc = NULL, *isc = NULL;
	uint64_t trailing, trailing_at;
	int rc, has = 1;

	rc = csim_trace_scan_new(&sc, err);
	if (rc == CSIM_OK)
		rc = csim_trace_scan_new(&isc, err);
	if (rc != CSIM_OK) {
		csim_trace_scan_free(sc);   /* the reader is not open yet */
		return rc;
	}
	rc = csim_block_reader_open(&reader, d->bin_path, err);
	if (rc != CSIM_OK)
		goto out;   /* a failed open leaves the reader safe to release */
	d->in_size = (uint64_t)csim_block_reader_file_id(&reader)->size;
	d->in_gzip = reader.stream.gz != NULL;
	csim_block_reader_set_progress(&reader, d->log->progress);
	csim_progress_phase(d->log->progress, CSIM_PHASE_READING, d->in_size);
	while (rc == CSIM_OK) {
		struct csim_block blk;

		rc = csim_block_reader_next(&reader, &blk, &has, err);
		if (rc != CSIM_OK || !has)
			break;
		if (blk.type == CSIM_BLOCK_TRACE)
			rc = read_trace(d, &reader, sc, isc, &blk, err);
		else if (blk.type == CSIM_BLOCK_API_INSTR)
			rc = read_instr(d, &reader, &blk, err);
		else if (blk.type == CSIM_BLOCK_OP_BASIC_INFO)
			rc = read_basic(d, &reader, &blk, err);
		else if (blk.type == CSIM_BLOCK_API_FILE && d->files.payload == NULL)
			rc = hold_block(&d->files, &reader, &blk, err);
	}
	trailing = csim_block_reader_trailing(&reader, &trailing_at);
	if (rc == CSIM_OK && trailing > 0)
		csim_log_warn(d->log, "%s: %llu trailing byte(s) at offset %llu ignored: too short for a block header",
			      d->bin_path, (unsigned long long)trailing,
			      (unsigned long long)trailing_at);
	if (rc == CSIM_OK && d->runs.ntrace == 0)
		rc = csim_error_set(err, CSIM_E_INPUT, CSIM_NO_OFFSET, "%s: no TRACE block%s",
				    d->bin_path,
				    csim_block_reader_tell(&reader) == 0
				    ? ": the file is empty"
				    : " (only simulator dumps carry a timeline; on-board dumps do not)");
	if (rc == CSIM_OK)
		rc = csim_runs_settle(&d->runs, d->bin_path, &d->choice, err);
	if (rc == CSIM_OK)
		rc = load_parts(d, err);
out:
	csim_block_reader_release(&reader);
	csim_trace_scan_free(sc);
	csim_trace_scan_free(isc);
	return rc;
}
