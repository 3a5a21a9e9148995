/*
 * summary.html (docs/summary.md, "summary.html") of hand-built models: the
 * pipe rows with and without API_INSTR numbers, the WAIT-stall matrix
 * cells, the timeline's shades and coordinates, escaping of input names,
 * and the same bytes on a second writing. Structure over real dumps is
 * checked by tests/cli/t_summary_html.sh.
 */
#include "check.h"
#include "modelutil.h"
#include "testutil.h"

#include "write/out_file.h"
#include "write/summary_html.h"

#define CA "core0.cubecore0"

/* The page of m (run 1 of 1, no OP_BASIC_INFO) as a malloc'd string. */
static char *page_of(struct check_ctx *c, struct csim_model *m)
{
	const struct csim_model *runs[1] = { m };
	const struct csim_view_input in = { "sim/visualize_data.bin", 100, 0 };
	struct csim_out o;
	struct csim_error err;
	char dir[64], path[128];
	char *text = NULL;
	size_t n;

	m->run.run = m->run.choice.runs = 1;
	csim_error_clear(&err);
	if (tdir_make(dir, sizeof(dir)) != 0)
		abort();
	if (CHECK_I64(c, csim_out_open(&o, dir, "summary.html", &err), CSIM_OK)) {
		CHECK_I64(c, csim_summary_html_write(runs, 1, &in, &o, &err), CSIM_OK);
		CHECK_I64(c, csim_out_commit(&o, &err), CSIM_OK);
		text = tfile_read(tpath(path, sizeof(path), dir, "summary.html"), &n);
	}
	csim_out_abort(&o);
	tdir_remove(dir);
	if (text == NULL)
		abort();
	return text;
}

static struct csim_summary_pipe *pipe_of(struct csim_model *m, const char *name)
{
	for (size_t i = 0; i < m->summary.npipes; i++)
		if (strcmp(mu_name(m, m->summary.pipes[i].pipe), name) == 0)
			return &m->summary.pipes[i];
	abort();
}

/*
 * One cube core [0,1000) ns: MTE2 [0,600) and [300,900) (union 900, 90.0 %,
 * depth 2), CUBE [900,1000); MTE1 waiting on MTE2 [100,400) (300 ns, 30.0 %
 * of the span) and on FIXP [500,550) (50 ns, 5.0 %). API_INSTR numbers set
 * by hand on MTE2 (1234 cycles, utilization 50 % over 100 cycles and 30 %
 * over 300: (5000 + 9000) / 400 = 35.00 %, 4096 bytes over 900 busy ns:
 * 4.551 GB/s, as summary.json prints both); CUBE has none. MTE2 and CUBE
 * are 2 and 1 deep on as many rows; MTE2 never runs with CUBE (they only
 * touch): overlap 0.0 %, and CUBE, no MTE pipe, has none. SCALAR [0,3),
 * dropped, has no rows.
 * Timeline: 1000 ns in 500 bins of 2 ns, 0.8 px per ns from x = 120: MTE2
 * one deep on [0,300) (d2, x 120 width 240), two deep on [300,600) (d3,
 * x 360 width 240), one deep on [600,900) (d2, x 600 width 240), on the
 * row below the critical path's (y 26). The path: CUBE [900,1000) after the
 * MTE2 slice ending at 900 (its pipe idle, no flag: issue back to it, 0 ns),
 * that MTE2 [300,900) started at MTE2's issue rate (300 ns, the only start
 * overlapping the one before it) behind MTE2 [0,600), busy from 0: the
 * path is busy all along, x 120 width 800.
 */
static void test_core(struct check_ctx *c)
{
	struct csim_model m;
	struct csim_summary_pipe *p;
	char *t, *again;

	csim_model_init(&m);
	mu_slice(&m, CA, "MTE2", 0, 600, CSIM_SLICE_INSTR);
	mu_slice(&m, CA, "MTE2", 300, 900, CSIM_SLICE_INSTR);
	mu_slice(&m, CA, "CUBE", 900, 1000, CSIM_SLICE_INSTR);
	mu_keep(&m, mu_slice(&m, CA, "SCALAR", 0, 3, CSIM_SLICE_INSTR), 0);
	mu_flag(&m, CSIM_SYNC_WAIT, CA, "MTE1", 100, 400, "w1", mu_detail(&m, "MTE2", "MTE1", 0));
	mu_flag(&m, CSIM_SYNC_WAIT, CA, "MTE1", 500, 550, "w3", mu_detail(&m, "FIXP", "MTE1", 0));
	if (mu_run(&m) != 0)
		abort();
	p = pipe_of(&m, "MTE2");
	p->has_instr = 1;
	p->instr_cycles = 1234;
	p->util_weighted = 50.0 * 100 + 30.0 * 300;
	p->util_cycles = 400;
	p->has_bytes = 1;
	p->bytes = 4096;
	t = page_of(c, &m);
	CHECK_CONTAINS(c, t, "<tr class=\"pipe\"><td>MTE2</td><td>2</td><td>0.900</td>"
			     "<td class=\"s\"><i class=\"bar\"><i style=\"width:90.0%\"></i></i>90.0</td>"
			     "<td>2</td><td>2</td><td>0.000</td><td></td>"
			     "<td>1234</td><td>35.00</td><td>4096</td><td>4.551</td><td>0.0</td></tr>\n");
	CHECK_CONTAINS(c, t, "<tr class=\"pipe\"><td>CUBE</td><td>1</td><td>0.100</td>"
			     "<td class=\"s\"><i class=\"bar\"><i style=\"width:10.0%\"></i></i>10.0</td>"
			     "<td>1</td><td>1</td><td>0.000</td><td></td>"
			     "<td>\xE2\x80\x94</td><td>\xE2\x80\x94</td><td>\xE2\x80\x94</td>"
			     "<td>\xE2\x80\x94</td><td>\xE2\x80\x94</td></tr>\n");
	CHECK_CONTAINS(c, t, "<tr class=\"pipe dropped\"><td>SCALAR <small>dropped</small></td>"
			     "<td>1</td><td>0.003</td>"
			     "<td class=\"s\"><i class=\"bar\"><i style=\"width:0.3%\"></i></i>0.3</td>"
			     "<td>1</td><td>\xE2\x80\x94</td><td>0.000</td><td></td>");
	/* the matrix: columns MTE2, FIXP (lane order); one row, MTE1 */
	CHECK_CONTAINS(c, t, "<th>MTE2</th><th>FIXP</th></tr>\n<tr class=\"heat\"><th class=\"l\">MTE1</th>"
			     "<td class=\"hm\" style=\"background:hsl(12,80%,80%)\">"
			     "0.300<small>30.0 %</small></td>"
			     "<td class=\"hm\" style=\"background:hsl(12,80%,93%)\">"
			     "0.050<small>5.0 %</small></td></tr>\n");
	CHECK_CONTAINS(c, t, "<rect class=\"d2\" x=\"120.0\" y=\"26\" width=\"240.0\" height=\"16\"/>\n"
			     "<rect class=\"d3\" x=\"360.0\" y=\"26\" width=\"240.0\" height=\"16\"/>\n"
			     "<rect class=\"d2\" x=\"600.0\" y=\"26\" width=\"240.0\" height=\"16\"/>\n");
	CHECK_CONTAINS(c, t, "<rect class=\"cpb\" x=\"120.0\" y=\"6\" width=\"800.0\" height=\"16\"/>\n");
	CHECK(c, strstr(t, "class=\"cpi\"") == NULL);
	CHECK(c, strstr(t, "<script") == NULL && strstr(t, "http") == NULL);
	again = page_of(c, &m);
	CHECK(c, strcmp(t, again) == 0);
	free(again);
	free(t);
	csim_model_release(&m);
}

/*
 * The source lines with the most cycles, all of them: k.cpp:3 from two
 * addresses (64 + 36 cycles of 1100) and m.cpp:1 (1000 of 1100); none but
 * the table's header without them.
 */
static void test_top_lines(struct check_ctx *c)
{
	struct csim_model m;
	struct csim_instr_stats *st = &m.instr;
	uint32_t k, mm;
	char *t;

	csim_model_init(&m);
	mu_slice(&m, CA, "MTE2", 0, 100, CSIM_SLICE_INSTR);
	st->loaded = 1;
	if (csim_strtab_intern(&st->text, "k.cpp:3", 7, &k) != 0 ||
	    csim_strtab_intern(&st->text, "m.cpp:1", 7, &mm) != 0)
		abort();
	st->rows = malloc(3 * sizeof(*st->rows));
	if (st->rows == NULL)
		abort();
	st->rows[0] = (struct csim_instr_row_sum){ .addr = 0x10, .cycles = 64, .executed = 1, .source = k, .has_addr = 1 };
	st->rows[1] = (struct csim_instr_row_sum){ .addr = 0x20, .cycles = 1000, .executed = 2, .source = mm, .has_addr = 1 };
	st->rows[2] = (struct csim_instr_row_sum){ .addr = 0x14, .cycles = 36, .executed = 3, .source = k, .has_addr = 1 };
	st->nrows = st->rows_cap = 3;
	st->total_cycles = 1100;
	if (mu_run(&m) != 0)
		abort();
	t = page_of(c, &m);
	CHECK_CONTAINS(c, t, "<h2 id=\"lines\">Top 10 source lines by cycles</h2>\n");
	CHECK_CONTAINS(c, t, "<tr class=\"line\"><td class=\"name\">m.cpp:1</td><td>1000</td>"
			     "<td>90.9</td><td>2</td><td>1</td></tr>\n"
			     "<tr class=\"line\"><td class=\"name\">k.cpp:3</td><td>100</td>"
			     "<td>9.1</td><td>4</td><td>2</td></tr>\n</table>\n");
	free(t);
	csim_model_release(&m);
}

/* Names from the input are text, never markup. */
static void test_escaped(struct check_ctx *c)
{
	struct csim_model m;
	char *t;

	csim_model_init(&m);
	mu_slice(&m, "c<script>&'\"", "P<b>\x01", 0, 10, CSIM_SLICE_INSTR);
	if (mu_run(&m) != 0)
		abort();
	t = page_of(c, &m);
	CHECK_CONTAINS(c, t, "c&lt;script&gt;&amp;&#39;&quot;");
	CHECK_CONTAINS(c, t, "P&lt;b&gt;?");
	CHECK(c, strstr(t, "<script") == NULL && strstr(t, "<b>\x01") == NULL);
	free(t);
	csim_model_release(&m);
}

/* No core: the page says so and has no timeline. */
static void test_empty(struct check_ctx *c)
{
	struct csim_model m;
	char *t;

	csim_model_init(&m);
	if (mu_run(&m) != 0)
		abort();
	t = page_of(c, &m);
	CHECK_CONTAINS(c, t, "No core: the trace holds no instruction slice.");
	CHECK(c, strstr(t, "<svg") == NULL);
	CHECK_CONTAINS(c, t, "</html>\n");
	free(t);
	csim_model_release(&m);
}

/*
 * The diagnosis list in rank order, the primary first and marked: sync_bound
 * on core0.veccore0 (WAIT_FLAG 800 of 1000 ns) before transfer_bound on
 * core1.veccore0 (MTE2 busy 700); 32 zero-length FIXP instructions keep
 * near_empty silent.
 */
static void test_diagnosis_rank(struct check_ctx *c)
{
	struct csim_model m;
	char *t;

	csim_model_init(&m);
	mu_slice(&m, "core0.veccore0", "MTE3", 0, 1000, CSIM_SLICE_BAR);
	mu_slice(&m, "core0.veccore0", "MTE3", 900, 1000, CSIM_SLICE_INSTR);
	mu_flag(&m, CSIM_SYNC_WAIT, "core0.veccore0", "MTE3", 100, 900, "w",
		mu_detail(&m, "VECTOR", "MTE3", 0));
	mu_slice(&m, "core1.veccore0", "MTE3", 0, 1000, CSIM_SLICE_BAR);
	mu_slice(&m, "core1.veccore0", "MTE2", 0, 700, CSIM_SLICE_INSTR);
	for (int i = 0; i < 32; i++)
		mu_slice(&m, "core0.veccore0", "FIXP", 0, 0, CSIM_SLICE_INSTR);
	if (mu_run(&m) != 0)
		abort();
	t = page_of(c, &m);
	/* Ranked by the critical path, as test_summary_table's test of the
	   same model says why: transfer_bound first. */
	CHECK_CONTAINS(c, t, "<ul class=\"diag\">\n"
		       "<li class=\"primary\"><span class=\"rule\">transfer_bound</span><b>primary:</b> "
		       "likely transfer-bound on core1.veccore0: MTE2 holds 70 % of the critical "
		       "path, busy 70 % of the span, no compute pipe ran; try double buffering</li>\n"
		       "<li><span class=\"rule\">sync_bound</span>"
		       "likely sync-bound on core0.veccore0: MTE3 blocked in WAIT_FLAG 800 ns, 80 % "
		       "of the 1000 ns span, most on VECTOR (80 %), its flag waits 0 % of the "
		       "critical path; see what VECTOR does before its SET_FLAG: double buffering "
		       "lets it run ahead</li>\n</ul>\n");
	free(t);
	csim_model_release(&m);
}

int main(void)
{
	struct check_ctx c = { 0, 0, NULL };

	CHECK_RUN(&c, test_core);
	CHECK_RUN(&c, test_escaped);
	CHECK_RUN(&c, test_top_lines);
	CHECK_RUN(&c, test_empty);
	CHECK_RUN(&c, test_diagnosis_rank);
	return check_done(&c);
}
