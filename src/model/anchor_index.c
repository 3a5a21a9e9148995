#include "model/anchor_index.h"

#include <stdlib.h>
#include <string.h>

#include "base/array_grow.h"
#include "model/interval_group.h"
#include "model/occupancy.h"
#include "model/sort_nearly.h"

/*
 * Points (zero-length or under a ns, SPEC §4) and cache_time / ccu_time
 * companions are never anchors (SPEC §5.3).
 */
static int is_anchor(const struct csim_slice *s)
{
	return s->kept && !csim_slice_is_point(s) && s->kind != CSIM_SLICE_CACHE_CCU;
}

/* What deciding on an anchor needs: the model, and which pipes a flag names. */
struct anchor_ctx {
	const struct csim_model *m;
	const uint8_t *named;     /* per pipe id */
};

/*
 * The critical path (SPEC §13) also follows flags into and out of the
 * scalar lanes the trace drops: their instructions anchor too, on lanes of
 * their own, so that no kept lane's anchors change; only on a pipe some
 * flag names, since no look-up reaches another (on the dense benchmark
 * shape, indexing every scalar instruction cost the flag pass a third).
 */
static int is_dropped_scalar_anchor(const struct anchor_ctx *cx, const struct csim_slice *s)
{
	return cx->m->pipes[s->pipe].drop == CSIM_SDROP_SCALAR_LANE && cx->named[s->pipe] &&
	       (s->kind == CSIM_SLICE_INSTR || s->kind == CSIM_SLICE_INTRA_WAIT) &&
	       !csim_slice_is_point(s);
}

/* The pipes a flag's record or detail names: the only ones looked up. */
static void mark_named(const struct csim_model *m, uint8_t *named)
{
	memset(named, 0, m->npipes + 1);
	for (size_t i = 0; i < m->nflags; i++) {
		const struct csim_flag *f = &m->flags[i];

		named[f->pipe] = 1;
		if (f->detail != CSIM_NONE) {
			const struct csim_sync_detail *d = &m->table.details[f->detail];

			if (d->producer != CSIM_NONE)
				named[d->producer] = 1;
			if (d->consumer != CSIM_NONE)
				named[d->consumer] = 1;
		}
	}
}

static int entry_cmp(const void *a, const void *b)
{
	const struct csim_anchor_entry *x = a, *y = b;

	if (x->run != y->run)
		return x->run < y->run ? -1 : 1;
	if (x->start != y->start)
		return x->start < y->start ? -1 : 1;
	return x->slice < y->slice ? -1 : x->slice > y->slice;
}

/* A slice with the instant it becomes a producer candidate, while a lane's are sorted. */
struct candidacy {
	double at;
	uint32_t slice;
	uint16_t run;
};

static int candidacy_cmp(const void *a, const void *b)
{
	const struct candidacy *x = a, *y = b;

	if (x->run != y->run)
		return x->run < y->run ? -1 : 1;
	if (x->at != y->at)
		return x->at < y->at ? -1 : 1;
	return x->slice < y->slice ? -1 : x->slice > y->slice;
}

/* Whether slice i released a flag later than slice j did: later end, start, input. */
static int ends_later(const struct csim_slice *sl, uint32_t i, uint32_t j)
{
	if (sl[i].b != sl[j].b)
		return sl[i].b > sl[j].b;
	if (sl[i].a != sl[j].a)
		return sl[i].a > sl[j].a;
	return i > j;
}

/*
 * The candidacy arrays of entries [lo, hi) (one lane): each slice from the
 * instant it has started and completed, sorted by that instant, with the
 * latest-ending slice so far of its run. The producer writes a core's
 * instructions by end tick, so the order is nearly that of the input
 * already. tmp: room for the lane.
 */
static void build_done(struct csim_anchor_index *ix, size_t lo, size_t hi, struct candidacy *tmp)
{
	const struct csim_slice *sl = ix->m->table.slices;
	size_t n = hi - lo;

	for (size_t i = 0; i < n; i++) {
		const struct csim_anchor_entry *e = &ix->entries[lo + i];
		const struct csim_slice *x = &sl[e->slice];
		double done = csim_slice_completion(x);

		tmp[i] = (struct candidacy){ done > x->a ? done : x->a, e->slice, e->run };
	}
	csim_sort_nearly(tmp, n, sizeof(*tmp), candidacy_cmp);
	for (size_t i = 0; i < n; i++) {
		uint32_t best = tmp[i].slice;

		if (i > 0 && tmp[i].run == tmp[i - 1].run &&
		    !ends_later(sl, best, ix->done_best[lo + i - 1]))
			best = ix->done_best[lo + i - 1];
		ix->done_at[lo + i] = tmp[i].at;
		ix->done_best[lo + i] = best;
	}
}

static int keep_anchor(const struct csim_slice *s, const void *ctx)
{
	return is_anchor(s) || is_dropped_scalar_anchor(ctx, s);
}

static void gather_entry(const struct csim_slice *s, uint32_t i, void *row, const void *ctx)
{
	(void)ctx;
	*(struct csim_anchor_entry *)row = (struct csim_anchor_entry){ s->start, i, s->run };
}

/*
 * The anchors grouped by (pid, anchor lane): their rows (gather NULL) or
 * their entries. -1 when out of memory.
 */
static int bucket_anchors(const struct csim_model *m, int entries,
			  struct csim_interval_buckets *bk)
{
	size_t npipes = m->npipes;
	uint32_t *lane_of = malloc((npipes ? npipes : 1) * sizeof(*lane_of));
	uint8_t *named = malloc(npipes + 1);
	struct anchor_ctx cx = { m, named };
	int rc = -1;

	memset(bk, 0, sizeof(*bk));
	if (lane_of != NULL && named != NULL) {
		const struct csim_bucket_spec spec = {
			keep_anchor, lane_of, entries ? gather_entry : NULL,
			entries ? sizeof(struct csim_anchor_entry) : 0, &cx
		};

		for (size_t p = 0; p < npipes; p++)
			lane_of[p] = m->pipes[p].anchor_lane;
		mark_named(m, named);
		rc = csim_interval_bucket_slices(&m->table, &spec, bk);
	}
	free(lane_of);
	free(named);
	return rc;
}

/*
 * Sorts lane k's entries (in ix->entries[lo, hi)) and builds its
 * candidacy arrays; tmp has room for the lane.
 */
static void build_lane(struct csim_anchor_index *ix, const struct csim_interval_bucket *b,
		       size_t lo, size_t k, struct candidacy *tmp)
{
	size_t hi = lo + (b->hi - b->lo);

	ix->lanes[k] = (struct csim_anchor_lane){ (uint64_t)b->pid << 32 | b->pipe, lo, hi };
	csim_sort_nearly(&ix->entries[lo], hi - lo, sizeof(*ix->entries), entry_cmp);
	build_done(ix, lo, hi, tmp);
}

/*
 * Anchors grouped by (pid, anchor lane) come out in lane order, each lane
 * in input order: by run already (runs are read in turn) and nearly by
 * start, so a lane needs only csim_sort_nearly(), not a sort of them all.
 */
int csim_anchor_index_build(struct csim_anchor_index *ix, const struct csim_model *m)
{
	struct csim_interval_buckets bk;
	struct candidacy *tmp = NULL;
	int rc = -1;

	memset(ix, 0, sizeof(*ix));
	ix->m = m;
	if (bucket_anchors(m, 1, &bk) != 0)
		goto out;
	ix->entries = bk.rows;
	bk.rows = NULL;
	ix->n = bk.n > 0 ? bk.b[bk.n - 1].hi : 0;
	ix->nlanes = bk.n;
	ix->done_at = csim_array_alloc(ix->n ? ix->n : 1, sizeof(*ix->done_at));
	ix->done_best = csim_array_alloc(ix->n ? ix->n : 1, sizeof(*ix->done_best));
	ix->lanes = malloc((bk.n ? bk.n : 1) * sizeof(*ix->lanes));
	tmp = malloc((bk.longest ? bk.longest : 1) * sizeof(*tmp));
	if (ix->done_at == NULL || ix->done_best == NULL || ix->lanes == NULL || tmp == NULL)
		goto out;
	/* buckets come in (pid, lane) order: the lanes' keys sorted */
	for (size_t k = 0; k < bk.n; k++)
		build_lane(ix, &bk.b[k], bk.b[k].lo, k, tmp);
	rc = 0;
out:
	free(tmp);
	free(bk.rows);
	free(bk.idx);
	free(bk.b);
	return rc;
}

int csim_anchor_index_build_by_core(struct csim_anchor_index *ix, const struct csim_model *m)
{
	struct csim_interval_buckets bk;

	memset(ix, 0, sizeof(*ix));
	ix->m = m;
	ix->built[0] = ix->built[1] = CSIM_NONE;
	ix->npids = m->table.pids.count;
	if (bucket_anchors(m, 0, &bk) != 0) {
		free(bk.idx);
		free(bk.b);
		return -1;
	}
	ix->rows = bk.idx;
	ix->buckets = bk.b;
	ix->nbuckets = bk.n;
	ix->core_b0 = malloc((ix->npids + 1) * sizeof(*ix->core_b0));
	if (ix->rows == NULL || ix->core_b0 == NULL)
		return -1;
	for (size_t p = 0, k = 0; p <= ix->npids; p++) {
		while (k < bk.n && bk.b[k].pid < p)
			k++;
		ix->core_b0[p] = k;
	}
	return 0;
}

/* Builds the lanes of cores c[0..nc) (ascending) in place of the others. */
static int build_cores(struct csim_anchor_index *ix, const uint32_t *c, size_t nc)
{
	const struct csim_slice *sl = ix->m->table.slices;
	size_t n = 0, nl = 0, longest = 1, k = 0, at = 0;

	for (size_t i = 0; i < nc; i++)
		for (size_t b = ix->core_b0[c[i]]; b < ix->core_b0[c[i] + 1]; b++) {
			size_t len = ix->buckets[b].hi - ix->buckets[b].lo;

			n += len;
			nl++;
			longest = len > longest ? len : longest;
		}
	if (csim_array_grow((void **)&ix->entries, &ix->cap_entries, n + 1, sizeof(*ix->entries)) ||
	    csim_array_grow((void **)&ix->done_at, &ix->cap_done_at, n + 1, sizeof(*ix->done_at)) ||
	    csim_array_grow((void **)&ix->done_best, &ix->cap_done_best, n + 1,
			    sizeof(*ix->done_best)) ||
	    csim_array_grow((void **)&ix->lanes, &ix->cap_lanes, nl + 1, sizeof(*ix->lanes)) ||
	    csim_array_grow(&ix->tmp, &ix->cap_tmp, longest, sizeof(struct candidacy)))
		return -1;
	for (size_t i = 0; i < nc; i++)
		for (size_t b = ix->core_b0[c[i]]; b < ix->core_b0[c[i] + 1]; b++, k++) {
			const struct csim_interval_bucket *bu = &ix->buckets[b];

			for (size_t r = bu->lo; r < bu->hi; r++) {
				const struct csim_slice *s = &sl[ix->rows[r]];

				ix->entries[at + r - bu->lo] =
					(struct csim_anchor_entry){ s->start, ix->rows[r], s->run };
			}
			build_lane(ix, bu, at, k, ix->tmp);
			at += bu->hi - bu->lo;
		}
	ix->n = n;
	ix->nlanes = nl;
	ix->builds += nc;
	return 0;
}

int csim_anchor_index_need(struct csim_anchor_index *ix, uint32_t a, uint32_t b)
{
	uint32_t c[2] = { a < b ? a : b, a < b ? b : a };

	if (ix->rows == NULL || (c[0] == ix->built[0] && c[1] == ix->built[1]) ||
	    (a == b && (a == ix->built[0] || a == ix->built[1])))
		return 0;
	if (ix->builds > 2 * ix->npids) {   /* jumping between cores: build them all */
		const struct csim_model *m = ix->m;

		csim_anchor_index_release(ix);
		return csim_anchor_index_build(ix, m);
	}
	if (a == b)
		c[1] = c[0];
	if (build_cores(ix, c, c[0] == c[1] ? 1 : 2) != 0)
		return -1;
	ix->built[0] = c[0];
	ix->built[1] = c[1];
	return 0;
}

void csim_anchor_index_release(struct csim_anchor_index *ix)
{
	free(ix->entries);
	free(ix->done_at);
	free(ix->done_best);
	free(ix->lanes);
	free(ix->rows);
	free(ix->buckets);
	free(ix->core_b0);
	free(ix->tmp);
	memset(ix, 0, sizeof(*ix));
}

/* The entries [*lo, *hi) of (pid, pipe's anchor lane) in run q.run; 0 when none. */
static int run_range(const struct csim_anchor_index *ix, struct csim_anchor_query q,
		     size_t *lo, size_t *hi)
{
	uint64_t key = (uint64_t)q.pid << 32 | ix->m->pipes[q.pipe].anchor_lane;
	size_t a = 0, b = ix->nlanes, l, h;

	while (a < b) {
		size_t mid = a + (b - a) / 2;

		if (ix->lanes[mid].key < key)
			a = mid + 1;
		else
			b = mid;
	}
	if (a == ix->nlanes || ix->lanes[a].key != key)
		return 0;
	for (l = ix->lanes[a].lo, h = ix->lanes[a].hi; l < h;) {   /* first of the run */
		size_t mid = l + (h - l) / 2;

		if (ix->entries[mid].run < q.run)
			l = mid + 1;
		else
			h = mid;
	}
	*lo = l;
	for (h = ix->lanes[a].hi; l < h;) {   /* past its last */
		size_t mid = l + (h - l) / 2;

		if (ix->entries[mid].run <= q.run)
			l = mid + 1;
		else
			h = mid;
	}
	*hi = l;
	return *lo < *hi;
}

/*
 * In the run's entries: the last starting at or before q.t (latest in input
 * order among equal starts), or with !last the first starting at or after
 * it (the earliest).
 */
static uint32_t find(const struct csim_anchor_index *ix, struct csim_anchor_query q,
		     int last)
{
	size_t lo, hi, first, end;

	if (!run_range(ix, q, &lo, &hi))
		return CSIM_NONE;
	first = lo;
	end = hi;
	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;
		int64_t s = ix->entries[mid].start;

		if (last ? s <= q.t : s < q.t)
			lo = mid + 1;
		else
			hi = mid;
	}
	if (last)
		return lo > first ? ix->entries[lo - 1].slice : CSIM_NONE;
	return lo < end ? ix->entries[lo].slice : CSIM_NONE;
}

/* The latest-ending slice of the run that has started and completed by q.ta. */
static uint32_t find_completed(const struct csim_anchor_index *ix, struct csim_anchor_query q)
{
	size_t lo, hi, first;

	if (!run_range(ix, q, &lo, &hi))
		return CSIM_NONE;
	first = lo;
	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;

		if (ix->done_at[mid] <= q.ta)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo > first ? ix->done_best[lo - 1] : CSIM_NONE;
}

int csim_anchor_index_link(const struct csim_anchor_index *ix,
			   struct csim_anchor_query producer,
			   struct csim_anchor_query consumer, struct csim_arrow *a)
{
	const struct csim_model *m = ix->m;
	const struct csim_slice *p, *c;

	a->producer = find_completed(ix, producer);
	a->running = a->producer == CSIM_NONE;
	if (a->running)
		a->producer = find(ix, producer, 1);
	if (a->producer == CSIM_NONE)
		return CSIM_FSKIP_NO_PRODUCER;
	a->consumer = find(ix, consumer, 0);
	if (a->consumer == CSIM_NONE)
		return CSIM_FSKIP_NO_CONSUMER;
	p = &m->table.slices[a->producer];
	c = &m->table.slices[a->consumer];
	if (!a->running && csim_slice_completion(p) > c->a)
		return CSIM_FSKIP_BACKWARDS;
	a->s_half_ns = p->start + p->end;
	a->f_half_ns = c->start + c->end;
	if (a->s_half_ns > a->f_half_ns) {
		if (a->f_half_ns <= 2 * p->start)
			return CSIM_FSKIP_BACKWARDS;
		a->s_half_ns = a->f_half_ns;
	}
	a->producer_pipe = producer.pipe;
	a->consumer_pipe = consumer.pipe;
	return -1;
}

int csim_anchor_index_arrow(const struct csim_anchor_index *ix,
			    struct csim_anchor_query producer,
			    struct csim_anchor_query consumer, struct csim_arrow *a)
{
	const struct csim_model *m = ix->m;

	if (m->pipes[producer.pipe].drop >= 0)
		return CSIM_FSKIP_PRODUCER_DROPPED;
	if (m->pipes[consumer.pipe].drop >= 0)
		return CSIM_FSKIP_CONSUMER_DROPPED;
	return csim_anchor_index_link(ix, producer, consumer, a);
}

int csim_anchor_arrow_cmp(const void *a, const void *b)
{
	const struct csim_arrow *x = a, *y = b;

	if (x->set_begin != y->set_begin)
		return x->set_begin < y->set_begin ? -1 : 1;
	return x->set_order < y->set_order ? -1 : x->set_order > y->set_order;
}
