/*
 * pass_pack: sub-lane packing (SPEC §4). Per (pid, pipe), kept slices
 * sorted by the start of their occupancy interval (model/occupancy.h), then
 * input order, each take the lowest-numbered sub-lane whose last interval
 * ended at or before that start; a lane gets as many sub-lanes as the
 * intervals' peak concurrency.
 *
 * Requires CSIM_PART_KEPT (`kept` rows and kept_slices, which sizes the
 * work arrays). Provides CSIM_PART_LANES: `sublane` on every kept row,
 * lanes[] sorted by (pid, pipe id) with their sub-lane counts and pipeline
 * depths (SPEC §4), and extra_sublanes; lanes[] is replaced on every run.
 */
#ifndef CSIM_PASS_PACK_H
#define CSIM_PASS_PACK_H

#include "model/model.h"

extern const struct csim_pass_def csim_pass_pack_def;

int csim_pass_pack(struct csim_model *m, struct csim_error *err);

#endif
