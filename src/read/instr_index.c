#include "read/instr_index.h"

#include <fnmatch.h>
#include <stdlib.h>
#include <string.h>

#include "base/array_grow.h"
#include "base/number_grid.h"
#include "read/json_scan.h"
#include "read/json_skip.h"

/* Dtype codes whose values are whole JSON values, never per-core arrays. */
#define DTYPE_JSON_STRING 5
#define DTYPE_PERCENT_DETAILS 100

#define NO_ROW UINT64_MAX

/* What the first scan learns of the members, settled at its end. */
struct first_scan {
	struct csim_metrics *mt;
	struct csim_instr_text t;
	struct csim_json_stack stack;   /* walks over the kept Cores and Dtype */
	struct csim_error *err;
	int have_cores, have_instr;
	int instr_is_array;
	uint64_t bad_row;               /* first Instructions entry not an object */
};

/* A held value's byte as a payload offset: text was copied from at. */
static uint64_t held_at(uint64_t at, const char *text, const char *p)
{
	return at + (uint64_t)(p - text);
}

static int walk_next(struct first_scan *fs, struct csim_json_iter *it,
		     struct csim_json_item *m, int *has, const char *text, uint64_t at)
{
	struct csim_scan_result res;
	int rc = csim_json_iter_next(it, m, has, &res);

	if (rc == CSIM_SCAN_NOMEM)
		return csim_error_nomem(fs->err, CSIM_E_INPUT);
	if (rc != CSIM_SCAN_OK)   /* held text was validated: not expected */
		return csim_instr_text_bad(&fs->t, held_at(at, text, res.where), res.why,
					   fs->err);
	return CSIM_OK;
}

static int load_cores(struct first_scan *fs)
{
	struct csim_metrics *mt = fs->mt;
	const char *text = mt->cores_text;
	struct csim_json_iter it;
	struct csim_json_item m;
	int has = 1, rc;

	if (*text != '[')
		return csim_instr_text_bad(&fs->t, mt->cores_at, "Cores is not an array",
					   fs->err);
	csim_json_iter_init(&it, &fs->stack, text, text + strlen(text), 1);
	while ((rc = walk_next(fs, &it, &m, &has, text, mt->cores_at)) == CSIM_OK && has) {
		if (*m.value.p != '"')
			return csim_instr_text_bad(&fs->t, held_at(mt->cores_at, text, m.value.p),
						   "Cores holds a value that is not a string",
						   fs->err);
		if (csim_array_grow((void **)&mt->cores, &mt->cores_cap, mt->ncores + 1,
				    sizeof(*mt->cores)) != 0)
			return csim_error_nomem(fs->err, CSIM_E_INPUT);
		mt->cores[mt->ncores++] = m.value;
	}
	return rc;
}

/*
 * Whether the Dtype marks a column as whole JSON values (5, 100), never
 * split per core: the first numeric entry of its key decides. Codes are
 * compared as doubles: a code may be any JSON number (converting 1e60 to
 * int would be undefined behaviour; found by fuzzing).
 */
static int column_is_whole(const struct csim_metrics *mt, struct csim_span key)
{
	for (size_t i = 0; i < mt->nwhole; i++)
		if (mt->whole[i].n == key.n && memcmp(mt->whole[i].p, key.p, key.n) == 0)
			return mt->whole_code[i];
	return 0;
}

/* The numeric entries of "Instructions Dtype"."Instructions", in order. */
static int load_dtype(struct first_scan *fs)
{
	struct csim_metrics *mt = fs->mt;
	const char *text = mt->dtype;
	struct csim_json_iter it;
	struct csim_json_item m;
	struct csim_span cols = { NULL, 0 };
	int has = 1, rc;

	if (text == NULL || *text != '{')
		return CSIM_OK;
	csim_json_iter_init(&it, &fs->stack, text, text + mt->dtype_n, 1);
	while ((rc = walk_next(fs, &it, &m, &has, text, 0)) == CSIM_OK && has)
		if (cols.p == NULL && csim_span_eq(m.key, "Instructions") && *m.value.p == '{')
			cols = m.value;
	if (rc != CSIM_OK || cols.p == NULL)
		return rc;
	csim_json_iter_init(&it, &fs->stack, cols.p, cols.p + cols.n, 1);
	has = 1;
	while ((rc = walk_next(fs, &it, &m, &has, text, 0)) == CSIM_OK && has) {
		double code;

		if (!csim_number_parse(m.value.p, m.value.n, &code))
			continue;
		if (csim_array_grow((void **)&mt->whole, &mt->whole_cap, mt->nwhole + 1,
				    sizeof(*mt->whole)) != 0 ||
		    csim_array_grow((void **)&mt->whole_code, &mt->whole_code_cap,
				    mt->nwhole + 1, sizeof(*mt->whole_code)) != 0)
			return csim_error_nomem(fs->err, CSIM_E_INPUT);
		mt->whole[mt->nwhole] = m.key;
		mt->whole_code[mt->nwhole++] = code == DTYPE_JSON_STRING ||
					       code == DTYPE_PERCENT_DETAILS;
	}
	return rc;
}

/* A NUL-terminated copy of a member's value, in place of *dst. */
static int hold_value(struct first_scan *fs, struct csim_span v, char **dst, size_t *n)
{
	char *copy = csim_span_dup(v);

	if (copy == NULL)
		return csim_error_nomem(fs->err, CSIM_E_INPUT);
	free(*dst);
	*dst = copy;
	if (n != NULL)
		*n = v.n;
	return CSIM_OK;
}

/* The rows of an Instructions array, validated and counted, not kept. */
static int scan_rows(struct first_scan *fs)
{
	struct csim_instr_text *t = &fs->t;
	struct csim_instr_walk w;
	struct csim_json_item m;
	struct csim_span v;
	size_t count = 0;
	int has = 1, rc;

	fs->bad_row = NO_ROW;
	csim_instr_text_enter(t, &w);
	while ((rc = csim_instr_text_head(t, &w, &m, &has, fs->err)) == CSIM_OK && has) {
		if (t->w.buf[t->w.pos] != '{' && fs->bad_row == NO_ROW)
			fs->bad_row = csim_instr_text_offset(t, t->w.buf + t->w.pos);
		rc = csim_instr_text_value(t, &v, fs->err);
		if (rc != CSIM_OK)
			return rc;
		count++;
	}
	fs->mt->nrows = count;
	return rc;
}

/*
 * One member of the payload object; t->w.pos is at its value. A later
 * member of the same name replaces an earlier one.
 */
static int scan_member(struct first_scan *fs, struct csim_span key)
{
	struct csim_metrics *mt = fs->mt;
	struct csim_instr_text *t = &fs->t;
	uint64_t at = csim_instr_text_offset(t, t->w.buf + t->w.pos);
	struct csim_span v;
	int rc;

	if (csim_span_eq(key, "Instructions")) {
		fs->have_instr = 1;
		mt->instr_at = at;
		fs->instr_is_array = t->w.buf[t->w.pos] == '[';
		if (fs->instr_is_array)
			return scan_rows(fs);
		mt->nrows = 0;
		return csim_instr_text_value(t, &v, fs->err);
	}
	if (csim_span_eq(key, "Cores")) {
		rc = csim_instr_text_value(t, &v, fs->err);
		if (rc == CSIM_OK)
			rc = hold_value(fs, v, &mt->cores_text, NULL);
		mt->cores_at = at;
		fs->have_cores = 1;
		return rc;
	}
	if (csim_span_eq(key, "Instructions Dtype")) {
		rc = csim_instr_text_value(t, &v, fs->err);
		return rc == CSIM_OK ? hold_value(fs, v, &mt->dtype, &mt->dtype_n) : rc;
	}
	return csim_instr_text_value(t, &v, fs->err);
}

/*
 * Validates the whole payload before judging its members, so a syntax
 * error anywhere wins over a missing or misshapen member, as it did when
 * the payload was parsed whole.
 */
static int scan_payload(struct first_scan *fs, int *is_object, uint64_t *at)
{
	struct csim_instr_text *t = &fs->t;
	struct csim_json_item m;
	struct csim_instr_walk w;
	struct csim_span v;
	int c, has = 1, rc = csim_instr_text_peek(t, &c, fs->err);

	if (rc != CSIM_OK)
		return rc;
	*at = csim_instr_text_offset(t, t->w.buf + t->w.pos);
	if (c == -1)
		return csim_instr_text_bad(t, *at, "unexpected end of JSON text", fs->err);
	*is_object = c == '{';
	if (!*is_object) {
		rc = csim_instr_text_value(t, &v, fs->err);
	} else {
		csim_instr_text_enter(t, &w);
		while ((rc = csim_instr_text_head(t, &w, &m, &has, fs->err)) == CSIM_OK && has) {
			rc = scan_member(fs, m.key);
			if (rc != CSIM_OK)
				break;
		}
	}
	if (rc == CSIM_OK)
		rc = csim_instr_text_peek(t, &c, fs->err);
	if (rc == CSIM_OK && c != -1)
		rc = csim_instr_text_bad(t, csim_instr_text_offset(t, t->w.buf + t->w.pos),
					 "unexpected data after the JSON value", fs->err);
	return rc;
}

/* The members' shape, in the order the whole-payload parse judged it. */
static int check_members(struct first_scan *fs, int is_object, uint64_t at)
{
	struct csim_metrics *mt = fs->mt;
	int rc;

	if (!is_object)
		return csim_instr_text_bad(&fs->t, at, "payload is not a JSON object", fs->err);
	if (!fs->have_cores || !fs->have_instr)
		return csim_error_set(fs->err, CSIM_E_INPUT, mt->src.block.offset,
				      "%s: API_INSTR block at offset %llu: no %s array",
				      mt->src.path, (unsigned long long)mt->src.block.offset,
				      !fs->have_cores ? "Cores" : "Instructions");
	rc = load_dtype(fs);
	if (rc == CSIM_OK)
		rc = load_cores(fs);
	if (rc == CSIM_OK && !fs->instr_is_array)
		rc = csim_instr_text_bad(&fs->t, mt->instr_at, "Instructions is not an array",
					 fs->err);
	if (rc == CSIM_OK && fs->bad_row != NO_ROW)
		rc = csim_instr_text_bad(&fs->t, fs->bad_row,
					 "an Instructions entry is not an object", fs->err);
	return rc;
}

static int first_scan(struct csim_metrics *mt, struct csim_error *err)
{
	struct first_scan fs;
	uint64_t at = 0;
	int is_object = 0;
	int rc;

	memset(&fs, 0, sizeof(fs));
	fs.mt = mt;
	fs.err = err;
	rc = csim_instr_text_open(&fs.t, &mt->src, err);
	if (rc == CSIM_OK)
		rc = scan_payload(&fs, &is_object, &at);
	if (rc == CSIM_OK)
		rc = check_members(&fs, is_object, at);
	csim_instr_text_close(&fs.t);
	csim_json_stack_release(&fs.stack);
	return rc;
}

int csim_metrics_load(struct csim_metrics *mt, const char *path,
		      uint64_t block_offset, char *payload, size_t size,
		      struct csim_error *err)
{
	memset(mt, 0, sizeof(*mt));
	mt->payload = payload;
	mt->src.path = path;
	mt->src.payload = payload != NULL ? payload : "";
	mt->src.block.offset = block_offset;
	mt->src.block.payload_size = size;
	return first_scan(mt, err);
}

int csim_metrics_load_block(struct csim_metrics *mt, const char *path,
			    const struct csim_block *blk, const struct csim_file_id *id,
			    struct csim_error *err)
{
	memset(mt, 0, sizeof(*mt));
	mt->src.path = path;
	mt->src.block = *blk;
	mt->src.file_id = *id;
	return first_scan(mt, err);
}

void csim_metrics_release(struct csim_metrics *mt)
{
	free(mt->payload);
	free(mt->cores_text);
	free(mt->cores);
	free(mt->dtype);
	free(mt->whole);
	free(mt->whole_code);
	free(mt->core_in);
	memset(mt, 0, sizeof(*mt));
}

int csim_metrics_cut(struct csim_metrics *mt, const char *const *patterns, size_t n,
		     struct csim_error *err)
{
	size_t longest = 1;
	char *name;

	if (n == 0)
		return CSIM_OK;
	for (size_t c = 0; c < mt->ncores; c++)
		if (mt->cores[c].n > longest)
			longest = mt->cores[c].n;
	mt->core_in = calloc(mt->ncores ? mt->ncores : 1, 1);
	name = malloc(longest + 1);
	if (mt->core_in == NULL || name == NULL) {
		free(name);
		return csim_error_nomem(err, CSIM_E_INPUT);
	}
	mt->cut = patterns;
	mt->ncut = n;
	for (size_t c = 0; c < mt->ncores; c++) {
		const struct csim_span v = mt->cores[c];   /* a JSON string, quotes included */

		/* Decoded between its quotes, as the trace's pid names are. */
		name[v.n >= 2 ? csim_json_unescape(v.p + 1, v.n - 2, name) : 0] = '\0';
		for (size_t k = 0; k < n && !mt->core_in[c]; k++)
			mt->core_in[c] = fnmatch(patterns[k], name, 0) == 0;
	}
	free(name);
	return CSIM_OK;
}

int csim_metrics_open_text(const struct csim_metrics *mt, struct csim_instr_text *t,
			   struct csim_error *err)
{
	return csim_instr_text_open(t, &mt->src, err);
}

int csim_instr_rows_open(struct csim_instr_rows *rr, const struct csim_metrics *mt,
			 struct csim_error *err)
{
	int c = -1;
	int rc;

	memset(rr, 0, sizeof(*rr));
	rr->mt = mt;
	rc = csim_instr_text_open(&rr->text, &mt->src, err);
	if (rc == CSIM_OK)
		rc = csim_instr_text_seek(&rr->text, mt->instr_at, err);
	if (rc == CSIM_OK)
		rc = csim_instr_text_peek(&rr->text, &c, err);
	if (rc == CSIM_OK && c != '[')
		rc = csim_instr_text_changed(&rr->text, err);
	if (rc == CSIM_OK)
		csim_instr_text_enter(&rr->text, &rr->walk);
	return rc;
}

struct csim_instr_rows_marks csim_instr_rows_marks(const struct csim_instr_rows *rr)
{
	return (struct csim_instr_rows_marks){
		rr->text.w.lent ? 0 : rr->text.w.cap, rr->text.stack.cap, rr->fields_cap,
		rr->elem_cap
	};
}

int csim_instr_rows_reserve(struct csim_instr_rows *rr, const struct csim_instr_rows_marks *m)
{
	return csim_instr_text_reserve(&rr->text, m->window, m->stack) != 0 ||
	       csim_array_grow((void **)&rr->fields, &rr->fields_cap, m->fields,
			       sizeof(*rr->fields)) != 0 ||
	       csim_array_grow((void **)&rr->elem, &rr->elem_cap, m->elems,
			       sizeof(*rr->elem)) != 0
	       ? -1 : 0;
}

void csim_instr_rows_close(struct csim_instr_rows *rr)
{
	csim_instr_text_close(&rr->text);
	free(rr->fields);
	free(rr->elem);
	rr->fields = NULL;
	rr->elem = NULL;
}

/*
 * A skipper's failure over rows the first scan validated: the text is no
 * longer what was validated, so the file changed (the skipper checks the
 * rows' form only, and stays in bounds whatever the bytes).
 */
static int row_failed(struct csim_instr_rows *rr, int scan, struct csim_error *err)
{
	if (scan == CSIM_SCAN_NOMEM)
		return csim_error_nomem(err, CSIM_E_INPUT);
	return csim_instr_text_changed(&rr->text, err);
}

/*
 * The elements of the array at row->p, walked once: their spans are kept
 * when there is one per core (f->split), else the array stays whole. Room
 * for ncores spans is made first; no more are ever recorded.
 */
static int index_split(struct csim_instr_rows *rr, struct csim_metrics_field *f,
		       struct csim_json_skip_iter *row, int *scan, struct csim_error *err)
{
	struct csim_scan_result res;
	size_t count = 0, ncores = rr->mt->ncores;

	if (csim_array_grow((void **)&rr->elem, &rr->elem_cap, rr->nelem + ncores + 1,
			    sizeof(*rr->elem)) != 0)
		return csim_error_nomem(err, CSIM_E_INPUT);
	*scan = csim_json_skip_array(row->p, row->end, row->final, rr->elem + rr->nelem,
				     ncores, &count, &res);
	if (*scan != CSIM_SCAN_OK)
		return CSIM_OK;
	f->val = csim_span_of(row->p, (size_t)(res.end - row->p));
	row->p = res.end;
	if (count == ncores) {
		f->split = 1;
		f->elems = rr->nelem;
		rr->nelem += ncores;
	}
	return CSIM_OK;
}

/*
 * The fields of the row that starts at t->w.pos, straight from the window,
 * each byte visited once: *more when the window ends inside it (read more,
 * then index it again). *end is then past its closing brace.
 */
static int index_row(struct csim_instr_rows *rr, int *more, const char **end,
		     struct csim_error *err)
{
	struct csim_instr_text *t = &rr->text;
	struct csim_json_skip_iter it;
	struct csim_scan_result res;
	struct csim_span key;
	int has = 1, scan = CSIM_SCAN_OK, rc = CSIM_OK;

	*more = 0;
	rr->nfields = rr->nelem = 0;
	csim_json_skip_iter_init(&it, t->w.buf + t->w.pos, t->w.buf + t->w.len, t->w.final);
	while (rc == CSIM_OK && scan == CSIM_SCAN_OK &&
	       (scan = csim_json_skip_head(&it, &key, &has, &res)) == CSIM_SCAN_OK && has) {
		struct csim_metrics_field *f;

		if (csim_array_grow((void **)&rr->fields, &rr->fields_cap, rr->nfields + 1,
				    sizeof(*rr->fields)) != 0)
			return csim_error_nomem(err, CSIM_E_INPUT);
		f = &rr->fields[rr->nfields++];
		memset(f, 0, sizeof(*f));
		f->key = key;
		if (*it.p == '[' && !column_is_whole(rr->mt, key)) {
			rc = index_split(rr, f, &it, &scan, err);
		} else {
			scan = csim_json_skip_value(it.p, it.end, it.final, &res);
			if (scan == CSIM_SCAN_OK) {
				f->val = csim_span_of(it.p, (size_t)(res.end - it.p));
				it.p = res.end;
			}
		}
	}
	if (rc != CSIM_OK)
		return rc;
	if (scan == CSIM_SCAN_MORE) {
		*more = 1;
		return CSIM_OK;
	}
	if (scan != CSIM_SCAN_OK)
		return row_failed(rr, scan, err);
	*end = it.p;
	return CSIM_OK;
}

int csim_instr_rows_next(struct csim_instr_rows *rr, struct csim_instr_row *row,
			 int *has, struct csim_error *err)
{
	struct csim_instr_text *t = &rr->text;
	struct csim_json_item m;
	const char *end = NULL;
	int more = 1;
	int rc = csim_instr_text_head(t, &rr->walk, &m, has, err);

	if (rc != CSIM_OK)
		return rc;
	if (!*has)
		return rr->index == rr->mt->nrows ? CSIM_OK : csim_instr_text_changed(t, err);
	*has = 0;
	if (t->w.buf[t->w.pos] != '{' || rr->index == rr->mt->nrows)
		return csim_instr_text_changed(t, err);
	/* Each row is walked once, in place: no separate scan to find its end. */
	while (rc == CSIM_OK && (rc = index_row(rr, &more, &end, err)) == CSIM_OK && more)
		rc = csim_instr_text_more(t, err);
	if (rc != CSIM_OK)
		return rc;
	t->w.pos = (size_t)(end - t->w.buf);
	row->index = rr->index++;
	row->fields = rr->fields;
	row->nfields = rr->nfields;
	row->elem = rr->elem;
	row->executed = NULL;
	for (size_t i = 0; i < rr->nfields && row->executed == NULL; i++)
		if (csim_span_eq(rr->fields[i].key, "Instructions Executed"))
			row->executed = &rr->fields[i];
	*has = 1;
	return CSIM_OK;
}

/* A JSON number text equal to 0 ("0", "-0", "0.00", "0e7"): its digits
   before any exponent all zero. Any other text (a string, an array) has a
   byte that is neither. */
static int is_zero(struct csim_span v)
{
	size_t i = v.n > 0 && v.p[0] == '-', digits = 0;

	for (; i < v.n && v.p[i] != 'e' && v.p[i] != 'E'; i++) {
		if (v.p[i] == '0')
			digits++;
		else if (v.p[i] != '.')
			return 0;
	}
	return digits > 0;
}

int csim_instr_row_ran(const struct csim_instr_row *row, size_t c)
{
	const struct csim_metrics_field *f = row->executed;

	if (f == NULL)
		return 1;
	return !is_zero(f->split ? row->elem[f->elems + c] : f->val);
}
