#include "model/lane_rule.h"

const char *const csim_slice_drop_texts[CSIM_SDROP_COUNT] = {
	"SET/WAIT slices",
	"BAR slices",
	"cache_time/ccu_time slices",
	"CACHEMISS/FLOWCTRL/ALL slices",
	"SCALAR/SCALARLDST slices",
};

int csim_lane_rule_kind_drop(const struct csim_lane_rule *r, enum csim_slice_kind kind)
{
	if (kind == CSIM_SLICE_SYNC)
		return CSIM_SDROP_SYNC;
	if (kind == CSIM_SLICE_BAR)
		return CSIM_SDROP_BAR;
	if (kind == CSIM_SLICE_CACHE_CCU && !r->keep_cache_ccu)
		return CSIM_SDROP_CACHE_CCU;
	return -1;
}

int csim_lane_rule_pipe_drop(const struct csim_lane_rule *r, enum csim_pipe_class cls)
{
	if (cls == CSIM_PIPE_NOISE)
		return CSIM_SDROP_NOISE_LANE;
	if (cls == CSIM_PIPE_SCALAR && !r->keep_scalar)
		return CSIM_SDROP_SCALAR_LANE;
	return -1;
}

int csim_lane_rule_drop(const struct csim_lane_rule *r, enum csim_slice_kind kind,
			enum csim_pipe_class cls)
{
	int why = csim_lane_rule_kind_drop(r, kind);

	return why >= 0 ? why : csim_lane_rule_pipe_drop(r, cls);
}
