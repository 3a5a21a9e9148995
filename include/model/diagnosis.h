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

#include "model/diag_rules.h"   /* the thresholds */
#include "model/model.h"        /* struct csim_diag: model/summary.h */

extern const struct csim_pass_def csim_pass_diagnose_def;

int csim_pass_diagnose(struct csim_model *m, struct csim_error *err);

/* The rule's id in summary.json ("transfer_bound", …). */
const char *csim_diag_id(enum csim_diag_rule rule);

/* The figure's key in summary.json ("span_ns", …). */
const char *csim_diag_fig_name(enum csim_diag_fig fig);

/*
 * How much of the run a line's evidence covers, in ns: the measure lines
 * are ranked by, a share of diagnosis.rank_span_ns (docs/summary.md,
 * "Ranking"). Per core: an entry with path_ns (its core has a critical
 * path, diag_path.h) the time its cause holds on the path; else
 * transfer_bound, vector_shaped_wrong and scalar_bound the named pipe's
 * busy time, sync_bound its WAIT_FLAG time, cross_core_wait the cross-core
 * WAIT time (each at most the core's span); load_imbalance the span beyond
 * the median; the line takes its largest. The whole-run lines cover the
 * whole span. The one place that measure is defined.
 */
int64_t csim_diag_evidence_ns(const struct csim_model *m, const struct csim_diag *d);

/* The evidence of one core of line d (the same measure). */
int64_t csim_diag_at_evidence_ns(const struct csim_model *m, const struct csim_diag *d,
				 const struct csim_diag_at *at);

#endif
