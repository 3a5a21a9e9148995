#include "read/json_scan.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#ifdef __SSE2__
#include <emmintrin.h>
#endif

enum { KIND_OBJECT = 1, KIND_ARRAY = 2 };

static int scan_bad(struct csim_scan_result *res, const char *where,
		    const char *why)
{
	res->where = where;
	res->why = why;
	return CSIM_SCAN_BAD;
}

/* The window ended inside a construct. */
static int scan_short(struct csim_scan_result *res, const char *where, int final)
{
	if (final)
		return scan_bad(res, where, "unexpected end of JSON text");
	return CSIM_SCAN_MORE;
}

void csim_json_stack_release(struct csim_json_stack *st)
{
	free(st->kinds);
	st->kinds = NULL;
	st->cap = 0;
	st->fixed = 0;
}

int csim_json_stack_fix(struct csim_json_stack *st, size_t depth)
{
	if (depth > st->cap) {
		unsigned char *k = realloc(st->kinds, depth);

		if (k == NULL)
			return -1;
		st->kinds = k;
		st->cap = depth;
	}
	st->fixed = 1;
	return 0;
}

/*
 * Called around every token. The producer writes no whitespace between
 * tokens, so one compare (every JSON whitespace byte is <= ' ') usually ends it.
 */
const char *csim_json_skip_ws(const char *p, const char *end)
{
	while (p < end && (unsigned char)*p <= ' ' &&
	       (*p == ' ' || *p == '\n' || *p == '\r' || *p == '\t'))
		p++;
	return p;
}

static int is_hex(char c)
{
	return (c >= '0' && c <= '9') || (c >= 'a' && c <= 'f') ||
	       (c >= 'A' && c <= 'F');
}

static unsigned hex4(const char *p)
{
	unsigned v = 0;

	for (int i = 0; i < 4; i++) {
		char c = p[i];
		unsigned d = c >= '0' && c <= '9' ? (unsigned)(c - '0')
			   : c >= 'a' && c <= 'f' ? (unsigned)(c - 'a' + 10)
			   : (unsigned)(c - 'A' + 10);

		v = v * 16 + d;
	}
	return v;
}

/* p at the 'u' of \uXXXX; the four hex digits are checked and decoded. */
static int scan_hex4(const char *p, const char *end, int final,
		     struct csim_scan_result *res, unsigned *cp)
{
	for (int i = 1; i <= 4; i++) {
		if (p + i >= end)
			return scan_short(res, p + i, final);
		if (!is_hex(p[i]))
			return scan_bad(res, p + i, "bad \\u escape in string");
	}
	*cp = hex4(p + 1);
	return CSIM_SCAN_OK;
}

/*
 * A \uD800-\uDBFF escape must be followed by a \uDC00-\uDFFF one, and a low
 * half cannot stand alone. The JSON grammar allows lone halves, but the
 * producer's JSON library (nlohmann), cJSON and jsoncpp (behind Perfetto's
 * JSON importer) reject them: passed through, the event would not load.
 */
static int scan_unicode_escape(const char *p, const char *end, int final,
			       struct csim_scan_result *res, const char **next)
{
	unsigned hi, lo;
	int rc = scan_hex4(p, end, final, res, &hi);

	if (rc != CSIM_SCAN_OK)
		return rc;
	if (hi >= 0xdc00 && hi <= 0xdfff)
		return scan_bad(res, p - 1, "unpaired UTF-16 surrogate escape in string");
	if (hi < 0xd800 || hi > 0xdbff) {
		*next = p + 5;
		return CSIM_SCAN_OK;
	}
	for (int i = 5; i <= 6; i++) {
		if (p + i >= end)
			return scan_short(res, p + i, final);
		if (p[i] != "\\u"[i - 5])
			return scan_bad(res, p - 1, "unpaired UTF-16 surrogate escape in string");
	}
	rc = scan_hex4(p + 6, end, final, res, &lo);
	if (rc != CSIM_SCAN_OK)
		return rc;
	if (lo < 0xdc00 || lo > 0xdfff)
		return scan_bad(res, p - 1, "unpaired UTF-16 surrogate escape in string");
	*next = p + 11;
	return CSIM_SCAN_OK;
}

static int scan_escape(const char *p, const char *end, int final,
		       struct csim_scan_result *res, const char **next)
{
	/* p is just past the backslash. */
	if (p >= end)
		return scan_short(res, p, final);
	switch (*p) {
	case '"': case '\\': case '/': case 'b': case 'f': case 'n': case 'r':
	case 't':
		*next = p + 1;
		return CSIM_SCAN_OK;
	case 'u':
		return scan_unicode_escape(p, end, final, res, next);
	default:
		return scan_bad(res, p, "bad escape in string");
	}
}

#define BYTES_1 0x0101010101010101ull
#define BYTES_80 0x8080808080808080ull

/*
 * Skips ordinary string bytes up to the first quote, backslash or control
 * character, eight bytes at a time (the classic "has a zero byte" / "has a
 * byte below n" word tests), the tail byte by byte. Strings are most of a
 * trace.
 */
static const char *string_plain_end(const char *q, const char *end)
{
#ifdef __SSE2__
	/* Sixteen bytes a step: equal to '"' or '\\', or at most 0x1f. */
	const __m128i vquote = _mm_set1_epi8('"'), vslash = _mm_set1_epi8('\\');
	const __m128i vctrl = _mm_set1_epi8(0x1f);

	while (end - q >= 16) {
		__m128i v = _mm_loadu_si128((const __m128i *)(const void *)q);
		__m128i hit = _mm_or_si128(
			_mm_or_si128(_mm_cmpeq_epi8(v, vquote), _mm_cmpeq_epi8(v, vslash)),
			_mm_cmpeq_epi8(_mm_min_epu8(v, vctrl), v));
		unsigned mask = (unsigned)_mm_movemask_epi8(hit);

		if (mask != 0)
			return q + __builtin_ctz(mask);
		q += 16;
	}
#endif
#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
	while (end - q >= 8) {
		uint64_t w, quote, slash, hit;

		memcpy(&w, q, sizeof(w));
		quote = w ^ (BYTES_1 * '"');
		slash = w ^ (BYTES_1 * '\\');
		hit = (((quote - BYTES_1) & ~quote) | ((slash - BYTES_1) & ~slash) |
		       ((w - BYTES_1 * 0x20) & ~w)) & BYTES_80;
		/* Borrows only run upwards, so the lowest flagged byte is exact. */
		if (hit != 0)
			return q + (__builtin_ctzll(hit) >> 3);
		q += 8;
	}
#endif
	while (q < end && (unsigned char)*q >= 0x20 && *q != '"' && *q != '\\')
		q++;
	return q;
}

int csim_json_scan_string(const char *p, const char *end, int final,
			  struct csim_scan_result *res, int *escaped)
{
	const char *q = p + 1;

	*escaped = 0;
	for (;;) {
		unsigned char c;

		q = string_plain_end(q, end);
		if (q >= end)
			return scan_short(res, q, final);
		c = (unsigned char)*q;
		if (c == '"') {
			res->end = q + 1;
			return CSIM_SCAN_OK;
		}
		if (c < 0x20)
			return scan_bad(res, q, "control character in string");
		*escaped = 1;
		{
			int rc = scan_escape(q + 1, end, final, res, &q);

			if (rc != CSIM_SCAN_OK)
				return rc;
		}
	}
}

/*
 * Timestamps and durations carry up to 17 significant digits: eight digits
 * a step (a byte is a digit when it is 0x30..0x39: its high nibble is 3 and
 * adding 6 does not carry into it), the tail byte by byte.
 */
static const char *skip_digits(const char *p, const char *end)
{
#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
	while (end - p >= 8) {
		uint64_t w, bad;

		memcpy(&w, p, sizeof(w));
		bad = ((w & (BYTES_1 * 0xf0)) ^ (BYTES_1 * 0x30)) |
		      (((w + BYTES_1 * 0x06) & (BYTES_1 * 0xf0)) ^ (BYTES_1 * 0x30));
		if (bad != 0)
			return p + (__builtin_ctzll(bad) >> 3);
		p += 8;
	}
#endif
	while (p < end && *p >= '0' && *p <= '9')
		p++;
	return p;
}

int csim_json_scan_number(const char *p, const char *end, int final,
			  struct csim_scan_result *res)
{
	const char *q = p;

	if (q < end && *q == '-')
		q++;
	if (q >= end)
		return scan_short(res, q, final);
	if (*q == '0') {
		q++;
	} else if (*q >= '1' && *q <= '9') {
		q = skip_digits(q, end);
	} else {
		return scan_bad(res, q, "bad number");
	}
	if (q < end && *q == '.') {
		const char *d = q + 1;

		q = skip_digits(d, end);
		if (q == d)
			return q >= end ? scan_short(res, q, final)
					: scan_bad(res, q, "bad number");
	}
	if (q < end && (*q == 'e' || *q == 'E')) {
		const char *d;

		q++;
		if (q < end && (*q == '+' || *q == '-'))
			q++;
		d = q;
		q = skip_digits(d, end);
		if (q == d)
			return q >= end ? scan_short(res, q, final)
					: scan_bad(res, q, "bad number");
	}
	/* A number touching the window's end may continue in the next read. */
	if (q >= end && !final)
		return CSIM_SCAN_MORE;
	res->end = q;
	return CSIM_SCAN_OK;
}

static int scan_literal(const char *p, const char *end, int final,
			struct csim_scan_result *res)
{
	static const char *const words[] = { "true", "false", "null" };
	const char *word = *p == 't' ? words[0] : *p == 'f' ? words[1] : words[2];
	size_t n = strlen(word);

	for (size_t i = 0; i < n; i++) {
		if (p + i >= end)
			return scan_short(res, p + i, final);
		if (p[i] != word[i])
			return scan_bad(res, p + i, "invalid literal");
	}
	res->end = p + n;
	return CSIM_SCAN_OK;
}

static int stack_push(struct csim_json_stack *st, size_t depth,
		      unsigned char kind)
{
	if (depth >= st->cap) {
		size_t cap = st->cap ? st->cap * 2 : 64;
		unsigned char *k = st->fixed ? NULL : realloc(st->kinds, cap);

		if (k == NULL)
			return -1;
		st->kinds = k;
		st->cap = cap;
	}
	st->kinds[depth] = kind;
	return 0;
}

/* A scalar (string, number, literal) at p. */
static int scan_scalar(const char *p, const char *end, int final,
		       struct csim_scan_result *res)
{
	int escaped;

	if (*p == '"')
		return csim_json_scan_string(p, end, final, res, &escaped);
	if (*p == '-' || (*p >= '0' && *p <= '9'))
		return csim_json_scan_number(p, end, final, res);
	if (*p == 't' || *p == 'f' || *p == 'n')
		return scan_literal(p, end, final, res);
	return scan_bad(res, p, "expected a JSON value");
}

int csim_json_scan_member_head(const char **pp, const char *end, int final,
			       struct csim_scan_result *res, struct csim_span *key,
			       int *escaped)
{
	const char *p = csim_json_skip_ws(*pp, end);
	int rc;

	if (p >= end)
		return scan_short(res, p, final);
	if (*p != '"')
		return scan_bad(res, p, "expected a string key");
	rc = csim_json_scan_string(p, end, final, res, escaped);
	if (rc != CSIM_SCAN_OK)
		return rc;
	*key = csim_span_of(p + 1, (size_t)(res->end - p - 2));
	p = csim_json_skip_ws(res->end, end);
	if (p >= end)
		return scan_short(res, p, final);
	if (*p != ':')
		return scan_bad(res, p, "expected ':' after key");
	*pp = p + 1;
	return CSIM_SCAN_OK;
}

int csim_json_scan_value(struct csim_json_stack *st, const char *p,
			 const char *end, int final, struct csim_scan_result *res)
{
	struct csim_span key;   /* not needed: validation only */
	size_t depth = 0;
	int escaped, rc;

	res->depth = 0;
	for (;;) {
		/* Expecting a value at p. */
		p = csim_json_skip_ws(p, end);
		if (p >= end)
			return scan_short(res, p, final);
		if (*p == '{' || *p == '[') {
			const char *q;
			unsigned char kind = *p == '{' ? KIND_OBJECT : KIND_ARRAY;

			if (stack_push(st, depth, kind) != 0)
				return CSIM_SCAN_NOMEM;
			depth++;
			if (depth > res->depth)
				res->depth = depth;
			q = csim_json_skip_ws(p + 1, end);
			if (q >= end)
				return scan_short(res, q, final);
			if ((kind == KIND_OBJECT && *q == '}') ||
			    (kind == KIND_ARRAY && *q == ']')) {
				depth--;
				p = q + 1;
			} else {
				p = q;
				if (kind == KIND_OBJECT) {
					rc = csim_json_scan_member_head(&p, end, final, res, &key, &escaped);
					if (rc != CSIM_SCAN_OK)
						return rc;
				}
				continue;
			}
		} else {
			rc = scan_scalar(p, end, final, res);
			if (rc != CSIM_SCAN_OK)
				return rc;
			p = res->end;
		}
		/* A value ended; close containers until one wants more. */
		for (;;) {
			unsigned char kind;

			if (depth == 0) {
				res->end = p;
				return CSIM_SCAN_OK;
			}
			kind = st->kinds[depth - 1];
			p = csim_json_skip_ws(p, end);
			if (p >= end)
				return scan_short(res, p, final);
			if (*p == ',') {
				p++;
				if (kind == KIND_OBJECT) {
					rc = csim_json_scan_member_head(&p, end, final, res, &key, &escaped);
					if (rc != CSIM_SCAN_OK)
						return rc;
				}
				break;
			}
			if ((kind == KIND_OBJECT && *p == '}') ||
			    (kind == KIND_ARRAY && *p == ']')) {
				depth--;
				p++;
				continue;
			}
			return scan_bad(res, p, kind == KIND_OBJECT
					? "expected ',' or '}' in object"
					: "expected ',' or ']' in array");
		}
	}
}

void csim_json_iter_init(struct csim_json_iter *it, struct csim_json_stack *st,
			 const char *p, const char *end, int final)
{
	it->stack = st;
	it->p = p + 1;
	it->end = end;
	it->final = final;
	it->close = *p == '{' ? '}' : ']';
	it->started = 0;
}

/*
 * Up to the next item's value: the separator and, in an object, the key and
 * its ':'. *pq is then at the value's first byte (whitespace skipped).
 */
static int iter_to_value(struct csim_json_iter *it, struct csim_json_item *item,
			 int *has, struct csim_scan_result *res, const char **pq)
{
	const char *q = csim_json_skip_ws(it->p, it->end);
	int rc;

	*has = 0;
	if (q >= it->end)
		return scan_short(res, q, it->final);
	if (*q == it->close) {
		res->end = it->p = q + 1;
		return CSIM_SCAN_OK;
	}
	if (it->started) {
		if (*q != ',')
			return scan_bad(res, q, it->close == '}'
					? "expected ',' or '}' in object"
					: "expected ',' or ']' in array");
		q++;
	}
	it->started = 1;
	if (it->close == '}') {
		rc = csim_json_scan_member_head(&q, it->end, it->final, res, &item->key,
				      &item->key_escaped);
		if (rc != CSIM_SCAN_OK)
			return rc;
	}
	*pq = csim_json_skip_ws(q, it->end);
	*has = 1;
	return CSIM_SCAN_OK;
}

int csim_json_iter_next(struct csim_json_iter *it, struct csim_json_item *item,
			int *has, struct csim_scan_result *res)
{
	const char *q = NULL;
	int rc = iter_to_value(it, item, has, res, &q);

	if (rc != CSIM_SCAN_OK || !*has)
		return rc;
	*has = 0;
	rc = csim_json_scan_value(it->stack, q, it->end, it->final, res);
	if (rc != CSIM_SCAN_OK)
		return rc;
	item->value = csim_span_of(q, (size_t)(res->end - q));
	item->depth = res->depth;
	it->p = res->end;
	*has = 1;
	return CSIM_SCAN_OK;
}

int csim_json_iter_head(struct csim_json_iter *it, struct csim_json_item *item,
			int *has, struct csim_scan_result *res)
{
	const char *q = NULL;
	int started = it->started;
	int rc = iter_to_value(it, item, has, res, &q);

	if (rc == CSIM_SCAN_OK && *has && q >= it->end) {
		*has = 0;
		rc = scan_short(res, q, it->final);
	}
	if (rc != CSIM_SCAN_OK) {
		it->started = started;
		return rc;
	}
	if (*has)
		it->p = q;
	return CSIM_SCAN_OK;
}

static size_t put_utf8(char *dst, unsigned cp)
{
	if (cp < 0x80) {
		dst[0] = (char)cp;
		return 1;
	}
	if (cp < 0x800) {
		dst[0] = (char)(0xC0 | (cp >> 6));
		dst[1] = (char)(0x80 | (cp & 0x3F));
		return 2;
	}
	if (cp < 0x10000) {
		dst[0] = (char)(0xE0 | (cp >> 12));
		dst[1] = (char)(0x80 | ((cp >> 6) & 0x3F));
		dst[2] = (char)(0x80 | (cp & 0x3F));
		return 3;
	}
	dst[0] = (char)(0xF0 | (cp >> 18));
	dst[1] = (char)(0x80 | ((cp >> 12) & 0x3F));
	dst[2] = (char)(0x80 | ((cp >> 6) & 0x3F));
	dst[3] = (char)(0x80 | (cp & 0x3F));
	return 4;
}

static char simple_escape(char c)
{
	switch (c) {
	case 'b': return '\b';
	case 'f': return '\f';
	case 'n': return '\n';
	case 'r': return '\r';
	case 't': return '\t';
	default: return c;
	}
}

size_t csim_json_unescape(const char *p, size_t n, char *dst)
{
	const char *end = p + n;
	size_t out = 0;

	while (p < end) {
		unsigned cp;

		if (*p != '\\') {
			dst[out++] = *p++;
			continue;
		}
		if (p[1] != 'u') {
			dst[out++] = simple_escape(p[1]);
			p += 2;
			continue;
		}
		cp = hex4(p + 2);
		p += 6;
		if (cp >= 0xD800 && cp <= 0xDBFF && end - p >= 6 && p[0] == '\\' &&
		    p[1] == 'u') {
			unsigned lo = hex4(p + 2);

			if (lo >= 0xDC00 && lo <= 0xDFFF) {
				cp = 0x10000 + ((cp - 0xD800) << 10) + (lo - 0xDC00);
				p += 6;
			}
		}
		out += put_utf8(dst + out, cp);
	}
	return out;
}
