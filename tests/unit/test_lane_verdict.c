/*
 * lane_verdict: the reading side decides which rows the slice store records
 * before the lane pass runs. Its answer must be the lane pass's for every
 * kind, pipe class and rule, or the trace would lose kept slices (a row
 * kept but not recorded is never written).
 */
#include "check.h"
#include "modelutil.h"

#include "model/lane_verdict.h"

static const char *const pipes[] = {
	"MTE2", "MTE1", "CUBE", "VECTOR", "FIXP", "MTE3", "SCALAR", "SCALARLDST",
	"CACHEMISS", "FLOWCTRL", "ALL", "INTRA_BLOCK", "MTE2 cache", "SCALAR cache",
	"NOT_A_PIPE", "VEC", "PIPE_S"
};

static const enum csim_slice_kind kinds[] = {
	CSIM_SLICE_INSTR, CSIM_SLICE_SYNC, CSIM_SLICE_BAR, CSIM_SLICE_CACHE_CCU,
	CSIM_SLICE_INTRA_WAIT
};

static void check_rule(struct check_ctx *c, int keep_scalar, int keep_cache_ccu)
{
	const struct csim_lane_rule rule = { keep_scalar, keep_cache_ccu };
	struct csim_lane_verdict v;
	struct csim_model m;
	struct csim_error err;
	size_t nk = sizeof(kinds) / sizeof(kinds[0]);
	size_t np = sizeof(pipes) / sizeof(pipes[0]);
	size_t kept = 0, agree = 0;

	csim_model_init(&m);
	m.rule = rule;
	/* Every kind on every pipe, twice, so cached verdicts are used too. */
	for (size_t round = 0; round < 2; round++)
		for (size_t p = 0; p < np; p++)
			for (size_t k = 0; k < nk; k++)
				mu_slice(&m, "core0", pipes[p], 0, 1, kinds[k]);
	mu_classify(&m);
	csim_error_clear(&err);
	CHECK_I64(c, csim_pass_lanes(&m, &err), CSIM_OK);
	csim_lane_verdict_init(&v, &rule);
	for (size_t i = 0; i < m.table.nslices; i++) {
		int keeps = -1;

		CHECK_I64(c, csim_lane_verdict_keeps(&v, &m.table, &m.table.slices[i], &keeps), 0);
		agree += keeps == m.table.slices[i].kept;
		kept += m.table.slices[i].kept;
	}
	CHECK_U64(c, agree, m.table.nslices);
	/* Not vacuous: the rule keeps some rows and drops others. */
	CHECK(c, kept > 0 && kept < m.table.nslices);
	csim_lane_verdict_release(&v);
	csim_model_release(&m);
}

static void test_verdict_is_the_lane_pass(struct check_ctx *c)
{
	for (int s = 0; s < 2; s++)
		for (int cc = 0; cc < 2; cc++)
			check_rule(c, s, cc);
}

/* The rules differ: --keep-scalar keeps the scalar pipe's instructions. */
static void test_keep_scalar_changes_the_verdict(struct check_ctx *c)
{
	const struct csim_lane_rule drop = { 0, 0 }, keep = { 1, 0 };
	struct csim_lane_verdict v;
	struct csim_model m;
	uint32_t row;
	int kept = -1;

	csim_model_init(&m);
	row = mu_slice(&m, "core0", "SCALAR", 0, 1, CSIM_SLICE_INSTR);
	csim_lane_verdict_init(&v, &drop);
	CHECK_I64(c, csim_lane_verdict_keeps(&v, &m.table, &m.table.slices[row], &kept), 0);
	CHECK_I64(c, kept, 0);
	csim_lane_verdict_release(&v);
	csim_lane_verdict_init(&v, &keep);
	CHECK_I64(c, csim_lane_verdict_keeps(&v, &m.table, &m.table.slices[row], &kept), 0);
	CHECK_I64(c, kept, 1);
	csim_lane_verdict_release(&v);
	csim_model_release(&m);
}

int main(void)
{
	struct check_ctx c = { 0, 0, NULL };

	CHECK_RUN(&c, test_verdict_is_the_lane_pass);
	CHECK_RUN(&c, test_keep_scalar_changes_the_verdict);
	return check_done(&c);
}
