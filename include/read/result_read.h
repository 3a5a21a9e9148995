/*
 * result_read: one side of --compare (SPEC §14) read into a csim_result:
 * an output folder (its summary.json), a summary.json, a batch output
 * folder (its batch_summary.json) or a batch_summary.json.
 */
#ifndef CSIM_RESULT_READ_H
#define CSIM_RESULT_READ_H

#include "base/csim_error.h"
#include "model/result.h"

/* Larger JSON than this is no summary of ours. */
#define CSIM_RESULT_MAX_BYTES ((size_t)1 << 30)

/*
 * Fills r (csim_result_init'ed) from path. CSIM_E_INPUT with the file,
 * the byte offset and what was wrong when it cannot be read or is not a
 * summary of ours; CSIM_E_INPUT "out of memory" when an allocation fails.
 */
int csim_result_read(struct csim_result *r, const char *path, struct csim_error *err);

/*
 * The same from a document in memory: json (malloc'd, size bytes and a NUL
 * after them) is the result's from the call on, whatever it returns; name
 * is what messages call it.
 */
int csim_result_read_text(struct csim_result *r, const char *name, char *json, size_t size,
			  struct csim_error *err);

#endif
