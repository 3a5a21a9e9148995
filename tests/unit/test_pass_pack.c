/*
 * Sub-lane packing (SPEC §4): lowest free sub-lane for each slice's
 * occupancy interval, in order of interval start. The pack pass runs alone
 * on hand-built kept rows (no lane pass). mu_slice() rows have whole-ns
 * times; mu_slice_us() rows are read like the producer's float times.
 */
#include "check.h"
#include "modelutil.h"

/* Runs pack alone; a pass error is a recorded failure. */
static void pack(struct check_ctx *c, struct csim_model *m)
{
	struct csim_error err;

	csim_error_clear(&err);
	CHECK_I64(c, csim_pass_pack(m, &err), CSIM_OK);
}

static uint32_t sub(const struct csim_model *m, uint32_t i)
{
	return m->table.slices[i].sublane;
}

static void test_depth_five_pipeline(struct check_ctx *c)
{
	struct csim_model m;
	uint32_t s[6];

	csim_model_init(&m);
	for (int i = 0; i < 5; i++)
		s[i] = mu_slice(&m, "core0.cubecore0", "MTE1", 2 * i, 2 * i + 10,
				CSIM_SLICE_INSTR);
	s[5] = mu_slice(&m, "core0.cubecore0", "MTE1", 20, 30, CSIM_SLICE_INSTR);
	pack(c, &m);
	for (uint32_t i = 0; i < 5; i++)
		CHECK_U64(c, sub(&m, s[i]), i);
	CHECK_U64(c, sub(&m, s[5]), 0);
	CHECK_U64(c, m.nlanes, 1);
	CHECK_U64(c, m.lanes[0].nsub, 5);
	CHECK_U64(c, m.lanes[0].depth, 5);   /* five in flight during [8, 9.75) */
	CHECK_U64(c, m.extra_sublanes, 4);
	csim_model_release(&m);
}

static void test_lowest_free_sublane_wins(struct check_ctx *c)
{
	struct csim_model m;
	uint32_t a, b, cc, d, e;

	csim_model_init(&m);
	a = mu_slice(&m, "p", "MTE1", 0, 10, CSIM_SLICE_INSTR);
	b = mu_slice(&m, "p", "MTE1", 1, 5, CSIM_SLICE_INSTR);
	cc = mu_slice(&m, "p", "MTE1", 2, 20, CSIM_SLICE_INSTR);
	d = mu_slice(&m, "p", "MTE1", 6, 8, CSIM_SLICE_INSTR);
	e = mu_slice(&m, "p", "MTE1", 11, 12, CSIM_SLICE_INSTR);
	pack(c, &m);
	CHECK_U64(c, sub(&m, a), 0);
	CHECK_U64(c, sub(&m, b), 1);
	CHECK_U64(c, sub(&m, cc), 2);
	CHECK_U64(c, sub(&m, d), 1);   /* b ended at 5 <= 6; a still busy */
	CHECK_U64(c, sub(&m, e), 0);   /* a (10) and d (8) ended: lowest is 0 */
	csim_model_release(&m);
}

static void test_ties_keep_input_order(struct check_ctx *c)
{
	struct csim_model m;
	uint32_t longer, shorter, twin1, twin2;

	csim_model_init(&m);
	longer = mu_slice(&m, "p", "FIXP", 100, 150, CSIM_SLICE_INSTR);
	shorter = mu_slice(&m, "p", "FIXP", 100, 120, CSIM_SLICE_INSTR);
	twin1 = mu_slice(&m, "p", "CUBE", 7, 9, CSIM_SLICE_INSTR);
	twin2 = mu_slice(&m, "p", "CUBE", 7, 9, CSIM_SLICE_INSTR);
	pack(c, &m);
	CHECK_U64(c, sub(&m, longer), 0);    /* same start: input order, not length */
	CHECK_U64(c, sub(&m, shorter), 1);
	CHECK_U64(c, sub(&m, twin1), 0);
	CHECK_U64(c, sub(&m, twin2), 1);
	csim_model_release(&m);
}

/*
 * Whole-ns points: [a - 1.25, a + 0.5). a [0, 9.75) and b [10, 19.75) touch;
 * the point at 5 [3.75, 5.5) is inside a; the two points at b's end
 * [18.75, 20.5) overlap b's last quarter ns and each other.
 */
static void test_touching_and_zero_length(struct check_ctx *c)
{
	struct csim_model m;
	uint32_t a, b, inside, at_end, at_end2;

	csim_model_init(&m);
	a = mu_slice(&m, "p", "MTE2", 0, 10, CSIM_SLICE_INSTR);
	b = mu_slice(&m, "p", "MTE2", 10, 20, CSIM_SLICE_INSTR);
	inside = mu_slice(&m, "p", "MTE2", 5, 5, CSIM_SLICE_INSTR);
	at_end = mu_slice(&m, "p", "MTE2", 20, 20, CSIM_SLICE_INSTR);
	at_end2 = mu_slice(&m, "p", "MTE2", 20, 20, CSIM_SLICE_INSTR);
	pack(c, &m);
	CHECK_U64(c, sub(&m, a), 0);
	CHECK_U64(c, sub(&m, b), 0);        /* touching is not overlapping */
	CHECK_U64(c, sub(&m, inside), 1);   /* a point strictly inside a */
	CHECK_U64(c, sub(&m, at_end), 1);   /* catapult would nest it under b */
	CHECK_U64(c, sub(&m, at_end2), 2);  /* and under its twin */
	CHECK_U64(c, m.lanes[0].nsub, 3);
	csim_model_release(&m);
}

/*
 * Float times (µs), read like the producer's. x [1000000.0, 1000010.0) ns
 * occupies up to b - tol = 1000009.75. A neighbour 0.54 ns (one cycle)
 * before x's end, at 1000009.46, rounds to 1000009 + 10 on Perfetto's grid
 * and would look merely touching after an overlap Perfetto hides no more
 * than catapult draws: it opens sub-lane 1. One 2 ps before x's end is
 * float noise: it shares sub-lane 0.
 */
static void test_one_cycle_overlap_opens_a_sublane(struct check_ctx *c)
{
	struct csim_model m;
	uint32_t x, cycle, noise, first;

	csim_model_init(&m);
	x = mu_slice_us(&m, "p", "MTE1", 1000.0, 0.010, CSIM_SLICE_INSTR);
	cycle = mu_slice_us(&m, "p", "MTE1", 1000.00946, 0.010, CSIM_SLICE_INSTR);
	noise = mu_slice_us(&m, "p", "MTE2", 1000.009998, 0.010, CSIM_SLICE_INSTR);
	first = mu_slice_us(&m, "p", "MTE2", 1000.0, 0.010, CSIM_SLICE_INSTR);
	pack(c, &m);
	CHECK_U64(c, sub(&m, x), 0);
	CHECK_U64(c, sub(&m, cycle), 1);
	CHECK_U64(c, sub(&m, first), 0);   /* sorted by start, not input order */
	CHECK_U64(c, sub(&m, noise), 0);
	CHECK_U64(c, m.extra_sublanes, 1);
	csim_model_release(&m);
}

/*
 * Both ends of the interval. VECTOR: x is a = 0.4, b = 10.4 (ends at
 * b - tol = 10.15); a neighbour at 10.3 overlaps it by 0.1 ns (noise,
 * shared), one at 9.6 by 0.8 ns although both round to touching [0, 10),
 * [10, 20) (a sub-lane of its own). FIXP: y is a = 0.51, b = 10.01 but
 * s = 1, e = 1 + llround(9.5) = 11; a neighbour at 10.2 clears y's float
 * end, yet Perfetto's [10, 20) would overlap [1, 11): e - 0.5 = 10.5 ends
 * y's interval, so it takes sub-lane 1.
 */
static void test_rounded_end_and_tolerance(struct check_ctx *c)
{
	struct csim_model m;
	uint32_t x, noise, overlap, y, grid;

	csim_model_init(&m);
	x = mu_slice_us(&m, "p", "VECTOR", 0.0004, 0.010, CSIM_SLICE_INSTR);
	noise = mu_slice_us(&m, "p", "VECTOR", 0.0103, 0.010, CSIM_SLICE_INSTR);
	overlap = mu_slice_us(&m, "p", "VECTOR", 0.0096, 0.010, CSIM_SLICE_INSTR);
	y = mu_slice_us(&m, "p", "FIXP", 0.00051, 0.0095, CSIM_SLICE_INSTR);
	grid = mu_slice_us(&m, "p", "FIXP", 0.0102, 0.010, CSIM_SLICE_INSTR);
	pack(c, &m);
	CHECK_I64(c, m.table.slices[y].end, 11);
	CHECK_U64(c, sub(&m, x), 0);
	CHECK_U64(c, sub(&m, overlap), 1);
	CHECK_U64(c, sub(&m, noise), 0);
	CHECK_U64(c, sub(&m, y), 0);
	CHECK_U64(c, sub(&m, grid), 1);
	csim_model_release(&m);
}

/*
 * Points keep a full ns (plus tol) clear on both sides: [a - 1.25, a + 0.5)
 * here. x [100, 120) ns has a zero-length slice at its start (Perfetto
 * would nest them: same start), one at its end (catapult would: bounds
 * inclusive) and a 0.6 ns slice inside (rounded to 1 ns, yet b - a < 1);
 * by interval start: at_start 98.75, x 100, short_one 108.75, at_end
 * 118.75, so x alone goes to sub-lane 1. On FIXP, points 2 ns before and
 * after a slice share its sub-lane.
 */
static void test_points_keep_a_ns_clear(struct check_ctx *c)
{
	struct csim_model m;
	uint32_t x, at_start, at_end, short_one, clear_before, clear_after;

	csim_model_init(&m);
	x = mu_slice_us(&m, "p", "CUBE", 0.100, 0.020, CSIM_SLICE_INSTR);
	at_start = mu_slice_us(&m, "p", "CUBE", 0.100, 0.0, CSIM_SLICE_INSTR);
	at_end = mu_slice_us(&m, "p", "CUBE", 0.120, 0.0, CSIM_SLICE_INSTR);
	short_one = mu_slice_us(&m, "p", "CUBE", 0.110, 0.0006, CSIM_SLICE_INSTR);
	clear_before = mu_slice_us(&m, "p", "FIXP", 0.098, 0.0, CSIM_SLICE_INSTR);
	mu_slice_us(&m, "p", "FIXP", 0.100, 0.020, CSIM_SLICE_INSTR);
	clear_after = mu_slice_us(&m, "p", "FIXP", 0.122, 0.0, CSIM_SLICE_INSTR);
	pack(c, &m);
	CHECK(c, m.table.slices[short_one].end > m.table.slices[short_one].start);
	CHECK_U64(c, sub(&m, at_start), 0);
	CHECK_U64(c, sub(&m, x), 1);
	CHECK_U64(c, sub(&m, short_one), 0);
	CHECK_U64(c, sub(&m, at_end), 0);
	CHECK_U64(c, m.lanes[0].nsub, 2);
	CHECK_U64(c, sub(&m, clear_before), 0);
	CHECK_U64(c, sub(&m, clear_after), 0);
	CHECK_U64(c, m.lanes[1].nsub, 1);
	csim_model_release(&m);
}

/*
 * Past ~1 ms tol grows with |a| (2^-22 of it): 4.77 ns at 20 ms. There a
 * neighbour 0.8 ns before the end (b = 20000100.4, rounded end 20000100,
 * next start 20000099.6, also rounded to 20000100) is float noise; at 1 ms,
 * where tol is 0.25 ns, the same 0.8 ns is a real overlap.
 */
static void test_tolerance_grows_with_time(struct check_ctx *c)
{
	struct csim_model m;

	csim_model_init(&m);
	mu_slice_us(&m, "p", "MTE2", 20000.0, 0.1004, CSIM_SLICE_INSTR);
	mu_slice_us(&m, "p", "MTE2", 20000.0996, 0.100, CSIM_SLICE_INSTR);
	mu_slice_us(&m, "p", "MTE3", 1000.0, 0.1004, CSIM_SLICE_INSTR);
	mu_slice_us(&m, "p", "MTE3", 1000.0996, 0.100, CSIM_SLICE_INSTR);
	pack(c, &m);
	CHECK_U64(c, m.lanes[0].nsub, 1);
	CHECK_U64(c, m.lanes[1].nsub, 2);
	csim_model_release(&m);
}

/* The lane of (pid, pipe) after pack, or NULL. */
static const struct csim_lane *lane(const struct csim_model *m, const char *pipe)
{
	for (size_t i = 0; i < m->nlanes; i++)
		if (strcmp(mu_name(m, m->lanes[i].pipe), pipe) == 0)
			return &m->lanes[i];
	return NULL;
}

/*
 * Depth (SPEC §4) is the peak over the true intervals [a, b - tol), not the
 * sub-lanes:
 * - FIXP, strictly serial: y a = 0.51, b = 10.01 (s = 1, e = 11), z at
 *   10.2: y is over at 9.76 before z starts, yet Perfetto's [1, 11) and
 *   [10, 20) overlap by 1 ns, so z takes sub-lane 1: 2 rows, depth 1.
 * - MTE1, a one-cycle overlap: x ends at 1000009.75, the next starts at
 *   1000009.46: 0.29 ns both in flight: depth 2, 2 rows.
 * - CUBE [100, 120) with a point at 110 (its own sub-lane) and one at 300:
 *   points count 1 only where nothing runs: depth 1, 2 rows. VECTOR holds
 *   two points only: depth 1.
 * - MTE2 at 20 ms, where tol is 4.77 ns: [20000000, 20000100) and a
 *   neighbour from 20000098: 2 ns of float noise, depth 1; Perfetto's
 *   [.., 20000100) and [20000098, ..) overlap, so 2 rows. The same pair at
 *   1 ms (MTE3, tol 0.25) overlaps for real: depth 2.
 */
static void test_depth_is_not_sublanes(struct check_ctx *c)
{
	static const struct { const char *pipe; uint32_t nsub, depth; } want[] = {
		{ "FIXP", 2, 1 }, { "MTE1", 2, 2 }, { "CUBE", 2, 1 }, { "VECTOR", 1, 1 },
		{ "MTE2", 2, 1 }, { "MTE3", 2, 2 },
	};
	struct csim_model m;

	csim_model_init(&m);
	mu_slice_us(&m, "p", "FIXP", 0.00051, 0.0095, CSIM_SLICE_INSTR);
	mu_slice_us(&m, "p", "FIXP", 0.0102, 0.010, CSIM_SLICE_INSTR);
	mu_slice_us(&m, "p", "MTE1", 1000.0, 0.010, CSIM_SLICE_INSTR);
	mu_slice_us(&m, "p", "MTE1", 1000.00946, 0.010, CSIM_SLICE_INSTR);
	mu_slice_us(&m, "p", "CUBE", 0.100, 0.020, CSIM_SLICE_INSTR);
	mu_slice_us(&m, "p", "CUBE", 0.110, 0.0, CSIM_SLICE_INSTR);
	mu_slice_us(&m, "p", "CUBE", 0.300, 0.0, CSIM_SLICE_INSTR);
	mu_slice_us(&m, "p", "VECTOR", 0.100, 0.0, CSIM_SLICE_INSTR);
	mu_slice_us(&m, "p", "VECTOR", 0.200, 0.0, CSIM_SLICE_INSTR);
	mu_slice_us(&m, "p", "MTE2", 20000.0, 0.100, CSIM_SLICE_INSTR);
	mu_slice_us(&m, "p", "MTE2", 20000.098, 0.100, CSIM_SLICE_INSTR);
	mu_slice_us(&m, "p", "MTE3", 1000.0, 0.100, CSIM_SLICE_INSTR);
	mu_slice_us(&m, "p", "MTE3", 1000.098, 0.100, CSIM_SLICE_INSTR);
	pack(c, &m);
	for (size_t i = 0; i < sizeof(want) / sizeof(want[0]); i++) {
		const struct csim_lane *l = lane(&m, want[i].pipe);

		if (!CHECK(c, l != NULL))
			continue;
		CHECK_U64(c, l->nsub, want[i].nsub);
		CHECK_U64(c, l->depth, want[i].depth);
	}
	csim_model_release(&m);
}

static void test_lanes_are_per_pid_and_pipe(struct check_ctx *c)
{
	/* (pid, pipe, nsub) in the order lanes[] must list them: by pid id,
	   then pipe id (both in order of first appearance). */
	static const struct { const char *pid, *pipe; uint32_t nsub; } want[] = {
		{ "core0.veccore0", "VECTOR", 1 },
		{ "core0.veccore0", "MTE3", 1 },
		{ "core0.veccore1", "VECTOR", 1 },
		{ "core0.veccore1", "MTE3", 2 },
	};
	struct csim_model m;
	uint32_t x, y, z, w;

	csim_model_init(&m);
	x = mu_slice(&m, "core0.veccore0", "VECTOR", 0, 10, CSIM_SLICE_INSTR);
	y = mu_slice(&m, "core0.veccore1", "MTE3", 0, 10, CSIM_SLICE_INSTR);
	z = mu_slice(&m, "core0.veccore0", "MTE3", 0, 10, CSIM_SLICE_INSTR);
	w = mu_slice(&m, "core0.veccore1", "MTE3", 5, 15, CSIM_SLICE_INSTR);
	mu_slice(&m, "core0.veccore1", "VECTOR", 0, 10, CSIM_SLICE_INSTR);
	/* A dropped row takes no sub-lane: x's lane stays one sub-lane deep. */
	mu_slice(&m, "core0.veccore0", "VECTOR", 1, 9, CSIM_SLICE_BAR);
	mu_keep(&m, mu_slice(&m, "core0.veccore0", "VECTOR", 2, 8, CSIM_SLICE_INSTR), 0);
	pack(c, &m);
	CHECK_U64(c, sub(&m, x), 0);
	CHECK_U64(c, sub(&m, y), 0);
	CHECK_U64(c, sub(&m, z), 0);
	CHECK_U64(c, sub(&m, w), 1);
	CHECK_U64(c, m.extra_sublanes, 1);
	if (!CHECK_U64(c, m.nlanes, 4))
		goto out;
	for (size_t i = 0; i < 4; i++) {
		CHECK_STR(c, m.table.pid_names[m.lanes[i].pid], want[i].pid);
		CHECK_STR(c, mu_name(&m, m.lanes[i].pipe), want[i].pipe);
		CHECK_U64(c, m.lanes[i].nsub, want[i].nsub);
	}
out:
	csim_model_release(&m);
}

/*
 * A staircase of overlapping slices (each overlaps the next in time only)
 * takes sub-lanes 0, 1, 0, 1... in time order, whatever the input order:
 * reversed (the insertion sort gives up and qsort sorts the lane) and
 * nearly in order (neighbours swapped: the insertion sort alone).
 */
static void test_input_order_does_not_matter(struct check_ctx *c)
{
	enum { N = 300 };

	for (int reversed = 0; reversed <= 1; reversed++) {
		struct csim_model m;
		uint32_t row[N];
		int ok = 1;

		csim_model_init(&m);
		for (int k = 0; k < N; k++) {
			/* k-th row in the input holds step rank(k) of the staircase */
			int rank = reversed ? N - 1 - k : (k % 10 == 3 ? k + 1 : k % 10 == 4 ? k - 1 : k);

			row[rank] = mu_slice(&m, "p", "MTE2", 10 * rank, 10 * rank + 15,
					     CSIM_SLICE_INSTR);
		}
		pack(c, &m);
		for (int r = 0; r < N; r++)
			ok &= sub(&m, row[r]) == (uint32_t)(r % 2);
		CHECK(c, ok);
		CHECK_U64(c, m.nlanes, 1);
		CHECK_U64(c, m.extra_sublanes, 1);
		csim_model_release(&m);
	}
}

static void test_empty_table(struct check_ctx *c)
{
	struct csim_model m;

	csim_model_init(&m);
	pack(c, &m);
	CHECK_U64(c, m.nlanes, 0);
	csim_model_release(&m);
}

int main(void)
{
	struct check_ctx c = { 0, 0, NULL };

	CHECK_RUN(&c, test_depth_five_pipeline);
	CHECK_RUN(&c, test_lowest_free_sublane_wins);
	CHECK_RUN(&c, test_ties_keep_input_order);
	CHECK_RUN(&c, test_touching_and_zero_length);
	CHECK_RUN(&c, test_one_cycle_overlap_opens_a_sublane);
	CHECK_RUN(&c, test_rounded_end_and_tolerance);
	CHECK_RUN(&c, test_points_keep_a_ns_clear);
	CHECK_RUN(&c, test_tolerance_grows_with_time);
	CHECK_RUN(&c, test_depth_is_not_sublanes);
	CHECK_RUN(&c, test_lanes_are_per_pid_and_pipe);
	CHECK_RUN(&c, test_input_order_does_not_matter);
	CHECK_RUN(&c, test_empty_table);
	return check_done(&c);
}
