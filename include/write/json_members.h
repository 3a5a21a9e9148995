/*
 * json_members: the pieces summary.json is written from (summary_writer,
 * summary_path): keys, members and the fixed decimals computed in
 * integers, so that the same input gives the same bytes.
 */
#ifndef CSIM_JSON_MEMBERS_H
#define CSIM_JSON_MEMBERS_H

#include <stdint.h>

#include "model/model.h"
#include "write/out_file.h"

/* A ratio num/den (0 <= num <= den) as 0.dddd, rounded half up; null when
   den <= 0 or num < 0. */
void csim_json_share(struct csim_out *o, int64_t num, int64_t den);

/* ns as µs with exactly 3 decimals. */
void csim_json_us(struct csim_out *o, int64_t ns);

/* "key": */
void csim_json_key(struct csim_out *o, const char *key);

/* "key":v, — a member followed by more. */
void csim_json_int_member(struct csim_out *o, const char *key, int64_t v);
void csim_json_uint_member(struct csim_out *o, const char *key, uint64_t v);

/* A pipe's name as a string, or null for CSIM_NONE. */
void csim_json_pipe(const struct csim_model *m, struct csim_out *o, uint32_t pipe);

/* A core's name (its pid text, with the run's label) as a string. */
void csim_json_pid(const struct csim_model *m, struct csim_out *o, uint32_t pid);

#endif
