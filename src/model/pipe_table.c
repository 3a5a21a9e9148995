#include "model/pipe_table.h"

#include <string.h>

#include "base/span.h"

struct pipe_row {
	const char *name;
	struct csim_pipe_info info;
};

static const struct pipe_row pipe_rows[] = {
	{ "MTE2", { 0, "MTE2 (load GM->L1/UB)", "thread_state_iowait", CSIM_PIPE_PIPELINE } },
	{ "MTE1", { 1, "MTE1 (load L1->L0)", "thread_state_iowait", CSIM_PIPE_PIPELINE } },
	{ "CUBE", { 2, "CUBE (matmul)", "rail_response", CSIM_PIPE_PIPELINE } },
	{ "VECTOR", { 3, "VECTOR (compute)", "good", CSIM_PIPE_PIPELINE } },
	{ "FIXP", { 4, "FIXP (L0C->out)", "yellow", CSIM_PIPE_PIPELINE } },
	{ "MTE3", { 5, "MTE3 (store UB->GM)", "cq_build_passed", CSIM_PIPE_PIPELINE } },
	{ "SCALAR", { 6, "SCALAR (setup)", "grey", CSIM_PIPE_SCALAR } },
	{ "SCALARLDST", { 6, "SCALAR (setup)", "grey", CSIM_PIPE_SCALAR } },
	{ "CACHEMISS", { 99, NULL, "grey", CSIM_PIPE_NOISE } },
	{ "FLOWCTRL", { 99, NULL, "grey", CSIM_PIPE_NOISE } },
	{ "ALL", { 99, NULL, "grey", CSIM_PIPE_NOISE } },
};

static const struct csim_pipe_info pipe_other = { 99, NULL, "grey", CSIM_PIPE_OTHER };

const struct csim_pipe_info *csim_pipe_lookup(const char *name, size_t n)
{
	struct csim_span canon;

	canon.p = csim_pipe_canonical(name, n, &canon.n);
	for (size_t i = 0; i < sizeof(pipe_rows) / sizeof(pipe_rows[0]); i++)
		if (csim_span_eq(canon, pipe_rows[i].name))
			return &pipe_rows[i].info;
	return &pipe_other;
}

const char *csim_pipe_canonical(const char *name, size_t n, size_t *out_n)
{
	struct csim_span s = csim_span_of(name, n);

	if (csim_span_eq(s, "FIXPIPE")) {
		*out_n = 4;
		return "FIXP";
	}
	if (csim_span_eq(s, "VEC")) {
		*out_n = 6;
		return "VECTOR";
	}
	*out_n = n;
	return name;
}
