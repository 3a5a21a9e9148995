/*
 * check.h: a tiny header-only assertion helper for the unit tests.
 *
 * A struct check_ctx is passed to every test; each CHECK* macro records a
 * pass or a failure (printed as file:line, the running test and the failing
 * expression) and evaluates to 1 when the check held, so a test can stop
 * early with `if (!CHECK(c, p != NULL)) return;` (stop only after a failed
 * check, never on an unchecked error). check_done() prints "N passed, N
 * failed" and returns the process exit status; a run of no check fails.
 */
#ifndef CSIM_TEST_CHECK_H
#define CSIM_TEST_CHECK_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

struct check_ctx {
	unsigned passed;
	unsigned failed;
	const char *test;    /* name of the running test, for messages */
};

typedef void (*check_test_fn)(struct check_ctx *c);

static inline int check_record(struct check_ctx *c, int ok, const char *file,
			       int line, const char *expr)
{
	if (ok) {
		c->passed++;
		return 1;
	}
	c->failed++;
	fprintf(stderr, "%s:%d: %s: check failed: %s\n", file, line,
		c->test != NULL ? c->test : "?", expr);
	return 0;
}

/* Prints at most 200 bytes of p, escaping anything not printable ASCII. */
static inline void check_print_bytes(const char *label, const char *p, size_t n)
{
	size_t show = n < 200 ? n : 200;

	fprintf(stderr, "    %s (%zu bytes): \"", label, n);
	if (p == NULL)
		fputs("(null)", stderr);
	for (size_t i = 0; p != NULL && i < show; i++) {
		unsigned char ch = (unsigned char)p[i];

		if (ch >= 0x20 && ch < 0x7f && ch != '\\' && ch != '"')
			fputc(ch, stderr);
		else
			fprintf(stderr, "\\x%02x", ch);
	}
	fputs(show < n ? "\"...\n" : "\"\n", stderr);
}

static inline int check_u64(struct check_ctx *c, uint64_t a, uint64_t b,
			    const char *file, int line, const char *expr)
{
	if (!check_record(c, a == b, file, line, expr))
		fprintf(stderr, "    got %llu, expected %llu\n",
			(unsigned long long)a, (unsigned long long)b);
	return a == b;
}

static inline int check_i64(struct check_ctx *c, int64_t a, int64_t b,
			    const char *file, int line, const char *expr)
{
	if (!check_record(c, a == b, file, line, expr))
		fprintf(stderr, "    got %lld, expected %lld\n", (long long)a,
			(long long)b);
	return a == b;
}

static inline int check_mem(struct check_ctx *c, const char *a, size_t an,
			    const char *b, size_t bn, const char *file, int line,
			    const char *expr)
{
	int ok = an == bn && (an == 0 || (a != NULL && memcmp(a, b, an) == 0));

	if (!check_record(c, ok, file, line, expr)) {
		check_print_bytes("got", a, an);
		check_print_bytes("expected", b, bn);
	}
	return ok;
}

static inline int check_str(struct check_ctx *c, const char *a, const char *b,
			    const char *file, int line, const char *expr)
{
	if (a == NULL) {
		check_record(c, 0, file, line, expr);
		fprintf(stderr, "    got NULL\n");
		return 0;
	}
	return check_mem(c, a, strlen(a), b, strlen(b), file, line, expr);
}

static inline int check_contains(struct check_ctx *c, const char *hay,
				 const char *needle, const char *file, int line,
				 const char *expr)
{
	int ok = hay != NULL && strstr(hay, needle) != NULL;

	if (!check_record(c, ok, file, line, expr)) {
		check_print_bytes("text", hay, hay != NULL ? strlen(hay) : 0);
		check_print_bytes("lacks", needle, strlen(needle));
	}
	return ok;
}

#define CHECK(c, expr) \
	check_record((c), (expr) ? 1 : 0, __FILE__, __LINE__, #expr)
#define CHECK_U64(c, a, b) \
	check_u64((c), (uint64_t)(a), (uint64_t)(b), __FILE__, __LINE__, #a " == " #b)
#define CHECK_I64(c, a, b) \
	check_i64((c), (int64_t)(a), (int64_t)(b), __FILE__, __LINE__, #a " == " #b)
/* Bytes p[0..n) equal the bytes of string literal or C string s. */
#define CHECK_MEM(c, p, n, s) \
	check_mem((c), (p), (n), (s), strlen(s), __FILE__, __LINE__, \
		  #p "[0.." #n ") == " #s)
#define CHECK_BYTES(c, p, n, q, m) \
	check_mem((c), (p), (n), (q), (m), __FILE__, __LINE__, \
		  #p "[0.." #n ") == " #q "[0.." #m ")")
#define CHECK_STR(c, a, b) \
	check_str((c), (a), (b), __FILE__, __LINE__, #a " == " #b)
#define CHECK_CONTAINS(c, hay, needle) \
	check_contains((c), (hay), (needle), __FILE__, __LINE__, \
		       #hay " contains " #needle)

/* Runs one test under its own name. */
#define CHECK_RUN(c, fn) check_run((c), #fn, fn)

/* A test that recorded no check at all (it returned early on an unchecked
 * error) counts as a failure: it proved nothing. */
static inline void check_run(struct check_ctx *c, const char *name,
			     check_test_fn fn)
{
	unsigned before = c->failed, ran = c->passed + c->failed;

	c->test = name;
	fn(c);
	if (c->passed + c->failed == ran)
		check_record(c, 0, __FILE__, __LINE__, "the test ran at least one check");
	if (c->failed != before)
		fprintf(stderr, "FAIL %s\n", name);
	c->test = NULL;
}

static inline int check_done(const struct check_ctx *c)
{
	printf("%u passed, %u failed\n", c->passed, c->failed);
	return c->failed == 0 && c->passed > 0 ? 0 : 1;
}

#endif
