#include "read/basic_info.h"

#include <stdlib.h>
#include <string.h>

#include "read/json_scan.h"

static int bad(const struct csim_basic_info *bi, const char *path, const char *where,
	       const char *why, struct csim_error *err)
{
	return csim_error_set(err, CSIM_E_INPUT, bi->offset,
			      "%s: OP_BASIC_INFO block at offset %llu: %s at payload byte %llu",
			      path, (unsigned long long)bi->offset, why,
			      (unsigned long long)(where - bi->payload));
}

/* Keys are compared as written: the producer never escapes these names. */
static void note_member(struct csim_basic_info *bi, const struct csim_json_item *m)
{
	if (m->key_escaped)
		return;
	for (size_t f = 0; f < CSIM_BASIC_COUNT; f++)
		if (csim_span_eq(m->key, csim_basic_field_names[f]))
			bi->field[f] = bi->text[f] = m->value;
}

/* A string's text is what lies between its quotes. */
static void take_texts(struct csim_basic_info *bi)
{
	for (size_t f = 0; f < CSIM_BASIC_COUNT; f++) {
		const struct csim_span s = bi->field[f];

		if (s.p != NULL && s.n >= 2 && s.p[0] == '"')
			bi->text[f] = csim_span_of(s.p + 1, s.n - 2);
	}
}

int csim_basic_info_load(struct csim_basic_info *bi, const char *path, uint64_t offset,
			 char *payload, size_t size, struct csim_error *err)
{
	struct csim_json_stack stack = { NULL, 0, 0 };
	const char *end = payload + size;
	struct csim_scan_result res;
	struct csim_json_iter it;
	struct csim_json_item m;
	const char *p;
	int rc, has = 1;

	csim_basic_info_release(bi);
	bi->payload = payload;
	bi->size = size;
	bi->offset = offset;
	p = csim_json_skip_ws(payload, end);
	if (p == end || *p != '{') {
		rc = bad(bi, path, p, "not a JSON object", err);
		goto out;
	}
	csim_json_iter_init(&it, &stack, p, end, 1);
	for (;;) {
		rc = csim_json_iter_next(&it, &m, &has, &res);
		if (rc != CSIM_SCAN_OK || !has)
			break;
		note_member(bi, &m);
	}
	if (rc == CSIM_SCAN_OK && csim_json_skip_ws(res.end, end) != end) {
		rc = CSIM_SCAN_BAD;
		res.where = csim_json_skip_ws(res.end, end);
		res.why = "unexpected data after the JSON value";
	}
	if (rc == CSIM_SCAN_NOMEM)
		rc = csim_error_nomem(err, CSIM_E_INPUT);
	else if (rc != CSIM_SCAN_OK)
		rc = bad(bi, path, res.where, res.why, err);
out:
	csim_json_stack_release(&stack);
	if (rc == CSIM_OK)
		take_texts(bi);
	if (rc != CSIM_OK) {
		memset(bi->field, 0, sizeof(bi->field));
		memset(bi->text, 0, sizeof(bi->text));
	}
	return rc;
}
