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

static int entry_cmp(const void *a, const void *b)
{
	const struct csim_anchor_entry *x = a, *y = b;

	if (x->lane != y->lane)
		return x->lane < y->lane ? -1 : 1;
	if (x->run != y->run)
		return x->run < y->run ? -1 : 1;
	if (x->start != y->start)
		return x->start < y->start ? -1 : 1;
	return x->slice < y->slice ? -1 : x->slice > y->slice;
}

static int done_cmp(const void *a, const void *b)
{
	const struct csim_anchor_done *x = a, *y = b;

	if (x->lane != y->lane)
		return x->lane < y->lane ? -1 : 1;
	if (x->run != y->run)
		return x->run < y->run ? -1 : 1;
	if (x->at != y->at)
		return x->at < y->at ? -1 : 1;
	return x->best < y->best ? -1 : x->best > y->best;
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
 * The candidacy array of entries [lo, hi) (one lane): each slice from the
 * instant it has started and completed, sorted by that instant, then the
 * latest-ending slice so far of its run in place of the slice itself. The
 * producer writes a core's instructions by end tick, so the order is
 * nearly that of the input already.
 */
static void build_done(struct csim_anchor_index *ix, size_t lo, size_t hi)
{
	const struct csim_slice *sl = ix->m->table.slices;
	struct csim_anchor_done *d = ix->done;

	for (size_t i = lo; i < hi; i++) {
		const struct csim_anchor_entry *e = &ix->entries[i];
		const struct csim_slice *x = &sl[e->slice];
		double done = csim_slice_completion(x);

		d[i] = (struct csim_anchor_done){ e->lane, done > x->a ? done : x->a,
						  e->slice, e->run };
	}
	csim_sort_nearly(&d[lo], hi - lo, sizeof(*d), done_cmp);
	for (size_t i = lo + 1; i < hi; i++)
		if (d[i].run == d[i - 1].run && !ends_later(sl, d[i].best, d[i - 1].best))
			d[i].best = d[i - 1].best;
}

static int keep_anchor(const struct csim_slice *s, const void *ctx)
{
	(void)ctx;
	return is_anchor(s);
}

static void gather_entry(const struct csim_slice *s, uint32_t i, void *row, const void *ctx)
{
	const struct csim_model *m = ctx;

	*(struct csim_anchor_entry *)row = (struct csim_anchor_entry){
		(uint64_t)s->pid << 32 | m->pipes[s->pipe].anchor_lane, s->start, i, s->run };
}

/*
 * Anchors grouped by (pid, anchor lane) come out in lane order, each lane
 * in input order: by run already (runs are read in turn) and nearly by
 * start, so a lane needs only csim_sort_nearly(), not a sort of them all.
 */
int csim_anchor_index_build(struct csim_anchor_index *ix, const struct csim_model *m)
{
	const struct csim_table *t = &m->table;
	size_t npipes = m->npipes;
	uint32_t *lane_of = malloc((npipes ? npipes : 1) * sizeof(*lane_of));
	struct csim_interval_buckets bk = { NULL, NULL, NULL, 0, 0 };
	int rc = -1;

	memset(ix, 0, sizeof(*ix));
	ix->m = m;
	if (lane_of == NULL)
		goto out;
	for (size_t p = 0; p < npipes; p++)
		lane_of[p] = m->pipes[p].anchor_lane;
	{
		const struct csim_bucket_spec spec = { keep_anchor, lane_of, gather_entry,
						       sizeof(struct csim_anchor_entry), m };

		if (csim_interval_bucket_slices(t, &spec, &bk) != 0)
			goto out;
	}
	ix->entries = bk.rows;
	bk.rows = NULL;
	ix->n = bk.n > 0 ? bk.b[bk.n - 1].hi : 0;
	ix->done = csim_array_alloc(ix->n ? ix->n : 1, sizeof(*ix->done));
	if (ix->done == NULL)
		goto out;
	for (size_t k = 0; k < bk.n; k++) {
		csim_sort_nearly(&ix->entries[bk.b[k].lo], bk.b[k].hi - bk.b[k].lo,
				 sizeof(*ix->entries), entry_cmp);
		build_done(ix, bk.b[k].lo, bk.b[k].hi);
	}
	rc = 0;
out:
	free(lane_of);
	free(bk.rows);
	free(bk.b);
	return rc;
}

void csim_anchor_index_release(struct csim_anchor_index *ix)
{
	free(ix->entries);
	free(ix->done);
	memset(ix, 0, sizeof(*ix));
}

/* Whether entry e is ordered before (lane, run, t) (or at it, when strict). */
static int entry_before(const struct csim_anchor_entry *e, uint64_t lane,
			uint16_t run, int64_t t, int strict)
{
	if (e->lane != lane)
		return e->lane < lane;
	if (e->run != run)
		return e->run < run;
	return strict ? e->start <= t : e->start < t;
}

/* First entry not ordered before (lane, run, t). */
static size_t bound(const struct csim_anchor_index *ix, uint64_t lane, uint16_t run,
		    int64_t t, int strict)
{
	size_t lo = 0, hi = ix->n;

	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;
		int before = entry_before(&ix->entries[mid], lane, run, t, strict);

		if (before)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo;
}

static uint32_t find(const struct csim_anchor_index *ix, struct csim_anchor_query q,
		     int last)
{
	uint64_t lane = (uint64_t)q.pid << 32 | ix->m->pipes[q.pipe].anchor_lane;
	size_t at = bound(ix, lane, q.run, q.t, last);
	const struct csim_anchor_entry *e;

	if (last ? at == 0 : at == ix->n)
		return CSIM_NONE;
	e = &ix->entries[last ? at - 1 : at];
	return e->lane == lane && e->run == q.run ? e->slice : CSIM_NONE;
}

/* The latest-ending slice of (lane, run) that has started and completed by ta. */
static uint32_t find_completed(const struct csim_anchor_index *ix, struct csim_anchor_query q)
{
	uint64_t lane = (uint64_t)q.pid << 32 | ix->m->pipes[q.pipe].anchor_lane;
	size_t lo = 0, hi = ix->n;
	const struct csim_anchor_done *d;

	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;
		const struct csim_anchor_done *e = &ix->done[mid];
		int before = e->lane != lane ? e->lane < lane
			     : e->run != q.run ? e->run < q.run : e->at <= q.ta;

		if (before)
			lo = mid + 1;
		else
			hi = mid;
	}
	if (lo == 0)
		return CSIM_NONE;
	d = &ix->done[lo - 1];
	return d->lane == lane && d->run == q.run ? d->best : CSIM_NONE;
}

int csim_anchor_index_arrow(const struct csim_anchor_index *ix,
			    struct csim_anchor_query producer,
			    struct csim_anchor_query consumer, struct csim_arrow *a)
{
	const struct csim_model *m = ix->m;
	const struct csim_slice *p, *c;

	if (m->pipes[producer.pipe].drop >= 0)
		return CSIM_FSKIP_PRODUCER_DROPPED;
	if (m->pipes[consumer.pipe].drop >= 0)
		return CSIM_FSKIP_CONSUMER_DROPPED;
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

int csim_anchor_arrow_cmp(const void *a, const void *b)
{
	const struct csim_arrow *x = a, *y = b;

	if (x->set_begin != y->set_begin)
		return x->set_begin < y->set_begin ? -1 : 1;
	return x->set_order < y->set_order ? -1 : x->set_order > y->set_order;
}
