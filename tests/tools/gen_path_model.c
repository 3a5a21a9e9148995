/*
 * The what-if model of docs/critical-path.md ("What-if"), replayed on the
 * simulated trace from gen_path's own recorded causes: the span the
 * converter's estimate should give when its binding predecessors are the
 * recorded ones. Comparing it with the converter checks the estimate
 * against its documentation (and, through every node's binding edge, the
 * converter's binding predecessors off the path too); comparing it with
 * the re-simulation measures what the model leaves out.
 */
#include "gen_path.h"

#include <stdlib.h>

struct key {
	int64_t start, end;
	int32_t i;
};

/* Nodes in start order; equal starts by end, then input order (the trace's: end, index). */
static int key_cmp(const void *a, const void *b)
{
	const struct key *x = a, *y = b;

	if (x->start != y->start)
		return x->start < y->start ? -1 : 1;
	if (x->end != y->end)
		return x->end < y->end ? -1 : 1;
	return (x->i > y->i) - (x->i < y->i);
}

static int64_t max64(int64_t a, int64_t b)
{
	return a > b ? a : b;
}

static int64_t min64(int64_t a, int64_t b)
{
	return a < b ? a : b;
}

/* "The latest end before it" on x's lane: at or before s + TOL, starting before s. */
static int32_t pipe_pred(const struct gp_core *k, int32_t x)
{
	int64_t s = k->sched[x].start;
	int32_t best = GP_NONE;

	for (size_t j = 0; j < k->n; j++) {
		const struct gp_slot *q = &k->sched[j];
		const struct gp_slot *b = best != GP_NONE ? &k->sched[best] : NULL;

		if (k->v[j].pipe != k->v[x].pipe || q->start >= s || q->end > s + GP_TOL)
			continue;
		if (b == NULL || q->end > b->end || (q->end == b->end && q->start > b->start) ||
		    (q->end == b->end && q->start == b->start && (int32_t)j > best))
			best = (int32_t)j;
	}
	return best;
}

/* The instruction ending last at or before t (ties: one on `lane`, then the
   later start, then the later in the trace), or GP_NONE: what a WAIT on
   `lane` beginning at t waited behind. */
static int32_t latest_end_by(const struct gp_core *k, int64_t t, unsigned lane)
{
	int32_t best = GP_NONE;

	for (size_t j = 0; j < k->n; j++) {
		const struct gp_slot *q = &k->sched[j];
		const struct gp_slot *b = best != GP_NONE ? &k->sched[best] : NULL;
		int on = k->v[j].pipe == lane, bon = best != GP_NONE && k->v[best].pipe == lane;

		if (q->end > t)
			continue;
		if (b == NULL || q->end > b->end || (q->end == b->end && on && !bon) ||
		    (q->end == b->end && on == bon && q->start > b->start) ||
		    (q->end == b->end && on == bon && q->start == b->start && (int32_t)j > best))
			best = (int32_t)j;
	}
	return best;
}

/*
 * A dependency whose WAIT did not block (it began after its SET): the
 * consumer at the latest of its producer's end (on another core: held as
 * it was) and what its WAIT began behind, no later than s.
 */
static int64_t set_flag(const struct gp_run *run, const struct gp_core *k, int32_t x,
			const int64_t *en)
{
	const struct gp_instr *v = &k->v[x];
	const struct gp_slot *o = &k->sched[x];
	int64_t s = o->start, t;
	int32_t q = latest_end_by(k, o->wait_b, v->pipe);

	if (v->dep == GP_DEP_CROSS)
		t = min64(run->core[v->dep_core].sched[v->dep_idx].end, s);
	else
		t = en[v->dep_idx] + min64(0, s - k->sched[v->dep_idx].end);
	if (q == GP_NONE)
		return max64(t, min64(o->wait_b, s));
	return max64(t, en[q] + min64(o->wait_b - k->sched[q].end, s - k->sched[q].end));
}

/* The constraints of node x on the replayed times st/en (docs' list). */
static int64_t constraint(const struct gp_run *run, const struct gp_core *k, int32_t x,
			  int32_t prev_start, const int64_t *st, const int64_t *en)
{
	const struct gp_instr *v = &k->v[x];
	const struct gp_slot *o = &k->sched[x];
	int64_t s = o->start, t = INT64_MIN;
	int32_t pp = pipe_pred(k, x);

	/* the binding predecessor, with the lag that reproduces s (a WAIT
	   that did not block never binds) */
	if (o->cause == GP_CROSS || o->cause == GP_HEAD)
		t = s;
	else if (o->by_rate || (o->cause == GP_ISSUE && v->launch))
		/* the issue rate after its predecessor's start; a VF's launch */
		t = st[o->from] + (s - k->sched[o->from].start);
	else
		t = en[o->from] + (s - k->sched[o->from].end);
	/* a dependency that did not bind: its producer's end plus the
	   release's delay; one that did not block, by its WAIT's begin too */
	if (v->dep != GP_DEP_NONE && o->late) {
		t = max64(t, set_flag(run, k, x, en));
	} else if (v->dep == GP_DEP_FLAG && o->cause != GP_FLAG) {
		int64_t pe = k->sched[v->dep_idx].end;

		t = max64(t, en[v->dep_idx] + min64(max64(o->release - pe, 0), s - pe));
	} else if (v->dep == GP_DEP_CROSS && o->cause != GP_CROSS) {
		t = max64(t, min64(o->release, s));
	}
	if (pp != GP_NONE && o->cause != GP_PIPE && !(o->cause == GP_ISSUE && v->launch))
		t = max64(t, en[pp] + min64(0, s - k->sched[pp].end));
	if (prev_start != GP_NONE)
		t = max64(t, st[prev_start]);
	return t;
}

/* Core c's span by the model with pipe `halve`'s durations halved (rounded up). */
int gp_model_span(const struct gp_run *run, size_t c, int halve, int64_t *span)
{
	const struct gp_core *k = &run->core[c];
	struct key *keys = malloc((k->n + 1) * sizeof(*keys));
	int64_t *st = malloc((k->n + 1) * sizeof(*st)), *en = malloc((k->n + 1) * sizeof(*en));
	int32_t last[GP_NPIPES];
	int64_t e = k->t0;

	if (keys == NULL || st == NULL || en == NULL) {
		free(keys);
		free(st);
		free(en);
		return -1;
	}
	for (size_t i = 0; i < k->n; i++)
		keys[i] = (struct key){ k->sched[i].start, k->sched[i].end, (int32_t)i };
	qsort(keys, k->n, sizeof(*keys), key_cmp);
	for (unsigned p = 0; p < GP_NPIPES; p++)
		last[p] = GP_NONE;
	for (size_t r = 0; r < k->n; r++) {
		int32_t x = keys[r].i;
		int64_t d = k->sched[x].end - k->sched[x].start;

		if (halve == (int)k->v[x].pipe)
			d -= d / 2;
		st[x] = constraint(run, k, x, last[k->v[x].pipe], st, en);
		en[x] = st[x] + d;
		e = max64(e, en[x]);
		last[k->v[x].pipe] = x;
	}
	*span = e - k->t0;
	free(keys);
	free(st);
	free(en);
	return 0;
}
