#include "model/path_bind.h"

#include "model/pipe_table.h"

static int64_t min64(int64_t a, int64_t b)
{
	return a < b ? a : b;
}

static int64_t max64(int64_t a, int64_t b)
{
	return a > b ? a : b;
}

/* An edge of the node being bound: from's start or end plus lag, or the
   fixed time lag (from CSIM_NONE). Room: csim_path_graph_prepare(). */
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
	uint32_t q = csim_path_graph_latest_end(g, b), pq = csim_path_graph_pipe_end(g, pipe, b);
	const struct csim_path_release *r = csim_path_graph_cross_release(g, b, pipe, dep);

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
 * reached late took its place in the pipe's queue too; one begun as the
 * cross-core release came was queued behind it, and X then still needed
 * its flag: its producer's end), what its pipe allowed
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

		if (p == CSIM_NONE || d->release > s + CSIM_PATH_TOL_NS)
			continue;
		if (!d->blocked && wb >= c->release) {
			/* a late WAIT begun as the cross-core sync came was queued
			   behind it; X still needed its flag, set as p ended */
			if (g->nodes[p].end < s && g->nodes[p].end > at) {
				at = g->nodes[p].end;
				x->from = p;
				x->local_dep = CSIM_NONE;
				late_begin = INT64_MIN;
			}
			continue;
		}
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
			  ? prev_instr : csim_path_graph_latest_end(g, late_begin);
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
		x->from = csim_path_graph_latest_end(g, b);
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
	uint32_t prev_start = ps->last_start, slot = csim_path_graph_slot(ps);
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
	if (slot != CSIM_NONE)   /* a deeper pipe: the slot X took, not the last end */
		add_edge(g, slot, min64(0, s - g->nodes[slot].end), 0);
	else if (pp != CSIM_NONE && x->bind != CSIM_BIND_PIPE)
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

int csim_path_bind_core(struct csim_path_graph *g, const struct csim_model *m,
			const struct csim_path_core_in *in, struct csim_path_replay *r)
{
	size_t at = 0;
	/* the launching lane's node ending last so far: the VF whose function
	   runs, not a short push (PUSH_PB) it issues meanwhile */
	uint32_t vf = CSIM_NONE;

	if (csim_path_graph_prepare(g, m, in, r) != 0)
		return -1;
	for (uint32_t i = 0; i < g->n; i++) {
		struct csim_path_pipe_sweep *ps = &g->per_pipe[g->nodes[i].pipe];
		int64_t s = g->nodes[i].start, t = s + CSIM_PATH_TOL_NS;

		uint32_t twin = csim_path_graph_twin(g, i);

		if (twin != CSIM_NONE) {
			bind_twin(g, i, twin, ps->last_start);
		} else {
			uint32_t pp = csim_path_graph_sweep(g, g->by_pipe_end, ps->lo, ps->hi, &ps->at, t, s);
			uint32_t any = csim_path_graph_sweep(g, g->by_end, 0, g->n, &at, t, s);

			bind_node(g, m, in, i, pp, any, ps, vf);
		}
		ps->last_start = i;
		if (!g->nodes[i].cross)
			ps->last_instr = i;
		csim_path_graph_pass(g, ps, i);
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
