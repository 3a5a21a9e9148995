/*
 * pass_order: output order (SPEC §6). Processes in natural order with
 * simulator cores first (core2 before core10, cubecore0 before veccore0
 * before veccore1, other pids after); within each, its lanes in dataflow
 * order (MTE2, MTE1, CUBE, VECTOR, ...: each pipe's order in pipe_table.h),
 * each followed by its sub-lanes.
 *
 * Requires CSIM_PART_PIPES (each pipe's dataflow order) and
 * CSIM_PART_LANES (lanes[] and their sub-lane counts; counters also give a
 * process its place). Provides CSIM_PART_ORDER: processes[] and threads[],
 * replaced on every run.
 */
#ifndef CSIM_PASS_ORDER_H
#define CSIM_PASS_ORDER_H

#include "model/model.h"

extern const struct csim_pass_def csim_pass_order_def;

int csim_pass_order(struct csim_model *m, struct csim_error *err);

#endif
