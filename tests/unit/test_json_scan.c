/*
 * json_scan: strings, numbers, literals, nested values and the window rules
 * (MORE when a construct is cut and more bytes may come, BAD when final).
 *
 * Every input is copied into a heap buffer of its exact length, so a read at
 * or past `end` is caught by AddressSanitizer.
 */
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "read/json_scan.h"

/* An exact-length heap copy of n bytes of s. */
struct win {
	char *p;
	size_t n;
};

static struct win win_make(const char *s, size_t n)
{
	struct win w = { malloc(n ? n : 1), n };

	if (w.p != NULL && n > 0)
		memcpy(w.p, s, n);
	return w;
}

enum scan_kind { K_STRING, K_NUMBER, K_VALUE };

/* Scans the first n bytes of s; *end_off is the end (OK) or where (BAD). */
static int scan_n(enum scan_kind kind, const char *s, size_t n, int final,
		  size_t *end_off, int *escaped)
{
	struct win w = win_make(s, n);
	struct csim_json_stack st = { NULL, 0, 0 };
	struct csim_scan_result res = { NULL, NULL, NULL, 0 };
	int esc = -1, rc;

	if (kind == K_STRING)
		rc = csim_json_scan_string(w.p, w.p + n, final, &res, &esc);
	else if (kind == K_NUMBER)
		rc = csim_json_scan_number(w.p, w.p + n, final, &res);
	else
		rc = csim_json_scan_value(&st, w.p, w.p + n, final, &res);
	if (end_off != NULL) {
		const char *at = rc == CSIM_SCAN_OK ? res.end : res.where;

		*end_off = rc == CSIM_SCAN_MORE || at == NULL ? (size_t)-1
							      : (size_t)(at - w.p);
	}
	if (rc == CSIM_SCAN_BAD && res.why == NULL)
		rc = -1;   /* BAD must always say why */
	if (escaped != NULL)
		*escaped = esc;
	csim_json_stack_release(&st);
	free(w.p);
	return rc;
}

static int scan_s(enum scan_kind kind, const char *s, int final, size_t *end_off)
{
	return scan_n(kind, s, strlen(s), final, end_off, NULL);
}

/* Unescapes the text between the quotes of the string literal s. */
static size_t unescape_lit(const char *s, char *out)
{
	size_t n = strlen(s);

	return csim_json_unescape(s + 1, n - 2, out);
}

static void test_string_plain_stops_after_closing_quote(struct check_ctx *c)
{
	size_t end;
	int esc;

	CHECK_I64(c, scan_n(K_STRING, "\"abc\",", 6, 1, &end, &esc), CSIM_SCAN_OK);
	CHECK_U64(c, end, 5);
	CHECK_I64(c, esc, 0);
	CHECK_I64(c, scan_n(K_STRING, "\"\"", 2, 0, &end, &esc), CSIM_SCAN_OK);
	CHECK_U64(c, end, 2);
	/* UTF-8 and DEL are plain string bytes. */
	CHECK_I64(c, scan_s(K_STRING, "\"\xce\xbc\x7f\"", 1, &end), CSIM_SCAN_OK);
	CHECK_U64(c, end, 5);
}

static void test_string_all_simple_escapes_decode(struct check_ctx *c)
{
	const char *lit = "\"q\\\"b\\\\s\\/B\\bF\\fN\\nR\\rT\\t\"";
	char out[64];
	size_t end, n;
	int esc;

	CHECK_I64(c, scan_n(K_STRING, lit, strlen(lit), 1, &end, &esc), CSIM_SCAN_OK);
	CHECK_U64(c, end, strlen(lit));
	CHECK_I64(c, esc, 1);
	n = unescape_lit(lit, out);
	CHECK_MEM(c, out, n, "q\"b\\s/B\bF\fN\nR\rT\t");
}

static void test_string_unicode_escapes_decode_to_utf8(struct check_ctx *c)
{
	char out[64];
	size_t n;

	n = unescape_lit("\"\\u0041\\u00e9\\u20AC\\u005f\"", out);
	CHECK_MEM(c, out, n, "A\xc3\xa9\xe2\x82\xac_");
	n = unescape_lit("\"\\u0000x\"", out);
	CHECK_BYTES(c, out, n, "\0x", 2);
	/* A surrogate pair, lower and upper case hex. */
	n = unescape_lit("\"\\ud83d\\ude00|\\uD83D\\uDE00\"", out);
	CHECK_MEM(c, out, n, "\xf0\x9f\x98\x80|\xf0\x9f\x98\x80");
	n = unescape_lit("\"\\uDBFF\\uDFFF\"", out);
	CHECK_MEM(c, out, n, "\xf4\x8f\xbf\xbf");
}

/*
 * The scanner rejects a lone surrogate half: it does not load in the
 * viewers, and unescape relies on never seeing one. The offset is the
 * half's backslash.
 */
static void test_string_unpaired_surrogate_escapes_are_bad(struct check_ctx *c)
{
	static const struct { const char *lit; size_t where; } bad[] = {
		{ "\"\\ud83d\"", 1 },              /* high at the end */
		{ "\"x\\ude00x\"", 2 },            /* low alone */
		{ "\"\\ud83dA\"", 1 },             /* high, plain byte */
		{ "\"\\ud83d\\u0041\"", 1 },       /* high, non-low */
		{ "\"\\ud800\\ud800\"", 1 },       /* two highs */
		{ "\"\\ud83d\\n\"", 1 },           /* high, other escape */
		{ "\"\\ud83d\\ude00\\udc00\"", 13 }, /* a pair, then a low */
	};

	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		size_t where = 0;

		if (!CHECK_I64(c, scan_s(K_STRING, bad[i].lit, 1, &where), CSIM_SCAN_BAD) ||
		    !CHECK_U64(c, where, bad[i].where))
			fprintf(stderr, "    literal %s\n", bad[i].lit);
	}
	CHECK_I64(c, scan_s(K_STRING, "\"\\uDBFF\\uDFFF\\ud7ff\\ue000\"", 1, NULL),
		  CSIM_SCAN_OK);
}

static void test_string_raw_control_char_is_bad(struct check_ctx *c)
{
	size_t where;

	CHECK_I64(c, scan_s(K_STRING, "\"a\x01z\"", 0, &where), CSIM_SCAN_BAD);
	CHECK_U64(c, where, 2);
	CHECK_I64(c, scan_s(K_STRING, "\"a\nb\"", 1, &where), CSIM_SCAN_BAD);
	CHECK_U64(c, where, 2);
	CHECK_I64(c, scan_s(K_STRING, "\"\t\"", 1, &where), CSIM_SCAN_BAD);
	CHECK_U64(c, where, 1);
	CHECK_I64(c, scan_n(K_STRING, "\"\0\"", 3, 1, &where, NULL), CSIM_SCAN_BAD);
	CHECK_U64(c, where, 1);
}

static void test_string_bad_escapes_are_bad(struct check_ctx *c)
{
	size_t where;

	CHECK_I64(c, scan_s(K_STRING, "\"\\x\"", 0, &where), CSIM_SCAN_BAD);
	CHECK_U64(c, where, 2);
	CHECK_I64(c, scan_s(K_STRING, "\"\\u12G4\"", 0, &where), CSIM_SCAN_BAD);
	CHECK_U64(c, where, 5);
	CHECK_I64(c, scan_s(K_STRING, "\"\\U0041\"", 1, NULL), CSIM_SCAN_BAD);
	CHECK_I64(c, scan_s(K_STRING, "\"\\'\"", 1, NULL), CSIM_SCAN_BAD);
}

/*
 * The window rule: text cut at any byte from `first` on is "more" while
 * bytes may follow and "bad" at the end; whole, it scans.
 */
static void check_cut_anywhere(struct check_ctx *c, enum scan_kind kind,
			       const char *text, size_t first)
{
	size_t n = strlen(text);

	for (size_t cut = first; cut < n; cut++) {
		int more = scan_n(kind, text, cut, 0, NULL, NULL);
		int bad = scan_n(kind, text, cut, 1, NULL, NULL);

		if (!CHECK_I64(c, more, CSIM_SCAN_MORE) ||
		    !CHECK_I64(c, bad, CSIM_SCAN_BAD)) {
			fprintf(stderr, "    cut at %zu\n", cut);
			return;
		}
	}
	CHECK_I64(c, scan_n(kind, text, n, 0, NULL, NULL), CSIM_SCAN_OK);
}

static void test_string_cut_anywhere_is_more_or_bad_when_final(struct check_ctx *c)
{
	check_cut_anywhere(c, K_STRING, "\"ab\\u00e9\\n\\\"\\ud83d\\ude00z\"", 1);
}

static void test_number_valid_forms(struct check_ctx *c)
{
	static const char *const nums[] = {
		"0", "-0", "1.5e-3", "1E+2", "123", "-12.25E-10", "0.10", "1e2",
		"4.0289998054504395", "9007199254740993", "0e0", "-0.0"
	};
	char buf[64];
	size_t end;

	for (size_t i = 0; i < sizeof(nums) / sizeof(nums[0]); i++) {
		size_t n = strlen(nums[i]);

		snprintf(buf, sizeof(buf), "%s,", nums[i]);
		if (!CHECK_I64(c, scan_s(K_NUMBER, buf, 0, &end), CSIM_SCAN_OK) ||
		    !CHECK_U64(c, end, n))
			fprintf(stderr, "    number %s\n", nums[i]);
		/* Alone and final it is complete too. */
		if (!CHECK_I64(c, scan_s(K_NUMBER, nums[i], 1, &end), CSIM_SCAN_OK) ||
		    !CHECK_U64(c, end, n))
			fprintf(stderr, "    number %s (final)\n", nums[i]);
	}
}

static void test_number_touching_window_end_wants_more(struct check_ctx *c)
{
	static const char *const nums[] = { "0", "-0", "12", "1.5", "1.5e-3", "1E+2" };

	for (size_t i = 0; i < sizeof(nums) / sizeof(nums[0]); i++)
		if (!CHECK_I64(c, scan_s(K_NUMBER, nums[i], 0, NULL), CSIM_SCAN_MORE))
			fprintf(stderr, "    number %s\n", nums[i]);
	/* Cut inside the number: MORE, and BAD once final. */
	CHECK_I64(c, scan_s(K_NUMBER, "-", 0, NULL), CSIM_SCAN_MORE);
	CHECK_I64(c, scan_s(K_NUMBER, "1.", 0, NULL), CSIM_SCAN_MORE);
	CHECK_I64(c, scan_s(K_NUMBER, "1e", 0, NULL), CSIM_SCAN_MORE);
	CHECK_I64(c, scan_s(K_NUMBER, "1e-", 0, NULL), CSIM_SCAN_MORE);
}

static void test_number_invalid_forms_are_bad(struct check_ctx *c)
{
	static const char *const bad_final[] = { "-", "1.", "1e", "1E+", "-." };
	static const char *const bad_any[] = {
		"+1", ".5", "-a", "1.x", "1ex", "1e+]", "-]", "x"
	};

	for (size_t i = 0; i < sizeof(bad_final) / sizeof(bad_final[0]); i++)
		if (!CHECK_I64(c, scan_s(K_NUMBER, bad_final[i], 1, NULL), CSIM_SCAN_BAD))
			fprintf(stderr, "    number %s\n", bad_final[i]);
	for (size_t i = 0; i < sizeof(bad_any) / sizeof(bad_any[0]); i++)
		if (!CHECK_I64(c, scan_s(K_NUMBER, bad_any[i], 0, NULL), CSIM_SCAN_BAD))
			fprintf(stderr, "    number %s\n", bad_any[i]);
}

static void test_number_leading_zero_is_bad_as_a_value(struct check_ctx *c)
{
	static const char *const bad[] = {
		"[01]", "[-01]", "[00]", "[-]", "[1.]", "[1e]", "[1.e5]", "[--1]"
	};
	size_t end;

	/* The number scanner stops after the 0; the caller sees the 1. */
	CHECK_I64(c, scan_s(K_NUMBER, "01", 1, &end), CSIM_SCAN_OK);
	CHECK_U64(c, end, 1);
	CHECK_I64(c, scan_s(K_VALUE, "[01]", 1, &end), CSIM_SCAN_BAD);
	CHECK_U64(c, end, 2);
	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++)
		if (!CHECK_I64(c, scan_s(K_VALUE, bad[i], 1, NULL), CSIM_SCAN_BAD))
			fprintf(stderr, "    value %s\n", bad[i]);
}

static void test_literals(struct check_ctx *c)
{
	size_t end;

	CHECK_I64(c, scan_s(K_VALUE, "true,", 0, &end), CSIM_SCAN_OK);
	CHECK_U64(c, end, 4);
	CHECK_I64(c, scan_s(K_VALUE, "false]", 0, &end), CSIM_SCAN_OK);
	CHECK_U64(c, end, 5);
	CHECK_I64(c, scan_s(K_VALUE, " null", 1, &end), CSIM_SCAN_OK);
	CHECK_U64(c, end, 5);
	CHECK_I64(c, scan_s(K_VALUE, "tru", 0, NULL), CSIM_SCAN_MORE);
	CHECK_I64(c, scan_s(K_VALUE, "tru", 1, NULL), CSIM_SCAN_BAD);
	CHECK_I64(c, scan_s(K_VALUE, "nul", 0, NULL), CSIM_SCAN_MORE);
	CHECK_I64(c, scan_s(K_VALUE, "trve", 0, &end), CSIM_SCAN_BAD);
	CHECK_U64(c, end, 2);
	CHECK_I64(c, scan_s(K_VALUE, "nulL", 0, NULL), CSIM_SCAN_BAD);
	CHECK_I64(c, scan_s(K_VALUE, "True", 0, NULL), CSIM_SCAN_BAD);
	CHECK_I64(c, scan_s(K_VALUE, "[fals]", 1, NULL), CSIM_SCAN_BAD);
	/* NaN-looking tokens some writers emit are not JSON. */
	static const char *const not_json[] = {
		"NaN", "nan", "Infinity", "-Infinity", "inf", "-nan", "0x10", "1_000"
	};
	for (size_t i = 0; i < sizeof(not_json) / sizeof(not_json[0]); i++) {
		char lit[32];

		snprintf(lit, sizeof(lit), "[%s]", not_json[i]);
		if (!CHECK_I64(c, scan_s(K_VALUE, lit, 1, NULL), CSIM_SCAN_BAD))
			fprintf(stderr, "    value %s\n", lit);
	}
}

static void test_nested_values(struct check_ctx *c)
{
	static const char *const good[] = {
		"[]", "{}", "[ ]", "{ }", "[[],{}]", "\"s\"", "-1.5",
		"{\"a\":[1,{\"b\":null}],\"c\":\"x\"}",
		" { \"a\" : [ 1 , { \"b\" : null } ] ,\n\t\"c\" :\r\"x\" } ",
		"[{\"k\\\"\":{\"\":[[[true]]]}},false]"
	};

	for (size_t i = 0; i < sizeof(good) / sizeof(good[0]); i++) {
		/* The end is right after the value, before trailing spaces. */
		size_t n = strlen(good[i]), want = n, end;

		while (want > 0 && good[i][want - 1] == ' ')
			want--;
		if (!CHECK_I64(c, scan_n(K_VALUE, good[i], n, 1, &end, NULL), CSIM_SCAN_OK) ||
		    !CHECK_U64(c, end, want))
			fprintf(stderr, "    value %s\n", good[i]);
	}
	/* A value followed by more text ends at its last byte. */
	CHECK_I64(c, scan_s(K_VALUE, "{\"a\":1}x", 1, NULL), CSIM_SCAN_OK);
}

static void test_mismatched_and_malformed_containers_are_bad(struct check_ctx *c)
{
	static const struct { const char *text; size_t where; } bad[] = {
		{ "[}", 1 }, { "{]", 1 }, { "[1}", 2 }, { "{\"a\":1]", 6 },
		{ "[[1]}", 4 }, { "{\"a\" 1}", 5 }, { "{1:2}", 1 },
		{ "[1,]", 3 }, { "{\"a\":1,}", 7 }, { "[1 2]", 3 }, { "{\"a\":}", 5 },
		{ "[,1]", 1 }, { "{,}", 1 }
	};
	size_t where;

	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		if (!CHECK_I64(c, scan_s(K_VALUE, bad[i].text, 0, &where), CSIM_SCAN_BAD) ||
		    !CHECK_U64(c, where, bad[i].where))
			fprintf(stderr, "    value %s\n", bad[i].text);
	}
}

static void test_value_cut_anywhere_is_more_or_bad_when_final(struct check_ctx *c)
{
	check_cut_anywhere(c, K_VALUE,
			   "{\"a\":[1,-2.5e3,\"x\\\"y\",true,null,{}],\"b\":false}", 0);
}

static void test_deep_nesting_is_iterative(struct check_ctx *c)
{
	enum { DEPTH = 100000 };
	char *text = malloc(DEPTH * 6 + 2);
	size_t end;
	size_t n = 0;

	if (!CHECK(c, text != NULL))
		return;
	memset(text, '[', DEPTH);
	memset(text + DEPTH, ']', DEPTH);
	CHECK_I64(c, scan_n(K_VALUE, text, 2 * DEPTH, 1, &end, NULL), CSIM_SCAN_OK);
	CHECK_U64(c, end, 2 * DEPTH);
	/* Unclosed: MORE while bytes may come, BAD at the end. */
	CHECK_I64(c, scan_n(K_VALUE, text, 2 * DEPTH - 1, 0, NULL, NULL), CSIM_SCAN_MORE);
	CHECK_I64(c, scan_n(K_VALUE, text, 2 * DEPTH - 1, 1, NULL, NULL), CSIM_SCAN_BAD);
	/* Closed by the wrong bracket at the innermost level. */
	text[DEPTH] = '}';
	CHECK_I64(c, scan_n(K_VALUE, text, 2 * DEPTH, 1, &end, NULL), CSIM_SCAN_BAD);
	CHECK_U64(c, end, DEPTH);
	/* Objects nested as deep: {"a":{"a":...1...}} */
	for (int i = 0; i < DEPTH; i++) {
		memcpy(text + n, "{\"a\":", 5);
		n += 5;
	}
	text[n++] = '1';
	memset(text + n, '}', DEPTH);
	n += DEPTH;
	CHECK_I64(c, scan_n(K_VALUE, text, n, 1, &end, NULL), CSIM_SCAN_OK);
	CHECK_U64(c, end, n);
	free(text);
}

static void test_stack_is_reused_and_released(struct check_ctx *c)
{
	struct csim_json_stack st = { NULL, 0, 0 };
	struct csim_scan_result res;
	const char *a = "[[[[1]]]]";
	const char *b = "{\"x\":[2]}";

	CHECK_I64(c, csim_json_scan_value(&st, a, a + strlen(a), 1, &res), CSIM_SCAN_OK);
	CHECK(c, res.end == a + strlen(a));
	CHECK_I64(c, csim_json_scan_value(&st, b, b + strlen(b), 1, &res), CSIM_SCAN_OK);
	CHECK(c, res.end == b + strlen(b));
	csim_json_stack_release(&st);
	CHECK(c, st.kinds == NULL);
	CHECK_U64(c, st.cap, 0);
	csim_json_stack_release(&st);   /* twice is harmless */
}

static void test_skip_ws(struct check_ctx *c)
{
	const char *s = " \t\r\n x";
	const char *v = "\v x";
	const char *e = "   ";

	CHECK(c, csim_json_skip_ws(s, s + strlen(s)) == s + 5);
	CHECK(c, csim_json_skip_ws(s, s + 2) == s + 2);       /* stops at end */
	CHECK(c, csim_json_skip_ws(v, v + strlen(v)) == v);   /* \v is not JSON ws */
	CHECK(c, csim_json_skip_ws(e, e + 3) == e + 3);
	CHECK(c, csim_json_skip_ws(e, e) == e);
	/* Whitespace only, or nothing: MORE or BAD, never OK. */
	CHECK_I64(c, scan_s(K_VALUE, "  \n", 0, NULL), CSIM_SCAN_MORE);
	CHECK_I64(c, scan_s(K_VALUE, "  \n", 1, NULL), CSIM_SCAN_BAD);
	CHECK_I64(c, scan_n(K_VALUE, "", 0, 1, NULL, NULL), CSIM_SCAN_BAD);
}

int main(void)
{
	struct check_ctx c = { 0, 0, NULL };

	CHECK_RUN(&c, test_string_plain_stops_after_closing_quote);
	CHECK_RUN(&c, test_string_all_simple_escapes_decode);
	CHECK_RUN(&c, test_string_unicode_escapes_decode_to_utf8);
	CHECK_RUN(&c, test_string_unpaired_surrogate_escapes_are_bad);
	CHECK_RUN(&c, test_string_raw_control_char_is_bad);
	CHECK_RUN(&c, test_string_bad_escapes_are_bad);
	CHECK_RUN(&c, test_string_cut_anywhere_is_more_or_bad_when_final);
	CHECK_RUN(&c, test_number_valid_forms);
	CHECK_RUN(&c, test_number_touching_window_end_wants_more);
	CHECK_RUN(&c, test_number_invalid_forms_are_bad);
	CHECK_RUN(&c, test_number_leading_zero_is_bad_as_a_value);
	CHECK_RUN(&c, test_literals);
	CHECK_RUN(&c, test_nested_values);
	CHECK_RUN(&c, test_mismatched_and_malformed_containers_are_bad);
	CHECK_RUN(&c, test_value_cut_anywhere_is_more_or_bad_when_final);
	CHECK_RUN(&c, test_deep_nesting_is_iterative);
	CHECK_RUN(&c, test_stack_is_reused_and_released);
	CHECK_RUN(&c, test_skip_ws);
	return check_done(&c);
}
