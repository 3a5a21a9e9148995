#include "write/metrics_writer.h"

#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>

#include "base/array_grow.h"
#include "base/interrupt.h"
#include "read/instr_digest.h"
#include "read/json_scan.h"

/*
 * The per-core buffers share 4 MiB, each between 64 B and 64 KiB: a few
 * dozen cores get 64 KiB apiece, so a part's bytes leave in large writes.
 */
#define PARTS_BUDGET (4u << 20)
#define PART_MAX (64u << 10)
#define PART_MIN 64u

/* A row's keys as written ("Instructions Executed" -> "instructions_executed",
   quoted and escaped), one after another. */
struct row_keys {
	char *text;
	size_t text_cap;
	size_t *end;            /* end of key i in text */
	size_t end_cap;
	char *tmp;              /* one decoded key */
	size_t tmp_cap;
	size_t nkeys;           /* keys in text */
};

/* One core's part of the file: where it is, and its buffered bytes. */
struct part {
	char *buf;
	size_t len;
	uint64_t at, end;       /* next file offset; the part's end */
	uint64_t rows;          /* records put so far */
};

struct parts {
	struct part *v;
	char *mem;
	size_t cap;             /* of each buffer */
	struct csim_out *out;
	int overrun;            /* a part outgrew its plan: the input changed */
};

struct csim_metrics_job {
	const struct csim_metrics *mt;
	const struct csim_metrics_plan *plan;
	int raw;
	struct csim_out *out;
	struct csim_instr_rows rr;      /* reshaped: the rows' second reading */
	struct csim_instr_text text;    /* raw: the payload's */
	struct row_keys k;
	struct parts ps;
	atomic_int stop;
};

static void keys_release(struct row_keys *k)
{
	free(k->text);
	free(k->end);
	free(k->tmp);
}

/* Lower case, ' ' as '_': how a key is written. */
static char key_char(char c)
{
	return c >= 'A' && c <= 'Z' ? (char)(c - 'A' + 'a') : c == ' ' ? '_' : c;
}

/*
 * Whether the row's keys are written as the keys in k (rows mostly repeat
 * the previous row's keys): each raw key, free of escapes (which would
 * need decoding), maps byte for byte onto the written one. A raw key has no
 * '"' or control byte (the row reader delimited it), so no written byte
 * needed escaping either.
 */
static int keys_same(const struct row_keys *k, const struct csim_instr_row *row)
{
	if (row->nfields != k->nkeys)
		return 0;
	for (size_t i = 0; i < row->nfields; i++) {
		const struct csim_span key = row->fields[i].key;
		size_t from = i > 0 ? k->end[i - 1] : 0;
		const char *w = k->text + from + 1;

		if (k->end[i] - from - 2 != key.n)
			return 0;
		for (size_t j = 0; j < key.n; j++)
			if (key.p[j] == '\\' || key_char(key.p[j]) != w[j])
				return 0;
	}
	return 1;
}

static int keys_make(struct row_keys *k, const struct csim_instr_row *row, int code,
		     struct csim_error *err)
{
	size_t need = 1, longest = 1, len = 0;

	if (keys_same(k, row))
		return CSIM_OK;
	k->nkeys = 0;

	for (size_t i = 0; i < row->nfields; i++) {
		need += 6 * row->fields[i].key.n + 2;
		if (row->fields[i].key.n > longest)
			longest = row->fields[i].key.n;
	}
	if (csim_array_grow((void **)&k->text, &k->text_cap, need, 1) != 0 ||
	    csim_array_grow((void **)&k->end, &k->end_cap, row->nfields + 1,
			    sizeof(*k->end)) != 0 ||
	    csim_array_grow((void **)&k->tmp, &k->tmp_cap, longest, 1) != 0)
		return csim_error_nomem(err, code);
	for (size_t i = 0; i < row->nfields; i++) {
		const struct csim_span key = row->fields[i].key;
		size_t n = csim_json_unescape(key.p, key.n, k->tmp);

		for (size_t j = 0; j < n; j++)
			k->tmp[j] = key_char(k->tmp[j]);
		k->text[len++] = '"';
		len += csim_out_json_escape(k->text + len, k->tmp, n);
		k->text[len++] = '"';
		k->end[i] = len;
	}
	k->nkeys = row->nfields;
	return CSIM_OK;
}

/* What comes before a core's record: a comma but before its first. */
static const char *record_sep(uint64_t rows_before)
{
	return rows_before > 0 ? ",\n" : "\n";
}

/* The bytes of a row's record, braces included, that every core's copy has. */
static uint64_t row_common(const struct csim_instr_row *row, const struct row_keys *k)
{
	uint64_t n = 2;   /* braces */

	if (row->nfields == 0)
		return n;
	n += k->end[row->nfields - 1] + row->nfields + (row->nfields - 1);
	for (size_t i = 0; i < row->nfields; i++)
		if (!row->fields[i].split)
			n += row->fields[i].val.n;
	return n;
}

static void plan_row(struct csim_metrics_plan *plan, const struct csim_instr_row *row,
		     const struct row_keys *k)
{
	uint64_t common = row_common(row, k);

	for (size_t c = 0; c < plan->ncores; c++) {
		uint64_t n = common + strlen(record_sep(plan->rows[c]));

		if (!csim_metrics_core_in(plan->mt, c))
			continue;
		if (!csim_instr_row_ran(row, c)) {
			plan->left_out++;
			continue;
		}
		for (size_t i = 0; i < row->nfields; i++)
			if (row->fields[i].split)
				n += row->elem[row->fields[i].elems + c].n;
		plan->part[c] += n;
		plan->rows[c]++;
		plan->bytes += n;
	}
}

/* A plan in making: the keys of the row before, which most rows repeat. */
struct csim_metrics_sizing {
	struct csim_metrics_plan *plan;
	struct row_keys k;
};

static int sizing_row(void *ctx, const struct csim_instr_row *row, int *stop,
		      struct csim_error *err)
{
	struct csim_metrics_sizing *z = ctx;
	int rc = keys_make(&z->k, row, CSIM_E_INPUT, err);

	if (rc == CSIM_OK)
		plan_row(z->plan, row, &z->k);
	z->plan->over = z->plan->bytes > z->plan->limit;
	*stop = z->plan->over;
	return rc;
}

static void sizing_end(void *ctx, const struct csim_instr_rows_marks *marks)
{
	struct csim_metrics_sizing *z = ctx;

	z->plan->marks = (struct csim_metrics_marks){
		*marks, z->k.text_cap, z->k.end_cap, z->k.tmp_cap
	};
	keys_release(&z->k);
	z->plan->sizing = NULL;
	free(z);
}

int csim_metrics_plan_begin(struct csim_metrics_plan *plan, const struct csim_metrics *mt,
			    struct csim_instr_sink *sink, struct csim_error *err)
{
	struct csim_metrics_sizing *z;

	csim_metrics_plan_release(plan);
	plan->part = calloc(mt->ncores ? mt->ncores : 1, sizeof(*plan->part));
	plan->rows = calloc(mt->ncores ? mt->ncores : 1, sizeof(*plan->rows));
	z = calloc(1, sizeof(*z));
	if (plan->part == NULL || plan->rows == NULL || z == NULL) {
		free(z);
		return csim_error_nomem(err, CSIM_E_INPUT);
	}
	z->plan = plan;
	plan->sizing = z;
	plan->ncores = mt->ncores;
	plan->mt = mt;
	plan->limit = (uint64_t)CSIM_METRICS_GROWTH * csim_metrics_payload_size(mt) +
		      CSIM_METRICS_SLACK;
	*sink = (struct csim_instr_sink){ sizing_row, sizing_end, z };
	return CSIM_OK;
}

int csim_metrics_plan_make(struct csim_metrics_plan *plan, const struct csim_metrics *mt,
			   struct csim_error *err)
{
	struct csim_instr_sink sink;
	int rc = csim_metrics_plan_begin(plan, mt, &sink, err);

	return rc == CSIM_OK ? csim_instr_digest_rows(NULL, mt, &sink, err) : rc;
}

void csim_metrics_plan_release(struct csim_metrics_plan *plan)
{
	if (plan->sizing != NULL)
		sizing_end(plan->sizing, &(struct csim_instr_rows_marks){ 0, 0, 0, 0 });
	free(plan->part);
	free(plan->rows);
	memset(plan, 0, sizeof(*plan));
}

static void part_flush(struct parts *ps, struct part *pt)
{
	csim_out_at(ps->out, pt->at, pt->buf, pt->len);
	pt->at += pt->len;
	pt->len = 0;
}

static void part_put(struct parts *ps, struct part *pt, const char *p, size_t n)
{
	if (pt->at + pt->len + n > pt->end) {
		ps->overrun = 1;   /* never past the part: the next one's bytes */
		return;
	}
	if (pt->len + n > ps->cap) {
		part_flush(ps, pt);
		if (n >= ps->cap) {
			csim_out_at(ps->out, pt->at, p, n);
			pt->at += n;
			return;
		}
	}
	memcpy(pt->buf + pt->len, p, n);
	pt->len += n;
}

static void part_text(struct parts *ps, struct part *pt, const char *s)
{
	part_put(ps, pt, s, strlen(s));
}

/* The first core --core keeps (ncores: none): the separators go before the others. */
static size_t first_in(const struct csim_metrics *mt)
{
	size_t c = 0;

	while (c < mt->ncores && !csim_metrics_core_in(mt, c))
		c++;
	return c;
}

/* Each core's part: its name, its rows (a hole for now), its bracket; none
   for a core --core leaves out. */
static uint64_t part_head_len(const struct csim_metrics *mt, size_t c)
{
	if (!csim_metrics_core_in(mt, c))
		return 0;
	return (c > first_in(mt) ? 2 : 1) + mt->cores[c].n + 2;
}

/* The part's bytes besides its head: its rows and "\n]"; none when out. */
static uint64_t part_tail_len(const struct csim_metrics *mt, const struct csim_metrics_plan *plan,
			      size_t c)
{
	return csim_metrics_core_in(mt, c) ? plan->part[c] + 2 : 0;
}

/* Each core's part, its head written: name, ":[" (its rows follow). */
static void parts_begin(struct parts *ps, const struct csim_metrics *mt,
			const struct csim_metrics_plan *plan, uint64_t at)
{
	for (size_t c = 0; c < mt->ncores; c++) {
		struct part *pt = &ps->v[c];

		pt->buf = ps->mem + c * ps->cap;
		pt->len = 0;
		pt->rows = 0;
		pt->at = at;
		pt->end = at + part_head_len(mt, c) + part_tail_len(mt, plan, c);
		at = pt->end;
		if (!csim_metrics_core_in(mt, c))
			continue;
		part_text(ps, pt, c > first_in(mt) ? ",\n" : "\n");
		part_put(ps, pt, mt->cores[c].p, mt->cores[c].n);
		part_text(ps, pt, ":[");
	}
}

/* Per-core values a row's template remembers, at most. */
#define TEMPLATE_SPLITS 16

/*
 * The first record of a row built whole in a buffer, and where its per-core
 * values lie in it: every other core's record is the same bytes around its
 * own values (separators, keys, whole values), copied in a few long runs.
 */
struct template_value {
	size_t at, n;           /* in the record */
	size_t elems;           /* the field's first element span */
};

struct record_template {
	const char *rec;        /* NULL: none yet */
	size_t len, nsplit;
	struct template_value v[TEMPLATE_SPLITS];
};

/*
 * A core's record and its separator built in its buffer, for a record that
 * fits there (most do: records are a few hundred bytes, buffers up to
 * 64 KiB) and in the part: the bytes put_row() puts piece by piece, without
 * checking each. The first record of a row becomes the row's template (the
 * separator is not part of it: it depends on the core's rows before).
 */
static void put_record(struct part *pt, const struct csim_instr_row *row,
		       const struct row_keys *k, size_t c, struct record_template *tpl)
{
	const char *sep = record_sep(pt->rows);
	size_t sep_n = strlen(sep);
	char *start = pt->buf + pt->len + sep_n, *o = start;
	size_t nsplit = 0;

	memcpy(pt->buf + pt->len, sep, sep_n);
	pt->len += sep_n;
	pt->rows++;
	if (tpl->rec != NULL) {
		size_t pos = 0;

		for (size_t s = 0; s < tpl->nsplit; s++) {
			const struct template_value *t = &tpl->v[s];
			struct csim_span v = row->elem[t->elems + c];

			memcpy(o, tpl->rec + pos, t->at - pos);
			o += t->at - pos;
			memcpy(o, v.p, v.n);
			o += v.n;
			pos = t->at + t->n;
		}
		memcpy(o, tpl->rec + pos, tpl->len - pos);
		pt->len += (size_t)(o - start) + tpl->len - pos;
		return;
	}
	*o++ = '{';
	for (size_t i = 0; i < row->nfields; i++) {
		const struct csim_metrics_field *f = &row->fields[i];
		size_t from = i > 0 ? k->end[i - 1] : 0;
		struct csim_span v = f->split ? row->elem[f->elems + c] : f->val;

		if (i > 0)
			*o++ = ',';
		memcpy(o, k->text + from, k->end[i] - from);
		o += k->end[i] - from;
		*o++ = ':';
		if (f->split && nsplit++ < TEMPLATE_SPLITS)
			tpl->v[nsplit - 1] = (struct template_value){ (size_t)(o - start), v.n,
								      f->elems };
		memcpy(o, v.p, v.n);
		o += v.n;
	}
	*o++ = '}';
	pt->len = (size_t)(o - pt->buf);
	if (nsplit <= TEMPLATE_SPLITS) {
		tpl->rec = start;
		tpl->len = (size_t)(o - start);
		tpl->nsplit = nsplit;
	}
}

/* One row's record in the part of every core that executed it. */
static void put_row(struct parts *ps, const struct csim_metrics *mt,
		    const struct csim_instr_row *row, const struct row_keys *k)
{
	uint64_t common = row_common(row, k);
	struct record_template tpl;

	tpl.rec = NULL;
	for (size_t c = 0; c < mt->ncores; c++) {
		struct part *pt = &ps->v[c];
		uint64_t n = common + strlen(record_sep(pt->rows));

		if (!csim_metrics_core_in(mt, c) || !csim_instr_row_ran(row, c))
			continue;
		for (size_t i = 0; i < row->nfields; i++)
			if (row->fields[i].split)
				n += row->elem[row->fields[i].elems + c].n;
		if (pt->len + n > ps->cap && n <= ps->cap)
			part_flush(ps, pt);
		if (pt->len + n <= ps->cap && pt->at + pt->len + n <= pt->end) {
			put_record(pt, row, k, c, &tpl);
			continue;
		}
		/* Larger than the buffer, or past the part: piece by piece. */
		part_text(ps, pt, record_sep(pt->rows++));
		part_text(ps, pt, "{");
		for (size_t i = 0; i < row->nfields; i++) {
			const struct csim_metrics_field *f = &row->fields[i];
			size_t from = i > 0 ? k->end[i - 1] : 0;
			struct csim_span v = f->split ? row->elem[f->elems + c] : f->val;

			if (i > 0)
				part_put(ps, pt, ",", 1);
			part_put(ps, pt, k->text + from, k->end[i] - from);
			part_put(ps, pt, ":", 1);
			part_put(ps, pt, v.p, v.n);
		}
		part_put(ps, pt, "}", 1);
	}
}

/* A stop asked for by a signal or by the job's owner. */
static int job_stopped(struct csim_metrics_job *job, struct csim_error *err)
{
	if (csim_interrupt_pending())
		return csim_interrupt_fail(err);
	if (atomic_load_explicit(&job->stop, memory_order_relaxed))
		return csim_error_set(err, CSIM_E_OUTPUT, CSIM_NO_OFFSET,
				      "the metrics write was stopped");
	return CSIM_OK;
}

/* Every core's rows, in the hole that starts at `at`. */
static int write_parts(struct csim_metrics_job *job, uint64_t at, struct csim_error *err)
{
	const struct csim_metrics *mt = job->mt;
	struct parts *ps = &job->ps;
	struct csim_instr_row row;
	int has = 1, rc = CSIM_OK;

	parts_begin(ps, mt, job->plan, at);
	while (!csim_out_failed(ps->out) && !ps->overrun &&
	       (rc = job_stopped(job, err)) == CSIM_OK &&
	       (rc = csim_instr_rows_next(&job->rr, &row, &has, err)) == CSIM_OK && has) {
		rc = keys_make(&job->k, &row, CSIM_E_OUTPUT, err);
		if (rc != CSIM_OK)
			break;
		put_row(ps, mt, &row, &job->k);
	}
	for (size_t c = 0; rc == CSIM_OK && c < mt->ncores; c++) {
		if (!csim_metrics_core_in(mt, c))
			continue;
		part_text(ps, &ps->v[c], "\n]");
		part_flush(ps, &ps->v[c]);
		if (ps->v[c].at != ps->v[c].end || ps->v[c].rows != job->plan->rows[c])
			ps->overrun = 1;
	}
	if (rc == CSIM_OK && ps->overrun && !csim_out_failed(ps->out))
		rc = csim_instr_text_changed(&job->rr.text, err);
	if (rc != CSIM_OK && csim_error_is_nomem(err))
		rc = csim_error_nomem(err, CSIM_E_OUTPUT);
	return rc;
}

static int write_raw(struct csim_metrics_job *job, struct csim_error *err)
{
	const char *p;
	size_t n = 1;
	int rc = CSIM_OK;

	while (n > 0 && !csim_out_failed(job->out) && (rc = job_stopped(job, err)) == CSIM_OK) {
		rc = csim_instr_text_chunk(&job->text, &p, &n, err);
		if (rc != CSIM_OK)
			break;
		csim_out_bytes(job->out, p, n);
	}
	if (rc != CSIM_OK && csim_error_is_nomem(err))
		rc = csim_error_nomem(err, CSIM_E_OUTPUT);
	return rc;
}

/*
 * The second reading's buffers as large as the plan's reading grew them:
 * the same rows, wherever the window's refills cut them, then fit without
 * growing any (each buffer grows only for an item larger than it).
 */
static int job_reserve(struct csim_metrics_job *job)
{
	const struct csim_metrics_marks *m = &job->plan->marks;
	size_t n = job->mt->ncores ? job->mt->ncores : 1;
	size_t cap = PARTS_BUDGET / n;

	job->ps.cap = cap > PART_MAX ? PART_MAX : cap < PART_MIN ? PART_MIN : cap;
	job->ps.v = csim_array_alloc(n, sizeof(*job->ps.v));
	job->ps.mem = csim_array_alloc(n, job->ps.cap);
	return job->ps.v == NULL || job->ps.mem == NULL ||
	       csim_instr_rows_reserve(&job->rr, &m->rows) != 0 ||
	       csim_array_grow((void **)&job->k.text, &job->k.text_cap, m->key_text, 1) != 0 ||
	       csim_array_grow((void **)&job->k.end, &job->k.end_cap, m->key_end,
			       sizeof(*job->k.end)) != 0 ||
	       csim_array_grow((void **)&job->k.tmp, &job->k.tmp_cap, m->key_tmp, 1) != 0
	       ? -1 : 0;
}

int csim_metrics_job_open(struct csim_metrics_job **jobp, const struct csim_metrics *mt,
			  const struct csim_metrics_plan *plan, int raw, struct csim_out *out,
			  struct csim_error *err)
{
	struct csim_metrics_job *job = calloc(1, sizeof(*job));
	int rc;

	*jobp = NULL;
	if (job == NULL)
		return csim_error_nomem(err, CSIM_E_OUTPUT);
	job->mt = mt;
	job->plan = plan;
	job->raw = raw;
	job->out = out;
	job->ps.out = out;
	atomic_init(&job->stop, 0);
	if (raw) {
		rc = csim_metrics_open_text(mt, &job->text, err);
	} else {
		rc = csim_instr_rows_open(&job->rr, mt, err);
		if (rc == CSIM_OK && job_reserve(job) != 0)
			rc = csim_error_nomem(err, CSIM_E_OUTPUT);
	}
	if (rc != CSIM_OK && csim_error_is_nomem(err))
		rc = csim_error_nomem(err, CSIM_E_OUTPUT);
	if (rc != CSIM_OK) {
		csim_metrics_job_close(job);
		return rc;
	}
	*jobp = job;
	return CSIM_OK;
}

void csim_metrics_job_stop(struct csim_metrics_job *job)
{
	atomic_store_explicit(&job->stop, 1, memory_order_relaxed);
}

void csim_metrics_job_close(struct csim_metrics_job *job)
{
	if (job == NULL)
		return;
	if (job->raw)
		csim_instr_text_close(&job->text);
	else
		csim_instr_rows_close(&job->rr);
	keys_release(&job->k);
	free(job->ps.v);
	free(job->ps.mem);
	free(job);
}

int csim_metrics_job_run(struct csim_metrics_job *job, struct csim_error *err)
{
	const struct csim_metrics *mt = job->mt;
	struct csim_out *out = job->out;
	uint64_t rows = 0, at;

	if (job->raw)
		return write_raw(job, err);
	csim_out_text(out, "{\"cores\":[");
	for (size_t c = 0; c < mt->ncores; c++) {
		if (!csim_metrics_core_in(mt, c))
			continue;
		if (c > first_in(mt))
			csim_out_char(out, ',');
		csim_out_bytes(out, mt->cores[c].p, mt->cores[c].n);
		rows += part_head_len(mt, c) + part_tail_len(mt, job->plan, c);
	}
	csim_out_text(out, "],\n\"instructions\":{");
	at = csim_out_hole(out, rows);
	csim_out_text(out, "},\n\"column_types\":");
	if (mt->dtype != NULL)
		csim_out_bytes(out, mt->dtype, mt->dtype_n);
	else
		csim_out_text(out, "{}");
	/* --core: the file holds the cores it keeps, and says so (SPEC §10). */
	if (mt->ncut > 0) {
		csim_out_text(out, ",\n\"cut\":{\"cores\":[");
		for (size_t k = 0; k < mt->ncut; k++) {
			if (k > 0)
				csim_out_char(out, ',');
			csim_out_json_string(out, mt->cut[k], strlen(mt->cut[k]));
		}
		csim_out_text(out, "]}");
	}
	csim_out_text(out, "}\n");
	return write_parts(job, at, err);
}

int csim_metrics_write(const struct csim_metrics *mt, const struct csim_metrics_plan *plan,
		       int raw, struct csim_out *out, struct csim_error *err)
{
	struct csim_metrics_job *job;
	int rc = csim_metrics_job_open(&job, mt, plan, raw, out, err);

	if (rc == CSIM_OK)
		rc = csim_metrics_job_run(job, err);
	csim_metrics_job_close(job);
	return rc;
}

int csim_metrics_write_runs(const struct csim_metrics *const *mts,
			    const struct csim_metrics_plan *const *plans, size_t n, int raw,
			    struct csim_out *out, struct csim_error *err)
{
	int rc = CSIM_OK;

	csim_out_text(out, "{\"runs\":[\n");
	for (size_t i = 0; i < n && rc == CSIM_OK; i++) {
		if (i > 0)
			csim_out_text(out, ",\n");
		if (mts[i] == NULL)
			csim_out_text(out, "null");
		else
			rc = csim_metrics_write(mts[i], plans[i], raw, out, err);
	}
	csim_out_text(out, "]}\n");
	return rc;
}
