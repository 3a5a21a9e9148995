/*
 * Summary pass (SPEC §10): spans, busy unions, depth and rows (SPEC §4),
 * WAIT_FLAG time by producer, cross-core waiting, the MTE pipes' overlap
 * with compute, bytes under a window and the top source lines, on
 * hand-built models whose numbers are worked out in the comments.
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
		/* [0,100) and [50,150) are in flight at once; the rows are the
		   packing's sub-lanes, as many here */
		CHECK_U64(c, p->depth, 2);
		CHECK_U64(c, p->has_rows, 1);
		CHECK_U64(c, p->rows, lane_subs(&m, CA, "MTE2"));
		CHECK_U64(c, p->rows, 2);
		CHECK_I64(c, p->wait_ns, 0);
		CHECK_U64(c, p->nwaits, 0);
	}
	csim_model_release(&m);
}

/*
 * Dropped lanes count whatever the options. SCALAR [900,1000), [950,960)
 * and the zero-length [960,960): busy 100; depth 2 ([950,960) inside
 * [900,1000); the point counts 1 only where nothing runs). FLOWCTRL's one
 * zero-length slice: busy 0, depth 1. The SCALAR slice at the end makes
 * the span 0..1000. With --keep-scalar the SCALAR numbers stay and it has
 * rows: the packing's sub-lanes.
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
			CHECK_U64(c, sc->depth, 2);
			/* a dropped lane has no rows in the trace */
			CHECK_U64(c, sc->has_rows, (uint64_t)keep);
			if (keep)
				CHECK_U64(c, sc->rows, lane_subs(&m, CA, "SCALAR"));
			CHECK_U64(c, fc->kept, 0);
			CHECK_U64(c, fc->instructions, 1);
			CHECK_I64(c, fc->busy_ns, 0);
			CHECK_U64(c, fc->depth, 1);
			CHECK_U64(c, fc->has_rows, 0);
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
		CHECK_U64(c, p->depth, 0);
		CHECK_U64(c, p->rows, 0);
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

/*
 * Depth is the peak over the true intervals [a, b - tol) (SPEC §4), the
 * same for kept and dropped lanes; rows are the kept lane's sub-lanes.
 * - FIXP (kept) and SCALAR (dropped), strictly serial: a = 0.51, b = 10.01
 *   (grid [1, 11)), then a slice at 10.2 (grid [10, 20)): over at 9.76
 *   before the next starts, but Perfetto's grid overlaps them by 1 ns:
 *   depth 1; FIXP has 2 rows, SCALAR none.
 * - MTE1, a real one-cycle overlap: [1000000, 1000009.75) and one from
 *   1000009.46: depth 2, 2 rows.
 * - CUBE [100, 120) with a point inside at 110 and one alone at 300:
 *   depth 1 (a point counts 1 where nothing else runs), 2 rows (the inner
 *   point keeps a ns clear on a row of its own). FLOWCTRL (dropped) holds
 *   points only: depth 1.
 * - MTE2 at 20 ms (tol 4.77 ns): [20000000, 20000100) and one from
 *   20000098: float noise, depth 1, 2 rows; MTE3 the same at 1 ms (tol
 *   0.25): depth 2.
 */
static void test_depth_and_rows(struct check_ctx *c)
{
	static const struct { const char *pipe; uint32_t depth; int has_rows; uint32_t rows; } want[] = {
		{ "FIXP", 1, 1, 2 }, { "SCALAR", 1, 0, 0 }, { "MTE1", 2, 1, 2 },
		{ "CUBE", 1, 1, 2 }, { "FLOWCTRL", 1, 0, 0 }, { "MTE2", 1, 1, 2 },
		{ "MTE3", 2, 1, 2 },
	};
	struct csim_model m;

	csim_model_init(&m);
	for (int k = 0; k < 2; k++) {
		const char *pipe = k ? "SCALAR" : "FIXP";

		mu_slice_us(&m, CA, pipe, 0.00051, 0.0095, CSIM_SLICE_INSTR);
		mu_slice_us(&m, CA, pipe, 0.0102, 0.010, CSIM_SLICE_INSTR);
	}
	mu_slice_us(&m, CA, "MTE1", 1000.0, 0.010, CSIM_SLICE_INSTR);
	mu_slice_us(&m, CA, "MTE1", 1000.00946, 0.010, CSIM_SLICE_INSTR);
	mu_slice_us(&m, CA, "CUBE", 0.100, 0.020, CSIM_SLICE_INSTR);
	mu_slice_us(&m, CA, "CUBE", 0.110, 0.0, CSIM_SLICE_INSTR);
	mu_slice_us(&m, CA, "CUBE", 0.300, 0.0, CSIM_SLICE_INSTR);
	mu_slice_us(&m, CA, "FLOWCTRL", 0.100, 0.0, CSIM_SLICE_INSTR);
	mu_slice_us(&m, CA, "FLOWCTRL", 0.100, 0.0, CSIM_SLICE_INSTR);
	mu_slice_us(&m, CA, "MTE2", 20000.0, 0.100, CSIM_SLICE_INSTR);
	mu_slice_us(&m, CA, "MTE2", 20000.098, 0.100, CSIM_SLICE_INSTR);
	mu_slice_us(&m, CA, "MTE3", 1000.0, 0.100, CSIM_SLICE_INSTR);
	mu_slice_us(&m, CA, "MTE3", 1000.098, 0.100, CSIM_SLICE_INSTR);
	run_all(&m);
	for (size_t i = 0; i < sizeof(want) / sizeof(want[0]); i++) {
		const struct csim_summary_pipe *p = pipe_of(&m, CA, want[i].pipe);

		if (!CHECK(c, p != NULL))
			continue;
		CHECK_U64(c, p->depth, want[i].depth);
		CHECK_U64(c, p->has_rows, (uint64_t)want[i].has_rows);
		if (want[i].has_rows)
			CHECK_U64(c, p->rows, want[i].rows);
	}
	csim_model_release(&m);
}

/*
 * Depth under --window: over the slices meeting the window, their true
 * intervals clipped to it.
 * - :0.09 ([.., 90]): MTE2 [0, 100) (sub-lane 0) and [90, 200) (sub-lane
 *   1, starting on the bound: in); clipped, the second is [90, 90), in
 *   flight nowhere: depth 1, while the slices in the window use 2 rows.
 *   Unclipped they are 2 deep.
 * - 0.1: ([100, ..]): MTE1 a = 0.51, b = 100.11 (grid [1, 101): it meets
 *   the window) and [50, 150): both in flight during [50, 99.86) only,
 *   before the window: depth 1, 2 rows.
 */
static void test_window_depth(struct check_ctx *c)
{
	for (int from = 0; from < 2; from++) {
		struct csim_model m;
		const struct csim_summary_pipe *p;
		const char *pipe = from ? "MTE1" : "MTE2";

		csim_model_init(&m);
		if (from) {
			m.cut.window = (struct csim_window){ 1, 0, 100, 0 };
			mu_slice_us(&m, CA, pipe, 0.00051, 0.0996, CSIM_SLICE_INSTR);
			mu_slice(&m, CA, pipe, 50, 150, CSIM_SLICE_INSTR);
		} else {
			m.cut.window = (struct csim_window){ 0, 1, 0, 90 };
			mu_slice(&m, CA, pipe, 0, 100, CSIM_SLICE_INSTR);
			mu_slice(&m, CA, pipe, 90, 200, CSIM_SLICE_INSTR);
		}
		run_all(&m);
		p = pipe_of(&m, CA, pipe);
		if (CHECK(c, p != NULL)) {
			CHECK_U64(c, p->instructions, 2);
			CHECK_U64(c, p->depth, 1);
			CHECK_U64(c, p->rows, 2);
		}
		csim_model_release(&m);
	}
}

/*
 * Overlap of each MTE pipe with the compute pipes of its core. CA: MTE2
 * [0,100) [200,300), CUBE [50,250), FIXP [280,290): MTE2 is busy 200 ns,
 * 50 + 50 + 10 = 110 of them with compute (0.55); MTE1 [400,500) runs
 * while VA's VECTOR does, another core: 0; SCALAR is no compute; MTE3 only
 * waits: no busy time, no overlap. VA: MTE3 [450,550) against VECTOR
 * [400,500) and RVECEX [500,520): 70 of 100. CUBE, VECTOR: not MTE pipes.
 */
static void test_overlap_with_compute(struct check_ctx *c)
{
	static const struct { const char *core, *pipe; int has; int64_t ns; } want[] = {
		{ CA, "MTE2", 1, 110 }, { CA, "MTE1", 1, 0 }, { CA, "MTE3", 0, 0 },
		{ CA, "CUBE", 0, 0 }, { CA, "SCALAR", 0, 0 }, { VA, "MTE3", 1, 70 },
		{ VA, "VECTOR", 0, 0 },
	};
	struct csim_model m;

	csim_model_init(&m);
	mu_slice(&m, CA, "MTE2", 0, 100, CSIM_SLICE_INSTR);
	mu_slice(&m, CA, "MTE2", 200, 300, CSIM_SLICE_INSTR);
	mu_slice(&m, CA, "CUBE", 50, 250, CSIM_SLICE_INSTR);
	mu_slice(&m, CA, "FIXP", 280, 290, CSIM_SLICE_INSTR);
	mu_slice(&m, CA, "MTE1", 400, 500, CSIM_SLICE_INSTR);
	mu_slice(&m, CA, "SCALAR", 0, 1000, CSIM_SLICE_INSTR);
	mu_flag(&m, CSIM_SYNC_WAIT, CA, "MTE3", 10, 40, "w1", mu_detail(&m, "MTE2", "MTE3", 0));
	mu_slice(&m, VA, "VECTOR", 400, 500, CSIM_SLICE_INSTR);
	mu_slice(&m, VA, "RVECEX", 500, 520, CSIM_SLICE_INSTR);
	mu_slice(&m, VA, "MTE3", 450, 550, CSIM_SLICE_INSTR);
	run_all(&m);
	for (size_t i = 0; i < sizeof(want) / sizeof(want[0]); i++) {
		const struct csim_summary_pipe *p = pipe_of(&m, want[i].core, want[i].pipe);

		if (!CHECK(c, p != NULL))
			continue;
		CHECK_U64(c, p->has_overlap, (uint64_t)want[i].has);
		if (want[i].has)
			CHECK_I64(c, p->overlap_ns, want[i].ns);
	}
	csim_model_release(&m);
}

/*
 * --window 0.7:1: an MTE2 slice [0, 1000) moving 100000 bytes (100 GB/s)
 * is 300 ns in the window: 30000 bytes, 100 GB/s inside, the slice's own
 * rate, not 100000 / 300 (333 GB/s); the run's MTE2 moves 500000 bytes in
 * 2000 ns (250 GB/s). MTE3's zero-length slice at 800 counts whole (64).
 * MTE1 [998, 1001) moves 10 bytes, 2 of its 3 ns inside: 6.67, rounded
 * half up to 7.
 */
static void test_window_bytes(struct check_ctx *c)
{
	struct csim_model m;
	const struct csim_summary_pipe *p;

	for (int windowed = 0; windowed < 2; windowed++) {
		csim_model_init(&m);
		if (windowed)
			m.cut.window = (struct csim_window){ 1, 1, 700, 1000 };
		mu_bytes(&m, mu_slice(&m, CA, "MTE2", 0, 1000, CSIM_SLICE_INSTR), 100000);
		mu_bytes(&m, mu_slice(&m, CA, "MTE2", 2000, 3000, CSIM_SLICE_INSTR), 400000);
		mu_bytes(&m, mu_slice(&m, CA, "MTE3", 800, 800, CSIM_SLICE_INSTR), 64);
		mu_bytes(&m, mu_slice(&m, CA, "MTE1", 998, 1001, CSIM_SLICE_INSTR), 10);
		run_all(&m);
		p = pipe_of(&m, CA, "MTE2");
		if (CHECK(c, p != NULL) && CHECK_U64(c, p->has_bytes, 1)) {
			CHECK_U64(c, p->bytes, windowed ? 30000 : 500000);
			CHECK_I64(c, p->busy_ns, windowed ? 300 : 2000);
			/* bytes per ns is GB/s */
			CHECK_U64(c, p->bytes * 1000 / (uint64_t)p->busy_ns,
				  windowed ? 100000 : 250000);
		}
		p = pipe_of(&m, CA, "MTE3");
		if (CHECK(c, p != NULL))
			CHECK_U64(c, p->bytes, 64);
		p = pipe_of(&m, CA, "MTE1");
		if (CHECK(c, p != NULL))
			CHECK_U64(c, p->bytes, windowed ? 7 : 10);
		csim_model_release(&m);
	}
}

/* Adds an API_INSTR row's totals to the model's stats, as the digest does. */
static void instr_row(struct csim_model *m, uint64_t addr, const char *source,
		      uint64_t cycles, uint64_t executed)
{
	struct csim_instr_stats *st = &m->instr;
	uint32_t id = CSIM_NONE;

	if (source != NULL && csim_strtab_intern(&st->text, source, strlen(source), &id) != 0)
		abort();
	st->rows = realloc(st->rows, (st->nrows + 1) * sizeof(*st->rows));
	if (st->rows == NULL)
		abort();
	st->rows[st->nrows++] = (struct csim_instr_row_sum){
		.addr = addr, .cycles = cycles, .executed = executed, .source = id, .has_addr = 1
	};
	st->rows_cap = st->nrows;
	st->total_cycles += cycles;
}

/*
 * Top source lines: k.cpp:5 from three addresses' rows, 0x10 twice
 * (100 + 30) and 0x14 (50): 180 cycles, 2 addresses, and 0x18 with 0
 * cycles adds its 4 executions only: executed 2 + 1 + 1 + 4 = 8. Address
 * 0x20 has no Inner Code but lies in the API_FILE range [0x20, 0x2f] of
 * k.cpp:9: 180. a.cpp:1 180 too: the three tie, in byte order. z.cpp:2
 * has no cycles (out), 0x50 no line at all. Twelve more lines m<k>.cpp:1
 * with k cycles: only m12..m6 fit in the ten.
 */
static void test_top_source_lines(struct check_ctx *c)
{
	static const char *const order[] = {
		"a.cpp:1", "k.cpp:5", "k.cpp:9", "m12.cpp:1", "m11.cpp:1", "m10.cpp:1",
		"m9.cpp:1", "m8.cpp:1", "m7.cpp:1", "m6.cpp:1",
	};
	struct csim_model m;
	uint32_t range;

	csim_model_init(&m);
	m.instr.loaded = 1;
	mu_slice(&m, CA, "MTE2", 0, 100, CSIM_SLICE_INSTR);
	instr_row(&m, 0x10, "k.cpp:5", 100, 2);
	instr_row(&m, 0x14, "k.cpp:5", 50, 1);
	instr_row(&m, 0x10, "k.cpp:5", 30, 1);
	instr_row(&m, 0x20, NULL, 180, 3);
	instr_row(&m, 0x30, "a.cpp:1", 180, 1);
	instr_row(&m, 0x40, "z.cpp:2", 0, 5);
	instr_row(&m, 0x18, "k.cpp:5", 0, 4);
	instr_row(&m, 0x50, NULL, 7, 1);
	for (int k = 1; k <= 12; k++) {
		char src[32];

		snprintf(src, sizeof(src), "m%d.cpp:1", k);
		instr_row(&m, 0x100 + (uint64_t)k, src, (uint64_t)k, 1);
	}
	if (csim_strtab_intern(&m.instr.text, "k.cpp:9", 7, &range) != 0)
		abort();
	m.instr.ranges = malloc(sizeof(*m.instr.ranges));
	if (m.instr.ranges == NULL)
		abort();
	m.instr.ranges[0] = (struct csim_instr_line){ 0x20, 0x2f, range };
	m.instr.nranges = m.instr.ranges_cap = 1;
	run_all(&m);
	if (CHECK_U64(c, m.summary.nlines, 10)) {
		const struct csim_summary_line *l = m.summary.lines;

		for (size_t i = 0; i < 10; i++)
			CHECK_STR(c, csim_strtab_get(&m.instr.text, l[i].source, NULL), order[i]);
		CHECK_U64(c, l[1].cycles, 180);
		CHECK_U64(c, l[1].executed, 8);
		CHECK_U64(c, l[1].addresses, 2);
		CHECK_U64(c, l[2].cycles, 180);
		CHECK_U64(c, l[2].executed, 3);
		CHECK_U64(c, l[2].addresses, 1);
		CHECK_U64(c, l[9].cycles, 6);
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
	CHECK_RUN(&c, test_depth_and_rows);
	CHECK_RUN(&c, test_window_depth);
	CHECK_RUN(&c, test_overlap_with_compute);
	CHECK_RUN(&c, test_window_bytes);
	CHECK_RUN(&c, test_top_source_lines);
	CHECK_RUN(&c, test_empty_and_rerun);
	return check_done(&c);
}
