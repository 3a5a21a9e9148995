/*
 * basic_info: the OP_BASIC_INFO block of the converted run (SPEC §2.1, §10).
 *
 * The block describes the run (operator, SoC, block dims, duration, clock);
 * the summary reports those facts as the producer wrote them, so the module
 * keeps the payload and points at each known member's raw JSON value rather
 * than converting it. The block is descriptive: a malformed one costs the
 * summary its run facts, not the conversion (the caller warns).
 *
 * Ownership: the struct owns its payload until csim_basic_info_release().
 */
#ifndef CSIM_BASIC_INFO_H
#define CSIM_BASIC_INFO_H

#include <stddef.h>
#include <stdint.h>

#include "base/csim_error.h"
#include "base/span.h"

/* The members the summary reports, in its order. */
enum csim_basic_field {
	CSIM_BASIC_NAME,
	CSIM_BASIC_SOC,
	CSIM_BASIC_OP_TYPE,
	CSIM_BASIC_BLOCK_DIM,
	CSIM_BASIC_MIX_BLOCK_DIM,
	CSIM_BASIC_DURATION,
	CSIM_BASIC_CUR_FREQ,
	CSIM_BASIC_RATED_FREQ,
	CSIM_BASIC_BLOCK_DETAIL,
	CSIM_BASIC_MIX_BLOCK_DETAIL,
	CSIM_BASIC_COUNT
};

/* The member names, as keys of the payload's top-level object. */
extern const char *const csim_basic_field_names[CSIM_BASIC_COUNT];

struct csim_basic_info {
	char *payload;
	size_t size;
	uint64_t offset;                         /* the block's header offset */
	struct csim_span field[CSIM_BASIC_COUNT];   /* raw values; p NULL: absent */
};

/* Leaves bi empty (no facts) and safe to release. */
void csim_basic_info_init(struct csim_basic_info *bi);

/*
 * Takes ownership of payload (also on failure) and finds the known members
 * of its top-level object; a repeated key keeps its last value. A payload
 * that is not one JSON object is CSIM_E_INPUT naming the file, the block's
 * offset and the payload byte (bi is then left without facts); out of
 * memory is CSIM_E_INPUT with the out-of-memory message.
 */
int csim_basic_info_load(struct csim_basic_info *bi, const char *path, uint64_t offset,
			 char *payload, size_t size, struct csim_error *err);

/*
 * A member's value without the quotes of a JSON string (escapes are left
 * as written: the producer writes none in these names); a number or object
 * as written; p NULL when absent.
 */
struct csim_span csim_basic_info_text(const struct csim_basic_info *bi,
				      enum csim_basic_field f);

/* A member's value as a number, when it is a JSON number (or a string of
   one, as some producers write them); 0 when absent or not a number. */
int csim_basic_info_number(const struct csim_basic_info *bi, enum csim_basic_field f,
			   double *v);

void csim_basic_info_release(struct csim_basic_info *bi);

#endif
