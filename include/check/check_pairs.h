/*
 * check_pairs: the lane rules' findings, one per pair of slices. One
 * overlap breaks several rules at once (Perfetto's grid, catapult's floats,
 * catapult's rounded nesting, the pipe's depth); the rules record the pair
 * here and it is reported once, saying what overlaps what, by how much, and
 * what each viewer draws.
 */
#ifndef CSIM_CHECK_PAIRS_H
#define CSIM_CHECK_PAIRS_H

#include "check/check_state.h"

/* Records that rule found x and y (one thread). 0, or -1 out of memory. */
int csim_check_pairs_add(struct csim_check_state *st, const struct csim_check_slice *x,
			 const struct csim_check_slice *y, enum csim_check_pair_rule rule);

/*
 * Reports every pair once, in file order. Sorts st->slices by index.
 * *flagged (by thread id, 1 where a pair was found; the caller frees it)
 * lets the depth rule skip what a pair has said. 0, or -1 out of memory.
 */
int csim_check_pairs_report(struct csim_check_state *st, unsigned char **flagged);

#endif
