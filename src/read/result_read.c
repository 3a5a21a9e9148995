#include "read/result_read.h"

#include <errno.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "base/array_grow.h"
#include "base/path.h"
#include "read/input_locate.h"
#include "read/input_sniff.h"
#include "read/json_scan.h"
#include "read/result_members.h"
#include "read/result_shards.h"

/* summary.json and batch_summary.json are at schema 1 (docs/summary.md, docs/batch.md). */
#define SCHEMA 1

/* What a side that is a dump, not a result, is told. */
#define CONVERT_FIRST "; it is a dump: convert it first (clean_sim_trace PATH -o DIR), " \
	"then compare DIR"

/* The file of a folder: a batch's summary first (its dumps' own folders
   may hold a summary.json each, but the folder itself is the batch). */
static const char *const folder_files[] = { "batch_summary.json", "summary.json" };

int csim_result_fail(struct csim_result_reader *rd, const char *at, const char *fmt, ...)
{
	char why[512];
	va_list ap;
	const uint64_t off = at != NULL && at >= rd->r->json && at <= rd->r->json + rd->r->size
			     ? (uint64_t)(at - rd->r->json) : CSIM_NO_OFFSET;

	va_start(ap, fmt);
	vsnprintf(why, sizeof(why), fmt, ap);
	va_end(ap);
	if (off == CSIM_NO_OFFSET)
		return csim_error_set(rd->err, CSIM_E_INPUT, off, "cannot read %s: %s", rd->r->file,
				      why);
	return csim_error_set(rd->err, CSIM_E_INPUT, off, "cannot read %s: byte %llu: %s",
			      rd->r->file, (unsigned long long)off, why);
}

int csim_result_walk(struct csim_result_reader *rd, struct csim_span v, char open, void *ctx,
		     csim_result_member_fn fn)
{
	struct csim_json_iter it;
	struct csim_json_item m;
	struct csim_scan_result res;
	int has = 1;

	if (v.p == NULL || v.n == 0 || v.p[0] != open)
		return csim_result_fail(rd, v.p, "%s where %s was expected",
					v.p == NULL ? "nothing" : "another value",
					open == '{' ? "an object" : "an array");
	csim_json_iter_init(&it, &rd->stack, v.p, v.p + v.n, 1);
	for (;;) {
		const int st = csim_json_iter_next(&it, &m, &has, &res);
		int rc;

		if (st == CSIM_SCAN_NOMEM)
			return csim_error_nomem(rd->err, CSIM_E_INPUT);
		if (st != CSIM_SCAN_OK)
			return csim_result_fail(rd, res.where, "%s", res.why);
		if (!has)
			return CSIM_OK;
		rc = fn(rd, ctx, &m);
		if (rc != CSIM_OK)
			return rc;
	}
}

int csim_result_is_null(struct csim_span v)
{
	return v.n == 4 && memcmp(v.p, "null", 4) == 0;
}

int csim_result_string(struct csim_result_reader *rd, struct csim_span v, struct csim_span *out)
{
	struct csim_result *r = rd->r;
	size_t n;

	*out = csim_span_of(NULL, 0);
	if (csim_result_is_null(v))
		return CSIM_OK;
	if (v.n < 2 || v.p[0] != '"')
		return csim_result_fail(rd, v.p, "a string was expected");
	/* Decoding never grows text, and every string is decoded once. */
	n = csim_json_unescape(v.p + 1, v.n - 2, r->text + r->text_len);
	*out = csim_span_of(r->text + r->text_len, n);
	r->text_len += n;
	return CSIM_OK;
}

int csim_result_int(struct csim_result_reader *rd, struct csim_span v, int64_t *out)
{
	char *end;
	double d;

	*out = CSIM_RESULT_NONE;
	if (csim_result_is_null(v))
		return CSIM_OK;
	errno = 0;
	d = strtod(v.p, &end);
	if (end != v.p + v.n || errno != 0 || d < -9.0e15 || d > 9.0e15)
		return csim_result_fail(rd, v.p, "a number was expected");
	*out = (int64_t)(d < 0 ? d - 0.5 : d + 0.5);
	return CSIM_OK;
}

int csim_result_number(struct csim_result_reader *rd, struct csim_span v, double *out)
{
	char *end;

	*out = 0.0;
	if (csim_result_is_null(v))
		return CSIM_OK;
	errno = 0;
	*out = strtod(v.p, &end);
	if (end != v.p + v.n || errno != 0)
		return csim_result_fail(rd, v.p, "a number was expected");
	return CSIM_OK;
}

int csim_result_key(const struct csim_json_item *m, const char *key)
{
	return !m->key_escaped && csim_span_eq(m->key, key);
}

/* The whole file, NUL-terminated, and room for its decoded strings. */
static int load(struct csim_result *r, struct csim_error *err)
{
	struct stat st;
	size_t done = 0;
	int fd = open(r->file, O_RDONLY | O_CLOEXEC);
	int rc = CSIM_OK;

	if (fd < 0)
		return csim_error_set(err, CSIM_E_INPUT, CSIM_NO_OFFSET, "cannot read %s: %s",
				      r->file, strerror(errno));
	if (fstat(fd, &st) != 0 || !S_ISREG(st.st_mode)) {
		rc = csim_error_set(err, CSIM_E_INPUT, CSIM_NO_OFFSET, "cannot read %s: %s",
				    r->file, S_ISREG(st.st_mode) ? strerror(errno) : "not a file");
		goto out;
	}
	if ((uint64_t)st.st_size > CSIM_RESULT_MAX_BYTES) {
		rc = csim_error_set(err, CSIM_E_INPUT, CSIM_NO_OFFSET,
				    "cannot read %s: %llu bytes is no summary of clean_sim_trace",
				    r->file, (unsigned long long)st.st_size);
		goto out;
	}
	r->size = (size_t)st.st_size;
	r->json = malloc(r->size + 1);
	r->text = malloc(r->size + 1);
	if (r->json == NULL || r->text == NULL) {
		rc = csim_error_nomem(err, CSIM_E_INPUT);
		goto out;
	}
	while (done < r->size) {
		const ssize_t k = read(fd, r->json + done, r->size - done);

		if (k < 0 && errno == EINTR)
			continue;
		if (k <= 0) {
			rc = csim_error_set(err, CSIM_E_INPUT, done, "cannot read %s: %s", r->file,
					    k == 0 ? "the file got shorter while it was read"
						   : strerror(errno));
			goto out;
		}
		done += (size_t)k;
	}
	r->json[r->size] = '\0';
out:
	close(fd);
	return rc;
}

/*
 * Which file a PATH names: itself, or the summary its folder holds; *shards
 * set when the folder holds neither (its shards' summaries are tried).
 */
static int locate(struct csim_result *r, const char *path, int *shards, struct csim_error *err)
{
	struct stat st;

	if (stat(path, &st) != 0)
		return csim_error_set(err, CSIM_E_INPUT, CSIM_NO_OFFSET, "cannot read %s: %s", path,
				      strerror(errno));
	if (!S_ISDIR(st.st_mode)) {
		r->file = csim_path_trim(path);
		return r->file == NULL ? csim_error_nomem(err, CSIM_E_INPUT) : CSIM_OK;
	}
	for (size_t i = 0; i < sizeof(folder_files) / sizeof(folder_files[0]); i++) {
		char *file = csim_path_join(path, folder_files[i]);

		if (file == NULL)
			return csim_error_nomem(err, CSIM_E_INPUT);
		if (stat(file, &st) == 0) {
			r->file = file;
			return CSIM_OK;
		}
		free(file);
	}
	*shards = 1;
	return CSIM_OK;
}

struct top {
	struct csim_span schema, runs, rows, shard;
	int single;   /* a run's own members at the top: one run */
};

static int top_member(struct csim_result_reader *rd, void *ctx, const struct csim_json_item *m)
{
	struct top *t = ctx;

	(void)rd;
	if (csim_result_key(m, "schema"))
		t->schema = m->value;
	else if (csim_result_key(m, "runs"))
		t->runs = m->value;
	else if (csim_result_key(m, "rows"))
		t->rows = m->value;
	else if (csim_result_key(m, "shard"))
		t->shard = m->value;
	else if (csim_result_key(m, "cores"))
		t->single = 1;
	return CSIM_OK;
}

/* batch_summary.json's "shard":{"k":K,"n":N} (docs/batch.md). */
static int shard_member(struct csim_result_reader *rd, void *ctx, const struct csim_json_item *m)
{
	struct csim_result *r = ctx;

	if (csim_result_key(m, "k"))
		return csim_result_int(rd, m->value, &r->shard_k);
	if (csim_result_key(m, "n"))
		return csim_result_int(rd, m->value, &r->shard_n);
	return CSIM_OK;
}

static int parse(struct csim_result_reader *rd)
{
	struct csim_result *r = rd->r;
	const char *p = csim_json_skip_ws(r->json, r->json + r->size);
	const char *end = r->json + r->size;
	struct csim_scan_result res;
	struct top t;
	int64_t schema;
	enum csim_sniff kind;
	int st, rc;

	memset(&t, 0, sizeof(t));
	st = csim_json_scan_value(&rd->stack, p, end, 1, &res);
	if (st == CSIM_SCAN_NOMEM)
		return csim_error_nomem(rd->err, CSIM_E_INPUT);
	/* A dump given for a result: not JSON from its first byte (a block
	   container, gzip); say what to do rather than where JSON broke. */
	kind = csim_input_sniff((const unsigned char *)p, (size_t)(end - p));
	if (st != CSIM_SCAN_OK && res.where == p && kind != CSIM_SNIFF_JSON &&
	    kind != CSIM_SNIFF_TEXT)
		return csim_result_fail(rd, res.where, "not JSON but binary data: a dump "
					"(visualize_data.bin) is converted first (clean_sim_trace "
					"PATH -o DIR), then DIR compared");
	if (st != CSIM_SCAN_OK)
		return csim_result_fail(rd, res.where, "not JSON: %s", res.why);
	if (csim_json_skip_ws(res.end, end) != end)
		return csim_result_fail(rd, csim_json_skip_ws(res.end, end),
					"not JSON: text after the document");
	if (*p != '{')
		return csim_result_fail(rd, p, "not a summary of clean_sim_trace (not an object)");
	rc = csim_result_walk(rd, csim_span_of(p, (size_t)(res.end - p)), '{', &t, top_member);
	if (rc != CSIM_OK)
		return rc;
	if (t.schema.p == NULL || (t.runs.p == NULL && t.rows.p == NULL && !t.single))
		return csim_result_fail(rd, p, "not a summary.json or batch_summary.json of "
					"clean_sim_trace (no schema, cores, runs or rows)");
	rc = csim_result_int(rd, t.schema, &schema);
	if (rc == CSIM_OK && schema != SCHEMA)
		rc = csim_result_fail(rd, t.schema.p, "schema %.*s is not one this version reads (%d)",
				      (int)t.schema.n, t.schema.p, SCHEMA);
	if (rc != CSIM_OK)
		return rc;
	if (t.rows.p != NULL) {
		r->kind = CSIM_RESULT_BATCH;
		if (t.shard.p != NULL && !csim_result_is_null(t.shard))
			rc = csim_result_walk(rd, t.shard, '{', r, shard_member);
		if (rc == CSIM_OK && r->shard_n != 0 &&
		    (r->shard_n < 0 || r->shard_k < 0 || r->shard_k >= r->shard_n))
			rc = csim_result_fail(rd, t.shard.p, "\"shard\" is no K of N (0 <= K < N)");
		return rc != CSIM_OK ? rc : csim_result_read_rows(rd, t.rows);
	}
	r->kind = CSIM_RESULT_SINGLE;
	if (t.runs.p != NULL)
		return csim_result_read_runs(rd, t.runs);
	return csim_result_read_run(rd, csim_span_of(p, (size_t)(res.end - p)));
}

int csim_result_read_text(struct csim_result *r, const char *name, char *json, size_t size,
			  struct csim_error *err)
{
	struct csim_result_reader rd = { r, { NULL, 0, 0 }, err };
	int rc = CSIM_OK;

	r->json = json;
	r->size = size;
	r->file = csim_path_trim(name);
	r->text = malloc(size + 1);
	if (r->file == NULL || r->text == NULL)
		rc = csim_error_nomem(err, CSIM_E_INPUT);
	if (rc == CSIM_OK)
		rc = parse(&rd);
	csim_json_stack_release(&rd.stack);
	return rc;
}

/* Does the folder hold a dump (a .bin input_locate would take)? */
static int holds_dump(const char *dir)
{
	char *bin = NULL, *bin_dir = NULL;
	struct csim_error ignored;
	const int found = csim_input_locate(dir, &bin, &bin_dir, &ignored) == CSIM_OK;

	free(bin);
	free(bin_dir);
	return found;
}

/*
 * A folder of --shard summaries, read whole (read/result_shards.h); none
 * there: the message of a folder that holds no summary.
 */
static int read_shards(struct csim_result *r, const char *dir, struct csim_error *err)
{
	struct csim_result_shards sh = { .s = NULL };
	int rc = csim_result_shards_list(dir, &sh, err);

	if (rc == CSIM_OK && sh.n == 0)
		rc = csim_error_set(err, CSIM_E_INPUT, CSIM_NO_OFFSET,
				    "cannot read %s: it holds no summary.json, batch_summary.json "
				    "or batch_summary.shard-K-of-N.json (give an output folder of "
				    "clean_sim_trace, a batch output folder, or one of those files)%s",
				    dir, holds_dump(dir) ? CONVERT_FIRST : "");
	if (rc == CSIM_OK) {
		r->kind = CSIM_RESULT_BATCH;
		r->file = csim_path_trim(dir);
		if (r->file == NULL)
			rc = csim_error_nomem(err, CSIM_E_INPUT);
	}
	for (size_t i = 0; rc == CSIM_OK && i < sh.n; i++) {
		struct csim_result one;

		csim_result_init(&one);
		rc = csim_result_read(&one, sh.s[i].file, err);
		if (rc == CSIM_OK)
			rc = csim_result_shards_merge(r, &one, i, &sh, err);
		csim_result_release(&one);
	}
	if (rc == CSIM_OK)
		csim_result_shards_sort(r);
	csim_result_shards_release(&sh);
	return rc;
}

int csim_result_read(struct csim_result *r, const char *path, struct csim_error *err)
{
	struct csim_result_reader rd = { r, { NULL, 0, 0 }, err };
	int shards = 0;
	int rc = locate(r, path, &shards, err);

	if (rc == CSIM_OK && shards)
		return read_shards(r, path, err);
	if (rc == CSIM_OK)
		rc = load(r, err);
	if (rc == CSIM_OK)
		rc = parse(&rd);
	csim_json_stack_release(&rd.stack);
	return rc;
}
