#include "read/event_fast.h"

#include <stdint.h>
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
 * A string, number or literal at p: the byte after it, or NULL; *escaped
 * tells whether a string has an escape (0 for anything else). The general
 * scanners do the validating; final 0 makes one that touches the window's
 * end decline rather than guess.
 */
static const char *scalar_end(const char *p, const char *end, int *escaped)
{
	struct csim_scan_result res;

	*escaped = 0;
	switch (*p) {
	case '"':
		return csim_json_scan_string(p, end, 0, &res, escaped) == CSIM_SCAN_OK
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

/*
 * A flat object at p ('{'), every value a scalar: the byte after '}', or
 * NULL. members (args only, else NULL): the values of process_bytes and
 * pc_addr into members[0] and [1], the last of a repeated key.
 */
static const char *flat_object_end(const char *p, const char *end, struct csim_span *members)
{
	struct csim_span key;
	int more = 1, escaped;

	p++;
	if (p < end && *p == '}')
		return p + 1;
	while (p != NULL && more) {
		const char *v = key_end(p, end, &key);
		const char *vend = v != NULL ? scalar_end(v, end, &escaped) : NULL;

		if (vend != NULL && members != NULL) {
			if (key.n == 13 && memcmp(key.p, "process_bytes", 13) == 0)
				members[0] = csim_span_of(v, (size_t)(vend - v));
			else if (key.n == 7 && memcmp(key.p, "pc_addr", 7) == 0)
				members[1] = csim_span_of(v, (size_t)(vend - v));
		}
		p = member_next(vend, end, &more);
	}
	return p;
}

#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
/* Eight bytes of text as the word memcpy() makes of them here. */
#define TEXT_WORD(a, b, c, d, e, f, g, h) \
	((uint64_t)(a) | (uint64_t)(b) << 8 | (uint64_t)(c) << 16 | (uint64_t)(d) << 24 | \
	 (uint64_t)(e) << 32 | (uint64_t)(f) << 40 | (uint64_t)(g) << 48 | (uint64_t)(h) << 56)

/* p + n when w, the text at p, starts with the n bytes of key, with *f. */
static const char *key_is(uint64_t w, const char *p, uint64_t key, int n, int field,
			  int *f)
{
	if ((w & (~0ull >> 8 * (8 - n))) != key)
		return NULL;
	*f = field;
	return p + n;
}

/*
 * The keys the producer writes on every event, with their quotes and ':',
 * told apart by a word compare instead of a string scan: the value's first
 * byte and *f (the field, or -1 for cname), or NULL for any other key.
 * Nine bytes from p must be there: the word and the value's first.
 */
static const char *known_key(const char *p, const char *end, int *f)
{
	const char *v;
	uint64_t w;

	if (end - p < 9)
		return NULL;
	memcpy(&w, p, sizeof(w));
	switch (p[1]) {
	case 'a':
		return key_is(w, p, TEXT_WORD('"', 'a', 'r', 'g', 's', '"', ':', 0), 7,
			      CSIM_F_ARGS, f);
	case 'c':
		return key_is(w, p, TEXT_WORD('"', 'c', 'n', 'a', 'm', 'e', '"', ':'), 8, -1, f);
	case 'd':
		return key_is(w, p, TEXT_WORD('"', 'd', 'u', 'r', '"', ':', 0, 0), 6, CSIM_F_DUR, f);
	case 'i':
		return key_is(w, p, TEXT_WORD('"', 'i', 'd', '"', ':', 0, 0, 0), 5, CSIM_F_ID, f);
	case 'n':
		return key_is(w, p, TEXT_WORD('"', 'n', 'a', 'm', 'e', '"', ':', 0), 7,
			      CSIM_F_NAME, f);
	case 'p':
		v = key_is(w, p, TEXT_WORD('"', 'p', 'h', '"', ':', 0, 0, 0), 5, CSIM_F_PH, f);
		return v != NULL ? v
		       : key_is(w, p, TEXT_WORD('"', 'p', 'i', 'd', '"', ':', 0, 0), 6, CSIM_F_PID, f);
	case 't':
		v = key_is(w, p, TEXT_WORD('"', 't', 's', '"', ':', 0, 0, 0), 5, CSIM_F_TS, f);
		return v != NULL ? v
		       : key_is(w, p, TEXT_WORD('"', 't', 'i', 'd', '"', ':', 0, 0), 6, CSIM_F_TID, f);
	default:
		return NULL;
	}
}
#else
static const char *known_key(const char *p, const char *end, int *f)
{
	(void)p;
	(void)end;
	(void)f;
	return NULL;
}
#endif

int csim_event_fast_scan(const char *p, const char *end,
			 struct csim_span field[CSIM_F_COUNT], size_t *depth,
			 unsigned *escaped, const char **stop)
{
	unsigned esc = 0;
	const char *vend;

	p++;
	if (p < end && *p == '}') {
		*stop = p + 1;
		return 1;
	}
	for (;;) {
		struct csim_span key;
		int f, has_escape = 0;
		const char *v = known_key(p, end, &f);

		if (v == NULL) {
			v = key_end(p, end, &key);
			if (v == NULL)
				return 0;
			f = csim_event_key_field(key.p, key.n);
		}
		if (f == CSIM_F_ARGS)   /* a repeated args: the last one's */
			field[CSIM_F_ARG_BYTES] = field[CSIM_F_ARG_PC] = csim_span_of(NULL, 0);
		if (*v == '{') {
			vend = flat_object_end(v, end,
					       f == CSIM_F_ARGS ? &field[CSIM_F_ARG_BYTES] : NULL);
			*depth = 1;
		} else {
			vend = scalar_end(v, end, &has_escape);
		}
		if (vend == NULL || vend >= end)
			return 0;
		/* Duplicate keys: the last one wins, as in the general scanner. */
		if (f >= 0) {
			field[f] = csim_span_of(v, (size_t)(vend - v));
			if (has_escape)
				esc |= 1u << f;
			else if (esc != 0)
				esc &= ~(1u << f);
		}
		if (*vend != ',')
			break;
		p = vend + 1;
	}
	if (*vend != '}')
		return 0;
	*escaped = esc;
	*stop = vend + 1;
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
		int escaped;

		vend = v != NULL ? scalar_end(v, end, &escaped) : NULL;
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
