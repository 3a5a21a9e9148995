/*
 * The diagnosis as one verdict (SPEC §10): one line per rule naming its
 * cores with the range of its figure, ranked with the primary cause first,
 * the per-pipe rules silenced on a degenerate trace, a consequence folded
 * into its cause, advice that fits a blocked SCALAR, and the cross-core
 * line naming whom a core waits on, CUBE = 0 judged on API_INSTR cycles,
 * and every figure with a summary.json key of its own.
 * Spans are 1000 ns (a BAR), so busy ns read as tenths of a percent.
 */
#include "diagutil.h"

/* A vector core with span [0,1000): MTE2 busy mte ns, VECTOR busy vec ns. */
static void load_core(struct csim_model *m, const char *pid, int64_t mte, int64_t vec)
{
	mu_slice(m, pid, "MTE3", 0, 1000, CSIM_SLICE_BAR);
	mu_slice(m, pid, "MTE2", 0, mte, CSIM_SLICE_INSTR);
	if (vec > 0)
		mu_slice(m, pid, "VECTOR", 1000 - vec, 1000, CSIM_SLICE_INSTR);
	du_pad(m, pid, 0);
}

/*
 * Four vector cores, three transfer-bound (MTE2 880, 930, 900 with VECTOR
 * 100, 200, 150): one line on 3 of 4 vector cores, MTE2 88-93 %, VECTOR
 * 10-20 %; it speaks through VB (930, the most), whose numbers it takes.
 */
static void test_one_line_per_rule(struct check_ctx *c)
{
	struct csim_model m;
	const struct csim_diag *d;

	csim_model_init(&m);
	load_core(&m, VA, 880, 100);
	load_core(&m, VB, 930, 200);
	load_core(&m, VC, 900, 150);
	load_core(&m, VD, 500, 100);
	du_run(&m);
	CHECK_U64(c, m.diagnosis.n, 1);
	d = du_line(&m, CSIM_DIAG_TRANSFER_BOUND);
	if (CHECK(c, d != NULL)) {
		CHECK_U64(c, d->nat, 3);
		CHECK(c, du_at(&m, d, VA) != NULL && du_at(&m, d, VB) != NULL &&
			 du_at(&m, d, VC) != NULL && du_at(&m, d, VD) == NULL);
		CHECK_STR(c, du_core(&m, d), VB);
		CHECK_I64(c, csim_diag_num(d, CSIM_DIAG_FIG_BUSY_NS), 930);
		CHECK_I64(c, csim_diag_at_num(du_at(&m, d, VA), CSIM_DIAG_FIG_BUSY_NS), 880);
		CHECK_I64(c, csim_diag_at_num(du_at(&m, d, VC), CSIM_DIAG_FIG_COMPUTE_BUSY_NS), 150);
		CHECK(c, d->primary);
		du_text(c, &m, d, "likely transfer-bound on 3 of 4 vector cores: MTE2 busy "
			"88-93 % of the span, VECTOR 10-20 %; try double buffering");
	}
	csim_model_release(&m);
}

/*
 * The kind of core comes from the pid: 2 of 3 cube cores; a cube and a
 * vector core together are "2 of 4 cores"; two MTE pipes show as
 * "MTE2/MTE3", equal figures as one value.
 */
static void test_kinds_and_pipes(struct check_ctx *c)
{
	struct csim_model m;
	const char *cube[] = { CA, CB, "core2.cubecore0" };

	csim_model_init(&m);
	for (int i = 0; i < 3; i++) {
		mu_slice(&m, cube[i], "MTE2", 0, 1000, CSIM_SLICE_BAR);
		mu_slice(&m, cube[i], "CUBE", 0, 100, CSIM_SLICE_INSTR);
		mu_slice(&m, cube[i], "MTE2", 100, i < 2 ? 900 : 200, CSIM_SLICE_INSTR);
		du_pad(&m, cube[i], 0);
	}
	du_run(&m);
	if (CHECK(c, du_line(&m, CSIM_DIAG_TRANSFER_BOUND) != NULL))
		du_text(c, &m, du_line(&m, CSIM_DIAG_TRANSFER_BOUND), "likely transfer-bound on "
			"2 of 3 cube cores: MTE2 busy 80 % of the span, CUBE 10 %; try double "
			"buffering");
	csim_model_release(&m);

	csim_model_init(&m);
	mu_slice(&m, CA, "MTE2", 0, 1000, CSIM_SLICE_BAR);
	mu_slice(&m, CA, "CUBE", 0, 100, CSIM_SLICE_INSTR);
	mu_slice(&m, CA, "MTE2", 100, 900, CSIM_SLICE_INSTR);
	du_pad(&m, CA, 0);
	mu_slice(&m, VA, "MTE2", 0, 1000, CSIM_SLICE_BAR);
	mu_slice(&m, VA, "MTE3", 0, 950, CSIM_SLICE_INSTR);
	load_core(&m, VB, 100, 100);
	load_core(&m, VC, 100, 100);
	du_run(&m);
	if (CHECK(c, du_line(&m, CSIM_DIAG_TRANSFER_BOUND) != NULL))
		du_text(c, &m, du_line(&m, CSIM_DIAG_TRANSFER_BOUND), "likely transfer-bound on "
			"2 of 4 cores: MTE2/MTE3 busy 80-95 % of the span, CUBE 0-10 %; try double "
			"buffering");
	csim_model_release(&m);
}

/*
 * Ranked by how much of the slowest core's span the evidence covers (VC's
 * 2000 ns): load_imbalance first (VC 1000 ns beyond the median 1000: 0.5),
 * then sync_bound on VA (WAIT_FLAG 900: 0.45) before transfer_bound on VB
 * (MTE2 700: 0.35), though rule order puts transfer_bound first.
 */
static void test_ranking(struct check_ctx *c)
{
	struct csim_model m;
	const struct csim_diag *d;

	csim_model_init(&m);
	mu_slice(&m, VA, "MTE2", 0, 1000, CSIM_SLICE_BAR);
	mu_slice(&m, VA, "MTE3", 950, 1000, CSIM_SLICE_INSTR);
	mu_flag(&m, CSIM_SYNC_WAIT, VA, "MTE3", 50, 950, "w", mu_detail(&m, "VECTOR", "MTE3", 0));
	du_pad(&m, VA, 0);
	load_core(&m, VB, 700, 100);
	mu_slice(&m, VC, "VECTOR", 0, 2000, CSIM_SLICE_BAR);
	mu_slice(&m, VC, "VECTOR", 0, 500, CSIM_SLICE_INSTR);
	mu_slice(&m, VC, "VECTOR", 1500, 2000, CSIM_SLICE_INSTR);
	du_run(&m);
	CHECK_I64(c, m.diagnosis.rank_span_ns, 2000);
	if (CHECK_U64(c, m.diagnosis.n, 3)) {
		d = &m.diagnosis.lines[0];
		CHECK(c, d->rule == CSIM_DIAG_LOAD_IMBALANCE && d->primary);
		CHECK_I64(c, d->evidence_ns, 1000);
		d = &m.diagnosis.lines[1];
		CHECK(c, d->rule == CSIM_DIAG_SYNC_BOUND && !d->primary);
		CHECK_I64(c, d->evidence_ns, 900);
		d = &m.diagnosis.lines[2];
		CHECK(c, d->rule == CSIM_DIAG_TRANSFER_BOUND && !d->primary);
		CHECK_I64(c, d->evidence_ns, 700);
		CHECK_I64(c, csim_diag_evidence_ns(&m, d), 700);
	}
	csim_model_release(&m);

	/* Equal evidence keeps rule order: transfer (MTE2 800) before scalar (800). */
	csim_model_init(&m);
	load_core(&m, VA, 800, 100);
	mu_slice(&m, VB, "MTE2", 0, 1000, CSIM_SLICE_BAR);
	mu_slice(&m, VB, "SCALAR", 100, 900, CSIM_SLICE_INSTR);
	du_pad(&m, VB, 0);
	du_run(&m);
	if (CHECK_U64(c, m.diagnosis.n, 2)) {
		CHECK(c, m.diagnosis.lines[0].rule == CSIM_DIAG_TRANSFER_BOUND);
		CHECK(c, m.diagnosis.lines[1].rule == CSIM_DIAG_SCALAR_BOUND);
		CHECK(c, m.diagnosis.lines[0].primary && !m.diagnosis.lines[1].primary);
	}
	csim_model_release(&m);
}

/*
 * With a critical path, a line's evidence is the time its cause holds on
 * it (docs/summary.md, "Ranking"). VA: MTE2 loads [0, 900] (90 % busy, no
 * compute: transfer_bound) while SCALAR runs [350, 1000] (65 %:
 * scalar_bound). The path walks back from SCALAR, the last end; nothing
 * ended before 350, so an issue gap [0, 350] leads to the span's start:
 * issue 350 + SCALAR 650. transfer_bound holds 0 ns of it, scalar_bound
 * (SCALAR and the issue gaps) all 1000: scalar is primary. Without the
 * path the busy times rank them the other way, 900 before 650.
 */
static void test_path_ranking(struct check_ctx *c)
{
	struct csim_model m;
	const struct csim_diag *t, *s;

	csim_model_init(&m);
	mu_slice(&m, VA, "MTE2", 0, 900, CSIM_SLICE_INSTR);
	mu_slice(&m, VA, "SCALAR", 350, 1000, CSIM_SLICE_INSTR);
	du_pad(&m, VA, 0);
	du_run_path(&m);
	t = du_line(&m, CSIM_DIAG_TRANSFER_BOUND);
	s = du_line(&m, CSIM_DIAG_SCALAR_BOUND);
	if (CHECK(c, t != NULL && s != NULL && m.diagnosis.n == 2)) {
		CHECK(c, m.diagnosis.lines[0].rule == CSIM_DIAG_SCALAR_BOUND && s->primary);
		CHECK_I64(c, s->evidence_ns, 1000);
		CHECK_I64(c, t->evidence_ns, 0);
		CHECK_I64(c, csim_diag_num(s, CSIM_DIAG_FIG_PATH_NS), 1000);
		CHECK(c, csim_diag_has(t, CSIM_DIAG_FIG_PATH_NS));
		CHECK_I64(c, csim_diag_num(t, CSIM_DIAG_FIG_PATH_NS), 0);
		CHECK(c, du_text_has(&m, s, "on core0.veccore0: SCALAR and the issue gaps hold "
					    "100 % of the critical path, busy 65 % of the span;"));
		CHECK(c, du_text_has(&m, t, "on core0.veccore0: MTE2 holds 0 % of the critical "
					    "path, busy 90 % of the span, no compute pipe ran;"));
	}
	/* The same core without its path: the busy times rank. */
	csim_path_release(&m.path);
	du_rediagnose(&m);
	t = du_line(&m, CSIM_DIAG_TRANSFER_BOUND);
	s = du_line(&m, CSIM_DIAG_SCALAR_BOUND);
	if (CHECK(c, t != NULL && s != NULL)) {
		CHECK(c, m.diagnosis.lines[0].rule == CSIM_DIAG_TRANSFER_BOUND && t->primary);
		CHECK_I64(c, t->evidence_ns, 900);
		CHECK_I64(c, s->evidence_ns, 650);
		CHECK(c, !csim_diag_has(t, CSIM_DIAG_FIG_PATH_NS));
		CHECK(c, du_text_has(&m, t, ": MTE2 busy 90 % of the span, no compute pipe ran;"));
	}
	csim_model_release(&m);
}

/*
 * A near-empty trace whose one core is transfer-, scalar- and sync-bound
 * and ends in an open wait keeps near_empty (primary) and truncated only;
 * padded to 32 instructions, the same core gives the per-pipe lines.
 */
static void test_near_empty_suppresses(struct check_ctx *c)
{
	struct csim_model m;

	for (int padded = 0; padded <= 1; padded++) {
		csim_model_init(&m);
		mu_slice(&m, VA, "MTE2", 0, 1000, CSIM_SLICE_INSTR);
		mu_slice(&m, VA, "SCALAR", 0, 1000, CSIM_SLICE_INSTR);
		mu_slice(&m, VB, "VECTOR", 0, 100, CSIM_SLICE_INSTR);
		mu_flag(&m, CSIM_SYNC_WAIT, VA, "MTE3", 0, 1000, "open",
			mu_detail(&m, "VECTOR", "MTE3", 0));
		if (padded)
			du_pad(&m, VA, 0);
		du_run(&m);
		CHECK(c, du_line(&m, CSIM_DIAG_TRUNCATED) != NULL);
		if (!padded) {
			CHECK_U64(c, m.diagnosis.n, 2);
			CHECK(c, m.diagnosis.lines[0].rule == CSIM_DIAG_NEAR_EMPTY &&
				 m.diagnosis.lines[0].primary);
		} else {
			CHECK(c, du_line(&m, CSIM_DIAG_NEAR_EMPTY) == NULL);
			CHECK(c, du_line(&m, CSIM_DIAG_TRANSFER_BOUND) != NULL);
			CHECK(c, du_line(&m, CSIM_DIAG_SCALAR_BOUND) != NULL);
			CHECK(c, du_line(&m, CSIM_DIAG_SYNC_BOUND) != NULL);
			CHECK(c, du_line(&m, CSIM_DIAG_LOAD_IMBALANCE) != NULL);
		}
		csim_model_release(&m);
	}
}

/*
 * A cube core with CUBE = 0, MTE2 busy all its span, and a short vector
 * core: degenerate_no_cube alone (it holds on the cube core); with one
 * MMAD, transfer_bound and load_imbalance speak.
 */
static void test_no_cube_suppresses(struct check_ctx *c)
{
	struct csim_model m;

	for (int mmad = 0; mmad <= 1; mmad++) {
		csim_model_init(&m);
		mu_slice(&m, CA, "MTE2", 0, 1000, CSIM_SLICE_INSTR);
		if (mmad)
			mu_slice(&m, CA, "CUBE", 500, 501, CSIM_SLICE_INSTR);
		du_pad(&m, CA, 0);
		mu_slice(&m, VA, "VECTOR", 0, 100, CSIM_SLICE_INSTR);
		mu_slice(&m, VB, "VECTOR", 0, 100, CSIM_SLICE_INSTR);
		du_run(&m);
		if (!mmad) {
			CHECK_U64(c, m.diagnosis.n, 1);
			CHECK(c, du_line(&m, CSIM_DIAG_NO_CUBE) != NULL &&
				 du_line(&m, CSIM_DIAG_NO_CUBE)->primary);
			CHECK(c, du_at(&m, du_line(&m, CSIM_DIAG_NO_CUBE), CA) != NULL);
		} else {
			CHECK(c, du_line(&m, CSIM_DIAG_NO_CUBE) == NULL);
			CHECK(c, du_line(&m, CSIM_DIAG_TRANSFER_BOUND) != NULL);
			CHECK(c, du_line(&m, CSIM_DIAG_LOAD_IMBALANCE) != NULL);
		}
		csim_model_release(&m);
	}
}

/*
 * VECTOR waits 600 of 1000 ns on a transfer-bound MTE2: a consequence,
 * folded into the transfer line; waiting on MTE3 instead it is a cause of
 * its own. The same for a wait on a scalar-bound SCALAR and on a vector
 * family shaped wrong.
 */
static void test_consequence_folded(struct check_ctx *c)
{
	struct csim_model m;
	const struct csim_diag *d;

	for (int on_mte3 = 0; on_mte3 <= 1; on_mte3++) {
		csim_model_init(&m);
		load_core(&m, VA, 900, 100);
		mu_flag(&m, CSIM_SYNC_WAIT, VA, "VECTOR", 200, 800, "w",
			mu_detail(&m, on_mte3 ? "MTE3" : "MTE2", "VECTOR", 0));
		du_run(&m);
		d = du_line(&m, CSIM_DIAG_TRANSFER_BOUND);
		if (!CHECK(c, d != NULL)) {
			csim_model_release(&m);
			continue;
		}
		if (!on_mte3) {
			CHECK_U64(c, m.diagnosis.n, 1);
			CHECK_STR(c, mu_name(&m, (uint32_t)csim_diag_num(d, CSIM_DIAG_FIG_STARVED_PIPE)), "VECTOR");
			CHECK_I64(c, csim_diag_num(d, CSIM_DIAG_FIG_STARVED_WAIT_NS), 600);
			du_text(c, &m, d, "likely transfer-bound on core0.veccore0: MTE2 busy 90 % "
				"of the span, VECTOR 10 %, VECTOR waiting on it 60 % of the span; "
				"try double buffering");
		} else {
			CHECK(c, du_line(&m, CSIM_DIAG_SYNC_BOUND) != NULL);
			CHECK(c, !csim_diag_at_has(du_at(&m, d, VA), CSIM_DIAG_FIG_STARVED_PIPE));
		}
		csim_model_release(&m);
	}

	/* MTE3 waiting on a scalar-bound SCALAR. */
	csim_model_init(&m);
	mu_slice(&m, VA, "MTE2", 0, 1000, CSIM_SLICE_BAR);
	mu_slice(&m, VA, "SCALAR", 0, 700, CSIM_SLICE_INSTR);
	mu_slice(&m, VA, "MTE3", 900, 1000, CSIM_SLICE_INSTR);
	mu_flag(&m, CSIM_SYNC_WAIT, VA, "MTE3", 0, 550, "w", mu_detail(&m, "SCALAR", "MTE3", 0));
	du_pad(&m, VA, 0);
	du_run(&m);
	CHECK(c, du_line(&m, CSIM_DIAG_SYNC_BOUND) == NULL);
	d = du_line(&m, CSIM_DIAG_SCALAR_BOUND);
	if (CHECK(c, d != NULL))
		du_text(c, &m, d, "likely scalar-bound on core0.veccore0: SCALAR busy 70 % of "
			"the span, MTE3 waiting on it 55 % of the span; move address and loop "
			"arithmetic out of the inner loops (--keep-scalar shows the lane)");
	csim_model_release(&m);

	/* MTE3 waiting on RVECST while RVECEX is shaped wrong: one vector unit. */
	csim_model_init(&m);
	mu_slice(&m, VA, "MTE2", 0, 1000, CSIM_SLICE_BAR);
	mu_slice(&m, VA, "RVECEX", 0, 800, CSIM_SLICE_INSTR);
	mu_slice(&m, VA, "MTE3", 900, 1000, CSIM_SLICE_INSTR);
	mu_flag(&m, CSIM_SYNC_WAIT, VA, "MTE3", 0, 500, "w", mu_detail(&m, "RVECST", "MTE3", 0));
	du_pad(&m, VA, 0);
	du_run(&m);
	du_set_util(&m, VA, "RVECEX", 20, 100);
	du_rediagnose(&m);
	CHECK(c, du_line(&m, CSIM_DIAG_SYNC_BOUND) == NULL);
	d = du_line(&m, CSIM_DIAG_VECTOR_SHAPE);
	if (CHECK(c, d != NULL))
		CHECK_I64(c, csim_diag_num(d, CSIM_DIAG_FIG_STARVED_WAIT_NS), 500);
	csim_model_release(&m);
}

/* A core whose `blocked` pipe waits [0, 600) on VECTOR's SET_FLAG. */
static void blocked_core(struct csim_model *m, const char *pid, const char *blocked)
{
	mu_slice(m, pid, "MTE2", 0, 1000, CSIM_SLICE_BAR);
	mu_slice(m, pid, "VECTOR", 600, 700, CSIM_SLICE_INSTR);
	mu_flag(m, CSIM_SYNC_WAIT, pid, blocked, 0, 600, "w", mu_detail(m, "VECTOR", blocked, 0));
	du_pad(m, pid, 0);
}

/*
 * SCALAR (or SCALARLDST) blocked on VECTOR: a read of the result inside the
 * loop, so hoist or batch it, not double buffering; MTE3 keeps the
 * producer advice; both kinds in one line say both.
 */
static void test_scalar_advice(struct check_ctx *c)
{
	struct csim_model m;
	const struct csim_diag *d;

	csim_model_init(&m);
	blocked_core(&m, VA, "SCALAR");
	blocked_core(&m, VB, "SCALARLDST");
	du_run(&m);
	d = du_line(&m, CSIM_DIAG_SYNC_BOUND);
	if (CHECK(c, d != NULL))
		du_text(c, &m, d, "likely sync-bound on 2 of 2 vector cores: SCALAR/SCALARLDST "
			"blocked in WAIT_FLAG 600 ns, 60 % of the 1000 ns span, most on VECTOR "
			"(60 %): likely a scalar read of its result inside the loop (GetValue, a "
			"read-back); hoist the read out of the loop or batch it (no pipe runs "
			"ahead while the scalar unit waits, so double buffering does not help)");
	csim_model_release(&m);

	csim_model_init(&m);
	blocked_core(&m, VA, "MTE3");
	du_run(&m);
	d = du_line(&m, CSIM_DIAG_SYNC_BOUND);
	if (CHECK(c, d != NULL))
		CHECK(c, du_text_has(&m, d, "(60 %); see what VECTOR does before its SET_FLAG: "
				     "double buffering lets it run ahead"));
	csim_model_release(&m);

	csim_model_init(&m);
	blocked_core(&m, VA, "SCALAR");
	blocked_core(&m, VB, "MTE3");
	du_run(&m);
	d = du_line(&m, CSIM_DIAG_SYNC_BOUND);
	if (CHECK(c, d != NULL))
		CHECK(c, du_text_has(&m, d, "SCALAR/MTE3 blocked") &&
			 du_text_has(&m, d, "; where the scalar unit waits, hoist the read of the "
				     "result out of the loop or batch it; elsewhere see what the "
				     "producer does before its SET_FLAG"));
	csim_model_release(&m);
}

/*
 * VA waits across cores [200, 200 + w) for CA's FIXP (SET at 100, after
 * its FIXP slice [0, 100)); the wait ends at the MTE2 slice it releases.
 * w = 500 of VA's 1000 ns fires and names CA's FIXP; 499 does not.
 */
static void cross_pair(struct csim_model *m, const char *cube, const char *vec,
		       int64_t w, const char *id)
{
	mu_slice(m, cube, "FIXP", 0, 100, CSIM_SLICE_INSTR);
	mu_slice(m, cube, "CUBE", 0, 100, CSIM_SLICE_INSTR);
	mu_intra(m, CSIM_SYNC_SET, cube, "FIXP", 100, 101, id, CSIM_NONE);
	mu_slice(m, vec, "VECTOR", 0, 1000, CSIM_SLICE_BAR);
	mu_intra(m, CSIM_SYNC_WAIT, vec, "MTE2", 200, 200 + w, id, CSIM_NONE);
	mu_slice(m, vec, "MTE2", 200 + w, 250 + w, CSIM_SLICE_INSTR);
	du_pad(m, vec, 0);
}

static void test_cross_core(struct check_ctx *c)
{
	struct csim_model m;
	const struct csim_diag *d;

	for (int64_t w = 499; w <= 500; w++) {
		csim_model_init(&m);
		cross_pair(&m, CA, VA, w, "intra_0");
		du_run(&m);
		d = du_line(&m, CSIM_DIAG_CROSS_CORE);
		if (w == 499) {
			CHECK(c, d == NULL);
		} else if (CHECK(c, d != NULL)) {
			CHECK_STR(c, csim_diag_id(d->rule), "cross_core_wait");
			CHECK_STR(c, du_core(&m, d), VA);
			CHECK_I64(c, csim_diag_num(d, CSIM_DIAG_FIG_CROSS_CORE_WAIT_NS), 500);
			CHECK_STR(c, m.table.pid_names[csim_diag_num(d, CSIM_DIAG_FIG_PARTNER_CORE)], CA);
			CHECK_STR(c, mu_name(&m, (uint32_t)csim_diag_num(d, CSIM_DIAG_FIG_PARTNER_PIPE)), "FIXP");
			CHECK_I64(c, csim_diag_num(d, CSIM_DIAG_FIG_PARTNER_WAITS), 1);
			CHECK_I64(c, csim_diag_num(d, CSIM_DIAG_FIG_WAITS), 1);
			du_text(c, &m, d, "likely waiting across cores on core0.veccore0: in "
				"cross-core WAIT 500 ns, 50 % of the 1000 ns span, most set by FIXP "
				"of core0.cubecore0; the other side of the hand-over is the longer "
				"stage: see what it does before its SET, then balance the work "
				"between the cores or give the hand-over more buffers so that it "
				"runs ahead");
		}
		csim_model_release(&m);
	}

	/* Two vector cores, each waiting on its own cube core's FIXP. */
	csim_model_init(&m);
	cross_pair(&m, CA, VA, 600, "intra_0");
	cross_pair(&m, CB, VB, 700, "intra_1");
	du_run(&m);
	d = du_line(&m, CSIM_DIAG_CROSS_CORE);
	if (CHECK(c, d != NULL)) {
		CHECK_STR(c, du_core(&m, d), VB);
		CHECK(c, du_text_has(&m, d, "on 2 of 2 vector cores: in cross-core WAIT "
				     "600-700 ns, 60-70 % of the 1000 ns span, most set by "
				     "FIXP of 2 cube cores;"));
	}
	csim_model_release(&m);

	/* Older producers' WAIT_INTRA_BLOCK slices on FLOWCTRL name no partner. */
	csim_model_init(&m);
	mu_slice(&m, VA, "VECTOR", 0, 1000, CSIM_SLICE_BAR);
	mu_slice(&m, VA, "FLOWCTRL", 100, 700, CSIM_SLICE_INTRA_WAIT);
	mu_slice(&m, VA, "MTE2", 700, 900, CSIM_SLICE_INSTR);
	du_pad(&m, VA, 0);
	du_run(&m);
	d = du_line(&m, CSIM_DIAG_CROSS_CORE);
	if (CHECK(c, d != NULL)) {
		CHECK_U64(c, (uint64_t)csim_diag_num(d, CSIM_DIAG_FIG_PARTNER_CORE), CSIM_NONE);
		CHECK(c, du_text_has(&m, d, "most set by another core (the trace names no partner);"));
	}
	csim_model_release(&m);
}

/* 24 vector cores, each transfer-bound and starving VECTOR: one line, 24 cores. */
static void test_many_cores(struct check_ctx *c)
{
	struct csim_model m;
	char pid[32];
	const struct csim_diag *d;

	csim_model_init(&m);
	for (int k = 0; k < 24; k++) {
		snprintf(pid, sizeof(pid), "core%d.veccore%d", k / 2, k % 2);
		load_core(&m, pid, 880 + k % 6, 100);
		mu_flag(&m, CSIM_SYNC_WAIT, pid, "VECTOR", 100, 700, "w",
			mu_detail(&m, "MTE2", "VECTOR", 0));
	}
	du_run(&m);
	CHECK_U64(c, m.diagnosis.n, 1);
	d = du_line(&m, CSIM_DIAG_TRANSFER_BOUND);
	if (CHECK(c, d != NULL)) {
		CHECK_U64(c, d->nat, 24);
		du_text(c, &m, d, "likely transfer-bound on 24 of 24 vector cores: MTE2 busy "
			"88-89 % of the span, VECTOR 10 %, VECTOR waiting on it 60 % of the "
			"span; try double buffering");
	}
	csim_model_release(&m);
}

/*
 * With API_INSTR naming the cube cores, CUBE = 0 is judged on its CUBE
 * Cycles: a cube core with an MMAD slice but 0 CUBE cycles fires (with
 * "cube_cycles":0), 1 cycle does not; API_INSTR naming only the vector
 * core leaves the judgement to the slices (an MMAD slice: silent).
 */
static void test_no_cube_by_cycles(struct check_ctx *c)
{
	struct csim_model m;
	const struct csim_diag *d;

	for (uint64_t cycles = 0; cycles <= 1; cycles++) {
		csim_model_init(&m);
		mu_slice(&m, CA, "MTE2", 0, 100, CSIM_SLICE_INSTR);
		mu_slice(&m, CA, "CUBE", 100, 200, CSIM_SLICE_INSTR);
		du_pad(&m, CA, 0);
		du_run(&m);
		CHECK(c, du_line(&m, CSIM_DIAG_NO_CUBE) == NULL);   /* the slice: CUBE ran */
		m.instr.loaded = 1;
		du_set_util(&m, CA, "MTE2", -1, 500);
		if (cycles > 0)
			du_set_util(&m, CA, "CUBE", -1, cycles);
		du_rediagnose(&m);
		d = du_line(&m, CSIM_DIAG_NO_CUBE);
		if (cycles == 1) {
			CHECK(c, d == NULL);
		} else if (CHECK(c, d != NULL)) {
			CHECK_I64(c, csim_diag_num(d, CSIM_DIAG_FIG_CUBE_INSTRUCTIONS), 1);
			CHECK(c, d->nnums == 4 && d->nums[3].fig == CSIM_DIAG_FIG_CUBE_CYCLES &&
				 d->nums[3].v == 0);
			du_text(c, &m, d, "likely a degenerate trace: a matmul kernel with "
				   "CUBE = 0 (1 cube core ran 34 pipeline instructions, 0 CUBE "
				   "cycles in API_INSTR); a matmul that did no matmul is a "
				   "profiling artifact, not a free matmul: check the inputs and "
				   "shapes the simulator ran with");
		}
		csim_model_release(&m);
	}

	csim_model_init(&m);
	mu_slice(&m, CA, "MTE2", 0, 100, CSIM_SLICE_INSTR);
	mu_slice(&m, CA, "CUBE", 100, 200, CSIM_SLICE_INSTR);
	mu_slice(&m, VA, "VECTOR", 0, 100, CSIM_SLICE_INSTR);
	du_pad(&m, CA, 0);
	du_run(&m);
	m.instr.loaded = 1;
	du_set_util(&m, VA, "VECTOR", 50, 500);
	du_rediagnose(&m);
	CHECK(c, du_line(&m, CSIM_DIAG_NO_CUBE) == NULL);
	csim_model_release(&m);
}

/* A figure left out of the name table would be written as "unknown" or twice under one key. */
static void test_fig_names(struct check_ctx *c)
{
	for (int i = 0; i < CSIM_DIAG_FIG_COUNT; i++) {
		const char *name = csim_diag_fig_name((enum csim_diag_fig)i);

		if (!CHECK(c, strcmp(name, "unknown") != 0))
			fprintf(stderr, "    figure %d has no name\n", i);
		for (int j = 0; j < i; j++)
			if (!CHECK(c, strcmp(name, csim_diag_fig_name((enum csim_diag_fig)j)) != 0))
				fprintf(stderr, "    figures %d and %d are both %s\n", j, i, name);
	}
	CHECK_STR(c, csim_diag_fig_name(CSIM_DIAG_FIG_SPAN_NS), "span_ns");
	CHECK_STR(c, csim_diag_fig_name(CSIM_DIAG_FIG_COUNT), "unknown");
}

int main(void)
{
	struct check_ctx c = { 0, 0, NULL };

	CHECK_RUN(&c, test_one_line_per_rule);
	CHECK_RUN(&c, test_kinds_and_pipes);
	CHECK_RUN(&c, test_ranking);
	CHECK_RUN(&c, test_path_ranking);
	CHECK_RUN(&c, test_near_empty_suppresses);
	CHECK_RUN(&c, test_no_cube_suppresses);
	CHECK_RUN(&c, test_no_cube_by_cycles);
	CHECK_RUN(&c, test_consequence_folded);
	CHECK_RUN(&c, test_scalar_advice);
	CHECK_RUN(&c, test_cross_core);
	CHECK_RUN(&c, test_many_cores);
	CHECK_RUN(&c, test_fig_names);
	return check_done(&c);
}
