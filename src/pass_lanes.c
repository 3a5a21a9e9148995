/*
 * Lane selection: decides which complete events stay as instruction slices.
 * Sync slices and BAR are always dropped (arrows replace them), scalar-head
 * companions unless --keep-cache-ccu, noise lanes always, and the scalar
 * lanes unless --keep-scalar.
 */
#include "model.h"

#include "pipe_table.h"

static int slice_drop_reason(const struct csim_table *t,
			     const struct csim_slice *s,
			     const struct csim_options *opt)
{
	const struct csim_pipe_info *info;
	size_t n;
	const char *pipe;

	if (s->kind == CSIM_SLICE_SYNC)
		return CSIM_SDROP_SYNC;
	if (s->kind == CSIM_SLICE_BAR)
		return CSIM_SDROP_BAR;
	if (s->kind == CSIM_SLICE_CACHE_CCU && !opt->keep_cache_ccu)
		return CSIM_SDROP_CACHE_CCU;
	pipe = csim_strtab_get(&t->pipes, s->pipe, &n);
	info = csim_pipe_lookup(pipe, n);
	if (info->cls == CSIM_PIPE_NOISE)
		return CSIM_SDROP_NOISE_LANE;
	if (info->cls == CSIM_PIPE_SCALAR && !opt->keep_scalar)
		return CSIM_SDROP_SCALAR_LANE;
	return -1;
}

int csim_pass_lanes(struct csim_model *m, const struct csim_options *opt,
		    struct csim_error *err)
{
	struct csim_table *t = &m->table;

	(void)err;
	m->kept_slices = 0;
	for (size_t i = 0; i < CSIM_SDROP_COUNT; i++)
		m->slice_drops[i] = 0;
	for (size_t i = 0; i < t->nslices; i++) {
		struct csim_slice *s = &t->slices[i];
		int why = slice_drop_reason(t, s, opt);

		s->kept = why < 0;
		if (why < 0)
			m->kept_slices++;
		else
			m->slice_drops[why]++;
	}
	return CSIM_OK;
}

int csim_pass_lane_dropped(const struct csim_model *m, uint32_t pipe,
			   const struct csim_options *opt)
{
	size_t n;
	const char *name = csim_strtab_get(&m->table.pipes, pipe, &n);
	const struct csim_pipe_info *info = csim_pipe_lookup(name, n);

	return info->cls == CSIM_PIPE_NOISE ||
	       (info->cls == CSIM_PIPE_SCALAR && !opt->keep_scalar);
}
