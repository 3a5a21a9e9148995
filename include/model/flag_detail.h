/*
 * flag_detail: reads the sync key out of a SET/WAIT flag's args.detail.
 *
 * 910B-class chips write "PIPE:MTE2,TRIGGERPIPE:VEC,FLAGID:0," and 310P
 * writes "pipe_type:…,tigger_pipe:…,event_id:…" (the typo is the
 * producer's). Field order and extra fields (#V:0 on Ascend950) do not
 * matter; flag ids are numbers, decimal or 0x-hex. Cross-core
 * SET/WAIT_INTRA_BLOCK records write "PIPE:<pipe>,...,sync_id:<n>": PIPE
 * is read as the producer, sync_id like a flag id.
 */
#ifndef CSIM_FLAG_DETAIL_H
#define CSIM_FLAG_DETAIL_H

#include <stddef.h>
#include <stdint.h>

struct csim_flag_key {
	const char *producer;   /* canonical pipe name, points into the detail
				   or a static alias; NULL when absent */
	size_t producer_n;
	const char *consumer;
	size_t consumer_n;
	uint64_t flag_id;
	int has_flag_id;
	uint64_t sync_id;
	int has_sync_id;
};

/* Returns 1 when the detail names at least one of the four fields. */
int csim_flag_detail_parse(const char *s, size_t n, struct csim_flag_key *key);

#endif
