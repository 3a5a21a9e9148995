/*
 * json_skip: the skipper that delimits already-validated JSON (the API_INSTR
 * rows' second and third readings). On valid text it must end every value
 * where json_scan ends it; on any other bytes (a file changed between the
 * readings) it must stay inside [p, end), answer MORE or BAD, and say why.
 *
 * Every input is copied into a heap buffer of its exact length, so a read at
 * or past `end` is caught by AddressSanitizer.
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "read/json_scan.h"
#include "read/json_skip.h"

enum skip_kind { K_STRING, K_VALUE, K_ARRAY };

/* A result as one number: the end's offset (OK), where (BAD), -1 (MORE). */
struct outcome {
	int rc;
	long at;
	size_t count;   /* K_ARRAY */
};

static struct outcome skip_n(enum skip_kind kind, const char *s, size_t n, int final)
{
	char *w = malloc(n ? n : 1);
	struct csim_scan_result res = { NULL, NULL, NULL, 0 };
	struct csim_span spans[4];
	struct outcome o = { -1, -1, 0 };

	if (w == NULL)
		return o;
	memcpy(w, s, n);
	if (kind == K_STRING)
		o.rc = csim_json_skip_string(w, w + n, final, &res);
	else if (kind == K_VALUE)
		o.rc = csim_json_skip_value(w, w + n, final, &res);
	else
		o.rc = csim_json_skip_array(w, w + n, final, spans, 4, &o.count, &res);
	if (o.rc == CSIM_SCAN_OK)
		o.at = res.end > w && res.end <= w + n ? (long)(res.end - w) : -2;
	else if (o.rc == CSIM_SCAN_BAD)
		o.at = res.why != NULL && res.where >= w && res.where <= w + n
		       ? (long)(res.where - w) : -2;
	free(w);
	return o;
}

static struct outcome skip_s(enum skip_kind kind, const char *s, int final)
{
	return skip_n(kind, s, strlen(s), final);
}

#define EXPECT(c, kind, s, final, want_rc, want_at)                         \
	do {                                                                \
		struct outcome o_ = skip_s(kind, s, final);                 \
		if (!CHECK_I64(c, o_.rc, want_rc) || !CHECK_I64(c, o_.at, want_at)) \
			fprintf(stderr, "    input: %s\n", s);              \
	} while (0)

static void test_strings_end_at_their_quote(struct check_ctx *c)
{
	EXPECT(c, K_STRING, "\"\"", 1, CSIM_SCAN_OK, 2);
	EXPECT(c, K_STRING, "\"ab\" tail", 1, CSIM_SCAN_OK, 4);
	EXPECT(c, K_STRING, "\"a\\\"b\"x", 1, CSIM_SCAN_OK, 6);
	EXPECT(c, K_STRING, "\"\\\\\"x", 1, CSIM_SCAN_OK, 4);
	EXPECT(c, K_STRING, "\"\\u00e9\\/\\b\\f\\n\\r\\t\"", 1, CSIM_SCAN_OK, 20);
	/* Past the sixteen- and eight-byte steps. */
	EXPECT(c, K_STRING, "\"0123456789abcdefghij\\\"klmnopqrstuvwxyz\\\\\"]", 1,
	       CSIM_SCAN_OK, 42);
	EXPECT(c, K_STRING, "\"0123456789abcdefghijklmnopqrstuvwxyz\"", 1, CSIM_SCAN_OK, 38);
	/* Cut off: MORE while more may come, BAD at the end. */
	EXPECT(c, K_STRING, "\"0123456789abcdefghijkl", 0, CSIM_SCAN_MORE, -1);
	EXPECT(c, K_STRING, "\"0123456789abcdefghijkl", 1, CSIM_SCAN_BAD, 23);
	EXPECT(c, K_STRING, "\"ab\\", 0, CSIM_SCAN_MORE, -1);
	EXPECT(c, K_STRING, "\"ab\\", 1, CSIM_SCAN_BAD, 4);
	EXPECT(c, K_STRING, "\"ab\\u12", 0, CSIM_SCAN_MORE, -1);
	EXPECT(c, K_STRING, "\"ab\\u12", 1, CSIM_SCAN_BAD, 7);
	/* Not what was validated. */
	EXPECT(c, K_STRING, "\"a\\qb\"", 1, CSIM_SCAN_BAD, 3);
	EXPECT(c, K_STRING, "\"a\\u12g4\"", 1, CSIM_SCAN_BAD, 6);
	EXPECT(c, K_STRING, "\"0123456789abcdefghij\nk\"", 1, CSIM_SCAN_BAD, 21);
	EXPECT(c, K_STRING, "\"a\x01\"", 1, CSIM_SCAN_BAD, 2);
}

static void test_containers_by_depth_outside_strings(struct check_ctx *c)
{
	EXPECT(c, K_VALUE, "[]", 1, CSIM_SCAN_OK, 2);
	EXPECT(c, K_VALUE, "  {} ,", 1, CSIM_SCAN_OK, 4);
	EXPECT(c, K_VALUE, "{\"a\":[1,{\"b\":\"]}\\\"[\"},[]],\"c\":null},9", 1, CSIM_SCAN_OK, 35);
	EXPECT(c, K_VALUE, "[[[1]],[[2,[\"}\"]]]]x", 1, CSIM_SCAN_OK, 19);
	EXPECT(c, K_VALUE, "-1.5e+3,", 1, CSIM_SCAN_OK, 7);
	EXPECT(c, K_VALUE, "true]", 1, CSIM_SCAN_OK, 4);
	EXPECT(c, K_VALUE, "12", 0, CSIM_SCAN_MORE, -1);   /* may go on */
	EXPECT(c, K_VALUE, "12", 1, CSIM_SCAN_OK, 2);
	EXPECT(c, K_VALUE, "[1,[2", 0, CSIM_SCAN_MORE, -1);
	EXPECT(c, K_VALUE, "[1,[2", 1, CSIM_SCAN_BAD, 5);
	EXPECT(c, K_VALUE, "[1,\"]", 1, CSIM_SCAN_BAD, 5);
	/* Wrong kinds of bracket, stray bytes, no value at all. */
	EXPECT(c, K_VALUE, "[1}", 1, CSIM_SCAN_BAD, 2);
	EXPECT(c, K_VALUE, "{\"a\":[1}]", 1, CSIM_SCAN_BAD, 7);
	EXPECT(c, K_VALUE, "[1,x]", 1, CSIM_SCAN_BAD, 3);
	EXPECT(c, K_VALUE, "[1,\x80]", 1, CSIM_SCAN_BAD, 3);
	EXPECT(c, K_VALUE, "]", 1, CSIM_SCAN_BAD, 0);
	EXPECT(c, K_VALUE, "", 1, CSIM_SCAN_BAD, 0);
	EXPECT(c, K_VALUE, "", 0, CSIM_SCAN_MORE, -1);
}

/* Deeper than the 64 remembered kinds: counted, and still bounded. */
static void test_deep_nesting(struct check_ctx *c)
{
	enum { DEPTH = 200 };
	char s[2 * DEPTH + 2];

	for (int i = 0; i < DEPTH; i++) {
		s[i] = i % 2 ? '[' : '{';
		s[2 * DEPTH - 1 - i] = i % 2 ? ']' : '}';
	}
	/* Not valid JSON ({ needs keys), but its brackets balance. */
	s[2 * DEPTH] = ',';
	s[2 * DEPTH + 1] = '\0';
	EXPECT(c, K_VALUE, s, 1, CSIM_SCAN_OK, 2 * DEPTH);
	s[2 * DEPTH - 1] = ']';   /* the outermost closes the wrong kind */
	EXPECT(c, K_VALUE, s, 1, CSIM_SCAN_BAD, 2 * DEPTH - 1);
	s[2 * DEPTH - 1] = '}';
	s[2 * DEPTH - 2] = '\0';   /* one left open */
	EXPECT(c, K_VALUE, s, 1, CSIM_SCAN_BAD, 2 * DEPTH - 2);
}

/* Valid JSON: the skipper ends every value where the validator does. */
static void test_agrees_with_json_scan(struct check_ctx *c)
{
	static const char *const valid[] = {
		"0", "-0.25e-7", "\"\"", "\"\\ud83d\\ude00 \\\"q\\\"\"", "null", "false",
		"[]", "[ 1 , 2 ,\n3 ]", "{\"k\":{\"l\":[{},[],\"\\\\\",{\"m\":null}]}}",
		"{ \"a\" : [ \"x\" , -1 , 2.5 , true ] , \"b\" : { } }",
		"[\"0123456789abcdef0123456789abcdef\\u0041\",[[[[[[[[]]]]]]]]]",
	};
	struct csim_json_stack st = { NULL, 0, 0 };

	for (size_t i = 0; i < sizeof(valid) / sizeof(valid[0]); i++) {
		size_t n = strlen(valid[i]);
		struct csim_scan_result res;
		struct outcome o = skip_n(K_VALUE, valid[i], n, 1);
		int rc = csim_json_scan_value(&st, valid[i], valid[i] + n, 1, &res);

		if (!CHECK_I64(c, rc, CSIM_SCAN_OK) || !CHECK_I64(c, o.rc, CSIM_SCAN_OK) ||
		    !CHECK_I64(c, o.at, (long)(res.end - valid[i])))
			fprintf(stderr, "    input: %s\n", valid[i]);
	}
	csim_json_stack_release(&st);
}

static void test_arrays_keep_the_first_spans(struct check_ctx *c)
{
	static const char s[] = "[ 1,\"a,]\" , [2,{\"x\":3}],-4.5e1 ,null]tail";
	const size_t n = sizeof(s) - 1;
	char *w = malloc(n);   /* exactly the text: a read past it is ASan's */
	struct csim_span span[3];
	struct csim_scan_result res;
	size_t count = 0;

	if (!CHECK(c, w != NULL))
		return;
	memcpy(w, s, n);
	/* gcc 12 without LTO reads the const one-past-the-end pointer as an
	 * uninitialized read (-Wmaybe-uninitialized); nothing reads there. */
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wmaybe-uninitialized"
	CHECK_I64(c, csim_json_skip_array(w, w + n, 1, span, 3, &count, &res),
		  CSIM_SCAN_OK);
#pragma GCC diagnostic pop
	CHECK_U64(c, count, 5);
	CHECK_I64(c, res.end - w, (long)n - 4);
	CHECK_MEM(c, span[0].p, span[0].n, "1");
	CHECK_MEM(c, span[1].p, span[1].n, "\"a,]\"");
	CHECK_MEM(c, span[2].p, span[2].n, "[2,{\"x\":3}]");
	free(w);
	EXPECT(c, K_ARRAY, "[]", 1, CSIM_SCAN_OK, 2);
	EXPECT(c, K_ARRAY, "[ ]", 1, CSIM_SCAN_OK, 3);
	EXPECT(c, K_ARRAY, "[1 2]", 1, CSIM_SCAN_BAD, 3);
	EXPECT(c, K_ARRAY, "[1,]", 1, CSIM_SCAN_BAD, 3);
	EXPECT(c, K_ARRAY, "[,1]", 1, CSIM_SCAN_BAD, 1);
	EXPECT(c, K_ARRAY, "[1,2}", 1, CSIM_SCAN_BAD, 4);
	EXPECT(c, K_ARRAY, "[1,2", 0, CSIM_SCAN_MORE, -1);
	EXPECT(c, K_ARRAY, "[1,2", 1, CSIM_SCAN_BAD, 4);
	EXPECT(c, K_ARRAY, "[1,2 ", 1, CSIM_SCAN_BAD, 5);
}

/* Walks an object's members; returns the status that stopped the walk. */
static int walk(const char *s, int final, char *keys, size_t keys_cap)
{
	size_t n = strlen(s), used = 0;
	char *w = malloc(n);
	struct csim_json_skip_iter it;
	struct csim_scan_result res;
	struct csim_span key, value;
	int has = 1, rc;

	if (w == NULL)
		return -1;
	memcpy(w, s, n);
	keys[0] = '\0';
	csim_json_skip_iter_init(&it, w, w + n, final);
	key = csim_span_of("", 0);   /* arrays leave it as it is */
	while ((rc = csim_json_skip_next(&it, &key, &value, &has, &res)) == CSIM_SCAN_OK &&
	       has && used + key.n + value.n + 3 < keys_cap) {
		memcpy(keys + used, key.p, key.n);
		used += key.n;
		keys[used++] = '=';
		memcpy(keys + used, value.p, value.n);
		used += value.n;
		keys[used++] = ';';
		keys[used] = '\0';
	}
	free(w);
	return rc;
}

static void test_iterator_checks_separators(struct check_ctx *c)
{
	char keys[128];

	CHECK_I64(c, walk("{ \"a\" : 1 ,\"b\\\"\":[2, 3], \"c\":{\"d\":\"}\"} }", 1, keys,
			  sizeof(keys)), CSIM_SCAN_OK);
	CHECK_STR(c, keys, "a=1;b\\\"=[2, 3];c={\"d\":\"}\"};");
	CHECK_I64(c, walk("{}", 1, keys, sizeof(keys)), CSIM_SCAN_OK);
	CHECK_STR(c, keys, "");
	CHECK_I64(c, walk("{\"a\" 1}", 1, keys, sizeof(keys)), CSIM_SCAN_BAD);
	CHECK_I64(c, walk("{\"a\":1 \"b\":2}", 1, keys, sizeof(keys)), CSIM_SCAN_BAD);
	CHECK_STR(c, keys, "a=1;");
	CHECK_I64(c, walk("{1:2}", 1, keys, sizeof(keys)), CSIM_SCAN_BAD);
	CHECK_I64(c, walk("{\"a\":}", 1, keys, sizeof(keys)), CSIM_SCAN_BAD);
	CHECK_I64(c, walk("{\"a\":1,", 0, keys, sizeof(keys)), CSIM_SCAN_MORE);
	CHECK_I64(c, walk("{\"a\":1,", 1, keys, sizeof(keys)), CSIM_SCAN_BAD);
}

/* A MORE leaves the iterator where it was, to be retried on a longer text. */
static void test_iterator_retries_after_more(struct check_ctx *c)
{
	const char *s = "{\"a\":[1,2],\"bb\":\"xyz\"}";
	size_t n = strlen(s);
	char *w = malloc(n);
	struct csim_json_skip_iter it;
	struct csim_scan_result res;
	struct csim_span key, value;
	int has = 0;

	if (!CHECK(c, w != NULL))
		return;
	memcpy(w, s, n);
	csim_json_skip_iter_init(&it, w, w + 14, 0);   /* ends inside "bb" */
	CHECK_I64(c, csim_json_skip_next(&it, &key, &value, &has, &res), CSIM_SCAN_OK);
	CHECK_I64(c, csim_json_skip_next(&it, &key, &value, &has, &res), CSIM_SCAN_MORE);
	CHECK_I64(c, has, 0);
	it.end = w + n;
	it.final = 1;
	CHECK_I64(c, csim_json_skip_next(&it, &key, &value, &has, &res), CSIM_SCAN_OK);
	CHECK_MEM(c, key.p, key.n, "bb");
	CHECK_MEM(c, value.p, value.n, "\"xyz\"");
	CHECK_I64(c, csim_json_skip_next(&it, &key, &value, &has, &res), CSIM_SCAN_OK);
	CHECK_I64(c, has, 0);
	CHECK_I64(c, res.end - w, (long)n);
	free(w);
}

/*
 * Any bytes: random text over JSON's punctuation (and some bytes JSON has
 * no use for), every prefix, both finals, through every entry point. Each
 * answer must be OK inside the text, MORE, or BAD inside the text with a
 * reason; ASan watches the reads.
 */
static void test_any_bytes_stay_in_bounds(struct check_ctx *c)
{
	static const char alphabet[] = "[]{}\"\\,: u0a9e-.tfn\x01\x80\n";
	uint64_t x = 12345;
	char s[48];
	int bad = 0;

	for (int round = 0; round < 4000 && !bad; round++) {
		size_t n = (size_t)(round % 47) + 1;

		for (size_t i = 0; i < n; i++) {
			x = x * 6364136223846793005ull + 1442695040888963407ull;
			s[i] = alphabet[(x >> 33) % (sizeof(alphabet) - 1)];
		}
		s[0] = round % 3 == 0 ? '"' : round % 3 == 1 ? '[' : '{';
		for (int final = 0; final <= 1; final++) {
			struct outcome v = skip_n(K_VALUE, s, n, final);
			struct outcome str = skip_n(K_STRING, s, n, final);
			struct outcome arr = skip_n(K_ARRAY, s, n, final);
			char keys[64];
			char *z = malloc(n + 1);
			int wrc = -1;

			if (z != NULL) {
				memcpy(z, s, n);
				z[n] = '\0';   /* walk() copies strlen() bytes */
				wrc = s[0] == '"' ? CSIM_SCAN_OK : walk(z, final, keys, sizeof(keys));
				free(z);
			}
			bad |= v.at == -2 || str.at == -2 || arr.at == -2 || wrc < 0 ||
			       (s[0] == '[' && arr.rc == CSIM_SCAN_OK && v.rc != CSIM_SCAN_OK) ||
			       (final && (v.rc == CSIM_SCAN_MORE || str.rc == CSIM_SCAN_MORE ||
					  arr.rc == CSIM_SCAN_MORE));
		}
	}
	CHECK(c, !bad);
}

int main(void)
{
	struct check_ctx c = { 0, 0, NULL };

	CHECK_RUN(&c, test_strings_end_at_their_quote);
	CHECK_RUN(&c, test_containers_by_depth_outside_strings);
	CHECK_RUN(&c, test_deep_nesting);
	CHECK_RUN(&c, test_agrees_with_json_scan);
	CHECK_RUN(&c, test_arrays_keep_the_first_spans);
	CHECK_RUN(&c, test_iterator_checks_separators);
	CHECK_RUN(&c, test_iterator_retries_after_more);
	CHECK_RUN(&c, test_any_bytes_stay_in_bounds);
	return check_done(&c);
}
