#include "check/check_lanes.h"

#include <stdlib.h>

#include "base/array_grow.h"
#include "check/check_pairs.h"

static int cmp_i64(int64_t a, int64_t b) { return (a > b) - (a < b); }
static int cmp_u64(uint64_t a, uint64_t b) { return (a > b) - (a < b); }
static int cmp_u32(uint32_t a, uint32_t b) { return (a > b) - (a < b); }

/* Same start: longer first, as Perfetto sorts them, so the longer one
   encloses the shorter one. */
static int cmp_nested(const void *pa, const void *pb)
{
	const struct csim_check_slice *a = pa, *b = pb;
	int c = cmp_u32(a->thread, b->thread);

	if (c == 0)
		c = cmp_i64(a->start, b->start);
	if (c == 0)
		c = cmp_i64(b->end, a->end);
	return c != 0 ? c : cmp_u64(a->index, b->index);
}

/* Same start: shorter first, so a zero-length slice sits before the slice
   that begins at its point (a boundary, which is allowed). */
static int cmp_disjoint(const void *pa, const void *pb)
{
	const struct csim_check_slice *a = pa, *b = pb;
	int c = cmp_u32(a->thread, b->thread);

	if (c == 0)
		c = cmp_i64(a->start, b->start);
	if (c == 0)
		c = cmp_i64(a->end, b->end);
	return c != 0 ? c : cmp_u64(a->index, b->index);
}

/* The lenient mode's one rule (test tool only): the grid intervals. */
static void report_pair(struct csim_check_state *st, const char *rule,
			const struct csim_check_slice *a, const struct csim_check_slice *b)
{
	char pb[CSIM_CHECK_KEY_TEXT], tb[CSIM_CHECK_KEY_TEXT];
	uint32_t pid, tid;

	csim_check_ids_thread_keys(&st->ids, a->thread, &pid, &tid);
	csim_check_violation(&st->rep, rule,
			     "pid %s tid %s: event #%llu [%lld, %lld) ns and event #%llu [%lld, %lld) ns",
			     csim_check_ids_key_text(&st->ids, pid, pb, sizeof(pb)),
			     csim_check_ids_key_text(&st->ids, tid, tb, sizeof(tb)),
			     (unsigned long long)a->index, (long long)a->start,
			     (long long)a->end, (unsigned long long)b->index,
			     (long long)b->start, (long long)b->end);
}

/*
 * One thread in cmp_nested order. The stack holds the open enclosing
 * slices; after popping those that ended by b's start, the top is the
 * innermost slice containing b.start, and b outliving it is the partial
 * overlap a.start < b.start < a.end < b.end. With no report the thread is
 * properly nested (by induction over the sorted order).
 */
static void nested_thread(struct csim_check_state *st, const struct csim_check_slice *s,
			  size_t n, size_t *stack)
{
	size_t depth = 0;

	for (size_t i = 0; i < n; i++) {
		while (depth > 0 && s[stack[depth - 1]].end <= s[i].start)
			depth--;
		if (depth > 0 && s[stack[depth - 1]].end < s[i].end) {
			report_pair(st, "partial-overlap", &s[stack[depth - 1]], &s[i]);
			continue;   /* keep the stack nested; one report per offender */
		}
		stack[depth++] = i;
	}
}

/*
 * One thread in cmp_disjoint order. Every earlier slice starts at or before
 * b.start; b overlaps one iff b.start is below the furthest end among the
 * earlier slices of positive length. A zero-length slice never extends it,
 * so one at a boundary passes and one strictly inside another fails.
 */
static int disjoint_thread(struct csim_check_state *st, const struct csim_check_slice *s,
			   size_t n)
{
	size_t owner = n;   /* the slice holding the furthest end; n: none yet */

	for (size_t i = 0; i < n; i++) {
		if (owner < n && s[i].start < s[owner].end &&
		    csim_check_pairs_add(st, &s[owner], &s[i], CSIM_PAIR_GRID) != 0)
			return -1;
		if (s[i].end > s[i].start && (owner == n || s[i].end > s[owner].end))
			owner = i;
	}
	return 0;
}

int csim_check_lanes_overlap(struct csim_check_state *st, int flat)
{
	struct csim_check_slice *s = st->slices;
	size_t n = st->nslices;
	size_t *stack = NULL;

	if (n > 1)
		qsort(s, n, sizeof(*s), flat ? cmp_disjoint : cmp_nested);
	if (!flat) {
		stack = csim_array_alloc(n, sizeof(*stack));
		if (stack == NULL)
			return -1;
	}
	for (size_t lo = 0; lo < n;) {
		size_t hi = lo + 1;

		while (hi < n && s[hi].thread == s[lo].thread)
			hi++;
		if (!flat)
			nested_thread(st, s + lo, hi - lo, stack);
		else if (disjoint_thread(st, s + lo, hi - lo) != 0)
			return -1;
		lo = hi;
	}
	free(stack);
	return 0;
}

/* Slices ordered before (thread, 2*start < t2). */
static size_t lower_bound(const struct csim_check_slice *s, size_t n, uint32_t thread,
			  int64_t t2)
{
	size_t lo = 0, hi = n;

	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;

		if (s[mid].thread < thread || (s[mid].thread == thread && 2 * s[mid].start < t2))
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo;
}

/*
 * Half-ns units, so that a midpoint such as 10.5125 us is exact. reach[i]
 * is the furthest end among the thread's slices up to i: with nesting the
 * enclosing slice need not be the last one starting before the arrow.
 */
static void bind_all(struct csim_check_state *st, const struct csim_check_flows *fl,
		     const char *ph, const int64_t *reach)
{
	const struct csim_check_slice *s = st->slices;
	size_t n = st->nslices;

	for (size_t i = 0; i < fl->n; i++) {
		const struct csim_check_flow *f = &fl->v[i];
		size_t p = lower_bound(s, n, f->thread, f->t2);
		char pb[CSIM_CHECK_KEY_TEXT], tb[CSIM_CHECK_KEY_TEXT], us[48];
		uint32_t pid, tid;

		if (p > 0 && s[p - 1].thread == f->thread && 2 * reach[p - 1] > f->t2)
			continue;
		csim_check_ids_thread_keys(&st->ids, f->thread, &pid, &tid);
		csim_check_violation(&st->rep, "flow-binding",
				     "%s event #%llu (id %lld, ts %s us) is not strictly inside a slice of "
				     "positive length on its thread, pid %s tid %s: the viewers may bind it to "
				     "different slices or to none (at an edge chrome://tracing takes the slice "
				     "that ends there, Perfetto the one that starts there; outside every slice "
				     "chrome://tracing draws no arrow)",
				     ph, (unsigned long long)f->index, (long long)f->id,
				     csim_check_us_text(f->ts, us, sizeof(us)),
				     csim_check_ids_key_text(&st->ids, pid, pb, sizeof(pb)),
				     csim_check_ids_key_text(&st->ids, tid, tb, sizeof(tb)));
	}
}

int csim_check_lanes_binding(struct csim_check_state *st)
{
	const struct csim_check_slice *s = st->slices;
	int64_t *reach = csim_array_alloc(st->nslices, sizeof(*reach));

	if (reach == NULL)
		return -1;
	for (size_t i = 0; i < st->nslices; i++) {
		int same = i > 0 && s[i - 1].thread == s[i].thread;

		reach[i] = same && reach[i - 1] > s[i].end ? reach[i - 1] : s[i].end;
	}
	bind_all(st, &st->starts, "s", reach);
	bind_all(st, &st->ends, "f", reach);
	free(reach);
	return 0;
}
