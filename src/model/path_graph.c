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
static uint32_t sweep_latest(const struct csim_path_graph *g, const struct csim_path_end_key *v,
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
			.rate = INT64_MAX };
	/* each pipe's issue rate, from the starts of nodes that overlapped the
	   one before them on the pipe (a pipelined pipe's); a cross-core WAIT
	   lasts while the pipe works on, so it says nothing of the rate */
	for (uint32_t i = 0; i < g->n; i++) {
		struct csim_path_pipe_sweep *ps = &g->per_pipe[g->nodes[i].pipe];
		const struct csim_path_node *p = ps->last_start != CSIM_NONE
						 ? &g->nodes[ps->last_start] : NULL;

		if (g->nodes[i].cross)
			continue;
		if (p != NULL && p->end > g->nodes[i].start && g->nodes[i].start > p->start &&
		    g->nodes[i].start - p->start < ps->rate)
			ps->rate = g->nodes[i].start - p->start;
		ps->last_start = i;
	}
	for (size_t i = 0; i < g->n; i++)
		g->per_pipe[g->nodes[i].pipe].last_start = CSIM_NONE;
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
 * starts, the shortest first.
 */
static uint32_t twin_of(const struct csim_path_graph *g, uint32_t i)
{
	const struct csim_path_node *x = &g->nodes[i];

	if (x->cross)
		return CSIM_NONE;
	for (uint32_t j = i; j > 0 && g->nodes[j - 1].start == x->start; j--)
		if (g->nodes[j - 1].pipe == x->pipe && !g->nodes[j - 1].cross)
			return j - 1;
	return CSIM_NONE;
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
			for (uint32_t t = twin_of(g, c); t != CSIM_NONE; t = twin_of(g, c))
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

/* An edge of the node being bound: from's start or end plus lag, or the
   fixed time lag (from CSIM_NONE). Room: reserve(). */
static void add_edge(struct csim_path_graph *g, uint32_t from, int64_t lag, int from_start)
{
	struct csim_path_replay *r = g->replay;
	uint32_t at = from == CSIM_NONE ? 0 : from_start ? CSIM_REPLAY_START(g->base + from)
				     : CSIM_REPLAY_END(g->base + from);

	r->edges[r->nedges++] = (struct csim_path_edge){ lag, at };
}

/* Node i's constraint from dependency dep (its producer on another core):
   held at the fixed time t until the path pass links it. */
static void add_cross_edge(struct csim_path_graph *g, uint32_t i, uint32_t dep, int64_t t)
{
	struct csim_path_replay *r = g->replay;

	add_edge(g, CSIM_NONE, t, 0);
	r->xedges[r->nxedges++] = (struct csim_path_xedge){ r->nedges - 1,
		(uint32_t)(g->base + i), dep };
}

/* Starts node i's edges. */
static void begin_edges(struct csim_path_graph *g, uint32_t i)
{
	g->replay->edge0[g->base + i] = g->replay->nedges;
}

static int64_t min64(int64_t a, int64_t b)
{
	return a < b ? a : b;
}

static int64_t max64(int64_t a, int64_t b)
{
	return a > b ? a : b;
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
static uint32_t latest_end_by(struct csim_path_graph *g, int64_t t)
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
static uint32_t pipe_end_by(const struct csim_path_graph *g, uint32_t pipe, int64_t t)
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
static const struct csim_path_release *release_by(const struct csim_path_graph *g, int64_t t,
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

/*
 * The edges from what a WAIT (dependency d's) began behind, no later than
 * s: the node ending last by the WAIT's begin, on the consumer's own pipe
 * when one of its nodes ends then too (a WAIT queued behind its pipe's
 * instruction), and the last cross-core release by then into a node of
 * that pipe (a cross-core WAIT holds its pipe until released).
 * The WAIT began behind the later of the two: each edge keeps the gap from
 * that one, so the begin moves with whichever comes later in the replay.
 * With neither, the WAIT's begin itself.
 */
static void add_wait_begin_edge(struct csim_path_graph *g, const struct csim_dep *d, uint32_t dep,
				uint32_t i, int64_t s, uint32_t pipe)
{
	int64_t b = min64(d->release - (int64_t)d->wait_ns, s), last = INT64_MIN;
	uint32_t q = latest_end_by(g, b), pq = pipe_end_by(g, pipe, b);
	const struct csim_path_release *r = release_by(g, b, pipe, dep);

	if (q != CSIM_NONE && pq != CSIM_NONE && g->nodes[pq].end == g->nodes[q].end)
		q = pq;
	if (q != CSIM_NONE)
		last = g->nodes[q].end;
	if (r != NULL && r->at > last)
		last = r->at;
	if (last == INT64_MIN) {
		add_edge(g, CSIM_NONE, b, 0);
		return;
	}
	if (q != CSIM_NONE)
		add_edge(g, q, b - last, 0);
	/* the release as the replay moves it: the node it released, less the
	   gap after it, as that node also keeps its own local constraints */
	if (r != NULL && r->node < i)
		add_edge(g, r->node, r->at - g->nodes[r->node].start + (b - last), 1);
	else if (r != NULL)   /* i itself, or one after it: from the other core */
		add_cross_edge(g, i, r->dep, r->at + (b - last));
}

/*
 * A dependency's replay edges when its WAIT did not block (the flag or sync
 * was set already, so the WAIT's begin released the consumer, not the
 * producer): from the producer's end, pend (the SET fired then at the
 * latest; p, or on another core: p CSIM_NONE), and from what the WAIT
 * began behind.
 */
static void add_set_flag_edges(struct csim_path_graph *g, const struct csim_dep *d,
			       uint32_t dep, uint32_t i, uint32_t p, int64_t pend, int64_t s,
			       uint32_t pipe)
{
	if (p == CSIM_NONE)
		add_cross_edge(g, i, dep, min64(pend, s));
	else
		add_edge(g, p, min64(0, s - pend), 0);
	add_wait_begin_edge(g, d, dep, i, s, pipe);
}

/* The end of dependency d's producer: node p, or a slice of another core. */
static int64_t producer_end(const struct csim_path_graph *g, const struct csim_model *m,
			    const struct csim_dep *d, uint32_t p)
{
	return p != CSIM_NONE ? g->nodes[p].end : m->table.slices[d->producer].end;
}

/*
 * Where the walk goes on after node i's cross-core wait, the dependency
 * deps[dep_of[2 * cross]] (SPEC §13: the wait counts only its excess over
 * the best local release): the latest of its in-core WAITs' ends (one
 * reached late took its place in the pipe's queue too, unless it began as
 * the cross-core release came: queued behind it), what its pipe allowed
 * and the cross-core WAIT's begin, by which X had been issued; ties in
 * that order. When one of X's WAITs left the pipe's queue after pp (the
 * pipe's latest end at or before s + TOL) began, the queue had moved
 * past pp and that WAIT's end is the pipe's answer; else a pipelined pipe
 * allowed X at its issue rate behind the instruction still running
 * (prev_instr), another at pp's end. From a late WAIT the walk goes to
 * what issued it, from the cross-core WAIT's begin to the node ending
 * last by it.
 */
static void bind_cross_local(struct csim_path_graph *g, const struct csim_path_core_in *in,
			     uint32_t i, uint32_t pp, uint32_t prev_instr, size_t cross)
{
	struct csim_path_node *x = &g->nodes[i];
	const struct csim_dep *c = &in->deps[g->dep_of[2 * cross]];
	const struct csim_path_node *prev = prev_instr != CSIM_NONE ? &g->nodes[prev_instr] : NULL;
	int64_t s = x->start, b = c->release - (int64_t)c->wait_ns, at = INT64_MIN;
	int64_t rate = g->per_pipe[x->pipe].rate, late_begin = INT64_MIN;
	int passed = 0;

	x->from = CSIM_NONE;
	x->local_dep = CSIM_NONE;
	for (size_t k = g->dep0[i]; k < g->dep0[i + 1]; k++) {
		const struct csim_dep *d = &in->deps[g->dep_of[2 * k]];
		uint32_t p = g->dep_of[2 * k + 1];
		int64_t wb = d->release - (int64_t)d->wait_ns;

		/* a late WAIT begun as the cross-core sync came was queued behind it */
		if (p == CSIM_NONE || d->release > s + CSIM_PATH_TOL_NS ||
		    (!d->blocked && wb >= c->release))
			continue;
		if (pp != CSIM_NONE && wb > g->nodes[pp].start)
			passed = 1;
		if (d->release > at) {
			at = d->release;
			x->from = d->blocked ? p : CSIM_NONE;
			x->local_dep = d->blocked ? g->dep_of[2 * k] : CSIM_NONE;
			late_begin = d->blocked ? INT64_MIN : wb;
		}
	}
	if (late_begin != INT64_MIN)
		x->from = prev != NULL && prev->start <= late_begin && prev->end > late_begin
			  ? prev_instr : latest_end_by(g, late_begin);
	if (passed) {
		/* the queue took X's WAIT after its pipe's instruction began:
		   that WAIT's end is where the pipe let X go */
	} else if (prev != NULL && rate != INT64_MAX && prev->start + rate < prev->end &&
		   prev->start + rate < s) {
		/* a pipelined pipe takes the next instruction at its issue rate
		   behind the one still running, not when that one ends */
		if (prev->start + rate > at) {
			at = prev->start + rate;
			x->from = prev_instr;
			x->local_dep = CSIM_NONE;
		}
	} else if (pp != CSIM_NONE && g->nodes[pp].end > at) {
		at = g->nodes[pp].end;
		x->from = pp;
		x->local_dep = CSIM_NONE;
	}
	if (b > at) {
		at = b;
		x->from = latest_end_by(g, b);
		x->local_dep = CSIM_NONE;
	}
	x->local = min64(at, s);
}

/*
 * Node i's binding predecessor (path_graph.h) and its replay edges: pp is
 * the latest end on its pipe, any the latest on any lane (each at or before
 * s + TOL, starting before s), ps its pipe's sweep (its previous nodes).
 */
static void bind_node(struct csim_path_graph *g, const struct csim_model *m,
		      const struct csim_path_core_in *in, uint32_t i, uint32_t pp, uint32_t any,
		      const struct csim_path_pipe_sweep *ps, uint32_t vf)
{
	uint32_t prev_start = ps->last_start;
	struct csim_path_node *x = &g->nodes[i];
	int64_t s = x->start;
	size_t best = SIZE_MAX;
	int64_t rf = INT64_MIN, rp = INT64_MIN;
	uint32_t by_rate = CSIM_NONE;

	for (size_t k = g->dep0[i]; k < g->dep0[i + 1]; k++) {
		const struct csim_dep *d = &in->deps[g->dep_of[2 * k]];
		int64_t r = d->release;

		/* a WAIT reached after its flag was set held nothing: never binding */
		if (d->blocked && r <= s + CSIM_PATH_TOL_NS && r > rf) {
			rf = r;
			best = k;
		}
	}
	if (pp != CSIM_NONE)
		rp = g->nodes[pp].end;
	begin_edges(g, i);
	if (rp < s - CSIM_PATH_TOL_NS)   /* the pipe was idle before X: not binding */
		rp = INT64_MIN;
	if (prev_start != CSIM_NONE && rp < s && g->nodes[prev_start].end > s &&
	    s - g->nodes[prev_start].start >= g->per_pipe[x->pipe].rate &&
	    s - g->nodes[prev_start].start <= g->per_pipe[x->pipe].rate + 1) {
		rp = s;   /* started at the issue rate behind its running predecessor */
		by_rate = prev_start;
	}
	if (best != SIZE_MAX && rf >= rp) {
		const struct csim_dep *d = &in->deps[g->dep_of[2 * best]];
		/* an instruction ending as X starts could have issued it: the
		   replay then takes X at the later of that issue and the
		   release's own delay, not the whole gap after the producer as
		   a delay (the trace cannot tell which held X) */
		int issued = any != CSIM_NONE && g->nodes[any].end >= s - CSIM_PATH_TOL_NS;
		int64_t t = issued ? min64(d->release, s) : s;

		x->from = g->dep_of[2 * best + 1];
		x->dep = g->dep_of[2 * best];
		x->bind = x->from == CSIM_NONE ? CSIM_BIND_CROSS : CSIM_BIND_FLAG;
		if (issued)
			add_edge(g, any, s - g->nodes[any].end, 0);
		if (x->from == CSIM_NONE) {
			/* its local release holds it too once the other core
			   moves: the WAIT's begin, issued by then (its pipe and
			   in-core flags have their edges below) */
			add_cross_edge(g, i, x->dep, t);
			add_wait_begin_edge(g, d, x->dep, i, s, x->pipe);
			bind_cross_local(g, in, i, pp, ps->last_instr, best);
		} else {
			add_edge(g, x->from, max64(t - g->nodes[x->from].end, 0), 0);
		}
	} else if (by_rate != CSIM_NONE) {
		x->bind = CSIM_BIND_PIPE;
		x->from = by_rate;
		add_edge(g, by_rate, s - g->nodes[by_rate].start, 1);
	} else if (rp != INT64_MIN) {
		x->bind = CSIM_BIND_PIPE;
		x->from = pp;
		add_edge(g, pp, s - rp, 0);
	} else if (vf != CSIM_NONE && m->pipes[x->pipe].info->vf == CSIM_VF_MICRO_OP &&
		   g->nodes[vf].start < s && g->nodes[vf].end > s) {
		/* a micro-op started while its vector function's VF ran */
		x->bind = CSIM_BIND_PIPE;
		x->from = vf;
		add_edge(g, vf, s - g->nodes[vf].start, 1);
	} else {
		x->from = any;
		x->bind = x->from == CSIM_NONE ? CSIM_BIND_HEAD : CSIM_BIND_ISSUE;
		add_edge(g, x->from, x->from == CSIM_NONE ? s : s - g->nodes[x->from].end, 0);
	}
	for (size_t k = g->dep0[i]; k < g->dep0[i + 1]; k++) {
		const struct csim_dep *d = &in->deps[g->dep_of[2 * k]];
		uint32_t p = g->dep_of[2 * k + 1];

		/* the binding flag's edge is in already; a flag the pipe beat still holds */
		if (k == best && (x->bind == CSIM_BIND_FLAG || x->bind == CSIM_BIND_CROSS))
			continue;
		if (!d->blocked)
			add_set_flag_edges(g, d, g->dep_of[2 * k], i, p, producer_end(g, m, d, p), s,
					   x->pipe);
		else if (p == CSIM_NONE)
			add_cross_edge(g, i, g->dep_of[2 * k], min64(d->release, s));
		else
			add_edge(g, p, min64(max64(d->release - g->nodes[p].end, 0),
					     s - g->nodes[p].end), 0);
	}
	if (pp != CSIM_NONE && x->bind != CSIM_BIND_PIPE)
		add_edge(g, pp, min64(0, s - g->nodes[pp].end), 0);
	if (prev_start != CSIM_NONE)
		add_edge(g, prev_start, 0, 1);
}

/*
 * A twin is released with the twin before it, which holds the group's
 * flags (group_deps(): arrows bind a flag's consumer to the earliest of
 * twins), so the walk through either twin follows the same predecessor;
 * the replay starts it with that one.
 */
static void bind_twin(struct csim_path_graph *g, uint32_t i, uint32_t twin, uint32_t prev_start)
{
	const struct csim_path_node *first = &g->nodes[twin];
	struct csim_path_node *x = &g->nodes[i];

	x->from = first->from;
	x->dep = first->dep;
	x->bind = first->bind;
	x->local = first->local;
	x->local_dep = first->local_dep;
	begin_edges(g, i);
	add_edge(g, twin, 0, 1);
	if (prev_start != CSIM_NONE)
		add_edge(g, prev_start, 0, 1);
}

int csim_path_graph_build(struct csim_path_graph *g, const struct csim_model *m,
			  const struct csim_path_core_in *in, struct csim_path_replay *r)
{
	uint32_t pid = in->n ? m->table.slices[in->node_slices[0]].pid : 0;
	size_t at = 0;
	/* the launching lane's node ending last so far: the VF whose function
	   runs, not a short push (PUSH_PB) it issues meanwhile */
	uint32_t vf = CSIM_NONE;

	g->n = g->end_hint = 0;
	g->replay = r;
	g->base = r->n;
	g->first_ns = in->first_ns;
	g->last_ns = in->last_ns;
	if (reserve(g, in->n, in->ndeps, m->npipes) != 0)
		return -1;
	build_nodes(g, m, in);
	group_deps(g, m, in, pid);
	if (collect_releases(g, in) != 0)
		return -1;
	for (uint32_t i = 0; i < g->n; i++) {
		struct csim_path_pipe_sweep *ps = &g->per_pipe[g->nodes[i].pipe];
		int64_t s = g->nodes[i].start, t = s + CSIM_PATH_TOL_NS;

		uint32_t twin = twin_of(g, i);

		if (twin != CSIM_NONE) {
			bind_twin(g, i, twin, ps->last_start);
		} else {
			uint32_t pp = sweep_latest(g, g->by_pipe_end, ps->lo, ps->hi, &ps->at, t, s);
			uint32_t any = sweep_latest(g, g->by_end, 0, g->n, &at, t, s);

			bind_node(g, m, in, i, pp, any, ps, vf);
		}
		ps->last_start = i;
		if (!g->nodes[i].cross)
			ps->last_instr = i;
		if (m->pipes[g->nodes[i].pipe].info->vf == CSIM_VF_LAUNCH &&
		    (vf == CSIM_NONE || g->nodes[i].end >= g->nodes[vf].end))
			vf = i;
	}
	for (uint32_t i = 0; i < g->n; i++)
		r->nodes[g->base + i] = (struct csim_path_replay_node){ g->nodes[i].start,
			g->nodes[i].end, g->nodes[i].cross ? CSIM_NONE : g->nodes[i].pipe };
	r->n += g->n;
	return csim_path_replay_end_core(r, in->first_ns, in->last_ns);
}
