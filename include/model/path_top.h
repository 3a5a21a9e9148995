/*
 * path_top: the instructions holding the most of a core's critical path
 * (SPEC §13, `top_instructions`): a busy segment counts for its
 * instruction, a flag or cross-core wait along an arrow for the
 * instruction that released it (the line a tuner changes to shorten the
 * wait; a cross-core one may be another core's), summed over every time
 * the path passes through an instruction (a loop's iterations are one).
 */
#ifndef CSIM_PATH_TOP_H
#define CSIM_PATH_TOP_H

#include <stddef.h>
#include <stdint.h>

#include "model/critical_path.h"

struct csim_path_top_key;

/* Scratch reused core after core; islot is the caller's calloc'd array of
   one slot per instruction id (all 0 between calls). */
struct csim_path_top_work {
	struct csim_path_top_key *tkeys;
	size_t cap_tkeys;
	uint32_t *islot;
	size_t cap_top;      /* of p->top */
};

/*
 * Core c's CSIM_PATH_TOP instructions, largest first (ties: the one the
 * path reaches first), from its segments in p->segs, appended to p->top;
 * ids: each slice's instruction id. 0, or -1 out of memory.
 */
int csim_path_top_add(struct csim_path *p, const uint32_t *ids, struct csim_path_top_work *w,
		      struct csim_path_core *c);
void csim_path_top_release(struct csim_path_top_work *w);

#endif
