/*
 * summary_rows: summary.json's "instructions" (docs/summary.md): every
 * API_INSTR row that took cycles on the cores kept, in API_INSTR order, so
 * --compare can set every instruction and every source line of two runs
 * against each other, not only their top ten.
 */
#ifndef CSIM_SUMMARY_ROWS_H
#define CSIM_SUMMARY_ROWS_H

#include "model/model.h"
#include "write/out_file.h"

/* "instructions":[...] (null without API_INSTR), without a separator after it. */
void csim_summary_rows_json(const struct csim_model *m, struct csim_out *o);

#endif
