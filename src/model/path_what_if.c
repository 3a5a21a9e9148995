#include "model/path_what_if.h"

#include <stdlib.h>
#include <string.h>

#include "base/array_grow.h"
#include "model/critical_path.h"

/* A pipe chosen for a group's replays: its busy time on the group's paths. */
struct csim_what_if_pick {
	int64_t ns;
	int order;        /* its lane order */
	uint32_t pipe;
};

void csim_what_if_work_release(struct csim_what_if_work *w)
{
	free(w->slot);
	free(w->picks);
	free(w->spans);
	memset(w, 0, sizeof(*w));
}

static uint32_t root_of(uint32_t *up, uint32_t i)
{
	while (up[i] != i) {
		up[i] = up[up[i]];   /* halving keeps the trees flat */
		i = up[i];
	}
	return i;
}

/* Joins the groups of cores a and b under the smaller root. */
static void join(uint32_t *up, uint32_t a, uint32_t b)
{
	a = root_of(up, a);
	b = root_of(up, b);
	if (a < b)
		up[b] = a;
	else
		up[a] = b;
}

long csim_path_core_groups(const struct csim_model *m, uint32_t *order, size_t *start)
{
	const struct csim_summary *s = &m->summary;
	size_t npids = m->table.pids.count;
	uint32_t *core_of = malloc((npids + 1) * sizeof(*core_of));
	uint32_t *up = malloc((s->ncores + 1) * sizeof(*up));
	long ngroups = 0;

	if (core_of == NULL || up == NULL) {
		ngroups = -1;
		goto out;
	}
	for (size_t i = 0; i < npids; i++)
		core_of[i] = CSIM_NONE;
	for (uint32_t c = 0; c < s->ncores; c++) {
		core_of[s->cores[c].pid] = c;
		up[c] = c;
	}
	for (size_t k = 0; k < m->nintra_deps; k++) {
		uint32_t a = core_of[m->table.slices[m->intra_deps[k].consumer].pid];
		uint32_t b = core_of[m->table.slices[m->intra_deps[k].producer].pid];

		if (a != CSIM_NONE && b != CSIM_NONE)
			join(up, a, b);
	}
	/* a counting sort by root: each root is its group's first core, so the
	   groups come by their first core, each in core order */
	memset(start, 0, (s->ncores + 1) * sizeof(*start));
	for (uint32_t c = 0; c < s->ncores; c++) {
		uint32_t r = root_of(up, c);

		ngroups += r == c;
		start[r + 1]++;
	}
	for (size_t c = 1; c <= s->ncores; c++)
		start[c] += start[c - 1];
	for (uint32_t c = 0; c < s->ncores; c++)
		order[start[root_of(up, c)]++] = c;
	/* start[r] is now where r's group ends: the groups' starts, packed */
	for (size_t c = 0, g = 0, at = 0; c < s->ncores; c++)
		if (up[c] == c) {
			size_t end = start[c];

			start[g++] = at;
			at = end;
		}
	start[ngroups] = s->ncores;
out:
	free(core_of);
	free(up);
	return ngroups;
}

static int cmp_i64(int64_t a, int64_t b)
{
	return (a > b) - (a < b);
}

/* Busiest first; ties in lane order, then pipe id. */
static int pick_cmp(const void *a, const void *b)
{
	const struct csim_what_if_pick *x = a, *y = b;
	int c = cmp_i64(y->ns, x->ns);

	if (c == 0)
		c = x->order != y->order ? (x->order < y->order ? -1 : 1) : cmp_i64(x->pipe, y->pipe);
	return c;
}

/*
 * The pipes the group replays: those busy on its cores' paths, summed, the
 * CSIM_PATH_WHAT_IF_MAX busiest (a replay costs a pass over the group; a
 * real core has under twenty pipes, a malformed one may have thousands).
 */
static int pick_pipes(const struct csim_model *m, struct csim_what_if_work *w,
		      const uint32_t *cores, size_t n, size_t *npicks)
{
	const struct csim_path *p = &m->path;
	size_t k = 0, need = 1;

	for (size_t i = 0; i < n; i++)
		need += p->cores[cores[i]].nbusy;
	if ((w->slot == NULL && (w->slot = calloc(m->npipes + 1, sizeof(*w->slot))) == NULL) ||
	    csim_array_grow((void **)&w->picks, &w->cap_picks, need, sizeof(*w->picks)) != 0)
		return -1;
	for (size_t i = 0; i < n; i++) {
		const struct csim_path_core *c = &p->cores[cores[i]];

		for (size_t j = c->busy0; j < c->busy0 + c->nbusy; j++) {
			uint32_t pipe = p->busy[j].pipe;

			if (w->slot[pipe] == 0) {
				w->picks[k++] = (struct csim_what_if_pick){ 0,
					m->pipes[pipe].info->order, pipe };
				w->slot[pipe] = (uint32_t)k;
			}
			w->picks[w->slot[pipe] - 1].ns += p->busy[j].ns;
		}
	}
	for (size_t i = 0; i < k; i++)
		w->slot[w->picks[i].pipe] = 0;
	qsort(w->picks, k, sizeof(*w->picks), pick_cmp);
	*npicks = k < CSIM_PATH_WHAT_IF_MAX ? k : CSIM_PATH_WHAT_IF_MAX;
	return 0;
}

int csim_path_what_if_group(struct csim_model *m, struct csim_what_if_work *w,
			    struct csim_path_replay *r, const uint32_t *cores, size_t n)
{
	struct csim_path *p = &m->path;
	size_t k;

	if (csim_window_active(&m->cut.window))
		return 0;
	if (pick_pipes(m, w, cores, n, &k) != 0)
		return -1;
	if (k == 0)
		return 0;
	if (csim_array_grow((void **)&w->spans, &w->cap_spans, k * n + 1, sizeof(*w->spans)) != 0 ||
	    csim_array_grow((void **)&p->what_if, &w->cap_what_if, p->nwhat_if + k * n + 1,
			    sizeof(*p->what_if)) != 0 ||
	    csim_path_replay_prepare(r) != 0)
		return -1;
	for (size_t j = 0; j < k; j++)
		csim_path_replay_run(r, w->picks[j].pipe, w->spans + j * n);
	/* each core's estimates, fastest span first (ties: pick order) */
	for (size_t i = 0; i < n; i++) {
		struct csim_path_core *c = &p->cores[cores[i]];

		c->what_if0 = p->nwhat_if;
		c->nwhat_if = k;
		for (size_t j = 0; j < k; j++) {
			struct csim_path_what_if e = { w->picks[j].pipe, w->spans[j * n + i] };
			size_t at = p->nwhat_if++;

			for (; at > c->what_if0 && p->what_if[at - 1].span_ns > e.span_ns; at--)
				p->what_if[at] = p->what_if[at - 1];
			p->what_if[at] = e;
		}
	}
	return 0;
}

/* Core c's estimate for pipe, or its span when it has none. */
static int64_t core_estimate(const struct csim_path *p, uint32_t c, uint32_t pipe)
{
	const struct csim_path_core *pc = &p->cores[c];

	for (size_t j = pc->what_if0; j < pc->what_if0 + pc->nwhat_if; j++)
		if (p->what_if[j].pipe == pipe)
			return p->what_if[j].span_ns;
	return pc->span_ns;
}

/*
 * The kernel's span with each pipe some core estimates twice as fast: the
 * largest of every core's estimate, or its span where it has none (the
 * pipe is on no path of its group). Cost: a look-up per core and pipe; a
 * run has tens of cores and under twenty pipes.
 */
int csim_path_what_if_kernel(struct csim_model *m, struct csim_what_if_work *w)
{
	struct csim_path *p = &m->path;
	size_t k = 0;

	p->nkernel = 0;
	if (p->nwhat_if == 0)
		return 0;
	if ((w->slot == NULL && (w->slot = calloc(m->npipes + 1, sizeof(*w->slot))) == NULL) ||
	    csim_array_grow((void **)&w->picks, &w->cap_picks, p->nwhat_if + 1,
			    sizeof(*w->picks)) != 0)
		return -1;
	for (size_t j = 0; j < p->nwhat_if; j++) {
		uint32_t pipe = p->what_if[j].pipe;

		if (w->slot[pipe] == 0) {
			w->picks[k++] = (struct csim_what_if_pick){ 0, m->pipes[pipe].info->order, pipe };
			w->slot[pipe] = (uint32_t)k;
		}
	}
	for (size_t i = 0; i < k; i++) {
		struct csim_path_kernel_what_if e = { w->picks[i].pipe, -1, 0 };

		w->slot[e.pipe] = 0;
		for (uint32_t c = 0; c < p->ncores; c++) {
			int64_t v = core_estimate(p, c, e.pipe);

			if (v > e.span_ns) {
				e.span_ns = v;
				e.core = c;
			}
		}
		/* smallest span first, ties in lane order; the first 16 */
		size_t at = p->nkernel < CSIM_PATH_WHAT_IF_MAX ? p->nkernel++ : p->nkernel;

		for (; at > 0 && (p->kernel[at - 1].span_ns > e.span_ns ||
				  (p->kernel[at - 1].span_ns == e.span_ns &&
				   m->pipes[p->kernel[at - 1].pipe].info->order >
				   m->pipes[e.pipe].info->order)); at--)
			if (at < CSIM_PATH_WHAT_IF_MAX)
				p->kernel[at] = p->kernel[at - 1];
		if (at < CSIM_PATH_WHAT_IF_MAX)
			p->kernel[at] = e;
	}
	return 0;
}
