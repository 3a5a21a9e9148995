/*
 * path_what_if: the critical path's what-if (SPEC §13), for each core and
 * for the kernel, from replays of the cores that sync with one another
 * (path_replay.h). The path pass builds a group's cores into one replay,
 * then asks for its estimates; docs/critical-path.md, "What-if", says
 * which pipes and why.
 */
#ifndef CSIM_PATH_WHAT_IF_H
#define CSIM_PATH_WHAT_IF_H

#include <stddef.h>
#include <stdint.h>

#include "model/model.h"
#include "model/path_replay.h"

/* Scratch reused group after group. */
struct csim_what_if_work {
	uint32_t *slot;          /* per pipe id: 1 + its pick, 0: none */
	struct csim_what_if_pick *picks;
	size_t cap_picks;
	int64_t *spans;          /* per pick, per core of the group */
	size_t cap_spans;
	size_t cap_what_if;      /* of the model's path.what_if */
};

/*
 * The groups of summary cores replayed together: cores linked by a
 * cross-core dependency, directly or through others. order (one per
 * summary core) gets the core indices group after group, each group in
 * core order, groups by their first core; start (ncores + 1) where each
 * group begins. Returns the number of groups, or -1 out of memory.
 */
long csim_path_core_groups(const struct csim_model *m, uint32_t *order, size_t *start);

/*
 * The what-if of the n summary cores cores[] (one group, their critical
 * paths done, built into r in that order) into m->path. 0 or -1.
 */
int csim_path_what_if_group(struct csim_model *m, struct csim_what_if_work *w,
			    struct csim_path_replay *r, const uint32_t *cores, size_t n);

/* The kernel's what-if from every core's, into m->path. 0 or -1. */
int csim_path_what_if_kernel(struct csim_model *m, struct csim_what_if_work *w);

void csim_what_if_work_release(struct csim_what_if_work *w);

#endif
