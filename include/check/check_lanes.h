/*
 * check_lanes: X slices per thread on Perfetto's integer-ns grid, and the
 * arrows that must bind to them.
 *
 *   overlap          (flat) no slice starts before the furthest end of the
 *                    earlier slices of positive length on its thread (a
 *                    pair for check_pairs)
 *   partial-overlap  (not flat) slices are disjoint or properly nested
 *   flow-binding     every s and f lies strictly inside a slice of positive
 *                    length of its thread (a midpoint binds alike in both
 *                    viewers; a boundary or a zero-length slice does not)
 */
#ifndef CSIM_CHECK_LANES_H
#define CSIM_CHECK_LANES_H

#include "check/check_state.h"

/* Sorts st->slices by thread and start. CSIM_OK, or -1 out of memory. */
int csim_check_lanes_overlap(struct csim_check_state *st, int flat);

/* Needs the order csim_check_lanes_overlap() leaves. -1 out of memory. */
int csim_check_lanes_binding(struct csim_check_state *st);

#endif
