#include "write/compare_html.h"

#include <string.h>

#include "write/compare_table.h"
#include "write/summary_page_head.h"
#include "write/summary_timeline.h"
#include "write/summary_view.h"

/* Geometry of a timeline, in px (as summary.html's). */
#define PLOT_X 120
#define PLOT_W 800
#define ROW_H 16
#define ROW_GAP 4
#define TOP 6
#define AXIS_H 30
#define TICKS 4
/* A change bar is this wide at 100 % (or more). */
#define BAR_W 110

static const char extra_style[] =
	"td.up,span.up{color:#cf222e}\ntd.down,span.down{color:#1a7f37}\n"
	"i.bar.up i{background:#cf222e}\ni.bar.down i{background:#1a7f37}\n"
	"i.bar.busy i{background:#2f6fca}\n"
	"svg .axis line{stroke:#57606a}\n"
	"td.nm{font-family:monospace;white-space:nowrap;text-align:left}\n";

static void put_span(struct csim_out *o, struct csim_span s)
{
	if (s.p == NULL)
		csim_out_text(o, "\xE2\x80\x94");
	else
		csim_out_html_escaped(o, s.p, s.n);
}

static void put_str(struct csim_out *o, const char *s)
{
	csim_out_html_escaped(o, s, strlen(s));
}

static void put_us(struct csim_out *o, int64_t ns)
{
	char us[CSIM_VIEW_NUM];

	if (ns == CSIM_RESULT_NONE) {
		csim_out_text(o, "\xE2\x80\x94");
		return;
	}
	csim_view_format_us(us, ns);
	csim_out_text(o, us);
}

/* "up" (grew), "down" (shrank) or "" for a pair. */
static const char *direction(struct csim_compare_pair p)
{
	const int64_t d = csim_compare_delta(p);

	return d == CSIM_RESULT_NONE || d == 0 ? "" : d > 0 ? "up" : "down";
}

/* The change in % as a cell, then a bar as long as the change (100 %: full). */
static void put_change_cells(struct csim_out *o, struct csim_compare_pair p)
{
	char ch[CSIM_COMPARE_CELL];
	int known;
	double share = csim_compare_change(p, &known);
	const double a = share < 0 ? -share : share;
	const char *dir = direction(p);

	csim_compare_format_change(ch, p);
	csim_out_format(o, "<td class=\"%s\">", dir);
	put_str(o, ch);
	csim_out_format(o, "</td><td class=\"l\"><i class=\"bar %s\"><i style=\"width:%dpx\"></i></i></td>",
			dir, known ? (int)((a > 1.0 ? 1.0 : a) * BAR_W + 0.5) : 0);
}

/* A busy bar: ns against the largest of its table. */
static void put_busy_bar(struct csim_out *o, int64_t ns, int64_t most)
{
	const int w = ns != CSIM_RESULT_NONE && most > 0
		      ? (int)((double)ns * BAR_W / (double)most + 0.5) : 0;

	csim_out_format(o, "<td class=\"l\"><i class=\"bar busy\"><i style=\"width:%dpx\"></i></i></td>", w);
}

static void write_head(const struct csim_compare *c, struct csim_out *o)
{
	const char *b = c->base_label[0] != '\0' ? c->base_label : c->base->file;
	const char *n = c->now_label[0] != '\0' ? c->now_label : c->now->file;

	csim_out_text(o, "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n"
		      "<title>");
	put_str(o, b);
	csim_out_text(o, " \xE2\x86\x92 ");
	put_str(o, n);
	/* The page's styles open their own <style>: a second one before them
	   once made the first rule (body's font and width) unreadable. */
	csim_out_text(o, " \xE2\x80\x94 clean_sim_trace compare</title>\n");
	csim_summary_page_styles(o);
	csim_out_text(o, extra_style);
	csim_out_text(o, "</style>\n</head>\n<body>\n<header><h1>Compare</h1>\n<p>base <code>");
	put_str(o, b);
	csim_out_text(o, "</code> \xE2\x86\x92 new <code>");
	put_str(o, n);
	csim_out_text(o, "</code></p>\n");
	if (c->other & CSIM_COMPARE_OTHER_OP)
		csim_out_text(o, "<p class=\"warn\">The two hold different ops: spans are not like for like.</p>\n");
	if (c->other & CSIM_COMPARE_OTHER_SOC)
		csim_out_text(o, "<p class=\"warn\">The two ran on different SoCs.</p>\n");
	if (c->other & CSIM_COMPARE_OTHER_CLOCK)
		csim_out_text(o, "<p class=\"warn\">The two ran at different clocks: cycles differ in length.</p>\n");
	if (c->threshold >= 0)
		csim_out_format(o, "<p>Gate: slower than %g %% in %zu span(s).</p>\n", c->threshold,
				c->nslower);
	csim_out_text(o, "</header>\n");
}

static void span_row(struct csim_out *o, struct csim_span name, const struct csim_compare_span *s)
{
	csim_out_text(o, "<tr><td class=\"nm\">");
	put_span(o, name);
	csim_out_text(o, "</td><td>");
	put_us(o, s->ns.base);
	csim_out_text(o, "</td><td>");
	put_us(o, s->ns.now);
	csim_out_text(o, "</td><td>");
	put_us(o, csim_compare_delta(s->ns));
	csim_out_text(o, "</td>");
	put_change_cells(o, s->ns);
	csim_out_text(o, "</tr>\n");
}

static void write_spans(const struct csim_compare *c, struct csim_out *o)
{
	static const struct csim_span kernel = { "kernel (slowest core)", 21 };

	csim_out_text(o, "<h2 id=\"spans\">Spans</h2>\n<table class=\"cores\">\n<tr><th>core</th>"
		      "<th>base \xC2\xB5s</th><th>new \xC2\xB5s</th><th>change \xC2\xB5s</th>"
		      "<th>change</th><th></th></tr>\n");
	span_row(o, kernel, &c->kernel);
	for (size_t i = 0; i < c->ncores; i++)
		span_row(o, c->cores[i].core, &c->cores[i].span);
	csim_out_text(o, "</table>\n");
}

/* One side's timeline on a time scale of `scale` ns for the plot's width. */
static void timeline_svg(struct csim_out *o, const struct csim_result_timeline *tl, int64_t scale)
{
	const size_t rows = tl->nrows < CSIM_TIMELINE_ROWS ? tl->nrows : CSIM_TIMELINE_ROWS;
	const double px = (double)PLOT_W / (double)scale;
	const int h = TOP + (int)rows * (ROW_H + ROW_GAP) + AXIS_H;
	const int y_axis = TOP + (int)rows * (ROW_H + ROW_GAP);

	csim_out_format(o, "<svg width=\"%d\" height=\"%d\" role=\"img\">\n", PLOT_X + PLOT_W + 40, h);
	for (size_t r = 0; r < rows; r++) {
		const int y = TOP + (int)r * (ROW_H + ROW_GAP);

		csim_out_format(o, "<g><text x=\"%d\" y=\"%d\">", PLOT_X - 8, y + 12);
		put_span(o, tl->pipes[r]);
		csim_out_format(o, "</text><rect class=\"bg\" x=\"%d\" y=\"%d\" width=\"%.2f\" height=\"%d\"/>",
				PLOT_X, y, (double)tl->span_ns * px, ROW_H);
		for (size_t b = 0; b < tl->nbins; b++) {
			const int64_t busy = tl->busy[r * tl->nbins + b];
			const int64_t x0 = (int64_t)b * tl->bin_ns;
			const int64_t x1 = x0 + tl->bin_ns < tl->span_ns ? x0 + tl->bin_ns : tl->span_ns;
			int shade;

			if (busy <= 0 || x1 <= x0)
				continue;
			shade = csim_timeline_shade((uint64_t)busy, x1 - x0);
			csim_out_format(o, "<rect class=\"d%d\" x=\"%.2f\" y=\"%d\" width=\"%.2f\" height=\"%d\"/>",
					shade, PLOT_X + (double)x0 * px, y, (double)(x1 - x0) * px, ROW_H);
		}
		csim_out_text(o, "</g>\n");
	}
	csim_out_format(o, "<g class=\"axis\"><line x1=\"%d\" y1=\"%d\" x2=\"%d\" y2=\"%d\"/>",
			PLOT_X, y_axis, PLOT_X + PLOT_W, y_axis);
	for (int k = 0; k <= TICKS; k++) {
		const int x = PLOT_X + PLOT_W * k / TICKS;

		csim_out_format(o, "<line x1=\"%d\" y1=\"%d\" x2=\"%d\" y2=\"%d\"/><text x=\"%d\" y=\"%d\">",
				x, y_axis, x, y_axis + 4, x, y_axis + 16);
		put_us(o, scale * k / TICKS);
		csim_out_text(o, " \xC2\xB5s</text>");
	}
	csim_out_text(o, "</g>\n</svg>\n");
}

static void write_timelines(const struct csim_compare *c, struct csim_out *o)
{
	const struct csim_result_timeline *b = &c->base_run->timeline, *n = &c->now_run->timeline;
	const int64_t scale = b->span_ns > n->span_ns ? b->span_ns : n->span_ns;
	/* summary.json keeps the slowest core's timeline only: when the two
	   sides' slowest are different cores, each is labelled as such. */
	const int apart = !csim_result_same(b->core, n->core);

	csim_out_text(o, apart ? "<h2 id=\"timelines\">Timelines of each side's slowest core</h2>\n"
			       : "<h2 id=\"timelines\">Timelines of the slowest core</h2>\n");
	if (b->bin_ns == 0 || n->bin_ns == 0 || scale <= 0) {
		csim_out_text(o, "<p>A side has no timeline (no core, or a summary.json written "
			      "before the timeline was part of it).</p>\n");
		return;
	}
	csim_out_text(o, "<p>Base above, new below, on one time scale from each core's first "
		      "slice: a kernel that got slower ends further right. Each column is shaded "
		      "by how many of the pipe's sub-lanes were busy on average over it.");
	if (apart)
		csim_out_text(o, " The two sides' slowest cores are different cores: each is "
			      "its own side's (the pipes below set one core against itself).");
	csim_out_text(o, "</p>\n<h3>base: ");
	put_span(o, b->core);
	csim_out_text(o, apart ? " <span class=\"tag\">BASE's slowest</span></h3>\n" : "</h3>\n");
	timeline_svg(o, b, scale);
	csim_out_text(o, "<h3>new: ");
	put_span(o, n->core);
	csim_out_text(o, apart ? " <span class=\"tag\">NEW's slowest</span></h3>\n" : "</h3>\n");
	timeline_svg(o, n, scale);
	csim_out_text(o, "<p class=\"legend\">");
	for (int k = 0; k <= CSIM_TIMELINE_SHADES; k++)
		csim_out_format(o, "<i style=\"background:%s\"></i>%s", csim_timeline_shade_colors[k],
				csim_timeline_shade_labels[k]);
	csim_out_text(o, "</p>\n");
}

static void path_cell(struct csim_out *o, int64_t path, int64_t span)
{
	char share[CSIM_VIEW_NUM];

	csim_out_text(o, "<td>");
	if (path == CSIM_RESULT_NONE || span == CSIM_RESULT_NONE || span <= 0) {
		csim_out_text(o, "\xE2\x80\x94</td>");
		return;
	}
	csim_view_format_share(share, path, span);
	csim_out_format(o, "%s</td>", share);
}

static void write_pipes(const struct csim_compare *c, struct csim_out *o)
{
	const struct csim_compare_core *cc;
	int64_t most = 0;

	if (c->shown >= c->ncores)
		return;
	cc = &c->cores[c->shown];
	for (size_t k = 0; k < cc->npipes; k++) {
		const struct csim_compare_pipe *p = &c->pipes[cc->pipe0 + k];

		most = p->busy_ns.base > most ? p->busy_ns.base : most;
		most = p->busy_ns.now > most ? p->busy_ns.now : most;
	}
	csim_out_text(o, "<h2 id=\"pipes\">Pipes of ");
	put_span(o, cc->core);
	csim_out_text(o, "</h2>\n<p>NEW's slowest core set against the same core of BASE: busy "
		      "time of each pipe on both sides (bars on one scale), its "
		      "change, and its busy time on the critical path as a share of the core's "
		      "span.</p>\n<table class=\"cmp\">\n<tr><th>pipe</th><th>base \xC2\xB5s</th>"
		      "<th></th><th>new \xC2\xB5s</th><th></th><th>change</th><th></th>"
		      "<th>path % base</th><th>path % new</th></tr>\n");
	for (size_t k = 0; k < cc->npipes; k++) {
		const struct csim_compare_pipe *p = &c->pipes[cc->pipe0 + k];

		csim_out_text(o, "<tr><td class=\"nm\">");
		put_span(o, p->pipe);
		csim_out_text(o, "</td><td>");
		put_us(o, p->busy_ns.base);
		csim_out_text(o, "</td>");
		put_busy_bar(o, p->busy_ns.base, most);
		csim_out_text(o, "<td>");
		put_us(o, p->busy_ns.now);
		csim_out_text(o, "</td>");
		put_busy_bar(o, p->busy_ns.now, most);
		put_change_cells(o, p->busy_ns);
		path_cell(o, p->path_ns.base, cc->span.ns.base);
		path_cell(o, p->path_ns.now, cc->span.ns.now);
		csim_out_text(o, "</tr>\n");
	}
	csim_out_text(o, "</table>\n");
}

/* An estimate's change of the kernel's span ("\xE2\x88\x9223 %"), "-" without. */
static void estimate_cell(struct csim_out *o, int64_t est, int64_t span)
{
	char pc[CSIM_VIEW_NUM] = "-";

	if (est != CSIM_RESULT_NONE && span != CSIM_RESULT_NONE)
		(void)csim_view_format_estimate(pc, est, span, "\xE2\x88\x92");
	csim_out_format(o, "<td>%s</td>", pc);
}

/* The kernel's what-if on each side (SPEC §13): what halving a pipe would buy. */
static void write_estimates(const struct csim_compare *c, struct csim_out *o)
{
	if (c->nestimates == 0)
		return;
	csim_out_text(o, "<h2 id=\"whatif\">What-if</h2>\n<p>The kernel's span with one pipe "
		      "twice as fast on every core, estimated on each side (docs/critical-path.md)."
		      "</p>\n<table class=\"cmp\">\n<tr><th>pipe</th><th>base \xC2\xB5s</th>"
		      "<th>change</th><th>new \xC2\xB5s</th><th>change</th></tr>\n");
	for (size_t k = 0; k < c->nestimates; k++) {
		const struct csim_compare_estimate *e = &c->estimates[k];

		csim_out_text(o, "<tr class=\"whatif\"><td class=\"nm\">");
		put_span(o, e->pipe);
		csim_out_text(o, "</td><td>");
		put_us(o, e->span_ns.base);
		csim_out_text(o, "</td>");
		estimate_cell(o, e->span_ns.base, c->kernel.ns.base);
		csim_out_text(o, "<td>");
		put_us(o, e->span_ns.now);
		csim_out_text(o, "</td>");
		estimate_cell(o, e->span_ns.now, c->kernel.ns.now);
		csim_out_text(o, "</tr>\n");
	}
	csim_out_text(o, "</table>\n");
}

static void put_count(struct csim_out *o, int64_t v)
{
	if (v == CSIM_RESULT_NONE)
		csim_out_text(o, "\xE2\x80\x94");
	else
		csim_out_int(o, v);
}

/* Rows of a list on the page; compare.json has every one. */
#define PAGE_ITEMS 50

static void write_items(struct csim_out *o, const char *id, const char *title,
			const struct csim_compare_item *it, size_t n, int named, int complete)
{
	const size_t shown = n < PAGE_ITEMS ? n : PAGE_ITEMS;

	if (n == 0)
		return;
	/* csim_out_format cuts at 255 bytes: the fixed text goes as text */
	csim_out_format(o, "<h2 id=\"%s\">%s</h2>\n", id, title);
	csim_out_text(o, complete ? "<p>Cycles from API_INSTR on both sides, every one that "
		      "moved, largest change first; \xE2\x80\x94: none on that side."
		      : "<p>Cycles from API_INSTR on both sides, largest change first; "
		      "\xE2\x80\x94: not among that side's top 10.");
	if (shown < n)
		csim_out_format(o, " The first %zu of %zu; compare.json has them all.", shown, n);
	csim_out_text(o, "</p>\n<table>\n<tr>");
	if (named)
		csim_out_text(o, "<th>instruction</th>");
	csim_out_text(o, "<th>source line</th><th>base</th><th>new</th><th>change</th></tr>\n");
	for (size_t i = 0; i < shown; i++) {
		char d[CSIM_COMPARE_CELL];

		csim_out_text(o, "<tr>");
		if (named) {
			csim_out_text(o, "<td class=\"nm\">");
			put_span(o, it[i].name);
			csim_out_text(o, "</td>");
		}
		csim_out_text(o, "<td class=\"nm\">");
		put_span(o, it[i].source);
		csim_out_text(o, "</td><td>");
		put_count(o, it[i].cycles.base);
		csim_out_text(o, "</td><td>");
		put_count(o, it[i].cycles.now);
		csim_compare_format_delta(d, it[i].cycles);
		csim_out_format(o, "</td><td class=\"%s\">", direction(it[i].cycles));
		put_str(o, d);
		csim_out_text(o, "</td></tr>\n");
	}
	csim_out_text(o, "</table>\n");
}

static void write_diags(const struct csim_compare *c, struct csim_out *o)
{
	csim_out_text(o, "<h2 id=\"diagnosis\">Diagnosis</h2>\n");
	if (c->ndiags == 0) {
		csim_out_text(o, "<p>The same rules fired on both sides.</p>\n");
		return;
	}
	csim_out_text(o, "<ul>\n");
	for (size_t i = 0; i < c->ndiags; i++) {
		const struct csim_result_diag *d = c->diags[i].d;

		csim_out_format(o, "<li><span class=\"%s\">%s</span> <span class=\"rule\">",
				c->diags[i].appeared ? "up" : "down",
				c->diags[i].appeared ? "new" : "gone");
		put_span(o, d->id);
		csim_out_text(o, "</span>");
		put_span(o, d->text);
		csim_out_text(o, "</li>\n");
	}
	csim_out_text(o, "</ul>\n");
}

static void dump_row(struct csim_out *o, const struct csim_compare_dump *d)
{
	const struct csim_compare_pair ns = {
		d->base != NULL ? d->base->span_ns : CSIM_RESULT_NONE,
		d->now != NULL ? d->now->span_ns : CSIM_RESULT_NONE
	};
	const struct csim_span none = { NULL, 0 };

	csim_out_text(o, "<tr><td class=\"nm\">");
	put_span(o, d->dump);
	csim_out_text(o, "</td><td>");
	put_us(o, ns.base);
	csim_out_text(o, "</td><td>");
	put_us(o, ns.now);
	csim_out_text(o, "</td>");
	put_change_cells(o, ns);
	csim_out_text(o, "<td class=\"l\">");
	put_span(o, d->base != NULL ? d->base->primary : none);
	csim_out_text(o, " \xE2\x86\x92 ");
	put_span(o, d->now != NULL ? d->now->primary : none);
	csim_out_text(o, "</td></tr>\n");
}

static void write_dumps(const struct csim_compare *c, struct csim_out *o)
{
	static const char *const heads[3] = { "Dumps in both", "Added (in new only)",
					       "Removed (in base only)" };

	for (int part = 0; part < 3; part++) {
		size_t shown = 0;

		for (size_t i = 0; i < c->ndumps; i++) {
			const struct csim_compare_dump *d = &c->dumps[i];
			const int which = d->base == NULL ? 1 : d->now == NULL ? 2 : 0;

			if (which != part)
				continue;
			if (shown++ == 0) {
				csim_out_format(o, "<h2 id=\"dumps%d\">%s</h2>\n", part, heads[part]);
				csim_out_text(o, "<table class=\"cores\">\n<tr><th>dump</th><th>base "
					      "\xC2\xB5s</th><th>new \xC2\xB5s</th><th>change</th>"
					      "<th></th><th>primary diagnosis</th></tr>\n");
			}
			dump_row(o, d);
		}
		if (shown > 0)
			csim_out_text(o, "</table>\n");
	}
}

void csim_compare_html_write(const struct csim_compare *c, struct csim_out *o)
{
	write_head(c, o);
	if (c->kind == CSIM_RESULT_BATCH) {
		csim_out_text(o, "<nav><a href=\"#dumps0\">dumps</a></nav>\n");
		write_dumps(c, o);
	} else {
		csim_out_text(o, "<nav><a href=\"#spans\">spans</a><a href=\"#timelines\">timelines"
			      "</a><a href=\"#pipes\">pipes</a><a href=\"#whatif\">what-if</a>"
			      "<a href=\"#diagnosis\">diagnosis</a></nav>\n");
		write_spans(c, o);
		write_timelines(c, o);
		write_pipes(c, o);
		write_estimates(c, o);
		write_items(o, "instructions", "Instructions whose cycles moved", c->instrs,
			    c->ninstrs, 1, c->complete);
		write_items(o, "lines", "Source lines whose cycles moved", c->lines, c->nlines, 0,
			    c->complete);
		write_diags(c, o);
	}
	csim_out_text(o, "<footer>clean_sim_trace --compare; compare.json holds the same "
		      "figures (docs/compare.md)</footer>\n</body>\n</html>\n");
	csim_out_flush(o);
}
