/*
 * trace_check: standalone checker for trace.clean.json.
 *
 * Checks the rules that decide whether Perfetto UI and chrome://tracing load
 * a trace the way the converter intends (see docs in
 * shared/reference/viewer-notes.md section 1): required fields per phase,
 * no (partial) overlap of X slices per thread on Perfetto's integer-ns
 * grid, one s and one f per flow id, every arrow strictly inside a slice,
 * reserved cnames only, complete metadata. With --disjoint every lane must
 * also be flat in catapult's float model and packed at the true depth
 * (trace_check_flat.c).
 *
 * Usage: trace_check [--disjoint] [--expect-slices N] [--expect-arrows N]
 *                    [--expect-threads N] [--expect-counters N] FILE
 * Exit: 0 all rules hold, 1 violations (listed on stderr), 2 usage/I/O error.
 *
 * Each violation line is "trace_check: FILE: <rule>: <detail>", where <rule>
 * is one fixed keyword per rule so tests can grep for it.
 */
#include "trace_check.h"

#include <cjson/cJSON.h>

#include <errno.h>
#include <limits.h>
#include <math.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Violation lines printed before the rest are only counted. */
enum { MAX_SHOWN = 50 };

/*
 * Largest |ts| or |dur| accepted, in microseconds. Keeps ts*2000 and
 * 2*(start + dur) inside long long, so llround and the half-ns arithmetic of
 * the binding check cannot overflow. 1e15 us is about 31 years.
 */
static const double TIME_LIMIT_US = 1e15;

/* Largest integer a double holds exactly: bigger flow ids lose identity. */
static const double MAX_EXACT_INT = 9007199254740992.0;

/* catapult's tracing/base/color_scheme.html; anything else throws there. */
static const char *const RESERVED_CNAMES[] = {
    "thread_state_uninterruptible", "thread_state_iowait",
    "thread_state_running", "thread_state_runnable", "thread_state_sleeping",
    "thread_state_unknown", "background_memory_dump", "light_memory_dump",
    "detailed_memory_dump", "vsync_highlight_color", "generic_work", "good",
    "bad", "terrible", "black", "grey", "white", "yellow", "olive",
    "rail_response", "rail_animation", "rail_idle", "rail_load", "startup",
    "heap_dump_stack_frame", "heap_dump_object_type",
    "heap_dump_child_node_arrow", "cq_build_running", "cq_build_passed",
    "cq_build_failed", "cq_build_abandoned",
    "cq_build_attempt_runnig", /* sic: the misspelling is the real key */
    "cq_build_attempt_passed", "cq_build_attempt_failed",
};

/* ------------------------------------------------------------------------ */
/* Reporting                                                                */

void violation(Report *rep, const char *rule, const char *fmt, ...)
{
    rep->count++;
    if (rep->count > MAX_SHOWN)
        return;
    fprintf(stderr, "trace_check: %s: %s: ", rep->file, rule);
    va_list ap;
    va_start(ap, fmt);
    vfprintf(stderr, fmt, ap);
    va_end(ap);
    fputc('\n', stderr);
}

/* ------------------------------------------------------------------------ */
/* Growable arrays                                                          */

typedef struct {
    void *data;
    size_t len;
    size_t cap;
    size_t elem; /* element size in bytes */
} Vec;

static Vec vec_new(size_t elem)
{
    const Vec v = {NULL, 0, 0, elem};
    return v;
}

/* A test tool on small files: running out of memory is a hard error. */
void *xrealloc(void *p, size_t n)
{
    void *q = realloc(p, n == 0 ? 1 : n);
    if (q == NULL) {
        fputs("trace_check: out of memory\n", stderr);
        free(p);
        exit(2);
    }
    return q;
}

static void vec_push(Vec *v, const void *item)
{
    if (v->len == v->cap) {
        v->cap = v->cap == 0 ? 64 : v->cap * 2;
        v->data = xrealloc(v->data, v->cap * v->elem);
    }
    memcpy((unsigned char *)v->data + v->len * v->elem, item, v->elem);
    v->len++;
}

/* qsort needs a valid pointer even for zero elements; an empty Vec has none. */
static void vec_sort(Vec *v, int (*cmp)(const void *, const void *))
{
    if (v->len > 1)
        qsort(v->data, v->len, v->elem, cmp);
}

static void vec_free(Vec *v)
{
    free(v->data);
    v->data = NULL;
    v->len = v->cap = 0;
}

/* ------------------------------------------------------------------------ */
/* Keys: pid/tid compared by their JSON form, so "0" and 0 are different     */

static int cmp_double(double a, double b) { return (a > b) - (a < b); }
static int cmp_ll(long long a, long long b) { return (a > b) - (a < b); }
static int cmp_size(size_t a, size_t b) { return (a > b) - (a < b); }

int idkey_cmp(const IdKey *a, const IdKey *b)
{
    if ((a->str != NULL) != (b->str != NULL))
        return a->str != NULL ? 1 : -1;
    if (a->str != NULL)
        return strcmp(a->str, b->str);
    return cmp_double(a->num, b->num);
}

int thread_cmp(const ThreadKey *a, const ThreadKey *b)
{
    const int c = idkey_cmp(&a->pid, &b->pid);
    return c != 0 ? c : idkey_cmp(&a->tid, &b->tid);
}

/* Render a key for messages (truncated if long; only used for display). */
const char *idkey_text(const IdKey *k, char *buf, size_t n)
{
    if (k->str != NULL)
        snprintf(buf, n, "\"%s\"", k->str);
    else
        snprintf(buf, n, "%.17g", k->num);
    return buf;
}


/* ------------------------------------------------------------------------ */
/* Collected events                                                         */


typedef struct {
    ThreadKey th;
    long long id;
    const char *cat;
    const char *name;
    double ts;
    long long ns; /* llround(ts*1000): the order the viewers sort by */
    long long t2; /* llround(ts*2000): half-ns grid for the binding test */
    size_t index;
} Flow;

typedef enum {
    META_PROCESS_NAME,
    META_PROCESS_SORT_INDEX,
    META_THREAD_NAME,
    META_THREAD_SORT_INDEX,
    META_KIND_COUNT
} MetaKind;

static const char *const META_NAMES[META_KIND_COUNT] = {
    "process_name", "process_sort_index", "thread_name", "thread_sort_index"};

typedef struct {
    ThreadKey th; /* th.tid is ignored for process_* kinds */
    MetaKind kind;
    size_t index;
} Meta;

typedef struct {
    Vec slices;  /* Slice */
    Vec starts;  /* Flow, ph "s" */
    Vec ends;    /* Flow, ph "f" */
    Vec metas;   /* Meta */
    Vec pids;    /* IdKey: pids used by X, C, s, f */
    Vec threads; /* ThreadKey: (pid, tid) used by X, s, f */
    size_t n_x, n_s, n_f, n_c;
} Collected;

static Collected collected_new(void)
{
    Collected c;
    memset(&c, 0, sizeof c);
    c.slices = vec_new(sizeof(Slice));
    c.starts = vec_new(sizeof(Flow));
    c.ends = vec_new(sizeof(Flow));
    c.metas = vec_new(sizeof(Meta));
    c.pids = vec_new(sizeof(IdKey));
    c.threads = vec_new(sizeof(ThreadKey));
    return c;
}

static void collected_free(Collected *c)
{
    vec_free(&c->slices);
    vec_free(&c->starts);
    vec_free(&c->ends);
    vec_free(&c->metas);
    vec_free(&c->pids);
    vec_free(&c->threads);
}

/* ------------------------------------------------------------------------ */
/* Field checks (rule 2). Each reports its own violation and returns 1 if
 * the field is usable; callers combine them with & so every missing field
 * of an event is reported, not just the first.                             */

typedef struct {
    const cJSON *ev;
    size_t index;
    const char *ph;
    Report *rep;
} EvCtx;

static const cJSON *field(const EvCtx *e, const char *key)
{
    return cJSON_GetObjectItemCaseSensitive(e->ev, key);
}

static void bad_field(const EvCtx *e, const char *key, const char *what)
{
    violation(e->rep, "fields", "event #%zu (ph \"%s\"): \"%s\" %s", e->index,
              e->ph, key, what);
}

static int need_string(const EvCtx *e, const char *key, const char **out)
{
    const cJSON *f = field(e, key);
    if (!cJSON_IsString(f) || f->valuestring == NULL) {
        bad_field(e, key, f == NULL ? "is missing" : "is not a string");
        return 0;
    }
    if (out != NULL)
        *out = f->valuestring;
    return 1;
}

static int need_id(const EvCtx *e, const char *key, IdKey *out)
{
    const cJSON *f = field(e, key);
    if (cJSON_IsString(f) && f->valuestring != NULL) {
        out->str = f->valuestring;
        out->num = 0.0;
        return 1;
    }
    if (cJSON_IsNumber(f) && isfinite(f->valuedouble)) {
        out->str = NULL;
        out->num = f->valuedouble;
        return 1;
    }
    bad_field(e, key, f == NULL ? "is missing" : "is not a string or number");
    return 0;
}

static int check_time_value(const EvCtx *e, const char *key, const cJSON *f)
{
    if (!cJSON_IsNumber(f)) {
        bad_field(e, key, f == NULL ? "is missing" : "is not a number");
        return 0;
    }
    if (!isfinite(f->valuedouble) || fabs(f->valuedouble) > TIME_LIMIT_US) {
        bad_field(e, key, "is out of range");
        return 0;
    }
    return 1;
}

static int need_time(const EvCtx *e, const char *key, double *out)
{
    const cJSON *f = field(e, key);
    if (!check_time_value(e, key, f))
        return 0;
    *out = f->valuedouble;
    return 1;
}

/* dur may be absent (then 0); present it must be a number >= 0. */
static int opt_dur(const EvCtx *e, double *out)
{
    const cJSON *f = field(e, "dur");
    *out = 0.0;
    if (f == NULL)
        return 1;
    if (!check_time_value(e, "dur", f))
        return 0;
    if (f->valuedouble < 0.0) {
        bad_field(e, "dur", "is negative");
        return 0;
    }
    *out = f->valuedouble;
    return 1;
}

static int need_object(const EvCtx *e, const char *key, int required)
{
    const cJSON *f = field(e, key);
    if (f == NULL && !required)
        return 1;
    if (!cJSON_IsObject(f)) {
        bad_field(e, key, f == NULL ? "is missing" : "is not an object");
        return 0;
    }
    return 1;
}

/* ------------------------------------------------------------------------ */
/* Per-phase checks                                                         */

static void note_thread_use(Collected *c, const ThreadKey *th)
{
    vec_push(&c->pids, &th->pid);
    vec_push(&c->threads, th);
}

static void check_x(const EvCtx *e, Collected *c)
{
    ThreadKey th;
    double ts = 0.0;
    double dur = 0.0;
    const int ok = need_string(e, "name", NULL) & need_id(e, "pid", &th.pid) &
                   need_id(e, "tid", &th.tid) & need_time(e, "ts", &ts) &
                   opt_dur(e, &dur) & need_object(e, "args", 0);
    if (!ok)
        return;
    /* Start and duration are rounded separately, exactly as Perfetto's
     * tokenizer does; that is what can turn touching into overlapping. */
    const long long start = llround(ts * 1000.0);
    const Slice s = {th,           start, start + llround(dur * 1000.0),
                     ts * 1000.0, (ts + dur) * 1000.0, e->index};
    vec_push(&c->slices, &s);
    note_thread_use(c, &th);
}

static int meta_kind_of(const char *name, MetaKind *out)
{
    for (int k = 0; k < META_KIND_COUNT; k++) {
        if (strcmp(name, META_NAMES[k]) == 0) {
            *out = (MetaKind)k;
            return 1;
        }
    }
    return 0;
}

/* args.name must be a string for *_name, args.sort_index a number for
 * *_sort_index: those are the only keys the viewers read. */
static int check_meta_args(const EvCtx *e, MetaKind kind)
{
    const cJSON *args = field(e, "args");
    if (!cJSON_IsObject(args)) {
        bad_field(e, "args", args == NULL ? "is missing" : "is not an object");
        return 0;
    }
    const int is_name = kind == META_PROCESS_NAME || kind == META_THREAD_NAME;
    const char *key = is_name ? "name" : "sort_index";
    const cJSON *v = cJSON_GetObjectItemCaseSensitive(args, key);
    const int ok = is_name ? cJSON_IsString(v) && v->valuestring != NULL
                           : cJSON_IsNumber(v) && isfinite(v->valuedouble);
    if (!ok)
        bad_field(e, is_name ? "args.name" : "args.sort_index",
                  v == NULL  ? "is missing"
                  : is_name ? "is not a string"
                             : "is not a number");
    return ok;
}

static void check_m(const EvCtx *e, Collected *c)
{
    const char *name = NULL;
    if (!need_string(e, "name", &name))
        return;
    MetaKind kind;
    if (!meta_kind_of(name, &kind)) {
        bad_field(e, "name", "is not a known metadata name");
        return;
    }
    const int is_thread =
        kind == META_THREAD_NAME || kind == META_THREAD_SORT_INDEX;
    Meta m;
    memset(&m, 0, sizeof m);
    int ok = need_id(e, "pid", &m.th.pid) & check_meta_args(e, kind);
    if (is_thread)
        ok &= need_id(e, "tid", &m.th.tid);
    if (!ok)
        return;
    m.kind = kind;
    m.index = e->index;
    vec_push(&c->metas, &m);
}

static void check_c(const EvCtx *e, Collected *c)
{
    IdKey pid;
    double ts = 0.0;
    const int ok = need_string(e, "name", NULL) & need_id(e, "pid", &pid) &
                   need_time(e, "ts", &ts) & need_object(e, "args", 1);
    if (ok)
        vec_push(&c->pids, &pid);
}

/* Perfetto parses a string id as hex and rejects fractions; catapult
 * compares JSON forms. Only a plain integer means the same in both. */
static int need_flow_id(const EvCtx *e, long long *out)
{
    const cJSON *f = field(e, "id");
    const char *problem = NULL;
    if (f == NULL)
        problem = "is missing";
    else if (cJSON_IsString(f))
        problem = "is a string, not an integer";
    else if (!cJSON_IsNumber(f))
        problem = "is not a number";
    else if (!isfinite(f->valuedouble) ||
             f->valuedouble != trunc(f->valuedouble) ||
             fabs(f->valuedouble) > MAX_EXACT_INT)
        problem = "is not an integer";
    if (problem != NULL) {
        violation(e->rep, "flow-id", "event #%zu (ph \"%s\"): \"id\" %s",
                  e->index, e->ph, problem);
        return 0;
    }
    *out = (long long)f->valuedouble;
    return 1;
}

/* f must bind to its enclosing slice (bp "e"); without it both viewers
 * attach it to the next slice that begins on the thread instead. */
static void check_bp_e(const EvCtx *e)
{
    const cJSON *bp = field(e, "bp");
    if (cJSON_IsString(bp) && bp->valuestring != NULL &&
        strcmp(bp->valuestring, "e") == 0)
        return;
    violation(e->rep, "flow-bp", "event #%zu (ph \"f\"): \"bp\" must be \"e\"",
              e->index);
}

static void check_flow(const EvCtx *e, Collected *c, int is_start)
{
    Flow fl;
    memset(&fl, 0, sizeof fl);
    const int ok = need_flow_id(e, &fl.id) & need_string(e, "cat", &fl.cat) &
                   need_string(e, "name", &fl.name) &
                   need_id(e, "pid", &fl.th.pid) &
                   need_id(e, "tid", &fl.th.tid) & need_time(e, "ts", &fl.ts);
    /* A wrong bp is its own violation; the f still pairs with its s, so
     * it is kept to avoid a second, misleading "no matching f". */
    if (!is_start)
        check_bp_e(e);
    if (!ok)
        return;
    fl.ns = llround(fl.ts * 1000.0);
    fl.t2 = llround(fl.ts * 2000.0);
    fl.index = e->index;
    vec_push(is_start ? &c->starts : &c->ends, &fl);
    note_thread_use(c, &fl.th);
}

/* Rule 6, on every event that carries a cname. */
static void check_cname(const EvCtx *e)
{
    const cJSON *f = field(e, "cname");
    if (f == NULL)
        return;
    if (cJSON_IsString(f) && f->valuestring != NULL) {
        const size_t n = sizeof RESERVED_CNAMES / sizeof RESERVED_CNAMES[0];
        for (size_t i = 0; i < n; i++)
            if (strcmp(f->valuestring, RESERVED_CNAMES[i]) == 0)
                return;
    }
    const char *shown = cJSON_IsString(f) && f->valuestring != NULL
                            ? f->valuestring
                            : "(non-string)";
    violation(e->rep, "cname",
              "event #%zu (ph \"%s\"): \"%s\" is not a reserved color name",
              e->index, e->ph, shown);
}

static void check_event(const cJSON *ev, size_t index, Collected *c,
                        Report *rep)
{
    if (!cJSON_IsObject(ev)) {
        violation(rep, "fields", "event #%zu is not an object", index);
        return;
    }
    const cJSON *ph = cJSON_GetObjectItemCaseSensitive(ev, "ph");
    if (!cJSON_IsString(ph) || ph->valuestring == NULL) {
        violation(rep, "fields", "event #%zu: \"ph\" %s", index,
                  ph == NULL ? "is missing" : "is not a string");
        return;
    }
    const EvCtx e = {ev, index, ph->valuestring, rep};
    check_cname(&e);
    const char *p = ph->valuestring;
    if (strcmp(p, "X") == 0) {
        c->n_x++;
        check_x(&e, c);
    } else if (strcmp(p, "M") == 0) {
        check_m(&e, c);
    } else if (strcmp(p, "C") == 0) {
        c->n_c++;
        check_c(&e, c);
    } else if (strcmp(p, "s") == 0) {
        c->n_s++;
        check_flow(&e, c, 1);
    } else if (strcmp(p, "f") == 0) {
        c->n_f++;
        check_flow(&e, c, 0);
    } else {
        violation(rep, "phase",
                  "event #%zu: ph \"%s\" (the converter writes only X, M, C, "
                  "s, f)", index, p);
    }
}

/* ------------------------------------------------------------------------ */
/* Rule 3: overlap of X slices per thread                                   */

static int slice_cmp_common(const Slice *a, const Slice *b)
{
    const int c = thread_cmp(&a->th, &b->th);
    return c != 0 ? c : cmp_ll(a->start, b->start);
}

/* Same start: longer first, as Perfetto sorts them, so the longer one nests
 * the shorter one. */
static int slice_cmp_nested(const void *pa, const void *pb)
{
    const Slice *a = pa;
    const Slice *b = pb;
    int c = slice_cmp_common(a, b);
    if (c == 0)
        c = cmp_ll(b->end, a->end);
    return c != 0 ? c : cmp_size(a->index, b->index);
}

/* Same start: shorter first, so a zero-length slice sits before the slice
 * that begins at its point (a boundary, which is allowed). */
static int slice_cmp_disjoint(const void *pa, const void *pb)
{
    const Slice *a = pa;
    const Slice *b = pb;
    int c = slice_cmp_common(a, b);
    if (c == 0)
        c = cmp_ll(a->end, b->end);
    return c != 0 ? c : cmp_size(a->index, b->index);
}

static void report_pair(Report *rep, const char *rule, const Slice *a,
                        const Slice *b)
{
    char pb[KEY_TEXT];
    char tb[KEY_TEXT];
    violation(rep, rule,
              "pid %s tid %s: event #%zu [%lld, %lld) ns and event #%zu "
              "[%lld, %lld) ns",
              idkey_text(&a->th.pid, pb, sizeof pb),
              idkey_text(&a->th.tid, tb, sizeof tb), a->index, a->start,
              a->end, b->index, b->start, b->end);
}

/*
 * Slices of one thread sorted by slice_cmp_nested. The stack holds the open
 * enclosing slices; after popping the ones that ended by b's start, the top
 * is the innermost slice containing b.start. If b outlives it, that is the
 * partial overlap a.start < b.start < a.end < b.end. If no pair is reported
 * the whole thread is properly nested (by induction over the sorted order).
 */
static void check_nested_thread(const Slice *s, size_t n, size_t *stack,
                                Report *rep)
{
    size_t depth = 0;
    for (size_t i = 0; i < n; i++) {
        while (depth > 0 && s[stack[depth - 1]].end <= s[i].start)
            depth--;
        if (depth > 0 && s[stack[depth - 1]].end < s[i].end) {
            report_pair(rep, "partial-overlap", &s[stack[depth - 1]], &s[i]);
            continue; /* keep the stack nested; one report per offender */
        }
        stack[depth++] = i;
    }
}

/*
 * Slices of one thread sorted by slice_cmp_disjoint. Every slice before b
 * starts at or before b.start; b overlaps one of them iff b.start is below
 * the furthest end among the earlier slices of positive length. Zero-length
 * slices never extend that end, so two of them at one point, or one at a
 * boundary, pass; a zero-length slice strictly inside another fails.
 */
static void check_disjoint_thread(const Slice *s, size_t n, Report *rep)
{
    size_t owner = n; /* slice holding the furthest end; n = none yet */
    for (size_t i = 0; i < n; i++) {
        if (owner < n && s[i].start < s[owner].end)
            report_pair(rep, "overlap", &s[owner], &s[i]);
        if (s[i].end > s[i].start && (owner == n || s[i].end > s[owner].end))
            owner = i;
    }
}

/* Sorts the slices in place (by thread, then start) and checks each thread. */
static void check_overlaps(Vec *slices, int disjoint, Report *rep)
{
    vec_sort(slices, disjoint ? slice_cmp_disjoint : slice_cmp_nested);
    const Slice *s = slices->data;
    const size_t n = slices->len;
    size_t *stack = xrealloc(NULL, n * sizeof *stack);
    for (size_t lo = 0; lo < n;) {
        size_t hi = lo + 1;
        while (hi < n && thread_cmp(&s[lo].th, &s[hi].th) == 0)
            hi++;
        if (disjoint)
            check_disjoint_thread(s + lo, hi - lo, rep);
        else
            check_nested_thread(s + lo, hi - lo, stack, rep);
        lo = hi;
    }
    free(stack);
}

/* ------------------------------------------------------------------------ */
/* Rule 5: every arrow strictly inside a slice of positive length            */

/* reach[i] = furthest end among sorted slices lo..i of i's thread: with
 * nesting the enclosing slice need not be the last one starting before t. */
static long long *build_reach(const Slice *s, size_t n)
{
    long long *reach = xrealloc(NULL, n * sizeof *reach);
    for (size_t i = 0; i < n; i++) {
        const int same = i > 0 && thread_cmp(&s[i - 1].th, &s[i].th) == 0;
        reach[i] = same && reach[i - 1] > s[i].end ? reach[i - 1] : s[i].end;
    }
    return reach;
}

/* Number of slices ordered before (th, 2*start < t2). */
static size_t lower_bound_slice(const Slice *s, size_t n, const ThreadKey *th,
                                long long t2)
{
    size_t lo = 0;
    size_t hi = n;
    while (lo < hi) {
        const size_t mid = lo + (hi - lo) / 2;
        const int c = thread_cmp(&s[mid].th, th);
        if (c < 0 || (c == 0 && 2 * s[mid].start < t2))
            lo = mid + 1;
        else
            hi = mid;
    }
    return lo;
}

/*
 * Half-ns units so a midpoint such as 10.5125 us is exact: the arrow must be
 * strictly after a slice's start and strictly before its end, which also
 * rules out zero-length slices and the catapult boundary ambiguity.
 */
static void check_binding_of(const Vec *flows, const char *ph,
                             const Slice *s, size_t n, const long long *reach,
                             Report *rep)
{
    const Flow *f = flows->data;
    for (size_t i = 0; i < flows->len; i++) {
        const size_t p = lower_bound_slice(s, n, &f[i].th, f[i].t2);
        const int inside = p > 0 && thread_cmp(&s[p - 1].th, &f[i].th) == 0 &&
                           2 * reach[p - 1] > f[i].t2;
        if (inside)
            continue;
        char pb[KEY_TEXT];
        char tb[KEY_TEXT];
        violation(rep, "flow-binding",
                  "event #%zu (ph \"%s\", id %lld) at ts %.17g is not strictly "
                  "inside a slice of positive length on pid %s tid %s",
                  f[i].index, ph, f[i].id, f[i].ts,
                  idkey_text(&f[i].th.pid, pb, sizeof pb),
                  idkey_text(&f[i].th.tid, tb, sizeof tb));
    }
}

/* Needs the slices sorted by thread then start (check_overlaps does it). */
static void check_bindings(const Collected *c, Report *rep)
{
    const Slice *s = c->slices.data;
    const size_t n = c->slices.len;
    long long *reach = build_reach(s, n);
    check_binding_of(&c->starts, "s", s, n, reach, rep);
    check_binding_of(&c->ends, "f", s, n, reach, rep);
    free(reach);
}

/* ------------------------------------------------------------------------ */
/* Rule 4: flow pairing                                                     */

static int flow_cmp_id(const void *pa, const void *pb)
{
    const Flow *a = pa;
    const Flow *b = pb;
    const int c = cmp_ll(a->id, b->id);
    return c != 0 ? c : cmp_size(a->index, b->index);
}

/* Both viewers key a v1 flow by (id, cat, name). */
static int flow_key_cmp(const Flow *a, const Flow *b)
{
    int c = cmp_ll(a->id, b->id);
    if (c == 0)
        c = strcmp(a->cat, b->cat);
    return c != 0 ? c : strcmp(a->name, b->name);
}

static int flow_cmp_key(const void *pa, const void *pb)
{
    const Flow *a = pa;
    const Flow *b = pb;
    const int c = flow_key_cmp(a, b);
    return c != 0 ? c : cmp_size(a->index, b->index);
}

/* Perfetto never frees a v1 id: a second s with it is ignored and its f
 * draws from the first producer. Sorts by id; flow_pairs re-sorts. */
static void check_duplicate_ids(Vec *starts, Report *rep)
{
    vec_sort(starts, flow_cmp_id);
    const Flow *s = starts->data;
    for (size_t i = 1; i < starts->len; i++)
        if (s[i].id == s[i - 1].id)
            violation(rep, "flow-duplicate",
                      "s events #%zu and #%zu share id %lld", s[i - 1].index,
                      s[i].index, s[i].id);
}

static void report_unpaired(Report *rep, const Flow *f, size_t n,
                            const char *ph, const char *missing)
{
    for (size_t i = 0; i < n; i++)
        violation(rep, "flow-pair",
                  "%s event #%zu (id %lld, cat \"%s\", name \"%s\") has no "
                  "matching %s", ph, f[i].index, f[i].id, f[i].cat, f[i].name,
                  missing);
}

/* An f whose s is processed later is dropped by both viewers; the viewers
 * process equal timestamps (on the ns grid) in file order. */
static void check_flow_order(const Flow *s, const Flow *f, Report *rep)
{
    if (s->ts < f->ts && s->ns < f->ns)
        return;
    if (s->ts <= f->ts && s->index < f->index)
        return;
    violation(rep, "flow-order",
              "id %lld: s event #%zu (ts %.17g) is not before f event #%zu "
              "(ts %.17g)", s->id, s->index, s->ts, f->index, f->ts);
}

/* One (id, cat, name) group: ns s events and nf f events. */
static void check_flow_group(const Flow *s, size_t ns, const Flow *f,
                             size_t nf, Report *rep)
{
    if (ns == 0) {
        report_unpaired(rep, f, nf, "f", "s");
    } else if (nf == 0) {
        report_unpaired(rep, s, ns, "s", "f");
    } else if (nf > 1) {
        violation(rep, "flow-pair",
                  "id %lld (cat \"%s\", name \"%s\") has %zu f events; "
                  "first #%zu, second #%zu", f->id, f->cat, f->name, nf,
                  f[0].index, f[1].index);
    } else if (ns == 1) {
        check_flow_order(s, f, rep);
    }
    /* ns > 1 with one f: already reported by check_duplicate_ids. */
}

static size_t group_end(const Flow *v, size_t i, size_t n, const Flow *key)
{
    while (i < n && flow_key_cmp(&v[i], key) == 0)
        i++;
    return i;
}

/* Merge walk over s and f, both sorted by (id, cat, name). */
static void check_flow_pairs(Vec *starts, Vec *ends, Report *rep)
{
    vec_sort(starts, flow_cmp_key);
    vec_sort(ends, flow_cmp_key);
    const Flow *s = starts->data;
    const Flow *f = ends->data;
    const size_t ns = starts->len;
    const size_t nf = ends->len;
    size_t i = 0;
    size_t j = 0;
    while (i < ns || j < nf) {
        int c;
        if (i == ns)
            c = 1;
        else if (j == nf)
            c = -1;
        else
            c = flow_key_cmp(&s[i], &f[j]);
        const Flow *key = c <= 0 ? &s[i] : &f[j];
        const size_t i2 = c <= 0 ? group_end(s, i, ns, key) : i;
        const size_t j2 = c >= 0 ? group_end(f, j, nf, key) : j;
        check_flow_group(s + i, i2 - i, f + j, j2 - j, rep);
        i = i2;
        j = j2;
    }
}

/* ------------------------------------------------------------------------ */
/* Rule 7: metadata                                                         */

static int meta_is_thread(MetaKind k)
{
    return k == META_THREAD_NAME || k == META_THREAD_SORT_INDEX;
}

/* Process metadata first, then thread metadata; kind last so a bsearch can
 * look up one (owner, kind). */
static int meta_cmp_key(const Meta *a, const Meta *b)
{
    const int ta = meta_is_thread(a->kind);
    const int tb = meta_is_thread(b->kind);
    if (ta != tb)
        return ta - tb;
    int c = ta ? thread_cmp(&a->th, &b->th) : idkey_cmp(&a->th.pid, &b->th.pid);
    if (c == 0)
        c = (int)a->kind - (int)b->kind;
    return c;
}

static int meta_cmp_bsearch(const void *pa, const void *pb)
{
    return meta_cmp_key(pa, pb);
}

static int meta_cmp_sort(const void *pa, const void *pb)
{
    const Meta *a = pa;
    const Meta *b = pb;
    const int c = meta_cmp_key(a, b);
    return c != 0 ? c : cmp_size(a->index, b->index);
}

static void check_meta_duplicates(const Meta *m, size_t n, Report *rep)
{
    for (size_t i = 1; i < n; i++) {
        if (meta_cmp_key(&m[i - 1], &m[i]) != 0)
            continue;
        char pb[KEY_TEXT];
        violation(rep, "metadata-duplicate",
                  "events #%zu and #%zu are both %s for pid %s", m[i - 1].index,
                  m[i].index, META_NAMES[m[i].kind],
                  idkey_text(&m[i].th.pid, pb, sizeof pb));
    }
}

static int has_meta(const Meta *m, size_t n, const ThreadKey *th,
                    MetaKind kind)
{
    if (n == 0)
        return 0; /* bsearch, like qsort, wants a valid pointer */
    Meta key;
    memset(&key, 0, sizeof key);
    key.th = *th;
    key.kind = kind;
    return bsearch(&key, m, n, sizeof *m, meta_cmp_bsearch) != NULL;
}

static int idkey_qsort_cmp(const void *a, const void *b)
{
    return idkey_cmp(a, b);
}

static int thread_qsort_cmp(const void *a, const void *b)
{
    return thread_cmp(a, b);
}

/* Sorts and removes duplicates; returns the distinct count. */
static size_t sort_unique(Vec *v, int (*cmp)(const void *, const void *))
{
    if (v->len == 0)
        return 0;
    vec_sort(v, cmp);
    unsigned char *d = v->data;
    size_t out = 1;
    for (size_t i = 1; i < v->len; i++) {
        if (cmp(d + (out - 1) * v->elem, d + i * v->elem) != 0) {
            memmove(d + out * v->elem, d + i * v->elem, v->elem);
            out++;
        }
    }
    v->len = out;
    return out;
}

static void require_meta(const Meta *m, size_t n, const ThreadKey *th,
                         MetaKind kind, Report *rep)
{
    if (has_meta(m, n, th, kind))
        return;
    char pb[KEY_TEXT];
    char tb[KEY_TEXT];
    if (meta_is_thread(kind))
        violation(rep, "metadata", "pid %s tid %s has no %s",
                  idkey_text(&th->pid, pb, sizeof pb),
                  idkey_text(&th->tid, tb, sizeof tb), META_NAMES[kind]);
    else
        violation(rep, "metadata", "pid %s has no %s",
                  idkey_text(&th->pid, pb, sizeof pb), META_NAMES[kind]);
}

/* Dedups c->pids and c->threads (their lengths become the counts). */
static void check_metadata(Collected *c, Report *rep)
{
    vec_sort(&c->metas, meta_cmp_sort);
    const Meta *m = c->metas.data;
    const size_t nm = c->metas.len;
    check_meta_duplicates(m, nm, rep);

    const size_t np = sort_unique(&c->pids, idkey_qsort_cmp);
    const IdKey *pids = c->pids.data;
    for (size_t i = 0; i < np; i++) {
        const ThreadKey th = {pids[i], {NULL, 0.0}};
        require_meta(m, nm, &th, META_PROCESS_NAME, rep);
        require_meta(m, nm, &th, META_PROCESS_SORT_INDEX, rep);
    }
    const size_t nt = sort_unique(&c->threads, thread_qsort_cmp);
    const ThreadKey *ths = c->threads.data;
    for (size_t i = 0; i < nt; i++) {
        require_meta(m, nm, &ths[i], META_THREAD_NAME, rep);
        require_meta(m, nm, &ths[i], META_THREAD_SORT_INDEX, rep);
    }
}

/* ------------------------------------------------------------------------ */
/* Command line                                                             */

typedef enum {
    EXP_SLICES,
    EXP_ARROWS,
    EXP_THREADS,
    EXP_COUNTERS,
    EXP_COUNT
} ExpectKind;

static const char *const EXPECT_FLAGS[EXP_COUNT] = {
    "--expect-slices", "--expect-arrows", "--expect-threads",
    "--expect-counters"};
static const char *const EXPECT_NOUNS[EXP_COUNT] = {"slices", "arrows",
                                                    "threads", "counters"};

typedef struct {
    const char *path;
    int disjoint;
    int expect_set[EXP_COUNT];
    size_t expect[EXP_COUNT];
} Options;

static void usage(FILE *out)
{
    fputs("usage: trace_check [--disjoint] [--expect-slices N] "
          "[--expect-arrows N]\n"
          "                   [--expect-threads N] [--expect-counters N] "
          "FILE\n"
          "Checks a trace.clean.json against the viewer rules; exit 0 ok, "
          "1 violations, 2 usage.\n",
          out);
}

static int parse_count(const char *s, size_t *out)
{
    if (s == NULL || *s < '0' || *s > '9')
        return 0;
    char *end = NULL;
    errno = 0;
    const unsigned long long v = strtoull(s, &end, 10);
    if (errno != 0 || *end != '\0' || v > SIZE_MAX)
        return 0;
    *out = (size_t)v;
    return 1;
}

static int expect_flag(const char *arg)
{
    for (int k = 0; k < EXP_COUNT; k++)
        if (strcmp(arg, EXPECT_FLAGS[k]) == 0)
            return k;
    return -1;
}

/* Returns 0 to run, 1 if --help was handled, -1 on a usage error. */
static int parse_args(int argc, char **argv, Options *o)
{
    memset(o, 0, sizeof *o);
    int only_files = 0;
    for (int i = 1; i < argc; i++) {
        const char *a = argv[i];
        const int k = only_files ? -1 : expect_flag(a);
        if (!only_files && strcmp(a, "--") == 0) {
            only_files = 1;
        } else if (!only_files && strcmp(a, "--help") == 0) {
            usage(stdout);
            return 1;
        } else if (!only_files && strcmp(a, "--disjoint") == 0) {
            o->disjoint = 1;
        } else if (k >= 0) {
            if (i + 1 >= argc || !parse_count(argv[i + 1], &o->expect[k])) {
                fprintf(stderr, "trace_check: %s needs a count\n", a);
                return -1;
            }
            o->expect_set[k] = 1;
            i++;
        } else if (!only_files && a[0] == '-' && a[1] != '\0') {
            fprintf(stderr, "trace_check: unknown option %s\n", a);
            return -1;
        } else if (o->path != NULL) {
            fputs("trace_check: exactly one FILE expected\n", stderr);
            return -1;
        } else {
            o->path = a;
        }
    }
    if (o->path == NULL) {
        fputs("trace_check: missing FILE\n", stderr);
        return -1;
    }
    return 0;
}

/* ------------------------------------------------------------------------ */
/* Driver                                                                   */

static char *read_all(const char *path, size_t *len_out)
{
    FILE *fp = fopen(path, "rb");
    if (fp == NULL)
        return NULL;
    size_t cap = 1 << 16;
    size_t len = 0;
    char *buf = xrealloc(NULL, cap);
    for (;;) {
        if (len == cap) {
            cap *= 2;
            buf = xrealloc(buf, cap);
        }
        const size_t got = fread(buf + len, 1, cap - len, fp);
        len += got;
        if (got == 0)
            break;
    }
    const int failed = ferror(fp);
    fclose(fp);
    if (failed) {
        free(buf);
        return NULL;
    }
    *len_out = len;
    return buf;
}

/* cJSON_ParseWithLength accepts trailing garbage; a viewer does not. */
static cJSON *parse_json(const char *buf, size_t len, Report *rep)
{
    const char *end = NULL;
    cJSON *root = cJSON_ParseWithLengthOpts(buf, len, &end, 0);
    if (root == NULL) {
        const size_t at = end != NULL && end >= buf ? (size_t)(end - buf) : 0;
        violation(rep, "json", "not valid JSON (error near byte %zu)", at);
        return NULL;
    }
    size_t at = (size_t)(end - buf);
    while (at < len && (buf[at] == ' ' || buf[at] == '\t' ||
                        buf[at] == '\n' || buf[at] == '\r'))
        at++;
    if (at < len) {
        violation(rep, "json", "trailing data after the JSON value at byte %zu",
                  at);
        cJSON_Delete(root);
        return NULL;
    }
    return root;
}

/* Rule 1: the event array, or NULL (reported). */
static const cJSON *event_array(const cJSON *root, Report *rep)
{
    if (cJSON_IsArray(root))
        return root;
    if (!cJSON_IsObject(root)) {
        violation(rep, "json", "top level is neither an object nor an array");
        return NULL;
    }
    const cJSON *unit =
        cJSON_GetObjectItemCaseSensitive(root, "displayTimeUnit");
    if (unit != NULL &&
        !(cJSON_IsString(unit) && unit->valuestring != NULL &&
          (strcmp(unit->valuestring, "ms") == 0 ||
           strcmp(unit->valuestring, "ns") == 0)))
        violation(rep, "display-time-unit",
                  "displayTimeUnit must be \"ms\" or \"ns\" (catapult throws "
                  "otherwise), got %s",
                  cJSON_IsString(unit) ? unit->valuestring : "a non-string");
    const cJSON *events = cJSON_GetObjectItemCaseSensitive(root, "traceEvents");
    if (!cJSON_IsArray(events)) {
        violation(rep, "json", "top-level object has no \"traceEvents\" array");
        return NULL;
    }
    return events;
}

static void check_expect(const Options *o, const size_t actual[EXP_COUNT],
                         Report *rep)
{
    for (int k = 0; k < EXP_COUNT; k++)
        if (o->expect_set[k] && o->expect[k] != actual[k])
            violation(rep, "expect", "%zu %s, expected %zu", actual[k],
                      EXPECT_NOUNS[k], o->expect[k]);
}

static void check_events(const cJSON *events, const Options *o, Report *rep)
{
    Collected c = collected_new();
    size_t index = 0;
    for (const cJSON *ev = events->child; ev != NULL; ev = ev->next)
        check_event(ev, index++, &c, rep);

    if (o->disjoint)
        check_flat_lanes(c.slices.data, c.slices.len, rep);
    check_overlaps(&c.slices, o->disjoint, rep);
    check_bindings(&c, rep);
    check_duplicate_ids(&c.starts, rep);
    check_flow_pairs(&c.starts, &c.ends, rep);
    check_metadata(&c, rep);

    const size_t actual[EXP_COUNT] = {c.n_x, c.n_s, c.threads.len, c.n_c};
    check_expect(o, actual, rep);
    if (rep->count == 0)
        printf("ok: %zu slices, %zu arrows, %zu processes, %zu threads, "
               "%zu counters\n",
               c.n_x, c.n_s, c.pids.len, c.threads.len, c.n_c);
    collected_free(&c);
}

static int run(const Options *o)
{
    size_t len = 0;
    char *buf = read_all(o->path, &len);
    if (buf == NULL) {
        fprintf(stderr, "trace_check: %s: cannot read: %s\n", o->path,
                strerror(errno));
        return 2;
    }
    Report rep = {o->path, 0};
    cJSON *root = parse_json(buf, len, &rep);
    free(buf);
    if (root != NULL) {
        const cJSON *events = event_array(root, &rep);
        if (events != NULL)
            check_events(events, o, &rep);
        cJSON_Delete(root);
    }
    if (rep.count > MAX_SHOWN)
        fprintf(stderr, "trace_check: %s: %zu violations in total (%d shown)\n",
                o->path, rep.count, (int)MAX_SHOWN);
    return rep.count == 0 ? 0 : 1;
}

int main(int argc, char **argv)
{
    Options o;
    const int parsed = parse_args(argc, argv, &o);
    if (parsed != 0) {
        if (parsed < 0)
            usage(stderr);
        return parsed < 0 ? 2 : 0;
    }
    return run(&o);
}
