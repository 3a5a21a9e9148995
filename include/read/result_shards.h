/*
 * result_shards: a batch output folder that --shard K/N runs wrote into,
 * read whole for --compare (SPEC §11, §14; docs/batch.md): its
 * batch_summary.shard-K-of-N.json files, every K of one N, merged into one
 * batch result, rows in the whole list's order (their index).
 */
#ifndef CSIM_RESULT_SHARDS_H
#define CSIM_RESULT_SHARDS_H

#include <stddef.h>

#include "base/csim_error.h"
#include "model/result.h"

struct csim_result_shard {
	unsigned k, n;
	char *file;       /* dir/batch_summary.shard-K-of-N.json */
};

struct csim_result_shards {
	struct csim_result_shard *s;   /* by K */
	size_t n;
	size_t cap;                    /* of the merged rows */
};

/*
 * The shard summaries of the folder dir into sh (n 0: none). A shard
 * missing or shards of two splits is CSIM_E_INPUT naming the folder and
 * what is wrong.
 */
int csim_result_shards_list(const char *dir, struct csim_result_shards *sh,
			    struct csim_error *err);

/*
 * Shard i's result, read, into r: its rows appended, its buffers taken
 * (one keeps none). A result whose own "shard" is not the K of N its name
 * says is CSIM_E_INPUT.
 */
int csim_result_shards_merge(struct csim_result *r, struct csim_result *one, size_t i,
			     struct csim_result_shards *sh, struct csim_error *err);

/* r's rows in the whole list's order (their index). */
void csim_result_shards_sort(struct csim_result *r);

void csim_result_shards_release(struct csim_result_shards *sh);

#endif
