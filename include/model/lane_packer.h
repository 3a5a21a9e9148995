/*
 * lane_packer: first-fit of intervals onto numbered tracks, the sub-lanes of
 * SPEC §4 and the tracks of trace.pftrace (§15). Intervals come in order
 * of their starts; each takes the lowest-numbered track whose last
 * interval ends at or before its start, else a new one, so the tracks are
 * as many as the intervals' peak overlap. Busy tracks are kept in a heap
 * by end and free ones in a heap by number: O(log k) an interval however
 * deep the lane.
 */
#ifndef CSIM_LANE_PACKER_H
#define CSIM_LANE_PACKER_H

#include <stddef.h>
#include <stdint.h>

struct csim_packer_busy { double end; uint32_t track; };

struct csim_packer {
	struct csim_packer_busy *busy;
	size_t nbusy;
	uint32_t *free_tracks;
	size_t nfree;
	uint32_t ntracks;
};

/* Room for `cap` intervals at once (the longest lane); -1 out of memory. */
int csim_packer_init(struct csim_packer *p, size_t cap);
void csim_packer_release(struct csim_packer *p);
/* A new lane: no track yet. */
void csim_packer_reset(struct csim_packer *p);

/*
 * The track of the interval [lo, hi), lo not below the last one's. The
 * tracks freed at lo are free from then on, since starts only grow.
 */
uint32_t csim_packer_take(struct csim_packer *p, double lo, double hi);

#endif
