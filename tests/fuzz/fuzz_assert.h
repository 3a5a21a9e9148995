/*
 * fuzz_assert.h: what every fuzz target asserts of an outcome, beside not
 * crashing. A violated assertion prints what was wrong and which input it
 * was, then calls abort(): libFuzzer keeps the input as a crash, and the
 * replay (replay_main.c) fails in ctest also without a sanitizer.
 *
 * Determinism is asserted through a trail: a target appends to it every
 * observable result of its work (codes, messages, bytes written, figures),
 * does the work a second time into a second trail, and the two must be
 * byte for byte the same.
 */
#ifndef CSIM_FUZZ_ASSERT_H
#define CSIM_FUZZ_ASSERT_H

#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/csim_error.h"
#include "fuzz_util.h"

/*
 * The input being run, as the replay driver names it. Weak: a libFuzzer
 * build has no driver of ours and names the input itself.
 */
const char *fuzz_input_name(void) __attribute__((weak));

/* Bit of an error code for the sets of codes a call may return. */
#define FUZZ_CODE(c) (1u << (c))

static inline _Noreturn void fuzz_fail(size_t size, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

static inline _Noreturn void fuzz_fail(size_t size, const char *fmt, ...)
{
	const char *name = fuzz_input_name != NULL ? fuzz_input_name() : NULL;
	va_list ap;

	fprintf(stderr, "fuzz assertion failed: input %s (%zu bytes): ",
		name != NULL ? name : "(unnamed)", size);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fputc('\n', stderr);
	fflush(stderr);
	abort();
}

/*
 * A call's result: CSIM_OK, or a code of `allowed` with err filled as
 * csim_error.h promises (the same code, a non-empty message). Out of
 * memory is never allowed: no input of a fuzz run or a replay can
 * exhaust memory honestly (libFuzzer's malloc limit and ASan stop an
 * oversized allocation before it could fail), so the message means an
 * allocation sized by an unchecked input field, or an input error
 * reported as a lack of memory.
 */
static inline void fuzz_expect(size_t size, const char *call, int rc,
			       const struct csim_error *err, unsigned allowed)
{
	if (rc == CSIM_OK)
		return;
	if (rc < 0 || rc > 31 || (allowed & FUZZ_CODE(rc)) == 0)
		fuzz_fail(size, "%s returned %d, not one of its codes (0x%x): %.200s", call, rc,
			  allowed, memchr(err->message, '\0', sizeof(err->message)) != NULL
					   ? err->message : "(message not terminated)");
	if (err->code != rc)
		fuzz_fail(size, "%s returned %d but its error holds code %d", call, rc, err->code);
	if (memchr(err->message, '\0', sizeof(err->message)) == NULL)
		fuzz_fail(size, "%s failed with an unterminated message", call);
	if (err->message[0] == '\0')
		fuzz_fail(size, "%s failed (%d) with an empty message", call, rc);
	if (csim_error_is_nomem(err))
		fuzz_fail(size, "%s failed (%d) with \"out of memory\"", call, rc);
}

struct fuzz_trail {
	char *p;
	size_t n, cap;
};

static inline void fuzz_trail_bytes(struct fuzz_trail *t, const void *p, size_t n)
{
	if (n > t->cap - t->n) {
		size_t cap = t->cap != 0 ? t->cap : 4096;
		char *q;

		while (n > cap - t->n)
			cap *= 2;
		q = realloc(t->p, cap);
		if (q == NULL)
			fuzz_fail(0, "the harness ran out of memory for a trail of %zu bytes", cap);
		t->p = q;
		t->cap = cap;
	}
	if (n > 0)
		memcpy(t->p + t->n, p, n);
	t->n += n;
}

/* Numbers in a fixed width and byte order, so a trail has no padding. */
static inline void fuzz_trail_u64(struct fuzz_trail *t, uint64_t v)
{
	unsigned char b[8];

	for (int i = 0; i < 8; i++)
		b[i] = (unsigned char)(v >> (8 * i));
	fuzz_trail_bytes(t, b, sizeof(b));
}

/* A text with its length first, so two texts never run into each other. */
static inline void fuzz_trail_text(struct fuzz_trail *t, const char *s, size_t n)
{
	fuzz_trail_u64(t, n);
	fuzz_trail_bytes(t, s, n);
}

/* A call's code and, when it failed, its message. */
static inline void fuzz_trail_result(struct fuzz_trail *t, int rc, const struct csim_error *err)
{
	fuzz_trail_u64(t, (uint64_t)(int64_t)rc);
	if (rc != CSIM_OK)
		fuzz_trail_text(t, err->message, strlen(err->message));
}

static inline void fuzz_trail_release(struct fuzz_trail *t)
{
	free(t->p);
	t->p = NULL;
	t->n = t->cap = 0;
}

/* Bytes around a trail's offset, escaped: a trail holds numbers as bytes. */
static inline void fuzz_trail_excerpt(char *dst, size_t cap, const struct fuzz_trail *t,
				      size_t at)
{
	const size_t from = at > 24 ? at - 24 : 0, to = t->n - at > 24 ? at + 24 : t->n;
	size_t k = 0;

	for (size_t i = from; i < to && k + 5 < cap; i++) {
		const unsigned char c = (unsigned char)t->p[i];

		if (i == at)
			dst[k++] = '|';
		if (c >= 0x20 && c < 0x7f && c != '\\')
			dst[k++] = (char)c;
		else
			k += (size_t)snprintf(dst + k, cap - k, "\\x%02x", c);
	}
	dst[k] = '\0';
}

/* The two runs' trails: byte for byte the same, or where they part. */
static inline void fuzz_trails_same(size_t size, const char *what, const struct fuzz_trail *a,
				    const struct fuzz_trail *b)
{
	char ea[256], eb[256];
	size_t i = 0;

	while (i < a->n && i < b->n && a->p[i] == b->p[i])
		i++;
	if (i == a->n && i == b->n)
		return;
	fuzz_trail_excerpt(ea, sizeof(ea), a, i);
	fuzz_trail_excerpt(eb, sizeof(eb), b, i);
	fuzz_fail(size, "%s differs on a second run: %zu and %zu bytes of results, parting "
		  "at byte %zu (marked |): \"%s\" against \"%s\"", what, a->n, b->n, i, ea, eb);
}

/*
 * Whether a target does its work a second time and compares. Not in a
 * sanitizer build: a second run finds no memory error the first did not,
 * and it doubled the longest replay of CI's ASan stage (convert: 43 s);
 * the replays of the Release build assert determinism on every input.
 */
#if defined(__SANITIZE_ADDRESS__) || defined(__SANITIZE_THREAD__)
#define FUZZ_SECOND_RUN 0
#elif defined(__has_feature)
#if __has_feature(address_sanitizer) || __has_feature(thread_sanitizer)
#define FUZZ_SECOND_RUN 0
#endif
#endif
#ifndef FUZZ_SECOND_RUN
#define FUZZ_SECOND_RUN 1
#endif

/* A target's work on the input at path, its outcome appended to t. */
typedef void fuzz_work_fn(const char *path, size_t size, struct fuzz_trail *t);

/* Does the work on one input twice (FUZZ_SECOND_RUN); fails unless both
   outcomes agree. */
static inline void fuzz_twice(const char *path, size_t size, const char *what,
			      fuzz_work_fn *work)
{
	struct fuzz_trail first = { NULL, 0, 0 }, second = { NULL, 0, 0 };

	work(path, size, &first);
	if (FUZZ_SECOND_RUN) {
		work(path, size, &second);
		fuzz_trails_same(size, what, &first, &second);
	}
	fuzz_trail_release(&first);
	fuzz_trail_release(&second);
}

/* fuzz_twice on the input's bytes as a memory file: a target that reads a file. */
static inline void fuzz_twice_on(const uint8_t *data, size_t size, const char *what,
				 fuzz_work_fn *work)
{
	struct fuzz_file f;

	if (fuzz_file_open(&f, data, size) != 0)
		fuzz_fail(size, "cannot make the memory file");
	fuzz_twice(f.path, size, what, work);
	fuzz_file_close(&f);
}

#endif
