#include "convert.h"

#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "array_grow.h"
#include "block_reader.h"
#include "event_scan.h"
#include "metrics_writer.h"
#include "model.h"
#include "out_file.h"
#include "path.h"
#include "passes.h"
#include "raw_copy.h"
#include "slice_store.h"
#include "trace_writer.h"
#include "input_locate.h"

/* Growth step of a payload whose size is not verified yet (gzip input). */
#define UNVERIFIED_CHUNK (1u << 20)

/* Everything one conversion owns. */
struct run {
	const struct csim_options *opt;
	struct csim_log *log;
	char *bin_path;
	char *bin_dir;
	char *out_dir;
	struct csim_model model;
	struct csim_slice_store slices;
	char *profiling_type;
	char *schema_version;
	struct csim_metrics metrics;
	int have_metrics;
	unsigned instr_ignored;
	uint64_t instr_offset;
	uint64_t trailing_bytes, trailing_offset;
};

static int read_trace(struct run *r, struct csim_block_reader *reader,
		      struct csim_trace_scan *sc, const struct csim_block *blk,
		      struct csim_error *err)
{
	struct csim_table *t = &r->model.table;
	int rc = csim_slice_store_begin_block(&r->slices, blk, err);
	int has = 1;
	/* Only a size checked against the file may size the table (a gzip
	   block's size is unverified until its bytes run out), and only once
	   the payload has shown an event: a sparse 5 GiB block of zeros must
	   not reserve gigabytes before failing at its first byte. */
	int reserve = csim_block_reader_sizes_checked(reader);

	if (rc == CSIM_OK)
		rc = csim_trace_scan_begin(sc, reader, blk, err);
	while (rc == CSIM_OK) {
		struct csim_event ev;
		size_t rows = t->nslices;

		rc = csim_trace_scan_next(sc, &ev, &has, err);
		if (rc != CSIM_OK || !has)
			break;
		rc = csim_table_add(t, sc, &ev, err);
		if (rc == CSIM_OK && t->nslices > rows)
			rc = csim_slice_store_add(&r->slices, &ev, err);
		if (rc == CSIM_OK && reserve) {
			csim_table_reserve(t, blk->payload_size);
			csim_slice_store_reserve(&r->slices, t->slices_cap);
			reserve = 0;
		}
	}
	/* Top-level fields come from the first TRACE block. */
	if (rc == CSIM_OK && r->slices.nblocks == 1) {
		csim_trace_scan_take_top_level(sc, &r->profiling_type, &r->schema_version);
	}
	return rc;
}

/*
 * Reads a whole payload into *out. A size checked against the file is
 * allocated at once; an unverified one (gzip input) only as its bytes
 * arrive, so a header claiming 256 GiB fails as a truncated block, not as
 * an allocation of the claimed size.
 */
static int read_payload(struct csim_block_reader *reader, const struct csim_block *blk,
			char **out, struct csim_error *err)
{
	uint64_t size = blk->payload_size;
	size_t cap = 0, len = 0;
	char *buf = NULL;
	int rc = CSIM_OK;

	if (size > SIZE_MAX - 1) {
		rc = csim_error_nomem(err, CSIM_E_INPUT);
		goto out;
	}
	do {
		size_t next = cap < UNVERIFIED_CHUNK ? UNVERIFIED_CHUNK
			      : cap > SIZE_MAX / 2 ? SIZE_MAX : cap * 2;
		size_t want = csim_block_reader_sizes_checked(reader) || size <= next ? (size_t)size : next;
		char *b = realloc(buf, want ? want : 1);
		size_t got;

		if (b == NULL) {
			rc = csim_error_nomem(err, CSIM_E_INPUT);
			goto out;
		}
		buf = b;
		cap = want;
		rc = csim_block_reader_read(reader, buf + len, cap - len, &got, err);
		len += got;
	} while (rc == CSIM_OK && len < size);
out:
	if (rc != CSIM_OK)
		free(buf);
	*out = rc == CSIM_OK ? buf : NULL;
	return rc;
}

static int read_instr(struct run *r, struct csim_block_reader *reader,
		      const struct csim_block *blk, struct csim_error *err)
{
	char *payload;
	int rc;

	if (r->have_metrics) {
		r->instr_ignored++;
		return CSIM_OK;
	}
	rc = read_payload(reader, blk, &payload, err);
	if (rc != CSIM_OK)
		return rc;
	/* load() owns the payload from here, also when it fails. */
	rc = csim_metrics_load(&r->metrics, r->bin_path, blk->offset, payload,
			       (size_t)blk->payload_size, err);
	r->have_metrics = 1;
	r->instr_offset = blk->offset;
	return rc;
}

/* First pass: every block, every event. */
static int read_input(struct run *r, struct csim_error *err)
{
	struct csim_block_reader reader;
	struct csim_trace_scan *sc;
	int rc, has = 1;

	rc = csim_trace_scan_new(&sc, err);
	if (rc != CSIM_OK)
		return rc;
	rc = csim_block_reader_open(&reader, r->bin_path, err);
	if (rc != CSIM_OK)
		goto out;   /* a failed open leaves the reader safe to release */
	csim_slice_store_init(&r->slices, r->bin_path, csim_block_reader_file_id(&reader));
	while (rc == CSIM_OK) {
		struct csim_block blk;

		rc = csim_block_reader_next(&reader, &blk, &has, err);
		if (rc != CSIM_OK || !has)
			break;
		if (blk.type == CSIM_BLOCK_TRACE)
			rc = read_trace(r, &reader, sc, &blk, err);
		else if (blk.type == CSIM_BLOCK_API_INSTR)
			rc = read_instr(r, &reader, &blk, err);
	}
	r->trailing_bytes = reader.trailing_bytes;
	r->trailing_offset = reader.trailing_offset;
	if (rc == CSIM_OK && r->trailing_bytes > 0)
		csim_log_warn(r->log, "%s: %llu trailing byte(s) at offset %llu ignored: too short for a block header",
			      r->bin_path, (unsigned long long)r->trailing_bytes,
			      (unsigned long long)r->trailing_offset);
	if (rc == CSIM_OK && r->slices.nblocks == 0)
		rc = csim_error_set(err, CSIM_E_INPUT, CSIM_NO_OFFSET, "%s: no TRACE block%s",
				    r->bin_path,
				    csim_stream_tell(&reader.stream) == 0
				    ? ": the file is empty"
				    : " (only simulator dumps carry a timeline; on-board dumps do not)");
out:
	csim_block_reader_release(&reader);
	csim_trace_scan_free(sc);
	return rc;
}

static int write_outputs(struct run *r, struct csim_error *err)
{
	struct csim_out trace, metrics;
	struct csim_trace_input in = { &r->slices, r->profiling_type, r->schema_version };
	int rc;

	memset(&metrics, 0, sizeof(metrics));
	metrics.fd = -1;
	rc = csim_out_open(&trace, r->out_dir, "trace.clean.json", err);
	if (rc != CSIM_OK)
		return rc;
	rc = csim_trace_write(&r->model, &in, &trace, err);
	/* The writer reads the input again through the reading modules. */
	if (rc != CSIM_OK && csim_error_is_nomem(err))
		rc = csim_error_nomem(err, CSIM_E_OUTPUT);
	if (rc == CSIM_OK && r->have_metrics) {
		rc = csim_out_open(&metrics, r->out_dir, "instr_metrics.json", err);
		if (rc == CSIM_OK)
			rc = csim_metrics_write(&r->metrics, r->opt->raw_metrics,
						&metrics, err);
	}
	/* Both files are complete before either replaces an older one. */
	if (rc == CSIM_OK && csim_out_failed(&trace))
		rc = csim_out_commit(&trace, err);   /* reports the write error */
	if (rc == CSIM_OK && r->have_metrics && csim_out_failed(&metrics))
		rc = csim_out_commit(&metrics, err);
	if (rc == CSIM_OK)
		rc = csim_out_commit(&trace, err);
	if (rc == CSIM_OK && r->have_metrics)
		rc = csim_out_commit(&metrics, err);
	if (rc == CSIM_OK) {
		csim_log_wrote(r->log, r->out_dir, "trace.clean.json");
		if (r->have_metrics)
			csim_log_wrote(r->log, r->out_dir, "instr_metrics.json");
	}
	csim_out_abort(&trace);
	csim_out_abort(&metrics);
	return rc;
}

/* Is the output folder a different folder from the one holding the .bin? */
static int output_elsewhere(const struct run *r)
{
	struct stat a, b;

	if (stat(r->out_dir, &a) != 0 || stat(r->bin_dir, &b) != 0)
		return 1;
	return a.st_dev != b.st_dev || a.st_ino != b.st_ino;
}

static int copy_raw(struct run *r, struct csim_error *err)
{
	struct csim_raw_copy_stats st;
	char *dest = NULL;
	int rc;

	if (r->opt->output_dir == NULL || !r->opt->copy_raw || !output_elsewhere(r))
		return CSIM_OK;
	rc = csim_raw_copy(r->bin_dir, r->out_dir, r->log, &st, &dest, err);
	if (rc == CSIM_OK && dest != NULL) {
		csim_log_wrote(r->log, r->out_dir, "raw_simulator/");
		csim_log_note(r->log, "copied %lu file(s), %lu link(s), %lu folder(s), %llu bytes into %s%s",
			      st.files, st.links, st.dirs, st.bytes, dest,
			      st.skipped ? " (some entries skipped, see warnings)" : "");
	}
	free(dest);
	return rc;
}

/* "3 a, 2 b" for the non-zero counts of a breakdown. */
static void breakdown(char *buf, size_t cap, const uint64_t *counts, int n,
		      const char *(*text)(int))
{
	size_t len = 0;

	buf[0] = '\0';
	for (int i = 0; i < n && len < cap; i++) {
		int k;

		if (counts[i] == 0)
			continue;
		k = snprintf(buf + len, cap - len, "%s%llu %s", len ? ", " : "",
			     (unsigned long long)counts[i], text(i));
		if (k < 0)
			break;
		len += (size_t)k;
	}
}

static const char *skip_text(int i) { return csim_skip_reason_text((enum csim_skip_reason)i); }
static const char *fskip_text(int i) { return csim_flag_skip_text((enum csim_flag_skip)i); }
static const char *sdrop_text(int i) { return csim_slice_drop_text((enum csim_slice_drop)i); }
static const char *drop_text(int i) { return csim_drop_reason_text((enum csim_drop_reason)i); }

static uint64_t sum(const uint64_t *v, int n)
{
	uint64_t s = 0;

	for (int i = 0; i < n; i++)
		s += v[i];
	return s;
}

static void report_summary(const struct run *r)
{
	const struct csim_model *m = &r->model;
	const struct csim_table *t = &m->table;
	char buf[1024];
	uint64_t skipped = sum(t->skipped, CSIM_SKIP_COUNT);
	uint64_t flag_skips = sum(m->flag_skips, CSIM_FSKIP_COUNT);

	if (skipped > 0) {
		breakdown(buf, sizeof(buf), t->skipped, CSIM_SKIP_COUNT, skip_text);
		csim_log_warn(r->log, "%llu event(s) skipped for missing or bad fields: %s",
			      (unsigned long long)skipped, buf);
	}
	if (r->instr_ignored > 0)
		csim_log_warn(r->log, "%s: %u more API_INSTR block(s) ignored; metrics come from the first, at offset %llu",
			      r->bin_path, r->instr_ignored,
			      (unsigned long long)r->instr_offset);
	if (!r->have_metrics)
		csim_log_warn(r->log, "%s: no API_INSTR block: instr_metrics.json not written",
			      r->bin_path);
	csim_log_note(r->log, "%llu event(s) in %zu TRACE block(s): %llu slice(s) kept on %zu lane(s) (%llu extra sub-lane(s)), %zu arrow(s), %zu counter(s)",
		      (unsigned long long)t->events, r->slices.nblocks,
		      (unsigned long long)m->kept_slices, m->nlanes,
		      (unsigned long long)m->extra_sublanes, m->narrows, t->ncounters);
	breakdown(buf, sizeof(buf), m->slice_drops, CSIM_SDROP_COUNT, sdrop_text);
	if (buf[0])
		csim_log_note(r->log, "dropped slices: %s", buf);
	breakdown(buf, sizeof(buf), t->dropped, CSIM_DROP_COUNT, drop_text);
	if (buf[0])
		csim_log_note(r->log, "dropped records: %s", buf);
	if (flag_skips > 0) {
		breakdown(buf, sizeof(buf), m->flag_skips, CSIM_FSKIP_COUNT, fskip_text);
		csim_log_note(r->log, "%llu sync flag(s) could not be re-anchored: %s",
			      (unsigned long long)flag_skips, buf);
	}
}

static void run_release(struct run *r)
{
	free(r->bin_path);
	free(r->bin_dir);
	free(r->out_dir);
	csim_slice_store_release(&r->slices);
	free(r->profiling_type);
	free(r->schema_version);
	csim_model_release(&r->model);
	csim_metrics_release(&r->metrics);
}

int csim_convert(const struct csim_options *opt, struct csim_log *log,
		 struct csim_error *err)
{
	struct run r;
	int rc;

	memset(&r, 0, sizeof(r));
	r.opt = opt;
	r.log = log;
	csim_model_init(&r.model, opt);
	rc = csim_input_locate(opt->input, &r.bin_path, &r.bin_dir, err);
	if (rc != CSIM_OK)
		goto out;
	r.out_dir = csim_path_trim(opt->output_dir != NULL ? opt->output_dir : r.bin_dir);
	if (r.out_dir == NULL) {
		rc = csim_error_nomem(err, CSIM_E_INPUT);
		goto out;
	}
	rc = read_input(&r, err);
	if (rc == CSIM_OK)
		rc = csim_passes_run(&r.model, opt, err);
	if (rc == CSIM_OK && opt->output_dir != NULL)
		rc = csim_path_make_dirs(r.out_dir, err);
	if (rc == CSIM_OK)
		rc = write_outputs(&r, err);
	if (rc == CSIM_OK)
		report_summary(&r);
	if (rc == CSIM_OK)
		rc = copy_raw(&r, err);
out:
	run_release(&r);
	return rc;
}
