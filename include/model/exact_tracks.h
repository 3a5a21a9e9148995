/*
 * exact_tracks: the tracks of trace.pftrace (SPEC §15), packed on each
 * slice's exact integer ns (event_table's csim_table_exact) rather than on
 * the JSON viewers' rounding: a lane gets as many tracks as instructions
 * in flight at once (SPEC §4's depth), plus one where a point (a
 * zero-length or sub-ns slice) has no room beside the others. Filled by
 * pass_tracks when wanted.
 */
#ifndef CSIM_EXACT_TRACKS_H
#define CSIM_EXACT_TRACKS_H

#include <stddef.h>
#include <stdint.h>

#include "model/event_table.h"

struct csim_exact_tracks {
	int wanted;            /* --format perfetto: a choice, like the lane rule */
	uint32_t *row_track;   /* per row: first[lane] + its track in the lane
				  (kept rows only) */
	uint32_t *clip;        /* per row: ns its exact end is cut by, where the
				  next slice of its track starts within float
				  noise (SPEC §4's tol); 0 mostly */
	uint32_t *first;       /* per lane (model lanes[]): its first track */
	uint32_t *ntracks;     /* per lane: its tracks */
	uint32_t *depth;       /* per lane: the tracks its slices that are no
				  point (SPEC §4) need; the ones past it exist
				  for points */
	size_t total;          /* tracks over all lanes */
};

void csim_exact_tracks_release(struct csim_exact_tracks *x);

/* Row `row`'s begin and end on its track, its end clipped (SPEC §15). */
void csim_exact_tracks_times(const struct csim_exact_tracks *x, const struct csim_table *t,
			     size_t row, int64_t *begin, int64_t *end);

#endif
