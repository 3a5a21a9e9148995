#include "check/check_flat.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "base/array_grow.h"

static int cmp_d(double x, double y) { return (x > y) - (x < y); }
static int cmp_i64(int64_t x, int64_t y) { return (x > y) - (x < y); }
static int cmp_u64(uint64_t x, uint64_t y) { return (x > y) - (x < y); }
static int cmp_u32(uint32_t x, uint32_t y) { return (x > y) - (x < y); }

static double noise_tol(double a)
{
	return fmax(0.25, ldexp(fabs(a), -22));
}

static int is_point(const struct csim_check_slice *s)
{
	return s->end == s->start || s->b - s->a < 1.0;
}

/* catapult's Math.round: halves go up. */
static double js_round(double x)
{
	return floor(x + 0.5);
}

/* SPEC §4's occupancy interval, term for term. */
static void occupancy(const struct csim_check_slice *s, double *lo, double *hi)
{
	double tol = noise_tol(s->a);
	double grid_end = (double)s->end - 0.5;

	if (is_point(s)) {
		*lo = s->a - 1.0 - tol;
		*hi = fmax(fmax((double)s->start + 0.5, s->b - tol), grid_end);
	} else {
		*lo = s->a;
		*hi = fmax(s->b - tol, grid_end);
	}
}

static void report(struct csim_check_state *st, const char *rule,
		   const struct csim_check_slice *x, const struct csim_check_slice *y,
		   const char *why)
{
	char pb[CSIM_CHECK_KEY_TEXT], tb[CSIM_CHECK_KEY_TEXT];
	uint32_t pid, tid;

	csim_check_ids_thread_keys(&st->ids, x->thread, &pid, &tid);
	csim_check_violation(&st->rep, rule,
			     "pid %s tid %s: event #%llu [%.17g, %.17g] ns and event #%llu [%.17g, %.17g] ns (float ns): %s",
			     csim_check_ids_key_text(&st->ids, pid, pb, sizeof(pb)),
			     csim_check_ids_key_text(&st->ids, tid, tb, sizeof(tb)),
			     (unsigned long long)x->index, x->a, x->b,
			     (unsigned long long)y->index, y->a, y->b, why);
}

static int cmp_float_start(const void *pa, const void *pb)
{
	const struct csim_check_slice *x = pa, *y = pb;
	int c = cmp_u32(x->thread, y->thread);

	if (c == 0)
		c = cmp_d(x->a, y->a);
	return c != 0 ? c : cmp_u64(x->index, y->index);
}

/* In cmp_float_start order: a slice overlaps an earlier one beyond its tol
   iff it starts before the largest b - tol among them. */
static void float_overlap(struct csim_check_state *st)
{
	const struct csim_check_slice *s = st->slices;
	size_t n = st->nslices, owner = n;
	double reach = 0.0;

	for (size_t i = 0; i < n; i++) {
		double end = s[i].b - noise_tol(s[i].a);

		if (i > 0 && s[i - 1].thread != s[i].thread)
			owner = n;
		if (owner < n && s[i].a < reach)
			report(st, "float-overlap", &s[owner], &s[i],
			       "they overlap by more than float noise (tol)");
		if (owner == n || end > reach) {
			owner = i;
			reach = end;
		}
	}
}

static int cmp_catapult(const void *pa, const void *pb)
{
	const struct csim_check_slice *x = pa, *y = pb;
	int c = cmp_u32(x->thread, y->thread);

	if (c == 0)
		c = cmp_d(js_round(x->a), js_round(y->a));
	if (c == 0)
		c = cmp_d(js_round(y->b), js_round(x->b));
	return c != 0 ? c : cmp_u64(x->index, y->index);
}

/* In cmp_catapult order every earlier slice starts at or before this one
   on the rounded grid, so one contains it iff the furthest rounded end
   reaches its end. */
static void nest(struct csim_check_state *st)
{
	const struct csim_check_slice *s = st->slices;
	size_t n = st->nslices, owner = n;

	for (size_t i = 0; i < n; i++) {
		if (i > 0 && s[i - 1].thread != s[i].thread)
			owner = n;
		if (owner < n && js_round(s[owner].b) >= js_round(s[i].b))
			report(st, "nest", &s[owner], &s[i],
			       "catapult nests the second in the first (rounded to ns, bounds inclusive)");
		if (owner == n || js_round(s[i].b) > js_round(s[owner].b))
			owner = i;
	}
}

static int cmp_grid_start(const void *pa, const void *pb)
{
	const struct csim_check_slice *x = pa, *y = pb;
	int c = cmp_u32(x->thread, y->thread);

	if (c == 0)
		c = cmp_i64(x->start, y->start);
	return c != 0 ? c : cmp_u64(x->index, y->index);
}

static void point_start(struct csim_check_state *st)
{
	const struct csim_check_slice *s = st->slices;
	size_t n = st->nslices;

	for (size_t lo = 0; lo < n;) {
		size_t hi = lo + 1;
		size_t point = is_point(&s[lo]) ? lo : n;

		while (hi < n && s[hi].thread == s[lo].thread && s[hi].start == s[lo].start) {
			if (point == n && is_point(&s[hi]))
				point = hi;
			hi++;
		}
		if (point < n && hi - lo > 1)
			report(st, "point-start", &s[point], &s[point == lo ? lo + 1 : lo],
			       "a point shares its Perfetto start with another slice");
		lo = hi;
	}
}

static void sort_slices(struct csim_check_state *st, int (*cmp)(const void *, const void *))
{
	if (st->nslices > 1)
		qsort(st->slices, st->nslices, sizeof(*st->slices), cmp);
}

/* ------------------------------------------------------------------------ */
/* depth: sub-lanes per (pid, pipe) against the intervals' peak concurrency */

/* The pipe of a string tid: the tid without a "#<digits>" suffix. */
static size_t pipe_len(const char *tid, size_t n)
{
	size_t hash = n;

	for (size_t i = n; i > 0; i--) {
		if (tid[i - 1] == '#') {
			hash = i - 1;
			break;
		}
	}
	if (hash == n || hash == 0 || hash + 1 == n)
		return n;
	for (size_t i = hash + 1; i < n; i++)
		if (tid[i] < '0' || tid[i] > '9')
			return n;
	return hash;
}

/*
 * The pipe group of every thread: (pid, tid without "#k") for string tids;
 * a numeric tid is a group of its own. *groups is indexed by thread id.
 */
static int pipe_groups(const struct csim_check_ids *ids, uint32_t **groups)
{
	struct csim_strtab tab;
	size_t nthreads = ids->threads.count;
	int rc = 0;

	csim_strtab_init(&tab, CSIM_STRTAB_GROUPED);
	*groups = csim_array_alloc(nthreads, sizeof(**groups));
	if (*groups == NULL)
		return -1;
	for (size_t t = 0; t < nthreads && rc == 0; t++) {
		uint32_t pid, tid, head[2];
		size_t n, plen;
		const char *text;
		char *key;

		csim_check_ids_thread_keys(ids, (uint32_t)t, &pid, &tid);
		text = csim_strtab_get(&ids->keys, tid, &n);
		/* Keys are a kind byte then text; a number keeps its whole text. */
		plen = text[0] == 's' ? 1 + pipe_len(text + 1, n - 1) : n;
		key = malloc(sizeof(head) + plen);
		if (key == NULL) {
			rc = -1;
			break;
		}
		head[0] = pid;
		head[1] = (uint32_t)plen;
		memcpy(key, head, sizeof(head));
		memcpy(key + sizeof(head), text, plen);
		rc = csim_strtab_intern(&tab, key, sizeof(head) + plen, &(*groups)[t]);
		free(key);
	}
	csim_strtab_release(&tab);
	return rc;
}

struct edge {
	double t;
	int delta;   /* -1 an interval ends, +1 one starts */
};

/* Ends before starts at one time: an interval ending at or before the next
   one's start frees its sub-lane (SPEC §4). */
static int cmp_edge(const void *pa, const void *pb)
{
	const struct edge *x = pa, *y = pb;
	int c = cmp_d(x->t, y->t);

	return c != 0 ? c : x->delta - y->delta;
}

static size_t peak_concurrency(const struct csim_check_slice *s, size_t n,
			       struct edge *edges)
{
	long live = 0, peak = 0;

	for (size_t i = 0; i < n; i++) {
		double lo, hi;

		occupancy(&s[i], &lo, &hi);
		edges[2 * i].t = lo;
		edges[2 * i].delta = 1;
		edges[2 * i + 1].t = hi;
		edges[2 * i + 1].delta = -1;
	}
	qsort(edges, 2 * n, sizeof(*edges), cmp_edge);
	for (size_t i = 0; i < 2 * n; i++) {
		live += edges[i].delta;
		peak = live > peak ? live : peak;
	}
	return (size_t)peak;
}

struct ranked {
	uint32_t group, thread;
};

static int cmp_ranked(const void *pa, const void *pb)
{
	const struct ranked *x = pa, *y = pb;
	int c = cmp_u32(x->group, y->group);

	return c != 0 ? c : cmp_u32(x->thread, y->thread);
}

static void report_depth(struct csim_check_state *st, uint32_t thread, size_t tids,
			 size_t peak)
{
	char pb[CSIM_CHECK_KEY_TEXT], tb[CSIM_CHECK_KEY_TEXT];
	uint32_t pid, tid;

	csim_check_ids_thread_keys(&st->ids, thread, &pid, &tid);
	csim_check_violation(&st->rep, "depth",
			     "pid %s pipe of tid %s: %zu sub-lane(s), but the occupancy intervals of SPEC section 4 peak at %zu",
			     csim_check_ids_key_text(&st->ids, pid, pb, sizeof(pb)),
			     csim_check_ids_key_text(&st->ids, tid, tb, sizeof(tb)),
			     tids, peak);
}

/* The largest group, in slices: the edge array is sized for it once. */
static size_t largest_group(const struct csim_check_slice *s, size_t n,
			    const struct ranked *order)
{
	size_t most = 0;

	for (size_t lo = 0; lo < n;) {
		size_t hi = lo + 1;

		while (hi < n && order[s[hi].thread].group == order[s[lo].thread].group)
			hi++;
		most = hi - lo > most ? hi - lo : most;
		lo = hi;
	}
	return most;
}

/* Slices whose thread field holds the rank of their thread in order. */
static int depth_ranked(struct csim_check_state *st, const struct ranked *order)
{
	const struct csim_check_slice *s = st->slices;
	size_t n = st->nslices;
	struct edge *edges = csim_array_alloc(2 * largest_group(s, n, order), sizeof(*edges));

	if (edges == NULL)
		return -1;
	for (size_t lo = 0; lo < n;) {
		size_t hi = lo + 1, tids = 1, peak;

		while (hi < n && order[s[hi].thread].group == order[s[lo].thread].group) {
			tids += s[hi].thread != s[hi - 1].thread;
			hi++;
		}
		peak = peak_concurrency(s + lo, hi - lo, edges);
		if (peak != tids)
			report_depth(st, order[s[lo].thread].thread, tids, peak);
		lo = hi;
	}
	free(edges);
	return 0;
}

/*
 * qsort has no context argument, so the slices are sorted by group through
 * their thread field: it holds the thread's rank in (group, thread) order
 * while depth runs, and the thread id again after.
 */
static int depth(struct csim_check_state *st)
{
	size_t nthreads = st->ids.threads.count;
	uint32_t *groups = NULL, *rank = NULL;
	struct ranked *order = NULL;
	int rc = -1;

	if (pipe_groups(&st->ids, &groups) != 0)
		goto out;
	order = csim_array_alloc(nthreads, sizeof(*order));
	rank = csim_array_alloc(nthreads, sizeof(*rank));
	if (order == NULL || rank == NULL)
		goto out;
	for (size_t t = 0; t < nthreads; t++) {
		order[t].group = groups[t];
		order[t].thread = (uint32_t)t;
	}
	if (nthreads > 1)
		qsort(order, nthreads, sizeof(*order), cmp_ranked);
	for (size_t r = 0; r < nthreads; r++)
		rank[order[r].thread] = (uint32_t)r;
	for (size_t i = 0; i < st->nslices; i++)
		st->slices[i].thread = rank[st->slices[i].thread];
	sort_slices(st, cmp_grid_start);
	rc = depth_ranked(st, order);
	for (size_t i = 0; i < st->nslices; i++)
		st->slices[i].thread = order[st->slices[i].thread].thread;
out:
	free(groups);
	free(order);
	free(rank);
	return rc;
}

int csim_check_flat(struct csim_check_state *st)
{
	sort_slices(st, cmp_float_start);
	float_overlap(st);
	sort_slices(st, cmp_catapult);
	nest(st);
	sort_slices(st, cmp_grid_start);
	point_start(st);
	return depth(st);
}
