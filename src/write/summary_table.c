#include "write/summary_table.h"

#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "model/diag_text.h"
#include "write/summary_table_path.h"
#include "write/summary_table_top.h"
#include "write/summary_view.h"
#include "write/table_text.h"

/* Column widths of a pipe row (docs/summary.md, "The table"). */
#define W_PIPE CSIM_TABLE_W_PIPE
#define W_INSTR 8
#define W_US 11
#define W_SHARE 6
#define W_DEPTH 5
#define W_PRODUCER 10
#define W_CORES 5

/* Room for a cut name (CSIM_TABLE_WIDTH columns, 4 bytes each). */
#define CELL CSIM_TEXT_CELL

/* Room for a formatted number. */
#define NUM CSIM_VIEW_NUM

static const char *pipe_name(const struct csim_model *m, uint32_t pipe, size_t *n)
{
	return csim_strtab_get(&m->table.pipes, pipe, n);
}

static const char *pid_name(const struct csim_model *m, uint32_t pid)
{
	return m->table.pid_names[pid];
}

/* The producer a pipe waited on longest (first in lane order on ties). */
static void fmt_top_producer(char *dst, const struct csim_model *m,
			     const struct csim_summary_pipe *p)
{
	const struct csim_summary_wait *top = csim_view_top_wait(&m->summary, p);
	const char *name;
	size_t n;

	if (top == NULL) {
		dst[0] = '\0';
		return;
	}
	if (top->producer == CSIM_NONE) {
		name = "unknown";
		n = strlen(name);
	} else {
		name = pipe_name(m, top->producer, &n);
	}
	csim_text_fit(dst, name, n, W_PRODUCER);
}

/* "summary: NAME (run K of N)" and "SoC S, clock C MHz (source)". */
static void print_header(FILE *f, const struct csim_model *m, const struct csim_clock *clock)
{
	const struct csim_run_info *run = &m->run;
	const struct csim_basic_info *bi = &run->basic;
	const int has = csim_basic_info_has(bi);
	const struct csim_span name = csim_basic_info_text(bi, CSIM_BASIC_NAME);
	const struct csim_span soc = csim_basic_info_text(bi, CSIM_BASIC_SOC);
	char tail[CELL], mhz[NUM];
	size_t room;

	snprintf(tail, sizeof(tail), " (run %llu of %llu)", (unsigned long long)run->run,
		 (unsigned long long)run->choice.runs);
	fputs("summary: ", f);
	room = CSIM_TABLE_WIDTH - 9 - strlen(tail);
	if (name.p != NULL)
		csim_text_put(f, name.p, name.n, room, 0);
	else
		fputs(has ? "(no op name)" : "(no OP_BASIC_INFO)", f);
	fprintf(f, "%s\n", tail);
	if (soc.p != NULL) {
		fputs("SoC ", f);
		csim_text_put(f, soc.p, soc.n, 32, 0);
		fputs(", ", f);
	}
	if (clock == NULL) {
		fprintf(f, "clock unknown: %s\n", csim_view_clock_unknown(&m->summary));
		return;
	}
	csim_view_format_mhz(mhz, clock);
	fprintf(f, "clock %s MHz (%s)\n", mhz, csim_clock_source_name(clock->source));
}

/* Where a wrapped "cut:" line goes on. */
#define CUT_INDENT 5

/*
 * One option of the cut line ("--core " and its pattern, or the window)
 * after *used columns, on a line of its own when it does not fit; a
 * pattern wider than a line is broken between characters: every pattern
 * is printed whole.
 */
static void put_cut_item(FILE *f, const char *head, const char *item, size_t n, size_t *used)
{
	const size_t width = strlen(head) + csim_text_columns(item, n);

	if (*used + 1 + width > CSIM_TABLE_WIDTH && *used > CUT_INDENT) {
		fprintf(f, "\n%*s%s", CUT_INDENT, "", head);
		*used = CUT_INDENT + strlen(head);
	} else {
		fprintf(f, " %s", head);
		*used += 1 + strlen(head);
	}
	while (n > 0) {
		size_t take = csim_text_fit_bytes(item, n, CSIM_TABLE_WIDTH - *used);

		csim_text_put(f, item, take, CSIM_TABLE_WIDTH - *used, 0);
		*used += csim_text_columns(item, take);
		item += take;
		n -= take;
		if (n > 0) {
			fprintf(f, "\n%*s", CUT_INDENT, "");
			*used = CUT_INDENT;
		}
	}
}

/*
 * Under the header when --core or --window cut the trace: the options as
 * given ("cut: --core P --window A:B us", wrapped at 80 columns), then what
 * the summary below covers (docs/summary.md, "The table").
 */
static void print_cut(FILE *f, const struct csim_cut *c)
{
	const int windowed = csim_window_active(&c->window);
	char item[2 * NUM + 16], a[NUM] = "", b[NUM] = "";
	size_t used = 4;

	if (!csim_cut_active(c))
		return;
	fputs("cut:", f);
	for (size_t i = 0; i < c->ncores; i++)
		put_cut_item(f, "--core ", c->cores[i], strlen(c->cores[i]), &used);
	if (windowed) {
		if (c->window.has_from)
			csim_view_format_us(a, c->window.from_ns);
		if (c->window.has_to)
			csim_view_format_us(b, c->window.to_ns);
		snprintf(item, sizeof(item), "--window %s:%s us", a, b);
		put_cut_item(f, "", item, strlen(item), &used);
	}
	const char *covers = csim_view_cut_covers(c);

	fputs("\n  ", f);
	csim_text_put_wrapped(f, covers, strlen(covers), 2);
}

static void print_pipe_head(FILE *f)
{
	fprintf(f, "  %-*s %*s %*s %*s %*s %*s  %s\n", W_PIPE, "pipe", W_INSTR, "instr",
		W_US, "busy us", W_SHARE, "busy%", W_DEPTH, "depth", W_US, "blocked us",
		"top producer");
}

static void print_pipe(FILE *f, const struct csim_model *m,
		       const struct csim_summary_pipe *p, int64_t span)
{
	char busy[NUM], share[NUM], wait[NUM], producer[CELL], depth[2 * NUM];
	const char *name;
	size_t n;

	/* depth, and after a slash the rows the trace has when they differ */
	if (p->has_rows && p->rows != p->depth)
		snprintf(depth, sizeof(depth), "%u/%u", (unsigned)p->depth, (unsigned)p->rows);
	else
		snprintf(depth, sizeof(depth), "%u", (unsigned)p->depth);
	csim_view_format_us(busy, p->busy_ns);
	csim_view_format_share(share, p->busy_ns, span);
	csim_view_format_us(wait, p->wait_ns);
	fmt_top_producer(producer, m, p);
	name = pipe_name(m, p->pipe, &n);
	fputs("  ", f);
	csim_text_put(f, name, n, W_PIPE, 1);
	fprintf(f, " %*llu %*s %*s %*s %*s", W_INSTR, (unsigned long long)p->instructions,
		W_US, busy, W_SHARE, share, W_DEPTH, depth, W_US, wait);
	if (p->kept)
		fprintf(f, "%s%s\n", producer[0] ? "  " : "", producer);
	else
		fprintf(f, "  %-*s dropped\n", W_PRODUCER, producer);
}


/* What a line under a core's pipes tells of each pipe. */
enum api_line { LINE_CYCLES, LINE_BANDWIDTH, LINE_OVERLAP };

/*
 * "PIPE N[ (util U %)],", for bandwidth "PIPE B.b GB/s,", for overlap
 * "PIPE S.s %,"; 0: nothing to say.
 */
static size_t api_item(char *dst, size_t cap, const struct csim_model *m,
		       const struct csim_summary_pipe *p, enum api_line what)
{
	char name[CELL], util[NUM] = "";
	size_t n;
	const char *raw = pipe_name(m, p->pipe, &n);

	csim_text_fit(name, raw, n, W_PIPE);
	if (what == LINE_OVERLAP) {
		if (!p->has_overlap)
			return 0;
		csim_view_format_share(util, p->overlap_ns, p->busy_ns);
		return (size_t)snprintf(dst, cap, "%s %s %%,", name, util);
	}
	if (what == LINE_BANDWIDTH) {
		int64_t mbps;

		if (!p->has_bytes || p->busy_ns <= 0)
			return 0;
		mbps = csim_view_bandwidth_mbps(p->bytes, p->busy_ns);
		mbps = mbps > INT64_MAX - 50 ? INT64_MAX / 100 : (mbps + 50) / 100;  /* tenths */
		return (size_t)snprintf(dst, cap, "%s %lld.%lld GB/s,", name,
					(long long)(mbps / 10), (long long)(mbps % 10));
	}
	if (!p->has_instr)
		return 0;
	if (p->util_cycles > 0)
		snprintf(util, sizeof(util), " (util %.1f %%)",
			 p->util_weighted / (double)p->util_cycles);
	return (size_t)snprintf(dst, cap, "%s %llu%s,", name,
				(unsigned long long)p->instr_cycles, util);
}

/* "  LABEL item, item, ..." wrapped at 80 columns; nothing when no item. */
static void print_api_line(FILE *f, const struct csim_model *m,
			   const struct csim_summary_core *c, const char *label, enum api_line what)
{
	char text[8 * CELL];
	size_t n = 0;

	for (size_t k = 0; k < c->npipes && n + CELL < sizeof(text); k++) {
		size_t w = api_item(text + n, CELL, m, &m->summary.pipes[c->pipe0 + k], what);

		if (w > 0 && w < CELL) {
			n += w;
			text[n++] = ' ';
		}
	}
	if (n == 0)
		return;
	fprintf(f, "  %s ", label);
	csim_text_put_wrapped(f, text, n - 2, 3 + strlen(label));   /* without the last ", " */
}

/*
 * What API_INSTR, the moved bytes and the MTE pipes' overlap with compute
 * (what double buffering buys) say of the core's pipes.
 */
static void print_core_api(FILE *f, const struct csim_model *m, const struct csim_summary_core *c)
{
	print_api_line(f, m, c, "API_INSTR cycles:", LINE_CYCLES);
	print_api_line(f, m, c, "bandwidth:", LINE_BANDWIDTH);
	print_api_line(f, m, c, "overlap with compute:", LINE_OVERLAP);
}

/* A share of the span as a whole percent, rounded half up. */
/* "[LABEL ]core NAME: span X us (C cycles)[, cross-core wait W us]" and its pipes. */
static void print_core(FILE *f, const struct csim_model *m, const struct csim_summary_core *c,
		       const struct csim_clock *clock, const char *label)
{
	int64_t span = c->last_ns - c->first_ns;
	char tail[CELL], us[NUM], wait[NUM], cycles[2 * NUM] = "";
	const char *name = pid_name(m, c->pid);
	size_t used = strlen(label) + 5 + 1;

	csim_view_format_us(us, span);
	if (clock != NULL)
		snprintf(cycles, sizeof(cycles), " (%lld cycles)",
			 (long long)csim_clock_cycles(clock, span));
	if (c->cross_wait_ns > 0) {
		csim_view_format_us(wait, c->cross_wait_ns);
		snprintf(tail, sizeof(tail), ": span %s us%s, cross-core wait %s us", us, cycles, wait);
	} else {
		snprintf(tail, sizeof(tail), ": span %s us%s", us, cycles);
	}
	used += strlen(tail);
	fprintf(f, "\n%score ", label);
	csim_text_put(f, name, strlen(name), used < CSIM_TABLE_WIDTH - 8 ? CSIM_TABLE_WIDTH - used : 8, 0);
	fprintf(f, "%s\n", tail);
	if (c->npipes == 0)
		return;
	print_pipe_head(f);
	for (size_t k = 0; k < c->npipes; k++)
		print_pipe(f, m, &m->summary.pipes[c->pipe0 + k], span);
	print_core_api(f, m, c);
	if ((size_t)(c - m->summary.cores) < m->path.ncores)
		csim_table_path_print(f, m, (size_t)(c - m->summary.cores));
}

static void print_balance(FILE *f, const struct csim_model *m)
{
	const struct csim_summary *s = &m->summary;
	const struct csim_summary_core *slow = &s->cores[s->slowest];
	const char *name = pid_name(m, slow->pid);
	char lo[NUM], mid[NUM], hi[NUM], ratio[NUM], tail[CELL];
	size_t used;

	csim_view_format_us(lo, s->min_span_ns);
	csim_view_format_us(mid, s->median_span_ns);
	csim_view_format_us(hi, s->max_span_ns);
	fprintf(f, "\nload balance over %zu core%s: span min %s, median %s, max %s us\n",
		s->ncores, s->ncores == 1 ? "" : "s", lo, mid, hi);
	if (csim_view_format_ratio(ratio, s->max_span_ns, s->median_span_ns)) {
		snprintf(tail, sizeof(tail), " (%s us, %sx the median)", hi, ratio);
	} else {
		snprintf(tail, sizeof(tail), " (%s us)", hi);
	}
	used = 14 + strlen(tail);
	fputs("slowest core: ", f);
	csim_text_put(f, name, strlen(name), used < CSIM_TABLE_WIDTH - 8 ? CSIM_TABLE_WIDTH - used : 8, 0);
	fprintf(f, "%s\n", tail);
	csim_table_path_kernel_print(f, m);
}

static void print_totals(FILE *f, const struct csim_model *m,
			 const struct csim_view_total *t, size_t n)
{
	fprintf(f, "\nall %zu cores, per pipe (busy and blocked time summed over cores):\n",
		m->summary.ncores);
	fprintf(f, "  %-*s %*s %*s %*s %*s\n", W_PIPE, "pipe", W_CORES, "cores",
		W_INSTR + 2, "instr", W_US + 2, "busy us", W_US + 2, "blocked us");
	for (size_t k = 0; k < n; k++) {
		char busy[NUM], wait[NUM];

		csim_view_format_us(busy, t[k].busy_ns);
		csim_view_format_us(wait, t[k].wait_ns);
		fputs("  ", f);
		csim_text_put(f, t[k].name, t[k].n, W_PIPE, 1);
		fprintf(f, " %*zu %*llu %*s %*s%s\n", W_CORES, t[k].cores, W_INSTR + 2,
			(unsigned long long)t[k].instructions, W_US + 2, busy, W_US + 2, wait,
			t[k].kept ? "" : "  dropped");
	}
}

/*
 * Many cores: the slowest, the median and the fastest (first in core order
 * on ties); a core that is two of them is printed once with both labels.
 */
static void print_condensed(FILE *f, const struct csim_model *m, const struct csim_clock *clock)
{
	const struct csim_summary *s = &m->summary;
	size_t pick[CSIM_VIEW_PICKS];

	csim_view_pick_cores(s, pick);
	for (size_t i = 0; i < CSIM_VIEW_PICKS; i++) {
		char label[CELL] = "";
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
		strcat(label, " ");
		print_core(f, m, &s->cores[pick[i]], clock, label);
	}
}

int csim_summary_table_prepare(struct csim_summary_table *t, const struct csim_model *m,
			       struct csim_error *err)
{
	t->m = m;
	t->totals = NULL;
	t->ntotals = 0;
	if (m->summary.ncores > CSIM_TABLE_FULL_CORES) {
		t->totals = csim_view_sum_pipes(m, &t->ntotals);
		if (t->totals == NULL)
			return csim_error_nomem(err, CSIM_E_INPUT);
	}
	return CSIM_OK;
}

/*
 * The diagnosis lines: what the numbers above likely mean (SPEC §10), in
 * rank order, the primary cause marked. Each text names its cores itself.
 */
static void print_diagnosis(FILE *f, const struct csim_model *m)
{
	const struct csim_diagnosis *dg = &m->diagnosis;

	if (dg->n == 0)
		return;
	fputs("\ndiagnosis (thresholds in docs/summary.md):\n", f);
	for (size_t i = 0; i < dg->n; i++) {
		const struct csim_diag *d = &dg->lines[i];
		char text[CSIM_DIAG_TEXT_MAX];
		size_t n = csim_diag_text(m, d, text, sizeof(text));
		const char *mark = d->primary ? "- primary: " : "- ";

		if (n >= sizeof(text))
			n = sizeof(text) - 1;
		fputs(mark, f);
		csim_text_put_wrapped(f, text, n, strlen(mark));
	}
}

void csim_summary_table_print(const struct csim_summary_table *t, FILE *f)
{
	const struct csim_model *m = t->m;
	const struct csim_summary *s = &m->summary;
	struct csim_clock clock;
	const struct csim_clock *cp = csim_clock_of_run(&m->run, s->derived_mhz, &clock) ? &clock : NULL;

	fputc('\n', f);
	print_header(f, m, cp);
	print_cut(f, &m->cut);
	if (s->ncores == 0) {
		fputs("\nno core: the trace holds no instruction slice\n", f);
		return;
	}
	if (t->totals != NULL) {
		print_condensed(f, m, cp);
		print_totals(f, m, t->totals, t->ntotals);
	} else {
		for (size_t i = 0; i < s->ncores; i++)
			print_core(f, m, &s->cores[i], cp, "");
	}
	csim_table_top_print(f, m);
	if (s->ncores > 1)   /* one core has no balance to speak of */
		print_balance(f, m);
	print_diagnosis(f, m);
}

void csim_summary_table_release(struct csim_summary_table *t)
{
	free(t->totals);
	t->totals = NULL;
	t->ntotals = 0;
}
