/*
 * gen_path's simulator: each instruction starts at the latest of its
 * terms (issue point, pipe free, dependency release plus its dispatch
 * delay), and the term that was latest is recorded as its cause.
 * gp_settle then makes every start unambiguous for the documented rules
 * (docs/critical-path.md), and gp_truth walks the recorded causes back.
 */
#include "gen_path.h"

#include <stdlib.h>
#include <string.h>

uint64_t gp_rand(struct gp_rng *r)
{
	uint64_t z = (r->s += 0x9E3779B97F4A7C15ull);

	z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
	z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
	return z ^ (z >> 31);
}

int64_t gp_range(struct gp_rng *r, int64_t lo, int64_t hi)
{
	return lo + (int64_t)(gp_rand(r) % (uint64_t)(hi - lo + 1));
}

static int64_t max64(int64_t a, int64_t b)
{
	return a > b ? a : b;
}

/* The candidate terms of one start: index by cause, value INT64_MIN when absent. */
struct gp_terms {
	int64_t v[GP_CROSS + 1];
	int32_t from[GP_CROSS + 1];
	int64_t issue;     /* the issue point (t0 for the head) */
	int64_t wait_b, release;
	int late;
	int64_t local;     /* without the dependency: the best local release */
	int32_t local_from;
	int by_rate;       /* GP_PIPE is the issue rate behind the previous start */
};

/* Raises term j to v, from `from`, when v is later. */
static void raise_term(struct gp_terms *t, int j, int64_t v, int32_t from)
{
	if (v > t->v[j]) {
		t->v[j] = v;
		t->from[j] = from;
	}
}

/* The instruction `depth` back on x's pipe: its end frees the pipe for x. */
static int32_t pipe_back(const struct gp_core *k, const int32_t *prev, int32_t last, unsigned pipe)
{
	int32_t q = last;

	for (unsigned d = 1; d < k->depth[pipe] && q != GP_NONE; d++)
		q = prev[q];
	return q;
}

/* last: the pipe's previous instruction; xlast: its latest with a cross-core dependency */
static void terms_of(const struct gp_run *run, size_t c, size_t i, const struct gp_slot *s,
		     const struct gp_slot *const *others, const int32_t *prev, int32_t last,
		     int32_t xlast, struct gp_terms *t)
{
	const struct gp_core *k = &run->core[c];
	const struct gp_instr *x = &k->v[i];
	int32_t freer;

	for (int j = 0; j <= GP_CROSS; j++) {
		t->v[j] = INT64_MIN;
		t->from[j] = GP_NONE;
	}
	if (x->issuer == GP_NONE) {
		t->v[GP_HEAD] = k->t0;
	} else {
		t->v[GP_ISSUE] = (x->launch ? s[x->issuer].start : s[x->issuer].end) + x->gap;
		t->from[GP_ISSUE] = x->issuer;
	}
	freer = pipe_back(k, prev, last, x->pipe);
	if (freer != GP_NONE) {
		t->v[GP_PIPE] = s[freer].end + x->lat;
		t->from[GP_PIPE] = freer;
	}
	/* a pipelined pipe starts one instruction per `rate` ns at most */
	t->by_rate = 0;
	if (k->rate[x->pipe] > 0 && last != GP_NONE && s[last].start + k->rate[x->pipe] > t->v[GP_PIPE]) {
		t->v[GP_PIPE] = s[last].start + k->rate[x->pipe];
		t->from[GP_PIPE] = last;
		t->by_rate = 1;
	}
	/* the local release a cross-core wait is measured from: the issue,
	   the WAIT queued behind the pipe's previous instruction (clip), the
	   pipe free (its end; the ns of latency after it are the wait's);
	   ties to the later in that list */
	t->local = t->v[GP_ISSUE] != INT64_MIN ? t->v[GP_ISSUE] : t->v[GP_HEAD];
	t->local_from = x->issuer;
	if (x->dep == GP_DEP_CROSS && x->clip && last != GP_NONE && s[last].end >= t->local) {
		t->local = s[last].end;
		t->local_from = last;
	}
	if (freer != GP_NONE && s[freer].end >= t->local) {
		t->local = s[freer].end;
		t->local_from = freer;
	}
	/* a pipelined pipe would have taken x at its rate behind the one before */
	if (k->rate[x->pipe] > 0 && last != GP_NONE &&
	    s[last].start + k->rate[x->pipe] >= t->local) {
		t->local = s[last].start + k->rate[x->pipe];
		t->local_from = last;
	}
	t->issue = t->v[GP_ISSUE] != INT64_MIN ? t->v[GP_ISSUE] : t->v[GP_HEAD];
	t->wait_b = t->release = INT64_MIN;
	t->late = 0;
	if (x->dep != GP_DEP_NONE) {
		const struct gp_slot *p = x->dep == GP_DEP_FLAG ? &s[x->dep_idx]
				       : &others[x->dep_core][x->dep_idx];
		int kind = x->dep == GP_DEP_FLAG ? GP_FLAG : GP_CROSS;
		int clipped = x->clip && last != GP_NONE && s[last].end > t->issue;
		/* the SET's end rounds up to the ns after the producer's */
		int64_t set_end = p->end + 1;

		t->wait_b = clipped ? s[last].end : t->issue;
		/* a cross-core WAIT holds its pipe until released: a WAIT for
		   an instruction of that pipe begins after it */
		if (xlast != GP_NONE)
			t->wait_b = max64(t->wait_b, s[xlast].release);
		if (set_end > t->wait_b) {
			t->release = set_end;
			t->v[kind] = t->release + x->delay;
			t->from[kind] = x->dep_idx;
			return;
		}
		/* Reached after its SET: the WAIT lasts a cycle (0 or 1 ns on the
		   grid, by program place) and held nothing. What it began behind,
		   the issue or the pipe's previous instruction, holds the start. */
		t->late = 1;
		t->release = t->wait_b + (int64_t)(x->pos % 2);
		if (clipped) {
			if (t->release + x->delay > t->v[GP_PIPE])
				t->by_rate = 0;
			raise_term(t, GP_PIPE, t->release + x->delay, last);
		}
		else if (x->issuer != GP_NONE)
			raise_term(t, GP_ISSUE, t->release + x->delay, x->issuer);
		else
			raise_term(t, GP_HEAD, t->release + x->delay, GP_NONE);
	}
}

/* The binding term: the latest; on equal values dependency, pipe, issue. */
static int binding(const struct gp_terms *t)
{
	static const int prio[] = { GP_FLAG, GP_CROSS, GP_PIPE, GP_ISSUE, GP_HEAD };
	int best = GP_NONE;

	for (size_t j = 0; j < sizeof(prio) / sizeof(prio[0]); j++)
		if (t->v[prio[j]] != INT64_MIN && (best == GP_NONE || t->v[prio[j]] > t->v[best]))
			best = prio[j];
	return best;
}

/* Core c's schedule into out[0..n) with pipe `halve`'s durations halved
   (rounded up), or none (-1); the other cores' from others[]. */
static int simulate_core(const struct gp_run *run, size_t c, int halve,
			 const struct gp_slot *const *others, struct gp_slot *out)
{
	const struct gp_core *k = &run->core[c];
	int32_t *prev = malloc((k->n + 1) * sizeof(*prev));
	int32_t last[GP_NPIPES], xlast[GP_NPIPES];

	if (prev == NULL)
		return -1;
	for (unsigned p = 0; p < GP_NPIPES; p++)
		last[p] = xlast[p] = GP_NONE;
	for (size_t i = 0; i < k->n; i++) {
		const struct gp_instr *x = &k->v[i];
		struct gp_terms t;
		int64_t d = x->dur;
		int b;

		terms_of(run, c, i, out, others, prev, last[x->pipe], xlast[x->pipe], &t);
		b = binding(&t);
		if (halve == (int)x->pipe)
			d -= d / 2;
		out[i] = (struct gp_slot){ .issue = t.issue, .start = t.v[b], .end = t.v[b] + d,
					   .wait_b = t.wait_b, .release = t.release,
					   .from = t.from[b], .cause = (uint8_t)b,
					   .late = (uint8_t)t.late, .local = t.local,
					   .local_from = t.local_from,
					   .by_rate = (uint8_t)(b == GP_PIPE && t.by_rate) };
		prev[i] = last[x->pipe];
		last[x->pipe] = (int32_t)i;
		if (x->dep == GP_DEP_CROSS)
			xlast[x->pipe] = (int32_t)i;
	}
	free(prev);
	return 0;
}

int gp_simulate(const struct gp_run *run, size_t c, int halve, struct gp_slot *out)
{
	const struct gp_slot *others[GP_MAX_CORES];

	for (size_t j = 0; j < run->ncores; j++)
		others[j] = run->core[j].sched;
	return simulate_core(run, c, halve, others, out);
}

/*
 * Every core together: core after core, each from the others' latest
 * schedules, until none changes. A cross-core producer ends before its
 * consumer starts, so each round settles one more hop; GP_MAX_CORES + 1
 * rounds settle every chain of the run's cores and one more proves it.
 */
int gp_simulate_all(const struct gp_run *run, int halve, struct gp_slot *const *out)
{
	const struct gp_slot *others[GP_MAX_CORES];
	int changed = 1;

	for (size_t c = 0; c < run->ncores; c++) {
		memcpy(out[c], run->core[c].sched, run->core[c].n * sizeof(*out[c]));
		others[c] = out[c];
	}
	for (int round = 0; changed; round++) {
		if (round > 64)
			return -1;
		changed = 0;
		for (size_t c = 0; c < run->ncores; c++) {
			const struct gp_core *k = &run->core[c];
			struct gp_slot *tmp = malloc((k->n + 1) * sizeof(*tmp));

			if (tmp == NULL || simulate_core(run, c, halve, others, tmp) != 0) {
				free(tmp);
				return -1;
			}
			for (size_t i = 0; i < k->n; i++)
				changed |= tmp[i].start != out[c][i].start || tmp[i].end != out[c][i].end;
			memcpy(out[c], tmp, k->n * sizeof(*tmp));
			free(tmp);
		}
	}
	return 0;
}

/* ------------------------------------------------------------ settling */

enum fail_kind {
	F_NONE, F_MARGIN, F_CONSUMER, F_PRODUCER, F_LANE, F_ISSUE, F_CROSS, F_LAST, F_RELEASE,
	F_EDGE, F_RATE, F_LAUNCH
};

struct fail {
	int kind;
	size_t core;
	int32_t x;
	int32_t culprit;          /* an instruction of culprit_core, or GP_NONE */
	size_t culprit_core;
	int runner;               /* F_MARGIN: the runner-up term */
	int64_t raise;            /* F_MARGIN: what x's own term (delay, else gap) must add */
	int32_t alt;              /* F_CROSS: the latest end before x, which may move instead */
	int64_t at;               /* x's start: the earliest failure is fixed first */
};

/* A core's instructions sorted by one of their times, for the checks' look-ups. */
struct key {
	int64_t t;
	int32_t i;
};

struct views {
	struct key *by_end[GP_MAX_CORES], *by_start[GP_MAX_CORES];
};

static int key_cmp(const void *a, const void *b)
{
	const struct key *x = a, *y = b;

	if (x->t != y->t)
		return x->t < y->t ? -1 : 1;
	return (x->i > y->i) - (x->i < y->i);
}

static void views_free(struct views *v)
{
	for (size_t c = 0; c < GP_MAX_CORES; c++) {
		free(v->by_end[c]);
		free(v->by_start[c]);
	}
}

static int views_build(const struct gp_run *run, struct views *v)
{
	memset(v, 0, sizeof(*v));
	for (size_t c = 0; c < run->ncores; c++) {
		const struct gp_core *k = &run->core[c];

		v->by_end[c] = malloc((k->n + 1) * sizeof(struct key));
		v->by_start[c] = malloc((k->n + 1) * sizeof(struct key));
		if (v->by_end[c] == NULL || v->by_start[c] == NULL) {
			views_free(v);
			return -1;
		}
		for (size_t j = 0; j < k->n; j++) {
			v->by_end[c][j] = (struct key){ k->sched[j].end, (int32_t)j };
			v->by_start[c][j] = (struct key){ k->sched[j].start, (int32_t)j };
		}
		qsort(v->by_end[c], k->n, sizeof(struct key), key_cmp);
		qsort(v->by_start[c], k->n, sizeof(struct key), key_cmp);
	}
	return 0;
}

/* The first of keys[0..n) whose time is at least t. */
static size_t lower(const struct key *keys, size_t n, int64_t t)
{
	size_t lo = 0, hi = n;

	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;

		if (keys[mid].t < t)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo;
}

/*
 * A node of core k other than ex1/ex2 that starts before s_lim and ends in
 * [a, b], on lane `lane` or in family `fam` when they are not -1.
 */
static int32_t end_in(const struct gp_core *k, const struct key *ends, int64_t s_lim, int64_t a,
		      int64_t b, int32_t ex1, int32_t ex2, int lane, int fam)
{
	for (size_t r = lower(ends, k->n, a); r < k->n && ends[r].t <= b; r++) {
		int32_t j = ends[r].i;

		if (j == ex1 || j == ex2 || k->sched[j].start >= s_lim)
			continue;
		if ((lane >= 0 && k->v[j].pipe != (unsigned)lane) ||
		    (fam >= 0 && gp_family(k->v[j].pipe) != (unsigned)fam))
			continue;
		return j;
	}
	return GP_NONE;
}

static void note(struct fail *f, int kind, size_t c, int32_t x, int64_t at, size_t cc,
		 int32_t culprit)
{
	if (f->kind != F_NONE && f->at <= at)
		return;
	*f = (struct fail){ kind, c, x, culprit, cc, GP_NONE, 0, GP_NONE, at };
}

/*
 * Whether the walk's documented rule finds a cross-core-bound x's local
 * release (docs/critical-path.md): the latest of what its lane allowed and
 * the WAIT's begin, the lane on a tie. The lane allowed x at its rate as
 * the trace shows it (rates_seen()) behind its previous instruction (last)
 * while that one still ran, else at
 * its latest end at or before s + TOL; from the WAIT's begin, the
 * instruction ending last by it. GP_NONE when it gives the simulation's
 * (o->local, o->local_from) with no other end within the margin of it;
 * else an instruction in the way.
 */
static int32_t cross_local_check(const struct gp_core *k, const struct key *ends, int32_t x,
				 int32_t last, int64_t rate)
{
	const struct gp_slot *o = &k->sched[x];
	int64_t s = o->start, b = o->wait_b;
	int32_t pp = GP_NONE, q;

	if (rate != INT64_MAX && last != GP_NONE && k->sched[last].start + rate < k->sched[last].end &&
	    k->sched[last].start + rate < s) {
		int64_t at = k->sched[last].start + rate;

		if (at >= b)
			return at == o->local && o->local_from == last ? GP_NONE : last;
		if (b != o->local)
			return o->local_from != GP_NONE ? o->local_from : last;
		return end_in(k, ends, s, o->local_from != GP_NONE
			      ? k->sched[o->local_from].end - GP_MARGIN : INT64_MIN / 2,
			      b + GP_MARGIN, x, o->local_from, -1, -1);
	}

	for (size_t r = lower(ends, k->n, s + GP_TOL + 1); r-- > 0;) {
		int32_t j = ends[r].i;

		if (j != x && k->v[j].pipe == k->v[x].pipe && k->sched[j].start < s) {
			pp = j;
			break;
		}
	}
	if (pp != GP_NONE && k->sched[pp].end >= b) {
		/* the lane's end gives it: it must be the simulation's, and no
		   other lane's end within the margin under it */
		if (pp != o->local_from || k->sched[pp].end != o->local)
			return pp;
		q = end_in(k, ends, s, o->local - GP_MARGIN, o->local + GP_MARGIN, x, pp,
			   (int)k->v[x].pipe, -1);
		return q;
	}
	if (b != o->local)
		return o->local_from != GP_NONE ? o->local_from : pp;
	/* from the WAIT's begin: the instruction ending last by it, unique */
	if (pp != GP_NONE && k->sched[pp].end > b - GP_MARGIN)
		return pp;
	q = end_in(k, ends, s, o->local_from != GP_NONE ? k->sched[o->local_from].end - GP_MARGIN
			       : INT64_MIN / 2, b + GP_MARGIN, x, o->local_from, -1, -1);
	return q;
}

/*
 * The walk's vector-function rule (docs/critical-path.md) reads a micro-op
 * (RVEC*) that no flag or pipe binds as launched by the latest VF when it
 * started while that one ran: a launched one's VF must run past the margin,
 * any other issue-bound micro-op's latest VF must have ended by its start.
 */
static void launch_check(const struct gp_core *k, size_t c, int32_t x, struct fail *f)
{
	const struct gp_slot *o = &k->sched[x];
	int32_t vf = GP_NONE;

	if (k->v[x].pipe < GP_RVECLD || k->v[x].pipe > GP_RVECST || o->cause != GP_ISSUE)
		return;
	/* the latest VF by time, as the walk reads the trace (a later tile's
	   VF may start while this one's micro-ops still issue) */
	for (size_t j = 0; j < k->n; j++)
		if (k->v[j].pipe == GP_PUSHQ && k->sched[j].start < o->start &&
		    (vf == GP_NONE || k->sched[j].start >= k->sched[vf].start))
			vf = (int32_t)j;
	if (k->v[x].launch ? vf != o->from || k->sched[vf].end <= o->start + GP_MARGIN
			   : vf != GP_NONE && k->sched[vf].end > o->start - GP_MARGIN)
		note(f, F_LAUNCH, c, x, o->start, c, vf != GP_NONE ? vf : o->from);
}

/* What x's own term (its delay, else its gap) must add to win by more than the margin. */
static int64_t raise_of(const struct gp_terms *t, const struct gp_instr *x)
{
	int own = x->dep == GP_DEP_FLAG && !t->late ? GP_FLAG
		  : x->dep == GP_DEP_CROSS && !t->late ? GP_CROSS
		  : x->issuer != GP_NONE ? GP_ISSUE : GP_NONE;
	int64_t top = INT64_MIN;

	if (own == GP_NONE || t->v[own] == INT64_MIN)
		return 0;
	for (int j = 0; j <= GP_CROSS; j++)
		if (j != own && t->v[j] > top)
			top = t->v[j];
	return top == INT64_MIN ? 0 : max64(0, top - t->v[own] + GP_MARGIN + 1);
}

/* The checks of one node (gen_path.c lists them), the earliest failure into f. */
static void check_node(const struct gp_run *run, const struct views *v, size_t c, size_t i,
		       const int32_t *prev, int32_t last, int32_t xlast, int64_t rate,
		       struct fail *f)
{
	const struct gp_core *k = &run->core[c];
	const struct key *ends = v->by_end[c];
	const struct gp_instr *x = &k->v[i];
	const struct gp_slot *o = &k->sched[i];
	int64_t s = o->start;
	struct gp_terms t;
	const struct gp_slot *others[GP_MAX_CORES];
	int32_t q;

	for (size_t j = 0; j < run->ncores; j++)
		others[j] = run->core[j].sched;
	terms_of(run, c, i, k->sched, others, prev, last, xlast, &t);
	for (int j = 0; j <= GP_CROSS; j++) {
		/* pipe and issue from one instruction at one instant: one walk either way */
		int same = (j == GP_ISSUE || j == GP_PIPE) && o->cause == GP_PIPE &&
			   t.from[j] == o->from && t.v[j] == s;

		if (t.v[j] == INT64_MIN || same || j == o->cause || s - t.v[j] > GP_MARGIN)
			continue;
		note(f, F_MARGIN, c, (int32_t)i, s, c, t.from[j]);
		if (f->x == (int32_t)i && f->core == c && f->kind == F_MARGIN) {
			f->runner = j;
			f->raise = raise_of(&t, x);
		}
	}
	q = end_in(k, ends, s, s - GP_MARGIN, s + GP_MARGIN, (int32_t)i,
		   o->cause == GP_PIPE || o->cause == GP_ISSUE ? o->from : GP_NONE, x->pipe, -1);
	if (q != GP_NONE)
		note(f, F_LANE, c, (int32_t)i, s, c, q);
	/* issue-bound, or held by a pipe's end too far back for the pipe rule
	   (a late WAIT behind it, then the dispatch delay): the walk's issue
	   rule must find the instruction that held it */
	launch_check(k, c, (int32_t)i, f);
	if ((o->cause == GP_ISSUE && !x->launch) ||
	    (o->cause == GP_PIPE && !o->by_rate && s - k->sched[o->from].end > GP_TOL)) {
		q = end_in(k, ends, s, k->sched[o->from].end - GP_MARGIN, s + GP_MARGIN, (int32_t)i,
			   o->from, -1, -1);
		if (q != GP_NONE)
			note(f, F_ISSUE, c, (int32_t)i, s, c, q);
	}
	if (o->cause == GP_CROSS) {
		q = cross_local_check(k, ends, (int32_t)i, last, rate);
		if (q != GP_NONE) {
			note(f, F_CROSS, c, (int32_t)i, s, c, q);
			if (f->x == (int32_t)i && f->core == c && f->kind == F_CROSS)
				f->alt = o->local_from;   /* the local release itself may move */
		}
	}
	if (x->dep != GP_DEP_NONE) {
		const struct gp_core *pk = x->dep == GP_DEP_FLAG ? k : &run->core[x->dep_core];
		size_t pc = x->dep == GP_DEP_FLAG ? c : x->dep_core;
		int64_t pe = pk->sched[x->dep_idx].end;

		if (run->producer_released && (o->late || o->release > pe + 1))
			note(f, F_RELEASE, c, (int32_t)i, s, c, GP_NONE);
		/* a WAIT begun at its producer's end: whether it blocked hangs on
		   the SET's rounding (its E at pe or pe + 1 on the grid) */
		if (o->wait_b == pe)
			note(f, F_EDGE, c, (int32_t)i, s, pc, x->dep_idx);
		/* consumer: the first of the family starting at or after the WAIT's end */
		for (size_t r = lower(v->by_start[c], k->n, o->release);
		     r < k->n && v->by_start[c][r].t <= s; r++) {
			int32_t j = v->by_start[c][r].i;

			if (j != (int32_t)i && gp_family(k->v[j].pipe) == gp_family(x->pipe)) {
				note(f, F_CONSUMER, c, (int32_t)i, s, c, j);
				break;
			}
		}
		/* producer: the latest end of its family completed by the SET
		   (by its end, pe + 1 on the grid, for a cross-core one) */
		q = end_in(pk, v->by_end[pc], pe, pe - GP_MARGIN, pe + 1, x->dep_idx, GP_NONE, -1,
			   (int)gp_family(pk->v[x->dep_idx].pipe));
		if (q != GP_NONE)
			note(f, F_PRODUCER, c, (int32_t)i, s, pc, q);
	}
}

static void check_last(const struct gp_core *k, const struct key *ends, size_t c, struct fail *f)
{
	int32_t l = ends[k->n - 1].i;
	int32_t q = end_in(k, ends, INT64_MAX, k->sched[l].end - GP_MARGIN, k->sched[l].end, l,
			   GP_NONE, -1, -1);

	if (q != GP_NONE)
		note(f, F_LAST, c, l, k->sched[l].start, c, q);
}

/*
 * The issue rate as the walk reads it from the trace (docs/critical-path.md):
 * a pipe's least start-to-start gap of an instruction started while the one
 * before it ran. Every such start at that gap must be the simulation's
 * rate-bound one, and every rate-bound start must be such, its predecessor
 * running past the margin (else a slot within TOL would explain it too).
 */
static void rates_seen(const struct gp_core *k, const int32_t *prev, int64_t *seen)
{
	for (unsigned p = 0; p < GP_NPIPES; p++)
		seen[p] = INT64_MAX;
	for (size_t i = 0; i < k->n; i++) {
		const struct gp_slot *o = &k->sched[i];
		int32_t q = prev[i];

		if (q != GP_NONE && k->sched[q].end > o->start && o->start > k->sched[q].start &&
		    o->start - k->sched[q].start < seen[k->v[i].pipe])
			seen[k->v[i].pipe] = o->start - k->sched[q].start;
	}
}

static void check_rates(const struct gp_core *k, size_t c, const int32_t *prev,
			const int64_t *seen, struct fail *f)
{
	for (size_t i = 0; i < k->n; i++) {
		const struct gp_slot *o = &k->sched[i];
		int32_t q = prev[i];
		int at_rate = q != GP_NONE && k->sched[q].end > o->start &&
			      o->start - k->sched[q].start >= seen[k->v[i].pipe] &&
			      o->start - k->sched[q].start <= seen[k->v[i].pipe] + 1;

		if (o->by_rate && (!at_rate || k->sched[q].end <= o->start + GP_MARGIN))
			note(f, F_RATE, c, (int32_t)i, o->start, c, q);
		else if (at_rate && !o->by_rate)
			note(f, F_RATE, c, (int32_t)i, o->start, c, q);
	}
}

static int verify(const struct gp_run *run, struct fail *f)
{
	struct views v;

	f->kind = F_NONE;
	if (views_build(run, &v) != 0)
		return -1;
	for (size_t c = 0; c < run->ncores; c++) {
		const struct gp_core *k = &run->core[c];
		int32_t *prev = malloc((k->n + 1) * sizeof(*prev));
		int32_t last[GP_NPIPES], xlast[GP_NPIPES];
		int64_t seen[GP_NPIPES];

		if (prev == NULL) {
			views_free(&v);
			return -1;
		}
		for (unsigned p = 0; p < GP_NPIPES; p++)
			last[p] = GP_NONE;
		for (size_t i = 0; i < k->n; i++) {
			prev[i] = last[k->v[i].pipe];
			last[k->v[i].pipe] = (int32_t)i;
		}
		rates_seen(k, prev, seen);
		for (unsigned p = 0; p < GP_NPIPES; p++)
			last[p] = xlast[p] = GP_NONE;
		for (size_t i = 0; i < k->n; i++) {
			unsigned pipe = k->v[i].pipe;

			check_node(run, &v, c, i, prev, last[pipe], xlast[pipe], seen[pipe], f);
			last[pipe] = (int32_t)i;
			if (k->v[i].dep == GP_DEP_CROSS)
				xlast[pipe] = (int32_t)i;
		}
		check_rates(k, c, prev, seen, f);
		if (k->n > 0)
			check_last(k, v.by_end[c], c, f);
		free(prev);
	}
	views_free(&v);
	return 0;
}

static void nudge_dur(struct gp_instr *x, struct gp_rng *r)
{
	int64_t d = gp_range(r, GP_MARGIN + 1, 3 * GP_MARGIN + 1);

	if (gp_rand(r) % 2 == 0 && x->dur > d + 2)
		x->dur -= d;
	else
		x->dur += d;
}

/* One random change near the failure; the schedule is simulated again after it. */
static void fix(struct gp_run *run, const struct fail *f, struct gp_rng *r)
{
	struct gp_core *k = &run->core[f->core];
	struct gp_instr *x = &k->v[f->x];
	const struct gp_slot *o = &k->sched[f->x];
	uint64_t pick = gp_rand(r) % 4;

	switch (f->kind) {
	case F_MARGIN:
		if (pick < 2 && f->raise > 0 && f->raise < 120) {
			if (x->dep != GP_DEP_NONE)
				x->delay += f->raise + gp_range(r, 0, 6);
			else
				x->gap += f->raise + gp_range(r, 0, 6);
			return;
		}
		if (x->dep != GP_DEP_NONE && pick == 2 && gp_rand(r) % 4 == 0) {
			x->dep = GP_DEP_NONE;
			return;
		}
		if (x->issuer != GP_NONE && pick == 2) {
			x->gap = x->gap > 0 && gp_rand(r) % 2 ? 0 : x->gap + gp_range(r, 4, 12);
			return;
		}
		if (o->from != GP_NONE && (o->cause != GP_CROSS || pick == 3)) {
			nudge_dur(o->cause == GP_CROSS ? &run->core[x->dep_core].v[o->from]
				  : &k->v[o->from], r);
			return;
		}
		if (f->culprit != GP_NONE && f->runner != GP_CROSS) {
			nudge_dur(&k->v[f->culprit], r);
			return;
		}
		x->gap += gp_range(r, 4, 12);
		return;
	case F_CONSUMER:
		if (pick == 0) {
			x->dep = GP_DEP_NONE;
			return;
		}
		if (pick == 1 && x->delay > 0) {
			x->delay = 0;
			return;
		}
		nudge_dur(x->dep == GP_DEP_FLAG ? &k->v[x->dep_idx]
			  : &run->core[x->dep_core].v[x->dep_idx], r);
		return;
	case F_ISSUE:
		if (pick == 0 && x->gap > 0) {
			x->gap = 0;
			return;
		}
		if (pick == 1) {
			nudge_dur(&k->v[x->issuer], r);
			return;
		}
		break;
	case F_LANE:
	case F_CROSS:
		if (pick == 0 && x->dep != GP_DEP_NONE) {
			x->delay = x->delay > 200 ? gp_range(r, 0, 40) : x->delay + gp_range(r, 4, 12);
			return;
		}
		if (pick == 1 && x->issuer != GP_NONE && f->kind == F_LANE) {
			x->gap += gp_range(r, 4, 12);
			return;
		}
		if (pick == 1 && f->alt != GP_NONE) {
			nudge_dur(&k->v[f->alt], r);
			return;
		}
		break;
	case F_PRODUCER:
		if (pick < 2) {
			nudge_dur(x->dep == GP_DEP_FLAG ? &k->v[x->dep_idx]
				  : &run->core[x->dep_core].v[x->dep_idx], r);
			return;
		}
		break;
	case F_RELEASE:
		if (x->clip && pick < 2)
			x->clip = 0;
		else
			x->dep = GP_DEP_NONE;
		return;
	case F_EDGE:   /* the culprit, the producer, ends elsewhere (default) */
		break;
	case F_LAUNCH:   /* a launching VF runs longer, any other ends sooner */
		if (f->culprit != GP_NONE) {
			struct gp_instr *vf = &run->core[f->culprit_core].v[f->culprit];

			int64_t past = o->start - run->core[f->core].sched[f->culprit].start +
				       gp_range(r, GP_MARGIN + 1, 3 * GP_MARGIN + 1);

			if (x->launch)
				vf->dur += gp_range(r, GP_MARGIN + 1, 3 * GP_MARGIN + 1);
			else if (vf->dep != GP_DEP_NONE && pick < 2)
				vf->delay += past;   /* the (later) VF starts after x */
			else if (vf->issuer != GP_NONE && pick < 3)
				vf->gap += past;
			else
				x->gap += run->core[f->core].sched[f->culprit].end - o->start +
					  gp_range(r, GP_MARGIN + 1, 3 * GP_MARGIN + 1);
			return;
		}
		break;
	case F_RATE:   /* move x's start, or what set it, off the rate's gap */
		if (pick == 0 && x->dep != GP_DEP_NONE) {
			x->delay += gp_range(r, 1, 6);
			return;
		}
		if (pick == 1 && x->issuer != GP_NONE) {
			x->gap += gp_range(r, 1, 6);
			return;
		}
		if (pick == 2 && o->from != GP_NONE && o->cause != GP_CROSS) {
			nudge_dur(&k->v[o->from], r);
			return;
		}
		break;
	case F_LAST:
		if (pick < 2) {
			nudge_dur(x, r);
			return;
		}
		break;
	default:
		break;
	}
	if (f->culprit != GP_NONE)
		nudge_dur(&run->core[f->culprit_core].v[f->culprit], r);
	else
		nudge_dur(x, r);
}

int gp_settle(struct gp_run *run, struct gp_rng *rng, long *fixes)
{
	for (*fixes = 0; *fixes < 200000; ++*fixes) {
		struct fail f = { 0 };

		for (size_t c = 0; c < run->ncores; c++)
			if (gp_simulate(run, c, -1, run->core[c].sched) != 0)
				return -1;
		if (verify(run, &f) != 0)
			return -1;
		if (f.kind == F_NONE)
			return 0;
		fix(run, &f, rng);
	}
	return -1;
}

/* -------------------------------------------------------------- truth */

/* Counts a segment of `kind` (1 busy, 2 wait, 3 cross, 4 issue); issue merges. */
static void seg(struct gp_truth *t, int *prev_kind, int kind, int64_t len)
{
	if (len <= 0)
		return;
	if (!(kind == 4 && *prev_kind == 4))
		t->segments++;
	*prev_kind = kind;
}

/* Time waited on the path for instruction i of core c's release. */
static void released(const struct gp_run *run, size_t c, int32_t i, int64_t len,
		     struct gp_truth *t)
{
	const struct gp_instr *v = &run->core[c].v[i];

	if (len <= 0)
		return;
	t->pos_rel[c][v->pos] += len;
	t->pos_name[c][v->pos] = v->name;
}

static void walk(const struct gp_run *run, size_t c, struct gp_truth *t)
{
	const struct gp_core *k = &run->core[c];
	int32_t l = 0, x;
	int64_t frontier;
	int prev = 0;

	for (size_t j = 1; j < k->n; j++)
		if (k->sched[j].end > k->sched[l].end)
			l = (int32_t)j;
	frontier = k->sched[l].end;
	for (x = l; x != GP_NONE;) {
		const struct gp_slot *o = &k->sched[x];
		unsigned pipe = k->v[x].pipe;
		int32_t next = o->from;
		int64_t at = k->t0;

		t->busy[pipe] += frontier - o->start;
		t->pos_busy[c][k->v[x].pos] += frontier - o->start;
		t->pos_name[c][k->v[x].pos] = k->v[x].name;
		seg(t, &prev, 1, frontier - o->start);
		t->causes[o->cause]++;
		t->pipe_over_flag += o->cause == GP_PIPE && k->v[x].dep != GP_DEP_NONE;
		if (o->cause == GP_CROSS)
			next = o->local_from;
		else if (o->cause == GP_HEAD)
			next = GP_NONE;
		if (next != GP_NONE)
			at = k->sched[next].end < o->start ? k->sched[next].end : o->start;
		if (o->cause == GP_CROSS && at > o->local)
			at = o->local;   /* released locally at the rate, behind `next` */
		if (o->cause == GP_FLAG) {
			t->wait[gp_family(k->v[next].pipe)][gp_family(pipe)] += o->start - at;
			seg(t, &prev, 2, o->start - at);
			released(run, c, next, o->start - at, t);
		} else if (o->cause == GP_CROSS) {
			/* only the excess over the local release waited on the other core */
			t->cross += o->start - o->local;
			released(run, k->v[x].dep_core, k->v[x].dep_idx, o->start - o->local, t);
			seg(t, &prev, 3, o->start - o->local);
			t->issue += o->local - at;
			seg(t, &prev, 4, o->local - at);
		} else {
			t->issue += o->start - at;
			seg(t, &prev, 4, o->start - at);
		}
		frontier = at;
		x = next;
	}
	t->issue += frontier - k->t0;
	seg(t, &prev, 4, frontier - k->t0);
}

/*
 * Per pipe of the run, every core's span re-simulated and by the model with
 * that pipe twice as fast on every core, the cores together (SPEC §13).
 */
static int what_ifs(const struct gp_run *run, struct gp_truth *t)
{
	struct gp_slot *out[GP_MAX_CORES] = { NULL };
	int rc = -1;

	for (size_t c = 0; c < run->ncores; c++)
		if ((out[c] = malloc((run->core[c].n + 1) * sizeof(*out[c]))) == NULL)
			goto done;
	for (unsigned p = 0; p < GP_NPIPES; p++) {
		int64_t model[GP_MAX_CORES];
		int any = 0;

		for (size_t c = 0; c < run->ncores; c++) {
			t[c].what_if[p] = -1;
			for (size_t j = 0; j < run->core[c].n; j++)
				any |= run->core[c].v[j].pipe == p;
		}
		if (!any)
			continue;
		if (gp_simulate_all(run, (int)p, out) != 0 || gp_model_spans(run, (int)p, model) != 0)
			goto done;
		for (size_t c = 0; c < run->ncores; c++) {
			const struct gp_core *k = &run->core[c];
			int64_t e = k->t0;

			for (size_t j = 0; j < k->n; j++)
				e = max64(e, out[c][j].end);
			t[c].what_if[p] = e - k->t0;
			t[c].model[p] = model[c];
		}
	}
	rc = 0;
done:
	for (size_t c = 0; c < run->ncores; c++)
		free(out[c]);
	return rc;
}

int gp_truth(const struct gp_run *run, struct gp_truth *t)
{
	for (size_t c = 0; c < run->ncores; c++) {
		const struct gp_core *k = &run->core[c];
		int64_t last = k->t0;

		memset(&t[c], 0, sizeof(t[c]));
		for (size_t j = 0; j < k->n; j++)
			last = max64(last, k->sched[j].end);
		t[c].span = last - k->t0;
		walk(run, c, &t[c]);
	}
	return what_ifs(run, t);
}
