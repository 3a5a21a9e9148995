#include "model/summary_instr.h"

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

static double derive_clock(const struct csim_summary *s)
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
	if (!any)
		return 0;
	mhz = cycles * 1000.0 / ns;
	if (hi - lo > CLOCK_AGREEMENT * mhz)
		return 0;
	return csim_clock_snap(mhz, CLOCK_AGREEMENT);
}

void csim_summary_add_instr(struct csim_model *m)
{
	struct csim_summary *s = &m->summary;

	s->derived_mhz = 0;
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
	s->derived_mhz = csim_window_active(&m->cut.window) ? 0 : derive_clock(s);
}
