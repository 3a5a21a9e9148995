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
		free(r->runs[i].lines);
		free(r->runs[i].diags);
		free(r->runs[i].estimates);
		free(r->runs[i].timeline.pipes);
		free(r->runs[i].timeline.busy);
	}
	free(r->runs);
	free(r->dumps);
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
