#include "write/compare_table.h"

#include <string.h>

#include "write/summary_table_top.h"
#include "write/summary_view.h"
#include "write/table_text.h"

/* Columns (docs/compare.md, "The table"). */
#define W_NAME 28      /* a core */
#define W_DUMP 38      /* a batch's dump */
#define W_US 11
#define W_CHANGE 9
#define W_CYCLES 9
#define W_MNEMONIC 25
/* A source line too wide for the rest of its instruction's line goes
   under it, starting at the instruction's column. */
#define W_SOURCE_INDENT (2 + 3 * (W_CYCLES + 1) + 1)

static int64_t abs64(int64_t v)
{
	return v < 0 ? -v : v;
}

void csim_compare_format_change(char *dst, struct csim_compare_pair p)
{
	int64_t bp, tenths;

	if (p.base == CSIM_RESULT_NONE || p.now == CSIM_RESULT_NONE) {
		strcpy(dst, p.base == CSIM_RESULT_NONE && p.now != CSIM_RESULT_NONE ? "new"
			    : p.now == CSIM_RESULT_NONE && p.base != CSIM_RESULT_NONE ? "gone" : "-");
		return;
	}
	if (p.base == 0) {
		strcpy(dst, p.now == 0 ? "+0.0 %" : "from 0");
		return;
	}
	bp = csim_view_change_bp(p.base, p.now);
	tenths = (abs64(bp) + 5) / 10;
	snprintf(dst, CSIM_COMPARE_CELL, "%c%lld.%lld %%", bp < 0 ? '-' : '+',
		 (long long)(tenths / 10), (long long)(tenths % 10));
}

void csim_compare_format_delta(char *dst, struct csim_compare_pair p)
{
	const int64_t d = csim_compare_delta(p);

	if (d == CSIM_RESULT_NONE)
		strcpy(dst, "-");
	else
		snprintf(dst, CSIM_COMPARE_CELL, "%s%lld", d > 0 ? "+" : "", (long long)d);
}

static void format_us(char *dst, int64_t ns)
{
	if (ns == CSIM_RESULT_NONE)
		strcpy(dst, "-");
	else
		csim_view_format_us(dst, ns);
}

static void format_count(char *dst, int64_t v)
{
	if (v == CSIM_RESULT_NONE)
		strcpy(dst, "-");
	else
		snprintf(dst, CSIM_COMPARE_CELL, "%lld", (long long)v);
}

/* A share of the core's span in percent with one decimal; "-" without. */
static void format_share(char *dst, int64_t part, int64_t span)
{
	if (part == CSIM_RESULT_NONE || span == CSIM_RESULT_NONE || span <= 0)
		strcpy(dst, "-");
	else
		csim_view_format_share(dst, part, span);
}

/* The change of a share in percentage points ("+7.1"); "-" without. */
static void format_points(char *dst, struct csim_compare_pair part, struct csim_compare_pair span)
{
	int64_t b, n, d;

	if (part.base == CSIM_RESULT_NONE || part.now == CSIM_RESULT_NONE ||
	    span.base == CSIM_RESULT_NONE || span.now == CSIM_RESULT_NONE || span.base <= 0 ||
	    span.now <= 0) {
		strcpy(dst, "-");
		return;
	}
	b = csim_view_permille(part.base, span.base);
	n = csim_view_permille(part.now, span.now);
	d = n - b;
	snprintf(dst, CSIM_COMPARE_CELL, "%c%lld.%lld", d < 0 ? '-' : '+',
		 (long long)(abs64(d) / 10), (long long)(abs64(d) % 10));
}

static void put_span_row(FILE *f, const char *name, size_t n, size_t width,
			 const struct csim_compare_span *s)
{
	char b[CSIM_COMPARE_CELL], nw[CSIM_COMPARE_CELL], ch[CSIM_COMPARE_CELL];
	char cy[CSIM_COMPARE_CELL];

	format_us(b, s->ns.base);
	format_us(nw, s->ns.now);
	csim_compare_format_change(ch, s->ns);
	csim_compare_format_delta(cy, s->cycles);
	fputs("  ", f);
	if (width == W_DUMP) {
		char cell[CSIM_TEXT_CELL];
		size_t cols = csim_text_fit_tail(cell, name, n, width);

		fputs(cell, f);
		for (; cols < width; cols++)
			fputc(' ', f);
	} else {
		csim_text_put(f, name, n, width, 1);
	}
	fprintf(f, " %*s %*s %*s", W_US, b, W_US, nw, W_CHANGE, ch);
	if (width == W_NAME)
		fprintf(f, " %*s", W_CHANGE, cy);
	fputc('\n', f);
}

/* "op NAME, SoC NAME, clock N MHz" of one run. */
static void put_run_line(FILE *f, const char *label, const struct csim_result_run *r)
{
	fprintf(f, "%s", label);
	if (r->op.p != NULL) {
		fputs("op ", f);
		csim_text_put(f, r->op.p, r->op.n, 30, 0);
		fputs(", ", f);
	}
	if (r->soc.p != NULL) {
		fputs("SoC ", f);
		csim_text_put(f, r->soc.p, r->soc.n, 20, 0);
		fputs(", ", f);
	}
	if (r->mhz > 0)
		fprintf(f, "clock %.3f MHz\n", r->mhz);
	else
		fputs("clock unknown\n", f);
}

static void print_spans(FILE *f, const struct csim_compare *c)
{
	static const char kernel[] = "kernel (slowest core)";

	fprintf(f, "\n%-*s %*s %*s %*s %*s\n", W_NAME + 2, "span", W_US, "base us", W_US,
		"new us", W_CHANGE, "change", W_CHANGE, "cycles");
	put_span_row(f, kernel, sizeof(kernel) - 1, W_NAME, &c->kernel);
	for (size_t i = 0; i < c->ncores; i++)
		put_span_row(f, c->cores[i].core.p, c->cores[i].core.n, W_NAME, &c->cores[i].span);
}

static void print_pipes(FILE *f, const struct csim_compare *c)
{
	const struct csim_compare_core *cc;
	struct csim_compare_pair span;

	if (c->shown >= c->ncores || c->cores[c->shown].npipes == 0)
		return;
	cc = &c->cores[c->shown];
	span = cc->span.ns;
	fputs("\npipes of ", f);
	csim_text_put(f, cc->core.p, cc->core.n, 40, 0);
	fputs(" (the slowest core):\n", f);
	fprintf(f, "  %-*s %*s %*s %*s  %*s %*s %*s\n", CSIM_TABLE_W_PIPE, "pipe", W_US - 1,
		"busy us", W_US - 1, "new", W_CHANGE, "change", 7, "path %", 6, "new", 6, "points");
	for (size_t k = 0; k < cc->npipes; k++) {
		const struct csim_compare_pipe *p = &c->pipes[cc->pipe0 + k];
		char b[CSIM_COMPARE_CELL], nw[CSIM_COMPARE_CELL], ch[CSIM_COMPARE_CELL];
		char pb[CSIM_COMPARE_CELL], pn[CSIM_COMPARE_CELL], pd[CSIM_COMPARE_CELL];

		format_us(b, p->busy_ns.base);
		format_us(nw, p->busy_ns.now);
		csim_compare_format_change(ch, p->busy_ns);
		format_share(pb, p->path_ns.base, span.base);
		format_share(pn, p->path_ns.now, span.now);
		format_points(pd, p->path_ns, span);
		fputs("  ", f);
		csim_text_put(f, p->pipe.p, p->pipe.n, CSIM_TABLE_W_PIPE, 1);
		fprintf(f, " %*s %*s %*s  %*s %*s %*s\n", W_US - 1, b, W_US - 1, nw, W_CHANGE, ch, 7,
			pb, 6, pn, 6, pd);
	}
}

static int64_t moved(struct csim_compare_pair p)
{
	const int64_t b = p.base != CSIM_RESULT_NONE ? p.base : 0;
	const int64_t n = p.now != CSIM_RESULT_NONE ? p.now : 0;

	return n - b;
}

/* The items whose cycles moved, at most CSIM_TABLE_TOP; names when instructions. */
static void print_items(FILE *f, const char *title, const struct csim_compare_item *it,
			size_t n, int named, int complete)
{
	const size_t used = 2 + W_CYCLES + 1 + W_CYCLES + 1 + W_CYCLES + 2 +
			    (named ? W_MNEMONIC + 1 : 0);
	size_t shown = 0;

	for (size_t i = 0; i < n && shown < CSIM_TABLE_TOP; i++) {
		char b[CSIM_COMPARE_CELL], nw[CSIM_COMPARE_CELL], d[CSIM_COMPARE_CELL];
		char src[CSIM_TEXT_CELL];
		const struct csim_span s = it[i].source.p != NULL ? it[i].source
								  : csim_span_of("-", 1);

		if (moved(it[i].cycles) == 0)
			continue;
		if (shown++ == 0) {
			fprintf(f, "\n%s (-: %s):\n", title,
				complete ? "none on that side" : "not in that side's top 10");
			fprintf(f, "  %*s %*s %*s  ", W_CYCLES, "base", W_CYCLES, "new", W_CYCLES,
				"change");
			if (named)
				fprintf(f, "%-*s ", W_MNEMONIC, "instruction");
			fputs("source line\n", f);
		}
		format_count(b, it[i].cycles.base);
		format_count(nw, it[i].cycles.now);
		csim_compare_format_delta(d, it[i].cycles);
		if (d[0] == '-' && d[1] == '\0')
			snprintf(d, sizeof(d), "%s%lld", moved(it[i].cycles) > 0 ? "+" : "",
				 (long long)moved(it[i].cycles));
		fprintf(f, "  %*s %*s %*s  ", W_CYCLES, b, W_CYCLES, nw, W_CYCLES, d);
		if (named && csim_text_columns(s.p, s.n) > CSIM_TABLE_WIDTH - used) {
			/* the source line whole, under the instruction */
			csim_text_put(f, it[i].name.p, it[i].name.n, W_MNEMONIC, 0);
			csim_text_fit_tail(src, s.p, s.n, CSIM_TABLE_WIDTH - W_SOURCE_INDENT);
			fprintf(f, "\n%*s%s\n", W_SOURCE_INDENT, "", src);
			continue;
		}
		if (named) {
			csim_text_put(f, it[i].name.p, it[i].name.n, W_MNEMONIC, 1);
			fputc(' ', f);
		}
		csim_text_fit_tail(src, s.p, s.n, CSIM_TABLE_WIDTH - used);
		fprintf(f, "%s\n", src);
	}
}

static void print_diags(FILE *f, const struct csim_compare *c)
{
	if (c->ndiags == 0)
		return;
	fputs("\ndiagnosis lines that changed:\n", f);
	for (size_t i = 0; i < c->ndiags; i++) {
		const struct csim_result_diag *d = c->diags[i].d;
		const char *mark = c->diags[i].appeared ? "+ new: " : "- gone: ";
		const struct csim_span t = d->text.p != NULL ? d->text : d->id;

		fputs(mark, f);
		csim_text_put_wrapped(f, t.p, t.n, strlen(mark));
	}
}

/* A what-if's change of the kernel's span ("-23 %"), "-" without. */
static void format_estimate(char *dst, int64_t est, int64_t span)
{
	if (est == CSIM_RESULT_NONE || span == CSIM_RESULT_NONE)
		strcpy(dst, "-");
	else
		(void)csim_view_format_estimate(dst, est, span, "-");
}

/* The kernel's what-if on each side (SPEC §13): what shortening a pipe buys now. */
static void print_estimates(FILE *f, const struct csim_compare *c)
{
	if (c->nestimates == 0)
		return;
	fputs("\nthe kernel with one pipe 2x faster (estimates):\n", f);
	fprintf(f, "  %-*s %*s %*s\n", CSIM_TABLE_W_PIPE, "pipe", W_CHANGE, "base", W_CHANGE, "new");
	for (size_t k = 0; k < c->nestimates && k < CSIM_TABLE_TOP; k++) {
		const struct csim_compare_estimate *e = &c->estimates[k];
		char b[CSIM_COMPARE_CELL], nw[CSIM_COMPARE_CELL];

		format_estimate(b, e->span_ns.base, c->kernel.ns.base);
		format_estimate(nw, e->span_ns.now, c->kernel.ns.now);
		fputs("  ", f);
		csim_text_put(f, e->pipe.p, e->pipe.n, CSIM_TABLE_W_PIPE, 1);
		fprintf(f, " %*s %*s\n", W_CHANGE, b, W_CHANGE, nw);
	}
}

static void print_single(FILE *f, const struct csim_compare *c)
{
	if (c->other == 0) {
		put_run_line(f, "", c->now_run);
	} else {
		put_run_line(f, "base: ", c->base_run);
		put_run_line(f, "new:  ", c->now_run);
	}
	print_spans(f, c);
	print_pipes(f, c);
	print_estimates(f, c);
	print_items(f, "instructions whose cycles moved most", c->instrs, c->ninstrs, 1,
		    c->complete);
	print_items(f, "source lines whose cycles moved most", c->lines, c->nlines, 0,
		    c->complete);
	print_diags(f, c);
}

/* "failed" for a failed row, else its span. */
static struct csim_compare_span dump_span(const struct csim_compare_dump *d)
{
	struct csim_compare_span s;

	s.ns.base = d->base != NULL ? d->base->span_ns : CSIM_RESULT_NONE;
	s.ns.now = d->now != NULL ? d->now->span_ns : CSIM_RESULT_NONE;
	s.cycles.base = d->base != NULL ? d->base->span_cycles : CSIM_RESULT_NONE;
	s.cycles.now = d->now != NULL ? d->now->span_cycles : CSIM_RESULT_NONE;
	return s;
}

static void put_primary(FILE *f, const struct csim_compare_dump *d)
{
	const struct csim_span b = d->base->primary, n = d->now->primary;

	if (csim_result_same(b, n))
		return;
	fputs("    primary diagnosis: ", f);
	csim_text_put(f, b.p != NULL ? b.p : "none", b.p != NULL ? b.n : 4, 30, 0);
	fputs(" -> ", f);
	csim_text_put(f, n.p != NULL ? n.p : "none", n.p != NULL ? n.n : 4, 30, 0);
	fputc('\n', f);
}

static void put_status(FILE *f, const struct csim_compare_dump *d)
{
	const int bf = d->base != NULL && !d->base->ok, nf = d->now != NULL && !d->now->ok;

	if (bf || nf)
		fprintf(f, "    failed in %s\n", bf && nf ? "both" : bf ? "base" : "new");
}

static void put_list(FILE *f, const char *label, const struct csim_compare *c, int added)
{
	size_t n = added ? c->nadded : c->nremoved;

	if (n == 0)
		return;
	fprintf(f, "\n%s (%zu):\n", label, n);
	for (size_t i = 0; i < c->ndumps; i++) {
		const struct csim_compare_dump *d = &c->dumps[i];
		char cell[CSIM_TEXT_CELL];

		if ((added && d->base == NULL) || (!added && d->now == NULL)) {
			csim_text_fit_tail(cell, d->dump.p, d->dump.n, CSIM_TABLE_WIDTH - 2);
			fprintf(f, "  %s\n", cell);
		}
	}
}

static void print_batch(FILE *f, const struct csim_compare *c)
{
	const size_t both = c->ndumps - c->nadded - c->nremoved;

	fprintf(f, "batch: %zu dump(s) in both, %zu added, %zu removed\n", both, c->nadded,
		c->nremoved);
	if (both > 0)
		fprintf(f, "\n%-*s %*s %*s %*s\n", W_DUMP + 2, "dump (slowest core's span)", W_US,
			"base us", W_US, "new us", W_CHANGE, "change");
	for (size_t i = 0; i < c->ndumps; i++) {
		const struct csim_compare_dump *d = &c->dumps[i];
		const struct csim_compare_span s = dump_span(d);

		if (d->base == NULL || d->now == NULL)
			continue;
		put_span_row(f, d->dump.p, d->dump.n, W_DUMP, &s);
		put_status(f, d);
		if (d->base->ok && d->now->ok)
			put_primary(f, d);
	}
	put_list(f, "added", c, 1);
	put_list(f, "removed", c, 0);
}

void csim_compare_table_print(const struct csim_compare *c, FILE *f)
{
	char cell[CSIM_TEXT_CELL];

	const char *b = c->base_label[0] != '\0' ? c->base_label : c->base->file;
	const char *n = c->now_label[0] != '\0' ? c->now_label : c->now->file;

	/* "compare: " and " -> ": 13 columns, 33 for each file */
	fputs("compare: ", f);
	csim_text_fit_tail(cell, b, strlen(b), 33);
	fputs(cell, f);
	fputs(" -> ", f);
	csim_text_fit_tail(cell, n, strlen(n), 33);
	fprintf(f, "%s\n", cell);
	if (c->kind == CSIM_RESULT_BATCH)
		print_batch(f, c);
	else
		print_single(f, c);
}
