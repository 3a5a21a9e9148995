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

/*
 * Part of the summary pass: the source lines with the most cycles (SPEC
 * §10), lines[] and nlines. A row's line is its AscendC Inner Code, else
 * the API_FILE range holding its address (as the top instructions' source);
 * a line's cycles and executions are those of all its rows, over every
 * core, and its addresses the distinct ones of its rows with cycles. At
 * most CSIM_SUMMARY_TOP_LINES, most cycles first, ties in byte order of
 * the line; lines with 0 cycles are left out. Returns CSIM_OK or, out of
 * memory, CSIM_E_INPUT.
 */
int csim_summary_add_lines(struct csim_model *m, struct csim_error *err);

#endif
