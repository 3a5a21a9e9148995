/*
 * Cross-core sync arrows (SPEC §5.6): SET/WAIT_INTRA_BLOCK records paired
 * by id across cores, anchored on the pipes their PIPE: names (else their
 * tid), skipped with the flags' reasons.
 */
#include "check.h"
#include "modelutil.h"

#define CUBE "core0.cubecore0"
#define VEC0 "core0.veccore0"
#define VEC1 "core0.veccore1"

static void run_all(struct csim_model *m, int keep_scalar)
{
	m->rule.keep_scalar = keep_scalar;
	if (mu_run(m) != 0)
		abort();
}

/* A cross-core detail "PIPE:<pipe>,sync_id:<n>,"; pipe NULL for none. */
static uint32_t intra_detail(struct csim_model *m, const char *pipe, uint64_t sync_id)
{
	return mu_detail(m, pipe, NULL, sync_id);
}

/* A detail with a PIPE: but no sync_id. */
static uint32_t pipe_only_detail(struct csim_model *m, const char *pipe)
{
	uint32_t d = mu_detail(m, pipe, NULL, 0);

	m->table.details[d].has_flag_id = 0;
	return d;
}

static uint64_t intra_skips_total(const struct csim_model *m)
{
	uint64_t n = 0;

	for (int i = 0; i < CSIM_FSKIP_COUNT; i++)
		n += m->intra_skips[i];
	return n;
}

static void test_pairs_by_id_across_cores(struct check_ctx *c)
{
	struct csim_model m;
	uint32_t prod, cons, in_prod, in_cons;

	csim_model_init(&m);
	prod = mu_slice(&m, CUBE, "FIXP", 100, 200, CSIM_SLICE_INSTR);
	cons = mu_slice(&m, VEC0, "MTE2", 300, 400, CSIM_SLICE_INSTR);
	in_prod = mu_slice(&m, VEC0, "MTE2", 500, 510, CSIM_SLICE_INSTR);
	in_cons = mu_slice(&m, VEC0, "VECTOR", 600, 620, CSIM_SLICE_INSTR);
	/* The SET on the cube core, its WAIT on a vector core: same id. */
	mu_intra(&m, CSIM_SYNC_SET, CUBE, "FIXP", 150, 151, "intra_1",
		 intra_detail(&m, "FIXP", 3));
	mu_intra(&m, CSIM_SYNC_WAIT, VEC0, "MTE2", 160, 290, "intra_1",
		 intra_detail(&m, "MTE2", 3));
	/* An in-core flag beside it still becomes an in-core arrow. */
	mu_flag(&m, CSIM_SYNC_SET, VEC0, "MTE2", 510, 511, "core0.veccore0_1",
		mu_detail(&m, "MTE2", "VECTOR", 0));
	mu_flag(&m, CSIM_SYNC_WAIT, VEC0, "VECTOR", 511, 590, "core0.veccore0_1", CSIM_NONE);
	run_all(&m, 0);
	if (CHECK_U64(c, m.nintra_arrows, 1)) {
		const struct csim_arrow *a = &m.intra_arrows[0];

		CHECK_U64(c, a->producer, prod);
		CHECK_U64(c, a->consumer, cons);
		CHECK_I64(c, a->s_half_ns, 300);
		CHECK_I64(c, a->f_half_ns, 700);
		CHECK_STR(c, mu_name(&m, a->producer_pipe), "FIXP");
		CHECK_STR(c, mu_name(&m, a->consumer_pipe), "MTE2");
		CHECK(c, a->has_flag_id);
		CHECK_U64(c, a->flag_id, 3);
	}
	if (CHECK_U64(c, m.narrows, 1)) {
		CHECK_U64(c, m.arrows[0].producer, in_prod);
		CHECK_U64(c, m.arrows[0].consumer, in_cons);
	}
	CHECK_U64(c, intra_skips_total(&m), 0);
	for (int i = 0; i < CSIM_FSKIP_COUNT; i++)
		CHECK_U64(c, m.flag_skips[i], 0);
	csim_model_release(&m);
}

static void test_end_before_begin(struct check_ctx *c)
{
	struct csim_model m;
	uint32_t prod, cons;

	csim_model_init(&m);
	prod = mu_slice(&m, CUBE, "FIXP", 100, 200, CSIM_SLICE_INSTR);
	cons = mu_slice(&m, VEC1, "MTE3", 300, 400, CSIM_SLICE_INSTR);
	mu_intra_rec(&m, CSIM_SYNC_WAIT, 0, VEC1, "MTE3", 290, "intra_7", CSIM_NONE);
	mu_intra_rec(&m, CSIM_SYNC_SET, 0, CUBE, "FIXP", 151, "intra_7", CSIM_NONE);
	mu_intra_rec(&m, CSIM_SYNC_WAIT, 1, VEC1, "MTE3", 160, "intra_7",
		     intra_detail(&m, "MTE3", 17));
	mu_intra_rec(&m, CSIM_SYNC_SET, 1, CUBE, "FIXP", 150, "intra_7",
		     intra_detail(&m, "FIXP", 17));
	run_all(&m, 0);
	if (CHECK_U64(c, m.nintra_arrows, 1)) {
		CHECK_U64(c, m.intra_arrows[0].producer, prod);
		CHECK_U64(c, m.intra_arrows[0].consumer, cons);
		CHECK_U64(c, m.intra_arrows[0].flag_id, 17);
	}
	CHECK_U64(c, m.flag_skips[CSIM_FSKIP_INCOMPLETE], 0);
	CHECK_U64(c, intra_skips_total(&m), 0);
	csim_model_release(&m);
}

static void test_unmatched_ids_and_records(struct check_ctx *c)
{
	struct csim_model m;

	csim_model_init(&m);
	mu_slice(&m, CUBE, "FIXP", 100, 200, CSIM_SLICE_INSTR);
	mu_slice(&m, VEC0, "MTE2", 300, 400, CSIM_SLICE_INSTR);
	/* A SET whose id no WAIT shares, and a WAIT whose id no SET shares. */
	mu_intra(&m, CSIM_SYNC_SET, CUBE, "FIXP", 150, 151, "intra_2",
		 intra_detail(&m, "FIXP", 1));
	mu_intra(&m, CSIM_SYNC_WAIT, VEC0, "MTE2", 160, 290, "intra_3",
		 intra_detail(&m, "MTE2", 1));
	/* No id: cross-core records pair by id only. */
	mu_intra(&m, CSIM_SYNC_SET, CUBE, "FIXP", 152, 153, NULL,
		 intra_detail(&m, "FIXP", 1));
	/* A B without its E. */
	mu_intra_rec(&m, CSIM_SYNC_SET, 1, CUBE, "FIXP", 154, "intra_4", CSIM_NONE);
	run_all(&m, 0);
	CHECK_U64(c, m.nintra_arrows, 0);
	CHECK_U64(c, m.intra_skips[CSIM_FSKIP_NO_WAIT], 1);
	CHECK_U64(c, m.intra_skips[CSIM_FSKIP_NO_SET], 1);
	CHECK_U64(c, m.intra_skips[CSIM_FSKIP_NO_KEY], 1);
	CHECK_U64(c, intra_skips_total(&m), 3);
	CHECK_U64(c, m.flag_skips[CSIM_FSKIP_INCOMPLETE], 1);
	/* None of them is matched in-core. */
	CHECK_U64(c, m.narrows, 0);
	CHECK_U64(c, m.flag_skips[CSIM_FSKIP_NO_WAIT] + m.flag_skips[CSIM_FSKIP_NO_SET] +
		     m.flag_skips[CSIM_FSKIP_NO_KEY], 0);
	csim_model_release(&m);
}

static void test_producer_lane_dropped(struct check_ctx *c)
{
	for (int keep = 0; keep <= 1; keep++) {
		struct csim_model m;
		uint32_t prod;

		csim_model_init(&m);
		prod = mu_slice(&m, CUBE, "SCALAR", 100, 200, CSIM_SLICE_INSTR);
		mu_slice(&m, VEC0, "MTE2", 300, 400, CSIM_SLICE_INSTR);
		mu_intra(&m, CSIM_SYNC_SET, CUBE, "SCALAR", 150, 151, "intra_1",
			 intra_detail(&m, "SCALAR", 2));
		mu_intra(&m, CSIM_SYNC_WAIT, VEC0, "MTE2", 160, 290, "intra_1",
			 intra_detail(&m, "MTE2", 2));
		run_all(&m, keep);
		CHECK_U64(c, m.nintra_arrows, (uint64_t)keep);
		CHECK_U64(c, m.intra_skips[CSIM_FSKIP_PRODUCER_DROPPED], (uint64_t)!keep);
		if (keep && m.nintra_arrows == 1)
			CHECK_U64(c, m.intra_arrows[0].producer, prod);
		csim_model_release(&m);
	}
}

static void test_consumer_lane_and_slices_missing(struct check_ctx *c)
{
	struct csim_model m;

	csim_model_init(&m);
	mu_slice(&m, CUBE, "FIXP", 100, 200, CSIM_SLICE_INSTR);
	mu_slice(&m, VEC0, "MTE2", 300, 400, CSIM_SLICE_INSTR);
	/* The WAIT's pipe is dropped (FLOWCTRL is noise). */
	mu_intra(&m, CSIM_SYNC_SET, CUBE, "FIXP", 150, 151, "intra_1", CSIM_NONE);
	mu_intra(&m, CSIM_SYNC_WAIT, VEC0, "FLOWCTRL", 160, 290, "intra_1", CSIM_NONE);
	/* Nothing on the cube core's FIXP before the SET. */
	mu_intra(&m, CSIM_SYNC_SET, CUBE, "FIXP", 50, 51, "intra_2", CSIM_NONE);
	mu_intra(&m, CSIM_SYNC_WAIT, VEC0, "MTE2", 160, 290, "intra_2", CSIM_NONE);
	/* Nothing on the vector core's MTE2 after the WAIT. */
	mu_intra(&m, CSIM_SYNC_SET, CUBE, "FIXP", 150, 151, "intra_3", CSIM_NONE);
	mu_intra(&m, CSIM_SYNC_WAIT, VEC0, "MTE2", 160, 301, "intra_3", CSIM_NONE);
	/* The consumer is on another core: the SET's core has no MTE2 slice. */
	mu_intra(&m, CSIM_SYNC_SET, CUBE, "FIXP", 150, 151, "intra_4", CSIM_NONE);
	mu_intra(&m, CSIM_SYNC_WAIT, CUBE, "MTE2", 160, 290, "intra_4", CSIM_NONE);
	run_all(&m, 0);
	CHECK_U64(c, m.nintra_arrows, 0);
	CHECK_U64(c, m.intra_skips[CSIM_FSKIP_CONSUMER_DROPPED], 1);
	CHECK_U64(c, m.intra_skips[CSIM_FSKIP_NO_PRODUCER], 1);
	CHECK_U64(c, m.intra_skips[CSIM_FSKIP_NO_CONSUMER], 2);
	CHECK_U64(c, intra_skips_total(&m), 4);
	csim_model_release(&m);
}

/* PIPE:VEC means the vector family: VECTOR, PUSHQ and every RVEC* lane. */
static void test_vector_family_anchor(struct check_ctx *c)
{
	struct csim_model m;
	uint32_t prod, cons;

	csim_model_init(&m);
	mu_slice(&m, VEC0, "PUSHQ", 100, 110, CSIM_SLICE_INSTR);
	prod = mu_slice(&m, VEC0, "RVECEX", 120, 140, CSIM_SLICE_INSTR);
	mu_slice(&m, VEC0, "RVECST", 160, 170, CSIM_SLICE_INSTR);   /* after the SET */
	mu_slice(&m, CUBE, "MTE1", 200, 300, CSIM_SLICE_INSTR);
	cons = mu_slice(&m, CUBE, "MTE2", 400, 500, CSIM_SLICE_INSTR);
	mu_intra(&m, CSIM_SYNC_SET, VEC0, "VECTOR", 150, 151, "intra_9",
		 intra_detail(&m, "VECTOR", 5));
	mu_intra(&m, CSIM_SYNC_WAIT, CUBE, "MTE2", 152, 390, "intra_9",
		 intra_detail(&m, "MTE2", 5));
	run_all(&m, 0);
	if (CHECK_U64(c, m.nintra_arrows, 1)) {
		CHECK_U64(c, m.intra_arrows[0].producer, prod);
		CHECK_U64(c, m.intra_arrows[0].consumer, cons);
		/* The arrow names the pipe the SET names, not the anchor's lane. */
		CHECK_STR(c, mu_name(&m, m.intra_arrows[0].producer_pipe), "VECTOR");
	}
	csim_model_release(&m);
}

/* PIPE: in the detail wins over the tid; without it the tid is the pipe. */
static void test_pipe_from_detail_else_tid(struct check_ctx *c)
{
	struct csim_model m;
	uint32_t fixp, mte2;

	csim_model_init(&m);
	mu_slice(&m, CUBE, "MTE3", 120, 140, CSIM_SLICE_INSTR);
	fixp = mu_slice(&m, CUBE, "FIXP", 100, 130, CSIM_SLICE_INSTR);
	mte2 = mu_slice(&m, VEC0, "MTE2", 300, 310, CSIM_SLICE_INSTR);
	mu_slice(&m, VEC0, "MTE3", 295, 320, CSIM_SLICE_INSTR);
	/* The SET sits on tid MTE3 but names FIXP; the WAIT has no detail. */
	mu_intra(&m, CSIM_SYNC_SET, CUBE, "MTE3", 150, 151, "intra_5",
		 pipe_only_detail(&m, "FIXP"));
	mu_intra(&m, CSIM_SYNC_WAIT, VEC0, "MTE2", 160, 290, "intra_5", CSIM_NONE);
	run_all(&m, 0);
	if (CHECK_U64(c, m.nintra_arrows, 1)) {
		const struct csim_arrow *a = &m.intra_arrows[0];

		CHECK_U64(c, a->producer, fixp);
		CHECK_U64(c, a->consumer, mte2);
		CHECK_STR(c, mu_name(&m, a->producer_pipe), "FIXP");
		CHECK_STR(c, mu_name(&m, a->consumer_pipe), "MTE2");
		CHECK(c, !a->has_flag_id);   /* no sync_id on either side */
	}
	csim_model_release(&m);
}

/* The WAIT's sync_id names the arrow when the SET's detail lacks one. */
static void test_sync_id_from_wait(struct check_ctx *c)
{
	struct csim_model m;

	csim_model_init(&m);
	mu_slice(&m, CUBE, "FIXP", 100, 200, CSIM_SLICE_INSTR);
	mu_slice(&m, VEC1, "MTE2", 300, 400, CSIM_SLICE_INSTR);
	mu_intra(&m, CSIM_SYNC_SET, CUBE, "FIXP", 150, 151, "intra_1",
		 pipe_only_detail(&m, "FIXP"));
	mu_intra(&m, CSIM_SYNC_WAIT, VEC1, "MTE2", 160, 290, "intra_1",
		 intra_detail(&m, "MTE2", 16));
	run_all(&m, 0);
	if (CHECK_U64(c, m.nintra_arrows, 1)) {
		CHECK(c, m.intra_arrows[0].has_flag_id);
		CHECK_U64(c, m.intra_arrows[0].flag_id, 16);
	}
	csim_model_release(&m);
}

/* Arrows in SET-begin order whatever the ids' order; reused ids pair in begin order. */
static void test_order_and_reused_ids(struct check_ctx *c)
{
	struct csim_model m;
	uint32_t p1, p2, c1, c2;

	csim_model_init(&m);
	p1 = mu_slice(&m, CUBE, "FIXP", 100, 110, CSIM_SLICE_INSTR);
	p2 = mu_slice(&m, CUBE, "FIXP", 200, 210, CSIM_SLICE_INSTR);
	c1 = mu_slice(&m, VEC0, "MTE2", 300, 310, CSIM_SLICE_INSTR);
	c2 = mu_slice(&m, VEC0, "MTE2", 400, 410, CSIM_SLICE_INSTR);
	/* "intra_b" is interned first but its SET begins later. */
	mu_intra(&m, CSIM_SYNC_SET, CUBE, "FIXP", 250, 251, "intra_b", CSIM_NONE);
	mu_intra(&m, CSIM_SYNC_WAIT, VEC0, "MTE2", 260, 390, "intra_b", CSIM_NONE);
	/* "intra_a" twice, the SETs written late-first, the WAITs early-first:
	   by begin, the earlier SET takes the earlier WAIT. */
	mu_intra(&m, CSIM_SYNC_SET, CUBE, "FIXP", 215, 216, "intra_a", CSIM_NONE);
	mu_intra(&m, CSIM_SYNC_WAIT, VEC0, "MTE2", 160, 290, "intra_a", CSIM_NONE);
	mu_intra(&m, CSIM_SYNC_SET, CUBE, "FIXP", 150, 151, "intra_a", CSIM_NONE);
	mu_intra(&m, CSIM_SYNC_WAIT, VEC0, "MTE2", 230, 395, "intra_a", CSIM_NONE);
	run_all(&m, 0);
	if (CHECK_U64(c, m.nintra_arrows, 3)) {
		CHECK_U64(c, m.intra_arrows[0].producer, p1);
		CHECK_U64(c, m.intra_arrows[0].consumer, c1);
		CHECK_I64(c, m.intra_arrows[0].set_begin, 150);
		CHECK_U64(c, m.intra_arrows[1].producer, p2);
		CHECK_U64(c, m.intra_arrows[1].consumer, c2);
		CHECK_I64(c, m.intra_arrows[1].set_begin, 215);
		CHECK_U64(c, m.intra_arrows[2].producer, p2);
		CHECK_U64(c, m.intra_arrows[2].consumer, c2);
		CHECK_I64(c, m.intra_arrows[2].set_begin, 250);
	}
	csim_model_release(&m);
}

/*
 * SPEC §5.3 for cross-core syncs too: the producer on the setting core is
 * the FIXP instruction that had completed when the SET fired, not the
 * pipelined one still running; with none completed, the fallback is
 * counted.
 */
static void test_producer_by_completion(struct check_ctx *c)
{
	struct csim_model m;
	uint32_t done, cons;

	csim_model_init(&m);
	done = mu_slice(&m, CUBE, "FIXP", 100, 200, CSIM_SLICE_INSTR);
	mu_slice(&m, CUBE, "FIXP", 150, 260, CSIM_SLICE_INSTR);   /* running at 230 */
	cons = mu_slice(&m, VEC0, "MTE2", 300, 400, CSIM_SLICE_INSTR);
	mu_intra(&m, CSIM_SYNC_SET, CUBE, "FIXP", 230, 231, "intra_1",
		 intra_detail(&m, "FIXP", 3));
	mu_intra(&m, CSIM_SYNC_WAIT, VEC0, "MTE2", 160, 290, "intra_1",
		 intra_detail(&m, "MTE2", 3));
	mu_intra(&m, CSIM_SYNC_SET, CUBE, "FIXP", 120, 121, "intra_2",
		 intra_detail(&m, "FIXP", 4));
	mu_intra(&m, CSIM_SYNC_WAIT, VEC0, "MTE2", 160, 290, "intra_2",
		 intra_detail(&m, "MTE2", 4));
	run_all(&m, 0);
	if (CHECK_U64(c, m.nintra_arrows, 2)) {
		CHECK_U64(c, m.intra_arrows[0].producer, done);   /* SET 120: fallback */
		CHECK(c, m.intra_arrows[0].running);
		CHECK_U64(c, m.intra_arrows[1].producer, done);   /* SET 230: completed */
		CHECK(c, !m.intra_arrows[1].running);
		CHECK_U64(c, m.intra_arrows[1].consumer, cons);
	}
	CHECK_U64(c, m.intra_running, 1);
	csim_model_release(&m);
}

int main(void)
{
	struct check_ctx c = { 0, 0, NULL };

	CHECK_RUN(&c, test_pairs_by_id_across_cores);
	CHECK_RUN(&c, test_producer_by_completion);
	CHECK_RUN(&c, test_end_before_begin);
	CHECK_RUN(&c, test_unmatched_ids_and_records);
	CHECK_RUN(&c, test_producer_lane_dropped);
	CHECK_RUN(&c, test_consumer_lane_and_slices_missing);
	CHECK_RUN(&c, test_vector_family_anchor);
	CHECK_RUN(&c, test_pipe_from_detail_else_tid);
	CHECK_RUN(&c, test_sync_id_from_wait);
	CHECK_RUN(&c, test_order_and_reused_ids);
	return check_done(&c);
}
