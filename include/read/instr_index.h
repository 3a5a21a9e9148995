/*
 * instr_index: validates the run's API_INSTR payload once and indexes it as
 * spans (SPEC §7): the Cores, each row's fields, and each per-core array's
 * elements, so the metrics writer can reshape it and the digest
 * (instr_digest.h) can sum it without a JSON tree. An array as long as Cores
 * is split per core unless its column's dtype is 5 (JSON string) or 100
 * (percentage with details).
 *
 * Ownership: load() takes the payload buffer; release() frees it and the index.
 */
#ifndef CSIM_INSTR_INDEX_H
#define CSIM_INSTR_INDEX_H

#include <stddef.h>
#include <stdint.h>

#include "base/csim_error.h"
#include "base/span.h"

struct csim_metrics_field {
	const char *key;        /* key text between its quotes */
	size_t key_n;
	const char *val;        /* raw value text */
	size_t val_n;
	size_t elems;           /* first element span in elem[], when split */
	int split;              /* an array with one element per core */
};

struct csim_metrics {
	char *payload;
	size_t size;
	const char *path;       /* for messages */
	uint64_t block_offset;
	struct csim_span *cores;   /* raw string values of Cores */
	size_t ncores, cores_cap;
	const char *dtype;      /* raw "Instructions Dtype" value, or NULL */
	size_t dtype_n;
	struct csim_span *whole;   /* keys of the Dtype's numeric entries, in order */
	unsigned char *whole_code; /* per entry: 1 when its code is 5 or 100 */
	size_t nwhole, whole_cap, whole_code_cap;
	struct csim_metrics_field *fields;
	size_t nfields, fields_cap;
	size_t *row_first;      /* first field of each instruction, plus an end mark */
	size_t nrows, rows_cap;
	struct csim_span *elem;    /* element spans of split arrays */
	size_t nelem, elem_cap;
};

/*
 * Validates and indexes an API_INSTR payload. Takes ownership of payload in
 * every case, also on failure: call csim_metrics_release() afterwards
 * either way.
 */
int csim_metrics_load(struct csim_metrics *mt, const char *path,
		      uint64_t block_offset, char *payload, size_t size,
		      struct csim_error *err);
void csim_metrics_release(struct csim_metrics *mt);

#endif
