/*
 * basic_info: the OP_BASIC_INFO block of the converted run (SPEC §2.1, §10),
 * loaded into the model's run facts (model/run_info.h).
 *
 * The block describes the run (operator, SoC, block dims, duration, clock);
 * the summary reports those facts as the producer wrote them, so the loader
 * keeps the payload and points at each known member's raw JSON value rather
 * than converting it. The block is descriptive: a malformed one costs the
 * summary its run facts, not the conversion (the caller warns).
 */
#ifndef CSIM_BASIC_INFO_H
#define CSIM_BASIC_INFO_H

#include <stddef.h>
#include <stdint.h>

#include "base/csim_error.h"
#include "model/run_info.h"

/*
 * Takes ownership of payload (also on failure) and finds the known members
 * of its top-level object; a repeated key keeps its last value. A payload
 * that is not one JSON object is CSIM_E_INPUT naming the file, the block's
 * offset and the payload byte (bi is then left without facts); out of
 * memory is CSIM_E_INPUT with the out-of-memory message.
 */
int csim_basic_info_load(struct csim_basic_info *bi, const char *path, uint64_t offset,
			 char *payload, size_t size, struct csim_error *err);

#endif
