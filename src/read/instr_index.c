#include "read/instr_index.h"

#include <stdlib.h>
#include <string.h>

#include "base/array_grow.h"
#include "base/number_grid.h"
#include "read/json_scan.h"

/* Dtype codes whose values are whole JSON values, never per-core arrays. */
#define DTYPE_JSON_STRING 5
#define DTYPE_PERCENT_DETAILS 100

struct walker {
	struct csim_metrics *mt;
	struct csim_json_stack stack;
	struct csim_error *err;
};

static int metrics_bad(struct walker *w, const char *where, const char *why)
{
	struct csim_metrics *mt = w->mt;

	return csim_error_set(w->err, CSIM_E_INPUT, mt->block_offset,
			      "%s: API_INSTR block at offset %llu: %s at payload byte %llu",
			      mt->path, (unsigned long long)mt->block_offset, why,
			      (unsigned long long)(where - mt->payload));
}


/*
 * The next member of a container of the validated payload (*has 0 at its
 * end). Validation has grown the nesting stack to the payload's depth, so a
 * walk fails only if something is badly wrong; it still says what.
 */
static int walk_next(struct walker *w, struct csim_json_iter *it,
		     struct csim_json_item *m, int *has)
{
	struct csim_scan_result res;
	int rc = csim_json_iter_next(it, m, has, &res);

	if (rc == CSIM_SCAN_NOMEM)
		return csim_error_nomem(w->err, CSIM_E_INPUT);
	if (rc != CSIM_SCAN_OK)
		return metrics_bad(w, res.where, res.why);
	return CSIM_OK;
}

static void walk_begin(struct walker *w, struct csim_json_iter *it,
		       struct csim_span container)
{
	csim_json_iter_init(it, &w->stack, container.p, container.p + container.n, 1);
}

static int load_cores(struct walker *w, struct csim_span cores)
{
	struct csim_metrics *mt = w->mt;
	struct csim_json_iter it;
	struct csim_json_item m;
	int has = 1, rc;

	if (*cores.p != '[')
		return metrics_bad(w, cores.p, "Cores is not an array");
	walk_begin(w, &it, cores);
	while ((rc = walk_next(w, &it, &m, &has)) == CSIM_OK && has) {
		if (*m.value.p != '"')
			return metrics_bad(w, m.value.p,
					   "Cores holds a value that is not a string");
		if (csim_array_grow((void **)&mt->cores, &mt->cores_cap, mt->ncores + 1,
			 sizeof(*mt->cores)) != 0)
			return csim_error_nomem(w->err, CSIM_E_INPUT);
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
static int column_is_whole(const struct walker *w, struct csim_span key)
{
	const struct csim_metrics *mt = w->mt;

	for (size_t i = 0; i < mt->nwhole; i++)
		if (mt->whole[i].n == key.n && memcmp(mt->whole[i].p, key.p, key.n) == 0)
			return mt->whole_code[i];
	return 0;
}

/* The numeric entries of "Instructions Dtype"."Instructions", in order. */
static int load_dtype(struct walker *w)
{
	struct csim_metrics *mt = w->mt;
	struct csim_json_iter it;
	struct csim_json_item m;
	struct csim_span cols = { NULL, 0 };
	int has = 1, rc;

	if (mt->dtype == NULL || *mt->dtype != '{')
		return CSIM_OK;
	walk_begin(w, &it, csim_span_of(mt->dtype, mt->dtype_n));
	while ((rc = walk_next(w, &it, &m, &has)) == CSIM_OK && has)
		if (cols.p == NULL && csim_span_eq(m.key, "Instructions") && *m.value.p == '{')
			cols = m.value;
	if (rc != CSIM_OK || cols.p == NULL)
		return rc;
	walk_begin(w, &it, cols);
	has = 1;
	while ((rc = walk_next(w, &it, &m, &has)) == CSIM_OK && has) {
		double code;

		if (!csim_number_parse(m.value.p, m.value.n, &code))
			continue;
		if (csim_array_grow((void **)&mt->whole, &mt->whole_cap, mt->nwhole + 1,
				    sizeof(*mt->whole)) != 0 ||
		    csim_array_grow((void **)&mt->whole_code, &mt->whole_code_cap,
				    mt->nwhole + 1, sizeof(*mt->whole_code)) != 0)
			return csim_error_nomem(w->err, CSIM_E_INPUT);
		mt->whole[mt->nwhole] = m.key;
		mt->whole_code[mt->nwhole++] = code == DTYPE_JSON_STRING ||
					       code == DTYPE_PERCENT_DETAILS;
	}
	return rc;
}

/* Records the element spans of an array when it has one per core. */
static int index_split(struct walker *w, struct csim_metrics_field *f)
{
	struct csim_metrics *mt = w->mt;
	struct csim_json_iter it;
	struct csim_json_item m;
	size_t first_elem = mt->nelem, count = 0;
	int has = 1, rc;

	walk_begin(w, &it, csim_span_of(f->val, f->val_n));
	while ((rc = walk_next(w, &it, &m, &has)) == CSIM_OK && has) {
		if (csim_array_grow((void **)&mt->elem, &mt->elem_cap, mt->nelem + 1,
			 sizeof(*mt->elem)) != 0)
			return csim_error_nomem(w->err, CSIM_E_INPUT);
		mt->elem[mt->nelem++] = m.value;
		count++;
	}
	if (count == mt->ncores) {
		f->split = 1;
		f->elems = first_elem;
	} else {
		mt->nelem = first_elem;   /* kept whole */
	}
	return rc;
}

static int index_row(struct walker *w, struct csim_span row)
{
	struct csim_metrics *mt = w->mt;
	struct csim_json_iter it;
	struct csim_json_item m;
	int has = 1, rc;

	if (*row.p != '{')
		return metrics_bad(w, row.p, "an Instructions entry is not an object");
	walk_begin(w, &it, row);
	while ((rc = walk_next(w, &it, &m, &has)) == CSIM_OK && has) {
		struct csim_metrics_field *f;

		if (csim_array_grow((void **)&mt->fields, &mt->fields_cap, mt->nfields + 1,
			 sizeof(*mt->fields)) != 0)
			return csim_error_nomem(w->err, CSIM_E_INPUT);
		f = &mt->fields[mt->nfields++];
		memset(f, 0, sizeof(*f));
		f->key = m.key.p;
		f->key_n = m.key.n;
		f->val = m.value.p;
		f->val_n = m.value.n;
		if (*f->val == '[' && !column_is_whole(w, m.key)) {
			rc = index_split(w, f);
			if (rc != CSIM_OK)
				return rc;
		}
	}
	return rc;
}

static int index_rows(struct walker *w, struct csim_span rows)
{
	struct csim_metrics *mt = w->mt;
	struct csim_json_iter it;
	struct csim_json_item m;
	int has = 1, rc;

	if (*rows.p != '[')
		return metrics_bad(w, rows.p, "Instructions is not an array");
	walk_begin(w, &it, rows);
	while ((rc = walk_next(w, &it, &m, &has)) == CSIM_OK && has) {
		if (csim_array_grow((void **)&mt->row_first, &mt->rows_cap, mt->nrows + 2,
			 sizeof(*mt->row_first)) != 0)
			return csim_error_nomem(w->err, CSIM_E_INPUT);
		mt->row_first[mt->nrows++] = mt->nfields;
		rc = index_row(w, m.value);
		if (rc != CSIM_OK)
			return rc;
	}
	if (rc != CSIM_OK)
		return rc;
	if (csim_array_grow((void **)&mt->row_first, &mt->rows_cap, mt->nrows + 1,
		 sizeof(*mt->row_first)) != 0)
		return csim_error_nomem(w->err, CSIM_E_INPUT);
	mt->row_first[mt->nrows] = mt->nfields;
	return CSIM_OK;
}

/* Finds Cores, Instructions and Instructions Dtype in the payload object. */
static int find_members(struct walker *w, struct csim_span payload,
			struct csim_span *cores, struct csim_span *instr)
{
	struct csim_metrics *mt = w->mt;
	struct csim_json_iter it;
	struct csim_json_item m;
	int has = 1, rc;

	if (*payload.p != '{')
		return metrics_bad(w, payload.p, "payload is not a JSON object");
	walk_begin(w, &it, payload);
	while ((rc = walk_next(w, &it, &m, &has)) == CSIM_OK && has) {
		if (csim_span_eq(m.key, "Cores")) {
			*cores = m.value;
		} else if (csim_span_eq(m.key, "Instructions")) {
			*instr = m.value;
		} else if (csim_span_eq(m.key, "Instructions Dtype")) {
			mt->dtype = m.value.p;
			mt->dtype_n = m.value.n;
		}
	}
	if (rc == CSIM_OK && (cores->p == NULL || instr->p == NULL))
		rc = csim_error_set(w->err, CSIM_E_INPUT, mt->block_offset,
				    "%s: API_INSTR block at offset %llu: no %s array",
				    mt->path, (unsigned long long)mt->block_offset,
				    cores->p == NULL ? "Cores" : "Instructions");
	return rc;
}

int csim_metrics_load(struct csim_metrics *mt, const char *path,
		      uint64_t block_offset, char *payload, size_t size,
		      struct csim_error *err)
{
	struct walker w = { mt, { NULL, 0 }, err };
	struct csim_scan_result res;
	const char *end = payload + size;
	struct csim_span payload_value = { NULL, 0 };
	struct csim_span cores = { NULL, 0 }, instr = { NULL, 0 };
	int rc;

	memset(mt, 0, sizeof(*mt));
	mt->payload = payload;
	mt->size = size;
	mt->path = path;
	mt->block_offset = block_offset;
	/* Validate once; every walk below may then assume well-formed JSON
	   (and the nesting stack has already grown to the payload's depth). */
	payload_value.p = csim_json_skip_ws(payload, end);
	rc = csim_json_scan_value(&w.stack, payload_value.p, end, 1, &res);
	if (rc == CSIM_SCAN_OK)
		payload_value.n = (size_t)(res.end - payload_value.p);
	if (rc == CSIM_SCAN_OK && csim_json_skip_ws(res.end, end) != end) {
		rc = CSIM_SCAN_BAD;
		res.where = csim_json_skip_ws(res.end, end);
		res.why = "unexpected data after the JSON value";
	}
	if (rc != CSIM_SCAN_OK) {
		rc = rc == CSIM_SCAN_NOMEM ? csim_error_nomem(err, CSIM_E_INPUT)
					   : metrics_bad(&w, res.where, res.why);
		goto out;
	}
	rc = find_members(&w, payload_value, &cores, &instr);
	if (rc != CSIM_OK)
		goto out;
	rc = load_dtype(&w);
	if (rc == CSIM_OK)
		rc = load_cores(&w, cores);
	if (rc == CSIM_OK)
		rc = index_rows(&w, instr);
out:
	csim_json_stack_release(&w.stack);
	return rc;
}

void csim_metrics_release(struct csim_metrics *mt)
{
	free(mt->payload);
	free(mt->cores);
	free(mt->fields);
	free(mt->row_first);
	free(mt->elem);
	free(mt->whole);
	free(mt->whole_code);
	memset(mt, 0, sizeof(*mt));
}

