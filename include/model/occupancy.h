/*
 * occupancy: the interval a slice occupies on its lane (SPEC §4), the one
 * packing rule that keeps a lane flat in both viewers. Perfetto rounds start
 * and duration separately to whole ns and nests slices sharing a start;
 * catapult keeps float times, draws real overlaps on top of each other and,
 * bounds inclusive, nests what rounds inside another. In float ns
 * (a = ts*1000, b = (ts+dur)*1000, tol = max(0.25, |a|*2^-22)) and on
 * Perfetto's grid (s, e):
 *   a point (e == s or b - a < 1) occupies [a - 1 - tol, max(s+0.5, b-tol, e-0.5));
 *   any other slice occupies [a, max(b - tol, e - 0.5)).
 * tol lets float32 noise share a sub-lane while a one-cycle overlap
 * (0.54 ns) does not; e - 0.5 keeps the next start's rounding at or after e;
 * a point keeps a full ns clear on both sides and a start of its own.
 */
#ifndef CSIM_OCCUPANCY_H
#define CSIM_OCCUPANCY_H

#include "model/event_table.h"

struct csim_occupancy {
	double lo, hi;   /* [lo, hi) in float ns */
};

/* A zero-length slice, or one shorter than a ns: never an anchor (§5.3). */
int csim_slice_is_point(const struct csim_slice *s);

struct csim_occupancy csim_slice_occupancy(const struct csim_slice *s);

/*
 * The instant by which a slice has completed, float noise allowed:
 * b - tol. A SET_FLAG at t was released by a slice whose completion is at
 * or before t (SPEC §5.3).
 */
double csim_slice_completion(const struct csim_slice *s);

#endif
