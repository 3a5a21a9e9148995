#include "read/basic_info.h"

#include <stdlib.h>
#include <string.h>

#include "base/number_grid.h"
#include "read/json_scan.h"

const char *const csim_basic_field_names[CSIM_BASIC_COUNT] = {
	"name", "soc", "op_type", "block_dim", "mix_block_dim", "duration",
	"cur_freq", "rated_freq", "block_detail", "mix_block_detail",
};

void csim_basic_info_init(struct csim_basic_info *bi)
{
	memset(bi, 0, sizeof(*bi));
}

void csim_basic_info_release(struct csim_basic_info *bi)
{
	free(bi->payload);
	csim_basic_info_init(bi);
}

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
			bi->field[f] = m->value;
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
	if (rc != CSIM_OK)
		memset(bi->field, 0, sizeof(bi->field));
	return rc;
}

struct csim_span csim_basic_info_text(const struct csim_basic_info *bi,
				      enum csim_basic_field f)
{
	struct csim_span s = bi->field[f];

	if (s.p != NULL && s.n >= 2 && s.p[0] == '"')
		s = csim_span_of(s.p + 1, s.n - 2);
	return s;
}

int csim_basic_info_number(const struct csim_basic_info *bi, enum csim_basic_field f,
			   double *v)
{
	struct csim_span s = csim_basic_info_text(bi, f);

	if (s.p == NULL || s.n == 0 || !(*s.p == '-' || (*s.p >= '0' && *s.p <= '9')))
		return 0;
	return csim_number_parse(s.p, s.n, v);
}
