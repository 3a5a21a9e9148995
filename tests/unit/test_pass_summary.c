/*
 * Summary pass (SPEC §10): spans, busy unions, peak depth, WAIT_FLAG time by
 * producer and cross-core waiting, on hand-built models whose numbers are
 * worked out in the comments.
 */
#include "check.h"
#include "modelutil.h"

#include "model/pass_summary.h"

#define CA "core0.cubecore0"
#define VA "core0.veccore0"
#define VB "core1.veccore0"

static void run_all(struct csim_model *m)
{
	if (mu_run(m) != 0)
		abort();
}

static const struct csim_summary_core *core_of(const struct csim_model *m,
					       const char *pid)
{
	for (size_t i = 0; i < m->summary.ncores; i++)
		if (strcmp(m->table.pid_names[m->summary.cores[i].pid], pid) == 0)
			return &m->summary.cores[i];
	return NULL;
}

static const struct csim_summary_pipe *pipe_of(const struct csim_model *m,
					       const char *pid, const char *pipe)
{
	const struct csim_summary_core *c = core_of(m, pid);

	for (size_t k = 0; c != NULL && k < c->npipes; k++) {
		const struct csim_summary_pipe *p = &m->summary.pipes[c->pipe0 + k];

		if (strcmp(mu_name(m, p->pipe), pipe) == 0)
			return p;
	}
	return NULL;
}

static uint32_t lane_subs(const struct csim_model *m, const char *pid, const char *pipe)
{
	for (size_t i = 0; i < m->nlanes; i++)
		if (strcmp(m->table.pid_names[m->lanes[i].pid], pid) == 0 &&
		    strcmp(mu_name(m, m->lanes[i].pipe), pipe) == 0)
			return m->lanes[i].nsub;
	return 0;
}

/*
 * MTE2 of one core: [0,100) and [50,150) overlap (150), [200,400) holds
 * [250,300) (200), [500,600) and [600,700) touch (200), [800,800) has no
 * length: 7 instructions, busy 550. A BAR is no instruction but is part of
 * the span, which runs from 0 to the BAR's end 2001.
 */
static void test_busy_union(struct check_ctx *c)
{
	struct csim_model m;
	const struct csim_summary_pipe *p;
	const struct csim_summary_core *core;

	csim_model_init(&m);
	mu_slice(&m, CA, "MTE2", 0, 100, CSIM_SLICE_INSTR);
	mu_slice(&m, CA, "MTE2", 600, 700, CSIM_SLICE_INSTR);
	mu_slice(&m, CA, "MTE2", 50, 150, CSIM_SLICE_INSTR);
	mu_slice(&m, CA, "MTE2", 250, 300, CSIM_SLICE_INSTR);
	mu_slice(&m, CA, "MTE2", 200, 400, CSIM_SLICE_INSTR);
	mu_slice(&m, CA, "MTE2", 500, 600, CSIM_SLICE_INSTR);
	mu_slice(&m, CA, "MTE2", 800, 800, CSIM_SLICE_INSTR);
	mu_slice(&m, CA, "MTE2", 2000, 2001, CSIM_SLICE_BAR);
	run_all(&m);
	core = core_of(&m, CA);
	p = pipe_of(&m, CA, "MTE2");
	if (CHECK(c, core != NULL && p != NULL)) {
		CHECK_I64(c, core->first_ns, 0);
		CHECK_I64(c, core->last_ns, 2001);
		CHECK_U64(c, core->npipes, 1);
		CHECK_U64(c, p->instructions, 7);
		CHECK_I64(c, p->busy_ns, 550);
		CHECK_U64(c, p->kept, 1);
		/* A kept lane's depth is the packing's sub-lane count. */
		CHECK_U64(c, p->peak_depth, lane_subs(&m, CA, "MTE2"));
		CHECK_U64(c, p->peak_depth, 2);
		CHECK_I64(c, p->wait_ns, 0);
		CHECK_U64(c, p->nwaits, 0);
	}
	csim_model_release(&m);
}

/*
 * Dropped lanes count whatever the options. SCALAR [900,1000), [950,960)
 * and the zero-length [960,960): busy 100; depth 2 ([950,960) inside
 * [900,1000); the point at 960 is in progress during [960,961), after
 * [950,960) ended). FLOWCTRL's one zero-length slice: busy 0, depth 1. The
 * SCALAR slice at the end makes the span 0..1000. With --keep-scalar the
 * SCALAR numbers stay, and its depth becomes the packing's.
 */
static void test_dropped_lanes(struct check_ctx *c)
{
	for (int keep = 0; keep < 2; keep++) {
		struct csim_model m;
		const struct csim_summary_pipe *sc, *fc;
		const struct csim_summary_core *core;

		csim_model_init(&m);
		m.rule.keep_scalar = keep;
		mu_slice(&m, CA, "MTE2", 0, 100, CSIM_SLICE_INSTR);
		mu_slice(&m, CA, "SCALAR", 900, 1000, CSIM_SLICE_INSTR);
		mu_slice(&m, CA, "SCALAR", 950, 960, CSIM_SLICE_INSTR);
		mu_slice(&m, CA, "SCALAR", 960, 960, CSIM_SLICE_INSTR);
		mu_slice(&m, CA, "FLOWCTRL", 100, 100, CSIM_SLICE_INSTR);
		run_all(&m);
		core = core_of(&m, CA);
		sc = pipe_of(&m, CA, "SCALAR");
		fc = pipe_of(&m, CA, "FLOWCTRL");
		if (CHECK(c, core != NULL && sc != NULL && fc != NULL)) {
			CHECK_I64(c, core->last_ns - core->first_ns, 1000);
			CHECK_U64(c, core->npipes, 3);
			CHECK_U64(c, sc->kept, (uint64_t)keep);
			CHECK_U64(c, sc->instructions, 3);
			CHECK_I64(c, sc->busy_ns, 100);
			CHECK_U64(c, sc->peak_depth, keep ? lane_subs(&m, CA, "SCALAR") : 2);
			CHECK_U64(c, fc->kept, 0);
			CHECK_U64(c, fc->instructions, 1);
			CHECK_I64(c, fc->busy_ns, 0);
			CHECK_U64(c, fc->peak_depth, 1);
			/* Lane order: MTE2, SCALAR (13), FLOWCTRL (other). */
			CHECK_STR(c, mu_name(&m, m.summary.pipes[core->pipe0].pipe), "MTE2");
			CHECK_STR(c, mu_name(&m, m.summary.pipes[core->pipe0 + 1].pipe), "SCALAR");
		}
		csim_model_release(&m);
	}
}

/*
 * WAIT_FLAGs on MTE1, by producer (the PIPE: of the detail): MTE2
 * [10,40) and [30,60) (union 50), FIXP [100,120), CUBE [110,130) (the two
 * overlap), no detail [200,210). By producer: MTE2 50, CUBE 20, FIXP 20,
 * unnamed 10 (in lane order, unnamed last); in total [10,60) [100,130)
 * [200,210) = 90. SETs and the MTE2 slice's own time are not waiting.
 */
static void test_wait_by_producer(struct check_ctx *c)
{
	struct csim_model m;
	const struct csim_summary_pipe *p, *mte2;

	csim_model_init(&m);
	mu_slice(&m, CA, "MTE2", 0, 5, CSIM_SLICE_INSTR);
	mu_flag(&m, CSIM_SYNC_WAIT, CA, "MTE1", 10, 40, "w1", mu_detail(&m, "MTE2", "MTE1", 0));
	mu_flag(&m, CSIM_SYNC_WAIT, CA, "MTE1", 30, 60, "w2", mu_detail(&m, "MTE2", "MTE1", 1));
	mu_flag(&m, CSIM_SYNC_WAIT, CA, "MTE1", 100, 120, "w3", mu_detail(&m, "FIXP", "MTE1", 0));
	mu_flag(&m, CSIM_SYNC_WAIT, CA, "MTE1", 110, 130, "w4", mu_detail(&m, "CUBE", "MTE1", 0));
	mu_flag(&m, CSIM_SYNC_WAIT, CA, "MTE1", 200, 210, "w5", CSIM_NONE);
	mu_flag(&m, CSIM_SYNC_SET, CA, "MTE2", 4, 5, "w1", mu_detail(&m, "MTE2", "MTE1", 0));
	run_all(&m);
	p = pipe_of(&m, CA, "MTE1");
	mte2 = pipe_of(&m, CA, "MTE2");
	if (CHECK(c, p != NULL && mte2 != NULL) && CHECK_U64(c, p->nwaits, 4)) {
		const struct csim_summary_wait *w = &m.summary.waits[p->wait0];

		CHECK_U64(c, p->instructions, 0);
		CHECK_I64(c, p->busy_ns, 0);
		CHECK_U64(c, p->peak_depth, 0);
		CHECK_I64(c, p->wait_ns, 90);
		CHECK_STR(c, mu_name(&m, w[0].producer), "MTE2");
		CHECK_I64(c, w[0].ns, 50);
		CHECK_STR(c, mu_name(&m, w[1].producer), "CUBE");
		CHECK_I64(c, w[1].ns, 20);
		CHECK_STR(c, mu_name(&m, w[2].producer), "FIXP");
		CHECK_I64(c, w[2].ns, 20);
		CHECK_U64(c, w[3].producer, CSIM_NONE);
		CHECK_I64(c, w[3].ns, 10);
		CHECK_I64(c, mte2->wait_ns, 0);
		CHECK_U64(c, mte2->nwaits, 0);
	}
	csim_model_release(&m);
}

/*
 * Cross-core waiting of a core: its WAIT_INTRA_BLOCK X slices [0,100) and
 * [50,200) (older producers, on its INTRA_BLOCK lane) and its
 * WAIT_INTRA_BLOCK B/E [300,350): 250. The SET slice [400,402) and the
 * SET record are no waiting, but all three X slices are INTRA_BLOCK lane
 * instructions (3, busy 200 + 2). A WAIT whose E comes first waits 0.
 */
static void test_cross_core_wait(struct check_ctx *c)
{
	struct csim_model m;
	const struct csim_summary_core *vb, *ca;
	const struct csim_summary_pipe *lane;

	csim_model_init(&m);
	mu_slice(&m, CA, "FIXP", 0, 10, CSIM_SLICE_INSTR);
	mu_slice(&m, VB, "INTRA_BLOCK", 0, 100, CSIM_SLICE_INTRA_WAIT);
	mu_slice(&m, VB, "INTRA_BLOCK", 50, 200, CSIM_SLICE_INTRA_WAIT);
	mu_slice(&m, VB, "INTRA_BLOCK", 400, 402, CSIM_SLICE_INSTR);
	mu_intra(&m, CSIM_SYNC_WAIT, VB, "MTE2", 300, 350, "intra_1", CSIM_NONE);
	mu_intra(&m, CSIM_SYNC_SET, CA, "FIXP", 5, 6, "intra_1", CSIM_NONE);
	mu_intra(&m, CSIM_SYNC_WAIT, CA, "FIXP", 9, 8, "intra_2", CSIM_NONE);
	run_all(&m);
	vb = core_of(&m, VB);
	ca = core_of(&m, CA);
	lane = pipe_of(&m, VB, "INTRA_BLOCK");
	if (CHECK(c, vb != NULL && ca != NULL && lane != NULL)) {
		CHECK_I64(c, vb->cross_wait_ns, 250);
		CHECK_I64(c, ca->cross_wait_ns, 0);
		CHECK_U64(c, lane->instructions, 3);
		CHECK_I64(c, lane->busy_ns, 202);
		CHECK_I64(c, lane->wait_ns, 0);
		/* Cross-core waits are no WAIT_FLAG time of the waiting pipe. */
		CHECK(c, pipe_of(&m, VB, "MTE2") == NULL);
	}
	csim_model_release(&m);
}

/*
 * Cores in output order (natural: core0.cubecore0, core0.veccore0,
 * core1.veccore0), a core with only dropped slices after them; spans 100,
 * 300, 50 and 300 (the SCALAR-only core0.veccore1): min 50, lower median
 * 100, max 300, slowest the first core with 300 in that order.
 */
static void test_order_and_balance(struct check_ctx *c)
{
	struct csim_model m;
	const struct csim_summary *s = &m.summary;

	csim_model_init(&m);
	mu_slice(&m, "core0.veccore1", "SCALAR", 0, 300, CSIM_SLICE_INSTR);
	mu_slice(&m, VB, "VECTOR", 1000, 1050, CSIM_SLICE_INSTR);
	mu_slice(&m, VA, "VECTOR", 100, 400, CSIM_SLICE_INSTR);
	mu_slice(&m, CA, "CUBE", 0, 100, CSIM_SLICE_INSTR);
	run_all(&m);
	if (CHECK_U64(c, s->ncores, 4)) {
		CHECK_STR(c, m.table.pid_names[s->cores[0].pid], CA);
		CHECK_STR(c, m.table.pid_names[s->cores[1].pid], VA);
		CHECK_STR(c, m.table.pid_names[s->cores[2].pid], VB);
		CHECK_STR(c, m.table.pid_names[s->cores[3].pid], "core0.veccore1");
		CHECK_I64(c, s->min_span_ns, 50);
		CHECK_I64(c, s->median_span_ns, 100);
		CHECK_I64(c, s->max_span_ns, 300);
		CHECK_U64(c, s->slowest, 1);
	}
	csim_model_release(&m);
}

/*
 * Input far from time order: 300 slices [1000k, 1000k + 500) written for
 * k = 299 down to 0, alternating with as many on another core and pipe
 * [1000k, 1000k + 1500) (each overlapping the next): the bucket sort's
 * insertion step gives up and falls back to qsort. Unions: 300 * 500 and
 * 299 * 1000 + 1500; WAITs alternating between two producers likewise.
 */
static void test_reversed_input(struct check_ctx *c)
{
	struct csim_model m;
	const struct csim_summary_pipe *a, *b, *w;
	uint32_t d_mte2, d_fixp;

	csim_model_init(&m);
	d_mte2 = mu_detail(&m, "MTE2", "MTE1", 0);
	d_fixp = mu_detail(&m, "FIXP", "MTE1", 0);
	for (int k = 299; k >= 0; k--) {
		char id[32];

		mu_slice(&m, CA, "MTE1", 1000 * k, 1000 * k + 500, CSIM_SLICE_INSTR);
		mu_slice(&m, VA, "VECTOR", 1000 * k, 1000 * k + 1500, CSIM_SLICE_INSTR);
		snprintf(id, sizeof(id), "w%d", k);
		mu_flag(&m, CSIM_SYNC_WAIT, CA, "MTE3", 1000 * k, 1000 * k + 10, id,
			k % 2 ? d_mte2 : d_fixp);
	}
	run_all(&m);
	a = pipe_of(&m, CA, "MTE1");
	b = pipe_of(&m, VA, "VECTOR");
	w = pipe_of(&m, CA, "MTE3");
	if (CHECK(c, a != NULL && b != NULL && w != NULL)) {
		CHECK_U64(c, a->instructions, 300);
		CHECK_I64(c, a->busy_ns, 300 * 500);
		CHECK_U64(c, b->instructions, 300);
		CHECK_I64(c, b->busy_ns, 299 * 1000 + 1500);
		CHECK_I64(c, w->wait_ns, 300 * 10);
		if (CHECK_U64(c, w->nwaits, 2)) {
			CHECK_I64(c, m.summary.waits[w->wait0].ns, 150 * 10);
			CHECK_I64(c, m.summary.waits[w->wait0 + 1].ns, 150 * 10);
		}
	}
	csim_model_release(&m);
}

/* No slices: no cores; the pass runs again with the same result. */
static void test_empty_and_rerun(struct check_ctx *c)
{
	struct csim_model m;
	struct csim_error err;
	int64_t busy;

	csim_model_init(&m);
	run_all(&m);
	CHECK_U64(c, m.summary.ncores, 0);
	csim_model_release(&m);

	csim_model_init(&m);
	mu_slice(&m, CA, "MTE2", 0, 100, CSIM_SLICE_INSTR);
	mu_slice(&m, CA, "MTE2", 50, 120, CSIM_SLICE_INSTR);
	run_all(&m);
	busy = m.summary.pipes[0].busy_ns;
	csim_error_clear(&err);
	CHECK_U64(c, (uint64_t)csim_pass_summary(&m, &err), CSIM_OK);
	CHECK_U64(c, m.summary.ncores, 1);
	CHECK_U64(c, m.summary.npipes, 1);
	CHECK_I64(c, m.summary.pipes[0].busy_ns, busy);
	CHECK_I64(c, busy, 120);
	csim_model_release(&m);
}

int main(void)
{
	struct check_ctx c = { 0, 0, NULL };

	CHECK_RUN(&c, test_busy_union);
	CHECK_RUN(&c, test_dropped_lanes);
	CHECK_RUN(&c, test_wait_by_producer);
	CHECK_RUN(&c, test_cross_core_wait);
	CHECK_RUN(&c, test_order_and_balance);
	CHECK_RUN(&c, test_reversed_input);
	CHECK_RUN(&c, test_empty_and_rerun);
	return check_done(&c);
}
