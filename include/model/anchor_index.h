/*
 * anchor_index: the slices a sync arrow may bind to (SPEC §5.3), and where
 * an arrow's two ends go on them.
 *
 * The in-core flag pass and the cross-core pass anchor and draw arrows
 * alike; sharing this module keeps one rule for which slices are anchors,
 * for "last at or before" / "first at or after", and for the midpoints.
 *
 * Entries are the kept anchor slices, and the instructions of scalar lanes
 * the trace drops (on their own lanes, for the critical path's
 * dependencies: SPEC §13), sorted by (pid, anchor lane, run, start on
 * Perfetto's grid, input order); look-ups are binary searches. A sync
 * anchors only on slices of its own run.
 *
 * The producer is the slice whose completion released the SET: of the
 * slices that started and completed (csim_slice_completion) by the SET's
 * instant, the one ending last. On a pipelined pipe that is not the slice
 * starting last, which may still be running. The candidates of an instant
 * t are those whose max(start, completion) is at or before t, a set that
 * only grows with t; so a second array holds each lane's slices in that
 * order with the best candidate so far, and the producer of any t is one
 * binary search away.
 */
#ifndef CSIM_ANCHOR_INDEX_H
#define CSIM_ANCHOR_INDEX_H

#include <stddef.h>
#include <stdint.h>

#include "model/interval_group.h"
#include "model/model.h"

/*
 * An anchor slice: its start on the grid, its row and its run. A lane's
 * entries lie together, sorted by (run, start, input order).
 */
struct csim_anchor_entry {
	int64_t start;
	uint32_t slice;      /* index in table->slices */
	uint16_t run;
};

/* Where the entries of one (pid, anchor lane) lie. */
struct csim_anchor_lane {
	uint64_t key;        /* pid << 32 | the pipe's anchor lane */
	size_t lo, hi;
};

/*
 * The entries in (pid, anchor lane) order, and per entry position the same
 * lane's slices by candidacy: done_at[] the instant each becomes a
 * candidate (max(start, completion), float ns), sorted by (run, instant,
 * input order) within the lane, done_best[] the latest-ending candidate up
 * to that position. 28 bytes per anchor slice.
 */
struct csim_anchor_index {
	const struct csim_model *m;
	struct csim_anchor_entry *entries;
	double *done_at;
	uint32_t *done_best;
	struct csim_anchor_lane *lanes;   /* sorted by key */
	size_t n, nlanes;
	/* Built by core (csim_anchor_index_build_by_core): every anchor's row,
	   grouped by (pid, lane), and the lanes of at most two cores built at
	   a time into the arrays above; rows NULL: every lane is built. */
	uint32_t *rows;
	struct csim_interval_bucket *buckets;   /* in (pid, lane) order */
	size_t nbuckets;
	size_t *core_b0;                  /* per pid: its first bucket (npids + 1) */
	size_t npids;
	uint32_t built[2];                /* the cores built, CSIM_NONE: none */
	size_t cap_entries, cap_done_at, cap_done_best, cap_lanes, cap_tmp;
	void *tmp;                        /* a lane's candidacies while built */
	size_t builds;                    /* cores built so far */
};

/*
 * One side of a sync: its core, the pipe it names, and its time on the
 * grid (t) and in float ns (ta: a SET's instant, for the producer).
 */
struct csim_anchor_query {
	uint32_t pid, pipe;
	uint16_t run;
	int64_t t;
	double ta;
};

/*
 * Builds the index of a model whose pipes are classified and whose rows
 * carry `kept` (CSIM_PART_PIPES, CSIM_PART_KEPT); its flags (CSIM_PART_FLAGS)
 * say which dropped scalar lanes a look-up may reach. Returns 0, or -1 when
 * out of memory (ix is then empty and safe to release).
 */
int csim_anchor_index_build(struct csim_anchor_index *ix, const struct csim_model *m);

/*
 * The same index, built a core at a time: csim_anchor_index_need() builds
 * the lanes of the cores a look-up is about to query, in place of those
 * built before, so the index holds 4 bytes per anchor plus two cores' 28
 * (45 MB of the flags pass's peak on the dense-heavy benchmark shape was
 * the whole index). For look-ups that come core by core, as the flag
 * pass's do; should they jump between cores, every lane is built once
 * they have built more than twice as many cores as there are.
 */
int csim_anchor_index_build_by_core(struct csim_anchor_index *ix, const struct csim_model *m);

/* Makes the lanes of cores a and b available to look-ups: 0, or -1 when
   out of memory. */
int csim_anchor_index_need(struct csim_anchor_index *ix, uint32_t a, uint32_t b);

void csim_anchor_index_release(struct csim_anchor_index *ix);

/*
 * Anchors an arrow (SPEC §5.3). The producer: among the anchor slices of
 * (pid, pipe's anchor lane) that start at or before its ta (float ns) and
 * complete by it, the one with the latest end b (ties: the later start,
 * then the later in input order); when none has completed, the last one
 * starting at or before its t on the grid (latest in input order among
 * equal starts), and a->running is set. The consumer: the first anchor
 * slice starting at or after its t (earliest among equal starts). A
 * completed producer that ends after its consumer starts (a WAIT ending
 * before its SET) is no arrow: causally impossible. Each end goes at its
 * slice's midpoint, except that s moves back to f's time when it would
 * come later (still strictly inside its slice), since viewers drop an f
 * seen before its s. Fills a's producer, consumer, producer_pipe,
 * consumer_pipe, running and the two ends, and returns -1; or returns the
 * enum csim_flag_skip reason and leaves a unspecified.
 */
int csim_anchor_index_arrow(const struct csim_anchor_index *ix,
			    struct csim_anchor_query producer,
			    struct csim_anchor_query consumer, struct csim_arrow *a);

/*
 * The same binding on any pipe the index holds, dropped scalar lanes
 * included: the dependency a flag makes whether or not the trace draws it.
 * A pipe without anchors gives CSIM_FSKIP_NO_PRODUCER or _NO_CONSUMER.
 */
int csim_anchor_index_link(const struct csim_anchor_index *ix,
			   struct csim_anchor_query producer,
			   struct csim_anchor_query consumer, struct csim_arrow *a);

/*
 * qsort order of arrows as they are drawn: by SET begin time, then by the
 * SET's input order.
 */
int csim_anchor_arrow_cmp(const void *a, const void *b);

#endif
