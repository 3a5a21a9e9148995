/*
 * interval_group: puts the summary pass's intervals in (pid, pipe, ...,
 * start) order in O(n) for input in the producer's usual order and
 * O(n log n) at worst. The comparison sort of every slice was most of the
 * pass's time and its copies most of its memory, so:
 *  - csim_interval_bucket_slices() groups slices by (pid, pipe) as 4-byte
 *    indices (one counting sort through a small map of the pairs), and a
 *    group's intervals are copied only when the pass sweeps it;
 *  - csim_interval_group() sorts interval items by two stable counting
 *    sorts (pid, then pipe) and csim_interval_sort_nearly() per group;
 *  - csim_interval_sort_nearly() is an insertion sort (the producer writes
 *    each core's instructions by end tick, so a group is nearly sorted)
 *    that falls back to qsort after 8n moves.
 */
#ifndef CSIM_INTERVAL_GROUP_H
#define CSIM_INTERVAL_GROUP_H

#include <stddef.h>
#include <stdint.h>

#include "model/event_table.h"

/* A pipe id past every real one: its items sort after a pid's pipes. */
#define CSIM_INTERVAL_LAST_PIPE UINT32_MAX

struct csim_interval {
	uint64_t group;        /* pid << 32 | pipe */
	uint64_t sub;          /* the user's sort key within a group */
	int64_t start, end;
};

/* The instruction slices of one (pid, pipe): idx[lo..hi) of its set. */
struct csim_interval_bucket {
	uint32_t pid, pipe;
	size_t lo, hi;
};

struct csim_interval_buckets {
	uint32_t *idx;                      /* slice indices, grouped */
	struct csim_interval_bucket *b;     /* in (pid, pipe id) order */
	size_t n;
	size_t longest;                     /* the largest bucket's size */
};

static inline uint32_t csim_interval_pid(const struct csim_interval *it)
{
	return (uint32_t)(it->group >> 32);
}

static inline uint32_t csim_interval_pipe(const struct csim_interval *it)
{
	return (uint32_t)it->group;
}

static inline uint64_t csim_interval_bucket_key(const struct csim_interval_bucket *b)
{
	return (uint64_t)b->pid << 32 | b->pipe;
}

/* By group, sub, start, end. */
int csim_interval_cmp(const void *a, const void *b);

/* Sorts a[0..n) by csim_interval_cmp. */
void csim_interval_sort_nearly(struct csim_interval *a, size_t n);

/*
 * Sorts items[0..n) by csim_interval_cmp (pids < npids, pipes < npipes or
 * CSIM_INTERVAL_LAST_PIPE). Returns 0, or -1 out of memory (items then
 * unchanged in content, maybe not in order).
 */
int csim_interval_group(struct csim_interval *items, size_t n, size_t npids, size_t npipes);

/*
 * Fills out (zeroed by the caller) with the slices of t for which
 * keep(slice, ctx) holds, grouped by (pid, pipe), in input order within a group. Returns 0,
 * or -1 out of memory; the caller frees out->idx and out->b either way.
 */
int csim_interval_bucket_slices(const struct csim_table *t,
				int (*keep)(const struct csim_slice *, const void *ctx),
				const void *ctx,
				struct csim_interval_buckets *out);

#endif
