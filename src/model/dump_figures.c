#include "model/dump_figures.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/array_grow.h"
#include "model/diag_text.h"
#include "model/diagnosis.h"

/* The digits of every share summary.json and the batch summary print (json_members.c). */
int64_t csim_dump_share_e4(int64_t busy_ns, int64_t span_ns)
{
	int64_t q, r, d = 0;

	if (span_ns <= 0 || busy_ns < 0)
		return -1;
	/* r * 10 below must not overflow (spans of over 29 years of ns). */
	while (span_ns > INT64_MAX / 10) {
		span_ns /= 2;
		busy_ns /= 2;
	}
	q = busy_ns / span_ns;
	r = busy_ns % span_ns;
	for (int k = 0; k < 4; k++) {
		r *= 10;
		d = d * 10 + r / span_ns;
		r %= span_ns;
	}
	if (2 * r >= span_ns)
		d++;
	return q * 10000 + d;
}

static uint64_t sum(const uint64_t *v, size_t n)
{
	uint64_t s = 0;

	for (size_t i = 0; i < n; i++)
		s += v[i];
	return s;
}

/* The share entry of pipe `name`, added at the end when new; NULL: no memory. */
static struct csim_dump_share *share_of(struct csim_dump_figures *f, size_t *cap,
					const char *name, size_t n)
{
	struct csim_dump_share *s;

	for (size_t i = 0; i < f->nshares; i++)
		if (strlen(f->shares[i].pipe) == n && memcmp(f->shares[i].pipe, name, n) == 0)
			return &f->shares[i];
	if (csim_array_grow((void **)&f->shares, cap, f->nshares + 1, sizeof(*f->shares)) != 0)
		return NULL;
	s = &f->shares[f->nshares];
	s->pipe = malloc(n + 1);
	if (s->pipe == NULL)
		return NULL;
	memcpy(s->pipe, name, n);
	s->pipe[n] = '\0';
	s->busy_ns = s->span_ns = 0;
	f->nshares++;
	return s;
}

static int take_shares(struct csim_dump_figures *f, const struct csim_model *m)
{
	const struct csim_summary *s = &m->summary;
	size_t cap = 0;

	for (size_t c = 0; c < s->ncores; c++) {
		const struct csim_summary_core *core = &s->cores[c];

		for (size_t k = 0; k < core->npipes; k++) {
			const struct csim_summary_pipe *p = &s->pipes[core->pipe0 + k];
			size_t n;
			const char *name = csim_strtab_get(&m->table.pipes, p->pipe, &n);
			struct csim_dump_share *sh = share_of(f, &cap, name, n);

			if (sh == NULL)
				return -1;
			sh->busy_ns += p->busy_ns;
			sh->span_ns += core->last_ns - core->first_ns;
		}
	}
	return 0;
}

/* Appends text to *buf (malloc'd, *len bytes so far); -1: no memory. */
static int append(char **buf, size_t *len, const char *sep, const char *text)
{
	size_t sl = *len > 0 ? strlen(sep) : 0, tl = strlen(text);
	char *grown = realloc(*buf, *len + sl + tl + 1);

	if (grown == NULL)
		return -1;
	memcpy(grown + *len, sep, sl);
	memcpy(grown + *len + sl, text, tl + 1);
	*buf = grown;
	*len += sl + tl;
	return 0;
}

/* The primary line's id and the pids of its cores. */
static int take_primary(struct csim_dump_figures *f, const struct csim_model *m)
{
	const struct csim_diag *d = m->diagnosis.n > 0 ? &m->diagnosis.lines[0] : NULL;

	f->diag_primary = strdup(d != NULL ? csim_diag_id(d->rule) : "");
	if (f->diag_primary == NULL)
		return -1;
	if (d == NULL || d->nat == 0)
		return 0;
	f->primary_cores = calloc(d->nat, sizeof(*f->primary_cores));
	if (f->primary_cores == NULL)
		return -1;
	for (size_t k = 0; k < d->nat; k++) {
		const size_t core = m->diagnosis.at[d->at0 + k].core;

		f->primary_cores[k] = strdup(m->table.pid_names[m->summary.cores[core].pid]);
		if (f->primary_cores[k] == NULL)
			return -1;
		f->nprimary_cores++;
	}
	return 0;
}

/* The lines in rank order: one per rule, so each id comes once. */
static int take_diagnosis(struct csim_dump_figures *f, const struct csim_model *m)
{
	size_t nids = 0, ntext = 0;
	char line[CSIM_DIAG_TEXT_MAX];

	f->diag_ids = strdup("");
	f->diag_text = strdup("");
	if (f->diag_ids == NULL || f->diag_text == NULL)
		return -1;
	for (size_t i = 0; i < m->diagnosis.n; i++) {
		const struct csim_diag *d = &m->diagnosis.lines[i];

		csim_diag_text(m, d, line, sizeof(line));
		if (append(&f->diag_ids, &nids, " ", csim_diag_id(d->rule)) != 0 ||
		    append(&f->diag_text, &ntext, " | ", line) != 0)
			return -1;
	}
	return take_primary(f, m);
}

/*
 * The largest part of the slowest core's path: the first busy pipe, the
 * first wait pair, cross-core or issue time, in that order on ties (the
 * table's line lists them so); -1: no memory.
 */
static int take_path(struct csim_dump_figures *f, const struct csim_model *m)
{
	const struct csim_path_core *c;
	char text[3 * CSIM_DIAG_TEXT_MAX];
	int64_t top = -1;

	f->path_share_e4 = -1;
	text[0] = '\0';
	if (m->summary.ncores > 0 && m->summary.slowest < m->path.ncores) {
		c = &m->path.cores[m->summary.slowest];
		if (c->nbusy > 0) {
			top = m->path.busy[c->busy0].ns;
			snprintf(text, sizeof(text), "%s",
				 csim_strtab_get(&m->table.pipes, m->path.busy[c->busy0].pipe, NULL));
		}
		if (c->nwait > 0 && m->path.waits[c->wait0].ns > top) {
			const struct csim_path_wait *w = &m->path.waits[c->wait0];

			top = w->ns;
			snprintf(text, sizeof(text), "wait %s->%s",
				 csim_strtab_get(&m->table.pipes, w->producer, NULL),
				 csim_strtab_get(&m->table.pipes, w->consumer, NULL));
		}
		if (c->cross_ns > top) {
			top = c->cross_ns;
			snprintf(text, sizeof(text), "cross-core wait");
		}
		if (c->issue_ns > top) {
			top = c->issue_ns;
			snprintf(text, sizeof(text), "issue");
		}
		if (top >= 0)
			f->path_share_e4 = csim_dump_share_e4(top, c->span_ns);
	}
	f->path_top = strdup(text);
	return f->path_top != NULL ? 0 : -1;
}

/* The op name and the slowest core's span, in ns and cycles; -1: no memory. */
static int take_run(struct csim_dump_figures *f, const struct csim_model *m)
{
	const struct csim_summary *s = &m->summary;
	const struct csim_span name = csim_basic_info_text(&m->run.basic, CSIM_BASIC_NAME);
	struct csim_clock clock;

	if (name.p != NULL) {
		f->op_name = malloc(name.n + 1);
		if (f->op_name == NULL)
			return -1;
		memcpy(f->op_name, name.p, name.n);
		f->op_name[name.n] = '\0';
	}
	f->has_span = s->ncores > 0;
	f->slowest_span_ns = f->has_span ? s->max_span_ns : 0;
	f->has_cycles = f->has_span && csim_clock_of_run(&m->run, s->derived_mhz, &clock);
	if (f->has_cycles)
		f->slowest_span_cycles = csim_clock_cycles(&clock, f->slowest_span_ns);
	return 0;
}

int csim_dump_figures_take(struct csim_dump_figures *f, const struct csim_model *m,
			   struct csim_error *err)
{
	const int cut = csim_cut_active(&m->cut);

	memset(f, 0, sizeof(*f));
	f->slices = cut ? m->cut.slices_in : m->kept_slices;
	f->arrows = cut ? m->cut.arrows_in : m->narrows + m->nintra_arrows;
	f->skipped_events = sum(m->table.skipped, CSIM_SKIP_COUNT);
	f->skipped_flags = sum(m->flag_skips, CSIM_FSKIP_COUNT) +
			   sum(m->intra_skips, CSIM_FSKIP_COUNT);
	if (take_run(f, m) != 0 || take_shares(f, m) != 0 || take_diagnosis(f, m) != 0 ||
	    take_path(f, m) != 0) {
		csim_dump_figures_release(f);
		return csim_error_nomem(err, CSIM_E_INPUT);
	}
	return CSIM_OK;
}

void csim_dump_figures_release(struct csim_dump_figures *f)
{
	for (size_t i = 0; i < f->nshares; i++)
		free(f->shares[i].pipe);
	free(f->shares);
	free(f->op_name);
	free(f->diag_ids);
	free(f->diag_text);
	free(f->diag_primary);
	for (size_t i = 0; i < f->nprimary_cores; i++)
		free(f->primary_cores[i]);
	free(f->primary_cores);
	free(f->path_top);
	memset(f, 0, sizeof(*f));
}
