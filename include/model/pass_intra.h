/*
 * pass_intra: cross-core sync arrows (SPEC §5.6).
 *
 * Newer producers write SET_INTRA_BLOCK(I) on the setting core and
 * WAIT_INTRA_BLOCK(I) on the waiting core as B/E records sharing an id
 * "intra_<n>"; the pair pass joins each one's B and E like a flag's. This
 * pass matches the i-th SET (by begin) with the i-th WAIT of each id,
 * anchors the producer on the setting core's pipe named by the SET's
 * PIPE: (else its tid) and the consumer on the waiting core's pipe (the
 * WAIT's PIPE: or tid), with the flags' anchor rules (anchor_index).
 *
 * Requires CSIM_PART_FLAGS (the cross-core ones are marked `intra`; the
 * flag pass leaves them alone), CSIM_PART_PIPES and CSIM_PART_KEPT.
 * Provides CSIM_PART_INTRA: intra_arrows[] in SET-begin order (then input
 * order), intra_skips[] under the flags' reasons and intra_deps[] (every
 * anchored pair, as the flag pass's deps[]), replaced on every run.
 */
#ifndef CSIM_PASS_INTRA_H
#define CSIM_PASS_INTRA_H

#include "model/model.h"

extern const struct csim_pass_def csim_pass_intra_def;

int csim_pass_intra(struct csim_model *m, struct csim_error *err);

#endif
