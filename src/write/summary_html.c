#include "write/summary_html.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "model/diag_text.h"
#include "model/diagnosis.h"
#include "model/instr_stats.h"
#include "read/json_scan.h"
#include "write/run_changes.h"
#include "write/summary_heat.h"
#include "write/summary_html_top.h"
#include "write/summary_page_head.h"
#include "write/summary_table.h"
#include "write/summary_timeline.h"
#include "write/summary_view.h"

/* A raw OP_BASIC_INFO value (block_detail: one entry per block) is cut here. */
#define RAW_MAX 400

/* "—": a number the run does not have. */
#define NONE_TEXT "\xE2\x80\x94"

static void put_s(struct csim_out *o, const char *s)
{
	csim_out_html_escaped(o, s, strlen(s));
}

static void put_pipe(struct csim_out *o, const struct csim_model *m, uint32_t pipe)
{
	const char *name;
	size_t n;

	if (pipe == CSIM_NONE) {
		csim_out_text(o, "<i>unknown</i>");
		return;
	}
	name = csim_strtab_get(&m->table.pipes, pipe, &n);
	csim_out_html_escaped(o, name, n);
}

static void put_core(struct csim_out *o, const struct csim_model *m, size_t core)
{
	put_s(o, m->table.pid_names[m->summary.cores[core].pid]);
}

static void put_us(struct csim_out *o, int64_t ns)
{
	char us[CSIM_VIEW_NUM];

	csim_view_format_us(us, ns);
	csim_out_text(o, us);
}

static void td_us(struct csim_out *o, int64_t ns)
{
	csim_out_text(o, "<td>");
	put_us(o, ns);
	csim_out_text(o, "</td>");
}

/* A share cell: a bar as wide as the share (capped at the cell) and its %. */
static void td_share(struct csim_out *o, int64_t num, int64_t den)
{
	int64_t pm = csim_view_permille(num, den);
	char pct[CSIM_VIEW_NUM];

	csim_view_format_share(pct, num, den);
	if (pm > 1000)
		pm = 1000;
	csim_out_format(o, "<td class=\"s\"><i class=\"bar\"><i style=\"width:%lld.%lld%%\"></i></i>%s</td>",
			(long long)(pm < 0 ? 0 : pm / 10), (long long)(pm < 0 ? 0 : pm % 10), pct);
}

/* A raw OP_BASIC_INFO value, cut at RAW_MAX bytes between UTF-8 sequences. */
static void put_raw(struct csim_out *o, struct csim_span v)
{
	size_t n = v.n;

	if (n > RAW_MAX) {
		n = RAW_MAX;
		while (n > 0 && ((unsigned char)v.p[n] & 0xC0) == 0x80)
			n--;
	}
	csim_out_html_escaped(o, v.p, n);
	if (n < v.n)
		csim_out_text(o, " \xE2\x80\xA6 (cut; summary.json has it whole)");
}

/*
 * One OP_BASIC_INFO value for reading: the duration to the ns in µs (the
 * simulator writes every time in µs and the block names no unit; it writes
 * a float's every digit, 132.36431884765625), a list or an object
 * (block_detail) folded under its size, anything else as written
 * (docs/summary.md, "run").
 */
static void put_fact(struct csim_out *o, const struct csim_basic_info *bi,
		     enum csim_basic_field f)
{
	const struct csim_span v = csim_basic_info_text(bi, f);
	double us;

	if (f == CSIM_BASIC_DURATION && csim_basic_info_number(bi, f, &us)) {
		csim_out_format(o, "%.3f \xC2\xB5s", us);
		return;
	}
	if (bi->field[f].n > 0 && (bi->field[f].p[0] == '[' || bi->field[f].p[0] == '{')) {
		csim_out_format(o, "<details><summary>%s, %zu bytes of JSON</summary><code>",
				bi->field[f].p[0] == '[' ? "a list" : "an object", bi->field[f].n);
		put_raw(o, v);
		csim_out_text(o, "</code></details>");
		return;
	}
	put_raw(o, v);
}

/* Run facts as the producer wrote them, the clock, and what was converted. */
static void write_facts(struct csim_out *o, const struct csim_model *m, const char *sfx)
{
	const struct csim_basic_info *bi = &m->run.basic;
	const int has = csim_basic_info_has(bi);
	struct csim_clock clock;

	csim_out_format(o, "<h2 id=\"run%s\">Run</h2>\n<table class=\"facts\">\n", sfx);
	for (size_t f = 0; has && f < CSIM_BASIC_COUNT; f++) {
		struct csim_span v = csim_basic_info_text(bi, (enum csim_basic_field)f);

		if (v.p == NULL)
			continue;
		csim_out_format(o, "<tr><th>%s</th><td>", csim_basic_field_names[f]);
		put_fact(o, bi, (enum csim_basic_field)f);
		csim_out_text(o, "</td></tr>\n");
	}
	if (!has)
		csim_out_text(o, "<tr><th>OP_BASIC_INFO</th><td>none in the dump: no run facts</td></tr>\n");
	csim_out_text(o, "<tr><th>clock</th><td>");
	if (csim_clock_of_run(&m->run, m->summary.derived_mhz, &clock)) {
		char mhz[CSIM_VIEW_NUM];

		csim_view_format_mhz(mhz, &clock);
		csim_out_format(o, "%s MHz (%s)", mhz, csim_clock_source_name(clock.source));
	} else {
		csim_out_text(o, "unknown: ");
		csim_out_text(o, csim_view_clock_unknown(&m->summary));
	}
	csim_out_text(o, "</td></tr>\n</table>\n");
}

static void write_diagnosis(struct csim_out *o, const struct csim_model *m, const char *sfx)
{
	const struct csim_diagnosis *dg = &m->diagnosis;

	csim_out_format(o, "<h2 id=\"diagnosis%s\">Diagnosis</h2>\n", sfx);
	if (dg->n == 0) {
		csim_out_text(o, "<p>No diagnosis rule fired.</p>\n");
		return;
	}
	csim_out_text(o, "<p>Likely shapes of the run, each with its evidence and a "
		      "next step, the primary cause first (thresholds in docs/summary.md).</p>\n<ul class=\"diag\">\n");
	for (size_t i = 0; i < dg->n; i++) {
		const struct csim_diag *d = &dg->lines[i];
		char text[CSIM_DIAG_TEXT_MAX];
		size_t n = csim_diag_text(m, d, text, sizeof(text));

		/* in rank order, as the table: the text names its cores */
		csim_out_format(o, "<li%s><span class=\"rule\">%s</span>%s",
				d->primary ? " class=\"primary\"" : "", csim_diag_id(d->rule),
				d->primary ? "<b>primary:</b> " : "");
		csim_out_html_escaped(o, text, n < sizeof(text) ? n : sizeof(text) - 1);
		csim_out_text(o, "</li>\n");
	}
	csim_out_text(o, "</ul>\n");
}

/* The busiest pipe of a core (first in lane order on ties); NULL: none. */
static const struct csim_summary_pipe *busiest(const struct csim_summary *s,
					       const struct csim_summary_core *c)
{
	const struct csim_summary_pipe *top = NULL;

	for (size_t k = 0; k < c->npipes; k++) {
		const struct csim_summary_pipe *p = &s->pipes[c->pipe0 + k];

		if (top == NULL || p->busy_ns > top->busy_ns)
			top = p;
	}
	return top;
}

/* A JSON string's text decoded, cut at RAW_MAX bytes: an instruction's name or address. */
static void put_json_text(struct csim_out *o, struct csim_span json)
{
	char text[RAW_MAX];
	size_t n = json.n - 2;

	if (n > sizeof(text)) {
		put_raw(o, csim_span_of(json.p + 1, n));
		return;
	}
	n = csim_json_unescape(json.p + 1, n, text);
	csim_out_html_escaped(o, text, n);
}

/* The instructions holding the most of the slowest core's path (SPEC §13). */
static void write_path_top(struct csim_out *o, const struct csim_model *m)
{
	const struct csim_path_core *c;

	if (m->summary.slowest >= m->path.ncores || m->path.cores[m->summary.slowest].ntop == 0)
		return;
	c = &m->path.cores[m->summary.slowest];
	csim_out_text(o, "<p>The instructions holding the most of its critical path, each "
		      "summed over every pass of the path through it.</p>\n"
		      "<table class=\"top path\">\n<tr><th>address</th><th class=\"l\">instruction</th>"
		      "<th class=\"l\">source</th><th>\xC2\xB5s on the critical path</th>"
		      "<th>% of the span</th></tr>\n");
	for (size_t k = 0; k < c->ntop; k++) {
		const struct csim_path_instr *t = &m->path.top[c->top0 + k];
		const struct csim_instr_key key = csim_table_instr_key(&m->table, t->instr);
		const char *line = NULL;
		uint64_t addr;
		size_t n = 0;

		csim_out_text(o, "<tr class=\"ptop\"><td class=\"name\">");
		if (key.pc_json.p != NULL)
			put_json_text(o, key.pc_json);
		if (csim_instr_key_address(&key, &addr))
			line = csim_instr_stats_source(&m->instr, addr, &n);
		csim_out_text(o, "</td><td class=\"l\">");
		put_json_text(o, key.name_json);
		csim_out_text(o, "</td><td class=\"name\">");
		if (line != NULL)
			csim_out_html_escaped(o, line, n);
		csim_out_text(o, "</td>");
		td_us(o, t->ns);
		td_share(o, t->ns, c->span_ns);
		csim_out_text(o, "</tr>\n");
	}
	csim_out_text(o, "</table>\n");
}

/*
 * The kernel's what-if (SPEC §13): its span, the slowest core's, with one
 * pipe twice as fast on every core, as load_balance.what_if holds it; the
 * change in whole percents.
 */
static void write_what_if(struct csim_out *o, const struct csim_model *m)
{
	const struct csim_path *p = &m->path;
	int64_t span = m->summary.max_span_ns;

	if (p->nkernel == 0 || span <= 0)
		return;
	csim_out_text(o, "<p>What-if: the kernel's span with one pipe's instructions twice as "
		      "fast on every core, estimated by replaying the cores' dependencies "
		      "(cores that sync together).</p>\n<table class=\"whatif\">\n<tr>"
		      "<th class=\"l\">pipe 2\xC3\x97 faster</th><th>kernel span \xC2\xB5s</th>"
		      "<th>change</th><th class=\"l\">slowest core then</th></tr>\n");
	for (size_t k = 0; k < p->nkernel; k++) {
		const struct csim_path_kernel_what_if *e = &p->kernel[k];
		char pc[CSIM_VIEW_NUM];

		(void)csim_view_format_estimate(pc, e->span_ns, span, "\xE2\x88\x92");
		csim_out_text(o, "<tr class=\"whatif\"><td class=\"l\">");
		put_pipe(o, m, e->pipe);
		csim_out_text(o, "</td>");
		td_us(o, e->span_ns);
		csim_out_format(o, "<td>%s</td><td class=\"name\">", pc);
		put_core(o, m, e->core);
		csim_out_text(o, "</td></tr>\n");
	}
	csim_out_text(o, "</table>\n");
}

/* Load balance, then one compact row per core with its span as a bar. */
static void write_balance(struct csim_out *o, const struct csim_model *m, const char *sfx)
{
	const struct csim_summary *s = &m->summary;
	char ratio[CSIM_VIEW_NUM];

	csim_out_format(o, "<h2 id=\"balance%s\">Cores and load balance</h2>\n", sfx);
	if (s->ncores == 0) {
		csim_out_text(o, "<p>No core: the trace holds no instruction slice.</p>\n");
		return;
	}
	csim_out_format(o, "<p>%zu core%s: span min ", s->ncores, s->ncores == 1 ? "" : "s");
	put_us(o, s->min_span_ns);
	csim_out_text(o, ", median ");
	put_us(o, s->median_span_ns);
	csim_out_text(o, ", max ");
	put_us(o, s->max_span_ns);
	csim_out_text(o, " \xC2\xB5s");
	if (csim_view_format_ratio(ratio, s->max_span_ns, s->median_span_ns))
		csim_out_format(o, "; the slowest core takes %s\xC3\x97 the median", ratio);
	csim_out_text(o, ".</p>\n<table class=\"cores\">\n<tr><th class=\"l\">core</th>"
		      "<th class=\"l\">span (bar: share of the slowest)</th><th>span \xC2\xB5s</th>"
		      "<th>cross-core wait \xC2\xB5s</th><th class=\"l\">busiest pipe</th>"
		      "<th>its busy %</th></tr>\n");
	for (size_t i = 0; i < s->ncores; i++) {
		const struct csim_summary_core *c = &s->cores[i];
		const struct csim_summary_pipe *top = busiest(s, c);
		int64_t span = c->last_ns - c->first_ns;
		char pct[CSIM_VIEW_NUM] = NONE_TEXT;

		csim_out_text(o, "<tr class=\"core\"><td class=\"name\">");
		put_core(o, m, i);
		if (i == s->slowest)
			csim_out_text(o, "<span class=\"tag\">slowest</span>");
		csim_out_text(o, "</td>");
		td_share(o, span, s->max_span_ns);
		td_us(o, span);
		td_us(o, c->cross_wait_ns);
		csim_out_text(o, "<td class=\"l\">");
		if (top != NULL) {
			put_pipe(o, m, top->pipe);
			csim_view_format_share(pct, top->busy_ns, span);
		}
		csim_out_format(o, "</td><td>%s</td></tr>\n", pct);
	}
	csim_out_text(o, "</table>\n");
	write_what_if(o, m);
}

static int write_timeline(struct csim_out *o, const struct csim_model *m, const char *sfx,
			  struct csim_error *err)
{
	const struct csim_summary *s = &m->summary;
	const struct csim_summary_core *c;
	int rc;

	if (s->ncores == 0)
		return CSIM_OK;
	c = &s->cores[s->slowest];
	csim_out_format(o, "<h2 id=\"timeline%s\">Timeline of the slowest core: ", sfx);
	put_core(o, m, s->slowest);
	csim_out_text(o, "</h2>\n<p>One row per pipe, time from the core's first "
		      "slice (at ");
	put_us(o, c->first_ns);
	csim_out_text(o, " \xC2\xB5s in the trace). Each column is shaded by how many of the pipe's "
		      "sub-lanes were busy on average over it.</p>\n");
	rc = csim_timeline_write(m, c, o, err);
	csim_out_text(o, "<p class=\"legend\">");
	for (int k = 0; k <= CSIM_TIMELINE_SHADES; k++) {
		csim_out_format(o, "<i style=\"background:%s\"></i>%s", csim_timeline_shade_colors[k],
				csim_timeline_shade_labels[k]);
	}
	csim_out_text(o, "</p>\n");
	if (s->slowest < m->path.ncores) {
		csim_out_text(o, "<p class=\"legend\">critical path (docs/critical-path.md): ");
		for (int k = 0; k <= CSIM_TIMELINE_PATH_KINDS; k++)
			csim_out_format(o, "<i style=\"background:%s\"></i>%s",
					csim_timeline_path_colors[k], csim_timeline_path_labels[k]);
		csim_out_text(o, "</p>\n");
	}
	write_path_top(o, m);
	return rc;
}

/* API_INSTR's numbers of a pipe, or "—" where the run has none. */
static void write_instr_cells(struct csim_out *o, const struct csim_summary_pipe *p)
{
	if (p->has_instr)
		csim_out_format(o, "<td>%llu</td>", (unsigned long long)p->instr_cycles);
	else
		csim_out_text(o, "<td>" NONE_TEXT "</td>");
	if (p->has_instr && p->util_cycles > 0)   /* as summary.json prints it */
		csim_out_format(o, "<td>%.2f</td>", p->util_weighted / (double)p->util_cycles);
	else
		csim_out_text(o, "<td>" NONE_TEXT "</td>");
	if (p->has_bytes)
		csim_out_format(o, "<td>%llu</td>", (unsigned long long)p->bytes);
	else
		csim_out_text(o, "<td>" NONE_TEXT "</td>");
	if (p->has_bytes && p->busy_ns > 0)   /* MB/s printed as GB/s, 3 decimals */
		td_us(o, csim_view_bandwidth_mbps(p->bytes, p->busy_ns));
	else
		csim_out_text(o, "<td>" NONE_TEXT "</td>");
	if (p->has_overlap) {
		char pct[CSIM_VIEW_NUM];

		csim_view_format_share(pct, p->overlap_ns, p->busy_ns);
		csim_out_format(o, "<td>%s</td>", pct);
	} else {
		csim_out_text(o, "<td>" NONE_TEXT "</td>");
	}
}

static void write_pipe_row(struct csim_out *o, const struct csim_model *m,
			   const struct csim_summary_pipe *p, int64_t span)
{
	const struct csim_summary_wait *top = csim_view_top_wait(&m->summary, p);

	csim_out_text(o, p->kept ? "<tr class=\"pipe\"><td>" : "<tr class=\"pipe dropped\"><td>");
	put_pipe(o, m, p->pipe);
	if (!p->kept)
		csim_out_text(o, " <small>dropped</small>");
	csim_out_format(o, "</td><td>%llu</td>", (unsigned long long)p->instructions);
	td_us(o, p->busy_ns);
	td_share(o, p->busy_ns, span);
	csim_out_format(o, "<td>%u</td>", (unsigned)p->depth);
	if (p->has_rows)
		csim_out_format(o, "<td>%u</td>", (unsigned)p->rows);
	else
		csim_out_text(o, "<td>" NONE_TEXT "</td>");
	td_us(o, p->wait_ns);
	csim_out_text(o, "<td>");
	if (top != NULL)
		put_pipe(o, m, top->producer);
	csim_out_text(o, "</td>");
	write_instr_cells(o, p);
	csim_out_text(o, "</tr>\n");
}

/* One core in detail: its span, its pipes with busy bars, its WAIT matrix. */
static int write_core(struct csim_out *o, const struct csim_model *m, size_t core,
		      const char *label, const struct csim_clock *clock, const char *sfx,
		      struct csim_error *err)
{
	const struct csim_summary_core *c = &m->summary.cores[core];
	int64_t span = c->last_ns - c->first_ns;
	int rc;

	csim_out_format(o, "<section class=\"core\" id=\"core-%zu%s\">\n<h3>core ", core, sfx);
	put_core(o, m, core);
	if (label[0] != '\0')
		csim_out_format(o, "<span class=\"tag\">%s</span>", label);
	csim_out_text(o, "</h3>\n<p>span ");
	put_us(o, span);
	csim_out_text(o, " \xC2\xB5s");
	if (clock != NULL)
		csim_out_format(o, " (%lld cycles)", (long long)csim_clock_cycles(clock, span));
	if (c->cross_wait_ns > 0) {
		csim_out_text(o, ", cross-core wait ");
		put_us(o, c->cross_wait_ns);
		csim_out_text(o, " \xC2\xB5s");
	}
	csim_out_text(o, "</p>\n");
	if (c->npipes == 0) {
		csim_out_text(o, "</section>\n");
		return CSIM_OK;
	}
	csim_out_text(o, "<table class=\"pipes\">\n<tr><th class=\"l\">pipe</th><th>instr</th>"
		      "<th>busy \xC2\xB5s</th><th class=\"l\">busy % of span</th><th>depth</th>"
		      "<th>rows</th><th>WAIT \xC2\xB5s</th><th>top producer</th><th>cycles</th>"
		      "<th>vector util %</th><th>bytes</th><th>GB/s</th>"
		      "<th>overlap with compute %</th></tr>\n");
	for (size_t k = 0; k < c->npipes; k++)
		write_pipe_row(o, m, &m->summary.pipes[c->pipe0 + k], span);
	csim_out_text(o, "</table>\n");
	rc = csim_heat_write(m, c, o, err);
	csim_out_text(o, "</section>\n");
	return rc;
}

/* Many cores: per-pipe sums over every core, as the table's totals. */
static int write_totals(struct csim_out *o, const struct csim_model *m, struct csim_error *err)
{
	size_t n;
	struct csim_view_total *t = csim_view_sum_pipes(m, &n);

	if (t == NULL)
		return csim_error_nomem(err, CSIM_E_OUTPUT);
	csim_out_format(o, "<h3>All %zu cores, per pipe</h3>\n", m->summary.ncores);
	csim_out_text(o, "<p>Busy and WAIT time summed over the cores having the pipe (a sum, "
		      "not a union: cores run in parallel).</p>\n<table class=\"totals\">\n"
		      "<tr><th>pipe</th><th>cores</th><th>instr</th><th>busy \xC2\xB5s</th>"
		      "<th>WAIT \xC2\xB5s</th><th class=\"l\">lane</th></tr>\n");
	for (size_t k = 0; k < n; k++) {
		csim_out_text(o, t[k].kept ? "<tr class=\"total\"><td>" : "<tr class=\"total dropped\"><td>");
		csim_out_html_escaped(o, t[k].name, t[k].n);
		csim_out_format(o, "</td><td>%zu</td><td>%llu</td>", t[k].cores,
				(unsigned long long)t[k].instructions);
		td_us(o, t[k].busy_ns);
		td_us(o, t[k].wait_ns);
		csim_out_text(o, t[k].kept ? "<td class=\"l\">kept</td></tr>\n"
				       : "<td class=\"l\">dropped</td></tr>\n");
	}
	csim_out_text(o, "</table>\n");
	free(t);
	return CSIM_OK;
}

/* Every core, or (many cores) the slowest, median and fastest and the totals. */
static int write_detail(struct csim_out *o, const struct csim_model *m, const char *sfx,
			struct csim_error *err)
{
	const struct csim_summary *s = &m->summary;
	struct csim_clock clock;
	const struct csim_clock *cp = csim_clock_of_run(&m->run, s->derived_mhz, &clock) ? &clock : NULL;
	size_t pick[CSIM_VIEW_PICKS];
	int rc = CSIM_OK;

	if (s->ncores == 0)
		return CSIM_OK;
	csim_out_format(o, "<h2 id=\"detail%s\">Pipes per core</h2>\n", sfx);
	csim_out_text(o, "<p>busy: union of the "
		      "pipe's instructions (all sub-lanes); depth: the most instructions in flight at "
		      "once; rows: the pipe's rows in the trace (more than depth where Perfetto's "
		      "rounding needs them); WAIT: blocked in "
		      "WAIT_FLAG; cycles to GB/s: from API_INSTR (" NONE_TEXT ": none); dropped "
		      "lanes: counted, not in the trace. Under each table, the WAIT-stall matrix: "
		      "\xC2\xB5s each pipe (row) waited on each producer (column), darker = larger "
		      "share of the span. Overlap: the share of an MTE pipe's busy time during which "
		      "a compute pipe (CUBE, vector, FIXP) of the core is busy too, what double "
		      "buffering buys.</p>\n");
	if (s->ncores <= CSIM_TABLE_FULL_CORES) {
		for (size_t i = 0; rc == CSIM_OK && i < s->ncores; i++)
			rc = write_core(o, m, i, s->ncores > 1 && i == s->slowest ? "slowest" : "", cp,
					sfx, err);
		return rc;
	}
	csim_view_pick_cores(s, pick);
	for (size_t i = 0; rc == CSIM_OK && i < CSIM_VIEW_PICKS; i++) {
		char label[64] = "";
		int seen = 0;

		for (size_t j = 0; j < i; j++)
			seen |= pick[j] == pick[i];
		if (seen)
			continue;
		for (size_t j = i; j < CSIM_VIEW_PICKS; j++) {
			if (pick[j] != pick[i])
				continue;
			strcat(label, label[0] ? ", " : "");
			strcat(label, csim_view_pick_labels[j]);
		}
		rc = write_core(o, m, pick[i], label, cp, sfx, err);
	}
	if (rc == CSIM_OK)
		rc = write_totals(o, m, err);
	return rc;
}

/* One run's sections; their ids end in sfx ("" for a file of one run). */
static int write_run_page(struct csim_out *o, const struct csim_model *m, const char *sfx,
			  struct csim_error *err)
{
	int rc;

	write_facts(o, m, sfx);
	write_diagnosis(o, m, sfx);
	write_balance(o, m, sfx);
	rc = write_timeline(o, m, sfx, err);
	if (rc == CSIM_OK)
		rc = write_detail(o, m, sfx, err);
	csim_summary_html_top(o, m, sfx);
	return rc;
}

int csim_summary_html_write(const struct csim_model *const *runs, size_t n,
			    const struct csim_view_input *in, struct csim_out *o,
			    struct csim_error *err)
{
	int rc = CSIM_OK;

	csim_summary_page_head(o, runs, n, in);
	if (n == 1) {
		rc = write_run_page(o, runs[0], "", err);
	} else {
		for (size_t i = 0; i < n && rc == CSIM_OK; i++) {
			char sfx[32];

			snprintf(sfx, sizeof(sfx), "-%llu", (unsigned long long)runs[i]->run.run);
			csim_out_format(o, "<section class=\"run\" id=\"run%s\">\n<h2>Run %llu of "
					"%llu</h2>\n", sfx, (unsigned long long)runs[i]->run.run,
					(unsigned long long)runs[i]->run.choice.runs);
			rc = write_run_page(o, runs[i], sfx, err);
			csim_out_text(o, "</section>\n");
		}
		if (rc == CSIM_OK)
			csim_run_changes_html(runs, n, o);
	}
	csim_out_text(o, "<footer>clean_sim_trace; the same numbers are in summary.json "
		      "(docs/summary.md).</footer>\n</body>\n</html>\n");
	return rc;
}
