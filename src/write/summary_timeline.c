#include "write/summary_timeline.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "model/pass_summary.h"
#include "write/summary_view.h"

/* Geometry of the SVG, in px. */
#define LABEL_W 112        /* pipe names, right-aligned before the plot */
#define PLOT_X 120
#define PLOT_W CSIM_TIMELINE_BINS
#define RIGHT_PAD 32
#define TOP 6
#define ROW_H 16
#define ROW_GAP 4
#define AXIS_H 40
/* Pipe names longer than this many characters are cut ("…"). */
#define LABEL_CHARS 14

const char *const csim_timeline_shade_labels[CSIM_TIMELINE_SHADES + 1] = {
	"idle", "busy up to half the column", "up to 1 sub-lane busy",
	"up to 2 sub-lanes", "up to 4 sub-lanes", "more than 4 sub-lanes"
};

const char *const csim_timeline_shade_colors[CSIM_TIMELINE_SHADES + 1] = {
	"#f3f5f7", "#c6dbef", "#9ecae1", "#4292c6", "#2166ac", "#08306b"
};

/* The bins of one core: per row, partial ns and whole-bin starts/ends. */
struct bins {
	int64_t lo, span;      /* the core's first ns and span (at least 1) */
	int64_t w;             /* ns per bin */
	size_t n;              /* bins */
	size_t nrows;
	uint64_t *part;        /* [row * n + bin]: ns of instructions cut by it */
	int64_t *whole;        /* [row * (n + 1) + bin]: +1 where instructions
				  covering whole bins start, -1 where they stop */
	/* the core's critical path (SPEC §13), when it has one: ns of each
	   segment kind per bin, and per row the ns the path is busy on its pipe */
	int has_path;
	uint64_t *kind;        /* [kind * n + bin], enum csim_path_seg_kind */
	uint64_t *on;          /* [row * n + bin] */
};

/* The path's classes by segment kind, and what the legend calls them. */
const char *const csim_timeline_path_classes[CSIM_TIMELINE_PATH_KINDS] = {
	"cpb", "cpw", "cpx", "cpi"
};
const char *const csim_timeline_path_colors[CSIM_TIMELINE_PATH_KINDS + 1] = {
	"#6a3d9a", "#e6a700", "#c0392b", "#bdbdbd", "#6a3d9a"
};
const char *const csim_timeline_path_labels[CSIM_TIMELINE_PATH_KINDS + 1] = {
	"busy", "flag wait", "cross-core wait", "issue", "the path on this pipe"
};

/* [s, e), offsets into the span, spread over acc's bins: ns per bin. */
static void spread(const struct bins *b, uint64_t *acc, int64_t s, int64_t e)
{
	for (size_t i = (size_t)(s / b->w); s < e && i < b->n; i++) {
		int64_t end = (int64_t)(i + 1) * b->w;
		int64_t hi = e < end ? e : end;

		acc[i] += (uint64_t)(hi - s);
		s = hi;
	}
}

/*
 * The path's segments into the bins. They tile the span, so the work is
 * the segments plus the bins, whatever their number.
 */
static void path_fill(struct bins *b, const struct csim_path_core *pc,
		      const struct csim_path_seg *segs, const uint32_t *row_of)
{
	for (size_t k = 0; k < pc->nseg; k++) {
		const struct csim_path_seg *sg = &segs[pc->seg0 + k];
		int64_t s = sg->start - b->lo, e = sg->end - b->lo;

		s = s < 0 ? 0 : s;
		e = e > b->span ? b->span : e;
		if (e <= s)
			continue;
		spread(b, b->kind + (size_t)sg->kind * b->n, s, e);
		if (sg->kind == CSIM_SEG_BUSY && row_of[sg->pipe] != CSIM_NONE)
			spread(b, b->on + row_of[sg->pipe] * b->n, s, e);
	}
}

/* [s, e) of one instruction, clipped to the span, into row r. */
static void bins_add(struct bins *b, size_t r, int64_t s, int64_t e)
{
	uint64_t *part = b->part + r * b->n;
	int64_t *whole = b->whole + r * (b->n + 1);
	size_t b0, b1;

	if (e <= s)
		e = s + 1;   /* a zero-length instruction is in progress in its ns */
	s -= b->lo;
	e -= b->lo;
	if (s < 0)
		s = 0;
	if (e > b->span)
		e = b->span;
	if (s >= b->span)   /* zero-length at the very end: its last ns */
		s = b->span - 1;
	if (e <= s)
		return;
	b0 = (size_t)(s / b->w);
	b1 = (size_t)((e - 1) / b->w);
	if (b0 == b1) {
		part[b0] += (uint64_t)(e - s);
		return;
	}
	part[b0] += (uint64_t)((int64_t)(b0 + 1) * b->w - s);
	part[b1] += (uint64_t)(e - (int64_t)b1 * b->w);
	whole[b0 + 1]++;
	whole[b1]--;
}

/* Ns width of bin i (the last one may be short). */
static int64_t bin_width(const struct bins *b, size_t i)
{
	int64_t end = (int64_t)(i + 1) * b->w;

	return (end > b->span ? b->span : end) - (int64_t)i * b->w;
}

int csim_timeline_shade(uint64_t busy, int64_t w)
{
	uint64_t uw = (uint64_t)w;

	if (busy == 0)
		return 0;
	if (busy * 2 <= uw)
		return 1;
	if (busy <= uw)
		return 2;
	if (busy <= 2 * uw)
		return 3;
	if (busy <= 4 * uw)
		return 4;
	return 5;
}

/* x of ns offset t, in px. */
static double x_of(const struct bins *b, int64_t t)
{
	return PLOT_X + (double)t * PLOT_W / (double)b->span;
}

static int bins_fill(struct bins *b, const struct csim_model *m,
		     const struct csim_summary_core *c, struct csim_error *err)
{
	size_t npipes = m->table.pipes.count;
	uint32_t *row_of = malloc((npipes ? npipes : 1) * sizeof(*row_of));
	int rc = CSIM_OK;

	b->lo = c->first_ns;
	b->span = c->last_ns - c->first_ns > 0 ? c->last_ns - c->first_ns : 1;
	b->w = (b->span + PLOT_W - 1) / PLOT_W;
	b->n = (size_t)((b->span + b->w - 1) / b->w);
	b->nrows = c->npipes < CSIM_TIMELINE_ROWS ? c->npipes : CSIM_TIMELINE_ROWS;
	b->part = calloc(b->nrows * b->n + 1, sizeof(*b->part));
	b->whole = calloc(b->nrows * (b->n + 1) + 1, sizeof(*b->whole));
	b->has_path = (size_t)(c - m->summary.cores) < m->path.ncores;
	b->kind = calloc(CSIM_TIMELINE_PATH_KINDS * b->n + 1, sizeof(*b->kind));
	b->on = calloc(b->nrows * b->n + 1, sizeof(*b->on));
	if (row_of == NULL || b->part == NULL || b->whole == NULL || b->kind == NULL ||
	    b->on == NULL) {
		rc = csim_error_nomem(err, CSIM_E_OUTPUT);
		goto out;
	}
	for (size_t id = 0; id < npipes; id++)
		row_of[id] = CSIM_NONE;
	for (size_t k = 0; k < b->nrows; k++)
		row_of[m->summary.pipes[c->pipe0 + k].pipe] = (uint32_t)k;
	for (size_t i = 0; i < m->table.nslices; i++) {
		const struct csim_slice *sl = &m->table.slices[i];

		/* with --window the span is the window's: slices outside it
		   would be clamped onto its edges */
		if (sl->pid != c->pid || !csim_summary_counts_as_instruction(sl) ||
		    row_of[sl->pipe] == CSIM_NONE ||
		    !csim_window_meets(&m->cut.window, sl->start, sl->end))
			continue;
		bins_add(b, row_of[sl->pipe], sl->start, sl->end);
	}
	if (b->has_path)
		path_fill(b, &m->path.cores[c - m->summary.cores], m->path.segs, row_of);
out:
	free(row_of);
	return rc;
}

/* A pipe name as SVG text, cut to LABEL_CHARS characters. */
static void put_label(struct csim_out *o, const char *name, size_t n)
{
	size_t i = 0, chars = 0;

	while (i < n && chars < LABEL_CHARS) {
		i++;
		while (i < n && ((unsigned char)name[i] & 0xC0) == 0x80)
			i++;
		chars++;
	}
	csim_out_html_escaped(o, name, i);
	if (i < n)
		csim_out_text(o, "\xE2\x80\xA6");   /* … */
}

/* One row: its name, its background, then runs of equally shaded bins. */
/* x and width of bins [i0, i1), clipped to the span. */
static void put_run(struct csim_out *o, const struct bins *b, const char *cls, size_t i0,
		    size_t i1, int y, int h)
{
	double x0 = x_of(b, (int64_t)i0 * b->w);
	int64_t t1 = (int64_t)i1 * b->w;

	csim_out_format(o, "<rect class=\"%s\" x=\"%.1f\" y=\"%d\" width=\"%.1f\" height=\"%d\"/>\n",
			cls, x0, y, x_of(b, t1 > b->span ? b->span : t1) - x0, h);
}

/* The strip under row r where the path is busy on its pipe over most of a bin. */
static void write_on_strip(struct csim_out *o, const struct bins *b, size_t r, int y)
{
	const uint64_t *on = b->on + r * b->n;
	size_t run0 = 0;
	int in = 0;

	for (size_t i = 0; i <= b->n; i++) {
		int now = i < b->n && 2 * on[i] > (uint64_t)bin_width(b, i);

		if (now == in)
			continue;
		if (in)
			put_run(o, b, "cpon", run0, i, y + ROW_H - 3, 3);
		in = now;
		run0 = i;
	}
}

/* The path's own row: each bin drawn as the segment kind holding most of it. */
static void write_path_row(struct csim_out *o, const struct bins *b)
{
	int run_kind = -1;
	size_t run0 = 0;

	csim_out_format(o, "<g class=\"path\"><text x=\"%d\" y=\"%d\">critical path</text>"
			"<rect class=\"bg\" x=\"%d\" y=\"%d\" width=\"%d\" height=\"%d\"/>\n",
			LABEL_W, TOP + ROW_H - 4, PLOT_X, TOP, PLOT_W, ROW_H);
	for (size_t i = 0; i <= b->n; i++) {
		int kind = -1;
		uint64_t most = 0;

		for (int k = 0; i < b->n && k < CSIM_TIMELINE_PATH_KINDS; k++)
			if (b->kind[(size_t)k * b->n + i] > most) {
				most = b->kind[(size_t)k * b->n + i];
				kind = k;
			}
		if (kind == run_kind)
			continue;
		if (run_kind >= 0)
			put_run(o, b, csim_timeline_path_classes[run_kind], run0, i, TOP, ROW_H);
		run_kind = kind;
		run0 = i;
	}
	csim_out_text(o, "</g>\n");
}

static void write_row(struct csim_out *o, const struct csim_model *m, const struct bins *b,
		      size_t r, uint32_t pipe)
{
	const uint64_t *part = b->part + r * b->n;
	const int64_t *whole = b->whole + r * (b->n + 1);
	int y = TOP + (int)(r + (size_t)b->has_path) * (ROW_H + ROW_GAP);
	int64_t depth = 0;
	int run_shade = 0;
	size_t run0 = 0, n;
	const char *name = csim_strtab_get(&m->table.pipes, pipe, &n);

	csim_out_format(o, "<g class=\"lane\"><text x=\"%d\" y=\"%d\">",
			LABEL_W, y + ROW_H - 4);
	put_label(o, name, n);
	csim_out_format(o, "</text><rect class=\"bg\" x=\"%d\" y=\"%d\" width=\"%d\" height=\"%d\"/>\n",
			PLOT_X, y, PLOT_W, ROW_H);
	for (size_t i = 0; i <= b->n; i++) {
		int shade = 0;

		if (i < b->n) {
			int64_t w = bin_width(b, i);

			depth += whole[i];
			shade = csim_timeline_shade(part[i] + (uint64_t)depth * (uint64_t)w, w);
			if (shade == run_shade)
				continue;
		}
		if (run_shade > 0) {
			double x0 = x_of(b, (int64_t)run0 * b->w);
			int64_t t1 = (int64_t)i * b->w;

			csim_out_format(o, "<rect class=\"d%d\" x=\"%.1f\" y=\"%d\" width=\"%.1f\" height=\"%d\"/>\n",
					run_shade, x0, y,
					x_of(b, t1 > b->span ? b->span : t1) - x0, ROW_H);
		}
		run_shade = shade;
		run0 = i;
	}
	if (b->has_path)
		write_on_strip(o, b, r, y);
	csim_out_text(o, "</g>\n");
}

/* A tick step of 1, 2 or 5 times a power of ten, giving at most 10 ticks. */
static int64_t tick_step(int64_t span)
{
	int64_t p = 1;

	for (;;) {
		if (span / p <= 10)
			return p;
		if (span / (2 * p) <= 10)
			return 2 * p;
		if (span / (5 * p) <= 10)
			return 5 * p;
		if (p > INT64_MAX / 100)
			return 10 * p;
		p *= 10;
	}
}

/* µs with 3 decimals, trailing zeros (and a bare point) dropped. */
static void put_us_trimmed(struct csim_out *o, int64_t ns)
{
	char us[CSIM_VIEW_NUM];
	size_t n;

	csim_view_format_us(us, ns);
	n = strlen(us);
	while (n > 0 && us[n - 1] == '0')
		n--;
	if (n > 0 && us[n - 1] == '.')
		n--;
	csim_out_bytes(o, us, n);
}

static void write_axis(struct csim_out *o, const struct bins *b, int y)
{
	int64_t step = tick_step(b->span);

	csim_out_format(o, "<g class=\"axis\"><line x1=\"%d\" y1=\"%d\" x2=\"%d\" y2=\"%d\"/>\n",
			PLOT_X, y, PLOT_X + PLOT_W, y);
	for (int64_t t = 0; t <= b->span; t += step) {
		double x = x_of(b, t);

		csim_out_format(o, "<line x1=\"%.1f\" y1=\"%d\" x2=\"%.1f\" y2=\"%d\"/>"
				"<text x=\"%.1f\" y=\"%d\">", x, y, x, y + 5,
				x, y + 17);
		put_us_trimmed(o, t);
		csim_out_text(o, "</text>\n");
		if (t > INT64_MAX - step)
			break;
	}
	csim_out_format(o, "<text x=\"%d\" y=\"%d\" style=\"text-anchor:end\">\xC2\xB5s</text></g>\n",
			LABEL_W, y + 17);
}

int csim_timeline_write(const struct csim_model *m, const struct csim_summary_core *c,
			struct csim_out *o, struct csim_error *err)
{
	struct bins b;
	int rc, height, plot_h;

	memset(&b, 0, sizeof(b));
	rc = bins_fill(&b, m, c, err);
	if (rc != CSIM_OK)
		goto out;
	plot_h = (int)(b.nrows + (size_t)b.has_path) * (ROW_H + ROW_GAP);
	height = TOP + plot_h + AXIS_H + (c->npipes > b.nrows ? ROW_H : 0);
	csim_out_format(o, "<svg class=\"timeline\" "
			"viewBox=\"0 0 %d %d\" width=\"%d\" height=\"%d\" role=\"img\">\n",
			PLOT_X + PLOT_W + RIGHT_PAD, height, PLOT_X + PLOT_W + RIGHT_PAD, height);
	if (b.has_path)
		write_path_row(o, &b);
	for (size_t r = 0; r < b.nrows; r++)
		write_row(o, m, &b, r, m->summary.pipes[c->pipe0 + r].pipe);
	write_axis(o, &b, TOP + plot_h + 2);
	if (c->npipes > b.nrows)
		csim_out_format(o, "<text x=\"%d\" y=\"%d\">%zu more pipe(s) not drawn: see the "
				"table</text>\n", PLOT_X, TOP + plot_h + AXIS_H + ROW_H - 4,
				c->npipes - b.nrows);
	csim_out_text(o, "</svg>\n");
out:
	free(b.part);
	free(b.whole);
	free(b.kind);
	free(b.on);
	return rc;
}
