#include "model/timeline_bins.h"

#include <stdlib.h>

#include "base/array_grow.h"
#include "base/strtab.h"
#include "model/cut.h"

/* [s, e), offsets into the span, spread over one row's bins. */
static void spread(uint64_t *row, int64_t w, size_t n, int64_t s, int64_t e)
{
	for (size_t i = (size_t)(s / w); s < e && i < n; i++) {
		const int64_t end = (int64_t)(i + 1) * w;
		const int64_t hi = e < end ? e : end;

		row[i] += (uint64_t)(hi - s);
		s = hi;
	}
}

int csim_timeline_bins_build(struct csim_model *m, struct csim_error *err)
{
	struct csim_summary *s = &m->summary;
	struct csim_summary_timeline *tl = &s->timeline;
	const struct csim_summary_core *c;
	const size_t npipes = m->table.pipes.count;
	uint32_t *row_of;
	int64_t span;

	free(tl->busy);
	tl->busy = NULL;
	tl->bin_ns = 0;
	tl->nbins = tl->nrows = 0;
	if (s->ncores == 0)
		return CSIM_OK;
	c = &s->cores[s->slowest];
	span = c->last_ns - c->first_ns > 0 ? c->last_ns - c->first_ns : 1;
	tl->bin_ns = (span + CSIM_TIMELINE_BINS_MAX - 1) / CSIM_TIMELINE_BINS_MAX;
	tl->nbins = (size_t)((span + tl->bin_ns - 1) / tl->bin_ns);
	tl->nrows = c->npipes < CSIM_TIMELINE_PIPES_MAX ? c->npipes : CSIM_TIMELINE_PIPES_MAX;
	tl->busy = calloc(tl->nrows * tl->nbins + 1, sizeof(*tl->busy));
	row_of = csim_array_alloc(npipes ? npipes : 1, sizeof(*row_of));
	if (tl->busy == NULL || row_of == NULL) {
		free(row_of);
		return csim_error_nomem(err, CSIM_E_INPUT);
	}
	for (size_t id = 0; id < npipes; id++)
		row_of[id] = CSIM_NONE;
	for (size_t k = 0; k < tl->nrows; k++)
		row_of[s->pipes[c->pipe0 + k].pipe] = (uint32_t)k;
	for (size_t i = 0; i < m->table.nslices; i++) {
		const struct csim_slice *sl = &m->table.slices[i];
		int64_t a, b;

		if (sl->pid != c->pid || !csim_summary_counts_as_instruction(sl) ||
		    row_of[sl->pipe] == CSIM_NONE ||
		    !csim_window_meets(&m->cut.window, sl->start, sl->end))
			continue;
		a = sl->start - c->first_ns;
		b = (sl->end > sl->start ? sl->end : sl->start + 1) - c->first_ns;
		a = a < 0 ? 0 : a;
		b = b > span ? span : b;
		if (a >= span)   /* zero-length at the very end: its last ns */
			a = span - 1;
		if (b > a)
			spread(tl->busy + row_of[sl->pipe] * tl->nbins, tl->bin_ns, tl->nbins, a, b);
	}
	free(row_of);
	return CSIM_OK;
}
