/*
 * summary_instr: the summary's API_INSTR numbers (SPEC §10). Each summary
 * pipe takes the sums of API_INSTR's rows of the same (core, pipe): the
 * API core whose name is the pid, the Pipe whose canonical name is the
 * lane's. API_INSTR rows of a pipe without a slice on that core are not
 * shown: the summary lists the pipes the timeline has.
 *
 * The derived clock: the simulator prints every time as cycles / clock, so
 * over a pipe whose executions API_INSTR counts exactly as many as its
 * slices, its Cycles / the slices' summed length is the clock. Used only
 * when every such pipe agrees within 1 % and the pooled value is within
 * 1 % of a clock the simulator uses (model/clock.h), which it then is;
 * otherwise hand-made or mismatched metrics would give a confident wrong
 * clock. A (core, pipe) whose values are all 0 ran none of the rows: it
 * shows as unknown, not as zero.
 */
#ifndef CSIM_SUMMARY_INSTR_H
#define CSIM_SUMMARY_INSTR_H

#include "model/model.h"

/* Part of the summary pass: fills the API_INSTR fields and derived_mhz. */
void csim_summary_add_instr(struct csim_model *m);

#endif
