/*
 * diag_rules: the diagnosis rules of SPEC §10, each read off the summary
 * by a fixed threshold (diagnosis.h names them; docs/summary.md says why
 * they sit where they do). A rule that fires writes its line through
 * diag_build.h: the cores it holds on, each with the numbers it used.
 *
 * The whole-run rules come first: a near-empty trace or a matmul kernel
 * with CUBE = 0 is degenerate, and the rules that read the figures (the
 * per-pipe ones, cross-core waiting, load imbalance) say nothing about
 * such a trace, so the diagnose pass then skips them.
 */
#ifndef CSIM_DIAG_RULES_H
#define CSIM_DIAG_RULES_H

#include "model/diag_build.h"
#include "model/diag_partner.h"
#include "model/model.h"

/* Thresholds (docs/summary.md, "Diagnosis"): shares in whole percent. */
#define CSIM_DIAG_NEAR_EMPTY_INSTR 32     /* pipeline instructions, whole run: fewer */
#define CSIM_DIAG_TRANSFER_MTE_PCT 70     /* an MTE pipe busy at least this share */
#define CSIM_DIAG_TRANSFER_COMPUTE_PCT 30 /* ... while no compute pipe exceeds this */
#define CSIM_DIAG_VECTOR_BUSY_PCT 70      /* a vector-family pipe busy at least this share */
#define CSIM_DIAG_VECTOR_UTIL_PCT 50      /* ... with mean utilization at most this */
#define CSIM_DIAG_SCALAR_PCT 60           /* SCALAR busy at least this share */
#define CSIM_DIAG_SYNC_PCT 50             /* a pipe in WAIT_FLAG at least this share */
#define CSIM_DIAG_CROSS_CORE_PCT 50       /* a core in cross-core WAITs at least this share */
#define CSIM_DIAG_IMBALANCE_PCT 125       /* a span at least this share of the median */
#define CSIM_DIAG_PATH_PCT 40             /* path_bound: a pipe busy on the critical path
					     at least this share of the span */
/* truncated: a WAIT no SET released that lasts to its core's last instruction end */

/*
 * near_empty, degenerate_no_cube and truncated (none under --window: a
 * window holds part of the run). A near-empty trace holds no CUBE work
 * either, so degenerate_no_cube is left to near_empty then. Returns
 * whether the trace is degenerate (near-empty or CUBE = 0).
 */
int csim_diag_rules_whole(const struct csim_model *m, struct csim_diag_build *b);

/*
 * transfer_bound, vector_shaped_wrong, scalar_bound, sync_bound (a
 * consequence of one of the first three on its core folded into it),
 * cross_core_wait (partners: csim_diag_partner_find(), NULL: none),
 * path_bound (a core's other lines naming less of its critical path than
 * the pipe that holds it) and load_imbalance, in that order.
 */
void csim_diag_rules_figures(const struct csim_model *m, struct csim_diag_build *b,
			     const struct csim_diag_partner *partners);

#endif
