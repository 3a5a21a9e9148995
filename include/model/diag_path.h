/*
 * diag_path: how much of a core's critical path (critical_path.h) the
 * cause a diagnosis rule names holds. With a path, that time is the rule's
 * evidence on the core and ranks the lines (SPEC §10, §13; docs/summary.md,
 * "Ranking"): "MTE2 holds 54 % of the critical path" weighs what shortening
 * MTE2 could take back, where its busy time also counts what ran in the
 * shadow of other work.
 */
#ifndef CSIM_DIAG_PATH_H
#define CSIM_DIAG_PATH_H

#include <stdint.h>

#include "model/model.h"

/*
 * The ns of core at->core's path that rule's cause holds, in *ns; 0 when
 * the rule names no such cause (the whole-run rules, load imbalance) or the
 * core has no path. transfer_bound, vector_shaped_wrong and path_bound:
 * the named pipe's busy time on the path; scalar_bound: the named pipe's busy time
 * and the issue gaps (the scalar unit had not issued the next
 * instruction); sync_bound: the flag waits into the blocked pipe (the
 * vector family as one); cross_core_wait: the cross-core waits.
 */
int csim_diag_path_ns(const struct csim_model *m, enum csim_diag_rule rule,
		      const struct csim_diag_at *at, int64_t *ns);

#endif
