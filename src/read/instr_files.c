#include "read/instr_files.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/array_grow.h"
#include "base/number_grid.h"
#include "read/instr_digest.h"
#include "read/json_scan.h"

struct files {
	struct csim_instr_stats *s;
	struct csim_json_stack stack;
	const char *path, *payload;
	uint64_t block_offset;
	char *name;             /* "Source:Line", decoded */
	size_t name_cap;
	struct csim_error *err;
};

static int files_bad(struct files *f, const char *where, const char *why)
{
	return csim_error_set(f->err, CSIM_E_INPUT, f->block_offset,
			      "%s: API_FILE block at offset %llu: %s at payload byte %llu",
			      f->path, (unsigned long long)f->block_offset, why,
			      (unsigned long long)(where - f->payload));
}

static int next(struct files *f, struct csim_json_iter *it, struct csim_json_item *m, int *has)
{
	struct csim_scan_result res;
	int rc = csim_json_iter_next(it, m, has, &res);

	if (rc == CSIM_SCAN_NOMEM)
		return csim_error_nomem(f->err, CSIM_E_INPUT);
	return rc == CSIM_SCAN_OK ? CSIM_OK : files_bad(f, res.where, res.why);
}

static void begin(struct files *f, struct csim_json_iter *it, struct csim_span v)
{
	csim_json_iter_init(it, &f->stack, v.p, v.p + v.n, 1);
}

/* One [start, end] pair of hex strings. */
static int add_range(struct files *f, struct csim_span pair, uint32_t source)
{
	struct csim_json_iter it;
	struct csim_json_item m;
	uint64_t ends[2];
	size_t k = 0;
	int has = 1, rc;

	if (*pair.p != '[')
		return files_bad(f, pair.p, "an Address Range entry is not a pair");
	begin(f, &it, pair);
	while ((rc = next(f, &it, &m, &has)) == CSIM_OK && has) {
		if (k == 2 || m.value.n < 2 || *m.value.p != '"' ||
		    !csim_number_hex(m.value.p + 1, m.value.n - 2, &ends[k]))
			return files_bad(f, m.value.p, "an Address Range end is not a hex address");
		k++;
	}
	if (rc == CSIM_OK && k != 2)
		return files_bad(f, pair.p, "an Address Range entry is not a pair");
	if (rc == CSIM_OK && ends[0] <= ends[1] &&
	    csim_instr_digest_add_line(&f->s->ranges, &f->s->nranges, &f->s->ranges_cap,
				       ends[0], ends[1], source) != 0)
		rc = csim_error_nomem(f->err, CSIM_E_INPUT);
	return rc;
}

/* "path:line" interned as the lines' source. */
static int line_source(struct files *f, struct csim_span file, struct csim_span line,
		       uint32_t *id)
{
	double v;
	char num[32];
	size_t need;
	int len;

	if (!csim_number_parse(line.p, line.n, &v) || v < 0 || v > 1e15 || v != (double)(long long)v)
		return files_bad(f, line.p, "Line is not a line number");
	len = snprintf(num, sizeof(num), ":%lld", (long long)v);
	need = file.n + (size_t)len;
	if (csim_array_grow((void **)&f->name, &f->name_cap, need, 1) != 0)
		return csim_error_nomem(f->err, CSIM_E_INPUT);
	need = csim_json_unescape(file.p + 1, file.n - 2, f->name);
	memcpy(f->name + need, num, (size_t)len);
	if (csim_strtab_intern(&f->s->text, f->name, need + (size_t)len, id) != 0)
		return csim_error_nomem(f->err, CSIM_E_INPUT);
	return CSIM_OK;
}

static int load_line(struct files *f, struct csim_span file, struct csim_span entry)
{
	struct csim_json_iter it;
	struct csim_json_item m;
	struct csim_span line = { NULL, 0 }, ranges = { NULL, 0 };
	uint32_t source;
	int has = 1, rc;

	if (*entry.p != '{')
		return files_bad(f, entry.p, "a Lines entry is not an object");
	begin(f, &it, entry);
	while ((rc = next(f, &it, &m, &has)) == CSIM_OK && has) {
		if (csim_span_eq(m.key, "Line"))
			line = m.value;
		else if (csim_span_eq(m.key, "Address Range"))
			ranges = m.value;
	}
	if (rc != CSIM_OK || line.p == NULL || ranges.p == NULL)
		return rc;   /* a line without addresses maps nothing */
	if (*ranges.p != '[')
		return files_bad(f, ranges.p, "Address Range is not an array");
	rc = line_source(f, file, line, &source);
	begin(f, &it, ranges);
	has = 1;
	while (rc == CSIM_OK && (rc = next(f, &it, &m, &has)) == CSIM_OK && has)
		rc = add_range(f, m.value, source);
	return rc;
}

static int load_file(struct files *f, struct csim_span entry)
{
	struct csim_json_iter it;
	struct csim_json_item m;
	struct csim_span file = { NULL, 0 }, lines = { NULL, 0 };
	int has = 1, rc;

	if (*entry.p != '{')
		return files_bad(f, entry.p, "a Files entry is not an object");
	begin(f, &it, entry);
	while ((rc = next(f, &it, &m, &has)) == CSIM_OK && has) {
		if (csim_span_eq(m.key, "Source"))
			file = m.value;
		else if (csim_span_eq(m.key, "Lines"))
			lines = m.value;
	}
	if (rc != CSIM_OK || lines.p == NULL)
		return rc;
	if (file.p == NULL || *file.p != '"')
		return files_bad(f, entry.p, "a Files entry has no Source path");
	if (*lines.p != '[')
		return files_bad(f, lines.p, "Lines is not an array");
	begin(f, &it, lines);
	has = 1;
	while (rc == CSIM_OK && (rc = next(f, &it, &m, &has)) == CSIM_OK && has)
		rc = load_line(f, file, m.value);
	return rc;
}

static int load_files(struct files *f, struct csim_span top)
{
	struct csim_json_iter it;
	struct csim_json_item m;
	struct csim_span list = { NULL, 0 };
	int has = 1, rc;

	if (*top.p != '{')
		return files_bad(f, top.p, "payload is not a JSON object");
	begin(f, &it, top);
	while ((rc = next(f, &it, &m, &has)) == CSIM_OK && has)
		if (csim_span_eq(m.key, "Files"))
			list = m.value;
	if (rc != CSIM_OK)
		return rc;
	if (list.p == NULL || *list.p != '[')
		return files_bad(f, list.p != NULL ? list.p : top.p, "no Files array");
	begin(f, &it, list);
	has = 1;
	while (rc == CSIM_OK && (rc = next(f, &it, &m, &has)) == CSIM_OK && has)
		rc = load_file(f, m.value);
	return rc;
}

/* The top rows without an Inner Code take their address's range line, so
   every writer shows the same source for them. */
static void name_top_sources(struct csim_instr_stats *s)
{
	for (size_t i = 0; i < s->ntop; i++) {
		struct csim_instr_top *t = &s->top[i];
		size_t n;
		const char *a = csim_strtab_get(&s->text, t->address, &n);
		uint64_t addr;
		const struct csim_instr_line *l;

		if (t->source != CSIM_NONE || !csim_number_hex(a, n, &addr))
			continue;
		l = csim_instr_stats_range(s, addr);
		if (l != NULL)
			t->source = l->source;
	}
}

int csim_instr_files_load(struct csim_instr_stats *s, const char *path,
			  uint64_t block_offset, const char *payload, size_t size,
			  struct csim_error *err)
{
	struct files f = { s, { NULL, 0, 0 }, path, payload, block_offset, NULL, 0, err };
	struct csim_scan_result res;
	const char *end = payload + size;
	struct csim_span top;
	size_t before = s->nranges;
	int rc;

	top.p = csim_json_skip_ws(payload, end);
	rc = csim_json_scan_value(&f.stack, top.p, end, 1, &res);
	if (rc == CSIM_SCAN_OK && csim_json_skip_ws(res.end, end) != end) {
		rc = CSIM_SCAN_BAD;
		res.where = csim_json_skip_ws(res.end, end);
		res.why = "unexpected data after the JSON value";
	}
	if (rc == CSIM_SCAN_NOMEM)
		rc = csim_error_nomem(err, CSIM_E_INPUT);
	else if (rc != CSIM_SCAN_OK)
		rc = files_bad(&f, res.where, res.why);
	if (rc == CSIM_OK) {
		top.n = (size_t)(res.end - top.p);
		rc = load_files(&f, top);
	}
	if (rc == CSIM_OK) {
		csim_instr_digest_sort_lines(s->ranges, &s->nranges);
		name_top_sources(s);
	} else {
		s->nranges = before;
	}
	csim_json_stack_release(&f.stack);
	free(f.name);
	return rc;
}
