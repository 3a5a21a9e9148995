#include "write/summary_table.h"

#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "model/diagnosis.h"

/* Column widths of a pipe row (docs/summary.md, "The table"). */
#define W_PIPE 11
#define W_INSTR 8
#define W_US 11
#define W_SHARE 6
#define W_DEPTH 5
#define W_PRODUCER 10
#define W_CORES 5

/* Room for a cut name (CSIM_TABLE_WIDTH columns, 4 bytes each). */
#define CELL (4 * CSIM_TABLE_WIDTH + 1)

/* Room for a formatted number (an int64 in µs, a ratio, a clock). */
#define NUM 32

/*
 * name[0..n) cut to `width` columns into dst: one column per UTF-8
 * character (wide characters are rare in pid and lane names), a control
 * byte shown as '?' so that no name can break a line, and a cut name ending
 * in '~'. Returns the columns used.
 */
static size_t fit_name(char *dst, const char *name, size_t n, size_t width)
{
	size_t cols = 0, len = 0, i = 0;

	while (i < n && cols < width) {
		size_t end = i + 1;

		while (end < n && ((unsigned char)name[end] & 0xC0) == 0x80)
			end++;
		if (cols + 1 == width && end < n) {
			dst[len++] = '~';
			cols++;
			break;
		}
		if ((unsigned char)name[i] < 0x20 || name[i] == 0x7F) {
			dst[len++] = '?';
		} else {
			memcpy(dst + len, name + i, end - i);
			len += end - i;
		}
		cols++;
		i = end;
	}
	dst[len] = '\0';
	return cols;
}

/* Prints a cut name, padded with spaces to `width` when pad. */
static void put_name(FILE *f, const char *name, size_t n, size_t width, int pad)
{
	char buf[CELL];
	size_t cols = fit_name(buf, name, n, width);

	fputs(buf, f);
	while (pad && cols++ < width)
		fputc(' ', f);
}

static const char *pipe_name(const struct csim_model *m, uint32_t pipe, size_t *n)
{
	return csim_strtab_get(&m->table.pipes, pipe, n);
}

static const char *pid_name(const struct csim_model *m, uint32_t pid)
{
	return m->table.pid_names[pid];
}

/* ns as µs with exactly 3 decimals (as summary.json's *_us fields). */
static void fmt_us(char *dst, int64_t ns)
{
	uint64_t a = ns < 0 ? (uint64_t)0 - (uint64_t)ns : (uint64_t)ns;

	snprintf(dst, NUM, "%s%llu.%03u", ns < 0 ? "-" : "",
		 (unsigned long long)(a / 1000), (unsigned)(a % 1000));
}

/* num/den as a percentage with one decimal, rounded half up; "-" for den 0. */
static void fmt_share(char *dst, int64_t num, int64_t den)
{
	int64_t permille;

	if (den <= 0 || num < 0) {
		snprintf(dst, NUM, "-");
		return;
	}
	/* num <= den <= ~9.2e18 / 1000 holds for any span a trace can give
	   (2^63 ns is 292 years); past it, divide first. */
	if (num > INT64_MAX / 2000)
		permille = (num / (den / 2000 + 1) + 1) / 2;
	else
		permille = (num * 2000 / den + 1) / 2;
	snprintf(dst, NUM, "%lld.%lld", (long long)(permille / 10), (long long)(permille % 10));
}

/* The producer a pipe waited on longest (first in lane order on ties). */
static void fmt_top_producer(char *dst, const struct csim_model *m,
			     const struct csim_summary_pipe *p)
{
	const struct csim_summary_wait *top = NULL;
	const char *name;
	size_t n;

	for (size_t k = 0; k < p->nwaits; k++) {
		const struct csim_summary_wait *w = &m->summary.waits[p->wait0 + k];

		if (top == NULL || w->ns > top->ns)
			top = w;
	}
	if (top == NULL || p->wait_ns == 0) {
		dst[0] = '\0';
		return;
	}
	if (top->producer == CSIM_NONE) {
		name = "unknown";
		n = strlen(name);
	} else {
		name = pipe_name(m, top->producer, &n);
	}
	fit_name(dst, name, n, W_PRODUCER);
}

/* A string value's text without its quotes (the producer's escapes stay). */

/* Clock in MHz: "1650", or "1649.500" when it has a fraction. */
static void fmt_mhz(char *dst, const struct csim_clock *clock)
{
	long long milli = llround(clock->mhz * 1000.0);

	if (milli % 1000 == 0)
		snprintf(dst, NUM, "%lld", milli / 1000);
	else
		snprintf(dst, NUM, "%lld.%03lld", milli / 1000, milli % 1000);
}

/* "summary: NAME (run K of N)" and "SoC S, clock C MHz (source)". */
static void print_header(FILE *f, const struct csim_summary_run *run,
			 const struct csim_clock *clock)
{
	const struct csim_basic_info *bi = run->basic;
	int has = bi != NULL && bi->payload != NULL;
	struct csim_span name = has ? csim_basic_info_text(bi, CSIM_BASIC_NAME) : csim_span_of(NULL, 0);
	struct csim_span soc = has ? csim_basic_info_text(bi, CSIM_BASIC_SOC) : csim_span_of(NULL, 0);
	char tail[CELL], mhz[NUM];
	size_t room;

	snprintf(tail, sizeof(tail), " (run %llu of %llu%s)", (unsigned long long)run->run,
		 (unsigned long long)run->runs, run->merged ? ", merged" : "");
	fputs("summary: ", f);
	room = CSIM_TABLE_WIDTH - 9 - strlen(tail);
	if (name.p != NULL)
		put_name(f, name.p, name.n, room, 0);
	else
		fputs(has ? "(no op name)" : "(no OP_BASIC_INFO)", f);
	fprintf(f, "%s\n", tail);
	if (soc.p != NULL) {
		fputs("SoC ", f);
		put_name(f, soc.p, soc.n, 32, 0);
		fputs(", ", f);
	}
	if (clock == NULL) {
		fputs("clock unknown: no cycles\n", f);
		return;
	}
	fmt_mhz(mhz, clock);
	fprintf(f, "clock %s MHz (%s)\n", mhz, csim_clock_source_name(clock->source));
}

/*
 * "cut: --core P --window A:B us; ..." under the header when --core or
 * --window cut the trace: the summary below covers the window, and every
 * core (docs/summary.md).
 */
static void print_cut(FILE *f, const struct csim_cut *c)
{
	char line[2 * CELL], a[NUM] = "", b[NUM] = "";
	size_t len = 0;

	if (!csim_cut_active(c))
		return;
	len += (size_t)snprintf(line, sizeof(line), "cut:");
	for (size_t i = 0; i < c->ncores && len < sizeof(line); i++)
		len += (size_t)snprintf(line + len, sizeof(line) - len, " --core %s", c->cores[i]);
	if (c->window.has_from)
		fmt_us(a, c->window.from_ns);
	if (c->window.has_to)
		fmt_us(b, c->window.to_ns);
	if (len < sizeof(line))
		snprintf(line + len, sizeof(line) - len, "%s%s%s%s%s",
			 csim_window_active(&c->window) ? " --window " : "", a,
			 csim_window_active(&c->window) ? ":" : "", b,
			 csim_window_active(&c->window) ? " us: summary of the window, all cores"
			 : ": trace only, summary of all cores");
	put_name(f, line, strlen(line), CSIM_TABLE_WIDTH, 0);
	fputc('\n', f);
}

static void print_pipe_head(FILE *f)
{
	fprintf(f, "  %-*s %*s %*s %*s %*s %*s  %s\n", W_PIPE, "pipe", W_INSTR, "instr",
		W_US, "busy us", W_SHARE, "busy%", W_DEPTH, "depth", W_US, "wait us",
		"top producer");
}

static void print_pipe(FILE *f, const struct csim_model *m,
		       const struct csim_summary_pipe *p, int64_t span)
{
	char busy[NUM], share[NUM], wait[NUM], producer[CELL];
	const char *name;
	size_t n;

	fmt_us(busy, p->busy_ns);
	fmt_share(share, p->busy_ns, span);
	fmt_us(wait, p->wait_ns);
	fmt_top_producer(producer, m, p);
	name = pipe_name(m, p->pipe, &n);
	fputs("  ", f);
	put_name(f, name, n, W_PIPE, 1);
	fprintf(f, " %*llu %*s %*s %*u %*s", W_INSTR, (unsigned long long)p->instructions,
		W_US, busy, W_SHARE, share, W_DEPTH, (unsigned)p->peak_depth, W_US, wait);
	if (p->kept)
		fprintf(f, "%s%s\n", producer[0] ? "  " : "", producer);
	else
		fprintf(f, "  %-*s dropped\n", W_PRODUCER, producer);
}

/* "[LABEL ]core NAME: span X us (C cycles)[, cross-core wait W us]" and its pipes. */
static void print_core(FILE *f, const struct csim_model *m, const struct csim_summary_core *c,
		       const struct csim_clock *clock, const char *label)
{
	int64_t span = c->last_ns - c->first_ns;
	char tail[CELL], us[NUM], wait[NUM], cycles[2 * NUM] = "";
	const char *name = pid_name(m, c->pid);
	size_t used = strlen(label) + 5 + 1;

	fmt_us(us, span);
	if (clock != NULL)
		snprintf(cycles, sizeof(cycles), " (%lld cycles)",
			 (long long)csim_summary_cycles(clock, span));
	if (c->cross_wait_ns > 0) {
		fmt_us(wait, c->cross_wait_ns);
		snprintf(tail, sizeof(tail), ": span %s us%s, cross-core wait %s us", us, cycles, wait);
	} else {
		snprintf(tail, sizeof(tail), ": span %s us%s", us, cycles);
	}
	used += strlen(tail);
	fprintf(f, "\n%score ", label);
	put_name(f, name, strlen(name), used < CSIM_TABLE_WIDTH - 8 ? CSIM_TABLE_WIDTH - used : 8, 0);
	fprintf(f, "%s\n", tail);
	if (c->npipes == 0)
		return;
	print_pipe_head(f);
	for (size_t k = 0; k < c->npipes; k++)
		print_pipe(f, m, &m->summary.pipes[c->pipe0 + k], span);
}

static void print_balance(FILE *f, const struct csim_model *m)
{
	const struct csim_summary *s = &m->summary;
	const struct csim_summary_core *slow = &s->cores[s->slowest];
	const char *name = pid_name(m, slow->pid);
	char lo[NUM], mid[NUM], hi[NUM], tail[CELL];
	size_t used;

	fmt_us(lo, s->min_span_ns);
	fmt_us(mid, s->median_span_ns);
	fmt_us(hi, s->max_span_ns);
	fprintf(f, "\nload balance over %zu core%s: span min %s, median %s, max %s us\n",
		s->ncores, s->ncores == 1 ? "" : "s", lo, mid, hi);
	if (s->median_span_ns > 0) {
		int64_t tenths = s->max_span_ns > INT64_MAX / 20
				 ? s->max_span_ns / (s->median_span_ns / 10 + 1)
				 : (s->max_span_ns * 20 / s->median_span_ns + 1) / 2;

		snprintf(tail, sizeof(tail), " (%s us, %lld.%lldx the median)", hi,
			 (long long)(tenths / 10), (long long)(tenths % 10));
	} else {
		snprintf(tail, sizeof(tail), " (%s us)", hi);
	}
	used = 14 + strlen(tail);
	fputs("slowest core: ", f);
	put_name(f, name, strlen(name), used < CSIM_TABLE_WIDTH - 8 ? CSIM_TABLE_WIDTH - used : 8, 0);
	fprintf(f, "%s\n", tail);
}

/* Index of the first core whose span is `span`. */
static size_t core_with_span(const struct csim_summary *s, int64_t span)
{
	for (size_t i = 0; i < s->ncores; i++)
		if (s->cores[i].last_ns - s->cores[i].first_ns == span)
			return i;
	return 0;
}

/* Per-pipe sums over every core, for the condensed form. */
struct csim_table_total {
	uint32_t pipe;
	int order;             /* sort key: pipe table order, then name */
	const char *name;
	size_t n;
	int kept;
	size_t cores;
	uint64_t instructions;
	int64_t busy_ns, wait_ns;
};

/* Lane order, as the summary orders a core's pipes. */
static int total_cmp(const void *a, const void *b)
{
	const struct csim_table_total *x = a, *y = b;
	int c;

	if (x->order != y->order)
		return x->order < y->order ? -1 : 1;
	c = memcmp(x->name, y->name, x->n < y->n ? x->n : y->n);
	if (c != 0)
		return c;
	return x->n < y->n ? -1 : x->n > y->n;
}

/* The totals of each pipe present, in lane order; *n of them. */
static struct csim_table_total *sum_pipes(const struct csim_model *m, size_t *n)
{
	const struct csim_summary *s = &m->summary;
	size_t npipes = m->table.pipes.count, k = 0;
	struct csim_table_total *t = calloc(npipes ? npipes : 1, sizeof(*t));

	if (t == NULL)
		return NULL;
	for (size_t i = 0; i < s->npipes; i++) {
		const struct csim_summary_pipe *p = &s->pipes[i];
		struct csim_table_total *pt = &t[p->pipe];

		pt->cores++;
		pt->kept = p->kept;
		pt->instructions += p->instructions;
		pt->busy_ns += p->busy_ns;
		pt->wait_ns += p->wait_ns;
	}
	for (uint32_t id = 0; id < npipes; id++) {
		if (t[id].cores == 0)
			continue;
		t[k] = t[id];
		t[k].pipe = id;
		t[k].order = m->pipes[id].info->order;
		t[k].name = pipe_name(m, id, &t[k].n);
		k++;
	}
	qsort(t, k, sizeof(*t), total_cmp);
	*n = k;
	return t;
}

static void print_totals(FILE *f, const struct csim_model *m,
			 const struct csim_table_total *t, size_t n)
{
	fprintf(f, "\nall %zu cores, per pipe (busy and wait summed over cores):\n",
		m->summary.ncores);
	fprintf(f, "  %-*s %*s %*s %*s %*s\n", W_PIPE, "pipe", W_CORES, "cores",
		W_INSTR + 2, "instr", W_US + 2, "busy us", W_US + 2, "wait us");
	for (size_t k = 0; k < n; k++) {
		char busy[NUM], wait[NUM];

		fmt_us(busy, t[k].busy_ns);
		fmt_us(wait, t[k].wait_ns);
		fputs("  ", f);
		put_name(f, t[k].name, t[k].n, W_PIPE, 1);
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
	static const char *const labels[3] = { "slowest", "median", "fastest" };
	size_t pick[3];

	pick[0] = s->slowest;
	pick[1] = core_with_span(s, s->median_span_ns);
	pick[2] = core_with_span(s, s->min_span_ns);
	for (size_t i = 0; i < 3; i++) {
		char label[CELL] = "";
		int seen = 0;

		for (size_t j = 0; j < i; j++)
			seen |= pick[j] == pick[i];
		if (seen)
			continue;
		for (size_t j = i; j < 3; j++) {
			if (pick[j] != pick[i])
				continue;
			strcat(label, label[0] ? ", " : "");
			strcat(label, labels[j]);
		}
		strcat(label, " ");
		print_core(f, m, &s->cores[pick[i]], clock, label);
	}
}

int csim_summary_table_prepare(struct csim_summary_table *t, const struct csim_model *m,
			       const struct csim_summary_run *run, struct csim_error *err)
{
	t->m = m;
	t->run = *run;
	t->totals = NULL;
	t->ntotals = 0;
	if (m->summary.ncores > CSIM_TABLE_FULL_CORES) {
		t->totals = sum_pipes(m, &t->ntotals);
		if (t->totals == NULL)
			return csim_error_nomem(err, CSIM_E_INPUT);
	}
	return CSIM_OK;
}

/* Columns of a diagnosis prefix (its core name) before the text. */
#define W_DIAG_CORE 30
/* Later lines of a wrapped diagnosis start here. */
#define DIAG_INDENT 2

/*
 * A diagnosis line's text, word-wrapped to the table's width: the first
 * line continues after `used` columns, later ones start at DIAG_INDENT.
 * Words go through fit_name, so a hostile pipe name inside the text can
 * neither break a line nor widen one.
 */
static void put_wrapped(FILE *f, const char *text, size_t n, size_t used)
{
	size_t i = 0;
	int fresh = 1;

	while (i < n) {
		char buf[CELL];
		size_t end = i, cols;

		while (end < n && text[end] != ' ')
			end++;
		if (end > i) {
			cols = fit_name(buf, text + i, end - i, CSIM_TABLE_WIDTH - DIAG_INDENT);
			if (!fresh && used + 1 + cols > CSIM_TABLE_WIDTH) {
				fprintf(f, "\n%*s", DIAG_INDENT, "");
				used = DIAG_INDENT;
			} else if (!fresh) {
				fputc(' ', f);
				used++;
			}
			/* only a first word after a long core name can still be too wide */
			cols = fit_name(buf, text + i, end - i, CSIM_TABLE_WIDTH - used);
			fputs(buf, f);
			used += cols;
			fresh = 0;
		}
		i = end + 1;
	}
	fputc('\n', f);
}

/* The diagnosis lines: what the numbers above likely mean (SPEC §10). */
static void print_diagnosis(FILE *f, const struct csim_model *m)
{
	const struct csim_diagnosis *dg = &m->diagnosis;

	if (dg->n == 0)
		return;
	fputs("\ndiagnosis (thresholds in docs/summary.md):\n", f);
	for (size_t i = 0; i < dg->n; i++) {
		const struct csim_diag *d = &dg->lines[i];
		char text[CSIM_DIAG_TEXT_MAX];
		size_t n = csim_diag_text(m, d, text, sizeof(text)), used = 2;
		char core[CELL];

		if (n >= sizeof(text))
			n = sizeof(text) - 1;
		fputs("- ", f);
		if (d->core != CSIM_DIAG_ALL) {
			const char *name = pid_name(m, m->summary.cores[d->core].pid);

			used += fit_name(core, name, strlen(name), W_DIAG_CORE) + 2;
			fputs(core, f);
			fputs(": ", f);
		}
		put_wrapped(f, text, n, used);
	}
}

void csim_summary_table_print(const struct csim_summary_table *t, FILE *f)
{
	const struct csim_model *m = t->m;
	const struct csim_summary *s = &m->summary;
	struct csim_clock clock;
	const struct csim_clock *cp = csim_summary_run_clock(&t->run, s, &clock) ? &clock : NULL;

	fputc('\n', f);
	print_header(f, &t->run, cp);
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
