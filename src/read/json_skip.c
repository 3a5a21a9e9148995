#include "read/json_skip.h"

#include <stdint.h>

/* What a byte outside strings can be in JSON text. */
enum byte_class {
	B_BAD = 0,   /* nothing JSON writes outside a string */
	B_WS,
	B_PUNCT,     /* ',' ':' */
	B_SCALAR,    /* a byte of a number or of true, false, null */
	B_OPEN,
	B_CLOSE,
	B_QUOTE
};

static const unsigned char byte_class[256] = {
	[' '] = B_WS, ['\t'] = B_WS, ['\n'] = B_WS, ['\r'] = B_WS,
	[','] = B_PUNCT, [':'] = B_PUNCT,
	['0'] = B_SCALAR, ['1'] = B_SCALAR, ['2'] = B_SCALAR, ['3'] = B_SCALAR,
	['4'] = B_SCALAR, ['5'] = B_SCALAR, ['6'] = B_SCALAR, ['7'] = B_SCALAR,
	['8'] = B_SCALAR, ['9'] = B_SCALAR, ['-'] = B_SCALAR, ['+'] = B_SCALAR,
	['.'] = B_SCALAR, ['e'] = B_SCALAR, ['E'] = B_SCALAR,
	['t'] = B_SCALAR, ['r'] = B_SCALAR, ['u'] = B_SCALAR, ['f'] = B_SCALAR,
	['a'] = B_SCALAR, ['l'] = B_SCALAR, ['s'] = B_SCALAR, ['n'] = B_SCALAR,
	['['] = B_OPEN, ['{'] = B_OPEN, [']'] = B_CLOSE, ['}'] = B_CLOSE,
	['"'] = B_QUOTE
};

/* Bracket kinds are remembered to this depth, one bit each. */
#define KIND_BITS 64

static int skip_bad(struct csim_scan_result *res, const char *where, const char *why)
{
	res->where = where;
	res->why = why;
	return CSIM_SCAN_BAD;
}

static int skip_short(struct csim_scan_result *res, const char *where, int final)
{
	if (final)
		return skip_bad(res, where, "unexpected end of JSON text");
	return CSIM_SCAN_MORE;
}

/*
 * A string takes the first reading's own scanner: finding the closing quote
 * is its whole cost (one search for a quote, backslash or control byte, 16
 * bytes a step), and it also checks the escapes csim_json_unescape() relies
 * on. A second copy of that search here was folded with json_scan's by the
 * link-time optimizer, which then stopped inlining it into the TRACE scanner.
 */
int csim_json_skip_string(const char *p, const char *end, int final,
			  struct csim_scan_result *res)
{
	int escaped;

	return csim_json_scan_string(p, end, final, res, &escaped);
}

/* A number or literal: a run of their bytes. One that reaches the window's
   end may go on in the next read. */
static int skip_scalar(const char *p, const char *end, int final,
		       struct csim_scan_result *res)
{
	const char *q = p;

	while (q < end && byte_class[(unsigned char)*q] == B_SCALAR)
		q++;
	if (q == p)
		return skip_bad(res, p, "expected a JSON value");
	if (q >= end && !final)
		return CSIM_SCAN_MORE;
	res->end = q;
	return CSIM_SCAN_OK;
}

/* p at an opening bracket: to the bracket that closes it, counting depth
   outside strings. */
static int skip_container(const char *p, const char *end, int final,
			  struct csim_scan_result *res)
{
	uint64_t objects = 0;   /* bit d: the container at depth d is an object */
	size_t depth = 0;
	const char *q = p;

	while (q < end) {
		unsigned char c = (unsigned char)*q;
		int rc;

		switch (byte_class[c]) {
		case B_OPEN:
			if (depth < KIND_BITS)
				objects = (objects & ~((uint64_t)1 << depth)) |
					  ((uint64_t)(c == '{') << depth);
			depth++;
			q++;
			break;
		case B_CLOSE:
			depth--;
			if (depth < KIND_BITS && ((objects >> depth) & 1) != (uint64_t)(c == '}'))
				return skip_bad(res, q, "mismatched closing bracket");
			q++;
			if (depth == 0) {
				res->end = q;
				return CSIM_SCAN_OK;
			}
			break;
		case B_QUOTE:
			rc = csim_json_skip_string(q, end, final, res);
			if (rc != CSIM_SCAN_OK)
				return rc;
			q = res->end;
			break;
		case B_WS:
		case B_PUNCT:
		case B_SCALAR:
			q++;
			break;
		default:
			return skip_bad(res, q, "unexpected byte outside a string");
		}
	}
	return skip_short(res, q, final);
}

static const char *skip_ws(const char *q, const char *end)
{
	while (q < end && byte_class[(unsigned char)*q] == B_WS)
		q++;
	return q;
}

int csim_json_skip_array(const char *p, const char *end, int final,
			 struct csim_span *span, size_t max, size_t *count,
			 struct csim_scan_result *res)
{
	const char *q = skip_ws(p + 1, end);
	size_t n = 0;

	if (q < end && *q == ']') {
		*count = 0;
		res->end = q + 1;
		return CSIM_SCAN_OK;
	}
	/* One element a turn, q at its first byte; scalars (the bulk of the
	   metrics arrays) are skipped in line. */
	for (;;) {
		const char *v = q;
		int rc = CSIM_SCAN_OK;

		if (q >= end)
			return skip_short(res, q, final);
		switch (byte_class[(unsigned char)*q]) {
		case B_SCALAR:
			while (q < end && byte_class[(unsigned char)*q] == B_SCALAR)
				q++;
			break;
		case B_QUOTE:
			rc = csim_json_skip_string(q, end, final, res);
			q = res->end;
			break;
		case B_OPEN:
			rc = skip_container(q, end, final, res);
			q = res->end;
			break;
		default:
			return skip_bad(res, q, "expected a JSON value");
		}
		if (rc != CSIM_SCAN_OK)
			return rc;
		if (n < max)
			span[n] = csim_span_of(v, (size_t)(q - v));
		n++;
		q = skip_ws(q, end);
		if (q >= end)
			return skip_short(res, q, final);
		if (*q == ']') {
			*count = n;
			res->end = q + 1;
			return CSIM_SCAN_OK;
		}
		if (*q != ',')
			return skip_bad(res, q, "expected ',' or ']' in array");
		q = skip_ws(q + 1, end);
	}
}

int csim_json_skip_value(const char *p, const char *end, int final,
			 struct csim_scan_result *res)
{
	p = csim_json_skip_ws(p, end);
	if (p >= end)
		return skip_short(res, p, final);
	if (*p == '"')
		return csim_json_skip_string(p, end, final, res);
	if (*p == '[' || *p == '{')
		return skip_container(p, end, final, res);
	return skip_scalar(p, end, final, res);
}

void csim_json_skip_iter_init(struct csim_json_skip_iter *it, const char *p,
			      const char *end, int final)
{
	it->p = p + 1;
	it->end = end;
	it->final = final;
	it->close = *p == '{' ? '}' : ']';
	it->started = 0;
}

int csim_json_skip_head(struct csim_json_skip_iter *it, struct csim_span *key,
			int *has, struct csim_scan_result *res)
{
	const char *q = csim_json_skip_ws(it->p, it->end), *end = it->end;
	int rc;

	*has = 0;
	if (q >= end)
		return skip_short(res, q, it->final);
	if (*q == it->close) {
		res->end = it->p = q + 1;
		return CSIM_SCAN_OK;
	}
	if (it->started) {
		if (*q != ',')
			return skip_bad(res, q, "expected ',' or a closing bracket");
		q = csim_json_skip_ws(q + 1, end);
		if (q >= end)
			return skip_short(res, q, it->final);
	}
	if (it->close == '}') {
		if (*q != '"')
			return skip_bad(res, q, "expected a string key");
		rc = csim_json_skip_string(q, end, it->final, res);
		if (rc != CSIM_SCAN_OK)
			return rc;
		*key = csim_span_of(q + 1, (size_t)(res->end - q - 2));
		q = csim_json_skip_ws(res->end, end);
		if (q < end && *q != ':')
			return skip_bad(res, q, "expected ':' after key");
		if (q < end)
			q = csim_json_skip_ws(q + 1, end);
		if (q >= end)
			return skip_short(res, q, it->final);
	}
	it->p = q;
	it->started = 1;
	*has = 1;
	return CSIM_SCAN_OK;
}

int csim_json_skip_next(struct csim_json_skip_iter *it, struct csim_span *key,
			struct csim_span *value, int *has, struct csim_scan_result *res)
{
	struct csim_json_skip_iter before = *it;
	int rc = csim_json_skip_head(it, key, has, res);

	if (rc != CSIM_SCAN_OK || !*has)
		return rc;
	rc = csim_json_skip_value(it->p, it->end, it->final, res);
	if (rc != CSIM_SCAN_OK) {
		*it = before;
		*has = 0;
		return rc;
	}
	*value = csim_span_of(it->p, (size_t)(res->end - it->p));
	it->p = res->end;
	return CSIM_SCAN_OK;
}
