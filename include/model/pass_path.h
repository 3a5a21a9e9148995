/*
 * pass_path: the critical path of every core (SPEC §13).
 *
 * Per summary core, on every lane whatever the lane rule keeps: the core's
 * dependency view (path_graph.h) from its instructions and the flag and
 * cross-core dependencies (deps[], intra_deps[]), then a walk back from
 * the node ending last along each node's binding predecessor. The walk's
 * segments tile the core's whole span: the time after the last node and
 * before the first one it reaches is issue time. With --window the
 * segments are clipped to the summary's (windowed) span, and no what-if is
 * estimated (a replay of part of a run says nothing of the whole); with
 * --core only the summary's cores get a path.
 *
 * What-if: for every pipe with busy time on the path, the span replayed
 * with that pipe's instructions twice as fast (path_bind.h).
 *
 * Requires CSIM_PART_PIPES, CSIM_PART_DEPS, CSIM_PART_INTRA and
 * CSIM_PART_SUMMARY; provides CSIM_PART_PATH, replaced on every run.
 * O(n log n) in the instructions and dependencies, plus one O(n) replay
 * per pipe on a core's path.
 */
#ifndef CSIM_PASS_PATH_H
#define CSIM_PASS_PATH_H

#include "model/model.h"

extern const struct csim_pass_def csim_pass_path_def;

int csim_pass_path(struct csim_model *m, struct csim_error *err);

#endif
