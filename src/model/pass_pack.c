/*
 * Sub-lane packing (SPEC §4). Chrome-trace slices on one thread must be
 * disjoint or nested, but software-pipelined instructions overlap partially.
 * Per (pid, pipe), slices sorted by the start of their occupancy interval
 * (model/occupancy.h; input order breaks ties) each take the lowest-numbered
 * sub-lane whose last interval has ended at or before that start, or open a
 * new one: as many sub-lanes as the intervals' peak concurrency, each flat
 * in both viewers.
 */
#include "model/pass_pack.h"

#include <stdlib.h>
#include <string.h>

#include "base/array_grow.h"
#include "model/interval_group.h"
#include "model/occupancy.h"

const struct csim_pass_def csim_pass_pack_def = {
	csim_pass_pack, CSIM_PART_KEPT, CSIM_PART_LANES
};

/* The interval's end is looked up in the row when the slice is placed. */
struct pack_item {
	uint32_t pid, pipe;
	double lo;
	uint32_t idx;
};

static int pack_item_cmp(const void *a, const void *b)
{
	const struct pack_item *x = a, *y = b;

	if (x->pid != y->pid)
		return x->pid < y->pid ? -1 : 1;
	if (x->pipe != y->pipe)
		return x->pipe < y->pipe ? -1 : 1;
	if (x->lo != y->lo)
		return x->lo < y->lo ? -1 : 1;
	return x->idx < y->idx ? -1 : x->idx > y->idx;
}

/* Busy sub-lanes keyed by the end of their last interval; free ones by number. */
struct busy { double end; uint32_t sub; };

struct heaps {
	struct busy *busy;
	size_t nbusy;
	uint32_t *free_subs;
	size_t nfree;
};

static int busy_less(const struct busy *a, const struct busy *b)
{
	return a->end < b->end || (a->end == b->end && a->sub < b->sub);
}

static void busy_push(struct heaps *h, struct busy v)
{
	size_t i = h->nbusy++;

	while (i > 0) {
		size_t parent = (i - 1) / 2;

		if (!busy_less(&v, &h->busy[parent]))
			break;
		h->busy[i] = h->busy[parent];
		i = parent;
	}
	h->busy[i] = v;
}

static struct busy busy_pop(struct heaps *h)
{
	struct busy top = h->busy[0], last = h->busy[--h->nbusy];
	size_t i = 0;

	for (;;) {
		size_t c = 2 * i + 1;

		if (c >= h->nbusy)
			break;
		if (c + 1 < h->nbusy && busy_less(&h->busy[c + 1], &h->busy[c]))
			c++;
		if (!busy_less(&h->busy[c], &last))
			break;
		h->busy[i] = h->busy[c];
		i = c;
	}
	if (h->nbusy > 0)
		h->busy[i] = last;
	return top;
}

static void free_push(struct heaps *h, uint32_t v)
{
	size_t i = h->nfree++;

	while (i > 0 && h->free_subs[(i - 1) / 2] > v) {
		h->free_subs[i] = h->free_subs[(i - 1) / 2];
		i = (i - 1) / 2;
	}
	h->free_subs[i] = v;
}

static uint32_t free_pop(struct heaps *h)
{
	uint32_t top = h->free_subs[0], last = h->free_subs[--h->nfree];
	size_t i = 0;

	for (;;) {
		size_t c = 2 * i + 1;

		if (c >= h->nfree)
			break;
		if (c + 1 < h->nfree && h->free_subs[c + 1] < h->free_subs[c])
			c++;
		if (h->free_subs[c] >= last)
			break;
		h->free_subs[i] = h->free_subs[c];
		i = c;
	}
	if (h->nfree > 0)
		h->free_subs[i] = last;
	return top;
}

/* Packs one lane's slices (sorted) and returns its sub-lane count. */
static uint32_t pack_lane(struct csim_slice *slices, const struct pack_item *it,
			  size_t n, struct heaps *h)
{
	uint32_t nsub = 0;

	h->nbusy = h->nfree = 0;
	for (size_t i = 0; i < n; i++) {
		struct csim_slice *s = &slices[it[i].idx];
		uint32_t sub;

		/* Starts only grow, so a sub-lane freed here stays free. */
		while (h->nbusy > 0 && h->busy[0].end <= it[i].lo)
			free_push(h, busy_pop(h).sub);
		sub = h->nfree > 0 ? free_pop(h) : nsub++;
		s->sublane = sub;
		busy_push(h, (struct busy){ csim_slice_occupancy(s).hi, sub });
	}
	return nsub;
}

static int is_kept(const struct csim_slice *s, const void *ctx)
{
	(void)ctx;
	return s->kept;
}

/*
 * One lane's items, which the producer writes nearly in order (each core's
 * instructions by end tick): an insertion sort, and qsort once it has made
 * 8n moves, so a lane costs O(n) as a rule and O(n log n) at worst.
 */
static void sort_lane(struct pack_item *a, size_t n)
{
	size_t moves = 0, budget = 8 * n + 64;

	for (size_t i = 1; i < n; i++) {
		struct pack_item x = a[i];
		size_t j = i;

		while (j > 0 && pack_item_cmp(&a[j - 1], &x) > 0) {
			a[j] = a[j - 1];
			j--;
			if (++moves > budget) {
				a[j] = x;
				qsort(a, n, sizeof(*a), pack_item_cmp);
				return;
			}
		}
		a[j] = x;
	}
}

int csim_pass_pack(struct csim_model *m, struct csim_error *err)
{
	struct csim_table *t = &m->table;
	struct csim_interval_buckets bk = { NULL, NULL, 0, 0 };
	struct pack_item *items = NULL;
	struct heaps h = { NULL, 0, NULL, 0 };
	int rc = CSIM_OK;

	/* Lanes in (pid, pipe) order, each lane's slices in input order. */
	if (csim_interval_bucket_slices(t, is_kept, NULL, &bk) != 0) {
		rc = csim_error_nomem(err, CSIM_E_INPUT);
		goto out;
	}
	items = csim_array_alloc(bk.longest ? bk.longest : 1, sizeof(*items));
	h.busy = csim_array_alloc(bk.longest ? bk.longest : 1, sizeof(*h.busy));
	h.free_subs = csim_array_alloc(bk.longest ? bk.longest : 1, sizeof(*h.free_subs));
	free(m->lanes);
	m->lanes = malloc((bk.n ? bk.n : 1) * sizeof(*m->lanes));
	if (items == NULL || h.busy == NULL || h.free_subs == NULL || m->lanes == NULL) {
		rc = csim_error_nomem(err, CSIM_E_INPUT);
		goto out;
	}
	m->nlanes = 0;
	m->extra_sublanes = 0;
	for (size_t k = 0; k < bk.n; k++) {
		const struct csim_interval_bucket *b = &bk.b[k];
		struct csim_lane *lane = &m->lanes[m->nlanes++];
		size_t n = b->hi - b->lo;

		for (size_t i = 0; i < n; i++) {
			uint32_t idx = bk.idx[b->lo + i];

			items[i] = (struct pack_item){ b->pid, b->pipe,
						       csim_slice_occupancy(&t->slices[idx]).lo, idx };
		}
		sort_lane(items, n);
		lane->pid = b->pid;
		lane->pipe = b->pipe;
		lane->nsub = pack_lane(t->slices, items, n, &h);
		m->extra_sublanes += lane->nsub - 1;
	}
out:
	free(bk.idx);
	free(bk.b);
	free(items);
	free(h.busy);
	free(h.free_subs);
	return rc;
}
