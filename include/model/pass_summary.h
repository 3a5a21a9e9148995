/*
 * pass_summary: what each core and pipe spent its time on (SPEC §10), the
 * part of summary.json that the timeline alone can tell.
 *
 * Per core (a pid with X slices): its span, first start to last end over
 * every X slice it has, dropped ones included. Per pipe of a core, whatever
 * the lane rule keeps (SCALAR and the noise lanes too): instructions, busy
 * time as the union of their intervals over all sub-lanes, pipeline depth
 * (SPEC §4) and rows, the time blocked in WAIT_FLAG, in total and split by
 * the producing pipe (the PIPE: of the flag's detail), and for MTE pipes
 * the bytes moved and the overlap with compute (summary_mte.h). Per core
 * also the time spent waiting on other cores (WAIT_INTRA_BLOCK). Across
 * cores: min / median / max span and the slowest core; from API_INSTR the
 * per-pipe sums and the top source lines (summary_instr.h). All times are
 * ns on the grid of the event table.
 *
 * Requires the waits pass's items (CSIM_PART_WAITS: one per WAIT, by
 * producer), the lane classes, sub-lane counts and depths, and the
 * process order (cores are listed in output order). O(n log n) at
 * worst, near O(n) on the producer's order (interval_group.h).
 */
#ifndef CSIM_PASS_SUMMARY_H
#define CSIM_PASS_SUMMARY_H

#include "model/model.h"

extern const struct csim_pass_def csim_pass_summary_def;

int csim_pass_summary(struct csim_model *m, struct csim_error *err);

#endif
