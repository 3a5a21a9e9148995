#include "model/pass_lanes.h"

#include <assert.h>

const struct csim_pass_def csim_pass_lanes_def = {
	csim_pass_lanes, CSIM_PART_PIPES, CSIM_PART_KEPT
};

static int slice_drop_reason(const struct csim_model *m,
			     const struct csim_slice *s)
{
	int why = csim_lane_rule_kind_drop(&m->rule, (enum csim_slice_kind)s->kind);

	return why >= 0 ? why : m->pipes[s->pipe].drop;
}

int csim_pass_lanes(struct csim_model *m, struct csim_error *err)
{
	struct csim_table *t = &m->table;

	(void)err;
	assert(m->npipes == t->pipes.count);
	m->kept_slices = 0;
	for (size_t i = 0; i < CSIM_SDROP_COUNT; i++)
		m->slice_drops[i] = t->unplaced_drops[i];
	for (size_t i = 0; i < t->nslices; i++) {
		struct csim_slice *s = &t->slices[i];
		int why = slice_drop_reason(m, s);

		s->kept = why < 0;
		if (why < 0)
			m->kept_slices++;
		else
			m->slice_drops[why]++;
	}
	return CSIM_OK;
}
