#include "model.h"

#include <stdlib.h>
#include <string.h>

void csim_model_init(struct csim_model *m, const struct csim_options *opt)
{
	memset(m, 0, sizeof(*m));
	csim_table_init(&m->table, opt->counters);
}

void csim_model_release(struct csim_model *m)
{
	csim_table_release(&m->table);
	free(m->pipe_info);
	free(m->pipe_dropped);
	free(m->lanes);
	free(m->arrows);
	free(m->processes);
	free(m->threads);
	memset(m, 0, sizeof(*m));
}

const char *csim_flag_skip_text(enum csim_flag_skip r)
{
	static const char *const text[CSIM_FSKIP_COUNT] = {
		"begin or end record missing",
		"no matching WAIT",
		"no matching SET",
		"no id and no detail to match by",
		"producer lane dropped",
		"consumer lane dropped",
		"no producer slice at or before the SET",
		"no consumer slice at or after the WAIT",
		"consumer slice starts before the producer slice",
	};

	return text[r];
}

const char *csim_slice_drop_text(enum csim_slice_drop r)
{
	static const char *const text[CSIM_SDROP_COUNT] = {
		"SET/WAIT slices",
		"BAR slices",
		"cache_time/ccu_time slices",
		"CACHEMISS/FLOWCTRL/ALL slices",
		"SCALAR/SCALARLDST slices",
	};

	return text[r];
}
