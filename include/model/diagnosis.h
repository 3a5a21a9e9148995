/*
 * diagnosis: the likely shapes of a run (SPEC §10), read off the summary by
 * fixed rules (diag_rules.h), as one expert's verdict: one line per rule,
 * naming the cores it holds on with each core's numbers, ranked so that the
 * first line is the primary cause. The thresholds and the ranking measure,
 * and why they are what they are, are in docs/summary.md ("Diagnosis").
 *
 * The pass requires the summary, the pipe classes and the arrows; it does
 * no I/O. A degenerate trace (near-empty, or CUBE = 0 on a kernel with cube
 * cores) keeps its whole-run lines only: the figures the other rules read
 * mean nothing there. Ranking: by evidence_ns, the time the line's evidence
 * covers on the core where it weighs most, as a share of the slowest
 * core's span (diagnosis.rank_span_ns); ties keep rule order. The same run
 * gives the same lines.
 */
#ifndef CSIM_DIAGNOSIS_H
#define CSIM_DIAGNOSIS_H

#include <stddef.h>
#include <stdint.h>

#include "model/model.h"   /* struct csim_diag: model/summary.h */

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
/* truncated: a WAIT no SET released that lasts to its core's last instruction end */

extern const struct csim_pass_def csim_pass_diagnose_def;

int csim_pass_diagnose(struct csim_model *m, struct csim_error *err);

/* The rule's id in summary.json ("transfer_bound", …). */
const char *csim_diag_id(enum csim_diag_rule rule);

/* The figure's key in summary.json ("span_ns", …). */
const char *csim_diag_fig_name(enum csim_diag_fig fig);

/* The value of a line's own figure; 0 when it has none; csim_diag_has: whether it has it. */
int64_t csim_diag_num(const struct csim_diag *d, enum csim_diag_fig fig);
int csim_diag_has(const struct csim_diag *d, enum csim_diag_fig fig);

/* The same for one core's entry. */
int64_t csim_diag_at_num(const struct csim_diag_at *at, enum csim_diag_fig fig);
int csim_diag_at_has(const struct csim_diag_at *at, enum csim_diag_fig fig);

/*
 * How much of the run a line's evidence covers, in ns: the measure lines
 * are ranked by, a share of diagnosis.rank_span_ns (docs/summary.md,
 * "Ranking"). Per core: transfer_bound, vector_shaped_wrong and
 * scalar_bound the named pipe's busy time, sync_bound its WAIT_FLAG time,
 * cross_core_wait the cross-core WAIT time (each at most the core's span),
 * load_imbalance the span beyond the median; the line takes its largest.
 * The whole-run lines cover the whole span. The one place that measure is
 * defined, so that a share of the critical path (SPEC §13) can replace it.
 */
int64_t csim_diag_evidence_ns(const struct csim_model *m, const struct csim_diag *d);

/* The evidence of one core of line d (the same measure). */
int64_t csim_diag_at_evidence_ns(const struct csim_model *m, const struct csim_diag *d,
				 const struct csim_diag_at *at);

#endif
