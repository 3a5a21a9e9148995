#include "read/event_args.h"

#include "base/number_grid.h"
#include "read/event_fast.h"
#include "read/json_scan.h"

/* A non-negative decimal integer, quoted or not. */
static int decimal_value(struct csim_span v, uint64_t *out)
{
	size_t i = 0, n = v.n;
	uint64_t x = 0;

	if (n >= 2 && v.p[0] == '"' && v.p[n - 1] == '"') {
		i = 1;
		n--;
	}
	if (i == n || n - i > 19)
		return 0;
	for (; i < n; i++) {
		if (v.p[i] < '0' || v.p[i] > '9')
			return 0;
		x = x * 10 + (uint64_t)(v.p[i] - '0');
	}
	*out = x;
	return 1;
}

/* pc_addr's value: a string holding an address. */
static int hex_value(struct csim_span v, uint64_t *out)
{
	return v.n >= 2 && *v.p == '"' && csim_number_hex(v.p + 1, v.n - 2, out);
}

int csim_event_args_members(struct csim_json_stack *st, struct csim_span args,
			    struct csim_span members[2])
{
	struct csim_json_iter it;
	struct csim_json_item m;
	struct csim_scan_result res;
	static const char *const keys[] = { "process_bytes", "pc_addr" };
	int has = 1, rc = CSIM_SCAN_OK;

	members[0] = members[1] = csim_span_of(NULL, 0);
	if (args.p == NULL || *args.p != '{' || csim_event_fast_find(args, keys, 2, members))
		return 0;
	members[0] = members[1] = csim_span_of(NULL, 0);
	csim_json_iter_init(&it, st, args.p, args.p + args.n, 1);
	while (rc == CSIM_SCAN_OK && has) {
		rc = csim_json_iter_next(&it, &m, &has, &res);
		if (rc != CSIM_SCAN_OK || !has || m.key_escaped)
			continue;
		if (csim_span_eq(m.key, "process_bytes"))
			members[0] = m.value;
		else if (csim_span_eq(m.key, "pc_addr"))
			members[1] = m.value;
	}
	if (rc == CSIM_SCAN_NOMEM)
		return -1;
	/* the args were validated when first read: nothing else can fail */
	if (rc != CSIM_SCAN_OK)
		members[0] = members[1] = csim_span_of(NULL, 0);
	return 0;
}

int csim_event_bytes_value(struct csim_span v, uint64_t *bytes)
{
	return v.p != NULL && decimal_value(v, bytes);
}

int csim_event_pc_addr(struct csim_json_stack *st, struct csim_span args, uint64_t *addr,
		       int *has_source)
{
	struct csim_json_iter it;
	struct csim_json_item m;
	struct csim_scan_result res;
	static const char *const keys[] = { "source", "pc_addr" };
	struct csim_span v[2];
	int has = 1, rc = CSIM_SCAN_OK, found = 0;

	*has_source = 0;
	if (args.p == NULL || *args.p != '{')
		return 0;
	if (csim_event_fast_find(args, keys, 2, v)) {
		*has_source = v[0].p != NULL;
		return v[1].p != NULL && hex_value(v[1], addr);
	}
	csim_json_iter_init(&it, st, args.p, args.p + args.n, 1);
	while (rc == CSIM_SCAN_OK && has) {
		rc = csim_json_iter_next(&it, &m, &has, &res);
		if (rc != CSIM_SCAN_OK || !has)
			break;
		if (csim_span_eq(m.key, "source"))
			*has_source = 1;
		else if (!m.key_escaped && csim_span_eq(m.key, "pc_addr"))
			found = hex_value(m.value, addr);
	}
	if (rc != CSIM_SCAN_OK)
		return rc == CSIM_SCAN_NOMEM ? -1 : 0;
	return found;
}
