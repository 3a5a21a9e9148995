#include "model/anchor_index.h"

#include <stdlib.h>
#include <string.h>

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
	for (size_t k = 0; k < bk.n; k++)
		csim_sort_nearly(&ix->entries[bk.b[k].lo], bk.b[k].hi - bk.b[k].lo,
				 sizeof(*ix->entries), entry_cmp);
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
	a->producer = find(ix, producer, 1);
	if (a->producer == CSIM_NONE)
		return CSIM_FSKIP_NO_PRODUCER;
	a->consumer = find(ix, consumer, 0);
	if (a->consumer == CSIM_NONE)
		return CSIM_FSKIP_NO_CONSUMER;
	p = &m->table.slices[a->producer];
	c = &m->table.slices[a->consumer];
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
