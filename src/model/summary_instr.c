#include "model/summary_instr.h"

#include <stdlib.h>
#include <string.h>

#include "model/clock.h"

/* Agreement the derived clock needs between pipes and with a simulator
   clock (relative). */
#define CLOCK_AGREEMENT 0.01

static void fill_pipe(const struct csim_model *m, const char *core, size_t core_n,
		      struct csim_summary_pipe *p)
{
	size_t pipe_n;
	const char *pipe = csim_strtab_get(&m->table.pipes, p->pipe, &pipe_n);
	const struct csim_instr_group *g =
		csim_instr_stats_group(&m->instr, core, core_n, pipe, pipe_n);

	if (g == NULL || (g->cycles == 0 && g->sync_cycles == 0 && g->executed == 0))
		return;   /* the row ran on other cores only */
	p->has_instr = 1;
	p->instr_cycles = g->cycles;
	p->instr_sync_cycles = g->sync_cycles;
	p->instr_executed = g->executed;
	p->util_weighted = g->util_weighted;
	p->util_cycles = g->util_cycles;
}

/* Cycles per µs of one pipe, or 0 when its counts do not match its slices. */
static double pipe_clock(const struct csim_summary_pipe *p)
{
	if (!p->has_instr || p->instructions == 0 || p->instr_executed != p->instructions ||
	    p->instr_cycles == 0 || p->slice_ns <= 0)
		return 0;
	return (double)p->instr_cycles * 1000.0 / (double)p->slice_ns;
}

/* The clock, or 0 and *gap saying why there is none. */
static double derive_clock(const struct csim_summary *s, enum csim_clock_gap *gap)
{
	double cycles = 0, ns = 0, lo = 0, hi = 0, mhz;
	int any = 0;

	for (size_t i = 0; i < s->npipes; i++) {
		double c = pipe_clock(&s->pipes[i]);

		if (c == 0)
			continue;
		lo = any && lo < c ? lo : c;
		hi = any && hi > c ? hi : c;
		any = 1;
		cycles += (double)s->pipes[i].instr_cycles;
		ns += (double)s->pipes[i].slice_ns;
	}
	*gap = CSIM_CLOCK_GAP_NO_MATCH;
	if (!any)
		return 0;
	mhz = cycles * 1000.0 / ns;
	*gap = CSIM_CLOCK_GAP_DISAGREE;
	if (hi - lo > CLOCK_AGREEMENT * mhz)
		return 0;
	*gap = CSIM_CLOCK_GAP_NOT_SIM;
	return csim_clock_snap(mhz, CLOCK_AGREEMENT);
}

void csim_summary_add_instr(struct csim_model *m)
{
	struct csim_summary *s = &m->summary;

	s->derived_mhz = 0;
	s->clock_gap = CSIM_CLOCK_GAP_NO_INSTR;
	if (!m->instr.loaded)
		return;
	for (size_t c = 0; c < s->ncores; c++) {
		const struct csim_summary_core *core = &s->cores[c];
		const char *name = m->table.pid_names[core->pid];

		for (size_t k = 0; k < core->npipes; k++)
			fill_pipe(m, name, strlen(name), &s->pipes[core->pipe0 + k]);
	}
	/* With --window the slices are clipped while API_INSTR's cycles are the
	   whole run's: their ratio would be no clock (docs/decisions.md, Cuts). */
	s->clock_gap = CSIM_CLOCK_GAP_WINDOW;
	if (!csim_window_active(&m->cut.window))
		s->derived_mhz = derive_clock(s, &s->clock_gap);
}

/* A row with its line: what the lines are summed from. */
struct line_row {
	uint32_t source;
	uint32_t has_addr;
	uint64_t addr, cycles, executed;
};

static int line_row_cmp(const void *a, const void *b)
{
	const struct line_row *x = a, *y = b;

	if (x->source != y->source)
		return x->source < y->source ? -1 : 1;
	if (x->has_addr != y->has_addr)
		return x->has_addr < y->has_addr ? -1 : 1;
	return (x->addr > y->addr) - (x->addr < y->addr);
}

/* Whether line a ranks before line b: more cycles, then byte order. */
static int line_before(const struct csim_instr_stats *st, const struct csim_summary_line *a,
		       const struct csim_summary_line *b)
{
	size_t an, bn;
	const char *at, *bt;
	int c;

	if (a->cycles != b->cycles)
		return a->cycles > b->cycles;
	at = csim_strtab_get(&st->text, a->source, &an);
	bt = csim_strtab_get(&st->text, b->source, &bn);
	c = memcmp(at, bt, an < bn ? an : bn);
	return c != 0 ? c < 0 : an < bn;
}

/* Puts line l among the best ones in s, when it is one of them. */
static void rank_line(const struct csim_instr_stats *st, struct csim_summary *s,
		      const struct csim_summary_line *l)
{
	size_t at = s->nlines;

	if (l->cycles == 0)
		return;
	while (at > 0 && line_before(st, l, &s->lines[at - 1]))
		at--;
	if (at == CSIM_SUMMARY_TOP_LINES)
		return;
	if (s->nlines < CSIM_SUMMARY_TOP_LINES)
		s->nlines++;
	memmove(&s->lines[at + 1], &s->lines[at], (s->nlines - 1 - at) * sizeof(s->lines[0]));
	s->lines[at] = *l;
}

int csim_summary_add_lines(struct csim_model *m, struct csim_error *err)
{
	const struct csim_instr_stats *st = &m->instr;
	struct csim_summary *s = &m->summary;
	struct line_row *v;
	size_t n = 0;

	s->nlines = 0;
	if (!st->loaded || st->nrows == 0)
		return CSIM_OK;
	v = malloc(st->nrows * sizeof(*v));
	if (v == NULL)
		return csim_error_nomem(err, CSIM_E_INPUT);
	for (size_t i = 0; i < st->nrows; i++) {
		const struct csim_instr_row_sum *r = &st->rows[i];
		uint32_t source = r->source;

		/* The API_FILE ranges are read after the rows: looked up here. */
		if (source == CSIM_NONE && r->has_addr) {
			const struct csim_instr_line *l = csim_instr_stats_range(st, r->addr);

			source = l != NULL ? l->source : CSIM_NONE;
		}
		if (source != CSIM_NONE)
			v[n++] = (struct line_row){ source, r->has_addr, r->addr, r->cycles,
						    r->executed };
	}
	qsort(v, n, sizeof(*v), line_row_cmp);
	for (size_t i = 0; i < n;) {
		struct csim_summary_line l = { v[i].source, 0, 0, 0 };
		int counted = 0;
		uint64_t last = 0;

		for (; i < n && v[i].source == l.source; i++) {
			l.cycles = v[i].cycles > UINT64_MAX - l.cycles ? UINT64_MAX
								       : l.cycles + v[i].cycles;
			l.executed = v[i].executed > UINT64_MAX - l.executed
				     ? UINT64_MAX : l.executed + v[i].executed;
			/* sorted by address: a new one differs from the last counted */
			if (v[i].cycles > 0 && v[i].has_addr && (!counted || v[i].addr != last)) {
				l.addresses++;
				last = v[i].addr;
				counted = 1;
			}
		}
		rank_line(st, s, &l);
	}
	free(v);
	return CSIM_OK;
}
