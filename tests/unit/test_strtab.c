/*
 * strtab: interning gives dense, stable ids in both uses; strings are byte
 * strings (empty, embedded NULs) and survive table growth.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "base/strtab.h"

/* The id a string already had, or CSIM_NONE when interning it added it. */
static uint32_t id_of(struct csim_strtab *t, const char *p, size_t n)
{
	size_t before = t->count;
	uint32_t id = 0;

	if (csim_strtab_intern(t, p, n, &id) != 0)
		return CSIM_NONE - 1;
	return t->count == before ? id : CSIM_NONE;
}

static void test_intern_gives_dense_stable_ids(struct check_ctx *c, enum csim_strtab_use use)
{
	struct csim_strtab t;
	uint32_t a = 99, b = 99, a2 = 99;
	size_t n = 0;
	const char *p;

	csim_strtab_init(&t, use);
	CHECK_I64(c, csim_strtab_intern(&t, "VECTOR", 6, &a), 0);
	CHECK_I64(c, csim_strtab_intern(&t, "MTE2", 4, &b), 0);
	CHECK_I64(c, csim_strtab_intern(&t, "VECTOR", 6, &a2), 0);
	CHECK_U64(c, a, 0);
	CHECK_U64(c, b, 1);
	CHECK_U64(c, a2, a);
	CHECK_U64(c, t.count, 2);
	p = csim_strtab_get(&t, a, &n);
	CHECK_MEM(c, p, n, "VECTOR");
	p = csim_strtab_get(&t, b, &n);
	CHECK_MEM(c, p, n, "MTE2");
	/* Stored strings are NUL-terminated copies, not the caller's bytes. */
	CHECK_STR(c, csim_strtab_get(&t, b, NULL), "MTE2");
	csim_strtab_release(&t);
}

static void test_prefixes_and_lengths_are_distinct(struct check_ctx *c, enum csim_strtab_use use)
{
	struct csim_strtab t;
	const char *s = "core10.veccore1", *got;
	uint32_t ids[4];
	size_t n = 0;

	csim_strtab_init(&t, use);
	CHECK_I64(c, csim_strtab_intern(&t, s, 5, &ids[0]), 0);    /* core1 */
	CHECK_I64(c, csim_strtab_intern(&t, s, 6, &ids[1]), 0);    /* core10 */
	CHECK_I64(c, csim_strtab_intern(&t, s, 15, &ids[2]), 0);
	CHECK_I64(c, csim_strtab_intern(&t, "Core1", 5, &ids[3]), 0);
	CHECK_U64(c, t.count, 4);
	CHECK(c, ids[0] != ids[1] && ids[1] != ids[2] && ids[0] != ids[3]);
	got = csim_strtab_get(&t, ids[1], &n);
	CHECK_MEM(c, got, n, "core10");
	CHECK_U64(c, id_of(&t, s, 5), ids[0]);
	CHECK_U64(c, id_of(&t, "core10.veccore1", 15), ids[2]);
	csim_strtab_release(&t);
}

static void test_empty_string_is_a_string(struct check_ctx *c, enum csim_strtab_use use)
{
	struct csim_strtab t;
	uint32_t e = 7, e2 = 7, x = 7;
	size_t n = 99;

	csim_strtab_init(&t, use);
	CHECK_I64(c, csim_strtab_intern(&t, "", 0, &e), 0);
	CHECK_I64(c, csim_strtab_intern(&t, "x", 1, &x), 0);
	CHECK_I64(c, csim_strtab_intern(&t, "x", 0, &e2), 0);
	CHECK_U64(c, e, 0);
	CHECK_U64(c, e2, e);
	CHECK(c, x != e);
	CHECK_STR(c, csim_strtab_get(&t, e, NULL), "");
	csim_strtab_get(&t, e, &n);
	CHECK_U64(c, n, 0);
	CHECK_U64(c, id_of(&t, "", 0), e);
	csim_strtab_release(&t);
}

static void test_strings_with_nul_bytes(struct check_ctx *c, enum csim_strtab_use use)
{
	struct csim_strtab t;
	uint32_t a = 0, b = 0, d = 0, again = 0;
	size_t n = 0;
	const char *p;

	csim_strtab_init(&t, use);
	CHECK_I64(c, csim_strtab_intern(&t, "a\0b", 3, &a), 0);
	CHECK_I64(c, csim_strtab_intern(&t, "a\0c", 3, &b), 0);
	CHECK_I64(c, csim_strtab_intern(&t, "a", 1, &d), 0);
	CHECK_I64(c, csim_strtab_intern(&t, "a\0b", 3, &again), 0);
	CHECK(c, a != b && a != d && b != d);
	CHECK_U64(c, again, a);
	p = csim_strtab_get(&t, a, &n);
	CHECK_BYTES(c, p, n, "a\0b", 3);
	p = csim_strtab_get(&t, b, &n);
	CHECK_BYTES(c, p, n, "a\0c", 3);
	CHECK_U64(c, id_of(&t, "a\0b", 3), a);
	CHECK_U64(c, id_of(&t, "a\0d", 3), CSIM_NONE);
	csim_strtab_release(&t);
}

static void test_hundred_thousand_strings_survive_growth(struct check_ctx *c, enum csim_strtab_use use)
{
	enum { N = 100000 };
	struct csim_strtab t;
	uint32_t id = 0;
	size_t bad = 0;
	char s[32];

	csim_strtab_init(&t, use);
	for (uint32_t i = 0; i < N; i++) {
		int n = snprintf(s, sizeof(s), "core%u.pipe%u", i, i * 7u);

		if (csim_strtab_intern(&t, s, (size_t)n, &id) != 0 || id != i)
			bad++;
	}
	CHECK_U64(c, bad, 0);
	CHECK_U64(c, t.count, N);
	/* Every string still maps to its id and back, in both directions. */
	for (uint32_t i = 0; i < N; i++) {
		int n = snprintf(s, sizeof(s), "core%u.pipe%u", i, i * 7u);
		size_t got_n = 0;
		const char *got = csim_strtab_get(&t, i, &got_n);

		if (id_of(&t, s, (size_t)n) != i || got_n != (size_t)n ||
		    memcmp(got, s, got_n) != 0)
			bad++;
		if (csim_strtab_intern(&t, s, (size_t)n, &id) != 0 || id != i)
			bad++;
	}
	CHECK_U64(c, bad, 0);
	CHECK_U64(c, t.count, N);
	CHECK_STR(c, csim_strtab_get(&t, 0, NULL), "core0.pipe0");
	CHECK_U64(c, id_of(&t, "core100000.pipe700000", 21), CSIM_NONE);
	csim_strtab_release(&t);
	CHECK(c, t.slots == NULL && t.count == 0);
}

/*
 * Strings are compared a word at a time from both ends: at every length
 * from 0 to 40, a string that differs from an interned one in any single
 * byte is another string, and each one, asked for again in runs and in
 * turn with others (the recent results move), keeps its id. Each string
 * sits in a buffer of exactly its length (the sanitizer build catches a
 * byte read past it).
 */
static void test_every_length_and_byte(struct check_ctx *c, enum csim_strtab_use use)
{
	struct csim_strtab t;
	char base[40];
	size_t bad = 0;

	for (size_t i = 0; i < sizeof(base); i++)
		base[i] = (char)('a' + i % 26);
	csim_strtab_init(&t, use);
	for (size_t n = 0; n <= sizeof(base); n++) {
		char *s = malloc(n + 1);
		uint32_t id = 0, first = 0;

		if (!CHECK(c, s != NULL))
			break;
		memcpy(s, base, n);
		if (csim_strtab_intern(&t, s, n, &first) != 0)
			bad++;
		for (size_t k = 0; k < n; k++) {
			uint32_t other = 0;

			s[k] = 'Z';
			if (csim_strtab_intern(&t, s, n, &other) != 0 || other == first)
				bad++;
			s[k] = base[k];
			/* the original again, after one other and then in a run */
			for (int r = 0; r < 2; r++)
				if (csim_strtab_intern(&t, s, n, &id) != 0 || id != first)
					bad++;
		}
		free(s);
	}
	/* 0..40 bytes once each, and one string per (length, byte) */
	CHECK_U64(c, t.count, 41 + 40 * 41 / 2);
	CHECK_U64(c, bad, 0);
	csim_strtab_release(&t);
}

/* Each test runs in both uses: the recent-results check must not change ids. */
#define BOTH_USES(c, fn) do { \
		(c)->test = #fn " (grouped)"; \
		fn((c), CSIM_STRTAB_GROUPED); \
		(c)->test = #fn " (scattered)"; \
		fn((c), CSIM_STRTAB_SCATTERED); \
	} while (0)

int main(void)
{
	struct check_ctx c = { 0, 0, NULL };

	BOTH_USES(&c, test_intern_gives_dense_stable_ids);
	BOTH_USES(&c, test_prefixes_and_lengths_are_distinct);
	BOTH_USES(&c, test_empty_string_is_a_string);
	BOTH_USES(&c, test_strings_with_nul_bytes);
	BOTH_USES(&c, test_hundred_thousand_strings_survive_growth);
	BOTH_USES(&c, test_every_length_and_byte);
	return check_done(&c);
}
