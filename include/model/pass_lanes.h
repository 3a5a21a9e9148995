/*
 * pass_lanes: lane selection (SPEC §3). Decides which slice rows stay as
 * instruction slices: sync slices and BAR are always dropped (arrows
 * replace them), cache_time/ccu_time unless --keep-cache-ccu, and every
 * slice on a pipe its class drops (noise lanes; scalar lanes unless
 * --keep-scalar, decided once in csim_model_classify_pipes()).
 *
 * Requires CSIM_PART_PIPES. Provides CSIM_PART_KEPT: `kept` on every slice
 * row, kept_slices and slice_drops[], all recomputed on every run.
 */
#ifndef CSIM_PASS_LANES_H
#define CSIM_PASS_LANES_H

#include "model/model.h"

extern const struct csim_pass_def csim_pass_lanes_def;

int csim_pass_lanes(struct csim_model *m, struct csim_error *err);

#endif
