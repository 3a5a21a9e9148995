/*
 * lane_rule: which slices the trace keeps (SPEC §3), in one place. A slice
 * is dropped for its kind (SET/WAIT, BAR, cache_time/ccu_time unless kept)
 * or for its pipe (noise lanes always, scalar lanes unless kept). The lane
 * pass applies it to rows; the reading side applies it to X events it could
 * not place, so that an event dropped anyway is counted as dropped, not
 * warned about as skipped.
 */
#ifndef CSIM_LANE_RULE_H
#define CSIM_LANE_RULE_H

#include "model/pipe_table.h"

enum csim_slice_kind {
	CSIM_SLICE_INSTR,      /* an instruction on a pipe */
	CSIM_SLICE_SYNC,       /* SET_FLAG/WAIT_FLAG/set_event/wait_event as X */
	CSIM_SLICE_BAR,
	CSIM_SLICE_CACHE_CCU,  /* cache_time / ccu_time scalar-head companions */
	CSIM_SLICE_INTRA_WAIT  /* WAIT_INTRA_BLOCK(I) as X (older producers): kept
				  like an instruction, and counted as cross-core
				  waiting by the summary */
};

enum csim_slice_drop {
	CSIM_SDROP_SYNC,
	CSIM_SDROP_BAR,
	CSIM_SDROP_CACHE_CCU,
	CSIM_SDROP_NOISE_LANE,
	CSIM_SDROP_SCALAR_LANE,
	CSIM_SDROP_COUNT
};

/* What the notes print for each reason. */
extern const char *const csim_slice_drop_texts[CSIM_SDROP_COUNT];

/* The rule's two choices (--keep-scalar, --keep-cache-ccu). */
struct csim_lane_rule {
	int keep_scalar;
	int keep_cache_ccu;
};

/* The reason a slice of this kind is dropped whatever its pipe, or -1. */
int csim_lane_rule_kind_drop(const struct csim_lane_rule *r, enum csim_slice_kind kind);

/* The reason every slice on a pipe of this class is dropped, or -1. */
int csim_lane_rule_pipe_drop(const struct csim_lane_rule *r, enum csim_pipe_class cls);

/* Both: the reason a slice of this kind on such a pipe is dropped, or -1. */
int csim_lane_rule_drop(const struct csim_lane_rule *r, enum csim_slice_kind kind,
			enum csim_pipe_class cls);

#endif
