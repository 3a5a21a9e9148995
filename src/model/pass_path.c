#include "model/pass_path.h"

#include <assert.h>
#include <stdlib.h>
#include <string.h>

#include "base/array_grow.h"
#include "base/dense_order.h"
#include "model/path_bind.h"
#include "model/path_top.h"
#include "model/path_what_if.h"

const struct csim_pass_def csim_pass_path_def = {
	csim_pass_path,
	CSIM_PART_PIPES | CSIM_PART_DEPS | CSIM_PART_INTRA | CSIM_PART_SUMMARY,
	CSIM_PART_PATH
};

struct sum_key;

struct path_work {
	struct csim_model *m;
	struct csim_path *out;
	/* nodes and dependencies grouped by pid (their consumer's) */
	uint32_t *node_slices;
	uint32_t *node_pos;         /* per slice: its place in its core's node_slices */
	size_t *node0;
	const struct csim_dep *deps;   /* deps[] then intra_deps[] */
	struct csim_dep *deps_copy;    /* deps when there are intra_deps */
	uint32_t *dep_idx;
	uint32_t *dep0;
	int64_t *first, *last;      /* each pid's whole span */
	struct csim_path_graph g;
	struct csim_path_replay replay;   /* the group of cores being walked */
	uint32_t *replay_node;      /* per node of every core (node0): its index in
				       replay, while its core's group is replayed */
	struct csim_what_if_work what_if;
	/* one core's segments, latest first, while it is walked */
	struct csim_path_seg *rev;
	size_t nrev, cap_rev;
	struct sum_key *keys;
	size_t cap_keys;
	uint32_t *slot;             /* per pipe id, while busy time is summed */
	struct csim_path_top_work top;
	size_t cap_segs, cap_busy, cap_waits;
};

static int64_t min64(int64_t a, int64_t b)
{
	return a < b ? a : b;
}

/* Adds a segment before those walked so far; merges issue time. Room: walk(). */
static void push(struct path_work *w, struct csim_path_seg seg)
{
	if (seg.start >= seg.end)
		return;
	if (seg.kind == CSIM_SEG_ISSUE && w->nrev > 0 &&
	    w->rev[w->nrev - 1].kind == CSIM_SEG_ISSUE)
		w->rev[w->nrev - 1].start = seg.start;
	else
		w->rev[w->nrev++] = seg;
}

static struct csim_path_seg issue_seg(int64_t start, int64_t end)
{
	return (struct csim_path_seg){ start, end, CSIM_NONE, CSIM_NONE, CSIM_NONE, CSIM_NONE,
				       CSIM_SEG_ISSUE };
}

/* The segment from the predecessor's end (or `at`) to x's start. */
static struct csim_path_seg gap_seg(const struct path_work *w, const struct csim_path_node *x,
				    int64_t at)
{
	const struct csim_dep *d = x->dep != CSIM_NONE ? &w->deps[x->dep] : NULL;

	if (x->bind == CSIM_BIND_FLAG || x->bind == CSIM_BIND_CROSS)
		return (struct csim_path_seg){ at, x->start, x->slice, d->producer,
			d->consumer_pipe, d->producer_pipe,
			x->bind == CSIM_BIND_FLAG ? CSIM_SEG_WAIT : CSIM_SEG_CROSS };
	return issue_seg(at, x->start);
}

/*
 * The gap before a node a cross-core sync released: the cross-core wait
 * from its best local release to its start (its excess), then what gave
 * that release, from `at` (the local predecessor's end): an in-core flag's
 * wait or issue time (path_bind.h).
 */
static void push_cross(struct path_work *w, const struct csim_path_node *x, int64_t at)
{
	const struct csim_dep *c = &w->deps[x->dep];
	int64_t local = x->local > at ? x->local : at;

	push(w, (struct csim_path_seg){ local, x->start, x->slice, c->producer,
		c->consumer_pipe, c->producer_pipe, CSIM_SEG_CROSS });
	if (x->local_dep != CSIM_NONE) {
		const struct csim_dep *d = &w->deps[x->local_dep];

		push(w, (struct csim_path_seg){ at, local, x->slice, d->producer,
			d->consumer_pipe, d->producer_pipe, CSIM_SEG_WAIT });
	} else {
		push(w, issue_seg(at, local));
	}
}

/*
 * Walks back from the node ending last: each node's busy time up to where
 * the path left it, then the gap to its binding predecessor (path_bind.h).
 */
static int walk(struct path_work *w)
{
	const struct csim_path_graph *g = &w->g;
	int64_t frontier = g->last_ns;
	uint32_t x;

	w->nrev = 0;
	/* a path has at most a busy and two gap segments per node (a cross-core
	   wait and what released the node locally), and the tail */
	if (csim_array_grow((void **)&w->rev, &w->cap_rev, 3 * g->n + 2, sizeof(*w->rev)) != 0)
		return -1;
	if (g->n == 0) {
		push(w, issue_seg(g->first_ns, g->last_ns));
		return 0;
	}
	x = g->by_end[g->n - 1].node;
	push(w, issue_seg(g->nodes[x].end, frontier));
	frontier = min64(g->nodes[x].end, frontier);
	while (x != CSIM_NONE) {
		const struct csim_path_node *n = &g->nodes[x];
		int64_t at = n->from != CSIM_NONE ? min64(g->nodes[n->from].end, n->start)
				: g->first_ns;

		if (n->bind == CSIM_BIND_CROSS && n->from != CSIM_NONE)
			at = min64(at, n->local);   /* a pipelined pipe's: its issue rate */

		push(w, (struct csim_path_seg){ n->start, frontier, n->slice, CSIM_NONE,
			n->pipe, CSIM_NONE, n->cross ? CSIM_SEG_CROSS : CSIM_SEG_BUSY });
		if (n->bind == CSIM_BIND_CROSS)
			push_cross(w, n, at);
		else
			push(w, gap_seg(w, n, at));
		frontier = at;
		x = n->from;
	}
	push(w, issue_seg(g->first_ns, frontier));
	return 0;
}

/* A sum by pipe (busy) or pipe pair (wait), sorted by lane order, then ns. */
struct sum_key {
	int64_t ns;
	int o1, o2;              /* the pipes' lane orders */
	uint32_t p1, p2;         /* busy: (pipe, CSIM_NONE); wait: (producer, consumer) */
};

static int cmp_i64(int64_t a, int64_t b)
{
	return (a > b) - (a < b);
}

static int key_pipes_cmp(const void *a, const void *b)
{
	const struct sum_key *x = a, *y = b;
	int c = x->o1 != y->o1 ? (x->o1 < y->o1 ? -1 : 1) : cmp_i64(x->p1, y->p1);

	if (c == 0)
		c = x->o2 != y->o2 ? (x->o2 < y->o2 ? -1 : 1) : cmp_i64(x->p2, y->p2);
	return c;
}

/* Largest first; ties in lane order. */
static int key_ns_cmp(const void *a, const void *b)
{
	const struct sum_key *x = a, *y = b;
	int c = cmp_i64(y->ns, x->ns);

	return c != 0 ? c : key_pipes_cmp(a, b);
}

static int lane_order(const struct csim_model *m, uint32_t pipe)
{
	return pipe == CSIM_NONE ? 0 : m->pipes[pipe].info->order;
}

/*
 * The core's segments of one kind (BUSY or WAIT) summed by pipe or pipe
 * pair into w->keys[0..*n), largest first. Busy time is summed in place
 * per pipe (a path has one busy segment per instruction on it); the fewer
 * waits are sorted by pair and merged. Either way a pathological core with
 * thousands of lanes on its path costs O(n log n), not a look-up per
 * segment.
 */
static int sum_segments(struct path_work *w, const struct csim_path_core *c,
			uint8_t kind, size_t *n)
{
	const struct csim_path *p = w->out;
	size_t k = 0, need = (kind == CSIM_SEG_BUSY ? w->m->npipes : c->nseg) + 1;

	if (csim_array_grow((void **)&w->keys, &w->cap_keys, need, sizeof(*w->keys)) != 0)
		return -1;
	for (size_t i = c->seg0; i < c->seg0 + c->nseg; i++) {
		const struct csim_path_seg *s = &p->segs[i];

		if (s->kind != kind)
			continue;
		if (kind == CSIM_SEG_WAIT) {
			w->keys[k++] = (struct sum_key){ s->end - s->start,
				lane_order(w->m, s->producer_pipe), lane_order(w->m, s->pipe),
				s->producer_pipe, s->pipe };
			continue;
		}
		if (w->slot[s->pipe] == 0) {   /* slot: 1 + the pipe's key, 0: none yet */
			w->keys[k++] = (struct sum_key){ 0, lane_order(w->m, s->pipe), 0, s->pipe,
							 CSIM_NONE };
			w->slot[s->pipe] = (uint32_t)k;
		}
		w->keys[w->slot[s->pipe] - 1].ns += s->end - s->start;
	}
	if (kind == CSIM_SEG_BUSY) {
		for (size_t i = 0; i < k; i++)
			w->slot[w->keys[i].p1] = 0;
		*n = k;
	} else {
		qsort(w->keys, k, sizeof(*w->keys), key_pipes_cmp);
		*n = 0;
		for (size_t i = 0; i < k; i++) {
			if (*n > 0 && key_pipes_cmp(&w->keys[*n - 1], &w->keys[i]) == 0)
				w->keys[*n - 1].ns += w->keys[i].ns;
			else
				w->keys[(*n)++] = w->keys[i];
		}
	}
	qsort(w->keys, *n, sizeof(*w->keys), key_ns_cmp);
	return 0;
}

static int add_sums(struct path_work *w, struct csim_path_core *c)
{
	struct csim_path *p = w->out;
	size_t n;

	if (sum_segments(w, c, CSIM_SEG_BUSY, &n) != 0 ||
	    csim_array_grow((void **)&p->busy, &w->cap_busy, p->nbusy + n + 1,
			    sizeof(*p->busy)) != 0)
		return -1;
	c->busy0 = p->nbusy;
	c->nbusy = n;
	for (size_t i = 0; i < n; i++)
		p->busy[p->nbusy++] = (struct csim_path_busy){ w->keys[i].p1, w->keys[i].ns };
	if (sum_segments(w, c, CSIM_SEG_WAIT, &n) != 0 ||
	    csim_array_grow((void **)&p->waits, &w->cap_waits, p->nwaits + n + 1,
			    sizeof(*p->waits)) != 0)
		return -1;
	c->wait0 = p->nwaits;
	c->nwait = n;
	for (size_t i = 0; i < n; i++)
		p->waits[p->nwaits++] = (struct csim_path_wait){ w->keys[i].p1, w->keys[i].p2,
								 w->keys[i].ns };
	return 0;
}

/*
 * SPEC §13's invariants of one core's segments, asserted in Debug builds
 * (every test and golden runs through the sanitizer build): they tile the
 * span in order; a busy segment lies inside its instruction; a wait lies
 * from its producer's end (or later) to its consumer's start.
 */
static void assert_invariants(const struct path_work *w, const struct csim_path_core *c)
{
#ifndef NDEBUG
	const struct csim_slice *sl = w->m->table.slices;
	int64_t at = c->first_ns;

	for (size_t k = c->seg0; k < c->seg0 + c->nseg; k++) {
		const struct csim_path_seg *s = &w->out->segs[k];

		assert(s->start == at && s->end > s->start);
		if (s->kind == CSIM_SEG_BUSY || (s->kind == CSIM_SEG_CROSS &&
						  s->producer == CSIM_NONE && s->slice != CSIM_NONE))
			assert(sl[s->slice].start <= s->start && s->end <= sl[s->slice].end);
		if (s->kind == CSIM_SEG_WAIT)
			assert(sl[s->producer].end <= s->start && s->end <= sl[s->slice].start);
		at = s->end;
	}
	assert(at == c->first_ns + c->span_ns || (c->nseg == 0 && c->span_ns == 0));
#else
	(void)w;
	(void)c;
#endif
}

/* The walked segments in time order, clipped to the summary's span, and their sums. */
static int keep_segments(struct path_work *w, struct csim_path_core *c)
{
	struct csim_path *p = w->out;
	int64_t lo = c->first_ns, hi = c->first_ns + c->span_ns;

	c->seg0 = p->nsegs;
	for (size_t k = w->nrev; k-- > 0;) {
		struct csim_path_seg s = w->rev[k];

		s.start = s.start > lo ? s.start : lo;
		s.end = min64(s.end, hi);
		if (s.start >= s.end)
			continue;
		p->segs[p->nsegs++] = s;   /* room: csim_pass_path() */
		c->nseg++;
		if (s.kind == CSIM_SEG_ISSUE)
			c->issue_ns += s.end - s.start;
		else if (s.kind == CSIM_SEG_CROSS)
			c->cross_ns += s.end - s.start;
	}
	assert_invariants(w, c);
	return add_sums(w, c) != 0 || csim_path_top_add(w->out, w->m->table.slice_instr, &w->top, c) != 0 ? -1 : 0;
}

/* Counts per pid into start[1..], turned into group starts: start[pid] is the first. */
static int alloc_groups(size_t **start, size_t npids)
{
	*start = calloc(npids + 2, sizeof(**start));
	return *start != NULL ? 0 : -1;
}

/* Nodes by pid (ascending slice index in each) and each pid's whole span. */
static int group_nodes(struct path_work *w)
{
	const struct csim_table *t = &w->m->table;
	size_t npids = t->pids.count;
	size_t *fill;

	if (alloc_groups(&w->node0, npids) != 0)
		return -1;
	w->first = malloc((npids + 1) * sizeof(*w->first));
	w->last = malloc((npids + 1) * sizeof(*w->last));
	if (w->first == NULL || w->last == NULL)
		return -1;
	for (size_t i = 0; i < npids; i++) {
		w->first[i] = INT64_MAX;
		w->last[i] = INT64_MIN;
	}
	/* the rule's verdict per slice, so that it is taken once (2 M
	   instructions of the 20 MB producer dump's 320 M), and then each
	   node's place, so that a dependency finds its nodes without a search
	   (binary searches were 0.08 s of the dense-heavy shape's 3.8 s) */
	w->node_pos = csim_array_alloc(t->nslices + 1, sizeof(*w->node_pos));
	if (w->node_pos == NULL)
		return -1;
	for (size_t i = 0; i < t->nslices; i++) {
		const struct csim_slice *s = &t->slices[i];
		int is_node = csim_path_is_node(w->m, s);

		w->first[s->pid] = min64(w->first[s->pid], s->start);
		w->last[s->pid] = s->end > w->last[s->pid] ? s->end : w->last[s->pid];
		w->node_pos[i] = is_node ? 0 : CSIM_NONE;
		w->node0[s->pid + 1] += (size_t)is_node;
	}
	for (size_t i = 1; i <= npids; i++)
		w->node0[i] += w->node0[i - 1];
	w->node_slices = csim_array_alloc(w->node0[npids] + 1, sizeof(*w->node_slices));
	w->replay_node = csim_array_alloc(w->node0[npids] + 1, sizeof(*w->replay_node));
	fill = malloc((npids + 1) * sizeof(*fill));
	if (w->node_slices == NULL || w->replay_node == NULL || fill == NULL) {
		free(fill);
		return -1;
	}
	memcpy(fill, w->node0, (npids + 1) * sizeof(*fill));
	for (uint32_t i = 0; i < t->nslices; i++)
		if (w->node_pos[i] != CSIM_NONE) {
			uint32_t pid = t->slices[i].pid;

			w->node_pos[i] = (uint32_t)(fill[pid] - w->node0[pid]);
			w->node_slices[fill[pid]++] = i;
		}
	free(fill);
	return 0;
}

/* In-core and cross-core dependencies in one array, grouped by the consumer's pid. */
static int group_deps(struct path_work *w)
{
	const struct csim_model *m = w->m;
	size_t npids = m->table.pids.count, n = m->ndeps + m->nintra_deps;
	uint32_t *keys;

	/* one array without a copy when there is no cross-core one: the copy
	   was 23 MB on the dense-heavy shape, at the path pass's peak */
	w->deps = m->deps;
	if (m->nintra_deps > 0) {
		w->deps = w->deps_copy = csim_array_alloc(n + 1, sizeof(*w->deps_copy));
		if (w->deps_copy == NULL)
			return -1;
		if (m->ndeps > 0)
			memcpy(w->deps_copy, m->deps, m->ndeps * sizeof(*w->deps_copy));
		memcpy(w->deps_copy + m->ndeps, m->intra_deps, m->nintra_deps * sizeof(*w->deps_copy));
	}
	w->dep_idx = csim_array_alloc(n + 1, sizeof(*w->dep_idx));
	w->dep0 = csim_array_alloc(npids + 1, sizeof(*w->dep0));
	keys = csim_array_alloc(n + 1, sizeof(*keys));
	if (w->dep_idx == NULL || w->dep0 == NULL || keys == NULL) {
		free(keys);
		return -1;
	}
	for (size_t k = 0; k < n; k++)
		keys[k] = m->table.slices[w->deps[k].consumer].pid;
	csim_dense_order(keys, n, npids, w->dep_idx, w->dep0);
	free(keys);
	return 0;
}

static int path_core(struct path_work *w, const struct csim_summary_core *sc,
		     struct csim_path_core *c)
{
	uint32_t pid = sc->pid;
	const struct csim_path_core_in in = {
		w->node_slices + w->node0[pid], w->node0[pid + 1] - w->node0[pid], w->node_pos,
		w->deps, w->dep_idx + w->dep0[pid], w->dep0[pid + 1] - w->dep0[pid],
		w->first[pid], w->last[pid]
	};

	memset(c, 0, sizeof(*c));
	c->first_ns = sc->first_ns;
	c->span_ns = sc->last_ns - sc->first_ns;
	if (csim_path_bind_core(&w->g, w->m, &in, &w->replay) != 0 || walk(w) != 0 ||
	    keep_segments(w, c) != 0)
		return -1;
	for (size_t k = 0; k < in.n; k++)
		w->replay_node[w->node0[pid] + k] = (uint32_t)w->g.base + w->g.rank[k];
	return 0;
}

/*
 * What released cross-core dependency dep on its producer's core (the
 * core of the group at index core): the producer of the SET that released
 * its WAIT (struct csim_intra_set), unless that SET was issued after its
 * producer had ended and fired later than it: then the node it was issued
 * behind, ending last by its begin. CSIM_NONE: none (docs/critical-path.md
 * "What-if").
 */
static uint32_t release_node(const struct path_work *w, uint32_t dep, size_t core)
{
	const struct csim_model *m = w->m;
	uint32_t k = m->intra_sets[dep - m->ndeps].release;
	const struct csim_intra_set *set = &m->intra_sets[k];
	uint32_t producer = m->intra_deps[k].producer;
	const struct csim_slice *p = &m->table.slices[producer];

	if (set->end > p->end + CSIM_PATH_TOL_NS && set->begin > p->end)
		return csim_path_replay_latest_end(&w->replay, core, set->begin);
	if (w->node_pos[producer] == CSIM_NONE)
		return CSIM_NONE;
	return w->replay_node[w->node0[p->pid] + w->node_pos[producer]];
}

/*
 * A group's cross-core edges (path_replay.h), each to the node that
 * released it when that node's core is in the group (a core's partners
 * are, by csim_path_core_groups(), unless a producer's pid is no summary
 * core). group_core: per pid, 1 + its core's place in the replay, or 0.
 */
static int link_group(struct path_work *w, const uint32_t *group_core)
{
	struct csim_path_replay *r = &w->replay;

	if (r->nxedges > 0 && csim_path_replay_index_ends(r) != 0)
		return -1;
	for (size_t k = 0; k < r->nxedges; k++) {
		uint32_t dep = r->xedges[k].dep;
		uint32_t core = group_core[w->m->table.slices[w->deps[dep].producer].pid];
		uint32_t at = core != 0 ? release_node(w, dep, core - 1) : CSIM_NONE;

		if (at != CSIM_NONE)
			csim_path_replay_link(r, k, at);
	}
	return 0;
}

/* The critical paths of one group of cores, then its what-if. */
static int path_group(struct path_work *w, const uint32_t *cores, size_t n, uint32_t *group_core)
{
	const struct csim_summary *s = &w->m->summary;
	int rc = 0;

	csim_path_replay_clear(&w->replay);
	for (size_t i = 0; i < n && rc == 0; i++)
		rc = path_core(w, &s->cores[cores[i]], &w->out->cores[cores[i]]);
	if (rc != 0)
		return -1;
	for (size_t i = 0; i < n; i++)
		group_core[s->cores[cores[i]].pid] = (uint32_t)i + 1;
	rc = link_group(w, group_core);
	for (size_t i = 0; i < n; i++)
		group_core[s->cores[cores[i]].pid] = 0;
	return rc != 0 ? -1 : csim_path_what_if_group(w->m, &w->what_if, &w->replay, cores, n);
}

/* Every core's path, group after group (path_what_if.h), and the kernel's what-if. */
static int path_groups(struct path_work *w)
{
	const struct csim_summary *s = &w->m->summary;
	uint32_t *order = malloc((s->ncores + 1) * sizeof(*order));
	size_t *start = malloc((s->ncores + 2) * sizeof(*start));
	uint32_t *group_core = calloc(w->m->table.pids.count + 1, sizeof(*group_core));
	long ngroups = -1;
	int rc = -1;

	if (order == NULL || start == NULL || group_core == NULL ||
	    (ngroups = csim_path_core_groups(w->m, order, start)) < 0)
		goto out;
	w->out->ncores = s->ncores;
	for (long g = 0; g < ngroups; g++)
		if (path_group(w, order + start[g], start[g + 1] - start[g], group_core) != 0)
			goto out;
	rc = csim_path_what_if_kernel(w->m, &w->what_if);
out:
	free(order);
	free(start);
	free(group_core);
	return rc;
}

int csim_pass_path(struct csim_model *m, struct csim_error *err)
{
	const struct csim_summary *s = &m->summary;
	struct path_work w;
	int rc = CSIM_OK;

	memset(&w, 0, sizeof(w));
	w.m = m;
	w.out = &m->path;
	csim_path_release(&m->path);
	if (s->ncores == 0)
		return CSIM_OK;
	m->path.cores = calloc(s->ncores, sizeof(*m->path.cores));
	w.slot = calloc(m->npipes + 1, sizeof(*w.slot));
	w.top.islot = calloc(m->table.instrs.count + 1, sizeof(*w.top.islot));
	if (m->path.cores == NULL || w.slot == NULL || w.top.islot == NULL || group_nodes(&w) != 0 ||
	    group_deps(&w) != 0 ||
	    /* the walk's bound for every core at once: growing by doubling
	       moved tens of MB at a time (60 ms on the dense shape); pages
	       never written cost no memory */
	    csim_array_grow((void **)&m->path.segs, &w.cap_segs,
			    3 * w.node0[m->table.pids.count] + 2 * s->ncores + 1,
			    sizeof(*m->path.segs)) != 0)
		rc = csim_error_nomem(err, CSIM_E_INPUT);
	if (rc == CSIM_OK && path_groups(&w) != 0)
		rc = csim_error_nomem(err, CSIM_E_INPUT);
	if (rc != CSIM_OK)
		csim_path_release(&m->path);
	free(w.node_slices);
	free(w.node_pos);
	free(w.node0);
	free(w.deps_copy);
	free(w.dep_idx);
	free(w.dep0);
	free(w.first);
	free(w.last);
	free(w.replay_node);
	free(w.rev);
	free(w.keys);
	free(w.slot);
	csim_path_top_release(&w.top);
	csim_path_graph_release(&w.g);
	csim_path_replay_release(&w.replay);
	csim_what_if_work_release(&w.what_if);
	return rc;
}
