/*
 * result_members: the members of summary.json's runs and cores and of
 * batch_summary.json's rows, read into a csim_result. Shared by
 * result_read.c (the file, the top level) and result_members.c (the rest);
 * no other module uses it.
 */
#ifndef CSIM_RESULT_MEMBERS_H
#define CSIM_RESULT_MEMBERS_H

#include <stdint.h>

#include "base/csim_error.h"
#include "model/result.h"
#include "read/json_scan.h"

struct csim_result_reader {
	struct csim_result *r;
	struct csim_json_stack stack;
	struct csim_error *err;
};

typedef int (*csim_result_member_fn)(struct csim_result_reader *rd, void *ctx,
				     const struct csim_json_item *m);

/* CSIM_E_INPUT "cannot read FILE: byte N: WHY", N the offset of at. */
int csim_result_fail(struct csim_result_reader *rd, const char *at, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

/* Every member of the object (open '{') or element of the array ('[') v. */
int csim_result_walk(struct csim_result_reader *rd, struct csim_span v, char open, void *ctx,
		     csim_result_member_fn fn);

int csim_result_key(const struct csim_json_item *m, const char *key);
int csim_result_is_null(struct csim_span v);
/* null: p NULL; a string: its decoded text. */
int csim_result_string(struct csim_result_reader *rd, struct csim_span v, struct csim_span *out);
/* null: CSIM_RESULT_NONE; a number: rounded to the nearest integer. */
int csim_result_int(struct csim_result_reader *rd, struct csim_span v, int64_t *out);
/* null: 0. */
int csim_result_number(struct csim_result_reader *rd, struct csim_span v, double *out);

/* summary.json's "runs", one run object (the top level of a one-run file),
   batch_summary.json's "rows". */
int csim_result_read_runs(struct csim_result_reader *rd, struct csim_span runs);
int csim_result_read_run(struct csim_result_reader *rd, struct csim_span run);
int csim_result_read_rows(struct csim_result_reader *rd, struct csim_span rows);

#endif
