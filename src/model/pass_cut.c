#include "model/pass_cut.h"

#include <fnmatch.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

const struct csim_pass_def csim_pass_cut_def = {
	csim_pass_cut,
	CSIM_PART_LANES | CSIM_PART_ARROWS | CSIM_PART_INTRA | CSIM_PART_ORDER,
	CSIM_PART_CUT
};

/* How many cores the message of a pattern that matches none names. */
#define NAMED_CORES 6

/* Scratch of one run of the pass, per pid id and per lane. */
struct work {
	size_t *rank;            /* index in processes[], or SIZE_MAX */
	size_t *lane_thread0;    /* threads[] index of the lane's sub-lane 0 */
};

/* Whether name is one of the n first listed. */
static int listed(const char *const *names, size_t n, const char *name)
{
	for (size_t i = 0; i < n; i++)
		if (strcmp(names[i], name) == 0)
			return 1;
	return 0;
}

/*
 * "a, b, c, ..." of the first distinct cores of the runs, cut to fit buf;
 * the runs side by side mostly repeat one set of names.
 */
static void name_cores(const struct csim_model *const *runs, size_t nruns,
		       char *buf, size_t size)
{
	const char *names[NAMED_CORES];
	size_t nnames = 0, len = 0;
	int more = 0;

	buf[0] = '\0';
	for (size_t r = 0; r < nruns; r++) {
		const struct csim_model *m = runs[r];

		for (size_t i = 0; i < m->nprocesses; i++) {
			const char *name = m->table.pid_names[m->processes[i]];
			int k;

			if (listed(names, nnames, name))
				continue;
			if (nnames == NAMED_CORES) {
				more = 1;
				break;
			}
			k = snprintf(buf + len, size - len, "%s%s", nnames ? ", " : "", name);
			if (k < 0 || (size_t)k >= size - len)
				return;   /* cut: the message stays one line of sane length */
			len += (size_t)k;
			names[nnames++] = name;
		}
	}
	if (more)
		snprintf(buf + len, size - len, ", ...");
}

/* An error is one line: a control byte of a pid (or pattern) shows as '?'. */
static int one_line(struct csim_error *err)
{
	for (char *p = err->message; *p != '\0'; p++)
		if ((unsigned char)*p < 0x20 || *p == 0x7f)
			*p = '?';
	return err->code;
}

static int no_match(const struct csim_model *const *runs, size_t nruns,
		    const char *pattern, struct csim_error *err)
{
	char cores[512];
	size_t ncores = 0;

	for (size_t r = 0; r < nruns; r++)
		ncores += runs[r]->nprocesses;
	if (ncores == 0) {
		csim_error_set(err, CSIM_E_USAGE, CSIM_NO_OFFSET,
			       "option --core '%s' matches no core of the run: the trace has no core",
			       pattern);
		return one_line(err);
	}
	name_cores(runs, nruns, cores, sizeof(cores));
	if (nruns == 1)
		csim_error_set(err, CSIM_E_USAGE, CSIM_NO_OFFSET,
			       "option --core '%s' matches no core of the run; its %zu core(s): %s",
			       pattern, ncores, cores);
	else
		csim_error_set(err, CSIM_E_USAGE, CSIM_NO_OFFSET,
			       "option --core '%s' matches no core of any of the %zu runs; their cores: %s",
			       pattern, nruns, cores);
	return one_line(err);
}

/*
 * pid_in of every pid and core_hit of every pattern; fails on the first
 * pattern that matches none, unless another run may hold its core. A pid
 * with no slice at all holds only counters of the whole kernel (MTE
 * Throughput): no core, so --core keeps it.
 */
static int match_pids(const struct csim_model *m, struct csim_cut *c,
		      unsigned char *pid_in, struct csim_error *err)
{
	const struct csim_table *t = &m->table;

	for (uint32_t pid = 0; pid < t->pids.count; pid++)
		pid_in[pid] = 1;
	for (size_t i = 0; c->ncores > 0 && i < t->nslices; i++)
		pid_in[t->slices[i].pid] = 0;
	for (size_t k = 0; k < c->ncores; k++) {
		int hit = 0;

		for (uint32_t pid = 0; pid < t->pids.count; pid++) {
			if (fnmatch(c->cores[k], t->pid_names[pid], 0) == 0) {
				pid_in[pid] = 1;
				hit = 1;
			}
		}
		c->core_hit[k] = (unsigned char)hit;
		if (!hit && !c->across_runs)
			return no_match(&m, 1, c->cores[k], err);
	}
	return CSIM_OK;
}

/* slice_in, and the threads and processes their slices put in. */
static void cut_slices(struct csim_model *m, const struct work *w)
{
	struct csim_cut *c = &m->cut;
	const struct csim_table *t = &m->table;

	for (size_t i = 0; i < t->nslices; i++) {
		const struct csim_slice *sl = &t->slices[i];
		size_t lane;

		if (!sl->kept || !c->pid_in[sl->pid] ||
		    !csim_window_meets(&c->window, sl->start, sl->end))
			continue;
		lane = csim_model_find_lane(m, sl->pid, sl->pipe);
		if (lane == m->nlanes || w->lane_thread0[lane] == SIZE_MAX)
			continue;   /* not in the trace at all (no lane): stays out */
		c->slice_in[i] = 1;
		c->slices_in++;
		c->thread_in[w->lane_thread0[lane] + sl->sublane] = 1;
		if (w->rank[sl->pid] != SIZE_MAX)
			c->process_in[w->rank[sl->pid]] = 1;
	}
}

static void cut_counters(struct csim_model *m, const struct work *w)
{
	struct csim_cut *c = &m->cut;
	const struct csim_table *t = &m->table;

	for (size_t i = 0; i < t->ncounters; i++) {
		const struct csim_counter *k = &t->counters[i];
		int in = c->pid_in[k->pid] &&
			 (!csim_window_active(&c->window) ||
			  (k->placed && csim_window_holds(&c->window, k->ts)));

		c->counter_in[i] = (unsigned char)in;
		if (!in)
			continue;
		c->counters_in++;
		if (w->rank[k->pid] != SIZE_MAX)
			c->process_in[w->rank[k->pid]] = 1;
	}
}

/* An arrow is drawn only when both of its anchor slices are. */
static void cut_arrows(struct csim_cut *c, const struct csim_arrow *a, size_t n,
		       unsigned char *in)
{
	for (size_t i = 0; i < n; i++) {
		in[i] = (unsigned char)(c->slice_in[a[i].producer] &&
					c->slice_in[a[i].consumer]);
		if (in[i])
			c->arrows_in++;
	}
}

static int work_alloc(struct work *w, const struct csim_model *m, struct csim_cut *c)
{
	size_t npids = m->table.pids.count ? m->table.pids.count : 1;

	c->pid_in = calloc(npids, 1);
	w->rank = malloc(npids * sizeof(*w->rank));
	w->lane_thread0 = malloc((m->nlanes ? m->nlanes : 1) * sizeof(*w->lane_thread0));
	c->slice_in = calloc(m->table.nslices ? m->table.nslices : 1, 1);
	c->counter_in = calloc(m->table.ncounters ? m->table.ncounters : 1, 1);
	c->arrow_in = calloc(m->narrows ? m->narrows : 1, 1);
	c->intra_in = calloc(m->nintra_arrows ? m->nintra_arrows : 1, 1);
	c->process_in = calloc(m->nprocesses ? m->nprocesses : 1, 1);
	c->thread_in = calloc(m->nthreads ? m->nthreads : 1, 1);
	c->core_hit = calloc(c->ncores ? c->ncores : 1, 1);
	return c->pid_in != NULL && w->rank != NULL && w->lane_thread0 != NULL &&
	       c->slice_in != NULL && c->counter_in != NULL && c->arrow_in != NULL &&
	       c->intra_in != NULL && c->process_in != NULL && c->thread_in != NULL &&
	       c->core_hit != NULL;
}

int csim_pass_cut(struct csim_model *m, struct csim_error *err)
{
	struct csim_cut *c = &m->cut;
	struct work w = { NULL, NULL };
	int rc = CSIM_OK;

	csim_cut_release(c);
	if (!csim_cut_active(c))
		return CSIM_OK;
	if (!work_alloc(&w, m, c)) {
		rc = csim_error_nomem(err, CSIM_E_INPUT);
		goto out;
	}
	rc = match_pids(m, c, c->pid_in, err);
	if (rc != CSIM_OK)
		goto out;
	for (uint32_t pid = 0; pid < m->table.pids.count; pid++)
		w.rank[pid] = SIZE_MAX;
	for (size_t p = 0; p < m->nprocesses; p++)
		w.rank[m->processes[p]] = p;
	for (size_t l = 0; l < m->nlanes; l++)
		w.lane_thread0[l] = SIZE_MAX;
	/* order_threads lists each lane's sub-lanes 0..nsub-1 in a row. */
	for (size_t t = 0; t < m->nthreads; t++)
		if (m->threads[t].sub == 0)
			w.lane_thread0[m->threads[t].lane] = t;
	cut_slices(m, &w);
	cut_counters(m, &w);
	cut_arrows(c, m->arrows, m->narrows, c->arrow_in);
	cut_arrows(c, m->intra_arrows, m->nintra_arrows, c->intra_in);
out:
	free(w.rank);
	free(w.lane_thread0);
	if (rc != CSIM_OK)
		csim_cut_release(c);
	return rc;
}

int csim_cut_check_runs(const struct csim_model *const *runs, size_t n,
			struct csim_error *err)
{
	const struct csim_cut *c = n ? &runs[0]->cut : NULL;

	for (size_t k = 0; c != NULL && k < c->ncores; k++) {
		int hit = 0;

		for (size_t r = 0; r < n && !hit; r++)
			hit = runs[r]->cut.core_hit != NULL && runs[r]->cut.core_hit[k];
		if (!hit)
			return no_match(runs, n, c->cores[k], err);
	}
	return CSIM_OK;
}
