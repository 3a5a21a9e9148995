#include "check/check_flat.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/array_grow.h"
#include "check/check_pairs.h"

static int cmp_d(double x, double y) { return (x > y) - (x < y); }
static int cmp_i64(int64_t x, int64_t y) { return (x > y) - (x < y); }
static int cmp_u64(uint64_t x, uint64_t y) { return (x > y) - (x < y); }
static int cmp_u32(uint32_t x, uint32_t y) { return (x > y) - (x < y); }

/* SPEC §4's occupancy interval, term for term. */
static void occupancy(const struct csim_check_slice *s, double *lo, double *hi)
{
	double a = csim_check_slice_a(s), b = csim_check_slice_b(s);
	double tol = csim_check_noise_tol(a);
	double grid_end = (double)s->end - 0.5;

	if (csim_check_slice_point(s)) {
		*lo = a - 1.0 - tol;
		*hi = fmax(fmax((double)s->start + 0.5, b - tol), grid_end);
	} else {
		*lo = a;
		*hi = fmax(b - tol, grid_end);
	}
}

static int cmp_float_start(const void *pa, const void *pb)
{
	const struct csim_check_slice *x = pa, *y = pb;
	int c = cmp_u32(x->thread, y->thread);

	if (c == 0)
		c = cmp_d(csim_check_slice_a(x), csim_check_slice_a(y));
	return c != 0 ? c : cmp_u64(x->index, y->index);
}

/* In cmp_float_start order: a slice overlaps an earlier one beyond its tol
   iff it starts before the largest b - tol among them. */
static int float_overlap(struct csim_check_state *st)
{
	const struct csim_check_slice *s = st->slices;
	size_t n = st->nslices, owner = n;
	double reach = 0.0;

	for (size_t i = 0; i < n; i++) {
		double a = csim_check_slice_a(&s[i]);
		double end = csim_check_slice_b(&s[i]) - csim_check_noise_tol(a);

		if (i > 0 && s[i - 1].thread != s[i].thread)
			owner = n;
		if (owner < n && a < reach &&
		    csim_check_pairs_add(st, &s[owner], &s[i], CSIM_PAIR_FLOAT) != 0)
			return -1;
		if (owner == n || end > reach) {
			owner = i;
			reach = end;
		}
	}
	return 0;
}

static double round_a(const struct csim_check_slice *s)
{
	return csim_check_js_round(csim_check_slice_a(s));
}

static double round_b(const struct csim_check_slice *s)
{
	return csim_check_js_round(csim_check_slice_b(s));
}

static int cmp_catapult(const void *pa, const void *pb)
{
	const struct csim_check_slice *x = pa, *y = pb;
	int c = cmp_u32(x->thread, y->thread);

	if (c == 0)
		c = cmp_d(round_a(x), round_a(y));
	if (c == 0)
		c = cmp_d(round_b(y), round_b(x));
	return c != 0 ? c : cmp_u64(x->index, y->index);
}

/* In cmp_catapult order every earlier slice starts at or before this one
   on the rounded grid, so one contains it iff the furthest rounded end
   reaches its end. */
static int nest(struct csim_check_state *st)
{
	const struct csim_check_slice *s = st->slices;
	size_t n = st->nslices, owner = n;

	for (size_t i = 0; i < n; i++) {
		if (i > 0 && s[i - 1].thread != s[i].thread)
			owner = n;
		if (owner < n && round_b(&s[owner]) >= round_b(&s[i]) &&
		    csim_check_pairs_add(st, &s[owner], &s[i], CSIM_PAIR_NEST) != 0)
			return -1;
		if (owner == n || round_b(&s[i]) > round_b(&s[owner]))
			owner = i;
	}
	return 0;
}

static int cmp_grid_start(const void *pa, const void *pb)
{
	const struct csim_check_slice *x = pa, *y = pb;
	int c = cmp_u32(x->thread, y->thread);

	if (c == 0)
		c = cmp_i64(x->start, y->start);
	return c != 0 ? c : cmp_u64(x->index, y->index);
}

static int point_start(struct csim_check_state *st)
{
	const struct csim_check_slice *s = st->slices;
	size_t n = st->nslices;

	for (size_t lo = 0; lo < n;) {
		size_t hi = lo + 1;
		size_t point = csim_check_slice_point(&s[lo]) ? lo : n;

		while (hi < n && s[hi].thread == s[lo].thread && s[hi].start == s[lo].start) {
			if (point == n && csim_check_slice_point(&s[hi]))
				point = hi;
			hi++;
		}
		if (point < n && hi - lo > 1 &&
		    csim_check_pairs_add(st, &s[point], &s[point == lo ? lo + 1 : lo],
					 CSIM_PAIR_POINT) != 0)
			return -1;
		lo = hi;
	}
	return 0;
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

/* The pipe of a thread as text: its tid without "#k", quoted. */
static const char *pipe_text(const struct csim_check_ids *ids, uint32_t thread,
			     char *buf, size_t n)
{
	uint32_t pid, tid;
	size_t len;
	const char *text;

	csim_check_ids_thread_keys(ids, thread, &pid, &tid);
	text = csim_strtab_get(&ids->keys, tid, &len);
	if (text[0] != 's')
		return csim_check_ids_key_text(ids, tid, buf, n);
	len = pipe_len(text + 1, len - 1);
	snprintf(buf, n, "\"%.*s\"", (int)(len > 80 ? 80 : len), text + 1);
	return buf;
}

static void lanes_text(const struct csim_check_state *st, uint32_t thread, size_t tids,
		       char *buf, size_t n)
{
	char pb[CSIM_CHECK_KEY_TEXT], tb[CSIM_CHECK_KEY_TEXT];
	uint32_t pid, tid;

	csim_check_ids_thread_keys(&st->ids, thread, &pid, &tid);
	snprintf(buf, n, "pid %s tid %s%s", csim_check_ids_key_text(&st->ids, pid, pb, sizeof(pb)),
		 pipe_text(&st->ids, thread, tb, sizeof(tb)),
		 tids > 1 ? " and its \"#k\" lanes" : "");
}

/* Fewer sub-lanes than the intervals need, where no pair of slices has
   said why: then a point lies within the 1 ns margin of a neighbour. */
static void report_depth(struct csim_check_state *st, uint32_t thread, size_t tids,
			 size_t peak)
{
	char who[3 * CSIM_CHECK_KEY_TEXT];

	lanes_text(st, thread, tids, who, sizeof(who));
	csim_check_violation(&st->rep, "depth",
			     "%s: %zu lane%s where %zu are needed: a zero-length (or under 1 ns) slice "
			     "comes within about 1 ns of another one on the same lane; chrome://tracing shifts "
			     "every time by the trace's first timestamp before it rounds to whole ns, so "
			     "depending on that timestamp it may draw one inside the other",
			     who, tids, tids == 1 ? "" : "s", peak);
}

void csim_check_flat_note(struct csim_check_state *st)
{
	const struct csim_check_spread *sp = &st->spread;
	char who[3 * CSIM_CHECK_KEY_TEXT];

	if (sp->pipes == 0)
		return;
	lanes_text(st, sp->thread, sp->tids, who, sizeof(who));
	if (sp->pipes == 1)
		csim_check_note(&st->rep, "depth",
				"%s: %zu lanes where %zu would do (never more than %zu of its slices "
				"in flight at once, margins included)", who, sp->tids, sp->peak, sp->peak);
	else
		csim_check_note(&st->rep, "depth",
				"%zu pipes are spread over more \"#k\" lanes than their slices need "
				"(the first: %s, %zu lanes where %zu would do)",
				sp->pipes, who, sp->tids, sp->peak);
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

/* Slices whose thread field holds the rank of their thread in order;
   flagged by thread id. */
static int depth_ranked(struct csim_check_state *st, const struct ranked *order,
			const unsigned char *flagged)
{
	const struct csim_check_slice *s = st->slices;
	size_t n = st->nslices;
	struct edge *edges = csim_array_alloc(2 * largest_group(s, n, order), sizeof(*edges));
	struct csim_check_spread *sp = &st->spread;

	if (edges == NULL)
		return -1;
	for (size_t lo = 0; lo < n;) {
		size_t hi = lo + 1, tids = 1, peak;
		int said = flagged[order[s[lo].thread].thread];
		uint32_t first = order[s[lo].thread].thread;

		while (hi < n && order[s[hi].thread].group == order[s[lo].thread].group) {
			tids += s[hi].thread != s[hi - 1].thread;
			said |= flagged[order[s[hi].thread].thread];
			hi++;
		}
		peak = peak_concurrency(s + lo, hi - lo, edges);
		if (peak > tids && !said)
			report_depth(st, first, tids, peak);
		if (peak < tids && sp->pipes == 0)
			*sp = (struct csim_check_spread){ 0, first, tids, peak };
		sp->pipes += peak < tids;
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
int csim_check_flat_depth(struct csim_check_state *st, const unsigned char *flagged)
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
	rc = depth_ranked(st, order, flagged);
	for (size_t i = 0; i < st->nslices; i++)
		st->slices[i].thread = order[st->slices[i].thread].thread;
out:
	free(groups);
	free(order);
	free(rank);
	return rc;
}

int csim_check_flat_pairs(struct csim_check_state *st)
{
	sort_slices(st, cmp_float_start);
	if (float_overlap(st) != 0)
		return -1;
	sort_slices(st, cmp_catapult);
	if (nest(st) != 0)
		return -1;
	sort_slices(st, cmp_grid_start);
	return point_start(st);
}
