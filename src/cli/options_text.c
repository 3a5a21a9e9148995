#include "cli/options_text.h"

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/array_grow.h"

struct text {
	char *buf;
	size_t len, cap;
	int nomem;
};

static void put(struct text *t, const char *s, size_t n)
{
	if (t->nomem || csim_array_grow((void **)&t->buf, &t->cap, t->len + n + 1, 1) != 0) {
		t->nomem = 1;
		return;
	}
	memcpy(t->buf + t->len, s, n);
	t->len += n;
	t->buf[t->len] = '\0';
}

/* " WORD": a space before every word but the first. */
static void word(struct text *t, const char *s)
{
	if (t->len > 0)
		put(t, " ", 1);
	put(t, s, strlen(s));
}

/* A pattern as a shell reads it back: quoted unless every byte is plain. */
static void pattern(struct text *t, const char *p)
{
	const size_t n = strlen(p);

	if (n > 0 && strspn(p, "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz"
			       "0123456789._-/:,+@%=") == n) {
		put(t, " ", 1);
		put(t, p, n);
		return;
	}
	put(t, " '", 2);
	for (const char *q = p; *q != '\0'; q++) {
		if (*q == '\'')
			put(t, "'\\''", 4);
		else
			put(t, q, 1);
	}
	put(t, "'", 1);
}

/* A bound of --window in µs, as short as it is exact: 3, 2.5, 0.001. */
static void micros(struct text *t, int has, int64_t ns)
{
	char num[32];
	int n;

	if (!has)
		return;
	n = snprintf(num, sizeof(num), "%" PRId64 ".%03" PRId64, ns / 1000, ns % 1000);
	while (n > 0 && num[n - 1] == '0')
		n--;
	if (n > 0 && num[n - 1] == '.')
		n--;
	put(t, num, (size_t)n);
}

static void window(struct text *t, const struct csim_window *w)
{
	word(t, "--window ");
	micros(t, w->has_from, w->from_ns);
	put(t, ":", 1);
	micros(t, w->has_to, w->to_ns);
}

int csim_options_text(const struct csim_options *opt, char **text, struct csim_error *err)
{
	struct text t = { .buf = NULL };

	put(&t, "", 0);
	if (opt->keep_scalar)
		word(&t, "--keep-scalar");
	if (opt->keep_cache_ccu)
		word(&t, "--keep-cache-ccu");
	if (!opt->counters)
		word(&t, "--no-counters");
	for (size_t i = 0; i < opt->ncores; i++) {
		word(&t, "--core");
		pattern(&t, opt->cores[i]);
	}
	if (opt->window.has_from || opt->window.has_to)
		window(&t, &opt->window);
	if (t.nomem) {
		free(t.buf);
		return csim_error_nomem(err, CSIM_E_INPUT);
	}
	*text = t.buf;
	return CSIM_OK;
}
