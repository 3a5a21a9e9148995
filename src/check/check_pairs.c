#include "check/check_pairs.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/array_grow.h"

static int cmp_u64(uint64_t x, uint64_t y) { return (x > y) - (x < y); }
static int cmp_i64(int64_t x, int64_t y) { return (x > y) - (x < y); }
static int cmp_d(double x, double y) { return (x > y) - (x < y); }

/* Below this (ns) two float times are one: the file's own rounding. */
static const double SAME_NS = 0.0005;

int csim_check_pairs_add(struct csim_check_state *st, const struct csim_check_slice *x,
			 const struct csim_check_slice *y, enum csim_check_pair_rule rule)
{
	struct csim_check_pairs *p = &st->pairs;
	struct csim_check_pair v;

	v.lo = x->index < y->index ? x->index : y->index;
	v.hi = x->index < y->index ? y->index : x->index;
	v.thread = x->thread;
	v.rules = (uint32_t)rule;
	if (csim_array_grow((void **)&p->v, &p->cap, p->n + 1, sizeof(v)) != 0)
		return -1;
	p->v[p->n++] = v;
	return 0;
}

static int cmp_pair(const void *pa, const void *pb)
{
	const struct csim_check_pair *x = pa, *y = pb;
	int c = cmp_u64(x->lo, y->lo);

	return c != 0 ? c : cmp_u64(x->hi, y->hi);
}

static int cmp_index(const void *pa, const void *pb)
{
	const struct csim_check_slice *x = pa, *y = pb;

	return cmp_u64(x->index, y->index);
}

static const struct csim_check_slice *find(const struct csim_check_state *st, uint64_t index)
{
	size_t lo = 0, hi = st->nslices;

	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;

		if (st->slices[mid].index < index)
			lo = mid + 1;
		else
			hi = mid;
	}
	return &st->slices[lo];   /* every recorded pair names two slices */
}

/* Perfetto's order: start, the longer first (it becomes the parent). */
static int perfetto_first(const struct csim_check_slice *x, const struct csim_check_slice *y)
{
	int c = cmp_i64(x->start, y->start);

	if (c == 0)
		c = cmp_i64(y->end, x->end);
	return c != 0 ? c < 0 : x->index < y->index;
}

/* catapult's order on its rounded ns, the longer first. */
static int catapult_first(const struct csim_check_slice *x, const struct csim_check_slice *y)
{
	int c = cmp_d(csim_check_js_round(csim_check_slice_a(x)),
		      csim_check_js_round(csim_check_slice_a(y)));

	if (c == 0)
		c = cmp_d(csim_check_js_round(csim_check_slice_b(y)),
			  csim_check_js_round(csim_check_slice_b(x)));
	return c != 0 ? c < 0 : x->index < y->index;
}

/* A buffer being filled: appends never overrun, a long line is cut. */
struct text {
	char *p;
	size_t n, len;
};

static void add(struct text *t, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

static void add(struct text *t, const char *fmt, ...)
{
	va_list ap;
	int k;

	if (t->len + 1 >= t->n)
		return;
	va_start(ap, fmt);
	k = vsnprintf(t->p + t->len, t->n - t->len, fmt, ap);
	va_end(ap);
	if (k > 0)
		t->len = t->len + (size_t)k < t->n ? t->len + (size_t)k : t->n - 1;
}

static void add_event(struct text *t, const struct csim_check_state *st,
		      const struct csim_check_slice *s)
{
	char ts[48], dur[48];

	add(t, "event #%llu \"%.48s\" (ts %s us, dur %s us)", (unsigned long long)s->index,
	    csim_check_ids_name_text(&st->ids, s->name),
	    csim_check_us_text(s->ts, ts, sizeof(ts)), csim_check_us_text(s->dur, dur, sizeof(dur)));
}

/* What the file's float times say: x starts first (or is the longer). */
static void add_relation(struct text *t, const struct csim_check_slice *x,
			 const struct csim_check_slice *y)
{
	double ax = csim_check_slice_a(x), bx = csim_check_slice_b(x);
	double ay = csim_check_slice_a(y), by = csim_check_slice_b(y);
	double tol = csim_check_noise_tol(ax);
	unsigned long long ix = (unsigned long long)x->index, iy = (unsigned long long)y->index;
	const char *zero = by - ay < SAME_NS ? ", zero-length," : "";
	char a[32], b[32];

	if (ay - ax < SAME_NS && by - bx > -SAME_NS && by - bx < SAME_NS)
		add(t, "#%llu has the same times as #%llu", iy, ix);
	else if (ay - bx > -SAME_NS && ay - bx < SAME_NS)
		add(t, "#%llu%s starts where #%llu ends", iy, zero, ix);
	else if (ay > bx)
		add(t, "#%llu starts %s ns after #%llu %s", iy, csim_check_ns_text(ay - bx, a, sizeof(a)),
		    ix, bx - ax < SAME_NS ? "(zero-length)" : "ends");
	else if (ay - ax < SAME_NS)
		add(t, "#%llu%s starts where #%llu starts", iy, zero, ix);
	else if (by <= bx)
		add(t, "#%llu%s lies inside #%llu", iy, zero, ix);
	else
		add(t, "#%llu starts %s ns before #%llu ends, %s the %s ns of float32 noise allowed there",
		    iy, csim_check_ns_text(bx - ay, a, sizeof(a)), ix,
		    bx - ay > tol ? "more than" : "within", csim_check_ns_text(tol, b, sizeof(b)));
}

/* Which of two slices a viewer makes the parent: the first in its order. */
struct family {
	const struct csim_check_slice *parent, *child;
	int nested;   /* the child lies within the parent */
};

static struct family perfetto_family(const struct csim_check_slice *x,
				     const struct csim_check_slice *y)
{
	struct family f;

	f.parent = perfetto_first(x, y) ? x : y;
	f.child = f.parent == x ? y : x;
	f.nested = f.child->end <= f.parent->end;
	return f;
}

static struct family catapult_family(const struct csim_check_slice *x,
				     const struct csim_check_slice *y)
{
	struct family f;

	f.parent = catapult_first(x, y) ? x : y;
	f.child = f.parent == x ? y : x;
	f.nested = csim_check_js_round(csim_check_slice_b(f.child)) <=
		   csim_check_js_round(csim_check_slice_b(f.parent));
	return f;
}

static void add_grid(struct text *t, const struct csim_check_slice *x,
		     const struct csim_check_slice *y)
{
	add(t, "#%llu [%lld, %lld) and #%llu [%lld, %lld) ns",
	    (unsigned long long)x->index, (long long)x->start, (long long)x->end,
	    (unsigned long long)y->index, (long long)y->start, (long long)y->end);
}

static void add_rounded(struct text *t, const struct csim_check_slice *x,
			const struct csim_check_slice *y)
{
	add(t, "#%llu [%.0f, %.0f] and #%llu [%.0f, %.0f] ns", (unsigned long long)x->index,
	    csim_check_js_round(csim_check_slice_a(x)), csim_check_js_round(csim_check_slice_b(x)),
	    (unsigned long long)y->index, csim_check_js_round(csim_check_slice_a(y)),
	    csim_check_js_round(csim_check_slice_b(y)));
}

static void add_perfetto(struct text *t, const struct csim_check_slice *x,
			 const struct csim_check_slice *y, int bad)
{
	struct family f = perfetto_family(x, y);

	if (bad && !f.nested) {
		add(t, "Perfetto's 1 ns grid, where ts and dur are rounded separately, has ");
		add_grid(t, x, y);
		add(t, ", a %lld ns overlap: Perfetto moves #%llu to an overflow row (v57+) or drops "
		    "it (v51-56)", (long long)(f.parent->end - f.child->start),
		    (unsigned long long)f.child->index);
		return;
	}
	add(t, "Perfetto (1 ns grid: ");
	add_grid(t, x, y);
	if (bad)
		add(t, ") draws #%llu as a child of #%llu, a row down",
		    (unsigned long long)f.child->index, (unsigned long long)f.parent->index);
	else
		add(t, ") draws them right");
}

static void add_catapult(struct text *t, const struct csim_check_slice *x,
			 const struct csim_check_slice *y, int bad)
{
	struct family f = catapult_family(x, y);

	if (!bad) {
		add(t, "chrome://tracing draws them right");
	} else if (f.nested) {
		add(t, "chrome://tracing, which rounds both ends to whole ns and counts a shared end "
		    "as inside (");
		add_rounded(t, x, y);
		add(t, "), draws #%llu as a child of #%llu", (unsigned long long)f.child->index,
		    (unsigned long long)f.parent->index);
	} else {
		add(t, "chrome://tracing, which keeps the float times, draws them over each other");
	}
}

/* What each viewer draws; once when both nest the same child alike. */
static void add_viewers(struct text *t, const struct csim_check_slice *x,
			const struct csim_check_slice *y, uint32_t rules)
{
	int perfetto = (rules & (CSIM_PAIR_GRID | CSIM_PAIR_POINT)) != 0;
	int catapult = (rules & (CSIM_PAIR_FLOAT | CSIM_PAIR_NEST)) != 0;
	struct family pf = perfetto_family(x, y), cf = catapult_family(x, y);

	if (perfetto && catapult && pf.nested && cf.nested && pf.child == cf.child) {
		add(t, "both viewers draw #%llu as a child of #%llu, a row down (Perfetto's 1 ns grid: ",
		    (unsigned long long)pf.child->index, (unsigned long long)pf.parent->index);
		add_grid(t, x, y);
		add(t, "; chrome://tracing, rounded to ns with both ends included: ");
		add_rounded(t, x, y);
		add(t, ")");
		return;
	}
	add_perfetto(t, x, y, perfetto);
	add(t, "; ");
	add_catapult(t, x, y, catapult);
}

/*
 * The lane rules that hold of this pair itself, as check_lanes and
 * check_flat test them: a rule may have found one of the two with a third
 * slice, and the line must say what each viewer does with these two.
 */
static uint32_t pair_verdicts(const struct csim_check_slice *x, const struct csim_check_slice *y)
{
	/* The grid rule's order: start, then the shorter first (a point at a
	   slice's start is point-start's, not an overlap). */
	int x_first = x->start != y->start ? x->start < y->start : x->end <= y->end;
	const struct csim_check_slice *e = x_first ? x : y, *l = x_first ? y : x;
	double ax = csim_check_slice_a(x), ay = csim_check_slice_a(y);
	struct family cf = catapult_family(x, y);
	uint32_t r = 0;

	if (e->end > e->start && l->start < e->end)
		r |= CSIM_PAIR_GRID;
	if ((ay >= ax && ay < csim_check_slice_b(x) - csim_check_noise_tol(ax)) ||
	    (ax >= ay && ax < csim_check_slice_b(y) - csim_check_noise_tol(ay)))
		r |= CSIM_PAIR_FLOAT;
	if (x->start == y->start && (csim_check_slice_point(x) || csim_check_slice_point(y)))
		r |= CSIM_PAIR_POINT;
	if (cf.nested)
		r |= CSIM_PAIR_NEST;
	return r;
}

/* The rule keyword: the first that holds of grid, point, float, nest. */
static const char *pair_rule(uint32_t rules)
{
	if (rules & CSIM_PAIR_GRID)
		return "overlap";
	if (rules & CSIM_PAIR_POINT)
		return "point-start";
	if (rules & CSIM_PAIR_FLOAT)
		return "float-overlap";
	return "nest";
}

static void report_pair(struct csim_check_state *st, const struct csim_check_pair *pr)
{
	const struct csim_check_slice *u = find(st, pr->lo), *v = find(st, pr->hi);
	double au = csim_check_slice_a(u), av = csim_check_slice_a(v);
	/* x starts first in floats; at one start the longer is x. */
	int u_first = au != av ? au < av : csim_check_slice_b(u) >= csim_check_slice_b(v);
	const struct csim_check_slice *x = u_first ? u : v, *y = u_first ? v : u;
	char pb[CSIM_CHECK_KEY_TEXT], tb[CSIM_CHECK_KEY_TEXT], line[CSIM_CHECK_LINE];
	struct text t = { line, sizeof(line), 0 };
	uint32_t pid, tid;

	uint32_t rules = pr->rules | pair_verdicts(u, v);

	if (!csim_check_shown(&st->rep)) {
		csim_check_violation(&st->rep, pair_rule(rules), "-");
		return;
	}
	line[0] = '\0';
	csim_check_ids_thread_keys(&st->ids, pr->thread, &pid, &tid);
	add(&t, "pid %s tid %s: ", csim_check_ids_key_text(&st->ids, pid, pb, sizeof(pb)),
	    csim_check_ids_key_text(&st->ids, tid, tb, sizeof(tb)));
	add_event(&t, st, x);
	add(&t, " and ");
	add_event(&t, st, y);
	add(&t, ": ");
	add_relation(&t, x, y);
	add(&t, "; ");
	add_viewers(&t, x, y, rules);
	csim_check_violation(&st->rep, pair_rule(rules), "%s", line);
}

int csim_check_pairs_report(struct csim_check_state *st, unsigned char **flagged)
{
	struct csim_check_pairs *p = &st->pairs;

	*flagged = csim_array_alloc(st->ids.threads.count + 1, 1);
	if (*flagged == NULL)
		return -1;
	memset(*flagged, 0, st->ids.threads.count + 1);
	if (p->n == 0)
		return 0;
	qsort(p->v, p->n, sizeof(*p->v), cmp_pair);
	if (st->nslices > 1)
		qsort(st->slices, st->nslices, sizeof(*st->slices), cmp_index);
	for (size_t lo = 0; lo < p->n;) {
		struct csim_check_pair merged = p->v[lo];
		size_t hi = lo + 1;

		while (hi < p->n && p->v[hi].lo == merged.lo && p->v[hi].hi == merged.hi)
			merged.rules |= p->v[hi++].rules;
		(*flagged)[merged.thread] = 1;
		report_pair(st, &merged);
		lo = hi;
	}
	return 0;
}
