#include "model/path_replay.h"

#include <stdlib.h>
#include <string.h>

#include "base/array_grow.h"
#include "base/strtab.h"

void csim_path_replay_clear(struct csim_path_replay *r)
{
	r->n = r->nedges = r->nxedges = r->ncores = 0;
}

void csim_path_replay_release(struct csim_path_replay *r)
{
	free(r->nodes);
	free(r->edge0);
	free(r->edges);
	free(r->xedges);
	free(r->cores);
	free(r->order);
	free(r->by_end);
	free(r->times);
	memset(r, 0, sizeof(*r));
}

int csim_path_replay_reserve(struct csim_path_replay *r, size_t n, size_t nedges,
			     size_t nxedges)
{
	size_t need = r->n + n + 1;

	/* times[] addresses nodes by 32 bits: 2 + 2 * n must fit */
	if (need > (UINT32_MAX - 2) / 2)
		return -1;
	if (csim_array_grow((void **)&r->nodes, &r->cap, need, sizeof(*r->nodes)) != 0 ||
	    csim_array_grow((void **)&r->edge0, &r->cap_edge0, need, sizeof(*r->edge0)) != 0 ||
	    csim_array_grow((void **)&r->edges, &r->cap_edges, r->nedges + nedges + 1,
			    sizeof(*r->edges)) != 0 ||
	    csim_array_grow((void **)&r->xedges, &r->cap_xedges, r->nxedges + nxedges + 1,
			    sizeof(*r->xedges)) != 0)
		return -1;
	return 0;
}

int csim_path_replay_end_core(struct csim_path_replay *r, int64_t first_ns, int64_t last_ns)
{
	size_t node0 = r->ncores > 0 ? r->cores[r->ncores - 1].node0 + r->cores[r->ncores - 1].n : 0;

	if (csim_array_grow((void **)&r->cores, &r->cap_cores, r->ncores + 1,
			    sizeof(*r->cores)) != 0)
		return -1;
	r->cores[r->ncores++] = (struct csim_path_replay_core){ node0, r->n - node0, first_ns,
								last_ns };
	r->edge0[r->n] = r->nedges;
	return 0;
}

void csim_path_replay_link(struct csim_path_replay *r, size_t k, uint32_t producer)
{
	const struct csim_path_xedge *x = &r->xedges[k];
	struct csim_path_edge *e = &r->edges[x->edge];

	if (r->nodes[producer].start >= r->nodes[x->node].start)
		return;
	e->lag -= r->nodes[producer].end;
	e->at = CSIM_REPLAY_END(producer);
}

/* A node by a time of it (its start, or its end), ties in the order added. */
struct time_key {
	int64_t t, node;
};

static int time_key_cmp(const void *a, const void *b)
{
	const struct time_key *x = a, *y = b;

	if (x->t != y->t)
		return x->t < y->t ? -1 : 1;
	return (x->node > y->node) - (x->node < y->node);
}

int csim_path_replay_index_ends(struct csim_path_replay *r)
{
	struct time_key *keys;

	if (csim_array_grow((void **)&r->times, &r->cap_times, 2 * r->n + 3,
			    sizeof(*r->times)) != 0 ||
	    csim_array_grow((void **)&r->by_end, &r->cap_by_end, r->n + 1, sizeof(*r->by_end)) != 0)
		return -1;
	keys = (struct time_key *)r->times;
	for (size_t c = 0; c < r->ncores; c++) {
		const struct csim_path_replay_core *p = &r->cores[c];

		for (size_t i = 0; i < p->n; i++)
			keys[i] = (struct time_key){ r->nodes[p->node0 + i].end,
						      (int64_t)(p->node0 + i) };
		qsort(keys, p->n, sizeof(*keys), time_key_cmp);
		for (size_t i = 0; i < p->n; i++)
			r->by_end[p->node0 + i] = (uint32_t)keys[i].node;
	}
	return 0;
}

uint32_t csim_path_replay_latest_end(const struct csim_path_replay *r, size_t c, int64_t t)
{
	size_t lo = r->cores[c].node0, hi = lo + r->cores[c].n, first = lo;

	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;

		if (r->nodes[r->by_end[mid]].end <= t)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo > first ? r->by_end[lo - 1] : CSIM_NONE;
}

int csim_path_replay_prepare(struct csim_path_replay *r)
{
	if (csim_array_grow((void **)&r->times, &r->cap_times, 2 * r->n + 3,
			    sizeof(*r->times)) != 0)
		return -1;
	if (r->ncores <= 1)
		return 0;
	if (csim_array_grow((void **)&r->order, &r->cap_order, r->n + 1, sizeof(*r->order)) != 0)
		return -1;
	/* A linked edge runs from a node that started earlier, an in-core
	   one from a node added earlier: by (start, order added) every edge's
	   node is replayed before the node it holds. The keys use the times'
	   room, not yet in use. */
	struct time_key *keys = (struct time_key *)r->times;

	for (size_t i = 0; i < r->n; i++)
		keys[i] = (struct time_key){ r->nodes[i].start, (int64_t)i };
	qsort(keys, r->n, sizeof(*keys), time_key_cmp);
	for (size_t i = 0; i < r->n; i++)
		r->order[i] = (uint32_t)keys[i].node;
	return 0;
}

static int64_t max64(int64_t a, int64_t b)
{
	return a > b ? a : b;
}

/* Node i replayed: the latest of its edges, then its (maybe halved) length. */
static void replay_node(struct csim_path_replay *r, size_t i, uint32_t pipe)
{
	const struct csim_path_replay_node *x = &r->nodes[i];
	int64_t *times = r->times, t = INT64_MIN, d = x->end - x->start;

	/* one load and an add an edge, no branch (the replays were 2 % of the
	   20 MB producer dump's instructions with one) */
	for (size_t k = r->edge0[i]; k < r->edge0[i + 1]; k++)
		t = max64(t, times[r->edges[k].at] + r->edges[k].lag);
	if (x->pipe == pipe)
		d -= d / 2;
	times[CSIM_REPLAY_START(i)] = t;
	times[CSIM_REPLAY_END(i)] = t + d;
}

void csim_path_replay_run(struct csim_path_replay *r, uint32_t pipe, int64_t *spans)
{
	r->times[0] = 0;
	if (r->ncores <= 1) {
		for (size_t i = 0; i < r->n; i++)
			replay_node(r, i, pipe);
	} else {
		for (size_t k = 0; k < r->n; k++)
			replay_node(r, r->order[k], pipe);
	}
	for (size_t c = 0; c < r->ncores; c++) {
		const struct csim_path_replay_core *p = &r->cores[c];
		int64_t last = INT64_MIN, last_new = INT64_MIN;

		for (size_t i = p->node0; i < p->node0 + p->n; i++) {
			last = max64(last, r->nodes[i].end);
			last_new = max64(last_new, r->times[CSIM_REPLAY_END(i)]);
		}
		spans[c] = p->n == 0 ? p->last_ns - p->first_ns
				     : last_new + (p->last_ns - last) - p->first_ns;
	}
}
