/*
 * check_flat: the flat-lane rules (SPEC §4, §6; viewer-notes §1.2) that
 * Perfetto's integer-ns grid alone does not see, per thread:
 *
 *   float-overlap  catapult keeps float times and draws two slices that
 *                  overlap by more than float noise on top of each other:
 *                  no slice may start more than tol before an earlier
 *                  one's float end b (tol = max(0.25, |a| * 2^-22) ns).
 *   nest           catapult rounds start and end to whole ns (Math.round)
 *                  only to decide containment, bounds inclusive: no slice
 *                  may lie within another on that grid.
 *   point-start    Perfetto nests slices that share a rounded start: no
 *                  point (e == s or b - a < 1) shares its start.
 *   depth          a pipe's sub-lanes (tids PIPE, PIPE#1, ... of one pid)
 *                  are exactly as many as the peak concurrency of the
 *                  occupancy intervals of SPEC §4. Too few is a violation
 *                  only where no pair of slices has been reported (a point
 *                  within the 1 ns margin of a neighbour); too many is a
 *                  note (an extra row, nothing drawn wrong).
 *
 * The first three record pairs (check_pairs), reported once each.
 * catapult's grid is taken unshifted (it shifts by the trace's first event
 * before rounding; the SPEC's intervals are meant to hold for any shift).
 */
#ifndef CSIM_CHECK_FLAT_H
#define CSIM_CHECK_FLAT_H

#include "check/check_state.h"

/* float-overlap, nest, point-start. Reorders st->slices. 0, or -1 out of memory. */
int csim_check_flat_pairs(struct csim_check_state *st);

/* depth, after every pair is in: flagged (by thread id) marks the threads
   with a reported pair. Reorders st->slices. 0, or -1 out of memory. */
int csim_check_flat_depth(struct csim_check_state *st, const unsigned char *flagged);

/* The note on pipes spread over more sub-lanes than they need, if any. */
void csim_check_flat_note(struct csim_check_state *st);

#endif
