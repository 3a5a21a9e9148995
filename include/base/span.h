/*
 * span: a byte string that is not NUL-terminated — a piece of the input, of
 * a decoded value or of an interned string — and its comparison with a C
 * string (usually a literal, whose length the compiler knows).
 */
#ifndef CSIM_SPAN_H
#define CSIM_SPAN_H

#include <stddef.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

struct csim_span {
	const char *p;   /* NULL when absent */
	size_t n;
};

static inline struct csim_span csim_span_of(const char *p, size_t n)
{
	struct csim_span s = { p, n };

	return s;
}

static inline int csim_span_eq(struct csim_span s, const char *str)
{
	size_t n = strlen(str);

	return s.n == n && (n == 0 || memcmp(s.p, str, n) == 0);
}

/* A NUL-terminated malloc'd copy, or NULL when out of memory. */
static inline char *csim_span_dup(struct csim_span s)
{
	char *d = malloc(s.n + 1);

	if (d != NULL) {
		if (s.n > 0)
			memcpy(d, s.p, s.n);
		d[s.n] = '\0';
	}
	return d;
}

/* ASCII case-insensitive, as the simulator's key=value texts need. */
static inline int csim_span_eq_nocase(struct csim_span s, const char *str)
{
	size_t n = strlen(str);

	return s.n == n && (n == 0 || strncasecmp(s.p, str, n) == 0);
}

#endif
