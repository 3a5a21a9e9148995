#include "read/event_fast.h"

#include <string.h>

#include "read/json_scan.h"

int csim_event_key_field(const char *key, size_t n)
{
	/* Once per key of every event: the length and first byte pick it. */
	switch (n) {
	case 2:
		if (key[0] == 'p' && key[1] == 'h')
			return CSIM_F_PH;
		if (key[0] == 't' && key[1] == 's')
			return CSIM_F_TS;
		if (key[0] == 'i' && key[1] == 'd')
			return CSIM_F_ID;
		return -1;
	case 3:
		if (key[0] == 'p' && key[1] == 'i' && key[2] == 'd')
			return CSIM_F_PID;
		if (key[0] == 't' && key[1] == 'i' && key[2] == 'd')
			return CSIM_F_TID;
		if (key[0] == 'd' && key[1] == 'u' && key[2] == 'r')
			return CSIM_F_DUR;
		return -1;
	case 4:
		if (memcmp(key, "name", 4) == 0)
			return CSIM_F_NAME;
		if (memcmp(key, "args", 4) == 0)
			return CSIM_F_ARGS;
		return -1;
	default:
		return -1;
	}
}

static const char *literal_end(const char *p, const char *end, const char *word,
			       size_t n)
{
	return (size_t)(end - p) >= n && memcmp(p, word, n) == 0 ? p + n : NULL;
}

/*
 * A string, number or literal at p: the byte after it, or NULL. The
 * general scanners do the validating; final 0 makes one that touches the
 * window's end decline rather than guess.
 */
static const char *scalar_end(const char *p, const char *end)
{
	struct csim_scan_result res;
	int escaped;

	switch (*p) {
	case '"':
		return csim_json_scan_string(p, end, 0, &res, &escaped) == CSIM_SCAN_OK
		       ? res.end : NULL;
	case 't':
		return literal_end(p, end, "true", 4);
	case 'f':
		return literal_end(p, end, "false", 5);
	case 'n':
		return literal_end(p, end, "null", 4);
	default:
		if (*p != '-' && (*p < '0' || *p > '9'))
			return NULL;
		return csim_json_scan_number(p, end, 0, &res) == CSIM_SCAN_OK ? res.end : NULL;
	}
}

/* A key at p ('"') without escapes and its ':': the value's first byte, or NULL. */
static const char *key_end(const char *p, const char *end, struct csim_span *key)
{
	struct csim_scan_result res;
	int escaped;

	if (p >= end || *p != '"' ||
	    csim_json_scan_string(p, end, 0, &res, &escaped) != CSIM_SCAN_OK || escaped)
		return NULL;
	*key = csim_span_of(p + 1, (size_t)(res.end - p - 2));
	p = res.end;
	return p + 1 < end && *p == ':' ? p + 1 : NULL;
}

/* After a member's value at p: the next key (*more 1), the byte after '}', or NULL. */
static const char *member_next(const char *p, const char *end, int *more)
{
	if (p == NULL || p >= end)
		return NULL;
	*more = *p == ',';
	return *p == ',' || *p == '}' ? p + 1 : NULL;
}

/* A flat object at p ('{'), every value a scalar: the byte after '}', or NULL. */
static const char *flat_object_end(const char *p, const char *end)
{
	struct csim_span key;
	int more = 1;

	p++;
	if (p < end && *p == '}')
		return p + 1;
	while (p != NULL && more) {
		p = key_end(p, end, &key);
		if (p != NULL)
			p = member_next(scalar_end(p, end), end, &more);
	}
	return p;
}

int csim_event_fast_scan(const char *p, const char *end,
			 struct csim_span field[CSIM_F_COUNT], size_t *depth,
			 const char **stop)
{
	struct csim_span key;
	int more = 1;

	p++;
	if (p < end && *p == '}') {
		*stop = p + 1;
		return 1;
	}
	while (more) {
		const char *v = key_end(p, end, &key), *vend;
		int f;

		if (v == NULL)
			return 0;
		if (*v == '{') {
			vend = flat_object_end(v, end);
			*depth = 1;
		} else {
			vend = scalar_end(v, end);
		}
		if (vend == NULL)
			return 0;
		/* Duplicate keys: the last one wins, as in the general scanner. */
		f = csim_event_key_field(key.p, key.n);
		if (f >= 0)
			field[f] = csim_span_of(v, (size_t)(vend - v));
		p = member_next(vend, end, &more);
		if (p == NULL)
			return 0;
	}
	*stop = p;
	return 1;
}

int csim_event_fast_find(struct csim_span obj, const char *const *keys,
			 size_t nkeys, struct csim_span *values)
{
	const char *p = obj.p, *end = obj.p + obj.n;
	struct csim_span key;
	int more = 1;

	for (size_t i = 0; i < nkeys; i++)
		values[i] = csim_span_of(NULL, 0);
	if (obj.n < 2 || *p != '{')
		return 0;
	p++;
	if (*p == '}')
		return p + 1 == end;
	while (more) {
		const char *v = key_end(p, end, &key), *vend;

		vend = v != NULL ? scalar_end(v, end) : NULL;
		if (vend == NULL)
			return 0;
		for (size_t i = 0; i < nkeys; i++) {
			if (!csim_span_eq(key, keys[i]))
				continue;
			/* which one counts differs by caller: theirs to decide */
			if (values[i].p != NULL)
				return 0;
			values[i] = csim_span_of(v, (size_t)(vend - v));
		}
		p = member_next(vend, end, &more);
		if (p == NULL)
			return 0;
	}
	return p == end;
}
