/* Sync arrows (SPEC §5): B/E pairing, SET/WAIT matching, anchoring. */
#include "check.h"
#include "modelutil.h"

#include "model/pass_flags.h"
#include "model/pass_pair.h"

#define P "core0.veccore0"

static void run_all(struct csim_model *m, int keep_scalar)
{
	m->rule.keep_scalar = keep_scalar;
	if (mu_run(m) != 0)
		abort();
}

/* Every flag is an arrow or counted under one skip reason. */
static uint64_t skips_total(const struct csim_model *m)
{
	uint64_t n = 0;

	for (int i = 0; i < CSIM_FSKIP_COUNT; i++)
		n += m->flag_skips[i];
	return n;
}

/* The pair pass alone. */
static int run_pass_alone(struct csim_model *m)
{
	struct csim_error err;

	csim_error_clear(&err);
	return csim_pass_pair(m, &err);
}

static void init(struct csim_model *m)
{

	csim_model_init(m);
}

static void test_ids_pair_even_when_end_comes_first(struct check_ctx *c)
{
	struct csim_model m;
	uint32_t prod, cons;

	init(&m);
	prod = mu_slice(&m, P, "MTE2", 100, 200, CSIM_SLICE_INSTR);
	cons = mu_slice(&m, P, "VECTOR", 300, 310, CSIM_SLICE_INSTR);
	mu_sync(&m, CSIM_SYNC_SET, 0, P, "MTE2", 201, "x_1", CSIM_NONE);  /* E first */
	mu_sync(&m, CSIM_SYNC_SET, 1, P, "MTE2", 200, "x_1",
		mu_detail(&m, "MTE2", "VECTOR", 1));
	mu_flag(&m, CSIM_SYNC_WAIT, P, "VECTOR", 150, 290, "x_1", CSIM_NONE);
	run_all(&m, 0);
	if (!CHECK_U64(c, m.narrows, 1))
		goto out;
	CHECK_U64(c, m.arrows[0].producer, prod);
	CHECK_U64(c, m.arrows[0].consumer, cons);
	CHECK_I64(c, m.arrows[0].s_half_ns, 300);   /* midpoint 150 ns */
	CHECK_I64(c, m.arrows[0].f_half_ns, 610);   /* midpoint 305 ns */
	CHECK_U64(c, m.arrows[0].flag_id, 1);
	CHECK_STR(c, mu_name(&m, m.arrows[0].producer_pipe), "MTE2");
	CHECK_STR(c, mu_name(&m, m.arrows[0].consumer_pipe), "VECTOR");
	CHECK_U64(c, skips_total(&m), 0);
out:
	csim_model_release(&m);
}

static void test_id_without_partner_stays_unmatched(struct check_ctx *c)
{
	struct csim_model m;

	init(&m);
	mu_slice(&m, P, "MTE2", 0, 10, CSIM_SLICE_INSTR);
	mu_slice(&m, P, "VECTOR", 20, 30, CSIM_SLICE_INSTR);
	mu_flag(&m, CSIM_SYNC_SET, P, "MTE2", 9, 10, "a", mu_detail(&m, "MTE2", "VECTOR", 0));
	/* Same key, no id: must not steal the SET above. */
	mu_flag(&m, CSIM_SYNC_WAIT, P, "VECTOR", 11, 19, "b", mu_detail(&m, "MTE2", "VECTOR", 0));
	run_all(&m, 0);
	CHECK_U64(c, m.narrows, 0);
	CHECK_U64(c, m.flag_skips[CSIM_FSKIP_NO_WAIT], 1);
	CHECK_U64(c, m.flag_skips[CSIM_FSKIP_NO_SET], 1);
	csim_model_release(&m);
}

static void test_lifo_begin_end_without_ids(struct check_ctx *c)
{
	struct csim_model m;
	uint32_t d = 0;

	init(&m);
	mu_slice(&m, P, "MTE2", 0, 100, CSIM_SLICE_INSTR);
	mu_slice(&m, P, "VECTOR", 200, 210, CSIM_SLICE_INSTR);   /* after E 150 */
	mu_slice(&m, P, "VECTOR", 400, 410, CSIM_SLICE_INSTR);   /* after E 350 */
	d = mu_detail(&m, "MTE2", "VECTOR", 0);
	mu_flag(&m, CSIM_SYNC_SET, P, "MTE2", 50, 51, NULL, d);
	/* WAIT B1 B2 E(150) E(350): LIFO gives B2-E150 and B1-E350. */
	mu_sync(&m, CSIM_SYNC_WAIT, 1, P, "VECTOR", 60, NULL, d);
	mu_sync(&m, CSIM_SYNC_WAIT, 1, P, "VECTOR", 70, NULL, d);
	mu_sync(&m, CSIM_SYNC_WAIT, 0, P, "VECTOR", 150, NULL, CSIM_NONE);
	mu_sync(&m, CSIM_SYNC_WAIT, 0, P, "VECTOR", 350, NULL, CSIM_NONE);
	run_all(&m, 0);
	/* One SET, two WAITs: FIFO gives the SET the earliest-beginning WAIT
	   (B1 at 60, which LIFO closed at 350). */
	if (CHECK_U64(c, m.narrows, 1))
		CHECK_I64(c, m.arrows[0].f_half_ns, 810);
	CHECK_U64(c, m.flag_skips[CSIM_FSKIP_NO_SET], 1);
	csim_model_release(&m);
}

/*
 * Id-less B records open a flag each until their E: Bs never closed (more
 * of them than the records' half, the room first given to the flags) are
 * incomplete and leave no flag; the flags that did close come out in the
 * order of their B, an id'd one by its first record among them; their
 * ends are their Es', their details the B's, else the E's.
 */
static void test_lifo_flags_in_b_order_and_unclosed_bs(struct check_ctx *c)
{
	struct csim_model m;
	uint32_t d = 0;

	init(&m);
	d = mu_detail(&m, "MTE2", "VECTOR", 0);
	mu_sync(&m, CSIM_SYNC_WAIT, 1, P, "VECTOR", 10, NULL, CSIM_NONE);   /* never closed */
	mu_sync(&m, CSIM_SYNC_SET, 1, P, "MTE2", 20, NULL, CSIM_NONE);      /* closed at 60 */
	mu_sync(&m, CSIM_SYNC_SET, 0, P, "FIXP", 25, "x", CSIM_NONE);       /* id'd: E first */
	mu_sync(&m, CSIM_SYNC_WAIT, 1, P, "VECTOR", 30, NULL, CSIM_NONE);   /* closed at 40 */
	mu_sync(&m, CSIM_SYNC_SET, 1, P, "FIXP", 35, "x", d);
	mu_sync(&m, CSIM_SYNC_WAIT, 0, P, "VECTOR", 40, NULL, d);
	mu_sync(&m, CSIM_SYNC_SET, 0, P, "MTE2", 60, NULL, CSIM_NONE);
	for (int i = 0; i < 8; i++)
		mu_sync(&m, CSIM_SYNC_SET, 1, P, "MTE3", 70 + i, NULL, CSIM_NONE);
	if (CHECK_I64(c, run_pass_alone(&m), CSIM_OK) && CHECK_U64(c, m.nflags, 3)) {
		/* the MTE2 SET (record 1), the id'd FIXP (its E, record 2), the WAIT (3) */
		CHECK_U64(c, m.flags[0].order, 1);
		CHECK_I64(c, m.flags[0].end, 60);
		CHECK_U64(c, m.flags[1].order, 2);
		CHECK_I64(c, m.flags[1].end, 25);
		CHECK_U64(c, m.flags[1].detail, d);
		CHECK_U64(c, m.flags[2].order, 3);
		CHECK_I64(c, m.flags[2].end, 40);
		CHECK_U64(c, m.flags[2].detail, d);
		CHECK_U64(c, m.flag_skips[CSIM_FSKIP_INCOMPLETE], 9);
	}
	csim_model_release(&m);
}

/*
 * --run all: two runs of one kernel restart at ts 0 on the same lanes. Id-less
 * flags of one key match FIFO within their run only: run 0's SET (begins
 * 100) would otherwise take run 1's WAIT (begins 105, the earliest), and
 * run 1's SET run 0's WAIT. B/E records of one (name, pid, tid) pair LIFO
 * within their run only: run 1's lone E must not close run 0's B.
 */
static void test_idless_flags_stay_in_their_run(struct check_ctx *c)
{
	struct csim_model m;
	uint32_t d;
	uint32_t prod0, prod1, cons0, cons1;

	init(&m);
	d = mu_detail(&m, "MTE2", "VECTOR", 0);
	/* run 0: SET 100-101, WAIT 110-290; a B without its E on MTE3 */
	prod0 = mu_slice(&m, P, "MTE2", 0, 100, CSIM_SLICE_INSTR);
	cons0 = mu_slice(&m, P, "VECTOR", 300, 310, CSIM_SLICE_INSTR);
	mu_flag(&m, CSIM_SYNC_SET, P, "MTE2", 100, 101, NULL, d);
	mu_flag(&m, CSIM_SYNC_WAIT, P, "VECTOR", 110, 290, NULL, d);
	mu_sync(&m, CSIM_SYNC_SET, 1, P, "MTE3", 120, NULL, CSIM_NONE);
	m.table.run = 1;
	/* run 1: SET 104-105, WAIT 105-315; an E without its B on MTE3 */
	prod1 = mu_slice(&m, P, "MTE2", 102, 104, CSIM_SLICE_INSTR);
	cons1 = mu_slice(&m, P, "VECTOR", 320, 330, CSIM_SLICE_INSTR);
	mu_flag(&m, CSIM_SYNC_SET, P, "MTE2", 104, 105, NULL, d);
	mu_flag(&m, CSIM_SYNC_WAIT, P, "VECTOR", 105, 315, NULL, d);
	mu_sync(&m, CSIM_SYNC_SET, 0, P, "MTE3", 130, NULL, CSIM_NONE);
	run_all(&m, 0);
	if (!CHECK_U64(c, m.narrows, 2))
		goto out;
	CHECK_U64(c, m.arrows[0].producer, prod0);
	CHECK_U64(c, m.arrows[0].consumer, cons0);
	CHECK_U64(c, m.arrows[1].producer, prod1);
	CHECK_U64(c, m.arrows[1].consumer, cons1);
	CHECK_U64(c, m.flag_skips[CSIM_FSKIP_INCOMPLETE], 2);
	CHECK_U64(c, skips_total(&m), 2);
out:
	csim_model_release(&m);
}

/*
 * --run all: a flag anchors on slices of its own run only; both runs share
 * the lanes. Flag f's only producer candidate is run 0's, flag g's only
 * consumer candidate too: both are skipped, not drawn across runs.
 */
static void test_anchors_stay_in_their_run(struct check_ctx *c)
{
	struct csim_model m;
	uint32_t d;

	init(&m);
	d = mu_detail(&m, "MTE2", "VECTOR", 0);
	mu_slice(&m, P, "MTE2", 0, 100, CSIM_SLICE_INSTR);        /* run 0 */
	mu_slice(&m, P, "VECTOR", 500, 510, CSIM_SLICE_INSTR);
	m.table.run = 1;
	mu_slice(&m, P, "MTE2", 140, 145, CSIM_SLICE_INSTR);      /* run 1 */
	mu_slice(&m, P, "VECTOR", 200, 210, CSIM_SLICE_INSTR);
	/* f: SET at 130, before run 1's MTE2; WAIT ends 190 */
	mu_flag(&m, CSIM_SYNC_SET, P, "MTE2", 130, 131, "f", d);
	mu_flag(&m, CSIM_SYNC_WAIT, P, "VECTOR", 132, 190, "f", d);
	/* g: SET at 150; WAIT ends 300, after run 1's last VECTOR */
	mu_flag(&m, CSIM_SYNC_SET, P, "MTE2", 150, 151, "g", d);
	mu_flag(&m, CSIM_SYNC_WAIT, P, "VECTOR", 152, 300, "g", d);
	run_all(&m, 0);
	CHECK_U64(c, m.narrows, 0);
	CHECK_U64(c, m.flag_skips[CSIM_FSKIP_NO_PRODUCER], 1);
	CHECK_U64(c, m.flag_skips[CSIM_FSKIP_NO_CONSUMER], 1);
	CHECK_U64(c, skips_total(&m), 2);
	csim_model_release(&m);
}

static void test_fifo_per_key_with_interleaved_keys(struct check_ctx *c)
{
	struct csim_model m;
	uint32_t k1, k2;

	init(&m);
	for (int i = 0; i < 4; i++)
		mu_slice(&m, P, "MTE2", 100 * i, 100 * i + 50, CSIM_SLICE_INSTR);
	for (int i = 0; i < 4; i++)
		mu_slice(&m, P, "VECTOR", 1000 + 100 * i, 1000 + 100 * i + 20,
			 CSIM_SLICE_INSTR);
	k1 = mu_detail(&m, "MTE2", "VECTOR", 1);
	k2 = mu_detail(&m, "MTE2", "VECTOR", 2);
	/* Input order is not time order: the second SET of key 1 comes first. */
	mu_flag(&m, CSIM_SYNC_SET, P, "MTE2", 210, 211, NULL, k1);
	mu_flag(&m, CSIM_SYNC_SET, P, "MTE2", 10, 11, NULL, k1);
	mu_flag(&m, CSIM_SYNC_SET, P, "MTE2", 110, 111, NULL, k2);
	mu_flag(&m, CSIM_SYNC_WAIT, P, "VECTOR", 900, 1190, NULL, k1);  /* -> 1200 */
	mu_flag(&m, CSIM_SYNC_WAIT, P, "VECTOR", 800, 990, NULL, k1);   /* -> 1000 */
	mu_flag(&m, CSIM_SYNC_WAIT, P, "VECTOR", 850, 1290, NULL, k2);  /* -> 1300 */
	run_all(&m, 0);
	if (!CHECK_U64(c, m.narrows, 3))
		goto out;
	/* Arrows in SET-begin order: 10 (k1), 110 (k2), 210 (k1). */
	CHECK_I64(c, m.arrows[0].set_begin, 10);
	CHECK_I64(c, m.arrows[0].f_half_ns, 2020);   /* earliest WAIT of k1 */
	CHECK_U64(c, m.arrows[0].flag_id, 1);
	CHECK_I64(c, m.arrows[1].f_half_ns, 2620);
	CHECK_U64(c, m.arrows[1].flag_id, 2);
	CHECK_I64(c, m.arrows[2].f_half_ns, 2420);
out:
	csim_model_release(&m);
}

static void test_anchor_ties_and_zero_length(struct check_ctx *c)
{
	struct csim_model m;
	uint32_t early, late, zero, first_c, second_c;

	init(&m);
	early = mu_slice(&m, P, "MTE2", 100, 110, CSIM_SLICE_INSTR);
	late = mu_slice(&m, P, "MTE2", 100, 120, CSIM_SLICE_INSTR);  /* same start, later input */
	zero = mu_slice(&m, P, "MTE2", 105, 105, CSIM_SLICE_INSTR);  /* never an anchor */
	first_c = mu_slice(&m, P, "VECTOR", 200, 230, CSIM_SLICE_INSTR);
	second_c = mu_slice(&m, P, "VECTOR", 200, 210, CSIM_SLICE_INSTR);
	mu_slice(&m, P, "VECTOR", 199, 199, CSIM_SLICE_INSTR);
	/* Both MTE2 slices still run at the SET: the fallback, the last
	   starting at or before it, ties to the later in input order. */
	mu_flag(&m, CSIM_SYNC_SET, P, "MTE2", 105, 106, "i", mu_detail(&m, "MTE2", "VECTOR", 0));
	mu_flag(&m, CSIM_SYNC_WAIT, P, "VECTOR", 150, 199, "i", CSIM_NONE);
	run_all(&m, 0);
	if (CHECK_U64(c, m.narrows, 1)) {
		CHECK_U64(c, m.arrows[0].producer, late);
		CHECK_U64(c, m.arrows[0].consumer, first_c);
		CHECK(c, m.arrows[0].running);
		CHECK_U64(c, m.flag_running, 1);
	}
	(void)early;
	(void)zero;
	(void)second_c;
	csim_model_release(&m);
}

/*
 * A slice shorter than a ns is a point (SPEC §4) even when Perfetto rounds
 * it to 1 ns: never an anchor, so the producer is the slice before it.
 */
static void test_sub_ns_point_is_no_anchor(struct check_ctx *c)
{
	struct csim_model m;
	uint32_t prod, point, cons;

	init(&m);
	prod = mu_slice_us(&m, P, "MTE2", 0.100, 0.010, CSIM_SLICE_INSTR);
	point = mu_slice_us(&m, P, "MTE2", 0.120, 0.0006, CSIM_SLICE_INSTR);
	cons = mu_slice_us(&m, P, "VECTOR", 0.200, 0.010, CSIM_SLICE_INSTR);
	mu_flag(&m, CSIM_SYNC_SET, P, "MTE2", 121, 122, "i", mu_detail(&m, "MTE2", "VECTOR", 0));
	mu_flag(&m, CSIM_SYNC_WAIT, P, "VECTOR", 150, 199, "i", CSIM_NONE);
	run_all(&m, 0);
	CHECK_I64(c, m.table.slices[point].end - m.table.slices[point].start, 1);
	if (CHECK_U64(c, m.narrows, 1)) {
		CHECK_U64(c, m.arrows[0].producer, prod);
		CHECK_U64(c, m.arrows[0].consumer, cons);
	}
	csim_model_release(&m);
}

static void test_scalar_consumer_is_skipped_unless_kept(struct check_ctx *c)
{
	for (int keep = 0; keep <= 1; keep++) {
		struct csim_model m;

		init(&m);
		mu_slice(&m, P, "MTE2", 0, 10, CSIM_SLICE_INSTR);
		mu_slice(&m, P, "SCALAR", 20, 22, CSIM_SLICE_INSTR);
		mu_flag(&m, CSIM_SYNC_SET, P, "MTE2", 9, 10, NULL,
			mu_detail(&m, "MTE2", "SCALAR", 0));
		mu_flag(&m, CSIM_SYNC_WAIT, P, "SCALAR", 5, 15, NULL,
			mu_detail(&m, "MTE2", "SCALAR", 0));
		run_all(&m, keep);
		CHECK_U64(c, m.narrows, (uint64_t)keep);
		CHECK_U64(c, m.flag_skips[CSIM_FSKIP_CONSUMER_DROPPED], (uint64_t)!keep);
		csim_model_release(&m);
	}
}

/*
 * Both lanes dropped: the producer's reason wins (README of the scenarios,
 * open question 3: producer lane before consumer lane). FLOWCTRL is always
 * dropped and SCALAR unless kept, so --keep-scalar leaves only the consumer
 * lane dropped.
 */
static void test_producer_lane_wins_when_both_are_dropped(struct check_ctx *c)
{
	for (int keep = 0; keep <= 1; keep++) {
		struct csim_model m;

		init(&m);
		mu_slice(&m, P, "SCALAR", 0, 10, CSIM_SLICE_INSTR);
		mu_slice(&m, P, "FLOWCTRL", 20, 22, CSIM_SLICE_INSTR);
		mu_flag(&m, CSIM_SYNC_SET, P, "SCALAR", 9, 10, NULL,
			mu_detail(&m, "SCALAR", "FLOWCTRL", 0));
		mu_flag(&m, CSIM_SYNC_WAIT, P, "FLOWCTRL", 5, 15, NULL,
			mu_detail(&m, "SCALAR", "FLOWCTRL", 0));
		run_all(&m, keep);
		CHECK_U64(c, m.narrows, 0);
		CHECK_U64(c, m.flag_skips[CSIM_FSKIP_PRODUCER_DROPPED], (uint64_t)!keep);
		CHECK_U64(c, m.flag_skips[CSIM_FSKIP_CONSUMER_DROPPED], (uint64_t)keep);
		csim_model_release(&m);
	}
}

static void test_missing_anchors_and_keys(struct check_ctx *c)
{
	struct csim_model m;

	init(&m);
	mu_slice(&m, P, "MTE2", 50, 60, CSIM_SLICE_INSTR);
	mu_slice(&m, P, "VECTOR", 10, 20, CSIM_SLICE_INSTR);
	/* SET before any MTE2 slice starts. */
	mu_flag(&m, CSIM_SYNC_SET, P, "MTE2", 40, 41, "a", mu_detail(&m, "MTE2", "VECTOR", 0));
	mu_flag(&m, CSIM_SYNC_WAIT, P, "VECTOR", 1, 5, "a", CSIM_NONE);
	/* WAIT ends after the last VECTOR slice starts. */
	mu_flag(&m, CSIM_SYNC_SET, P, "MTE2", 55, 56, "b", mu_detail(&m, "MTE2", "VECTOR", 0));
	mu_flag(&m, CSIM_SYNC_WAIT, P, "VECTOR", 1, 70, "b", CSIM_NONE);
	/* No id and no detail: nothing to match by. */
	mu_flag(&m, CSIM_SYNC_SET, P, "MTE2", 55, 56, NULL, CSIM_NONE);
	/* A B without its E. */
	mu_sync(&m, CSIM_SYNC_WAIT, 1, P, "VECTOR", 3, "c", CSIM_NONE);
	run_all(&m, 0);
	CHECK_U64(c, m.narrows, 0);
	CHECK_U64(c, m.flag_skips[CSIM_FSKIP_NO_PRODUCER], 1);
	CHECK_U64(c, m.flag_skips[CSIM_FSKIP_NO_CONSUMER], 1);
	CHECK_U64(c, m.flag_skips[CSIM_FSKIP_NO_KEY], 1);
	CHECK_U64(c, m.flag_skips[CSIM_FSKIP_INCOMPLETE], 1);
	CHECK_U64(c, skips_total(&m), 4);
	csim_model_release(&m);
}

static void test_arrow_never_points_backwards(struct check_ctx *c)
{
	struct csim_model m;

	init(&m);
	/* A long producer: its midpoint (50) lies after the consumer's (11). */
	mu_slice(&m, P, "MTE2", 0, 100, CSIM_SLICE_INSTR);
	mu_slice(&m, P, "VECTOR", 10, 12, CSIM_SLICE_INSTR);
	mu_flag(&m, CSIM_SYNC_SET, P, "MTE2", 5, 6, "a", mu_detail(&m, "MTE2", "VECTOR", 0));
	mu_flag(&m, CSIM_SYNC_WAIT, P, "VECTOR", 7, 9, "a", CSIM_NONE);
	/* A consumer that starts before its producer cannot be drawn. */
	mu_slice(&m, P, "MTE3", 2, 4, CSIM_SLICE_INSTR);
	mu_slice(&m, P, "FIXP", 30, 90, CSIM_SLICE_INSTR);
	mu_flag(&m, CSIM_SYNC_SET, P, "FIXP", 50, 51, "b", mu_detail(&m, "FIXP", "MTE3", 0));
	mu_flag(&m, CSIM_SYNC_WAIT, P, "MTE3", 0, 1, "b", CSIM_NONE);
	run_all(&m, 0);
	if (CHECK_U64(c, m.narrows, 1)) {
		CHECK_I64(c, m.arrows[0].f_half_ns, 22);
		CHECK_I64(c, m.arrows[0].s_half_ns, 22);   /* pulled back, still inside */
	}
	CHECK_U64(c, m.flag_skips[CSIM_FSKIP_BACKWARDS], 1);
	csim_model_release(&m);
}

static void test_half_ns_midpoint_and_tid_fallback(struct check_ctx *c)
{
	struct csim_model m;

	init(&m);
	mu_slice(&m, P, "MTE2", 10, 11, CSIM_SLICE_INSTR);    /* 1 ns long */
	mu_slice(&m, P, "VECTOR", 20, 23, CSIM_SLICE_INSTR);
	/* No detail: producer/consumer pipes come from the tids. */
	mu_flag(&m, CSIM_SYNC_SET, P, "MTE2", 10, 11, "a", CSIM_NONE);
	mu_flag(&m, CSIM_SYNC_WAIT, P, "VECTOR", 12, 19, "a", CSIM_NONE);
	run_all(&m, 0);
	if (CHECK_U64(c, m.narrows, 1)) {
		CHECK_I64(c, m.arrows[0].s_half_ns, 21);   /* 10.5 ns */
		CHECK_I64(c, m.arrows[0].f_half_ns, 43);   /* 21.5 ns */
		CHECK(c, !m.arrows[0].has_flag_id);
	}
	csim_model_release(&m);
}

/*
 * SPEC §5.3: on Ascend950 the vector work runs on RVEC* lanes issued through
 * PUSHQ while flags still say VEC, so a flag's VECTOR pipe means the vector
 * family; and kept cache_time/ccu_time companions are never anchors.
 */
static void test_vector_family_and_no_companion_anchors(struct check_ctx *c)
{
	struct csim_model m;
	uint32_t load, exec, issue, store, ccu;

	init(&m);
	m.rule.keep_cache_ccu = 1;
	load = mu_slice(&m, P, "MTE2", 0, 10, CSIM_SLICE_INSTR);
	ccu = mu_slice(&m, P, "RVECLD", 20, 25, CSIM_SLICE_CACHE_CCU);
	mu_keep(&m, ccu, 1);
	exec = mu_slice(&m, P, "RVECEX", 30, 40, CSIM_SLICE_INSTR);
	issue = mu_slice(&m, P, "PUSHQ", 50, 60, CSIM_SLICE_INSTR);
	store = mu_slice(&m, P, "MTE3", 70, 80, CSIM_SLICE_INSTR);
	/* MTE2 -> VEC: the consumer is the first vector-family instruction
	   after the WAIT (the companion at 20 is passed over). */
	mu_flag(&m, CSIM_SYNC_SET, P, "MTE2", 10, 11, "a", mu_detail(&m, "MTE2", "VECTOR", 1));
	mu_flag(&m, CSIM_SYNC_WAIT, P, "VECTOR", 12, 15, "a", CSIM_NONE);
	/* VEC -> MTE3: the producer is the vector-family instruction that
	   completed last by the SET, here on PUSHQ (ends at the SET). */
	mu_flag(&m, CSIM_SYNC_SET, P, "VECTOR", 60, 61, "b", mu_detail(&m, "VECTOR", "MTE3", 2));
	mu_flag(&m, CSIM_SYNC_WAIT, P, "MTE3", 65, 66, "b", CSIM_NONE);
	/* A SET while PUSHQ still runs: RVECEX, on another lane of the
	   family, is the one that had completed. */
	mu_flag(&m, CSIM_SYNC_SET, P, "VECTOR", 55, 56, "d", mu_detail(&m, "VECTOR", "MTE3", 3));
	mu_flag(&m, CSIM_SYNC_WAIT, P, "MTE3", 62, 63, "d", CSIM_NONE);
	run_all(&m, 0);
	if (!CHECK_U64(c, m.narrows, 3))
		goto out;
	CHECK_U64(c, m.arrows[0].producer, load);
	CHECK_U64(c, m.arrows[0].consumer, exec);
	CHECK_STR(c, mu_name(&m, m.arrows[0].consumer_pipe), "VECTOR");
	CHECK_U64(c, m.arrows[1].producer, exec);      /* SET at 55 */
	CHECK_U64(c, m.arrows[1].consumer, store);
	CHECK_U64(c, m.arrows[2].producer, issue);     /* SET at 60 */
	CHECK_U64(c, m.arrows[2].consumer, store);
	CHECK_STR(c, mu_name(&m, m.arrows[2].producer_pipe), "VECTOR");
	CHECK_U64(c, m.flag_running, 0);
out:
	csim_model_release(&m);
}


/* One flag MTE2 -> VECTOR with its SET at set_ns and its WAIT ending at 500 ns. */
static void flag_at(struct csim_model *m, const char *id, double set_ns)
{
	int64_t t = llround(set_ns);

	mu_flag(m, CSIM_SYNC_SET, P, "MTE2", t, t + 1, id, mu_detail(m, "MTE2", "VECTOR", 0));
	m->table.syncs[m->table.nsyncs - 2].a = set_ns;
	mu_flag(m, CSIM_SYNC_WAIT, P, "VECTOR", t, 500, id, CSIM_NONE);
}

/*
 * SPEC §5.3: the producer is the instruction whose completion released the
 * flag. On a pipelined pipe the slice starting last before the SET is
 * still running; the one that ended last before it is the producer.
 */
static void test_producer_is_the_last_to_complete(struct check_ctx *c)
{
	struct csim_model m;
	uint32_t a, b, cc, cons;

	init(&m);
	a = mu_slice(&m, P, "MTE2", 0, 100, CSIM_SLICE_INSTR);
	b = mu_slice(&m, P, "MTE2", 50, 150, CSIM_SLICE_INSTR);
	cc = mu_slice(&m, P, "MTE2", 140, 240, CSIM_SLICE_INSTR);   /* running at 160 */
	cons = mu_slice(&m, P, "VECTOR", 600, 610, CSIM_SLICE_INSTR);
	flag_at(&m, "x", 160.0);
	flag_at(&m, "y", 120.0);   /* only a has completed */
	flag_at(&m, "z", 245.0);   /* all three: c ended last */
	run_all(&m, 0);
	if (!CHECK_U64(c, m.narrows, 3))
		goto out;
	CHECK_U64(c, m.arrows[0].producer, a);   /* arrows in SET order */
	CHECK_U64(c, m.arrows[1].producer, b);
	CHECK_U64(c, m.arrows[2].producer, cc);
	CHECK_U64(c, m.arrows[1].consumer, cons);
	CHECK_U64(c, m.flag_running, 0);
out:
	csim_model_release(&m);
}

/*
 * Completion allows float noise (§4's tol, a quarter ns here): a slice
 * ending 0.25 ns after the SET released it, one ending 0.3 ns after did
 * not. Ties on the end go to the later start, then the later input.
 */
static void test_completion_tolerance_and_ties(struct check_ctx *c)
{
	struct csim_model m;
	uint32_t old, noise, late, tie_a, tie_b;

	init(&m);
	old = mu_slice(&m, P, "MTE2", 0, 10, CSIM_SLICE_INSTR);
	noise = mu_slice(&m, P, "MTE2", 5, 20, CSIM_SLICE_INSTR);
	m.table.slices[noise].b = 100.25;                 /* ends just after 100 */
	late = mu_slice(&m, P, "MTE2", 6, 20, CSIM_SLICE_INSTR);
	m.table.slices[late].b = 100.3;                   /* past the noise */
	tie_a = mu_slice(&m, P, "MTE2", 200, 300, CSIM_SLICE_INSTR);
	tie_b = mu_slice(&m, P, "MTE2", 250, 300, CSIM_SLICE_INSTR);
	mu_slice(&m, P, "MTE2", 260, 300, CSIM_SLICE_INSTR);  /* same end, later start */
	mu_slice(&m, P, "VECTOR", 600, 610, CSIM_SLICE_INSTR);
	flag_at(&m, "x", 100.0);
	flag_at(&m, "y", 400.0);
	run_all(&m, 0);
	if (!CHECK_U64(c, m.narrows, 2))
		goto out;
	CHECK_U64(c, m.arrows[0].producer, noise);
	CHECK_U64(c, m.arrows[1].producer, tie_b + 1);
	(void)old;
	(void)late;
	(void)tie_a;
out:
	csim_model_release(&m);
}

/*
 * Past 4 ms the tolerance exceeds a ns (|a| * 2^-22): a short slice
 * starting just after the SET "completes" before it within the noise, but
 * it started after the SET and released nothing.
 */
static void test_candidate_must_start_by_the_set(struct check_ctx *c)
{
	struct csim_model m;
	uint32_t prod;

	init(&m);
	prod = mu_slice(&m, P, "MTE2", 20000000, 20000090, CSIM_SLICE_INSTR);
	mu_slice(&m, P, "MTE2", 20000101, 20000103, CSIM_SLICE_INSTR);   /* tol 4.77 ns */
	mu_slice(&m, P, "VECTOR", 20000600, 20000610, CSIM_SLICE_INSTR);
	mu_flag(&m, CSIM_SYNC_SET, P, "MTE2", 20000100, 20000101, "x",
		mu_detail(&m, "MTE2", "VECTOR", 0));
	mu_flag(&m, CSIM_SYNC_WAIT, P, "VECTOR", 20000100, 20000500, "x", CSIM_NONE);
	run_all(&m, 0);
	if (CHECK_U64(c, m.narrows, 1))
		CHECK_U64(c, m.arrows[0].producer, prod);
	csim_model_release(&m);
}

/*
 * No slice of the pipe had completed at the SET: the fallback anchors on
 * the last one starting by it and counts the arrow (the run's note). A
 * completed producer that ends after its consumer starts (a WAIT ending
 * before its SET) is no arrow.
 */
static void test_running_fallback_and_impossible_order(struct check_ctx *c)
{
	struct csim_model m;
	uint32_t only, cons;

	init(&m);
	only = mu_slice(&m, P, "MTE2", 0, 300, CSIM_SLICE_INSTR);
	cons = mu_slice(&m, P, "VECTOR", 600, 610, CSIM_SLICE_INSTR);
	mu_slice(&m, P, "FIXP", 0, 100, CSIM_SLICE_INSTR);
	mu_slice(&m, P, "MTE3", 50, 60, CSIM_SLICE_INSTR);
	flag_at(&m, "x", 200.0);
	mu_flag(&m, CSIM_SYNC_SET, P, "FIXP", 120, 121, "y", mu_detail(&m, "FIXP", "MTE3", 0));
	mu_flag(&m, CSIM_SYNC_WAIT, P, "MTE3", 10, 40, "y", CSIM_NONE);
	run_all(&m, 0);
	if (CHECK_U64(c, m.narrows, 1)) {
		CHECK_U64(c, m.arrows[0].producer, only);
		CHECK_U64(c, m.arrows[0].consumer, cons);
		CHECK(c, m.arrows[0].running);
	}
	CHECK_U64(c, m.flag_running, 1);
	CHECK_U64(c, m.flag_skips[CSIM_FSKIP_BACKWARDS], 1);
	csim_model_release(&m);
}

int main(void)
{
	struct check_ctx c = { 0, 0, NULL };

	CHECK_RUN(&c, test_ids_pair_even_when_end_comes_first);
	CHECK_RUN(&c, test_id_without_partner_stays_unmatched);
	CHECK_RUN(&c, test_lifo_begin_end_without_ids);
	CHECK_RUN(&c, test_lifo_flags_in_b_order_and_unclosed_bs);
	CHECK_RUN(&c, test_idless_flags_stay_in_their_run);
	CHECK_RUN(&c, test_anchors_stay_in_their_run);
	CHECK_RUN(&c, test_fifo_per_key_with_interleaved_keys);
	CHECK_RUN(&c, test_anchor_ties_and_zero_length);
	CHECK_RUN(&c, test_producer_is_the_last_to_complete);
	CHECK_RUN(&c, test_completion_tolerance_and_ties);
	CHECK_RUN(&c, test_candidate_must_start_by_the_set);
	CHECK_RUN(&c, test_running_fallback_and_impossible_order);
	CHECK_RUN(&c, test_sub_ns_point_is_no_anchor);
	CHECK_RUN(&c, test_scalar_consumer_is_skipped_unless_kept);
	CHECK_RUN(&c, test_producer_lane_wins_when_both_are_dropped);
	CHECK_RUN(&c, test_missing_anchors_and_keys);
	CHECK_RUN(&c, test_arrow_never_points_backwards);
	CHECK_RUN(&c, test_half_ns_midpoint_and_tid_fallback);
	CHECK_RUN(&c, test_vector_family_and_no_companion_anchors);
	return check_done(&c);
}
