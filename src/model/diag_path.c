#include "model/diag_path.h"

static int64_t busy_of(const struct csim_model *m, const struct csim_path_core *c, uint32_t pipe)
{
	for (size_t k = 0; k < c->nbusy; k++)
		if (m->path.busy[c->busy0 + k].pipe == pipe)
			return m->path.busy[c->busy0 + k].ns;
	return 0;
}

/* The flag's consumer names the vector family VECTOR; its lanes have their own names. */
static int same_unit(const struct csim_model *m, uint32_t a, uint32_t b)
{
	return a == b || (a < m->npipes && b < m->npipes && m->pipes[a].info->vector_family &&
			  m->pipes[b].info->vector_family);
}

static int64_t waits_into(const struct csim_model *m, const struct csim_path_core *c,
			  uint32_t pipe)
{
	int64_t ns = 0;

	for (size_t k = 0; k < c->nwait; k++)
		if (same_unit(m, m->path.waits[c->wait0 + k].consumer, pipe))
			ns += m->path.waits[c->wait0 + k].ns;
	return ns;
}

int csim_diag_path_ns(const struct csim_model *m, enum csim_diag_rule rule,
		      const struct csim_diag_at *at, int64_t *ns)
{
	const struct csim_path_core *c;
	uint32_t pipe;

	*ns = 0;
	if (at->core >= m->path.ncores || m->path.cores[at->core].nseg == 0)
		return 0;
	c = &m->path.cores[at->core];
	pipe = (uint32_t)csim_diag_at_num(at, CSIM_DIAG_FIG_PIPE);
	switch (rule) {
	case CSIM_DIAG_TRANSFER_BOUND:
	case CSIM_DIAG_VECTOR_SHAPE:
	case CSIM_DIAG_PATH_BOUND:
		*ns = busy_of(m, c, pipe);
		return 1;
	case CSIM_DIAG_SCALAR_BOUND:
		*ns = busy_of(m, c, pipe) + c->issue_ns;
		return 1;
	case CSIM_DIAG_SYNC_BOUND:
		*ns = waits_into(m, c, pipe);
		return 1;
	case CSIM_DIAG_CROSS_CORE:
		*ns = c->cross_ns;
		return 1;
	default:
		return 0;
	}
}
