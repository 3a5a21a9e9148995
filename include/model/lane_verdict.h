/*
 * lane_verdict: the lane rule (lane_rule.h) applied to a row as soon as the
 * reading side adds it, with the same answer the lane pass gives later. The
 * reading side records where a slice's text lies only for rows kept, so the
 * slice store grows with the trace's kept share, not with every event.
 *
 * Per-pipe verdicts are cached as pipes appear: a row costs one array load.
 *
 * Ownership: the verdict owns its cache; release() frees it.
 */
#ifndef CSIM_LANE_VERDICT_H
#define CSIM_LANE_VERDICT_H

#include <stddef.h>

#include "model/event_table.h"
#include "model/lane_rule.h"

struct csim_lane_verdict {
	struct csim_lane_rule rule;
	signed char *pipe_drop;   /* per pipe id: a drop reason, -1 kept, -2 unknown */
	size_t cap;
};

void csim_lane_verdict_init(struct csim_lane_verdict *v, const struct csim_lane_rule *rule);
void csim_lane_verdict_release(struct csim_lane_verdict *v);

/*
 * Sets *kept to whether the lane rule keeps row s of t. Returns 0, or -1 when
 * out of memory (*kept is then 1: recording too much is never wrong).
 */
int csim_lane_verdict_keeps(struct csim_lane_verdict *v, const struct csim_table *t,
			    const struct csim_slice *s, int *kept);

#endif
