/*
 * pass_cut: what --core and --window keep of the trace (SPEC §1; cut.h
 * defines the window rule, docs/decisions.md "Cuts" the readings).
 *
 * A kept slice row is in when its pid matches a --core pattern (fnmatch,
 * no flags, on the decoded pid; any pattern will do) and it meets the
 * window. A counter is in when its pid matches and its ts lies in the
 * window. An arrow is in when both of its anchor slices are. A thread
 * (sub-lane) is in when one of its slices is; sub-lanes keep the numbers of
 * the whole run's packing, so a cut lane stays flat and keeps its names. A
 * process is in when one of its threads or counters is.
 *
 * Every pattern must match some pid of the converted run: one that matches
 * none fails with CSIM_E_USAGE, naming it and the first cores of the run.
 * With several runs side by side (cut.across_runs) a pattern need only match
 * a pid of one of them: each run's pass records which patterns hit
 * (cut.core_hit) and csim_cut_check_runs() fails on one no run matched; a
 * run none of whose pids match keeps nothing.
 * The pass runs after the input was read and validated, so a corrupt input
 * still fails as such (exit 1) first.
 *
 * Requires CSIM_PART_LANES, CSIM_PART_ARROWS, CSIM_PART_INTRA and
 * CSIM_PART_ORDER; provides CSIM_PART_CUT. Without a cut it leaves every
 * in-array NULL (everything is in) and costs nothing.
 */
#ifndef CSIM_PASS_CUT_H
#define CSIM_PASS_CUT_H

#include "model/model.h"

extern const struct csim_pass_def csim_pass_cut_def;

int csim_pass_cut(struct csim_model *m, struct csim_error *err);

/*
 * After the cut pass of each of n runs side by side: CSIM_E_USAGE naming the
 * first pattern that matched no pid of any run and the first cores of the
 * runs, else CSIM_OK.
 */
int csim_cut_check_runs(const struct csim_model *const *runs, size_t n,
			struct csim_error *err);

#endif
