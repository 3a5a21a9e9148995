/*
 * Chrome-trace slices on one thread must be disjoint or nested, but
 * software-pipelined instructions overlap partially: hence sub-lanes, each
 * flat in both viewers. The lane's pipeline depth (the peak over the
 * slices' true intervals, less than the sub-lanes where rounding alone
 * opened one) is taken from the same sorted sweep order, so it costs no
 * sort of its own.
 */
#include "model/pass_pack.h"

#include <stdlib.h>
#include <string.h>

#include "base/array_grow.h"
#include "model/interval_group.h"
#include "model/lane_packer.h"
#include "model/occupancy.h"
#include "model/sort_nearly.h"

const struct csim_pass_def csim_pass_pack_def = {
	csim_pass_pack, CSIM_PART_KEPT, CSIM_PART_LANES
};

/*
 * A kept slice's occupancy interval, computed once when its lane is swept,
 * and the end of its true interval (lo for a point: none). A slice that is
 * not a point has the same start in both, so the items in packing order
 * are in order of their true intervals too.
 */
struct pack_item {
	double lo, hi, true_hi;
	uint32_t idx;
};

/* Within one lane: by start, then input order. */
static int pack_item_cmp(const void *a, const void *b)
{
	const struct pack_item *x = a, *y = b;

	if (x->lo != y->lo)
		return x->lo < y->lo ? -1 : 1;
	return x->idx < y->idx ? -1 : x->idx > y->idx;
}

/* Packs one lane's slices (sorted) and returns its sub-lane count. */
static uint32_t pack_lane(struct csim_slice *slices, const struct pack_item *it,
			  size_t n, struct csim_packer *pk)
{
	csim_packer_reset(pk);
	for (size_t i = 0; i < n; i++) {
		/* the row written below lies far from the last: ask for it early */
		if (i + CSIM_PREFETCH_AHEAD < n)
			csim_prefetch(&slices[it[i + CSIM_PREFETCH_AHEAD].idx]);
		slices[it[i].idx].sublane = csim_packer_take(pk, it[i].lo, it[i].hi);
	}
	return pk->ntracks;
}

/* The lane's depth: its true intervals in the order pack_lane() took them. */
static uint32_t lane_depth(const struct pack_item *it, size_t n, struct csim_occupancy *iv,
			   double *heap)
{
	for (size_t i = 0; i < n; i++)
		iv[i] = (struct csim_occupancy){ it[i].lo, it[i].true_hi };
	return csim_occupancy_depth(iv, n, n > 0, heap);
}

static int is_kept(const struct csim_slice *s, const void *ctx)
{
	(void)ctx;
	return s->kept;
}

int csim_pass_pack(struct csim_model *m, struct csim_error *err)
{
	struct csim_table *t = &m->table;
	/* indices, not rows: only the longest lane's items are held at once */
	const struct csim_bucket_spec spec = { is_kept, NULL, NULL, 0, NULL };
	struct csim_interval_buckets bk = { NULL, NULL, NULL, 0, 0 };
	struct pack_item *items = NULL;
	struct csim_occupancy *true_iv = NULL;
	double *depth_heap = NULL;
	struct csim_packer pk = { NULL, 0, NULL, 0, 0 };
	int rc = CSIM_OK;

	/* Lanes in (pid, pipe) order, each lane's slices in input order. */
	if (csim_interval_bucket_slices(t, &spec, &bk) != 0) {
		rc = csim_error_nomem(err, CSIM_E_INPUT);
		goto out;
	}
	items = csim_array_alloc(bk.longest ? bk.longest : 1, sizeof(*items));
	true_iv = csim_array_alloc(bk.longest ? bk.longest : 1, sizeof(*true_iv));
	depth_heap = csim_array_alloc(bk.longest ? bk.longest : 1, sizeof(*depth_heap));
	free(m->lanes);
	m->lanes = malloc((bk.n ? bk.n : 1) * sizeof(*m->lanes));
	if (csim_packer_init(&pk, bk.longest) != 0 || items == NULL || true_iv == NULL ||
	    depth_heap == NULL || m->lanes == NULL) {
		rc = csim_error_nomem(err, CSIM_E_INPUT);
		goto out;
	}
	m->nlanes = 0;
	m->extra_sublanes = 0;
	for (size_t k = 0; k < bk.n; k++) {
		const struct csim_interval_bucket *b = &bk.b[k];
		struct csim_lane *lane = &m->lanes[m->nlanes++];
		const uint32_t *idx = &bk.idx[b->lo];
		size_t n = b->hi - b->lo;

		for (size_t i = 0; i < n; i++) {
			const struct csim_slice *sl = &t->slices[idx[i]];
			struct csim_occupancy o = csim_slice_occupancy(sl);
			struct csim_occupancy tr = csim_slice_true_interval(sl);

			if (i + CSIM_PREFETCH_AHEAD < n)
				csim_prefetch(&t->slices[idx[i + CSIM_PREFETCH_AHEAD]]);
			/* a point's true interval is empty: keep it so at its item's start */
			items[i] = (struct pack_item){ o.lo, o.hi, tr.hi > tr.lo ? tr.hi : o.lo,
						       idx[i] };
		}
		/* The producer writes each core's instructions by end tick. */
		csim_sort_nearly(items, n, sizeof(*items), pack_item_cmp);
		lane->pid = b->pid;
		lane->pipe = b->pipe;
		lane->nsub = pack_lane(t->slices, items, n, &pk);
		lane->depth = lane_depth(items, n, true_iv, depth_heap);
		m->extra_sublanes += lane->nsub - 1;
	}
out:
	free(bk.idx);
	free(bk.b);
	free(items);
	free(true_iv);
	free(depth_heap);
	csim_packer_release(&pk);
	return rc;
}
