/*
 * Summary table (SPEC §10, docs/summary.md "The table"): the lines printed
 * for hand-built models, every line within 80 columns even with names and
 * numbers far wider than a real kernel's, the condensed form past
 * CSIM_TABLE_FULL_CORES cores, depth and rows, the overlap line, the lists
 * from API_INSTR and source paths that keep their end.
 */
#include "check.h"
#include "modelutil.h"

#include "read/basic_info.h"
#include "write/summary_table.h"

#define CA "core0.cubecore0"
#define VA "core0.veccore0"

/*
 * The table of m, run 1 of 1, as a malloc'd string; no OP_BASIC_INFO unless
 * bi, which the model then owns (as the reading gives it).
 */
static char *table_of(struct check_ctx *c, struct csim_model *m, struct csim_basic_info *bi)
{
	struct csim_summary_table table;
	struct csim_error err;
	FILE *f = tmpfile();
	char *text;
	long n;

	csim_error_clear(&err);
	m->run.run = m->run.choice.runs = 1;
	if (bi != NULL) {
		m->run.basic = *bi;
		csim_basic_info_init(bi);
	}
	if (mu_run(m) != 0 || f == NULL)
		abort();
	CHECK_I64(c, csim_summary_table_prepare(&table, m, &err), CSIM_OK);
	csim_summary_table_print(&table, f);
	csim_summary_table_release(&table);
	CHECK(c, !ferror(f));
	n = ftell(f);
	text = calloc((size_t)n + 1, 1);
	rewind(f);
	if (text == NULL || fread(text, 1, (size_t)n, f) != (size_t)n)
		abort();
	fclose(f);
	return text;
}

/* Columns of each line (one per UTF-8 character): all within 80. */
static void check_width(struct check_ctx *c, const char *text)
{
	size_t cols = 0, widest = 0;

	for (const char *p = text; *p; p++) {
		if (*p == '\n') {
			cols = 0;
			continue;
		}
		if (((unsigned char)*p & 0xC0) != 0x80 && ++cols > widest)
			widest = cols;
	}
	if (!CHECK(c, widest <= CSIM_TABLE_WIDTH))
		fprintf(stderr, "widest line: %zu columns in\n%s", widest, text);
}

/*
 * One cube core [0,1000) ns: MTE2 [0,600) and [300,900) (union 900: 90.0 %,
 * depth 2), CUBE [900,1000) 10.0 %, MTE1 waiting on MTE2 [100,400) and
 * [200,300) (union 300, the top producer) and on FIXP [500,550): 350 in
 * all; SCALAR [0,3) dropped.
 * A vector core [0,4000): VECTOR [0,1000) 25.0 %. Balance: min 1.000,
 * median 1.000 (lower median), max 4.000 us, 4.0x.
 */
static void test_small(struct check_ctx *c)
{
	struct csim_model m;
	char *t;

	csim_model_init(&m);
	mu_slice(&m, CA, "MTE2", 0, 600, CSIM_SLICE_INSTR);
	mu_slice(&m, CA, "MTE2", 300, 900, CSIM_SLICE_INSTR);
	mu_slice(&m, CA, "CUBE", 900, 1000, CSIM_SLICE_INSTR);
	mu_slice(&m, CA, "SCALAR", 0, 3, CSIM_SLICE_INSTR);
	mu_keep(&m, 3, 0);
	mu_flag(&m, CSIM_SYNC_WAIT, CA, "MTE1", 100, 400, "w1", mu_detail(&m, "MTE2", "MTE1", 0));
	mu_flag(&m, CSIM_SYNC_WAIT, CA, "MTE1", 200, 300, "w2", mu_detail(&m, "MTE2", "MTE1", 1));
	mu_flag(&m, CSIM_SYNC_WAIT, CA, "MTE1", 500, 550, "w3", mu_detail(&m, "FIXP", "MTE1", 0));
	mu_slice(&m, VA, "VECTOR", 0, 1000, CSIM_SLICE_INSTR);
	mu_slice(&m, VA, "MTE3", 3999, 4000, CSIM_SLICE_INSTR);
	t = table_of(c, &m, NULL);
	CHECK_CONTAINS(c, t, "\nsummary: (no OP_BASIC_INFO) (run 1 of 1)\n"
			     "clock unknown: no OP_BASIC_INFO, no API_INSTR cycles to derive it from\n\n"
			     "core core0.cubecore0: span 1.000 us\n"
			     "  pipe           instr     busy us  busy% depth  blocked us  top producer\n"
			     "  MTE2               2       0.900   90.0     2       0.000\n"
			     "  MTE1               0       0.000    0.0     0       0.350  MTE2\n"
			     "  CUBE               1       0.100   10.0     1       0.000\n"
			     "  SCALAR             1       0.003    0.3     1       0.000             dropped\n");
	CHECK_CONTAINS(c, t, "core core0.veccore0: span 4.000 us\n");
	CHECK_CONTAINS(c, t, "  VECTOR             1       1.000   25.0     1       0.000\n");
	CHECK_CONTAINS(c, t, "\nload balance over 2 cores: span min 1.000, median 1.000, max 4.000 us\n"
			     "slowest core: core0.veccore0 (4.000 us, 4.0x the median)\n");
	check_width(c, t);
	free(t);
	csim_model_release(&m);
}

/*
 * Names and numbers beyond any real kernel: a 100-character core name, a
 * 40-character pipe name with a newline in it, a 3-hour span, an
 * OP_BASIC_INFO with a 200-character op name and a long SoC, a UTF-8
 * core name (one column per character). Every line
 * stays within 80 columns and no name breaks a line.
 */
static void test_wide(struct check_ctx *c)
{
	struct csim_model m;
	struct csim_basic_info bi;
	struct csim_error err;
	char core[101], op[256];
	char *payload, *t;
	const char *pipe = "A_VERY_LONG_PIPE_NAME_FROM_SOME_PRODUCER\nX";

	memset(core, 'c', 100);
	core[100] = '\0';
	memset(op, 'o', 200);
	op[200] = '\0';
	csim_model_init(&m);
	mu_slice(&m, core, pipe, 0, 10800000000000LL, CSIM_SLICE_INSTR);
	mu_slice(&m, "\xc3\xa9t\xc3\xa9", "VECTOR", 0, 5, CSIM_SLICE_INSTR);
	mu_slice(&m, "\xc3\xa9t\xc3\xa9", "A\nB", 0, 5, CSIM_SLICE_INSTR);
	/* enough instructions that the trace is not near-empty, which would
	   leave the diagnosis to that one line */
	for (int i = 0; i < 32; i++)
		mu_slice(&m, "\xc3\xa9t\xc3\xa9", "VECTOR", 0, 0, CSIM_SLICE_INSTR);
	payload = malloc(512);
	if (payload == NULL)
		abort();
	snprintf(payload, 512, "{\"name\":\"%s\",\"soc\":\"Ascend910B4_with_a_rather_long_suffix_name\",\"cur_freq\":\"1800\"}", op);
	csim_basic_info_init(&bi);
	csim_error_clear(&err);
	if (csim_basic_info_load(&bi, "x.bin", 0, payload, strlen(payload), &err) != CSIM_OK)
		abort();
	t = table_of(c, &m, &bi);
	check_width(c, t);
	CHECK_CONTAINS(c, t, "clock 1800 MHz (cur_freq)\n");
	CHECK_CONTAINS(c, t, "  A_VERY_LON~ ");
	CHECK_CONTAINS(c, t, "span 10800000000.000 us (19440000000000 cycles)\n");
	CHECK_CONTAINS(c, t, "core \xc3\xa9t\xc3\xa9: span 0.005 us (9 cycles)\n");
	CHECK_CONTAINS(c, t, "  A?B ");
	CHECK(c, strstr(t, "\nX") == NULL && strstr(t, "\nB") == NULL);
	/* the primary diagnosis names the 100-character core cut to 64 bytes
	   and wraps its text within the width (check_width above) */
	memset(core, 'c', 64);
	core[64] = '\0';
	snprintf(op, sizeof(op), "\n- primary: likely load imbalance on\n  %s: span\n", core);
	CHECK_CONTAINS(c, t, op);
	free(t);
	csim_basic_info_release(&bi);
	csim_model_release(&m);
}

/*
 * Ten cores (past CSIM_TABLE_FULL_CORES): core k has VECTOR [0, 100(k+1)),
 * core 4 also MTE2 [0,50), core 7 also SCALAR [0,1) dropped. Slowest core9
 * (1.000 us), lower median element 4 of the sorted spans: core4 (0.500),
 * fastest core0 (0.100). Totals: VECTOR on 10 cores, 10 instructions,
 * 5.500 us; MTE2 on 1, SCALAR on 1 (dropped).
 */
static void test_condensed(struct check_ctx *c)
{
	struct csim_model m;
	char name[32], *t;

	csim_model_init(&m);
	for (int k = 0; k < 10; k++) {
		snprintf(name, sizeof(name), "core%d.veccore0", k);
		mu_slice(&m, name, "VECTOR", 0, 100 * (k + 1), CSIM_SLICE_INSTR);
		if (k == 4)
			mu_slice(&m, name, "MTE2", 0, 50, CSIM_SLICE_INSTR);
		if (k == 7)
			mu_keep(&m, mu_slice(&m, name, "SCALAR", 0, 1, CSIM_SLICE_INSTR), 0);
	}
	t = table_of(c, &m, NULL);
	check_width(c, t);
	CHECK_CONTAINS(c, t, "\nslowest core core9.veccore0: span 1.000 us\n");
	CHECK_CONTAINS(c, t, "\nmedian core core4.veccore0: span 0.500 us\n");
	CHECK_CONTAINS(c, t, "  MTE2               1       0.050   10.0     1       0.000\n");
	CHECK_CONTAINS(c, t, "\nfastest core core0.veccore0: span 0.100 us\n");
	CHECK(c, strstr(t, "core1.veccore0") == NULL);
	CHECK(c, strstr(t, "core7.veccore0") == NULL);
	CHECK_CONTAINS(c, t, "\nall 10 cores, per pipe (busy and blocked time summed over cores):\n"
			     "  pipe        cores      instr       busy us    blocked us\n"
			     "  MTE2            1          1         0.050         0.000\n"
			     "  VECTOR         10         10         5.500         0.000\n"
			     "  SCALAR          1          1         0.001         0.000  dropped\n");
	CHECK_CONTAINS(c, t, "slowest core: core9.veccore0 (1.000 us, 2.0x the median)\n");
	free(t);
	csim_model_release(&m);
}

/* Equal spans: one core is slowest, median and fastest, printed once. */
static void test_condensed_ties(struct check_ctx *c)
{
	struct csim_model m;
	char name[32], *t;

	csim_model_init(&m);
	for (int k = 0; k < 9; k++) {
		snprintf(name, sizeof(name), "core%d.veccore0", k);
		mu_slice(&m, name, "VECTOR", 0, 100, CSIM_SLICE_INSTR);
	}
	t = table_of(c, &m, NULL);
	CHECK_CONTAINS(c, t, "\nslowest, median, fastest core core0.veccore0: span 0.100 us\n");
	CHECK(c, strstr(t, "core1.veccore0") == NULL);
	free(t);
	csim_model_release(&m);
}

/*
 * Depth and rows (SPEC §4) and the overlap line. One core [0,1000): MTE2
 * [0,600) [300,900) (2 in flight, 2 rows), CUBE [500,1000) and FIXP
 * strictly serial, a = 0.51, b = 10.01 (grid [1,11)) then [10.2, 20.2)
 * (grid [10,20)): 1 in flight, 2 rows for Perfetto's 1 ns overlap, so
 * "1/2"; busy [1,20) = 19 ns. MTE2 runs with compute during [1,20) (FIXP)
 * and [500,900) (CUBE): 419 of its 900 ns, 46.6 %.
 */
static void test_depth_rows_overlap(struct check_ctx *c)
{
	struct csim_model m;
	char *t;

	csim_model_init(&m);
	mu_slice(&m, CA, "MTE2", 0, 600, CSIM_SLICE_INSTR);
	mu_slice(&m, CA, "MTE2", 300, 900, CSIM_SLICE_INSTR);
	mu_slice(&m, CA, "CUBE", 500, 1000, CSIM_SLICE_INSTR);
	mu_slice_us(&m, CA, "FIXP", 0.00051, 0.0095, CSIM_SLICE_INSTR);
	mu_slice_us(&m, CA, "FIXP", 0.0102, 0.010, CSIM_SLICE_INSTR);
	t = table_of(c, &m, NULL);
	CHECK_CONTAINS(c, t, "  pipe           instr     busy us  busy% depth  blocked us  top producer\n"
			     "  MTE2               2       0.900   90.0     2       0.000\n"
			     "  CUBE               1       0.500   50.0     1       0.000\n"
			     "  FIXP               2       0.019    1.9   1/2       0.000\n"
			     "  overlap with compute: MTE2 46.6 %\n");
	check_width(c, t);
	free(t);
	csim_model_release(&m);
}

/* A long source path keeps its end (SPEC §10), in every shape. */
static void test_fit_tail(struct check_ctx *c)
{
	static const struct { const char *path; size_t width; const char *want; } cases[] = {
		/* fits: whole */
		{ "mm_kernel.cpp:91", 27, "mm_kernel.cpp:91" },
		/* the longest tail from a separator that fits after the "…" */
		{ "/home/dev/workspace/ops/MatmulCustom/op_kernel/mm_kernel.cpp:91", 27,
		  "\xE2\x80\xA6/mm_kernel.cpp:91" },
		{ "/home/dev/workspace/ops/MatmulCustom/op_kernel/mm_kernel.cpp:91", 53,
		  "\xE2\x80\xA6/ops/MatmulCustom/op_kernel/mm_kernel.cpp:91" },
		{ "C:\\ops\\kernels\\mm_kernel.cpp:91", 20, "\xE2\x80\xA6\\mm_kernel.cpp:91" },
		/* the file name and line fit only without the separator, or only alone */
		{ "/ops/abcdefghijklmnopqrstuv.c:1", 27, "\xE2\x80\xA6" "abcdefghijklmnopqrstuv.c:1" },
		{ "/ops/abcdefghijklmnopqrstuvw.c:1", 27, "abcdefghijklmnopqrstuvw.c:1" },
		/* not even the file name fits: its end */
		{ "a_file_name_far_too_long_for_its_column.cpp:1234", 20,
		  "\xE2\x80\xA6" "its_column.cpp:1234" },
		{ "/ops/abcdefghijklmnopqrstuvw.c:1", 26, "\xE2\x80\xA6" "cdefghijklmnopqrstuvw.c:1" },
		/* UTF-8 counts one column per character, control bytes print as ? */
		{ "/d/\xC3\xA9t\xC3\xA9\n.cpp:7", 13, "/d/\xC3\xA9t\xC3\xA9?.cpp:7" },
		{ "/d/\xC3\xA9t\xC3\xA9\n.cpp:7", 12, "\xE2\x80\xA6/\xC3\xA9t\xC3\xA9?.cpp:7" },
		{ "/dir/\xC3\xA9t\xC3\xA9.cpp:7", 12, "\xE2\x80\xA6/\xC3\xA9t\xC3\xA9.cpp:7" },
	};

	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		char dst[CSIM_TEXT_CELL];
		size_t cols = csim_text_fit_tail(dst, cases[i].path, strlen(cases[i].path),
						 cases[i].width);

		CHECK_STR(c, dst, cases[i].want);
		CHECK(c, cols <= cases[i].width);
	}
}

/* Where a cut line breaks a pattern: between characters, never inside one. */
static void test_text_break(struct check_ctx *c)
{
	static const char utf[] = "a\xC3\xA9\xE2\x80\xA6" "b";   /* a é … b: 4 columns, 7 bytes */

	CHECK_U64(c, csim_text_columns(utf, strlen(utf)), 4);
	CHECK_U64(c, csim_text_fit_bytes(utf, strlen(utf), 0), 0);
	CHECK_U64(c, csim_text_fit_bytes(utf, strlen(utf), 1), 1);
	CHECK_U64(c, csim_text_fit_bytes(utf, strlen(utf), 2), 3);
	CHECK_U64(c, csim_text_fit_bytes(utf, strlen(utf), 3), 6);
	CHECK_U64(c, csim_text_fit_bytes(utf, strlen(utf), 4), 7);
	CHECK_U64(c, csim_text_fit_bytes(utf, strlen(utf), 80), 7);
	CHECK_U64(c, csim_text_columns("x\ny", 3), 3);   /* a control byte is one column ('?') */
}

static uint32_t text_id(struct csim_model *m, const char *v)
{
	uint32_t id;

	if (csim_strtab_intern(&m->instr.text, v, strlen(v), &id) != 0)
		abort();
	return id;
}

/*
 * The lists from API_INSTR: one MTE2 row of 993 cycles at a long path
 * (93.9 % of 1057), printed with the end of its path in the 27 columns
 * left, and the same line first among the source lines (1 address).
 */
static void test_top_lists(struct check_ctx *c)
{
	const char *path = "/home/dev/workspace/ops/MatmulCustom/op_kernel/mm_kernel.cpp:91";
	struct csim_model m;
	struct csim_instr_stats *st = &m.instr;
	char *t;

	csim_model_init(&m);
	mu_slice(&m, CA, "MTE2", 0, 100, CSIM_SLICE_INSTR);
	st->loaded = 1;
	st->top[0] = (struct csim_instr_top){ text_id(&m, "0x1230"), text_id(&m, "MTE2"),
					      text_id(&m, "MOV_OUT_TO_L1_MULTI_ND2NZ"),
					      text_id(&m, path), 993, 4, 1, 0 };
	st->ntop = 1;
	st->total_cycles = 1057;
	st->rows = malloc(2 * sizeof(*st->rows));
	if (st->rows == NULL)
		abort();
	st->rows[0] = (struct csim_instr_row_sum){ .addr = 0x1230, .cycles = 993, .executed = 4, .source = text_id(&m, path), .has_addr = 1 };
	st->rows[1] = (struct csim_instr_row_sum){ .addr = 0x1234, .cycles = 64, .executed = 1, .source = text_id(&m, "k.cpp:3"), .has_addr = 1 };
	st->nrows = st->rows_cap = 2;
	t = table_of(c, &m, NULL);
	CHECK_CONTAINS(c, t, "\ntop instructions by cycles (1 in summary.json):\n"
			     "      cycles share%  pipe     instruction            source line\n"
			     "         993   93.9  MTE2     MOV_OUT_TO_L1_MULTI_N~ \xE2\x80\xA6/mm_kernel.cpp:91\n");
	CHECK_CONTAINS(c, t, "\ntop source lines by cycles (2 in summary.json):\n"
			     "      cycles share% addrs  source line\n"
			     "         993   93.9     1  \xE2\x80\xA6/ops/MatmulCustom/op_kernel/mm_kernel.cpp:91\n"
			     "          64    6.1     1  k.cpp:3\n");
	check_width(c, t);
	free(t);
	csim_model_release(&m);
}

/* A model without a core says so; one core has no balance lines. */
static void test_empty_and_one(struct check_ctx *c)
{
	struct csim_model m;
	char *t;

	csim_model_init(&m);
	t = table_of(c, &m, NULL);
	CHECK_CONTAINS(c, t, "\nno core: the trace holds no instruction slice\n");
	free(t);
	csim_model_release(&m);
	csim_model_init(&m);
	mu_slice(&m, CA, "CUBE", 0, 10, CSIM_SLICE_INSTR);
	t = table_of(c, &m, NULL);
	CHECK(c, strstr(t, "load balance") == NULL);
	free(t);
	csim_model_release(&m);
}

/*
 * The diagnosis in rank order, the primary marked, ranked by the critical
 * path: transfer_bound on VB (its path: MTE2 [0, 700], then issue to the
 * span's end at 1000: MTE2 holds 700) before sync_bound on VA (WAIT_FLAG
 * 800 of 1000 ns, but its path is issue [0, 900] and MTE3 [900, 1000]:
 * no WAIT releases MTE3, so its flag waits hold 0 ns of the path), though
 * on busy and wait times alone sync_bound (800) would come first; a number
 * keeps its unit on its line ("800 ns,"). 32 zero-length FIXP instructions
 * keep near_empty silent.
 */
static void test_diagnosis_rank(struct check_ctx *c)
{
	struct csim_model m;
	char *t;

	csim_model_init(&m);
	mu_slice(&m, VA, "MTE3", 0, 1000, CSIM_SLICE_BAR);
	mu_slice(&m, VA, "MTE3", 900, 1000, CSIM_SLICE_INSTR);
	mu_flag(&m, CSIM_SYNC_WAIT, VA, "MTE3", 100, 900, "w", mu_detail(&m, "VECTOR", "MTE3", 0));
	mu_slice(&m, "core1.veccore0", "MTE3", 0, 1000, CSIM_SLICE_BAR);
	mu_slice(&m, "core1.veccore0", "MTE2", 0, 700, CSIM_SLICE_INSTR);
	for (int i = 0; i < 32; i++)
		mu_slice(&m, VA, "FIXP", 0, 0, CSIM_SLICE_INSTR);
	t = table_of(c, &m, NULL);
	check_width(c, t);
	CHECK_CONTAINS(c, t, "\ndiagnosis (thresholds in docs/summary.md):\n"
			     "- primary: likely transfer-bound on core1.veccore0: MTE2 holds 70 % of the\n"
			     "  critical path, busy 70 % of the span, no compute pipe ran; try double\n"
			     "  buffering\n"
			     "- likely sync-bound on core0.veccore0: MTE3 blocked in WAIT_FLAG 800 ns, 80 % of\n"
			     "  the 1000 ns span, most on VECTOR (80 %), its flag waits 0 % of the critical\n"
			     "  path; see what VECTOR does before its SET_FLAG: double buffering lets it run\n"
			     "  ahead\n");
	free(t);
	csim_model_release(&m);
}

int main(void)
{
	struct check_ctx c = { 0, 0, NULL };

	CHECK_RUN(&c, test_small);
	CHECK_RUN(&c, test_wide);
	CHECK_RUN(&c, test_condensed);
	CHECK_RUN(&c, test_condensed_ties);
	CHECK_RUN(&c, test_empty_and_one);
	CHECK_RUN(&c, test_depth_rows_overlap);
	CHECK_RUN(&c, test_fit_tail);
	CHECK_RUN(&c, test_text_break);
	CHECK_RUN(&c, test_top_lists);
	CHECK_RUN(&c, test_diagnosis_rank);
	return check_done(&c);
}
