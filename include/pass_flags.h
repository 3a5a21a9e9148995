/*
 * pass_flags: sync arrows (SPEC §5). Pairs each flag's B and E records,
 * matches SETs with WAITs, and anchors each pair on a producer and a
 * consumer slice.
 *
 * Requires CSIM_PART_PIPES (a flag from or to a dropped pipe is skipped
 * with its reason) and CSIM_PART_KEPT (anchors are kept, non-zero-length
 * rows; kept_slices sizes them). Provides CSIM_PART_ARROWS: arrows[] in
 * SET-begin order and flag_skips[]. Consumes the table's sync records
 * (they are freed once paired), so it runs once.
 */
#ifndef CSIM_PASS_FLAGS_H
#define CSIM_PASS_FLAGS_H

#include "model.h"

extern const struct csim_pass_def csim_pass_flags_def;

int csim_pass_flags(struct csim_model *m, const struct csim_options *opt,
		    struct csim_error *err);

#endif
