/*
 * Cut pass (--core, --window; SPEC §1) and the summary pass's window
 * clipping, on hand-built models whose expected values are worked out in
 * the comments. Window [2000, 3000] ns throughout (--window 2:3).
 */
#include "check.h"
#include "modelutil.h"

#include "model/pass_cut.h"

#define CA "core0.cubecore0"
#define VA "core0.veccore0"
#define VB "core1.veccore0"

/* Runs the whole plan; returns the code of the first pass that fails. */
static int run_plan(struct csim_model *m, struct csim_error *err)
{
	csim_error_clear(err);
	mu_classify(m);
	for (size_t i = 0; i < csim_pass_plan_len; i++) {
		int rc = csim_pass_plan[i]->run(m, err);

		if (rc != CSIM_OK)
			return rc;
	}
	return CSIM_OK;
}

static void set_window(struct csim_model *m, int64_t from, int64_t to)
{
	m->cut.window = (struct csim_window){ 1, 1, from, to };
}

static const struct csim_summary_pipe *pipe_of(const struct csim_model *m,
					       const char *pid, const char *pipe)
{
	for (size_t i = 0; i < m->summary.ncores; i++) {
		const struct csim_summary_core *c = &m->summary.cores[i];

		if (strcmp(m->table.pid_names[c->pid], pid) != 0)
			continue;
		for (size_t k = 0; k < c->npipes; k++)
			if (strcmp(mu_name(m, m->summary.pipes[c->pipe0 + k].pipe), pipe) == 0)
				return &m->summary.pipes[c->pipe0 + k];
	}
	return NULL;
}

/*
 * Each edge on its own lane, so packing plays no part:
 *   MTE2 [1000,2000) ends at A: out          VECTOR [1500,2500) straddles A: in
 *   MTE3 [2000,2000) a point at A: in        FIXP [1999,1999) a point before A: out
 *   CUBE [3000,4000) starts at B: in         MTE1 [3001,3500) after B: out
 *   SCALAR-free RVECEX [2500,3500) straddles B: in; PUSHQ [3000,3000) point at B: in
 */
static void test_window_edges(struct check_ctx *c)
{
	struct csim_model m;
	struct csim_error err;
	uint32_t s[8];
	static const int want[8] = { 0, 1, 1, 0, 1, 0, 1, 1 };

	csim_model_init(&m);
	s[0] = mu_slice(&m, VA, "MTE2", 1000, 2000, CSIM_SLICE_INSTR);
	s[1] = mu_slice(&m, VA, "VECTOR", 1500, 2500, CSIM_SLICE_INSTR);
	s[2] = mu_slice(&m, VA, "MTE3", 2000, 2000, CSIM_SLICE_INSTR);
	s[3] = mu_slice(&m, VA, "FIXP", 1999, 1999, CSIM_SLICE_INSTR);
	s[4] = mu_slice(&m, VA, "CUBE", 3000, 4000, CSIM_SLICE_INSTR);
	s[5] = mu_slice(&m, VA, "MTE1", 3001, 3500, CSIM_SLICE_INSTR);
	s[6] = mu_slice(&m, VA, "RVECEX", 2500, 3500, CSIM_SLICE_INSTR);
	s[7] = mu_slice(&m, VA, "PUSHQ", 3000, 3000, CSIM_SLICE_INSTR);
	set_window(&m, 2000, 3000);
	CHECK_I64(c, run_plan(&m, &err), CSIM_OK);
	if (!CHECK(c, m.cut.slice_in != NULL))
		goto out;
	for (int i = 0; i < 8; i++)
		if (!CHECK_I64(c, m.cut.slice_in[s[i]], want[i]))
			fprintf(stderr, "    slice %d\n", i);
	CHECK_I64(c, (int64_t)m.cut.slices_in, 5);
	/* one lane per slice: 8 threads, 5 of them keep a slice */
	CHECK_I64(c, (int64_t)m.nthreads, 8);
	{
		int n = 0;

		for (size_t t = 0; t < m.nthreads; t++)
			n += m.cut.thread_in[t];
		CHECK_I64(c, n, 5);
	}
	CHECK_I64(c, m.cut.process_in[0], 1);
out:
	csim_model_release(&m);
}

/* The window rule itself, bound by bound. */
static void test_window_meets(struct check_ctx *c)
{
	const struct csim_window w = { 1, 1, 2000, 3000 }, from = { 1, 0, 2000, 0 },
				 to = { 0, 1, 0, 3000 }, none = { 0, 0, 0, 0 };

	CHECK(c, !csim_window_meets(&w, 1000, 2000));
	CHECK(c, csim_window_meets(&w, 1000, 2001));
	CHECK(c, csim_window_meets(&w, 3000, 3000));
	CHECK(c, !csim_window_meets(&w, 3001, 3001));
	CHECK(c, csim_window_meets(&w, 1000, 5000));   /* covers the window */
	CHECK(c, csim_window_meets(&from, 9000, 9500));
	CHECK(c, !csim_window_meets(&from, 1000, 2000));
	CHECK(c, csim_window_meets(&to, 0, 10));
	CHECK(c, !csim_window_meets(&to, 3001, 4000));
	CHECK(c, csim_window_meets(&none, -5, -5));
	CHECK(c, csim_window_holds(&w, 2000) && csim_window_holds(&w, 3000));
	CHECK(c, !csim_window_holds(&w, 1999) && !csim_window_holds(&w, 3001));
	CHECK_I64(c, csim_window_clamp(&w, 1500), 2000);
	CHECK_I64(c, csim_window_clamp(&w, 3500), 3000);
	CHECK_I64(c, csim_window_clamp(&w, 2500), 2500);
}

/*
 * Two flags on VA, MTE2 -> VECTOR: flag 1's SET at 1200 anchors on MTE2
 * [1000,1200) (out), its WAIT ending at 2100 on VECTOR [2200,2400) (in):
 * dropped. Flag 2's SET at 2600 anchors on MTE2 [2450,2600) (in), its WAIT
 * ending at 2650 on VECTOR [2700,2900) (in): kept.
 */
static void test_arrows_need_both_ends(struct check_ctx *c)
{
	struct csim_model m;
	struct csim_error err;
	uint32_t d;

	csim_model_init(&m);
	mu_slice(&m, VA, "MTE2", 1000, 1200, CSIM_SLICE_INSTR);
	mu_slice(&m, VA, "VECTOR", 2200, 2400, CSIM_SLICE_INSTR);
	mu_slice(&m, VA, "MTE2", 2450, 2600, CSIM_SLICE_INSTR);
	mu_slice(&m, VA, "VECTOR", 2700, 2900, CSIM_SLICE_INSTR);
	d = mu_detail(&m, "MTE2", "VECTOR", 1);
	mu_flag(&m, CSIM_SYNC_SET, VA, "MTE2", 1200, 1210, "a", d);
	mu_flag(&m, CSIM_SYNC_WAIT, VA, "VECTOR", 1900, 2100, "a", d);
	mu_flag(&m, CSIM_SYNC_SET, VA, "MTE2", 2600, 2610, "b", d);
	mu_flag(&m, CSIM_SYNC_WAIT, VA, "VECTOR", 2550, 2650, "b", d);
	set_window(&m, 2000, 3000);
	CHECK_I64(c, run_plan(&m, &err), CSIM_OK);
	if (CHECK_I64(c, (int64_t)m.narrows, 2) && CHECK(c, m.cut.arrow_in != NULL)) {
		CHECK_I64(c, m.cut.arrow_in[0], 0);
		CHECK_I64(c, m.cut.arrow_in[1], 1);
		CHECK_I64(c, (int64_t)m.cut.arrows_in, 1);
	}
	/* Summary, clipped to [2000,3000]: VECTOR waits [1900,2100] -> [2000,2100]
	   and [2550,2650]: 200 ns; busy [2200,2400) + [2700,2900): 400; MTE2 one
	   instruction [2450,2600): 150; span 2200..2900. */
	{
		const struct csim_summary_pipe *v = pipe_of(&m, VA, "VECTOR");
		const struct csim_summary_pipe *t = pipe_of(&m, VA, "MTE2");

		if (CHECK(c, v != NULL && t != NULL)) {
			CHECK_I64(c, v->wait_ns, 200);
			CHECK_I64(c, v->busy_ns, 400);
			CHECK_I64(c, (int64_t)v->instructions, 2);
			CHECK_I64(c, (int64_t)t->instructions, 1);
			CHECK_I64(c, t->busy_ns, 150);
		}
		if (CHECK_I64(c, (int64_t)m.summary.ncores, 1)) {
			CHECK_I64(c, m.summary.cores[0].first_ns, 2200);
			CHECK_I64(c, m.summary.cores[0].last_ns, 2900);
		}
	}
	csim_model_release(&m);
}

/*
 * Clipping: VECTOR [1500,2500) and [2800,3600) in [2000,3000] are busy
 * 500 + 200 = 700 and span [2000,3000]; a core whose only slice is out
 * ([100,200) on VB) is not in the windowed summary.
 */
static void test_summary_clips(struct check_ctx *c)
{
	struct csim_model m;
	struct csim_error err;
	const struct csim_summary_pipe *p;

	csim_model_init(&m);
	mu_slice(&m, VA, "VECTOR", 1500, 2500, CSIM_SLICE_INSTR);
	mu_slice(&m, VA, "VECTOR", 2800, 3600, CSIM_SLICE_INSTR);
	mu_slice(&m, VB, "VECTOR", 100, 200, CSIM_SLICE_INSTR);
	set_window(&m, 2000, 3000);
	CHECK_I64(c, run_plan(&m, &err), CSIM_OK);
	p = pipe_of(&m, VA, "VECTOR");
	if (CHECK(c, p != NULL))
		CHECK_I64(c, p->busy_ns, 700);
	if (CHECK_I64(c, (int64_t)m.summary.ncores, 1)) {
		CHECK_I64(c, m.summary.cores[0].first_ns, 2000);
		CHECK_I64(c, m.summary.cores[0].last_ns, 3000);
	}
	csim_model_release(&m);
	/* the same model without a window: the whole run */
	csim_model_init(&m);
	mu_slice(&m, VA, "VECTOR", 1500, 2500, CSIM_SLICE_INSTR);
	mu_slice(&m, VA, "VECTOR", 2800, 3600, CSIM_SLICE_INSTR);
	mu_slice(&m, VB, "VECTOR", 100, 200, CSIM_SLICE_INSTR);
	CHECK_I64(c, run_plan(&m, &err), CSIM_OK);
	CHECK(c, m.cut.slice_in == NULL);
	p = pipe_of(&m, VA, "VECTOR");
	if (CHECK(c, p != NULL))
		CHECK_I64(c, p->busy_ns, 1800);
	CHECK_I64(c, (int64_t)m.summary.ncores, 2);
	csim_model_release(&m);
}

static void add_counter(struct csim_model *m, const char *pid, int64_t ts)
{
	struct csim_owner o;
	struct csim_error err;
	char raw[64];

	snprintf(raw, sizeof(raw), "\"%s\"", pid);
	mu_pid(m, pid);
	o.pid_json = csim_span_of(raw, strlen(raw));
	o.pid = csim_span_of(pid, strlen(pid));
	o.tid = csim_span_of("0", 1);
	if (csim_table_add_counter(&m->table, &o, csim_span_of("{}", 2), &ts, &err) != CSIM_OK)
		abort();
}

/*
 * --core 'core0.*' and a window: VB's slice and counter are out by core;
 * VA's counters at 1999 (out), 2000 and 3000 (in), 3001 (out). A process
 * with only a counter in the window keeps its metadata.
 */
static void test_cores_and_counters(struct check_ctx *c)
{
	static const char *const cores[] = { "core0.*" };
	struct csim_model m;
	struct csim_error err;
	static const int want[5] = { 0, 1, 1, 0, 0 };

	csim_model_init(&m);
	mu_slice(&m, VA, "VECTOR", 2100, 2200, CSIM_SLICE_INSTR);
	mu_slice(&m, VB, "VECTOR", 2100, 2200, CSIM_SLICE_INSTR);
	mu_slice(&m, CA, "CUBE", 100, 200, CSIM_SLICE_INSTR);
	add_counter(&m, VA, 1999);
	add_counter(&m, VA, 2000);
	add_counter(&m, CA, 3000);
	add_counter(&m, VA, 3001);
	add_counter(&m, VB, 2500);
	m.cut.cores = cores;
	m.cut.ncores = 1;
	set_window(&m, 2000, 3000);
	CHECK_I64(c, run_plan(&m, &err), CSIM_OK);
	if (!CHECK(c, m.cut.counter_in != NULL))
		goto out;
	for (int i = 0; i < 5; i++)
		CHECK_I64(c, m.cut.counter_in[i], want[i]);
	CHECK_I64(c, m.cut.slice_in[0], 1);
	CHECK_I64(c, m.cut.slice_in[1], 0);
	CHECK_I64(c, m.cut.slice_in[2], 0);
	/* processes in natural order: CA (counter only), VA, VB */
	if (CHECK_I64(c, (int64_t)m.nprocesses, 3)) {
		CHECK_I64(c, m.cut.process_in[0], 1);
		CHECK_I64(c, m.cut.process_in[1], 1);
		CHECK_I64(c, m.cut.process_in[2], 0);
	}
	/* the summary holds the cores the cut keeps within the window: VA
	   (CA's one slice ends before the window, VB is core1's) */
	if (CHECK_I64(c, (int64_t)m.summary.ncores, 1))
		CHECK_STR(c, m.table.pid_names[m.summary.cores[0].pid], VA);
out:
	csim_model_release(&m);
}

/*
 * A process of counters only (MTE Throughput: the kernel's, no core's) is
 * no core: --core keeps it, while a core's counter goes with its core.
 */
static void test_kernel_counters_stay(struct check_ctx *c)
{
	static const char *const cores[] = { "core0.*" };
	struct csim_model m;
	struct csim_error err;

	csim_model_init(&m);
	mu_slice(&m, VA, "VECTOR", 100, 200, CSIM_SLICE_INSTR);
	mu_slice(&m, VB, "VECTOR", 100, 200, CSIM_SLICE_INSTR);
	add_counter(&m, "MTE Throughput", 150);
	add_counter(&m, VB, 150);
	m.cut.cores = cores;
	m.cut.ncores = 1;
	CHECK_I64(c, run_plan(&m, &err), CSIM_OK);
	if (CHECK(c, m.cut.counter_in != NULL)) {
		CHECK_I64(c, m.cut.counter_in[0], 1);
		CHECK_I64(c, m.cut.counter_in[1], 0);
		CHECK_I64(c, (int64_t)m.cut.counters_in, 1);
	}
	/* the summary: VA alone (the counters' process has no slice) */
	CHECK_I64(c, (int64_t)m.summary.ncores, 1);
	csim_model_release(&m);
}

/* Every pattern must match: the one that does not is named, with the cores. */
static void test_pattern_matching_nothing(struct check_ctx *c)
{
	static const char *const cores[] = { "core0.*", "core9*" };
	struct csim_model m;
	struct csim_error err;

	csim_model_init(&m);
	mu_slice(&m, VA, "VECTOR", 2100, 2200, CSIM_SLICE_INSTR);
	mu_slice(&m, VB, "VECTOR", 2100, 2200, CSIM_SLICE_INSTR);
	m.cut.cores = cores;
	m.cut.ncores = 2;
	CHECK_I64(c, run_plan(&m, &err), CSIM_E_USAGE);
	CHECK_CONTAINS(c, err.message, "'core9*' matches no core");
	CHECK_CONTAINS(c, err.message, "core0.veccore0, core1.veccore0");
	CHECK(c, m.cut.slice_in == NULL);
	csim_model_release(&m);
	/* a pid with a newline cannot break the one-line error */
	csim_model_init(&m);
	mu_slice(&m, "core0\nerror: forged", "VECTOR", 2100, 2200, CSIM_SLICE_INSTR);
	m.cut.cores = cores + 1;
	m.cut.ncores = 1;
	CHECK_I64(c, run_plan(&m, &err), CSIM_E_USAGE);
	CHECK(c, strchr(err.message, '\n') == NULL);
	CHECK_CONTAINS(c, err.message, "core0?error: forged");
	csim_model_release(&m);
}

int main(void)
{
	struct check_ctx c = { 0, 0, NULL };

	CHECK_RUN(&c, test_window_meets);
	CHECK_RUN(&c, test_window_edges);
	CHECK_RUN(&c, test_arrows_need_both_ends);
	CHECK_RUN(&c, test_summary_clips);
	CHECK_RUN(&c, test_cores_and_counters);
	CHECK_RUN(&c, test_kernel_counters_stay);
	CHECK_RUN(&c, test_pattern_matching_nothing);
	return check_done(&c);
}
