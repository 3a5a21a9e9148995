/*
 * pass_tracks: trace.pftrace's tracks (SPEC §15, model/exact_tracks.h).
 * Per lane, the kept slices in order of their start (then input order)
 * take the lowest-numbered free track (model/lane_packer.h). A slice
 * occupies SPEC §4's true interval [a, b - tol) (at least to s + 0.5), so
 * the tracks of a lane are as many as its depth: the next slice of a track
 * starts at or after its exact end, or within float noise before it, and
 * then the end is cut there (the one time the file changes) leaving at
 * least 1 ns. A point (§4) occupies up to its exact end; an instant (its
 * exact end its begin) up to past its begin's ns. Tracks that exist only
 * for points come after the depth's.
 *
 * Requires CSIM_PART_LANES (lanes[], kept rows) and a table that kept its
 * exact times. Provides CSIM_PART_TRACKS; does nothing unless wanted.
 */
#ifndef CSIM_PASS_TRACKS_H
#define CSIM_PASS_TRACKS_H

#include "model/model.h"

extern const struct csim_pass_def csim_pass_tracks_def;

int csim_pass_tracks(struct csim_model *m, struct csim_error *err);

#endif
