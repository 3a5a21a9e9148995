#include "write/metrics_writer.h"

#include <stdlib.h>
#include <string.h>

#include "base/array_grow.h"
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
};

struct parts {
	struct part *v;
	char *mem;
	size_t cap;             /* of each buffer */
	struct csim_out *out;
	int overrun;            /* a part outgrew its plan: the input changed */
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

/* The bytes of a row's record that every core's copy has. */
static uint64_t row_common(const struct csim_instr_row *row, const struct row_keys *k)
{
	uint64_t n = (row->index > 0 ? 2 : 1) + 2;   /* separator, braces */

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
		uint64_t n = common;

		for (size_t i = 0; i < row->nfields; i++)
			if (row->fields[i].split)
				n += row->elem[row->fields[i].elems + c].n;
		plan->part[c] += n;
	}
}

int csim_metrics_plan_make(struct csim_metrics_plan *plan, const struct csim_metrics *mt,
			   struct csim_instr_stats *s, struct csim_error *err)
{
	struct csim_instr_rows rr;
	struct csim_instr_digest dg;
	struct row_keys k;
	struct csim_instr_row row;
	int has = 1, rc;

	csim_metrics_plan_release(plan);
	memset(&dg, 0, sizeof(dg));
	memset(&k, 0, sizeof(k));
	plan->part = calloc(mt->ncores ? mt->ncores : 1, sizeof(*plan->part));
	if (plan->part == NULL)
		return csim_error_nomem(err, CSIM_E_INPUT);
	plan->ncores = mt->ncores;
	rc = csim_instr_rows_open(&rr, mt, err);
	if (rc == CSIM_OK && s != NULL)
		rc = csim_instr_digest_begin(&dg, s, mt, err);
	while (rc == CSIM_OK && (rc = csim_instr_rows_next(&rr, &row, &has, err)) == CSIM_OK &&
	       has) {
		rc = keys_make(&k, &row, CSIM_E_INPUT, err);
		if (rc == CSIM_OK)
			plan_row(plan, &row, &k);
		if (rc == CSIM_OK && s != NULL)
			rc = csim_instr_digest_row(&dg, &row, err);
	}
	csim_instr_digest_end(&dg);
	csim_instr_rows_close(&rr);
	keys_release(&k);
	return rc;
}

void csim_metrics_plan_release(struct csim_metrics_plan *plan)
{
	free(plan->part);
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

/* Each core's part: its name, its rows (a hole for now), its bracket. */
static uint64_t part_head_len(const struct csim_metrics *mt, size_t c)
{
	return (c > 0 ? 2 : 1) + mt->cores[c].n + 2;
}

static int parts_open(struct parts *ps, const struct csim_metrics *mt,
		      const struct csim_metrics_plan *plan, uint64_t at, struct csim_error *err)
{
	size_t n = mt->ncores ? mt->ncores : 1;
	size_t cap = PARTS_BUDGET / n;

	ps->cap = cap > PART_MAX ? PART_MAX : cap < PART_MIN ? PART_MIN : cap;
	ps->v = csim_array_alloc(n, sizeof(*ps->v));
	ps->mem = csim_array_alloc(n, ps->cap);
	if (ps->v == NULL || ps->mem == NULL)
		return csim_error_nomem(err, CSIM_E_OUTPUT);
	for (size_t c = 0; c < mt->ncores; c++) {
		struct part *pt = &ps->v[c];

		pt->buf = ps->mem + c * ps->cap;
		pt->len = 0;
		pt->at = at;
		pt->end = at + part_head_len(mt, c) + plan->part[c] + 2;
		at = pt->end;
		part_text(ps, pt, c > 0 ? ",\n" : "\n");
		part_put(ps, pt, mt->cores[c].p, mt->cores[c].n);
		part_text(ps, pt, ":[");
	}
	return CSIM_OK;
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
 * A core's record built in its buffer, for a record that fits there (most
 * do: records are a few hundred bytes, buffers up to 64 KiB) and in the
 * part: the bytes put_row() puts piece by piece, without checking each.
 * The first one of a row becomes the row's template.
 */
static void put_record(struct part *pt, const struct csim_instr_row *row,
		       const struct row_keys *k, size_t c, struct record_template *tpl)
{
	char *start = pt->buf + pt->len, *o = start;
	size_t nsplit = 0;

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
	if (row->index > 0)
		*o++ = ',';
	*o++ = '\n';
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

/* One row's record in every core's part. */
static void put_row(struct parts *ps, const struct csim_metrics *mt,
		    const struct csim_instr_row *row, const struct row_keys *k)
{
	uint64_t common = row_common(row, k);
	struct record_template tpl;

	tpl.rec = NULL;
	for (size_t c = 0; c < mt->ncores; c++) {
		struct part *pt = &ps->v[c];
		uint64_t n = common;

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
		part_text(ps, pt, row->index > 0 ? ",\n{" : "\n{");
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

/* Every core's rows, in the hole that starts at `at`. */
static int write_parts(const struct csim_metrics *mt, const struct csim_metrics_plan *plan,
		       uint64_t at, struct csim_out *out, struct csim_error *err)
{
	struct parts ps = { NULL, NULL, 0, out, 0 };
	struct csim_instr_rows rr;
	struct row_keys k;
	struct csim_instr_row row;
	int has = 1, rc;

	memset(&k, 0, sizeof(k));
	memset(&rr, 0, sizeof(rr));
	rc = parts_open(&ps, mt, plan, at, err);
	if (rc == CSIM_OK)
		rc = csim_instr_rows_open(&rr, mt, err);
	while (rc == CSIM_OK && !csim_out_failed(out) && !ps.overrun &&
	       (rc = csim_instr_rows_next(&rr, &row, &has, err)) == CSIM_OK && has) {
		rc = keys_make(&k, &row, CSIM_E_OUTPUT, err);
		if (rc == CSIM_OK)
			put_row(&ps, mt, &row, &k);
	}
	for (size_t c = 0; rc == CSIM_OK && c < mt->ncores; c++) {
		part_text(&ps, &ps.v[c], "\n]");
		part_flush(&ps, &ps.v[c]);
		if (ps.v[c].at != ps.v[c].end)
			ps.overrun = 1;
	}
	if (rc == CSIM_OK && ps.overrun && !csim_out_failed(out))
		rc = csim_instr_text_changed(&rr.text, err);
	if (rc != CSIM_OK && csim_error_is_nomem(err))
		rc = csim_error_nomem(err, CSIM_E_OUTPUT);
	csim_instr_rows_close(&rr);
	keys_release(&k);
	free(ps.v);
	free(ps.mem);
	return rc;
}

static int write_raw(const struct csim_metrics *mt, struct csim_out *out,
		     struct csim_error *err)
{
	struct csim_instr_text t;
	const char *p;
	size_t n = 1;
	int rc = csim_metrics_open_text(mt, &t, err);

	while (rc == CSIM_OK && n > 0 && !csim_out_failed(out)) {
		rc = csim_instr_text_chunk(&t, &p, &n, err);
		if (rc == CSIM_OK)
			csim_out_bytes(out, p, n);
	}
	if (rc != CSIM_OK && csim_error_is_nomem(err))
		rc = csim_error_nomem(err, CSIM_E_OUTPUT);
	csim_instr_text_close(&t);
	return rc;
}

int csim_metrics_write(const struct csim_metrics *mt, const struct csim_metrics_plan *plan,
		       int raw, struct csim_out *out, struct csim_error *err)
{
	uint64_t rows = 0, at;

	if (raw)
		return write_raw(mt, out, err);
	csim_out_text(out, "{\"cores\":[");
	for (size_t c = 0; c < mt->ncores; c++) {
		if (c > 0)
			csim_out_char(out, ',');
		csim_out_bytes(out, mt->cores[c].p, mt->cores[c].n);
		rows += part_head_len(mt, c) + plan->part[c] + 2;
	}
	csim_out_text(out, "],\n\"instructions\":{");
	at = csim_out_hole(out, rows);
	csim_out_text(out, "},\n\"column_types\":");
	if (mt->dtype != NULL)
		csim_out_bytes(out, mt->dtype, mt->dtype_n);
	else
		csim_out_text(out, "{}");
	csim_out_text(out, "}\n");
	return write_parts(mt, plan, at, out, err);
}
