/*
 * The critical path (SPEC §13, docs/critical-path.md) on hand-built cores
 * whose path is worked out by hand in each test's comment: segments that
 * tile the span, the binding rules (pipe busy, flag, cross-core, issue), a
 * flag into a dropped scalar lane, --window clipping, the what-if
 * replay's spans, and the instructions holding the most of the path.
 */
#include <stdio.h>

#include "check.h"
#include "modelutil.h"

#include "model/pass_path.h"

#define VEC "core0.veccore0"
#define CUBE "core0.cubecore0"

static const struct csim_path_core *core_path(const struct csim_model *m, const char *pid)
{
	for (size_t i = 0; i < m->summary.ncores && i < m->path.ncores; i++)
		if (strcmp(m->table.pid_names[m->summary.cores[i].pid], pid) == 0)
			return &m->path.cores[i];
	return NULL;
}

static int64_t busy_of(const struct csim_model *m, const struct csim_path_core *c,
		       const char *pipe)
{
	for (size_t k = 0; k < c->nbusy; k++)
		if (strcmp(mu_name(m, m->path.busy[c->busy0 + k].pipe), pipe) == 0)
			return m->path.busy[c->busy0 + k].ns;
	return 0;
}

static int64_t wait_of(const struct csim_model *m, const struct csim_path_core *c,
		       const char *producer, const char *consumer)
{
	for (size_t k = 0; k < c->nwait; k++) {
		const struct csim_path_wait *w = &m->path.waits[c->wait0 + k];

		if (strcmp(mu_name(m, w->producer), producer) == 0 &&
		    strcmp(mu_name(m, w->consumer), consumer) == 0)
			return w->ns;
	}
	return 0;
}

static int64_t what_if_of(const struct csim_model *m, const struct csim_path_core *c,
			  const char *pipe)
{
	for (size_t k = 0; k < c->nwhat_if; k++)
		if (strcmp(mu_name(m, m->path.what_if[c->what_if0 + k].pipe), pipe) == 0)
			return m->path.what_if[c->what_if0 + k].span_ns;
	return -1;
}

/* The segments tile [first_ns, first_ns + span_ns] in order, and sum as the totals say. */
static void check_tiles(struct check_ctx *c, const struct csim_model *m,
			const struct csim_path_core *p)
{
	int64_t at = p->first_ns, sum = p->issue_ns + p->cross_ns;
	int tiled = 1;

	for (size_t k = 0; k < p->nseg; k++) {
		const struct csim_path_seg *s = &m->path.segs[p->seg0 + k];

		tiled &= s->start == at && s->end > s->start;
		at = s->end;
	}
	CHECK(c, tiled);
	CHECK_I64(c, at, p->first_ns + p->span_ns);
	for (size_t k = 0; k < p->nbusy; k++)
		sum += m->path.busy[p->busy0 + k].ns;
	for (size_t k = 0; k < p->nwait; k++)
		sum += m->path.waits[p->wait0 + k].ns;
	CHECK_I64(c, sum, p->span_ns);
}

/* A flag from `from` to `to` on VEC: its SET at set_end, its WAIT ending at release. */
static void flag(struct csim_model *m, const char *id, const char *from, const char *to,
		 int64_t set_end, int64_t wait_begin, int64_t release)
{
	uint32_t d = mu_detail(m, from, to, 0);

	mu_flag(m, CSIM_SYNC_SET, VEC, from, set_end, set_end + 1, id, d);
	mu_flag(m, CSIM_SYNC_WAIT, VEC, to, wait_begin, release, id, CSIM_NONE);
}

/*
 * SCALAR [0,10], MTE2 a [20,120], MTE2 b [120,220], VECTOR v [260,300]
 * released by b's flag at 250, MTE3 o [300,400] released by v's at 300.
 * Walk back from o: busy o 100; its flag waits [300,300] (nothing); busy v
 * 40; flag wait [220,260] 40 (the whole gap from b's end: a flag keeps it);
 * busy b 100; MTE2 was busy up to b's start (a ends at 120): busy a 100;
 * issue back to SCALAR's end [10,20] 10; busy SCALAR 10. Span 400.
 */
static void build_chain(struct csim_model *m)
{
	csim_model_init(m);
	mu_slice(m, VEC, "SCALAR", 0, 10, CSIM_SLICE_INSTR);
	mu_slice(m, VEC, "MTE2", 20, 120, CSIM_SLICE_INSTR);
	mu_slice(m, VEC, "MTE2", 120, 220, CSIM_SLICE_INSTR);
	mu_slice(m, VEC, "VECTOR", 260, 300, CSIM_SLICE_INSTR);
	mu_slice(m, VEC, "MTE3", 300, 400, CSIM_SLICE_INSTR);
	flag(m, "f1", "MTE2", "VECTOR", 220, 225, 250);
	flag(m, "f2", "VECTOR", "MTE3", 300, 290, 300);
}

static void test_chain(struct check_ctx *c)
{
	struct csim_model m;
	const struct csim_path_core *p;

	build_chain(&m);
	if (!CHECK_U64(c, mu_run(&m), 0) || !CHECK(c, (p = core_path(&m, VEC)) != NULL))
		goto out;
	check_tiles(c, &m, p);
	CHECK_I64(c, p->span_ns, 400);
	CHECK_I64(c, busy_of(&m, p, "MTE2"), 200);
	CHECK_I64(c, busy_of(&m, p, "MTE3"), 100);
	CHECK_I64(c, busy_of(&m, p, "VECTOR"), 40);
	CHECK_I64(c, busy_of(&m, p, "SCALAR"), 10);
	CHECK_I64(c, wait_of(&m, p, "MTE2", "VECTOR"), 40);
	CHECK_U64(c, p->nwait, 1);
	CHECK_I64(c, p->issue_ns, 10);
	CHECK_I64(c, p->cross_ns, 0);
	/* segments: SCALAR, issue, a, b, wait, v, o */
	CHECK_U64(c, p->nseg, 7);
	if (p->nseg == 7) {
		CHECK_U64(c, m.path.segs[p->seg0 + 1].kind, CSIM_SEG_ISSUE);
		CHECK_U64(c, m.path.segs[p->seg0 + 4].kind, CSIM_SEG_WAIT);
		CHECK_I64(c, m.path.segs[p->seg0 + 4].start, 220);
		CHECK_I64(c, m.path.segs[p->seg0 + 4].end, 260);
	}
	/* busy largest first */
	CHECK_STR(c, mu_name(&m, m.path.busy[p->busy0].pipe), "MTE2");
out:
	csim_model_release(&m);
}

/*
 * What-if on the chain, by hand: MTE2 halved: a [20,70], b [70,120], v keeps
 * its 40 ns after b's end: [160,200], o [200,300]: 300. MTE3 halved: o
 * [300,350]: 350. VECTOR halved: v [260,280], o at v's end: [280,380]: 380.
 * SCALAR halved: [0,5], a keeps its 10 ns issue gap: everything 5 ns
 * earlier: 395. Smallest span first.
 */
/* "NAME@pc ns" of the core's top instructions, in order ("-" for no pc). */
static void top_text(const struct csim_model *m, const struct csim_path_core *p, char *out,
		     size_t cap)
{
	size_t n = 0;

	out[0] = '\0';
	for (size_t k = 0; k < p->ntop && n < cap; k++) {
		const struct csim_path_instr *t = &m->path.top[p->top0 + k];
		const struct csim_instr_key key = csim_table_instr_key(&m->table, t->instr);
		int w = key.pc_json.p != NULL
			? snprintf(out + n, cap - n, "%s%.*s@%.*s %lld", k ? ", " : "",
				   (int)key.name_json.n - 2, key.name_json.p + 1,
				   (int)key.pc_json.n - 4, key.pc_json.p + 3, (long long)t->ns)
			: snprintf(out + n, cap - n, "%s%.*s@- %lld", k ? ", " : "",
				   (int)key.name_json.n - 2, key.name_json.p + 1, (long long)t->ns);

		n += w > 0 ? (size_t)w : 0;
	}
}

/*
 * One MTE2 queue, back to back, so every instruction is on the path (the
 * pipe was busy up to each start): LD@10 [0,100], LD@14 [100,130], LD@10
 * [130,230], X (no pc) [230,260], LD2@18 [260,290], OTHER@10 [290,300].
 * LD@10 is one instruction over its two passes: 200, and OTHER at its
 * address is the same instruction, named as its first slice: 210. Three
 * hold 30 ns: the one reached first comes first (LD@14 at 100, X at 230,
 * LD2 at 260).
 */
static void test_top_instructions(struct check_ctx *c)
{
	struct csim_model m;
	const struct csim_path_core *p;
	char text[256];

	csim_model_init(&m);
	mu_slice(&m, VEC, "MTE2", 0, 100, CSIM_SLICE_INSTR);
	mu_instr(&m, 1, 0x10, "LD");
	mu_slice(&m, VEC, "MTE2", 100, 130, CSIM_SLICE_INSTR);
	mu_instr(&m, 1, 0x14, "LD");
	mu_slice(&m, VEC, "MTE2", 130, 230, CSIM_SLICE_INSTR);
	mu_instr(&m, 1, 0x10, "LD");
	mu_slice(&m, VEC, "MTE2", 230, 260, CSIM_SLICE_INSTR);
	mu_instr(&m, 0, 0, "X");
	mu_slice(&m, VEC, "MTE2", 260, 290, CSIM_SLICE_INSTR);
	mu_instr(&m, 1, 0x18, "LD2");
	mu_slice(&m, VEC, "MTE2", 290, 300, CSIM_SLICE_INSTR);
	mu_instr(&m, 1, 0x10, "OTHER");
	if (!CHECK_U64(c, mu_run(&m), 0) || !CHECK(c, (p = core_path(&m, VEC)) != NULL))
		goto out;
	check_tiles(c, &m, p);
	top_text(&m, p, text, sizeof(text));
	CHECK_STR(c, text, "LD@10 210, LD@14 30, X@- 30, LD2@18 30");
out:
	csim_model_release(&m);
}

/*
 * Twelve instructions back to back on MTE2, the k-th lasting 12 - k ns:
 * the ten longest are listed, the 2 and 1 ns ones are not.
 */
static void test_top_ten(struct check_ctx *c)
{
	struct csim_model m;
	const struct csim_path_core *p;
	int64_t at = 0;

	csim_model_init(&m);
	for (int k = 0; k < 12; k++) {
		char name[16];

		snprintf(name, sizeof(name), "I%d", k);
		mu_slice(&m, VEC, "MTE2", at, at + 12 - k, CSIM_SLICE_INSTR);
		mu_instr(&m, 1, 0x100 + 4 * (uint64_t)k, name);
		at += 12 - k;
	}
	if (!CHECK_U64(c, mu_run(&m), 0) || !CHECK(c, (p = core_path(&m, VEC)) != NULL))
		goto out;
	CHECK_U64(c, p->ntop, CSIM_PATH_TOP);
	for (size_t k = 0; k < p->ntop; k++)
		CHECK_I64(c, m.path.top[p->top0 + k].ns, 12 - (int64_t)k);
out:
	csim_model_release(&m);
}

static void test_what_if(struct check_ctx *c)
{
	struct csim_model m;
	const struct csim_path_core *p;

	build_chain(&m);
	if (!CHECK_U64(c, mu_run(&m), 0) || !CHECK(c, (p = core_path(&m, VEC)) != NULL))
		goto out;
	CHECK_U64(c, p->nwhat_if, 4);
	CHECK_I64(c, what_if_of(&m, p, "MTE2"), 300);
	CHECK_I64(c, what_if_of(&m, p, "MTE3"), 350);
	CHECK_I64(c, what_if_of(&m, p, "VECTOR"), 380);
	CHECK_I64(c, what_if_of(&m, p, "SCALAR"), 395);
	if (p->nwhat_if == 4)
		CHECK_STR(c, mu_name(&m, m.path.what_if[p->what_if0].pipe), "MTE2");
out:
	csim_model_release(&m);
}

/*
 * --window [50, 350]: the summary's span is the window's, the path is
 * clipped to it (a from 50: 70; o to 350: 50), and no what-if.
 */
static void test_window_clips(struct check_ctx *c)
{
	struct csim_model m;
	const struct csim_path_core *p;

	build_chain(&m);
	m.cut.window = (struct csim_window){ 1, 1, 50, 350 };
	if (!CHECK_U64(c, mu_run(&m), 0) || !CHECK(c, (p = core_path(&m, VEC)) != NULL))
		goto out;
	check_tiles(c, &m, p);
	CHECK_I64(c, p->first_ns, 50);
	CHECK_I64(c, p->span_ns, 300);
	CHECK_I64(c, busy_of(&m, p, "MTE2"), 170);
	CHECK_I64(c, busy_of(&m, p, "MTE3"), 50);
	CHECK_I64(c, p->issue_ns, 0);
	CHECK_U64(c, p->nwhat_if, 0);
out:
	csim_model_release(&m);
}

/*
 * A flag into the dropped SCALAR lane still binds: VECTOR [0,100], its SET,
 * the WAIT on SCALAR ending at 110, SCALAR s [115,120], MTE3 [125,200]
 * (no flag: issue back to s). Path: MTE3 75, issue 5, s 5, wait
 * VECTOR->SCALAR [100,115] 15, VECTOR 100. The trace draws no arrow.
 */
static void test_dropped_scalar_consumer(struct check_ctx *c)
{
	struct csim_model m;
	const struct csim_path_core *p;

	csim_model_init(&m);
	mu_slice(&m, VEC, "VECTOR", 0, 100, CSIM_SLICE_INSTR);
	mu_slice(&m, VEC, "SCALAR", 115, 120, CSIM_SLICE_INSTR);
	mu_slice(&m, VEC, "MTE3", 125, 200, CSIM_SLICE_INSTR);
	flag(&m, "f1", "VECTOR", "SCALAR", 100, 101, 110);
	if (!CHECK_U64(c, mu_run(&m), 0) || !CHECK(c, (p = core_path(&m, VEC)) != NULL))
		goto out;
	CHECK_U64(c, m.narrows, 0);
	CHECK_U64(c, m.flag_skips[CSIM_FSKIP_CONSUMER_DROPPED], 1);
	check_tiles(c, &m, p);
	CHECK_I64(c, wait_of(&m, p, "VECTOR", "SCALAR"), 15);
	CHECK_I64(c, busy_of(&m, p, "VECTOR"), 100);
	CHECK_I64(c, busy_of(&m, p, "SCALAR"), 5);
	CHECK_I64(c, busy_of(&m, p, "MTE3"), 75);
	CHECK_I64(c, p->issue_ns, 5);
out:
	csim_model_release(&m);
}

/*
 * A vector core waiting on the cube core: its MTE2 x0 [5,15], the cube's
 * FIXP [0,100] SETs intra_1, the vector's WAIT [20,150], MTE2 x [160,260]
 * (MTE2 idle since 15: the flag binds). The wait counts only its excess
 * over x's best local release, the WAIT's begin 20 (x0's end 15 is
 * earlier): path on the vector core x 100, cross-core wait [20,160] 140,
 * issue [15,20] 5, x0 10. The cube core's own path is its FIXP. A
 * WAIT_INTRA_BLOCK slice on the path is cross-core too.
 */
static void test_cross_core(struct check_ctx *c)
{
	struct csim_model m;
	const struct csim_path_core *p;

	csim_model_init(&m);
	mu_slice(&m, CUBE, "FIXP", 0, 100, CSIM_SLICE_INSTR);
	mu_slice(&m, VEC, "MTE2", 5, 15, CSIM_SLICE_INSTR);
	mu_slice(&m, VEC, "MTE2", 160, 260, CSIM_SLICE_INSTR);
	mu_slice(&m, "core1.veccore0", "FLOWCTRL", 0, 80, CSIM_SLICE_INTRA_WAIT);
	mu_slice(&m, "core1.veccore0", "VECTOR", 80, 90, CSIM_SLICE_INSTR);
	mu_intra(&m, CSIM_SYNC_SET, CUBE, "FIXP", 99, 100, "intra_1", CSIM_NONE);
	mu_intra(&m, CSIM_SYNC_WAIT, VEC, "MTE2", 20, 150, "intra_1", CSIM_NONE);
	if (!CHECK_U64(c, mu_run(&m), 0) || !CHECK(c, (p = core_path(&m, VEC)) != NULL))
		goto out;
	check_tiles(c, &m, p);
	CHECK_I64(c, p->span_ns, 255);
	CHECK_I64(c, p->cross_ns, 140);
	CHECK_I64(c, p->issue_ns, 5);
	CHECK_I64(c, busy_of(&m, p, "MTE2"), 110);
	/* the other core holds still: halving MTE2 saves only x's 50 and x0's 5 */
	CHECK_I64(c, what_if_of(&m, p, "MTE2"), 205);
	if (CHECK(c, (p = core_path(&m, "core1.veccore0")) != NULL)) {
		check_tiles(c, &m, p);
		CHECK_I64(c, p->cross_ns, 80);
		CHECK_I64(c, busy_of(&m, p, "VECTOR"), 10);
	}
out:
	csim_model_release(&m);
}

/*
 * A WAIT reached after its flag was set does not bind (SPEC §13): MTE2 P
 * [0,100] sets the flag (SET [100,101]); SCALAR Q [0,150]; the VECTOR WAIT
 * begins at 150, after the SET, and lasts its cycle to 151; VECTOR X
 * [151,200]. X has no earlier VECTOR: issue back to Q's end. Path: X 49,
 * issue 1, Q 150; no flag wait (the rule before the amendment gave a wait
 * MTE2->VECTOR [100,151] and P).
 */
static void test_late_wait(struct check_ctx *c)
{
	struct csim_model m;
	const struct csim_path_core *p;

	csim_model_init(&m);
	mu_slice(&m, VEC, "MTE2", 0, 100, CSIM_SLICE_INSTR);
	mu_slice(&m, VEC, "SCALAR", 0, 150, CSIM_SLICE_INSTR);
	mu_slice(&m, VEC, "VECTOR", 151, 200, CSIM_SLICE_INSTR);
	flag(&m, "f1", "MTE2", "VECTOR", 100, 150, 151);
	if (!CHECK_U64(c, mu_run(&m), 0) || !CHECK(c, (p = core_path(&m, VEC)) != NULL))
		goto out;
	CHECK_U64(c, m.narrows, 1);
	check_tiles(c, &m, p);
	CHECK_I64(c, wait_of(&m, p, "MTE2", "VECTOR"), 0);
	CHECK_I64(c, busy_of(&m, p, "SCALAR"), 150);
	CHECK_I64(c, busy_of(&m, p, "VECTOR"), 49);
	CHECK_I64(c, busy_of(&m, p, "MTE2"), 0);
	CHECK_I64(c, p->issue_ns, 1);
out:
	csim_model_release(&m);
}

/*
 * Twins bind as the arrows do: MTE2 P [0,100] sets a flag (SET [100,101])
 * that a VECTOR WAIT [50,110] blocks on; VECTOR T1 and T2 both [110,300]
 * (MOV_SPR_XN drawn with its transfer's times). The arrow binds T1, the
 * earliest twin; the path ends at T2 (the later in input order), which
 * takes T1's binding: T2 190, wait MTE2->VECTOR [100,110] 10, P 100, no
 * issue time (without the twin rule T2 had no flag: issue [100,110]).
 */
static void test_twins(struct check_ctx *c)
{
	struct csim_model m;
	const struct csim_path_core *p;

	csim_model_init(&m);
	mu_slice(&m, VEC, "MTE2", 0, 100, CSIM_SLICE_INSTR);
	mu_slice(&m, VEC, "VECTOR", 110, 300, CSIM_SLICE_INSTR);
	mu_slice(&m, VEC, "VECTOR", 110, 300, CSIM_SLICE_INSTR);
	flag(&m, "f1", "MTE2", "VECTOR", 100, 50, 110);
	if (!CHECK_U64(c, mu_run(&m), 0) || !CHECK(c, (p = core_path(&m, VEC)) != NULL))
		goto out;
	CHECK_U64(c, m.narrows, 1);
	check_tiles(c, &m, p);
	CHECK_I64(c, wait_of(&m, p, "MTE2", "VECTOR"), 10);
	CHECK_I64(c, busy_of(&m, p, "VECTOR"), 190);
	CHECK_I64(c, busy_of(&m, p, "MTE2"), 100);
	CHECK_I64(c, p->issue_ns, 0);
out:
	csim_model_release(&m);
}

/*
 * A pipelined pipe's depth limit: VECTOR p0 [0,100], p1 [10,110], p2
 * [100,200] (it started as p0 ended). The path is p0 then p2: VECTOR 200,
 * nothing else; p1 ran beside it.
 */
static void test_depth_limit(struct check_ctx *c)
{
	struct csim_model m;
	const struct csim_path_core *p;

	csim_model_init(&m);
	mu_slice(&m, VEC, "VECTOR", 0, 100, CSIM_SLICE_INSTR);
	mu_slice(&m, VEC, "VECTOR", 10, 110, CSIM_SLICE_INSTR);
	mu_slice(&m, VEC, "VECTOR", 100, 200, CSIM_SLICE_INSTR);
	if (!CHECK_U64(c, mu_run(&m), 0) || !CHECK(c, (p = core_path(&m, VEC)) != NULL))
		goto out;
	check_tiles(c, &m, p);
	CHECK_I64(c, busy_of(&m, p, "VECTOR"), 200);
	CHECK_U64(c, p->nseg, 2);
	CHECK_I64(c, p->issue_ns, 0);
out:
	csim_model_release(&m);
}

/*
 * The time after the last instruction is issue: a BAR (no instruction)
 * ending after it extends the span. Rerunning the pass gives the same path.
 */
static void test_tail_and_rerun(struct check_ctx *c)
{
	struct csim_model m;
	const struct csim_path_core *p;
	struct csim_error err;
	size_t nseg;

	csim_model_init(&m);
	mu_slice(&m, VEC, "MTE2", 0, 100, CSIM_SLICE_INSTR);
	mu_slice(&m, VEC, "MTE2", 100, 130, CSIM_SLICE_BAR);
	if (!CHECK_U64(c, mu_run(&m), 0) || !CHECK(c, (p = core_path(&m, VEC)) != NULL))
		goto out;
	check_tiles(c, &m, p);
	CHECK_I64(c, p->issue_ns, 30);
	CHECK_I64(c, busy_of(&m, p, "MTE2"), 100);
	CHECK_I64(c, what_if_of(&m, p, "MTE2"), 80);
	nseg = m.path.nsegs;
	csim_error_clear(&err);
	CHECK_U64(c, csim_pass_path(&m, &err), CSIM_OK);
	CHECK_U64(c, m.path.nsegs, nseg);
out:
	csim_model_release(&m);
}

int main(void)
{
	struct check_ctx c = { 0, 0, NULL };

	CHECK_RUN(&c, test_chain);
	CHECK_RUN(&c, test_top_instructions);
	CHECK_RUN(&c, test_top_ten);
	CHECK_RUN(&c, test_what_if);
	CHECK_RUN(&c, test_window_clips);
	CHECK_RUN(&c, test_dropped_scalar_consumer);
	CHECK_RUN(&c, test_cross_core);
	CHECK_RUN(&c, test_late_wait);
	CHECK_RUN(&c, test_twins);
	CHECK_RUN(&c, test_depth_limit);
	CHECK_RUN(&c, test_tail_and_rerun);
	return check_done(&c);
}
