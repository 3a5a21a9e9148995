/*
 * pass_flags: sync arrows (SPEC §5), the second of two passes (pass_pair
 * makes the flags).
 *
 * Matches SETs with WAITs and anchors each pair on a producer and a
 * consumer slice (anchor_index). Cross-core records (flags[].intra) are
 * left to pass_intra. Requires CSIM_PART_FLAGS, CSIM_PART_PIPES (a flag from or
 * to a dropped pipe is skipped with its reason) and CSIM_PART_KEPT (anchors
 * are kept, non-zero-length rows; kept_slices sizes them); reads the
 * table's details, not its sync records. Provides CSIM_PART_ARROWS:
 * arrows[] in SET-begin order and the other flag_skips[], and
 * CSIM_PART_DEPS: deps[], every anchored pair, dropped scalar lanes
 * included (the critical path's flags, SPEC §13), both replaced on every
 * run.
 */
#ifndef CSIM_PASS_FLAGS_H
#define CSIM_PASS_FLAGS_H

#include "model/model.h"

extern const struct csim_pass_def csim_pass_flags_def;

int csim_pass_flags(struct csim_model *m, struct csim_error *err);

#endif
