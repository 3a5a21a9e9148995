#include "write/metrics_writer.h"

#include <cjson/cJSON.h>
#include <stdlib.h>
#include <string.h>

#include "base/array_grow.h"
#include "read/json_scan.h"

/* Dtype codes whose values are whole JSON values, never per-core arrays. */
#define DTYPE_JSON_STRING 5
#define DTYPE_PERCENT_DETAILS 100

struct walker {
	struct csim_metrics *mt;
	struct csim_json_stack stack;
	const cJSON *columns;   /* "Instructions Dtype"."Instructions", or NULL */
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
 * split per core. Compared as doubles: a code may be any JSON number
 * (converting 1e60 to int would be undefined behaviour; found by fuzzing).
 */
static int column_is_whole(const struct walker *w, struct csim_span key)
{
	const cJSON *col;

	if (w->columns == NULL)
		return 0;
	cJSON_ArrayForEach(col, w->columns) {
		if (col->string != NULL && csim_span_eq(key, col->string) &&
		    cJSON_IsNumber(col))
			return col->valuedouble == DTYPE_JSON_STRING ||
			       col->valuedouble == DTYPE_PERCENT_DETAILS;
	}
	return 0;
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
	struct walker w = { mt, { NULL, 0 }, NULL, err };
	struct csim_scan_result res;
	const char *end = payload + size;
	struct csim_span payload_value = { NULL, 0 };
	struct csim_span cores = { NULL, 0 }, instr = { NULL, 0 };
	cJSON *dtype = NULL;
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
	if (mt->dtype != NULL) {
		/* cJSON allocates through this program's malloc and free, so a
		   build that wraps them (allocation-failure tests) covers it. */
		cJSON_Hooks hooks = { malloc, free };

		cJSON_InitHooks(&hooks);
		/* The payload was validated above: NULL means no memory. */
		dtype = cJSON_ParseWithLength(mt->dtype, mt->dtype_n);
		if (dtype == NULL) {
			rc = csim_error_nomem(err, CSIM_E_INPUT);
			goto out;
		}
		w.columns = cJSON_GetObjectItemCaseSensitive(dtype, "Instructions");
	}
	rc = load_cores(&w, cores);
	if (rc == CSIM_OK)
		rc = index_rows(&w, instr);
out:
	cJSON_Delete(dtype);
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
	memset(mt, 0, sizeof(*mt));
}

/* "Instructions Executed" -> "instructions_executed", escaped as needed. */
static int write_key(struct csim_out *out, const char *key, size_t n,
		     struct csim_error *err)
{
	char small[256];
	char *buf = n <= sizeof(small) ? small : malloc(n);
	size_t len;

	if (buf == NULL)
		return csim_error_nomem(err, CSIM_E_OUTPUT);
	len = csim_json_unescape(key, n, buf);
	for (size_t i = 0; i < len; i++) {
		if (buf[i] >= 'A' && buf[i] <= 'Z')
			buf[i] = (char)(buf[i] - 'A' + 'a');
		else if (buf[i] == ' ')
			buf[i] = '_';
	}
	csim_out_json_string(out, buf, len);
	if (buf != small)
		free(buf);
	return CSIM_OK;
}

static int write_row(const struct csim_metrics *mt, size_t row, size_t core,
		     struct csim_out *out, struct csim_error *err)
{
	csim_out_char(out, '{');
	for (size_t i = mt->row_first[row]; i < mt->row_first[row + 1]; i++) {
		const struct csim_metrics_field *f = &mt->fields[i];

		if (i != mt->row_first[row])
			csim_out_char(out, ',');
		if (write_key(out, f->key, f->key_n, err) != CSIM_OK)
			return err->code;
		csim_out_char(out, ':');
		if (f->split)
			csim_out_bytes(out, mt->elem[f->elems + core].p,
				       mt->elem[f->elems + core].n);
		else
			csim_out_bytes(out, f->val, f->val_n);
	}
	csim_out_char(out, '}');
	return CSIM_OK;
}

int csim_metrics_write(const struct csim_metrics *mt, int raw,
		       struct csim_out *out, struct csim_error *err)
{
	if (raw) {
		csim_out_bytes(out, mt->payload, mt->size);
		return CSIM_OK;
	}
	csim_out_text(out, "{\"cores\":[");
	for (size_t c = 0; c < mt->ncores; c++) {
		if (c > 0)
			csim_out_char(out, ',');
		csim_out_bytes(out, mt->cores[c].p, mt->cores[c].n);
	}
	csim_out_text(out, "],\n\"instructions\":{");
	for (size_t c = 0; c < mt->ncores; c++) {
		csim_out_text(out, c > 0 ? ",\n" : "\n");
		csim_out_bytes(out, mt->cores[c].p, mt->cores[c].n);
		csim_out_text(out, ":[");
		for (size_t r = 0; r < mt->nrows; r++) {
			csim_out_text(out, r > 0 ? ",\n" : "\n");
			if (write_row(mt, r, c, out, err) != CSIM_OK)
				return err->code;
		}
		csim_out_text(out, "\n]");
	}
	csim_out_text(out, "},\n\"column_types\":");
	if (mt->dtype != NULL)
		csim_out_bytes(out, mt->dtype, mt->dtype_n);
	else
		csim_out_text(out, "{}");
	csim_out_text(out, "}\n");
	return CSIM_OK;
}
