/*
 * check_state: what --check keeps of a trace while it streams through it,
 * a few dozen bytes per slice and per arrow end, and the counts it prints.
 * Filled by check_event, read by the rule modules.
 */
#ifndef CSIM_CHECK_STATE_H
#define CSIM_CHECK_STATE_H

#include <math.h>
#include <stddef.h>
#include <stdint.h>

#include "check/check_ids.h"
#include "check/check_report.h"
#include "check/check_tally.h"

/*
 * An X slice: its times as written (messages quote them) and on
 * Perfetto's grid. catapult's float ns are csim_check_slice_a/_b.
 */
struct csim_check_slice {
	uint32_t thread;
	uint32_t name;    /* csim_check_ids names */
	int64_t start;    /* Perfetto's ns grid: llround(ts*1000) */
	int64_t end;      /* start + llround(dur*1000): rounded separately */
	double ts, dur;   /* us, as in the file (dur 0 when absent) */
	uint64_t index;   /* position in the event array */
};

/* Float ns as catapult keeps them: ts*1000 and (ts + dur)*1000. */
static inline double csim_check_slice_a(const struct csim_check_slice *s)
{
	return s->ts * 1000.0;
}

static inline double csim_check_slice_b(const struct csim_check_slice *s)
{
	return (s->ts + s->dur) * 1000.0;
}

/* float32 noise at a float ns time a: what two back-to-back slices may
   "overlap" by (SPEC's tol = max(0.25, |a|*2^-22) ns). */
static inline double csim_check_noise_tol(double a)
{
	return fmax(0.25, ldexp(fabs(a), -22));
}

/* catapult's Math.round: halves go up. */
static inline double csim_check_js_round(double x)
{
	return floor(x + 0.5);
}

/* A point: no length on Perfetto's grid, or under 1 ns in floats. */
static inline int csim_check_slice_point(const struct csim_check_slice *s)
{
	return s->end == s->start || csim_check_slice_b(s) - csim_check_slice_a(s) < 1.0;
}

/* An s or f flow event. */
struct csim_check_flow {
	uint32_t thread;
	uint32_t cat, name;   /* csim_check_ids names */
	int64_t id;
	double ts;
	int64_t ns;       /* llround(ts*1000): the order the viewers sort by */
	int64_t t2;       /* llround(ts*2000): half-ns grid for the binding rule */
	uint64_t index;
};

struct csim_check_flows {
	struct csim_check_flow *v;
	size_t n, cap;
};

/* Which lane rules found a pair of slices (check_pairs reports it once). */
enum csim_check_pair_rule {
	CSIM_PAIR_GRID = 1,    /* overlap on Perfetto's grid */
	CSIM_PAIR_FLOAT = 2,   /* overlap in float ns beyond float32 noise */
	CSIM_PAIR_NEST = 4,    /* catapult's rounded containment */
	CSIM_PAIR_POINT = 8    /* a point shares its Perfetto start */
};

/* Two slices of one thread by event index (lo < hi), and the rules. */
struct csim_check_pair {
	uint64_t lo, hi;
	uint32_t thread;
	uint32_t rules;
};

struct csim_check_pairs {
	struct csim_check_pair *v;
	size_t n, cap;
};

/* Pipes on more sub-lanes than their slices need (a note): the first, and
   how many. */
struct csim_check_spread {
	size_t pipes;
	uint32_t thread;
	size_t tids, peak;
};

struct csim_check_state {
	struct csim_check_report rep;
	struct csim_check_ids ids;
	struct csim_check_tally tally;   /* per-event problems by kind */
	struct csim_check_slice *slices;
	size_t nslices, slices_cap;
	struct csim_check_flows starts, ends;
	struct csim_check_pairs pairs;
	struct csim_check_spread spread;
	size_t n_x, n_s, n_f, n_c;   /* events by phase, usable or not */
	size_t n_path;               /* X events on a "critical path" tid */
	char *scratch;               /* decoded strings of the current event */
	size_t scratch_cap;
};

#endif
