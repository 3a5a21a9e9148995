/*
 * trace_check.h: what trace_check.c (events, flows, metadata) shares with
 * trace_check_flat.c (the flat-lane rules of both viewers): keys, slices and
 * the violation report.
 */
#ifndef TRACE_CHECK_H
#define TRACE_CHECK_H

#include <stddef.h>

typedef struct {
    const char *file;
    size_t count; /* all violations, printed or not */
} Report;

/* One line "trace_check: FILE: <rule>: <detail>" (the first 50 only). */
void violation(Report *rep, const char *rule, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));

/* A test tool on small files: running out of memory is a hard error. */
void *xrealloc(void *p, size_t n);

/* pid/tid compared by their JSON form, so "0" and 0 are different. */
typedef struct {
    const char *str; /* JSON string value, or NULL for a number */
    double num;
} IdKey;

typedef struct {
    IdKey pid;
    IdKey tid;
} ThreadKey;

int idkey_cmp(const IdKey *a, const IdKey *b);
int thread_cmp(const ThreadKey *a, const ThreadKey *b);

enum { KEY_TEXT = 96 };

/* Renders a key for messages (truncated if long). */
const char *idkey_text(const IdKey *k, char *buf, size_t n);

typedef struct {
    ThreadKey th;
    long long start; /* Perfetto's ns grid: llround(ts*1000) */
    long long end;   /* start + llround(dur*1000) */
    double a;        /* float ns as catapult keeps them: ts*1000 */
    double b;        /* (ts + dur)*1000 */
    size_t index;    /* position in traceEvents */
} Slice;

/*
 * The flat-lane rules of SPEC §4/§6 that Perfetto's grid alone does not
 * see (trace_check_flat.c): float overlap beyond tol, catapult nesting,
 * Perfetto starts shared with a point, and sub-lanes per pipe equal to the
 * peak concurrency of the occupancy intervals. Leaves s[] as it was.
 */
void check_flat_lanes(const Slice *s, size_t n, Report *rep);

#endif
