/*
 * What the parts of summary_recheck share: failure reporting and number
 * reading (cJSON only; nothing of the converter).
 */
#ifndef SUMMARY_RECHECK_H
#define SUMMARY_RECHECK_H

#include <cjson/cJSON.h>

__attribute__((format(printf, 1, 2)))
void sumcheck_fail(const char *fmt, ...);

/* The number at key of o, NAN when absent or not a number. */
double sumcheck_num(const cJSON *o, const char *key);

/*
 * The API_INSTR part (summary_recheck_instr.c): per (core, pipe) cycles,
 * sync_cycles, executed and vector_utilization from instr_metrics.json
 * (metrics NULL: the run has none, all must be null), and top_instructions.
 */
void sumcheck_instr_pipe(const cJSON *metrics, const char *core, const cJSON *pipe);
/* The raw API_INSTR payload (--raw-metrics) as SPEC §7 reshapes it; takes m. */
cJSON *sumcheck_instr_reshape(cJSON *m);
void sumcheck_instr_top(const cJSON *metrics, const cJSON *summary);

/* The diagnosis part (summary_recheck_diag.c): its lines against the summary. */
void sumcheck_diagnosis(const cJSON *summary);

#endif
