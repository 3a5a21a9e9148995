/*
 * diagnosis: the likely shapes of a run (SPEC §10), read off the summary by
 * fixed rules. Each line names the rule, the core it is about (or the whole
 * run), the numbers it used, and a wording with the next step; the
 * thresholds and why they sit where they do are in docs/summary.md.
 *
 * The pass requires the summary and the pipe classes; it does no I/O. Lines
 * come in rule order (enum csim_diag_rule), then core order: the same run
 * gives the same lines. Whole-run rules come first: a near-empty,
 * degenerate or truncated trace makes every per-core line below it moot.
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
#define CSIM_DIAG_IMBALANCE_PCT 125       /* max span at least this share of the median */
/* truncated: a WAIT no SET released that lasts to its core's last instruction end */

extern const struct csim_pass_def csim_pass_diagnose_def;

int csim_pass_diagnose(struct csim_model *m, struct csim_error *err);

void csim_diagnosis_release(struct csim_diagnosis *d);

/* The rule's id in summary.json ("transfer_bound", …). */
const char *csim_diag_id(enum csim_diag_rule rule);

/* The value of a line's number `key`; 0 when it has none. */
int64_t csim_diag_num(const struct csim_diag *d, const char *key);

/* Room for any line's text, NUL included. */
#define CSIM_DIAG_TEXT_MAX 512

/*
 * The line as the user reads it: likelihood, evidence, next step
 * ("likely transfer-bound: MTE2 busy 92 % of the span, CUBE 18 %; try
 * double buffering"); the core is the line's own. Writes at most cap bytes, NUL included; returns the
 * length the whole text needs, as snprintf does.
 */
size_t csim_diag_text(const struct csim_model *m, const struct csim_diag *d,
		      char *buf, size_t cap);

#endif
