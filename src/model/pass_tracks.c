#include "model/pass_tracks.h"

#include <math.h>
#include <stdlib.h>

#include "base/array_grow.h"
#include "model/interval_group.h"
#include "model/lane_packer.h"
#include "model/occupancy.h"
#include "model/sort_nearly.h"

const struct csim_pass_def csim_pass_tracks_def = {
	csim_pass_tracks, CSIM_PART_LANES, CSIM_PART_TRACKS
};

struct track_item {
	double lo, hi;
	int64_t begin, end;   /* exact ns */
	uint32_t idx;
	int instant;          /* its exact end is its begin */
	int point;            /* SPEC §4's point, or an instant */
};

static int item_cmp(const void *a, const void *b)
{
	const struct track_item *x = a, *y = b;

	if (x->lo != y->lo)
		return x->lo < y->lo ? -1 : 1;
	return x->idx < y->idx ? -1 : x->idx > y->idx;
}

/*
 * A slice's packing interval in float ns. Not a point: SPEC §4's true
 * interval [a, b - tol), so a lane gets as many tracks as its depth, and
 * the next slice of a track starts after the end or within float noise of
 * it; at least to s + 0.5, so a cut end leaves a slice 1 ns or more. A
 * point (§4: shorter than 1 ns; an instant when its exact end is its
 * begin): to its exact end, and past its begin's ns for an instant, which
 * Perfetto would stack on a slice that begins at the same ns.
 */
static struct track_item item_of(const struct csim_table *t, uint32_t row)
{
	const struct csim_slice *s = &t->slices[row];
	struct track_item it;

	csim_table_exact(t, row, &it.begin, &it.end);
	if (it.end < it.begin)
		it.end = it.begin;
	it.idx = row;
	it.lo = s->a;
	it.instant = it.end == it.begin;
	it.point = it.instant || csim_slice_is_point(s);
	if (it.instant)
		it.hi = (double)it.begin + 0.5;
	else if (it.point)
		it.hi = (double)it.end - 0.5;
	else
		it.hi = fmax(csim_slice_completion(s), (double)it.begin + 0.5);
	return it;
}

struct lane_work {
	struct track_item *items;
	uint32_t *last;              /* per track: its last row */
	struct csim_occupancy *iv;   /* the non-instants' intervals */
	double *heap;
	struct csim_packer pk;
};

/*
 * One lane: each item's track, and the end of the track's last slice cut
 * at the item's begin where the two overlap (within float noise, by the
 * packing's intervals).
 */
static void pack_lane(struct csim_exact_tracks *x, struct lane_work *w, size_t n,
		      size_t lane)
{
	size_t niv = 0;

	csim_packer_reset(&w->pk);
	for (size_t i = 0; i < n; i++) {
		const struct track_item *it = &w->items[i];
		const uint32_t before = w->pk.ntracks;
		const uint32_t k = csim_packer_take(&w->pk, it->lo, it->hi);

		if (k == before)
			w->last[k] = UINT32_MAX;   /* a new track */
		x->row_track[it->idx] = x->first[lane] + k;
		x->clip[it->idx] = 0;
		if (w->last[k] != UINT32_MAX) {
			const struct track_item *prev = &w->items[w->last[k]];

			if (prev->end > it->begin)
				x->clip[prev->idx] = (uint32_t)(prev->end - it->begin);
		}
		w->last[k] = (uint32_t)i;
		if (!it->point)
			w->iv[niv++] = (struct csim_occupancy){ it->lo, it->hi };
	}
	x->ntracks[lane] = w->pk.ntracks;
	x->depth[lane] = csim_occupancy_depth(w->iv, niv, niv > 0, w->heap);
}

static int is_kept(const struct csim_slice *s, const void *ctx)
{
	(void)ctx;
	return s->kept;
}

static int alloc_work(struct csim_exact_tracks *x, struct lane_work *w, size_t nrows,
		      size_t nlanes, size_t longest)
{
	const size_t cap = longest ? longest : 1;

	x->row_track = csim_array_alloc(nrows ? nrows : 1, sizeof(*x->row_track));
	x->clip = csim_array_alloc(nrows ? nrows : 1, sizeof(*x->clip));
	x->first = calloc(nlanes + 1, sizeof(*x->first));
	x->ntracks = calloc(nlanes + 1, sizeof(*x->ntracks));
	x->depth = calloc(nlanes + 1, sizeof(*x->depth));
	w->items = csim_array_alloc(cap, sizeof(*w->items));
	w->last = csim_array_alloc(cap, sizeof(*w->last));
	w->iv = csim_array_alloc(cap, sizeof(*w->iv));
	w->heap = csim_array_alloc(cap, sizeof(*w->heap));
	if (csim_packer_init(&w->pk, cap) != 0 || x->row_track == NULL || x->clip == NULL ||
	    x->first == NULL || x->ntracks == NULL || x->depth == NULL || w->items == NULL ||
	    w->last == NULL || w->iv == NULL || w->heap == NULL)
		return -1;
	return 0;
}

int csim_pass_tracks(struct csim_model *m, struct csim_error *err)
{
	const struct csim_table *t = &m->table;
	struct csim_exact_tracks *x = &m->tracks;
	const struct csim_bucket_spec spec = { is_kept, NULL, NULL, 0, NULL };
	struct csim_interval_buckets bk = { NULL, NULL, NULL, 0, 0 };
	struct lane_work w = { NULL, NULL, NULL, NULL, { NULL, 0, NULL, 0, 0 } };
	int rc = CSIM_OK;

	csim_exact_tracks_release(x);
	if (!x->wanted)
		return CSIM_OK;
	/* The same buckets as the pack pass's, so bucket k is lanes[k]. */
	if (csim_interval_bucket_slices(t, &spec, &bk) != 0 ||
	    alloc_work(x, &w, t->nslices, bk.n, bk.longest) != 0) {
		rc = csim_error_nomem(err, CSIM_E_INPUT);
		goto out;
	}
	for (size_t k = 0; k < bk.n; k++) {
		const struct csim_interval_bucket *b = &bk.b[k];
		const uint32_t *idx = &bk.idx[b->lo];
		size_t n = b->hi - b->lo;

		for (size_t i = 0; i < n; i++)
			w.items[i] = item_of(t, idx[i]);
		csim_sort_nearly(w.items, n, sizeof(*w.items), item_cmp);
		x->first[k] = (uint32_t)x->total;
		pack_lane(x, &w, n, k);
		x->total += x->ntracks[k];
	}
out:
	if (rc != CSIM_OK)
		csim_exact_tracks_release(x);
	free(bk.idx);
	free(bk.b);
	free(w.items);
	free(w.last);
	free(w.iv);
	free(w.heap);
	csim_packer_release(&w.pk);
	return rc;
}
