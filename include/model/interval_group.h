/*
 * interval_group: puts the summary pass's intervals in (pid, pipe, ...,
 * start) order in O(n) for input in the producer's usual order and
 * O(n log n) at worst. The comparison sort of every slice was most of the
 * pass's time and its copies most of its memory, so:
 *  - csim_interval_bucket_slices() groups slices by (pid, pipe) (one
 *    counting sort through a small map of the pairs) as 4-byte indices,
 *    or as compact rows of the fields a pass needs, gathered in one scan
 *    in row order (the anchor index: its entries are such rows);
 *  - csim_interval_group() sorts interval items by two stable counting
 *    sorts (pid, then pipe) and csim_interval_sort_nearly() per group;
 *  - csim_interval_sort_nearly() sorts one group by csim_sort_nearly()
 *    (model/sort_nearly.h): the producer writes each core's instructions
 *    by end tick, so a group is nearly sorted.
 * A pass that sweeps a group by indices reads one scattered 48-byte row
 * per slice: it prefetches the rows a few slices ahead
 * (CSIM_PREFETCH_AHEAD), as cache misses were most of its time.
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

/* The slices of one (pid, pipe): entries [lo, hi) of its set's idx or rows. */
struct csim_interval_bucket {
	uint32_t pid, pipe;   /* pipe: the lane, when the spec maps pipes */
	size_t lo, hi;
};

struct csim_interval_buckets {
	uint32_t *idx;                      /* slice indices, grouped (no gather) */
	void *rows;                         /* gathered rows, grouped (gather) */
	struct csim_interval_bucket *b;     /* in (pid, pipe id) order */
	size_t n;
	size_t longest;                     /* the largest bucket's size */
};

/* Which slices to group, on which lane, and what to keep of each. */
struct csim_bucket_spec {
	int (*keep)(const struct csim_slice *sl, const void *ctx);
	/* pipe id -> the lane its slices group on, or NULL: the pipe itself */
	const uint32_t *lane_of;
	/* fills one row of row_size bytes from slice i, or NULL: out->idx holds
	   the indices (4 bytes a slice, when rows would cost too much memory) */
	void (*gather)(const struct csim_slice *sl, uint32_t i, void *row, const void *ctx);
	size_t row_size;
	const void *ctx;
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

/*
 * How far ahead a sweep by indices prefetches slice rows: enough misses in
 * flight to hide a memory access behind a few slices' work.
 */
#define CSIM_PREFETCH_AHEAD 16

/* A hint that the memory at p is wanted soon (a no-op where unsupported). */
static inline void csim_prefetch(const void *p)
{
#if defined(__GNUC__)
	__builtin_prefetch(p);
#else
	(void)p;
#endif
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
 * spec->keep holds, grouped by (pid, lane), in input order within a group:
 * their indices in out->idx, or with spec->gather their rows in out->rows.
 * Returns 0, or -1 out of memory; the caller frees out->idx, out->rows and
 * out->b either way.
 */
int csim_interval_bucket_slices(const struct csim_table *t,
				const struct csim_bucket_spec *spec,
				struct csim_interval_buckets *out);

#endif
