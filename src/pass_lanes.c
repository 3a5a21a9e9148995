/*
 * Lane selection: decides which complete events stay as instruction slices.
 * Sync slices and BAR are always dropped (arrows replace them), scalar-head
 * companions unless --keep-cache-ccu, noise lanes always, and the scalar
 * lanes unless --keep-scalar.
 */
#include "model.h"

#include <stdlib.h>

static int slice_drop_reason(const struct csim_model *m,
			     const struct csim_slice *s,
			     const struct csim_options *opt)
{
	const struct csim_pipe_info *info = m->pipe_info[s->pipe];

	if (s->kind == CSIM_SLICE_SYNC)
		return CSIM_SDROP_SYNC;
	if (s->kind == CSIM_SLICE_BAR)
		return CSIM_SDROP_BAR;
	if (s->kind == CSIM_SLICE_CACHE_CCU && !opt->keep_cache_ccu)
		return CSIM_SDROP_CACHE_CCU;
	if (info->cls == CSIM_PIPE_NOISE)
		return CSIM_SDROP_NOISE_LANE;
	if (info->cls == CSIM_PIPE_SCALAR && !opt->keep_scalar)
		return CSIM_SDROP_SCALAR_LANE;
	return -1;
}

/* Looks every pipe name up once; later passes index by pipe id. */
static int describe_pipes(struct csim_model *m, const struct csim_options *opt,
			  struct csim_error *err)
{
	size_t n = m->table.pipes.count ? m->table.pipes.count : 1;

	free(m->pipe_info);
	free(m->pipe_dropped);
	m->pipe_info = malloc(n * sizeof(*m->pipe_info));
	m->pipe_dropped = malloc(n);
	if (m->pipe_info == NULL || m->pipe_dropped == NULL)
		return csim_error_nomem(err, CSIM_E_INPUT);
	for (uint32_t id = 0; id < m->table.pipes.count; id++) {
		size_t len;
		const char *name = csim_strtab_get(&m->table.pipes, id, &len);
		const struct csim_pipe_info *info = csim_pipe_lookup(name, len);

		m->pipe_info[id] = info;
		m->pipe_dropped[id] = info->cls == CSIM_PIPE_NOISE ||
				      (info->cls == CSIM_PIPE_SCALAR && !opt->keep_scalar);
	}
	return CSIM_OK;
}

int csim_pass_lanes(struct csim_model *m, const struct csim_options *opt,
		    struct csim_error *err)
{
	struct csim_table *t = &m->table;
	int rc = describe_pipes(m, opt, err);

	if (rc != CSIM_OK)
		return rc;
	m->kept_slices = 0;
	for (size_t i = 0; i < CSIM_SDROP_COUNT; i++)
		m->slice_drops[i] = 0;
	for (size_t i = 0; i < t->nslices; i++) {
		struct csim_slice *s = &t->slices[i];
		int why = slice_drop_reason(m, s, opt);

		s->kept = why < 0;
		if (why < 0)
			m->kept_slices++;
		else
			m->slice_drops[why]++;
	}
	return CSIM_OK;
}

int csim_pass_lane_dropped(const struct csim_model *m, uint32_t pipe)
{
	return m->pipe_dropped[pipe];
}
