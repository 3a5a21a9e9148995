#include "model/pipe_table.h"

#include <string.h>

#include "base/span.h"

struct pipe_row {
	const char *name;
	struct csim_pipe_info info;
};

static const struct pipe_row pipe_rows[] = {
	{ "MTE2", { 0, "MTE2 (load GM->L1/UB)", "thread_state_iowait", CSIM_PIPE_PIPELINE, 0, CSIM_VF_NONE } },
	{ "MTE1", { 1, "MTE1 (load L1->L0)", "thread_state_iowait", CSIM_PIPE_PIPELINE, 0, CSIM_VF_NONE } },
	{ "CUBE", { 2, "CUBE (matmul)", "rail_response", CSIM_PIPE_PIPELINE, 0, CSIM_VF_NONE } },
	{ "VECTOR", { 3, "VECTOR (compute)", "good", CSIM_PIPE_PIPELINE, 1, CSIM_VF_NONE } },
	/* Ascend950 runs vector work on RVEC* lanes, issued through PUSHQ. */
	{ "PUSHQ", { 4, "PUSHQ (vector function issue)", "good", CSIM_PIPE_PIPELINE, 1,
		     CSIM_VF_LAUNCH } },
	{ "RVECLD", { 5, "RVECLD (vector load)", "good", CSIM_PIPE_PIPELINE, 1,
		      CSIM_VF_MICRO_OP } },
	{ "RVECEX", { 6, "RVECEX (vector execute)", "good", CSIM_PIPE_PIPELINE, 1,
		      CSIM_VF_MICRO_OP } },
	{ "RVECLP", { 7, "RVECLP (vector loop)", "good", CSIM_PIPE_PIPELINE, 1,
		      CSIM_VF_MICRO_OP } },
	{ "RVECSU", { 8, "RVECSU (vector scalar unit)", "good", CSIM_PIPE_PIPELINE, 1,
		      CSIM_VF_MICRO_OP } },
	{ "RVECST", { 9, "RVECST (vector store)", "good", CSIM_PIPE_PIPELINE, 1,
		      CSIM_VF_MICRO_OP } },
	{ "FIXP", { 10, "FIXP (L0C->out)", "yellow", CSIM_PIPE_PIPELINE, 0, CSIM_VF_NONE } },
	{ "MTE3", { 11, "MTE3 (store UB->GM)", "cq_build_passed", CSIM_PIPE_PIPELINE, 0, CSIM_VF_NONE } },
	{ "INTRA_BLOCK", { 12, "cross-core sync", "bad", CSIM_PIPE_OTHER, 0, CSIM_VF_NONE } },
	{ "SCALAR", { 13, "SCALAR (setup)", "grey", CSIM_PIPE_SCALAR, 0, CSIM_VF_NONE } },
	{ "SCALARLDST", { 13, "SCALAR (setup)", "grey", CSIM_PIPE_SCALAR, 0, CSIM_VF_NONE } },
	{ "USERMARK", { 14, "USERMARK", "olive", CSIM_PIPE_OTHER, 0, CSIM_VF_NONE } },
	{ "CACHEMISS", { CSIM_PIPE_ORDER_OTHER, NULL, "grey", CSIM_PIPE_NOISE, 0, CSIM_VF_NONE } },
	{ "FLOWCTRL", { CSIM_PIPE_ORDER_OTHER, NULL, "grey", CSIM_PIPE_NOISE, 0, CSIM_VF_NONE } },
	{ "ALL", { CSIM_PIPE_ORDER_OTHER, NULL, "grey", CSIM_PIPE_NOISE, 0, CSIM_VF_NONE } },
};

/* SIMT warp lanes WARP_n follow USERMARK, by n (natural name order). */
static const struct csim_pipe_info pipe_warp = { 20, "SIMT warp", "generic_work",
						  CSIM_PIPE_OTHER, 0, CSIM_VF_NONE };

static const struct csim_pipe_info pipe_other = {
	CSIM_PIPE_ORDER_OTHER, NULL, "grey", CSIM_PIPE_OTHER, 0, CSIM_VF_NONE
};

/* An RVEC* lane not in the table is still vector work. */
static const struct csim_pipe_info pipe_rvec_other = {
	CSIM_PIPE_ORDER_OTHER, NULL, "good", CSIM_PIPE_OTHER, 1, CSIM_VF_MICRO_OP
};

static int is_warp(struct csim_span s)
{
	size_t i = 5;

	if (s.n <= 5 || memcmp(s.p, "WARP_", 5) != 0)
		return 0;
	while (i < s.n && s.p[i] >= '0' && s.p[i] <= '9')
		i++;
	return i == s.n;
}

int csim_pipe_is_cache_lane(const char *name, size_t n)
{
	size_t sn = sizeof(CSIM_PIPE_CACHE_SUFFIX) - 1;

	return n > sn && memcmp(name + n - sn, CSIM_PIPE_CACHE_SUFFIX, sn) == 0;
}

const struct csim_pipe_info *csim_pipe_lookup(const char *name, size_t n)
{
	struct csim_span canon;

	if (csim_pipe_is_cache_lane(name, n))
		n -= sizeof(CSIM_PIPE_CACHE_SUFFIX) - 1;
	canon.p = csim_pipe_canonical(name, n, &canon.n);
	for (size_t i = 0; i < sizeof(pipe_rows) / sizeof(pipe_rows[0]); i++)
		if (csim_span_eq(canon, pipe_rows[i].name))
			return &pipe_rows[i].info;
	if (is_warp(canon))
		return &pipe_warp;
	if (canon.n > 4 && memcmp(canon.p, "RVEC", 4) == 0)
		return &pipe_rvec_other;
	return &pipe_other;
}

const char *csim_pipe_label_number(const char *name, size_t n, size_t *len)
{
	if (!is_warp(csim_span_of(name, n))) {
		*len = 0;
		return NULL;
	}
	*len = n - 5;
	return name + 5;
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
