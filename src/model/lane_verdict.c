#include "model/lane_verdict.h"

#include <stdlib.h>
#include <string.h>

#include "base/array_grow.h"
#include "model/pipe_table.h"

#define VERDICT_UNKNOWN (-2)

void csim_lane_verdict_init(struct csim_lane_verdict *v, const struct csim_lane_rule *rule)
{
	memset(v, 0, sizeof(*v));
	v->rule = *rule;
}

void csim_lane_verdict_release(struct csim_lane_verdict *v)
{
	free(v->pipe_drop);
	v->pipe_drop = NULL;
	v->cap = 0;
}

/* The pipe's drop reason as csim_model_classify_pipes() decides it. */
static int pipe_drop(struct csim_lane_verdict *v, const struct csim_table *t,
		     uint32_t pipe, int *why)
{
	size_t old = v->cap, len;
	const char *name;

	if (pipe >= v->cap) {
		if (csim_array_grow((void **)&v->pipe_drop, &v->cap, (size_t)pipe + 1,
				    sizeof(*v->pipe_drop)) != 0)
			return -1;
		memset(v->pipe_drop + old, VERDICT_UNKNOWN, v->cap - old);
	}
	if (v->pipe_drop[pipe] == VERDICT_UNKNOWN) {
		name = csim_strtab_get(&t->pipes, pipe, &len);
		v->pipe_drop[pipe] = (signed char)csim_lane_rule_pipe_drop(
			&v->rule, csim_pipe_lookup(name, len)->cls);
	}
	*why = v->pipe_drop[pipe];
	return 0;
}

int csim_lane_verdict_keeps(struct csim_lane_verdict *v, const struct csim_table *t,
			    const struct csim_slice *s, int *kept)
{
	int why = csim_lane_rule_kind_drop(&v->rule, (enum csim_slice_kind)s->kind);

	*kept = 1;
	if (why < 0 && pipe_drop(v, t, s->pipe, &why) != 0)
		return -1;
	*kept = why < 0;
	return 0;
}
