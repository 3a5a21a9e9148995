#include "write/summary_view.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

void csim_view_format_us(char *dst, int64_t ns)
{
	uint64_t a = ns < 0 ? (uint64_t)0 - (uint64_t)ns : (uint64_t)ns;

	snprintf(dst, CSIM_VIEW_NUM, "%s%llu.%03u", ns < 0 ? "-" : "",
		 (unsigned long long)(a / 1000), (unsigned)(a % 1000));
}

int64_t csim_view_permille(int64_t num, int64_t den)
{
	if (den <= 0 || num < 0)
		return -1;
	/* num <= den <= ~9.2e18 / 1000 holds for any span a trace can give
	   (2^63 ns is 292 years); past it, divide first. */
	if (num > INT64_MAX / 2000)
		return (num / (den / 2000 + 1) + 1) / 2;
	return (num * 2000 / den + 1) / 2;
}

void csim_view_format_share(char *dst, int64_t num, int64_t den)
{
	int64_t permille = csim_view_permille(num, den);

	if (permille < 0)
		snprintf(dst, CSIM_VIEW_NUM, "-");
	else
		snprintf(dst, CSIM_VIEW_NUM, "%lld.%lld", (long long)(permille / 10),
			 (long long)(permille % 10));
}

int csim_view_format_ratio(char *dst, int64_t num, int64_t den)
{
	int64_t tenths;

	if (den <= 0)
		return 0;
	tenths = num > INT64_MAX / 20 ? num / (den / 10 + 1) : (num * 20 / den + 1) / 2;
	snprintf(dst, CSIM_VIEW_NUM, "%lld.%lld", (long long)(tenths / 10), (long long)(tenths % 10));
	return 1;
}

void csim_view_format_mhz(char *dst, const struct csim_clock *clock)
{
	long long milli = llround(clock->mhz * 1000.0);

	if (milli % 1000 == 0)
		snprintf(dst, CSIM_VIEW_NUM, "%lld", milli / 1000);
	else
		snprintf(dst, CSIM_VIEW_NUM, "%lld.%03lld", milli / 1000, milli % 1000);
}

const char *csim_view_clock_unknown(const struct csim_summary *s)
{
	switch (s->clock_gap) {
	case CSIM_CLOCK_GAP_WINDOW:
		return "no OP_BASIC_INFO; not derived under --window (whole-run cycles)";
	case CSIM_CLOCK_GAP_NO_MATCH:
		return "no OP_BASIC_INFO; no pipe's API_INSTR executions equal its slices";
	case CSIM_CLOCK_GAP_DISAGREE:
		return "no OP_BASIC_INFO; API_INSTR cycles/slice time differ by pipe";
	case CSIM_CLOCK_GAP_NOT_SIM:
		return "no OP_BASIC_INFO; API_INSTR cycles/slice time: no simulator clock";
	case CSIM_CLOCK_GAP_NO_INSTR:
		break;
	}
	return "no OP_BASIC_INFO, no API_INSTR cycles to derive it from";
}

const struct csim_summary_wait *csim_view_top_wait(const struct csim_summary *s,
						   const struct csim_summary_pipe *p)
{
	const struct csim_summary_wait *top = NULL;

	for (size_t k = 0; k < p->nwaits; k++) {
		const struct csim_summary_wait *w = &s->waits[p->wait0 + k];

		if (top == NULL || w->ns > top->ns)
			top = w;
	}
	return p->wait_ns == 0 ? NULL : top;
}

/* Lane order, as the summary orders a core's pipes. */
static int total_cmp(const void *a, const void *b)
{
	const struct csim_view_total *x = a, *y = b;
	int c;

	if (x->order != y->order)
		return x->order < y->order ? -1 : 1;
	c = memcmp(x->name, y->name, x->n < y->n ? x->n : y->n);
	if (c != 0)
		return c;
	return x->n < y->n ? -1 : x->n > y->n;
}

struct csim_view_total *csim_view_sum_pipes(const struct csim_model *m, size_t *n)
{
	const struct csim_summary *s = &m->summary;
	size_t npipes = m->table.pipes.count, k = 0;
	struct csim_view_total *t = calloc(npipes ? npipes : 1, sizeof(*t));

	if (t == NULL)
		return NULL;
	for (size_t i = 0; i < s->npipes; i++) {
		const struct csim_summary_pipe *p = &s->pipes[i];
		struct csim_view_total *pt = &t[p->pipe];

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
		t[k].name = csim_strtab_get(&m->table.pipes, id, &t[k].n);
		k++;
	}
	qsort(t, k, sizeof(*t), total_cmp);
	*n = k;
	return t;
}

const char *const csim_view_pick_labels[CSIM_VIEW_PICKS] = { "slowest", "median", "fastest" };

/* Index of the first core whose span is `span`. */
static size_t core_with_span(const struct csim_summary *s, int64_t span)
{
	for (size_t i = 0; i < s->ncores; i++)
		if (s->cores[i].last_ns - s->cores[i].first_ns == span)
			return i;
	return 0;
}

void csim_view_pick_cores(const struct csim_summary *s, size_t pick[CSIM_VIEW_PICKS])
{
	pick[0] = s->slowest;
	pick[1] = core_with_span(s, s->median_span_ns);
	pick[2] = core_with_span(s, s->min_span_ns);
}

const char *csim_view_core_name(const struct csim_model *m, size_t core, size_t *n)
{
	const char *name = m->table.pid_names[m->summary.cores[core].pid];
	char label[32];
	size_t len = strlen(name), ln;

	snprintf(label, sizeof(label), " run %llu", (unsigned long long)m->run_label);
	ln = strlen(label);
	*n = m->run_label != 0 && len >= ln && strcmp(name + len - ln, label) == 0 ? len - ln
										  : len;
	return name;
}

/* Cores are few (a few dozen): a scan of the other run per core. */
size_t csim_view_core_in(const struct csim_model *a, const struct csim_model *b, size_t j)
{
	size_t nb, na;
	const char *name = csim_view_core_name(b, j, &nb);

	for (size_t i = 0; i < a->summary.ncores; i++) {
		const char *other = csim_view_core_name(a, i, &na);

		if (na == nb && memcmp(other, name, nb) == 0)
			return i;
	}
	return SIZE_MAX;
}

int64_t csim_view_change_bp(int64_t before, int64_t after)
{
	int64_t d = after - before;

	if (before <= 0)
		return 0;
	return (d >= 0 ? d * 10000 + before / 2 : d * 10000 - before / 2) / before;
}

long long csim_view_format_estimate(char *dst, int64_t est, int64_t span, const char *minus)
{
	int64_t d = est - span;
	long long pc;

	if (span <= 0) {
		strcpy(dst, "-");
		return 0;
	}
	pc = (long long)((200 * (d < 0 ? -d : d) + span) / (2 * span));
	snprintf(dst, CSIM_VIEW_NUM, "%s%lld %%", pc == 0 ? "" : d < 0 ? minus : "+", pc);
	return pc;
}

int64_t csim_view_bandwidth_mbps(uint64_t bytes, int64_t busy_ns)
{
	/* bytes per ns is GB/s; in MB/s, rounded half up, without overflow
	   for any byte count a run can move */
	long double v = (long double)bytes * 1000.0L / (long double)busy_ns;

	return v >= 9.2e18L ? INT64_MAX : (int64_t)(v + 0.5L);
}

const char *csim_view_cut_covers(const struct csim_cut *c)
{
	const int windowed = csim_window_active(&c->window);

	if (!csim_cut_active(c))
		return NULL;
	if (!windowed)
		return "the summary covers the cores --core keeps, API_INSTR's figures and "
		       "instr_metrics.json too";
	if (c->ncores > 0)
		return "the summary covers the cores --core keeps, within the window; API_INSTR's "
		       "figures and instr_metrics.json (no times) those cores' whole run";
	return "the summary covers the window, on every core; API_INSTR's figures and "
	       "instr_metrics.json (no times) the whole run";
}
