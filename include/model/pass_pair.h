/*
 * pass_pair: each sync flag from its B and E records (SPEC §5), the first
 * of the two passes behind the sync arrows (pass_flags matches and
 * anchors them).
 *
 * Joins B and E by id, else LIFO per name, pid, pipe and run. Requires
 * CSIM_PART_SYNCS, the table's sync records, and leaves them as they are.
 * Provides CSIM_PART_FLAGS: flags[] in input order (of their first
 * record) and flag_skips[CSIM_FSKIP_INCOMPLETE], replaced on every run.
 */
#ifndef CSIM_PASS_PAIR_H
#define CSIM_PASS_PAIR_H

#include "model/model.h"

extern const struct csim_pass_def csim_pass_pair_def;

int csim_pass_pair(struct csim_model *m, struct csim_error *err);

/*
 * Both passes group flags by id * 2 + kind in 32 bits: CSIM_OK, or an
 * input error when the table has too many distinct ids for that.
 */
int csim_flag_keys_check(const struct csim_table *t, struct csim_error *err);

#endif
