#include "model/diag_build.h"

#include <stdlib.h>
#include <string.h>

#include "base/array_grow.h"

int csim_diag_build_init(struct csim_diag_build *b, struct csim_diagnosis *d, size_t ncores)
{
	/* every rule on every core, and one entry more so no allocation is 0 bytes */
	const size_t cells = (size_t)CSIM_DIAG_RULE_COUNT * ncores + 1;

	memset(b, 0, sizeof(*b));
	b->d = d;
	b->ncores = ncores;
	d->lines = malloc(CSIM_DIAG_RULE_COUNT * sizeof(*d->lines));
	d->at = csim_array_alloc(cells, sizeof(*d->at));
	b->slot = csim_array_alloc(cells, sizeof(*b->slot));
	if (d->lines == NULL || d->at == NULL || b->slot == NULL) {
		free(d->lines);
		free(d->at);
		free(b->slot);
		memset(d, 0, sizeof(*d));
		b->slot = NULL;
		return -1;
	}
	for (size_t i = 0; i < cells; i++)
		b->slot[i] = SIZE_MAX;
	return 0;
}

void csim_diag_build_release(struct csim_diag_build *b)
{
	free(b->slot);
	b->slot = NULL;
}

void csim_diag_build_line(struct csim_diag_build *b, enum csim_diag_rule rule, size_t core)
{
	struct csim_diag *l = &b->d->lines[b->d->n++];

	memset(l, 0, sizeof(*l));
	l->rule = rule;
	l->core = core;
	l->at0 = b->d->nat;
	b->line = l;
	b->at = NULL;
}

void csim_diag_build_core(struct csim_diag_build *b, size_t core)
{
	struct csim_diag_at *at = &b->d->at[b->d->nat];

	memset(at, 0, sizeof(*at));
	at->core = core;
	b->slot[(size_t)b->line->rule * b->ncores + core] = b->d->nat++;
	b->line->nat++;
	b->at = at;
}

void csim_diag_build_own(struct csim_diag_build *b)
{
	b->at = NULL;
}

void csim_diag_build_end(struct csim_diag_build *b, int keep_empty)
{
	if (b->line->nat == 0 && !keep_empty)
		b->d->n--;
	b->line = NULL;
	b->at = NULL;
}

static void put(struct csim_diag_build *b, enum csim_diag_fig fig, int kind, int64_t v)
{
	if (b->at != NULL)
		csim_diag_build_add(b->at, fig, kind, v);
	else if (b->line->nnums < CSIM_DIAG_MAX_NUMS)
		b->line->nums[b->line->nnums++] = (struct csim_diag_num){ fig, kind, v };
}

void csim_diag_build_add(struct csim_diag_at *at, enum csim_diag_fig fig, int kind, int64_t v)
{
	if (at->nnums < CSIM_DIAG_MAX_NUMS)
		at->nums[at->nnums++] = (struct csim_diag_num){ fig, kind, v };
}

void csim_diag_build_int(struct csim_diag_build *b, enum csim_diag_fig fig, int64_t v)
{
	put(b, fig, CSIM_DIAG_INT, v);
}

void csim_diag_build_pipe(struct csim_diag_build *b, enum csim_diag_fig fig, uint32_t pipe)
{
	put(b, fig, CSIM_DIAG_PIPE, pipe);
}

void csim_diag_build_pid(struct csim_diag_build *b, enum csim_diag_fig fig, uint32_t pid)
{
	put(b, fig, CSIM_DIAG_PID, pid);
}

struct csim_diag_at *csim_diag_build_find(const struct csim_diag_build *b,
					  enum csim_diag_rule rule, size_t core)
{
	size_t i = b->slot[(size_t)rule * b->ncores + core];

	return i == SIZE_MAX ? NULL : &b->d->at[i];
}
