/*
 * trace_check_flat: the flat-lane rules (SPEC §4, §6; viewer-notes §1.2)
 * that Perfetto's integer-ns grid alone does not see. trace_check.c checks
 * that grid ("overlap"); these model the rest of both viewers, per thread:
 *
 *   float-overlap  catapult keeps float times and draws two slices that
 *                  overlap by more than float noise on top of each other:
 *                  no slice may start more than tol before an earlier
 *                  one's float end b (tol = max(0.25, |a| * 2^-22) ns).
 *   nest           catapult rounds start and end to whole ns (Math.round)
 *                  only to decide containment, bounds inclusive: no slice
 *                  may lie within another on that grid (a zero-length slice
 *                  at a neighbour's end or start does).
 *   point-start    Perfetto nests slices that share a rounded start: no
 *                  point (e == s or b - a < 1) shares its start with
 *                  another slice.
 *   depth          a pipe's sub-lanes (tids PIPE, PIPE#1, ... of one pid)
 *                  are exactly as many as the peak concurrency of the
 *                  occupancy intervals of SPEC §4, so a lane is neither
 *                  drawn shallower nor split deeper than the pipeline.
 *
 * catapult's grid is taken unshifted (it shifts by the trace's first event
 * before rounding; the SPEC's intervals are meant to hold for any shift).
 * The intervals are computed as the converter's model/occupancy.c does, in
 * the same order of double operations, from the same text through strtod().
 */
#include "trace_check.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

static int cmp_d(double x, double y) { return (x > y) - (x < y); }
static int cmp_ll(long long x, long long y) { return (x > y) - (x < y); }
static int cmp_sz(size_t x, size_t y) { return (x > y) - (x < y); }

static double noise_tol(double a)
{
    return fmax(0.25, ldexp(fabs(a), -22));
}

static int is_point(const Slice *s)
{
    return s->end == s->start || s->b - s->a < 1.0;
}

/* catapult's Math.round: halves go up. */
static double js_round(double x)
{
    return floor(x + 0.5);
}

/* SPEC §4, term for term as model/occupancy.c computes it. */
static void occupancy(const Slice *s, double *lo, double *hi)
{
    const double tol = noise_tol(s->a);
    const double grid_end = (double)s->end - 0.5;

    if (is_point(s)) {
        *lo = s->a - 1.0 - tol;
        *hi = fmax(fmax((double)s->start + 0.5, s->b - tol), grid_end);
    } else {
        *lo = s->a;
        *hi = fmax(s->b - tol, grid_end);
    }
}

static void report(Report *rep, const char *rule, const Slice *x,
                   const Slice *y, const char *why)
{
    char pb[KEY_TEXT];
    char tb[KEY_TEXT];
    violation(rep, rule,
              "pid %s tid %s: event #%zu [%.17g, %.17g] ns and event #%zu "
              "[%.17g, %.17g] ns (float ns): %s",
              idkey_text(&x->th.pid, pb, sizeof pb),
              idkey_text(&x->th.tid, tb, sizeof tb), x->index, x->a, x->b,
              y->index, y->a, y->b, why);
}

/* ------------------------------------------------------------------------ */
/* float-overlap: sorted by (thread, a, index)                              */

static int cmp_float_start(const void *pa, const void *pb)
{
    const Slice *x = pa;
    const Slice *y = pb;
    int c = thread_cmp(&x->th, &y->th);
    if (c == 0)
        c = cmp_d(x->a, y->a);
    return c != 0 ? c : cmp_sz(x->index, y->index);
}

/* A slice overlaps an earlier one beyond its tol iff it starts before the
 * largest b - tol among them. */
static void check_float_overlap(const Slice *s, size_t n, Report *rep)
{
    size_t owner = n;
    double reach = 0.0;
    for (size_t i = 0; i < n; i++) {
        const int same = i > 0 && thread_cmp(&s[i - 1].th, &s[i].th) == 0;
        if (!same)
            owner = n;
        if (owner < n && s[i].a < reach)
            report(rep, "float-overlap", &s[owner], &s[i],
                   "they overlap by more than float noise (tol)");
        const double end = s[i].b - noise_tol(s[i].a);
        if (owner == n || end > reach) {
            owner = i;
            reach = end;
        }
    }
}

/* ------------------------------------------------------------------------ */
/* nest: catapult's rounded grid, sorted by (thread, start asc, end desc)   */

static int cmp_catapult(const void *pa, const void *pb)
{
    const Slice *x = pa;
    const Slice *y = pb;
    int c = thread_cmp(&x->th, &y->th);
    if (c == 0)
        c = cmp_d(js_round(x->a), js_round(y->a));
    if (c == 0)
        c = cmp_d(js_round(y->b), js_round(x->b));
    return c != 0 ? c : cmp_sz(x->index, y->index);
}

/* Every earlier slice starts at or before this one on the rounded grid, so
 * one of them contains it iff the furthest rounded end reaches its end. */
static void check_nest(const Slice *s, size_t n, Report *rep)
{
    size_t owner = n;
    for (size_t i = 0; i < n; i++) {
        const int same = i > 0 && thread_cmp(&s[i - 1].th, &s[i].th) == 0;
        if (!same)
            owner = n;
        if (owner < n && js_round(s[owner].b) >= js_round(s[i].b))
            report(rep, "nest", &s[owner], &s[i],
                   "catapult nests the second in the first (rounded to ns, "
                   "bounds inclusive)");
        if (owner == n || js_round(s[i].b) > js_round(s[owner].b))
            owner = i;
    }
}

/* ------------------------------------------------------------------------ */
/* point-start: Perfetto's grid, sorted by (thread, start, index)           */

static int cmp_grid_start(const void *pa, const void *pb)
{
    const Slice *x = pa;
    const Slice *y = pb;
    int c = thread_cmp(&x->th, &y->th);
    if (c == 0)
        c = cmp_ll(x->start, y->start);
    return c != 0 ? c : cmp_sz(x->index, y->index);
}

static void check_point_start(const Slice *s, size_t n, Report *rep)
{
    for (size_t lo = 0; lo < n;) {
        size_t hi = lo + 1;
        size_t point = is_point(&s[lo]) ? lo : n;
        while (hi < n && thread_cmp(&s[lo].th, &s[hi].th) == 0 &&
               s[hi].start == s[lo].start) {
            if (point == n && is_point(&s[hi]))
                point = hi;
            hi++;
        }
        if (point < n && hi - lo > 1)
            report(rep, "point-start", &s[point], &s[point == lo ? lo + 1 : lo],
                   "a point shares its Perfetto start with another slice");
        lo = hi;
    }
}

/* ------------------------------------------------------------------------ */
/* depth: sub-lanes per (pid, pipe) against the intervals' peak concurrency */

/* The pipe of a string tid: the tid without a "#<digits>" suffix. */
static size_t pipe_len(const IdKey *tid)
{
    const char *hash = tid->str != NULL ? strrchr(tid->str, '#') : NULL;
    if (hash == NULL || hash[1] == '\0' || hash == tid->str)
        return tid->str != NULL ? strlen(tid->str) : 0;
    for (const char *p = hash + 1; *p != '\0'; p++)
        if (*p < '0' || *p > '9')
            return strlen(tid->str);
    return (size_t)(hash - tid->str);
}

typedef struct {
    const Slice *s;
    size_t pipe_len;
} Member;

static int cmp_pipe(const Member *x, const Member *y)
{
    int c = idkey_cmp(&x->s->th.pid, &y->s->th.pid);
    if (c != 0)
        return c;
    if ((x->s->th.tid.str != NULL) != (y->s->th.tid.str != NULL) ||
        x->s->th.tid.str == NULL)
        return idkey_cmp(&x->s->th.tid, &y->s->th.tid);
    const size_t n = x->pipe_len < y->pipe_len ? x->pipe_len : y->pipe_len;
    c = memcmp(x->s->th.tid.str, y->s->th.tid.str, n);
    return c != 0 ? c : cmp_sz(x->pipe_len, y->pipe_len);
}

static int cmp_member(const void *pa, const void *pb)
{
    const Member *x = pa;
    const Member *y = pb;
    const int c = cmp_pipe(x, y);
    return c != 0 ? c : idkey_cmp(&x->s->th.tid, &y->s->th.tid);
}

typedef struct {
    double t;
    int delta; /* -1 an interval ends, +1 one starts */
} Edge;

/* Ends before starts at one time: an interval ending at or before the next
 * one's start frees its sub-lane (SPEC §4). */
static int cmp_edge(const void *pa, const void *pb)
{
    const Edge *x = pa;
    const Edge *y = pb;
    const int c = cmp_d(x->t, y->t);
    return c != 0 ? c : x->delta - y->delta;
}

static size_t peak_concurrency(const Member *m, size_t n, Edge *edges)
{
    for (size_t i = 0; i < n; i++) {
        double lo, hi;
        occupancy(m[i].s, &lo, &hi);
        edges[2 * i] = (Edge){lo, 1};
        edges[2 * i + 1] = (Edge){hi, -1};
    }
    qsort(edges, 2 * n, sizeof *edges, cmp_edge);
    long live = 0;
    long peak = 0;
    for (size_t i = 0; i < 2 * n; i++) {
        live += edges[i].delta;
        peak = live > peak ? live : peak;
    }
    return (size_t)peak;
}

static void check_depth(const Slice *s, size_t n, Report *rep)
{
    Member *m = xrealloc(NULL, n * sizeof *m);
    Edge *edges = xrealloc(NULL, 2 * n * sizeof *edges);
    for (size_t i = 0; i < n; i++)
        m[i] = (Member){&s[i], pipe_len(&s[i].th.tid)};
    if (n > 1)
        qsort(m, n, sizeof *m, cmp_member);
    for (size_t lo = 0; lo < n;) {
        size_t hi = lo + 1;
        size_t tids = 1;
        while (hi < n && cmp_pipe(&m[lo], &m[hi]) == 0) {
            tids += idkey_cmp(&m[hi - 1].s->th.tid, &m[hi].s->th.tid) != 0;
            hi++;
        }
        const size_t peak = peak_concurrency(m + lo, hi - lo, edges);
        if (peak != tids) {
            char pb[KEY_TEXT];
            char tb[KEY_TEXT];
            violation(rep, "depth",
                      "pid %s pipe of tid %s: %zu sub-lane(s), but the "
                      "occupancy intervals of SPEC section 4 peak at %zu",
                      idkey_text(&m[lo].s->th.pid, pb, sizeof pb),
                      idkey_text(&m[lo].s->th.tid, tb, sizeof tb), tids, peak);
        }
        lo = hi;
    }
    free(edges);
    free(m);
}

void check_flat_lanes(const Slice *s, size_t n, Report *rep)
{
    Slice *w = xrealloc(NULL, n * sizeof *w);
    if (n > 0)
        memcpy(w, s, n * sizeof *w);
    if (n > 1)
        qsort(w, n, sizeof *w, cmp_float_start);
    check_float_overlap(w, n, rep);
    if (n > 1)
        qsort(w, n, sizeof *w, cmp_catapult);
    check_nest(w, n, rep);
    if (n > 1)
        qsort(w, n, sizeof *w, cmp_grid_start);
    check_point_start(w, n, rep);
    check_depth(w, n, rep);
    free(w);
}
