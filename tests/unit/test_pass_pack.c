/*
 * Sub-lane packing (SPEC §4): lowest free sub-lane on the integer-ns grid.
 * The pack pass runs alone on hand-built kept rows (no lane pass).
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

static void test_ties_sort_by_length_then_input(struct check_ctx *c)
{
	struct csim_model m;
	uint32_t longer, shorter, twin1, twin2;

	csim_model_init(&m);
	longer = mu_slice(&m, "p", "FIXP", 100, 150, CSIM_SLICE_INSTR);
	shorter = mu_slice(&m, "p", "FIXP", 100, 120, CSIM_SLICE_INSTR);
	twin1 = mu_slice(&m, "p", "CUBE", 7, 9, CSIM_SLICE_INSTR);
	twin2 = mu_slice(&m, "p", "CUBE", 7, 9, CSIM_SLICE_INSTR);
	pack(c, &m);
	CHECK_U64(c, sub(&m, shorter), 0);
	CHECK_U64(c, sub(&m, longer), 1);
	CHECK_U64(c, sub(&m, twin1), 0);
	CHECK_U64(c, sub(&m, twin2), 1);
	csim_model_release(&m);
}

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
	CHECK_U64(c, sub(&m, at_end), 0);   /* at b's end: b has ended */
	CHECK_U64(c, sub(&m, at_end2), 0);
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
	CHECK_RUN(&c, test_ties_sort_by_length_then_input);
	CHECK_RUN(&c, test_touching_and_zero_length);
	CHECK_RUN(&c, test_lanes_are_per_pid_and_pipe);
	CHECK_RUN(&c, test_empty_table);
	return check_done(&c);
}
