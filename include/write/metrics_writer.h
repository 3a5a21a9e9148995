/*
 * metrics_writer: reshapes the run's API_INSTR block, as read/instr_index.h
 * indexed it, into instr_metrics.json.
 *
 * {"cores":[...],"instructions":{core:[rows]},"column_types":{...}}. Each row
 * holds every instruction field under a lower-cased, underscored key; an
 * array as long as Cores is split per core unless its column's dtype is 5
 * (JSON string) or 100 (percentage with details). Values keep their input
 * bytes: the payload is indexed as spans and never re-printed.
 *
 * Ownership: load() takes the payload buffer; release() frees it and the index.
 */
#ifndef CSIM_METRICS_WRITER_H
#define CSIM_METRICS_WRITER_H

#include <stddef.h>
#include <stdint.h>

#include "base/csim_error.h"
#include "read/instr_index.h"
#include "write/out_file.h"

/*
 * Writes the reshaped file, or with raw the payload byte for byte. Write
 * errors stay in out (see csim_out_commit); the return code reports only an
 * allocation failure (CSIM_E_OUTPUT).
 */
int csim_metrics_write(const struct csim_metrics *mt, int raw,
		       struct csim_out *out, struct csim_error *err);

#endif
