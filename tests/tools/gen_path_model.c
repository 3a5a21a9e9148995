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
	int32_t i, core;
};

/* Nodes in start order; equal starts by core, then end, then input order
   (the trace's: end, index). Any order that replays a constraint's node
   first gives the same times: this one does. */
static int key_cmp(const void *a, const void *b)
{
	const struct key *x = a, *y = b;

	if (x->start != y->start)
		return x->start < y->start ? -1 : 1;
	if (x->core != y->core)
		return x->core < y->core ? -1 : 1;
	if (x->end != y->end)
		return x->end < y->end ? -1 : 1;
	return (x->i > y->i) - (x->i < y->i);
}

/*
 * A pipe's latest instructions in start order as the converter reads them
 * (docs/critical-path.md, "What-if": a twin, starting with the one before
 * it, stands as the longer of the two), for the depth it saw and the slot
 * an instruction took on a pipe two or more deep.
 */
#define DEPTH_MAX 8

struct recent {
	int32_t at[DEPTH_MAX];
	uint32_t n, depth;
};

static void recent_pass(const struct gp_core *k, struct recent *r, int32_t x)
{
	int32_t *last = r->n > 0 ? &r->at[(r->n - 1) % DEPTH_MAX] : NULL;

	if (last != NULL && k->sched[*last].start == k->sched[x].start) {
		if (k->sched[x].end > k->sched[*last].end)
			*last = x;
		return;
	}
	r->at[r->n % DEPTH_MAX] = x;
	r->n++;
}

/* The most of a pipe's instructions seen running at once, x among them. */
static void recent_depth(const struct gp_core *k, struct recent *r, int32_t x)
{
	uint32_t running = 1;

	if (r->n > 0 && k->sched[r->at[(r->n - 1) % DEPTH_MAX]].start == k->sched[x].start)
		return;
	for (uint32_t j = 0; j < r->n && j < DEPTH_MAX - 1; j++)
		running += k->sched[r->at[(r->n - 1 - j) % DEPTH_MAX]].end > k->sched[x].start;
	if (running > r->depth)
		r->depth = running;
}

static int32_t recent_slot(const struct recent *r)
{
	return r->depth >= 2 && r->n >= r->depth ? r->at[(r->n - r->depth) % DEPTH_MAX] : GP_NONE;
}

/* The replayed times of every core, each indexed like its sched. */
struct times {
	int64_t *st[GP_MAX_CORES], *en[GP_MAX_CORES];
};

/*
 * A constraint from another core's producer (x's dependency): at the time
 * t it gives in the trace, moved with the producer when it started before
 * x (and so is replayed first).
 */
static int64_t cross_at(const struct gp_run *run, const struct gp_instr *v, int64_t s,
			const struct times *tm, int64_t t)
{
	const struct gp_slot *p = &run->core[v->dep_core].sched[v->dep_idx];

	if (p->start >= s)
		return t;
	return tm->en[v->dep_core][v->dep_idx] + (t - p->end);
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

/* "The node of any lane with the latest end at or before s + TOL",
   starting before s (ties: the later start, then the later in the trace). */
static int32_t any_pred(const struct gp_core *k, int32_t x)
{
	int64_t s = k->sched[x].start;
	int32_t best = GP_NONE;

	for (size_t j = 0; j < k->n; j++) {
		const struct gp_slot *q = &k->sched[j];
		const struct gp_slot *b = best != GP_NONE ? &k->sched[best] : NULL;

		if (q->start >= s || q->end > s + GP_TOL)
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
/* Whether y comes before x in the replay's order of core k (start, end, index). */
static int before(const struct gp_core *k, int32_t y, int32_t x)
{
	const struct gp_slot *a = &k->sched[y], *b = &k->sched[x];

	if (a->start != b->start)
		return a->start < b->start;
	return a->end != b->end ? a->end < b->end : y < x;
}

/* The instruction on x's lane of core k but x whose cross-core WAIT blocked
   and ended last at or before t (ties: the later in the program), or
   GP_NONE. */
static int32_t release_by(const struct gp_core *k, int64_t t, int32_t x)
{
	int32_t best = GP_NONE;

	for (size_t j = 0; j < k->n; j++)
		if (k->v[j].dep == GP_DEP_CROSS && !k->sched[j].late && k->v[j].pipe == k->v[x].pipe &&
		    (int32_t)j != x &&
		    k->sched[j].release <= t &&
		    (best == GP_NONE || k->sched[j].release >= k->sched[best].release))
			best = (int32_t)j;
	return best;
}

/*
 * What x's WAIT began behind, no later than its start s (docs' list): the
 * later of the instruction ending last by its begin and the last
 * cross-core release by then into x's lane, each keeping the gap from
 * that later one.
 */
static int64_t wait_begin(const struct gp_run *run, const struct gp_core *k, int32_t x,
			  const struct times *tm, const int64_t *st, const int64_t *en)
{
	const struct gp_slot *o = &k->sched[x];
	int64_t s = o->start, b = min64(o->wait_b, s), last = INT64_MIN, t = INT64_MIN;
	int32_t q = latest_end_by(k, b, k->v[x].pipe), y = release_by(k, b, x);

	if (q != GP_NONE)
		last = k->sched[q].end;
	if (y != GP_NONE && k->sched[y].release > last)
		last = k->sched[y].release;
	if (last == INT64_MIN)
		return b;
	if (q != GP_NONE)
		t = en[q] + (b - last);
	if (y != GP_NONE && before(k, y, x))
		t = max64(t, st[y] + (k->sched[y].release - k->sched[y].start) + (b - last));
	else if (y != GP_NONE)   /* started after x: the release from the other core */
		t = max64(t, cross_at(run, &k->v[y], s, tm, k->sched[y].release + (b - last)));
	return t;
}

static int64_t set_flag(const struct gp_run *run, const struct gp_core *k, int32_t x,
			const struct times *tm, const int64_t *st, const int64_t *en)
{
	const struct gp_instr *v = &k->v[x];
	int64_t s = k->sched[x].start, t;

	if (v->dep == GP_DEP_CROSS)
		t = cross_at(run, v, s, tm, min64(run->core[v->dep_core].sched[v->dep_idx].end, s));
	else
		t = en[v->dep_idx] + min64(0, s - k->sched[v->dep_idx].end);
	return max64(t, wait_begin(run, k, x, tm, st, en));
}

/* The constraints of node x on the replayed times st/en (docs' list). */
static int64_t constraint(const struct gp_run *run, const struct gp_core *k, int32_t x,
			  int32_t prev_start, int32_t slot, const struct times *tm,
			  const int64_t *st, const int64_t *en)
{
	const struct gp_instr *v = &k->v[x];
	const struct gp_slot *o = &k->sched[x];
	int64_t s = o->start, t = INT64_MIN;
	int32_t pp = pipe_pred(k, x);

	/* the binding predecessor, with the lag that reproduces s (a WAIT
	   that did not block never binds) */
	if (o->cause == GP_HEAD) {
		t = s;
	} else if (o->cause == GP_FLAG || o->cause == GP_CROSS) {
		/* an instruction ending as x starts could have issued it: then
		   the later of that issue and the release's own delay */
		int32_t a = any_pred(k, x);
		int issued = a != GP_NONE && k->sched[a].end >= s - GP_TOL;
		int64_t r = issued ? min64(o->release, s) : s;

		t = issued ? en[a] + (s - k->sched[a].end) : INT64_MIN;
		if (o->cause == GP_CROSS)
			/* the other core's release; its local one, the WAIT's begin */
			t = max64(t, max64(cross_at(run, v, s, tm, r), wait_begin(run, k, x, tm, st, en)));
		else
			t = max64(t, en[o->from] + max64(r - k->sched[o->from].end, 0));
	} else if (o->by_rate || (o->cause == GP_ISSUE && v->launch))
		/* the issue rate after its predecessor's start; a VF's launch */
		t = st[o->from] + (s - k->sched[o->from].start);
	else
		t = en[o->from] + (s - k->sched[o->from].end);
	/* a dependency that did not bind: its producer's end plus the
	   release's delay; one that did not block, by its WAIT's begin too */
	if (v->dep != GP_DEP_NONE && o->late) {
		t = max64(t, set_flag(run, k, x, tm, st, en));
	} else if (v->dep == GP_DEP_FLAG && o->cause != GP_FLAG) {
		int64_t pe = k->sched[v->dep_idx].end;

		t = max64(t, en[v->dep_idx] + min64(max64(o->release - pe, 0), s - pe));
	} else if (v->dep == GP_DEP_CROSS && o->cause != GP_CROSS) {
		t = max64(t, cross_at(run, v, s, tm, min64(o->release, s)));
	}
	if (slot != GP_NONE)   /* a deeper pipe: the slot x took */
		t = max64(t, en[slot] + min64(0, s - k->sched[slot].end));
	else if (pp != GP_NONE && o->cause != GP_PIPE && !(o->cause == GP_ISSUE && v->launch))
		t = max64(t, en[pp] + min64(0, s - k->sched[pp].end));
	if (prev_start != GP_NONE)
		t = max64(t, st[prev_start]);
	return t;
}

/* Every core's span by the model with pipe `halve`'s durations halved
   (rounded up), the cores replayed together. */
int gp_model_spans(const struct gp_run *run, int halve, int64_t *spans)
{
	size_t n = 0, at = 0;
	struct key *keys;
	struct times tm = { { NULL }, { NULL } };
	int32_t last[GP_MAX_CORES][GP_NPIPES];
	struct recent rec[GP_MAX_CORES][GP_NPIPES];
	int64_t e[GP_MAX_CORES];
	int rc = -1;

	for (size_t c = 0; c < run->ncores; c++)
		n += run->core[c].n;
	keys = malloc((n + 1) * sizeof(*keys));
	if (keys == NULL)
		return -1;
	for (size_t c = 0; c < run->ncores; c++) {
		const struct gp_core *k = &run->core[c];

		tm.st[c] = malloc((k->n + 1) * sizeof(*tm.st[c]));
		tm.en[c] = malloc((k->n + 1) * sizeof(*tm.en[c]));
		if (tm.st[c] == NULL || tm.en[c] == NULL)
			goto out;
		for (size_t i = 0; i < k->n; i++)
			keys[at++] = (struct key){ k->sched[i].start, k->sched[i].end, (int32_t)i,
						   (int32_t)c };
		for (unsigned p = 0; p < GP_NPIPES; p++)
			last[c][p] = GP_NONE;
		e[c] = k->t0;
	}
	qsort(keys, n, sizeof(*keys), key_cmp);
	for (size_t c = 0; c < run->ncores; c++)
		for (unsigned p = 0; p < GP_NPIPES; p++)
			rec[c][p] = (struct recent){ .depth = 1 };
	for (size_t r = 0; r < n; r++) {
		const struct gp_core *k = &run->core[keys[r].core];
		struct recent *q = &rec[keys[r].core][k->v[keys[r].i].pipe];

		recent_depth(k, q, keys[r].i);
		recent_pass(k, q, keys[r].i);
	}
	for (size_t c = 0; c < run->ncores; c++)
		for (unsigned p = 0; p < GP_NPIPES; p++)
			rec[c][p].n = 0;
	for (size_t r = 0; r < n; r++) {
		size_t c = (size_t)keys[r].core;
		const struct gp_core *k = &run->core[c];
		int32_t x = keys[r].i;
		int64_t d = k->sched[x].end - k->sched[x].start;

		if (halve == (int)k->v[x].pipe)
			d -= d / 2;
		tm.st[c][x] = constraint(run, k, x, last[c][k->v[x].pipe],
					 recent_slot(&rec[c][k->v[x].pipe]), &tm, tm.st[c], tm.en[c]);
		tm.en[c][x] = tm.st[c][x] + d;
		recent_pass(k, &rec[c][k->v[x].pipe], x);
		e[c] = max64(e[c], tm.en[c][x]);
		last[c][k->v[x].pipe] = x;
	}
	for (size_t c = 0; c < run->ncores; c++)
		spans[c] = e[c] - run->core[c].t0;
	rc = 0;
out:
	for (size_t c = 0; c < run->ncores; c++) {
		free(tm.st[c]);
		free(tm.en[c]);
	}
	free(keys);
	return rc;
}
