/* Lane selection and output order (SPEC §3, §4, §6). */
#include "check.h"
#include "modelutil.h"

static const char *pid_name(const struct csim_model *m, size_t rank)
{
	return m->table.pid_names[m->processes[rank]];
}

static void test_processes_in_natural_order(struct check_ctx *c)
{
	static const char *const input[] = {
		"zeta", "core10.veccore0", "core2.veccore1", "MTE Throughput",
		"core2.cubecore0", "core2.veccore0", "core02.veccore0",
	};
	static const char *const want[] = {
		/* naturally equal names: the shorter spelling first */
		"core2.cubecore0", "core2.veccore0", "core02.veccore0",
		"core2.veccore1", "core10.veccore0", "MTE Throughput", "zeta",
	};
	struct csim_model m;

	csim_model_init(&m);
	for (size_t i = 0; i < sizeof(input) / sizeof(input[0]); i++)
		mu_slice(&m, input[i], "VECTOR", 0, 10, CSIM_SLICE_INSTR);
	mu_slice(&m, "only-dropped", "SCALAR", 0, 10, CSIM_SLICE_INSTR);
	if (!CHECK(c, mu_run(&m) == 0) || !CHECK_U64(c, m.nprocesses, 7))
		goto out;
	for (size_t i = 0; i < 7; i++)
		CHECK_STR(c, pid_name(&m, i), want[i]);
out:
	csim_model_release(&m);
}

static void test_threads_in_dataflow_order(struct check_ctx *c)
{
	static const char *const pipes[] = { "MTE3", "CUSTOM", "VECTOR", "SCALAR",
					     "MTE2", "FIXP", "CUBE", "MTE1" };
	static const char *const want[] = { "MTE2", "MTE2", "MTE1", "CUBE", "VECTOR",
					    "FIXP", "MTE3", "SCALAR", "CUSTOM" };
	static const int want_index[] = { 0, 1, 100, 200, 300, 1000, 1100, 1300, 100000 };
	struct csim_model m;

	csim_model_init(&m);
	m.rule.keep_scalar = 1;
	for (size_t i = 0; i < sizeof(pipes) / sizeof(pipes[0]); i++)
		mu_slice(&m, "core0.cubecore0", pipes[i], 0, 10, CSIM_SLICE_INSTR);
	mu_slice(&m, "core0.cubecore0", "MTE2", 5, 15, CSIM_SLICE_INSTR);
	if (!CHECK(c, mu_run(&m) == 0) || !CHECK_U64(c, m.nthreads, 9))
		goto out;
	for (size_t i = 0; i < 9; i++) {
		const struct csim_thread *t = &m.threads[i];

		CHECK_STR(c, mu_name(&m, m.lanes[t->lane].pipe), want[i]);
		CHECK_I64(c, t->sort_index, want_index[i]);
	}
	CHECK_U64(c, m.threads[1].sub, 1);
out:
	csim_model_release(&m);
}

/*
 * SPEC §4/§6: a kept companion lane `<PIPE> cache` sits right after its
 * pipe's sub-lanes and does not push the next pipe off order * 100.
 */
static void test_cache_lane_follows_its_pipe(struct check_ctx *c)
{
	static const char *const want[] = { "RVECEX", "RVECEX", "RVECEX cache", "RVECST" };
	static const int want_index[] = { 600, 601, 602, 900 };
	struct csim_model m;

	csim_model_init(&m);
	m.rule.keep_cache_ccu = 1;
	mu_slice(&m, "core0.veccore0", "RVECST", 0, 10, CSIM_SLICE_INSTR);
	mu_slice(&m, "core0.veccore0", "RVECEX cache", 0, 10, CSIM_SLICE_CACHE_CCU);
	mu_slice(&m, "core0.veccore0", "RVECEX", 0, 10, CSIM_SLICE_INSTR);
	mu_slice(&m, "core0.veccore0", "RVECEX", 5, 15, CSIM_SLICE_INSTR);
	if (!CHECK(c, mu_run(&m) == 0) || !CHECK_U64(c, m.nthreads, 4))
		goto out;
	for (size_t i = 0; i < 4; i++) {
		const struct csim_thread *t = &m.threads[i];

		CHECK_STR(c, mu_name(&m, m.lanes[t->lane].pipe), want[i]);
		CHECK_I64(c, t->sort_index, want_index[i]);
	}
out:
	csim_model_release(&m);
}

/*
 * SPEC §4: the Ascend950 vector lanes and SIMT warps have places of their
 * own, and every lane is followed directly by its own sub-lanes, also where
 * lanes share an order (WARP_n; pipes not in the table), since both viewers
 * sort threads by index, then by name.
 */
static void test_lanes_never_interleave(struct check_ctx *c)
{
	static const char *const pipes[] = { "ZOTHER", "RVECEX", "WARP_10", "AOTHER",
					     "PUSHQ", "WARP_2", "INTRA_BLOCK", "USERMARK" };
	static const char *const want[] = { "PUSHQ", "PUSHQ", "RVECEX", "RVECEX",
					    "INTRA_BLOCK", "USERMARK", "WARP_2", "WARP_10",
					    "AOTHER", "AOTHER", "ZOTHER" };
	/* WARP_10 and ZOTHER follow the lane before them directly: a lane
	   takes only the indices its sub-lanes need (SPEC §6 order*100 + k) */
	static const int want_index[] = { 400, 401, 600, 601, 1200, 1400, 2000, 2001,
					  100000, 100001, 100002 };
	struct csim_model m;

	csim_model_init(&m);
	for (size_t i = 0; i < sizeof(pipes) / sizeof(pipes[0]); i++)
		mu_slice(&m, "core0.veccore0", pipes[i], 0, 10, CSIM_SLICE_INSTR);
	mu_slice(&m, "core0.veccore0", "PUSHQ", 5, 15, CSIM_SLICE_INSTR);
	mu_slice(&m, "core0.veccore0", "RVECEX", 5, 15, CSIM_SLICE_INSTR);
	mu_slice(&m, "core0.veccore0", "AOTHER", 5, 15, CSIM_SLICE_INSTR);
	if (!CHECK(c, mu_run(&m) == 0) || !CHECK_U64(c, m.nthreads, 11))
		goto out;
	for (size_t i = 0; i < 11; i++) {
		const struct csim_thread *t = &m.threads[i];

		CHECK_STR(c, mu_name(&m, m.lanes[t->lane].pipe), want[i]);
		CHECK_I64(c, t->sort_index, want_index[i]);
	}
out:
	csim_model_release(&m);
}

static void test_lane_selection(struct check_ctx *c)
{
	struct csim_model m;
	uint32_t instr, sync, bar, cache, noise, scalar, ldst, other;

	csim_model_init(&m);
	instr = mu_slice(&m, "p", "MTE2", 0, 1, CSIM_SLICE_INSTR);
	sync = mu_slice(&m, "p", "MTE2", 0, 1, CSIM_SLICE_SYNC);
	bar = mu_slice(&m, "p", "VECTOR", 0, 1, CSIM_SLICE_BAR);
	cache = mu_slice(&m, "p", "VECTOR", 0, 1, CSIM_SLICE_CACHE_CCU);
	noise = mu_slice(&m, "p", "FLOWCTRL", 0, 1, CSIM_SLICE_INSTR);
	scalar = mu_slice(&m, "p", "SCALAR", 0, 1, CSIM_SLICE_INSTR);
	ldst = mu_slice(&m, "p", "SCALARLDST", 0, 1, CSIM_SLICE_INSTR);
	other = mu_slice(&m, "p", "PUSHQ", 0, 1, CSIM_SLICE_INSTR);
	for (int variant = 0; variant < 2; variant++) {
		struct csim_error err;

		m.rule.keep_scalar = variant;
		m.rule.keep_cache_ccu = variant;
		mu_classify(&m);
		if (!CHECK_I64(c, csim_pass_lanes(&m, &err), CSIM_OK))
			break;
		CHECK(c, m.table.slices[instr].kept);
		CHECK(c, !m.table.slices[sync].kept);
		CHECK(c, !m.table.slices[bar].kept);
		CHECK(c, !m.table.slices[noise].kept);
		CHECK(c, m.table.slices[other].kept);
		CHECK_U64(c, m.table.slices[cache].kept, variant);
		CHECK_U64(c, m.table.slices[scalar].kept, variant);
		CHECK_U64(c, m.table.slices[ldst].kept, variant);
		CHECK_U64(c, m.kept_slices, 2 + 3 * (uint64_t)variant);
		CHECK_U64(c, m.slice_drops[CSIM_SDROP_NOISE_LANE], 1);
		CHECK_U64(c, m.pipes[m.table.slices[scalar].pipe].drop >= 0, !variant);
	}
	csim_model_release(&m);
}

int main(void)
{
	struct check_ctx c = { 0, 0, NULL };

	CHECK_RUN(&c, test_processes_in_natural_order);
	CHECK_RUN(&c, test_threads_in_dataflow_order);
	CHECK_RUN(&c, test_lanes_never_interleave);
	CHECK_RUN(&c, test_cache_lane_follows_its_pipe);
	CHECK_RUN(&c, test_lane_selection);
	return check_done(&c);
}
