#include "model/path_graph.h"

#include <stdlib.h>
#include <string.h>

#include "base/array_grow.h"
#include "model/occupancy.h"
#include "model/sort_nearly.h"

int csim_path_is_node(const struct csim_model *m, const struct csim_slice *s)
{
	if (csim_slice_is_point(s))
		return 0;
	if (s->kind == CSIM_SLICE_INTRA_WAIT)
		return 1;
	return s->kind == CSIM_SLICE_INSTR && m->pipes[s->pipe].info->cls != CSIM_PIPE_NOISE;
}

static int node_cmp(const void *a, const void *b)
{
	const struct csim_path_node *x = a, *y = b;

	if (x->start != y->start)
		return x->start < y->start ? -1 : 1;
	if (x->end != y->end)
		return x->end < y->end ? -1 : 1;
	return x->slice < y->slice ? -1 : x->slice > y->slice;
}

static int end_cmp(const void *a, const void *b)
{
	const struct csim_path_end_key *x = a, *y = b;

	if (x->end != y->end)
		return x->end < y->end ? -1 : 1;
	return x->node < y->node ? -1 : x->node > y->node;
}

/*
 * Room for n nodes, ndeps dependencies and npipes pipes. The per-node
 * arrays grow from one capacity to the same need, so they stay alike.
 */
static int reserve(struct csim_path_graph *g, size_t n, size_t ndeps, size_t npipes)
{
	if (n + 1 > g->cap) {
		size_t c[5];

		for (int k = 0; k < 5; k++)
			c[k] = g->cap;
		if (csim_array_grow((void **)&g->nodes, &c[0], n + 1, sizeof(*g->nodes)) != 0 ||
		    csim_array_grow((void **)&g->by_end, &c[1], n + 1, sizeof(*g->by_end)) != 0 ||
		    csim_array_grow((void **)&g->by_pipe_end, &c[2], n + 1, sizeof(*g->by_pipe_end)) != 0 ||
		    csim_array_grow((void **)&g->rank, &c[3], n + 1, sizeof(*g->rank)) != 0 ||
		    csim_array_grow((void **)&g->dep0, &c[4], n + 1, sizeof(*g->dep0)) != 0)
			return -1;
		g->cap = c[0];
	}
	if (csim_array_grow((void **)&g->dep_of, &g->cap_deps, 2 * ndeps + 2, sizeof(*g->dep_of)) != 0)
		return -1;
	/* per node: its binding edge, its issue's, its pipe's two; per
	   dependency: its own and its WAIT's begin's two, two of them maybe
	   from another core */
	if (csim_path_replay_reserve(g->replay, n, 4 * n + 3 * ndeps, 2 * ndeps) != 0)
		return -1;
	return csim_array_grow((void **)&g->per_pipe, &g->cap_pipes, npipes + 1, sizeof(*g->per_pipe));
}

void csim_path_graph_release(struct csim_path_graph *g)
{
	free(g->nodes);
	free(g->by_end);
	free(g->by_pipe_end);
	free(g->rank);
	free(g->dep_of);
	free(g->releases);
	free(g->dep0);
	free(g->per_pipe);
	memset(g, 0, sizeof(*g));
}

/* The node of slice `slice` on this core, or CSIM_NONE. */
static uint32_t node_of(const struct csim_path_graph *g, const struct csim_path_core_in *in,
			uint32_t slice)
{
	uint32_t k = in->node_pos[slice];

	return k < in->n && in->node_slices[k] == slice ? g->rank[k] : CSIM_NONE;
}

/*
 * The sweep of one end-ordered view up to instant t: *at moves past every
 * key ending at or before t (t only grows, node after node in start order,
 * so each view is read once in order); then the latest of them starting
 * before s, or CSIM_NONE. Only a node ending within the tolerance after s
 * can start at or after it, so the scan back is short.
 */
uint32_t csim_path_graph_sweep(const struct csim_path_graph *g, const struct csim_path_end_key *v,
			     size_t lo, size_t hi, size_t *at, int64_t t, int64_t s)
{
	while (*at < hi && v[*at].end <= t)
		(*at)++;
	for (size_t k = *at; k > lo; k--)
		if (g->nodes[v[k - 1].node].start < s)
			return v[k - 1].node;
	return CSIM_NONE;
}

/*
 * Nodes sorted by start, rank[] from the input order, both end views and
 * each pipe's range in by_pipe_end. The producer writes a core's
 * instructions by end tick, so the end views come nearly sorted.
 */
static void build_nodes(struct csim_path_graph *g, const struct csim_model *m,
			const struct csim_path_core_in *in)
{
	const struct csim_slice *sl = m->table.slices;

	for (size_t k = 0; k < in->n; k++) {
		const struct csim_slice *s = &sl[in->node_slices[k]];

		g->nodes[k] = (struct csim_path_node){ s->start, s->end, in->node_slices[k],
			s->pipe, CSIM_NONE, CSIM_NONE, (uint32_t)k, CSIM_BIND_HEAD,
			s->kind == CSIM_SLICE_INTRA_WAIT, CSIM_NONE, 0 };
	}
	csim_sort_nearly(g->nodes, in->n, sizeof(*g->nodes), node_cmp);
	g->n = in->n;
	for (uint32_t i = 0; i < g->n; i++) {
		g->rank[g->nodes[i].input] = i;
		g->by_end[i] = (struct csim_path_end_key){ g->nodes[i].end, g->nodes[i].pipe, i };
	}
	csim_sort_nearly(g->by_end, g->n, sizeof(*g->by_end), end_cmp);
	/* by_pipe_end: by_end split by pipe, a counting sort (stable, so each
	   pipe's part stays in end order); the ranges in first-use order */
	for (size_t i = 0; i < g->n; i++)
		g->per_pipe[g->nodes[i].pipe] = (struct csim_path_pipe_sweep){
			.lo = SIZE_MAX, .last_start = CSIM_NONE, .last_instr = CSIM_NONE,
			.rate = INT64_MAX, .depth = 1 };
	/* each pipe's issue rate, from the starts of nodes that overlapped the
	   one before them on the pipe (a pipelined pipe's); a cross-core WAIT
	   lasts while the pipe works on, so it says nothing of the rate */
	for (uint32_t i = 0; i < g->n; i++) {
		struct csim_path_pipe_sweep *ps = &g->per_pipe[g->nodes[i].pipe];
		const struct csim_path_node *p = ps->last_start != CSIM_NONE
						 ? &g->nodes[ps->last_start] : NULL;
		uint32_t running = 1;

		if (g->nodes[i].cross)
			continue;
		if (p != NULL && p->start == g->nodes[i].start) {
			ps->last_start = i;   /* a twin: the longer stands for both */
			csim_path_graph_pass(g, ps, i);
			continue;
		}
		/* counted only past an overlap with the one before: most pipes
		   never overlap, and the count cost 1.4 % of the producer dump's
		   instructions taken at every node */
		if (p != NULL && p->end > g->nodes[i].start) {
			if (g->nodes[i].start - p->start < ps->rate)
				ps->rate = g->nodes[i].start - p->start;
			for (uint32_t k = 0; k < ps->nrecent && k < CSIM_PATH_DEPTH_MAX - 1; k++)
				running += g->nodes[ps->recent[(ps->nrecent - 1 - k) %
							     CSIM_PATH_DEPTH_MAX]].end > g->nodes[i].start;
		}
		if (running > ps->depth)
			ps->depth = running;
		ps->last_start = i;
		csim_path_graph_pass(g, ps, i);
	}
	for (size_t i = 0; i < g->n; i++) {
		g->per_pipe[g->nodes[i].pipe].last_start = CSIM_NONE;
		g->per_pipe[g->nodes[i].pipe].nrecent = 0;
	}
	for (size_t i = 0; i < g->n; i++)
		g->per_pipe[g->nodes[i].pipe].hi++;
	for (size_t i = 0, next = 0; i < g->n; i++) {
		struct csim_path_pipe_sweep *ps = &g->per_pipe[g->nodes[i].pipe];

		if (ps->lo == SIZE_MAX) {
			ps->lo = ps->at = next;
			next += ps->hi;
			ps->hi = ps->lo + ps->hi;
		}
	}
	for (size_t i = 0; i < g->n; i++)
		g->by_pipe_end[g->per_pipe[g->by_end[i].pipe].at++] = g->by_end[i];
	for (size_t i = 0; i < g->n; i++)
		g->per_pipe[g->nodes[i].pipe].at = g->per_pipe[g->nodes[i].pipe].lo;
}

/*
 * The twin before node i, or CSIM_NONE: the nearest earlier node of its
 * pipe with the same start (MOV_SPR_XN starts with the transfer it
 * configures, on its lane, and is drawn with its times or shorter). Nodes
 * are sorted by (start, end, slice), so twins lie in one run of equal
 * starts, the shortest first. The look back stops after
 * CSIM_PATH_TWIN_SCAN nodes: a core with thousands of lanes starting in
 * one ns stays linear, and no pipe's twin lies that far.
 */
#define CSIM_PATH_TWIN_SCAN 64

uint32_t csim_path_graph_twin(const struct csim_path_graph *g, uint32_t i)
{
	const struct csim_path_node *x = &g->nodes[i];
	uint32_t stop = i > CSIM_PATH_TWIN_SCAN ? i - CSIM_PATH_TWIN_SCAN : 0;

	if (x->cross)
		return CSIM_NONE;
	for (uint32_t j = i; j > stop && g->nodes[j - 1].start == x->start; j--)
		if (g->nodes[j - 1].pipe == x->pipe && !g->nodes[j - 1].cross)
			return j - 1;
	return CSIM_NONE;
}

void csim_path_graph_pass(struct csim_path_graph *g, struct csim_path_pipe_sweep *ps, uint32_t i)
{
	const struct csim_path_node *x = &g->nodes[i];
	uint32_t *last = ps->nrecent > 0 ? &ps->recent[(ps->nrecent - 1) % CSIM_PATH_DEPTH_MAX]
		       : NULL;

	if (x->cross)
		return;
	if (last != NULL && g->nodes[*last].start == x->start) {
		if (x->end > g->nodes[*last].end)
			*last = i;   /* a twin: the longer stands for both */
		return;
	}
	ps->recent[ps->nrecent % CSIM_PATH_DEPTH_MAX] = i;
	ps->nrecent++;
}

uint32_t csim_path_graph_slot(const struct csim_path_pipe_sweep *ps)
{
	if (ps->depth < 2 || ps->nrecent < ps->depth)
		return CSIM_NONE;
	return ps->recent[(ps->nrecent - ps->depth) % CSIM_PATH_DEPTH_MAX];
}

/*
 * The core's dependencies grouped by consumer node: dep_of[2k] the index
 * in deps[], dep_of[2k + 1] the producer node (CSIM_NONE: another core).
 * A dependency whose producer on this core starts no earlier than its
 * consumer cannot have released it and is left out.
 */
static void group_deps(struct csim_path_graph *g, const struct csim_model *m,
		       const struct csim_path_core_in *in, uint32_t pid)
{
	const struct csim_slice *sl = m->table.slices;
	size_t n = 0;

	memset(g->dep0, 0, (g->n + 1) * sizeof(*g->dep0));
	for (size_t pass = 0; pass < 2; pass++) {
		for (size_t k = 0; k < in->ndeps; k++) {
			const struct csim_dep *d = &in->deps[in->core_deps[k]];
			uint32_t c = node_of(g, in, d->consumer);
			uint32_t p = CSIM_NONE;

			if (c == CSIM_NONE)
				continue;
			for (uint32_t t = csim_path_graph_twin(g, c); t != CSIM_NONE; t = csim_path_graph_twin(g, c))
				c = t;   /* a twin group's flags are its first's */
			if (sl[d->producer].pid == pid) {
				p = node_of(g, in, d->producer);
				if (p == CSIM_NONE || g->nodes[p].start >= g->nodes[c].start)
					continue;
			}
			if (pass == 0) {
				g->dep0[c + 1]++;
				continue;
			}
			n = g->dep0[c]++;
			g->dep_of[2 * n] = in->core_deps[k];
			g->dep_of[2 * n + 1] = p;
		}
		if (pass == 0)   /* counts to starts, shifted: dep0[c] fills from there */
			for (size_t i = 1; i <= g->n; i++)
				g->dep0[i] += g->dep0[i - 1];
	}
	/* each dep0[c] now holds the end of c's group: shift back to starts */
	for (size_t i = g->n; i > 0; i--)
		g->dep0[i] = g->dep0[i - 1];
	g->dep0[0] = 0;
}

/* The first key of v[lo, hi) (an end-ordered view) ending after t, or hi. */
static size_t first_end_after(const struct csim_path_end_key *v, size_t lo, size_t hi, int64_t t)
{
	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;

		if (v[mid].end <= t)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo;
}

/*
 * The node that ends last at or before t (ties: the later in start order),
 * or CSIM_NONE: what a WAIT that began at t waited behind (docs/
 * critical-path.md, "What-if"). Nodes last a ns or more, so each such node
 * started before t.
 */
uint32_t csim_path_graph_latest_end(struct csim_path_graph *g, int64_t t)
{
	size_t lo = 0, hi = g->n, h = g->end_hint;

	/* Gallop from the last answer to bound the search: the WAITs come
	   in nearly rising time, and a search over the whole core was a third
	   of the pass on the dense-heavy shape (0.1 s). The answer, the first
	   key ending after t, lies in [lo, hi] throughout. */
	if (h > 0 && g->by_end[h - 1].end > t) {
		hi = h - 1;
		for (size_t step = 1; step <= hi; step *= 2) {
			if (g->by_end[hi - step].end <= t) {
				lo = hi - step + 1;
				break;
			}
			hi -= step;
		}
	} else {
		lo = h;
		for (size_t step = 1; lo + step <= hi; step *= 2) {
			if (g->by_end[lo + step - 1].end > t) {
				hi = lo + step - 1;
				break;
			}
			lo += step;
		}
	}
	lo = first_end_after(g->by_end, lo, hi, t);
	g->end_hint = lo;
	return lo > 0 ? g->by_end[lo - 1].node : CSIM_NONE;
}

/* The node of `pipe` that ends last at or before t (ties as latest_end_by), or CSIM_NONE. */
uint32_t csim_path_graph_pipe_end(const struct csim_path_graph *g, uint32_t pipe, int64_t t)
{
	const struct csim_path_pipe_sweep *ps = &g->per_pipe[pipe];
	size_t at = first_end_after(g->by_pipe_end, ps->lo, ps->hi, t);

	return at > ps->lo ? g->by_pipe_end[at - 1].node : CSIM_NONE;
}

/* Rising time; ties by dependency index. */
static int release_cmp(const void *a, const void *b)
{
	const struct csim_path_release *x = a, *y = b;

	if (x->at != y->at)
		return x->at < y->at ? -1 : 1;
	return (x->dep > y->dep) - (x->dep < y->dep);
}

/* The core's cross-core releases (its dependencies from another core whose
   WAIT blocked: one that did not was released by its own begin), by time. */
static int collect_releases(struct csim_path_graph *g, const struct csim_path_core_in *in)
{
	g->nreleases = 0;
	if (csim_array_grow((void **)&g->releases, &g->cap_releases, g->dep0[g->n] + 1,
			    sizeof(*g->releases)) != 0)
		return -1;
	for (uint32_t c = 0; c < g->n; c++)
		for (size_t k = g->dep0[c]; k < g->dep0[c + 1]; k++)
			if (g->dep_of[2 * k + 1] == CSIM_NONE && in->deps[g->dep_of[2 * k]].blocked)
				g->releases[g->nreleases++] = (struct csim_path_release){
					in->deps[g->dep_of[2 * k]].release, g->dep_of[2 * k], c,
					g->nodes[c].pipe };
	qsort(g->releases, g->nreleases, sizeof(*g->releases), release_cmp);
	return 0;
}

/*
 * The latest cross-core release at or before t into a node of `pipe`, but
 * dependency dep's own, or NULL: a cross-core WAIT holds the pipe it names
 * until it is released, so what follows on that pipe queues behind it.
 * Releases are few (one per hand-over): the scan back is short.
 */
const struct csim_path_release *csim_path_graph_cross_release(const struct csim_path_graph *g, int64_t t,
						  uint32_t pipe, uint32_t dep)
{
	size_t lo = 0, hi = g->nreleases;

	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;

		if (g->releases[mid].at <= t)
			lo = mid + 1;
		else
			hi = mid;
	}
	while (lo > 0 && (g->releases[lo - 1].pipe != pipe || g->releases[lo - 1].dep == dep))
		lo--;
	return lo > 0 ? &g->releases[lo - 1] : NULL;
}

int csim_path_graph_prepare(struct csim_path_graph *g, const struct csim_model *m,
			    const struct csim_path_core_in *in, struct csim_path_replay *r)
{
	uint32_t pid = in->n ? m->table.slices[in->node_slices[0]].pid : 0;

	g->n = g->end_hint = 0;
	g->replay = r;
	g->base = r->n;
	g->first_ns = in->first_ns;
	g->last_ns = in->last_ns;
	if (reserve(g, in->n, in->ndeps, m->npipes) != 0)
		return -1;
	build_nodes(g, m, in);
	group_deps(g, m, in, pid);
	return collect_releases(g, in);
}
