#include "model/summary.h"

#include <stdlib.h>
#include <string.h>

int csim_summary_counts_as_instruction(const struct csim_slice *sl)
{
	return sl->kind == CSIM_SLICE_INSTR || sl->kind == CSIM_SLICE_INTRA_WAIT;
}

void csim_summary_release(struct csim_summary *s)
{
	free(s->cores);
	free(s->pipes);
	free(s->waits);
	free(s->timeline.busy);
	memset(s, 0, sizeof(*s));
}

void csim_diagnosis_release(struct csim_diagnosis *d)
{
	free(d->lines);
	free(d->at);
	memset(d, 0, sizeof(*d));
}

static const struct csim_diag_num *find_num(const struct csim_diag_num *nums, size_t n,
					    enum csim_diag_fig fig)
{
	for (size_t k = 0; k < n; k++)
		if (nums[k].fig == fig)
			return &nums[k];
	return NULL;
}

int64_t csim_diag_num(const struct csim_diag *d, enum csim_diag_fig fig)
{
	const struct csim_diag_num *v = find_num(d->nums, d->nnums, fig);

	return v != NULL ? v->v : 0;
}

int csim_diag_has(const struct csim_diag *d, enum csim_diag_fig fig)
{
	return find_num(d->nums, d->nnums, fig) != NULL;
}

int64_t csim_diag_at_num(const struct csim_diag_at *at, enum csim_diag_fig fig)
{
	const struct csim_diag_num *v = find_num(at->nums, at->nnums, fig);

	return v != NULL ? v->v : 0;
}

int csim_diag_at_has(const struct csim_diag_at *at, enum csim_diag_fig fig)
{
	return find_num(at->nums, at->nnums, fig) != NULL;
}
