#include "model/summary_waits.h"

#include "base/array_grow.h"
#include "model/cut.h"

const struct csim_pass_def csim_pass_waits_def = {
	csim_pass_waits, CSIM_PART_FLAGS, CSIM_PART_WAITS
};

struct csim_interval csim_item_make(uint32_t pid, uint32_t pipe, enum csim_item_what what,
				    uint32_t producer, int64_t start, int64_t end)
{
	uint64_t prod = producer == CSIM_NONE ? 0 : (uint64_t)producer + 1;

	return (struct csim_interval){ (uint64_t)pid << 32 | pipe,
				       (uint64_t)what << 32 | prod,
				       start, end > start ? end : start };
}

/* A WAIT flag's item: by its producer, or a cross-core wait. */
static void take_flag(struct csim_model *m, const struct csim_flag *f)
{
	const struct csim_table *t = &m->table;
	const struct csim_window *win = &m->cut.window;
	uint32_t producer = f->detail != CSIM_NONE ? t->details[f->detail].producer : CSIM_NONE;
	int64_t f_begin = csim_flag_begin(f);
	int64_t begin = csim_window_clamp(win, f_begin), end = csim_window_clamp(win, f->end);

	if (f->kind != CSIM_SYNC_WAIT ||
	    !csim_window_meets(win, f_begin, f->end > f_begin ? f->end : f_begin))
		return;
	if (f->intra)
		m->waits[m->nwaits++] = csim_item_make(f->pid, CSIM_ITEM_CROSS_PIPE, CSIM_ITEM_CROSS,
						       CSIM_NONE, begin, end);
	else
		m->waits[m->nwaits++] = csim_item_make(f->pid, f->pipe, CSIM_ITEM_WAIT_BY, producer,
						       begin, end);
}

int csim_pass_waits(struct csim_model *m, struct csim_error *err)
{
	const struct csim_table *t = &m->table;
	const struct csim_window *win = &m->cut.window;
	size_t n = 0;

	m->nwaits = 0;
	for (size_t i = 0; i < m->nflags; i++)
		n += m->flags[i].kind == CSIM_SYNC_WAIT;
	for (size_t i = 0; i < t->nslices; i++)
		n += t->slices[i].kind == CSIM_SLICE_INTRA_WAIT;
	if (csim_array_grow((void **)&m->waits, &m->waits_cap, n + 1, sizeof(*m->waits)) != 0)
		return csim_error_nomem(err, CSIM_E_INPUT);
	for (size_t i = 0; i < t->nslices; i++) {
		const struct csim_slice *sl = &t->slices[i];

		if (sl->kind == CSIM_SLICE_INTRA_WAIT && csim_window_meets(win, sl->start, sl->end))
			m->waits[m->nwaits++] = csim_item_make(sl->pid, CSIM_ITEM_CROSS_PIPE,
							       CSIM_ITEM_CROSS, CSIM_NONE,
							       csim_window_clamp(win, sl->start),
							       csim_window_clamp(win, sl->end));
	}
	/* in flag order: each run comes out of the grouping nearly sorted */
	for (size_t i = 0; i < m->nflags; i++)
		take_flag(m, &m->flags[i]);
	if (csim_interval_group(m->waits, m->nwaits, t->pids.count, t->pipes.count) != 0)
		return csim_error_nomem(err, CSIM_E_INPUT);
	return CSIM_OK;
}
