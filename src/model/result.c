#include "model/result.h"

#include <stdlib.h>
#include <string.h>

void csim_result_init(struct csim_result *r)
{
	memset(r, 0, sizeof(*r));
}

void csim_result_release(struct csim_result *r)
{
	for (size_t i = 0; i < r->nruns; i++) {
		free(r->runs[i].cores);
		free(r->runs[i].pipes);
		free(r->runs[i].instrs);
		free(r->runs[i].all);
		free(r->runs[i].lines);
		free(r->runs[i].diags);
		free(r->runs[i].estimates);
		free(r->runs[i].timeline.pipes);
		free(r->runs[i].timeline.busy);
	}
	free(r->runs);
	free(r->dumps);
	for (size_t i = 0; i < r->nheld; i++)
		free(r->held[i]);
	free(r->held);
	free(r->text);
	free(r->json);
	free(r->file);
	csim_result_init(r);
}

int csim_result_same(struct csim_span a, struct csim_span b)
{
	if (a.p == NULL || b.p == NULL)
		return a.p == b.p;
	return a.n == b.n && (a.n == 0 || memcmp(a.p, b.p, a.n) == 0);
}

size_t csim_result_core_find(const struct csim_result_run *run, struct csim_span s)
{
	for (size_t i = 0; i < run->ncores; i++)
		if (csim_result_same(run->cores[i].core, s))
			return i;
	return run->ncores;
}

size_t csim_result_pipe_find(const struct csim_result_run *run,
			     const struct csim_result_core *c, struct csim_span s)
{
	for (size_t i = 0; i < c->npipes; i++)
		if (csim_result_same(run->pipes[c->pipe0 + i].pipe, s))
			return i;
	return c->npipes;
}

size_t csim_result_dump_find(const struct csim_result *r, struct csim_span s)
{
	for (size_t i = 0; i < r->ndumps; i++)
		if (csim_result_same(r->dumps[i].dump, s))
			return i;
	return r->ndumps;
}

#define TOP_LEVEL "kernel_insight_all_funcs_"
#define RUN_LEVEL "OPPROF_"

static int starts(const char *p, size_t n, const char *prefix)
{
	const size_t k = strlen(prefix);

	return n >= k && memcmp(p, prefix, k) == 0;
}

/* The path after its last kernel_insight_all_funcs_* folder. */
static struct csim_span below_top(struct csim_span s)
{
	struct csim_span rest = s;
	size_t i = 0;

	while (i < s.n) {
		size_t j = i;

		while (j < s.n && s.p[j] != '/')
			j++;
		if (starts(s.p + i, j - i, TOP_LEVEL))
			rest = csim_span_of(s.p + (j < s.n ? j + 1 : j), s.n - (j < s.n ? j + 1 : j));
		i = j + 1;
	}
	return rest;
}

int csim_result_dump_same_place(struct csim_span a, struct csim_span b)
{
	size_t i = 0, j = 0;

	if (a.p == NULL || b.p == NULL)
		return 0;
	a = below_top(a);
	b = below_top(b);
	while (i < a.n && j < b.n) {
		size_t ie = i, je = j;

		while (ie < a.n && a.p[ie] != '/')
			ie++;
		while (je < b.n && b.p[je] != '/')
			je++;
		if (!(starts(a.p + i, ie - i, RUN_LEVEL) && starts(b.p + j, je - j, RUN_LEVEL)) &&
		    (ie - i != je - j || memcmp(a.p + i, b.p + j, ie - i) != 0))
			return 0;
		i = ie + 1;
		j = je + 1;
	}
	return i >= a.n && j >= b.n;
}
