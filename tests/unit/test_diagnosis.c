/*
 * Diagnosis rules (SPEC §10): every rule on a hand-built model that sits
 * on its threshold (fires) and one just short of it (does not), the
 * numbers and wording of the lines. A BAR on [0,1000) fixes a core's span
 * at 1000 ns, so busy ns read directly as tenths of a percent; du_pad()
 * keeps near_empty (which would silence the rules that read the figures)
 * out of the way. test_diagnosis_verdict.c covers how lines are grouped,
 * ranked, suppressed and folded.
 */
#include "diagutil.h"

static void run_all(struct csim_model *m)
{
	du_run(m);
}

/* The line of `rule` holding on core `pid` (NULL: a whole-run line), or NULL. */
static const struct csim_diag *line_of(const struct csim_model *m,
				       enum csim_diag_rule rule, const char *pid)
{
	const struct csim_diag *d = du_line(m, rule);

	if (d == NULL)
		return NULL;
	if (pid == NULL)
		return d->core == CSIM_DIAG_ALL ? d : NULL;
	return du_at(m, d, pid) != NULL ? d : NULL;
}

static int has_rule(const struct csim_model *m, enum csim_diag_rule rule)
{
	return du_line(m, rule) != NULL;
}

static void check_text(struct check_ctx *c, const struct csim_model *m,
		       const struct csim_diag *d, const char *want)
{
	du_text(c, m, d, want);
}

/* A core with span [0,1000): MTE2 busy mte ns, CUBE busy cube ns. */
static void transfer_core(struct csim_model *m, int64_t mte, int64_t cube)
{
	mu_slice(m, CA, "MTE2", 0, 1000, CSIM_SLICE_BAR);
	mu_slice(m, CA, "MTE2", 0, mte / 2, CSIM_SLICE_INSTR);
	mu_slice(m, CA, "MTE2", mte / 4, mte, CSIM_SLICE_INSTR);   /* overlaps: counted once */
	mu_slice(m, CA, "MTE1", 0, 300, CSIM_SLICE_INSTR);         /* an MTE, not the busiest */
	mu_slice(m, CA, "CUBE", 1000 - cube, 1000, CSIM_SLICE_INSTR);
	du_pad(m, CA, 0);
}

/* MTE2 at 70 % with CUBE at 30 % fires; 69.9 %, or CUBE at 30.1 %, does not. */
static void test_transfer_bound(struct check_ctx *c)
{
	struct csim_model m;
	const struct csim_diag *d;

	csim_model_init(&m);
	transfer_core(&m, 700, 300);
	run_all(&m);
	d = line_of(&m, CSIM_DIAG_TRANSFER_BOUND, CA);
	if (CHECK(c, d != NULL)) {
		CHECK_STR(c, mu_name(&m, (uint32_t)csim_diag_num(d, CSIM_DIAG_FIG_PIPE)), "MTE2");
		CHECK_I64(c, csim_diag_num(d, CSIM_DIAG_FIG_BUSY_NS), 700);
		CHECK_I64(c, csim_diag_num(d, CSIM_DIAG_FIG_SPAN_NS), 1000);
		CHECK_STR(c, mu_name(&m, (uint32_t)csim_diag_num(d, CSIM_DIAG_FIG_COMPUTE_PIPE)), "CUBE");
		CHECK_I64(c, csim_diag_num(d, CSIM_DIAG_FIG_COMPUTE_BUSY_NS), 300);
		check_text(c, &m, d, "likely transfer-bound on core0.cubecore0: MTE2 busy 70 % "
			   "of the span, CUBE 30 %; try double buffering");
		CHECK_STR(c, csim_diag_id(d->rule), "transfer_bound");
	}
	csim_model_release(&m);

	csim_model_init(&m);
	transfer_core(&m, 699, 300);
	run_all(&m);
	CHECK(c, !has_rule(&m, CSIM_DIAG_TRANSFER_BOUND));
	csim_model_release(&m);

	csim_model_init(&m);
	transfer_core(&m, 700, 301);
	run_all(&m);
	CHECK(c, !has_rule(&m, CSIM_DIAG_TRANSFER_BOUND));
	csim_model_release(&m);

	/* A pure copy kernel has no compute pipe: transfer-bound by nature. */
	csim_model_init(&m);
	mu_slice(&m, VA, "MTE2", 0, 1000, CSIM_SLICE_INSTR);
	du_pad(&m, VA, 0);
	run_all(&m);
	d = line_of(&m, CSIM_DIAG_TRANSFER_BOUND, VA);
	if (CHECK(c, d != NULL)) {
		CHECK_U64(c, (uint64_t)csim_diag_num(d, CSIM_DIAG_FIG_COMPUTE_PIPE), CSIM_NONE);
		check_text(c, &m, d, "likely transfer-bound on core0.veccore0: MTE2 busy 100 % "
			   "of the span, no compute pipe ran; try double buffering");
	}
	csim_model_release(&m);
}

/* SCALAR busy 600 of 1000 fires, though the lane is dropped; 599 does not. */
static void test_scalar_bound(struct check_ctx *c)
{
	struct csim_model m;
	const struct csim_diag *d;

	for (int64_t busy = 599; busy <= 600; busy++) {
		csim_model_init(&m);
		mu_slice(&m, VA, "VECTOR", 0, 1000, CSIM_SLICE_BAR);
		mu_slice(&m, VA, "VECTOR", 0, 100, CSIM_SLICE_INSTR);
		mu_slice(&m, VA, "SCALAR", 100, 100 + busy, CSIM_SLICE_INSTR);
		du_pad(&m, VA, 0);
		run_all(&m);
		d = line_of(&m, CSIM_DIAG_SCALAR_BOUND, VA);
		if (busy == 599) {
			CHECK(c, d == NULL);
		} else if (CHECK(c, d != NULL)) {
			CHECK_STR(c, mu_name(&m, (uint32_t)csim_diag_num(d, CSIM_DIAG_FIG_PIPE)), "SCALAR");
			CHECK_I64(c, csim_diag_num(d, CSIM_DIAG_FIG_BUSY_NS), 600);
			check_text(c, &m, d, "likely scalar-bound on core0.veccore0: SCALAR busy "
				   "60 % of the span; move address and loop arithmetic out of "
				   "the inner loops (--keep-scalar shows the lane)");
		}
		csim_model_release(&m);
	}
}

/*
 * MTE1 blocked in WAIT_FLAG [0,300) on MTE2 and [250,500) on FIXP: 500 of
 * 1000 (fires; MTE2 is the main producer with 300); ending at 499 does not.
 * MTE2 has no instruction, so nothing else on the core names it.
 */
static void test_sync_bound(struct check_ctx *c)
{
	struct csim_model m;
	const struct csim_diag *d;

	for (int64_t end = 499; end <= 500; end++) {
		csim_model_init(&m);
		mu_slice(&m, VA, "MTE2", 0, 1000, CSIM_SLICE_BAR);
		mu_slice(&m, VA, "MTE1", 600, 700, CSIM_SLICE_INSTR);
		mu_flag(&m, CSIM_SYNC_WAIT, VA, "MTE1", 0, 300, "w1",
			mu_detail(&m, "MTE2", "MTE1", 0));
		mu_flag(&m, CSIM_SYNC_WAIT, VA, "MTE1", 250, end, "w2",
			mu_detail(&m, "FIXP", "MTE1", 1));
		du_pad(&m, VA, 0);
		run_all(&m);
		d = line_of(&m, CSIM_DIAG_SYNC_BOUND, VA);
		if (end == 499) {
			CHECK(c, d == NULL);
		} else if (CHECK(c, d != NULL)) {
			CHECK_STR(c, mu_name(&m, (uint32_t)csim_diag_num(d, CSIM_DIAG_FIG_PIPE)), "MTE1");
			CHECK_I64(c, csim_diag_num(d, CSIM_DIAG_FIG_WAIT_FLAG_NS), 500);
			CHECK_STR(c, mu_name(&m, (uint32_t)csim_diag_num(d, CSIM_DIAG_FIG_PRODUCER)), "MTE2");
			CHECK_I64(c, csim_diag_num(d, CSIM_DIAG_FIG_PRODUCER_NS), 300);
			check_text(c, &m, d, "likely sync-bound on core0.veccore0: MTE1 blocked in "
				   "WAIT_FLAG 500 ns, 50 % of the 1000 ns span, most on MTE2 (30 %); see what MTE2 "
				   "does before its SET_FLAG: double buffering lets it run ahead");
		}
		csim_model_release(&m);
	}
}

/*
 * Pipe and core names come from the input and can be long: the text
 * quotes 64 bytes of each, cut before a UTF-8 sequence, not inside it: of
 * "x" and 40 "é", byte 64 is the second byte of an "é", so the cut keeps
 * "x" and 31 "é" (the pid the same with "v").
 */
static void test_long_names(struct check_ctx *c)
{
	struct csim_model m;
	const struct csim_diag *d;
	char name[100] = "x", pid[100] = "v", cut[100] = "", pcut[100] = "";
	char want[CSIM_DIAG_TEXT_MAX];

	for (int i = 0; i < 40; i++) {
		strcat(name, "\xc3\xa9");
		strcat(pid, "\xc3\xa9");
	}
	memcpy(cut, name, 63);
	memcpy(pcut, pid, 63);
	csim_model_init(&m);
	mu_slice(&m, pid, "MTE2", 0, 1000, CSIM_SLICE_BAR);
	mu_slice(&m, pid, "MTE2", 0, 1000, CSIM_SLICE_INSTR);
	mu_flag(&m, CSIM_SYNC_WAIT, pid, name, 0, 600, "w1", mu_detail(&m, name, name, 0));
	du_pad(&m, pid, 0);
	run_all(&m);
	d = line_of(&m, CSIM_DIAG_SYNC_BOUND, pid);
	snprintf(want, sizeof(want), "likely sync-bound on %s: %s blocked in WAIT_FLAG 600 ns, "
		 "60 %% of the 1000 ns span, most on %s (60 %%); see what %s does before "
		 "its SET_FLAG: double buffering lets it run ahead", pcut, cut, cut, cut);
	if (CHECK(c, d != NULL))
		check_text(c, &m, d, want);
	csim_model_release(&m);
}

/*
 * Spans 100, 100 and 125: the slowest at 125 % of the median fires, on that
 * core alone; 124 does not.
 */
static void test_load_imbalance(struct check_ctx *c)
{
	struct csim_model m;
	const struct csim_diag *d;

	for (int64_t slow = 124; slow <= 125; slow++) {
		csim_model_init(&m);
		mu_slice(&m, VA, "VECTOR", 0, 100, CSIM_SLICE_INSTR);
		mu_slice(&m, VB, "VECTOR", 0, slow, CSIM_SLICE_INSTR);
		mu_slice(&m, VC, "VECTOR", 50, 150, CSIM_SLICE_INSTR);
		du_pad(&m, VA, 0);
		run_all(&m);
		d = line_of(&m, CSIM_DIAG_LOAD_IMBALANCE, VB);
		if (slow == 124) {
			CHECK(c, !has_rule(&m, CSIM_DIAG_LOAD_IMBALANCE));
		} else if (CHECK(c, d != NULL)) {
			CHECK_I64(c, csim_diag_num(d, CSIM_DIAG_FIG_MAX_SPAN_NS), 125);
			CHECK_I64(c, csim_diag_num(d, CSIM_DIAG_FIG_MEDIAN_SPAN_NS), 100);
			CHECK_I64(c, csim_diag_num(d, CSIM_DIAG_FIG_MIN_SPAN_NS), 100);
			CHECK_I64(c, csim_diag_num(d, CSIM_DIAG_FIG_CORES), 3);
			CHECK_U64(c, d->nat, 1);
			CHECK_STR(c, du_core(&m, d), VB);
			check_text(c, &m, d, "likely load imbalance on core1.veccore0: span "
				   "125 ns, 125 % of the median 100 ns over 3 cores; check "
				   "how the tiling splits the work across blocks");
		}
		csim_model_release(&m);
	}

	/* One core is balanced by definition. */
	csim_model_init(&m);
	mu_slice(&m, VA, "VECTOR", 0, 100, CSIM_SLICE_INSTR);
	du_pad(&m, VA, 0);
	run_all(&m);
	CHECK(c, !has_rule(&m, CSIM_DIAG_LOAD_IMBALANCE));
	csim_model_release(&m);
}

/*
 * 31 pipeline instructions over two cores fire near-empty; 32 do not. The
 * 40 SCALAR instructions do not count: scalar setup alone is no work.
 */
static void test_near_empty(struct check_ctx *c)
{
	struct csim_model m;
	const struct csim_diag *d;

	for (int total = 31; total <= 32; total++) {
		csim_model_init(&m);
		for (int i = 0; i < total; i++)
			mu_slice(&m, i % 2 ? VA : VB, "VECTOR", 10 * i, 10 * i + 5,
				 CSIM_SLICE_INSTR);
		for (int i = 0; i < 40; i++)
			mu_slice(&m, VA, "SCALAR", 10 * i, 10 * i + 5, CSIM_SLICE_INSTR);
		run_all(&m);
		d = line_of(&m, CSIM_DIAG_NEAR_EMPTY, NULL);
		if (total == 32) {
			CHECK(c, d == NULL);
		} else if (CHECK(c, d != NULL)) {
			CHECK_I64(c, csim_diag_num(d, CSIM_DIAG_FIG_INSTRUCTIONS), 31);
			CHECK_I64(c, csim_diag_num(d, CSIM_DIAG_FIG_CORES), 2);
		}
		csim_model_release(&m);
	}

	/* No core at all: the emptiest trace. */
	csim_model_init(&m);
	run_all(&m);
	d = line_of(&m, CSIM_DIAG_NEAR_EMPTY, NULL);
	if (CHECK(c, d != NULL && m.diagnosis.n == 1)) {
		CHECK_I64(c, csim_diag_num(d, CSIM_DIAG_FIG_INSTRUCTIONS), 0);
		check_text(c, &m, d, "possibly a near-empty trace: 0 instructions on the "
			   "pipeline lanes over 0 cores; if the kernel's work depends on its "
			   "inputs (a trip count or work-table size read from a tensor), it "
			   "likely ran on zeroed inputs: profile it with real inputs");
	}
	csim_model_release(&m);
}

/*
 * Cube cores without one CUBE instruction fire; one CUBE instruction, or
 * no cube core, do not. Without API_INSTR the trace's slices decide.
 */
static void test_no_cube(struct check_ctx *c)
{
	struct csim_model m;
	const struct csim_diag *d;

	csim_model_init(&m);
	mu_slice(&m, CA, "MTE2", 0, 100, CSIM_SLICE_INSTR);
	mu_slice(&m, CB, "FIXP", 0, 100, CSIM_SLICE_INSTR);
	mu_slice(&m, VA, "VECTOR", 0, 100, CSIM_SLICE_INSTR);
	du_pad(&m, VA, 0);
	run_all(&m);
	d = line_of(&m, CSIM_DIAG_NO_CUBE, NULL);
	if (CHECK(c, d != NULL)) {
		CHECK_I64(c, csim_diag_num(d, CSIM_DIAG_FIG_CUBE_CORES), 2);
		CHECK_I64(c, csim_diag_num(d, CSIM_DIAG_FIG_CUBE_INSTRUCTIONS), 0);
		CHECK_STR(c, csim_diag_id(d->rule), "degenerate_no_cube");
		CHECK_I64(c, csim_diag_num(d, CSIM_DIAG_FIG_CUBE_CORE_INSTRUCTIONS), 2);
		/* judged on slices: no cycles number */
		CHECK(c, d->nnums == 3);
		/* it holds on the cube cores */
		CHECK_U64(c, d->nat, 2);
		CHECK(c, du_at(&m, d, CA) != NULL && du_at(&m, d, CB) != NULL);
		check_text(c, &m, d, "likely a degenerate trace: a matmul kernel with CUBE = 0 "
			   "(2 cube cores ran 2 pipeline instructions, none on CUBE); a "
			   "matmul that did no matmul is a profiling artifact, not a free "
			   "matmul: check the inputs and shapes the simulator ran with");
	}
	csim_model_release(&m);

	csim_model_init(&m);
	mu_slice(&m, CA, "MTE2", 0, 100, CSIM_SLICE_INSTR);
	mu_slice(&m, CB, "CUBE", 0, 1, CSIM_SLICE_INSTR);
	du_pad(&m, CA, 0);
	run_all(&m);
	CHECK(c, !has_rule(&m, CSIM_DIAG_NO_CUBE));
	csim_model_release(&m);

	csim_model_init(&m);
	mu_slice(&m, VA, "VECTOR", 0, 100, CSIM_SLICE_INSTR);
	du_pad(&m, VA, 0);
	run_all(&m);
	CHECK(c, !has_rule(&m, CSIM_DIAG_NO_CUBE));
	csim_model_release(&m);

	/* One of each: the wording says so in the singular. */
	csim_model_init(&m);
	mu_slice(&m, CA, "MTE2", 0, 100, CSIM_SLICE_INSTR);
	du_pad(&m, VA, 0);
	run_all(&m);
	d = line_of(&m, CSIM_DIAG_NO_CUBE, NULL);
	if (CHECK(c, d != NULL))
		check_text(c, &m, d, "likely a degenerate trace: a matmul kernel with CUBE = 0 "
			   "(1 cube core ran 1 pipeline instruction, none on CUBE); a "
			   "matmul that did no matmul is a profiling artifact, not a free "
			   "matmul: check the inputs and shapes the simulator ran with");
	csim_model_release(&m);
}

/* VECTOR busy `busy` of 1000 ns, with mean utilization util % over 1000 cycles. */
static void vector_core(struct csim_model *m, int64_t busy, double util)
{
	mu_slice(m, VA, "VECTOR", 0, 1000, CSIM_SLICE_BAR);
	mu_slice(m, VA, "VECTOR", 0, busy, CSIM_SLICE_INSTR);
	mu_slice(m, VA, "MTE2", 0, 300, CSIM_SLICE_INSTR);
	du_pad(m, VA, 0);
	run_all(m);
	du_set_util(m, VA, "VECTOR", util, 1000);
	du_set_util(m, VA, "MTE2", -1, 0);   /* a row of another pipe: never counted */
	du_rediagnose(m);
}

/*
 * VECTOR busy 70 % at 50 % mean utilization fires; 69.9 % busy, 50.01 %
 * utilization or no API_INSTR figures do not. On Ascend950 the family is
 * one unit: busy from its busiest pipe, utilization pooled by cycles.
 */
static void test_vector_shaped_wrong(struct check_ctx *c)
{
	struct csim_model m;
	const struct csim_diag *d;

	csim_model_init(&m);
	vector_core(&m, 700, 50.0);
	d = line_of(&m, CSIM_DIAG_VECTOR_SHAPE, VA);
	if (CHECK(c, d != NULL)) {
		CHECK_STR(c, mu_name(&m, (uint32_t)csim_diag_num(d, CSIM_DIAG_FIG_PIPE)), "VECTOR");
		CHECK_I64(c, csim_diag_num(d, CSIM_DIAG_FIG_BUSY_NS), 700);
		CHECK_I64(c, csim_diag_num(d, CSIM_DIAG_FIG_SPAN_NS), 1000);
		CHECK_I64(c, csim_diag_num(d, CSIM_DIAG_FIG_UTILIZATION_X100), 5000);
		CHECK_I64(c, csim_diag_num(d, CSIM_DIAG_FIG_UTILIZATION_CYCLES), 1000);
		CHECK_STR(c, csim_diag_id(d->rule), "vector_shaped_wrong");
		check_text(c, &m, d, "likely shaped wrong for the vector unit on core0.veccore0: VECTOR busy "
			   "70 % of the span at 50 % mean vector utilization (API_INSTR, "
			   "cycle-weighted); tune the tile shape so that each vector "
			   "instruction fills its repeat and mask");
	}
	csim_model_release(&m);

	csim_model_init(&m);
	vector_core(&m, 699, 50.0);
	CHECK(c, !has_rule(&m, CSIM_DIAG_VECTOR_SHAPE));
	csim_model_release(&m);

	csim_model_init(&m);
	vector_core(&m, 1000, 50.01);
	CHECK(c, !has_rule(&m, CSIM_DIAG_VECTOR_SHAPE));
	csim_model_release(&m);

	/* Without API_INSTR nothing says the unit is used badly. */
	csim_model_init(&m);
	mu_slice(&m, VA, "VECTOR", 0, 1000, CSIM_SLICE_INSTR);
	du_pad(&m, VA, 0);
	run_all(&m);
	CHECK(c, !has_rule(&m, CSIM_DIAG_VECTOR_SHAPE));
	csim_model_release(&m);

	/*
	 * Ascend950: RVECEX busy 80 %, its rows at 20 % over 600 cycles and
	 * RVECLD's at 95 % over 400: pooled (12000 + 38000) / 1000 = 50 % fires
	 * and names RVECEX; RVECLD at 96 % (50.4 %) does not.
	 */
	for (int ld = 95; ld <= 96; ld++) {
		csim_model_init(&m);
		mu_slice(&m, VA, "RVECEX", 0, 1000, CSIM_SLICE_BAR);
		mu_slice(&m, VA, "RVECEX", 100, 900, CSIM_SLICE_INSTR);
		mu_slice(&m, VA, "RVECLD", 0, 100, CSIM_SLICE_INSTR);
		du_pad(&m, VA, 0);
		run_all(&m);
		du_set_util(&m, VA, "RVECEX", 20.0, 600);
		du_set_util(&m, VA, "RVECLD", ld, 400);
		du_rediagnose(&m);
		d = line_of(&m, CSIM_DIAG_VECTOR_SHAPE, VA);
		if (ld == 96) {
			CHECK(c, d == NULL);
		} else if (CHECK(c, d != NULL)) {
			CHECK_STR(c, mu_name(&m, (uint32_t)csim_diag_num(d, CSIM_DIAG_FIG_PIPE)), "RVECEX");
			CHECK_I64(c, csim_diag_num(d, CSIM_DIAG_FIG_BUSY_NS), 800);
			CHECK_I64(c, csim_diag_num(d, CSIM_DIAG_FIG_UTILIZATION_X100), 5000);
		}
		csim_model_release(&m);
	}
}

/*
 * VA's last instruction ends at 1000. A WAIT no SET releases, open until
 * 1000, fires; one ending at 999 (released or not, it ended before the
 * core did), a released one ending at 1000, or incomplete records do not.
 */
static void test_truncated(struct check_ctx *c)
{
	struct csim_model m;
	const struct csim_diag *d;

	for (int64_t end = 999; end <= 1000; end++) {
		csim_model_init(&m);
		mu_slice(&m, VA, "MTE2", 0, 500, CSIM_SLICE_INSTR);
		mu_slice(&m, VA, "VECTOR", 500, 1000, CSIM_SLICE_INSTR);
		mu_slice(&m, VB, "VECTOR", 0, 400, CSIM_SLICE_INSTR);
		mu_flag(&m, CSIM_SYNC_WAIT, VA, "MTE2", 100, 200, "early", CSIM_NONE);
		mu_flag(&m, CSIM_SYNC_WAIT, VA, "MTE2", 600, end, "open", CSIM_NONE);
		run_all(&m);
		d = line_of(&m, CSIM_DIAG_TRUNCATED, NULL);
		if (end == 999) {
			CHECK(c, d == NULL);
		} else if (CHECK(c, d != NULL)) {
			CHECK_I64(c, csim_diag_num(d, CSIM_DIAG_FIG_UNRELEASED_WAITS), 2);
			CHECK_I64(c, csim_diag_num(d, CSIM_DIAG_FIG_CORES_WAITING), 1);
			CHECK_I64(c, csim_diag_num(d, CSIM_DIAG_FIG_CORES), 2);
			CHECK_STR(c, csim_diag_id(d->rule), "truncated");
			check_text(c, &m, d, "possibly truncated by the simulator's timeout: "
				   "2 waits never released by a SET on 1 of 2 cores, the latest "
				   "still open when its core's last instruction ends (a complete "
				   "run releases every wait); re-run with a longer --timeout: if "
				   "it stops in the same wait again, the kernel hangs on that flag");
		}
		csim_model_release(&m);
	}

	/* Released: the SET came, so the wait ended with the run. */
	csim_model_init(&m);
	mu_slice(&m, VA, "VECTOR", 0, 1000, CSIM_SLICE_INSTR);
	mu_flag(&m, CSIM_SYNC_SET, VA, "MTE2", 400, 401, "f", CSIM_NONE);
	mu_flag(&m, CSIM_SYNC_WAIT, VA, "VECTOR", 300, 1000, "f", CSIM_NONE);
	run_all(&m);
	CHECK(c, !has_rule(&m, CSIM_DIAG_TRUNCATED));
	csim_model_release(&m);

	/* samples_minimal's shape: a SET B and a WAIT E cut off by hand. */
	csim_model_init(&m);
	mu_slice(&m, VA, "VECTOR", 0, 1000, CSIM_SLICE_INSTR);
	mu_sync(&m, CSIM_SYNC_SET, 1, VA, "MTE2", 900, "g", CSIM_NONE);
	mu_sync(&m, CSIM_SYNC_WAIT, 0, VA, "SCALAR", 1000, "g", CSIM_NONE);
	run_all(&m);
	CHECK(c, !has_rule(&m, CSIM_DIAG_TRUNCATED));
	csim_model_release(&m);

	/* 910B/310P flags carry no id: matched by detail key, the same reading. */
	csim_model_init(&m);
	mu_slice(&m, VA, "VECTOR", 0, 1000, CSIM_SLICE_INSTR);
	mu_flag(&m, CSIM_SYNC_SET, VA, "MTE2", 100, 101, NULL, mu_detail(&m, "MTE2", "VECTOR", 0));
	mu_flag(&m, CSIM_SYNC_WAIT, VA, "VECTOR", 50, 150, NULL, mu_detail(&m, "MTE2", "VECTOR", 0));
	mu_flag(&m, CSIM_SYNC_WAIT, VA, "VECTOR", 900, 1000, NULL, mu_detail(&m, "MTE2", "VECTOR", 0));
	run_all(&m);
	d = line_of(&m, CSIM_DIAG_TRUNCATED, NULL);
	if (CHECK(c, d != NULL))
		CHECK_I64(c, csim_diag_num(d, CSIM_DIAG_FIG_UNRELEASED_WAITS), 1);
	csim_model_release(&m);

	/* A cross-core wait on VB, never released, open past VB's end. */
	csim_model_init(&m);
	mu_slice(&m, VA, "VECTOR", 0, 1000, CSIM_SLICE_INSTR);
	mu_slice(&m, VB, "VECTOR", 0, 400, CSIM_SLICE_INSTR);
	mu_intra(&m, CSIM_SYNC_WAIT, VB, "MTE2", 300, 1000, "intra_7", CSIM_NONE);
	run_all(&m);
	d = line_of(&m, CSIM_DIAG_TRUNCATED, NULL);
	if (CHECK(c, d != NULL)) {
		CHECK_I64(c, csim_diag_num(d, CSIM_DIAG_FIG_UNRELEASED_WAITS), 1);
		CHECK_I64(c, csim_diag_num(d, CSIM_DIAG_FIG_CORES_WAITING), 1);
	}
	csim_model_release(&m);
}

/*
 * --window: a window holds part of the run, so the whole-run rules stay
 * silent: too few instructions, no CUBE, or waits open past the window's
 * end say nothing about the kernel. The same models without the window
 * fire them (near_empty on the bare model; degenerate_no_cube once padded,
 * as a near-empty trace leaves it to near_empty).
 */
static void test_whole_run_rules_under_a_window(struct check_ctx *c)
{
	struct csim_model m;

	for (int windowed = 0; windowed <= 1; windowed++)
		for (int padded = 0; padded <= 1; padded++) {
			csim_model_init(&m);
			mu_slice(&m, CA, "MTE2", 0, 500, CSIM_SLICE_INSTR);
			mu_slice(&m, CA, "FIXP", 500, 1000, CSIM_SLICE_INSTR);
			mu_flag(&m, CSIM_SYNC_WAIT, CA, "FIXP", 600, 1000, "open",
				CSIM_NONE);
			if (padded)
				du_pad(&m, CA, 0);
			if (windowed) {
				m.cut.window.has_from = m.cut.window.has_to = 1;
				m.cut.window.from_ns = 0;
				m.cut.window.to_ns = 900;
			}
			run_all(&m);
			CHECK(c, has_rule(&m, CSIM_DIAG_NEAR_EMPTY) == (!windowed && !padded));
			CHECK(c, has_rule(&m, CSIM_DIAG_NO_CUBE) == (!windowed && padded));
			CHECK(c, has_rule(&m, CSIM_DIAG_TRUNCATED) == !windowed);
			csim_model_release(&m);
		}
}

/*
 * Lines come in rank order whatever the input order, and running the pass
 * again gives the same lines. transfer_bound on VA (MTE2 1000 of 1000) and
 * VB (MTE3 100 of 100), scalar_bound on VA (1000): both cover the whole
 * slowest span, so rule order decides; load_imbalance (spans 1000, 100,
 * 100: 1000 − 100 = 900) follows.
 */
static void test_order_and_rerun(struct check_ctx *c)
{
	struct csim_model m;
	struct csim_error err;
	enum csim_diag_rule want[] = {
		CSIM_DIAG_TRANSFER_BOUND, CSIM_DIAG_SCALAR_BOUND, CSIM_DIAG_LOAD_IMBALANCE,
	};
	const char *cores[] = { VA, VA, VA };

	csim_model_init(&m);
	mu_slice(&m, VB, "MTE3", 0, 100, CSIM_SLICE_INSTR);
	mu_slice(&m, VA, "SCALAR", 0, 1000, CSIM_SLICE_INSTR);
	mu_slice(&m, VA, "MTE2", 0, 1000, CSIM_SLICE_INSTR);
	mu_slice(&m, VC, "VECTOR", 0, 100, CSIM_SLICE_INSTR);
	du_pad(&m, VA, 0);
	run_all(&m);
	for (int pass = 0; pass < 2; pass++) {
		if (CHECK_U64(c, m.diagnosis.n, 3))
			for (size_t i = 0; i < 3; i++) {
				CHECK(c, line_of(&m, want[i], cores[i]) == &m.diagnosis.lines[i]);
				CHECK(c, m.diagnosis.lines[i].primary == (i == 0));
			}
		CHECK(c, du_at(&m, du_line(&m, CSIM_DIAG_TRANSFER_BOUND), VB) != NULL);
		csim_error_clear(&err);
		CHECK_U64(c, (uint64_t)csim_pass_diagnose(&m, &err), CSIM_OK);
	}
	csim_model_release(&m);
}

int main(void)
{
	struct check_ctx c = { 0, 0, NULL };

	CHECK_RUN(&c, test_transfer_bound);
	CHECK_RUN(&c, test_scalar_bound);
	CHECK_RUN(&c, test_sync_bound);
	CHECK_RUN(&c, test_long_names);
	CHECK_RUN(&c, test_load_imbalance);
	CHECK_RUN(&c, test_near_empty);
	CHECK_RUN(&c, test_no_cube);
	CHECK_RUN(&c, test_vector_shaped_wrong);
	CHECK_RUN(&c, test_truncated);
	CHECK_RUN(&c, test_whole_run_rules_under_a_window);
	CHECK_RUN(&c, test_order_and_rerun);
	return check_done(&c);
}
