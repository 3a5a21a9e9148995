#include "model/interval_group.h"

#include <stdlib.h>
#include <string.h>

#include "base/array_grow.h"
#include "base/dense_order.h"
#include "model/sort_nearly.h"

int csim_interval_cmp(const void *a, const void *b)
{
	const struct csim_interval *x = a, *y = b;

	if (x->group != y->group)
		return x->group < y->group ? -1 : 1;
	if (x->sub != y->sub)
		return x->sub < y->sub ? -1 : 1;
	if (x->start != y->start)
		return x->start < y->start ? -1 : 1;
	return (x->end > y->end) - (x->end < y->end);
}

static int pipe_id_cmp(const void *a, const void *b)
{
	uint32_t x = *(const uint32_t *)a, y = *(const uint32_t *)b;

	return (x > y) - (x < y);
}


void csim_interval_sort_nearly(struct csim_interval *a, size_t n)
{
	csim_sort_nearly(a, n, sizeof(*a), csim_interval_cmp);
}

/* Bucket slot of an item's pipe: its id, the cross-core pseudo-pipe last. */
static size_t pipe_slot(const struct csim_interval *it, size_t npipes)
{
	return csim_interval_pipe(it) == CSIM_INTERVAL_LAST_PIPE ? npipes : csim_interval_pipe(it);
}

/*
 * Groups pid p's items a[lo..hi) by pipe slot, ascending, keeping their
 * order within a slot (dest: hi - lo free entries from lo on), then sorts
 * each slot's run.
 */
static void bucket_pipes(struct csim_interval *a, size_t lo, size_t hi, size_t npipes,
			 size_t *cnt, uint32_t *touched, uint32_t *dest)
{
	size_t ntouched = 0, pos = lo;
	struct csim_interval one;

	for (size_t i = lo; i < hi; i++) {
		size_t k = pipe_slot(&a[i], npipes);

		if (cnt[k]++ == 0)
			touched[ntouched++] = (uint32_t)k;
	}
	qsort(touched, ntouched, sizeof(*touched), pipe_id_cmp);
	for (size_t t = 0; t < ntouched; t++) {
		size_t c = cnt[touched[t]];

		cnt[touched[t]] = pos - lo;   /* from here on: where the next one goes */
		pos += c;
	}
	for (size_t i = lo; i < hi; i++)
		dest[i] = (uint32_t)cnt[pipe_slot(&a[i], npipes)]++;
	csim_permute_in_place(a + lo, hi - lo, sizeof(*a), dest + lo, &one);
	pos = lo;
	for (size_t t = 0; t < ntouched; t++) {
		size_t end = lo + cnt[touched[t]];

		csim_interval_sort_nearly(&a[pos], end - pos);
		pos = end;
		cnt[touched[t]] = 0;
	}
}

/*
 * Sorts items by (pid, pipe, what/producer, start, end) as one qsort would,
 * but as two stable counting sorts (by pid, then by pipe within a pid) and
 * a nearly-linear sort of each (pid, pipe) bucket: the comparison sort of
 * every slice was most of the pass's time. The counting sorts move the
 * items in place, each to the place a 4-byte slot says: a copy of the items
 * was 38 MB of the summary pass's peak on the dense-heavy shape.
 */
int csim_interval_group(struct csim_interval *items, size_t n, size_t npids, size_t npipes)
{
	uint32_t *dest = csim_array_alloc(n ? n : 1, sizeof(*dest));
	size_t *off = calloc(npids + 2, sizeof(*off));
	size_t *cnt = calloc(npipes + 1, sizeof(*cnt));
	uint32_t *touched = malloc((npipes + 1) * sizeof(*touched));
	struct csim_interval one;
	int rc = 0;

	if (dest == NULL || off == NULL || cnt == NULL || touched == NULL || n > UINT32_MAX) {
		rc = -1;
		goto out;
	}
	for (size_t i = 0; i < n; i++)
		off[csim_interval_pid(&items[i]) + 2]++;
	for (size_t p = 2; p < npids + 2; p++)
		off[p] += off[p - 1];
	/* off[p + 1] is where pid p's next item goes; afterwards, its end. */
	for (size_t i = 0; i < n; i++)
		dest[i] = (uint32_t)off[csim_interval_pid(&items[i]) + 1]++;
	csim_permute_in_place(items, n, sizeof(*items), dest, &one);
	for (size_t p = 0; p < npids; p++)
		bucket_pipes(items, off[p], off[p + 1], npipes, cnt, touched, dest);
out:
	free(dest);
	free(off);
	free(cnt);
	free(touched);
	return rc;
}


/*
 * The distinct (pid, pipe) pairs of the instruction slices: a small
 * open-addressing map from the pair to a dense id, so the slices can be
 * grouped by one counting sort over 4-byte indices.
 */
struct pair_map {
	uint64_t *keys;     /* pid << 32 | pipe, plus 1; 0: empty */
	uint32_t *ids;
	size_t cap, n;
	struct csim_interval_bucket *pairs;   /* by id: pid, pipe, and (lo, hi) once laid out */
	size_t pairs_cap;
	uint64_t last_key;   /* the pair looked up last (0: none) and its id: */
	uint32_t last_id;    /* a core's slices often repeat their pipe */
};

static size_t pair_hash(uint64_t key, size_t cap)
{
	return (size_t)((key * 0x9E3779B97F4A7C15u) >> 32) & (cap - 1);
}

static int pair_map_grow(struct pair_map *pm)
{
	size_t cap = pm->cap ? pm->cap * 2 : 64;
	uint64_t *keys = calloc(cap, sizeof(*keys));
	uint32_t *ids = malloc(cap * sizeof(*ids));

	if (keys == NULL || ids == NULL) {
		free(keys);
		free(ids);
		return -1;
	}
	for (size_t i = 0; i < pm->cap; i++) {
		size_t h;

		if (pm->keys[i] == 0)
			continue;
		for (h = pair_hash(pm->keys[i], cap); keys[h] != 0; h = (h + 1) & (cap - 1))
			;
		keys[h] = pm->keys[i];
		ids[h] = pm->ids[i];
	}
	free(pm->keys);
	free(pm->ids);
	pm->keys = keys;
	pm->ids = ids;
	pm->cap = cap;
	return 0;
}

/* The slot of key: where it is, or the empty one where it would go. */
static size_t pair_slot(const struct pair_map *pm, uint64_t key)
{
	size_t h = pair_hash(key, pm->cap);

	while (pm->keys[h] != 0 && pm->keys[h] != key)
		h = (h + 1) & (pm->cap - 1);
	return h;
}

/*
 * The id of (pid, pipe), added if new; CSIM_NONE when out of memory. A
 * pair already in the map is found without any allocation.
 */
static uint32_t pair_id(struct pair_map *pm, uint32_t pid, uint32_t pipe)
{
	uint64_t key = ((uint64_t)pid << 32 | pipe) + 1;
	size_t h;

	if (key == pm->last_key)
		return pm->last_id;
	h = pm->cap ? pair_slot(pm, key) : 0;
	if (pm->cap && pm->keys[h] == key) {
		pm->last_key = key;
		pm->last_id = pm->ids[h];
		return pm->ids[h];
	}
	if (2 * (pm->n + 1) > pm->cap) {
		if (pair_map_grow(pm) != 0)
			return CSIM_NONE;
		h = pair_slot(pm, key);
	}
	if (csim_array_grow((void **)&pm->pairs, &pm->pairs_cap, pm->n + 1,
			    sizeof(*pm->pairs)) != 0)
		return CSIM_NONE;
	pm->keys[h] = key;
	pm->ids[h] = (uint32_t)pm->n;
	pm->pairs[pm->n] = (struct csim_interval_bucket){ pid, pipe, 0, 0 };
	return (uint32_t)pm->n++;
}

static int bucket_cmp(const void *a, const void *b)
{
	uint64_t x = csim_interval_bucket_key(a), y = csim_interval_bucket_key(b);

	return (x > y) - (x < y);
}

/* The lane slice sl is grouped on: its pipe, or what spec maps the pipe to. */
static uint32_t slice_lane(const struct csim_slice *sl, const struct csim_bucket_spec *spec)
{
	return spec->lane_of != NULL ? spec->lane_of[sl->pipe] : sl->pipe;
}

/*
 * Groups the kept slices by (pid, lane) with one stable counting sort: a
 * first scan counts each pair, a second places each slice's index, or its
 * row of the fields spec->gather copies, at its pair's next slot. Both scans
 * read the slices in order: gathered rows spare the caller a scattered read
 * of a 48-byte slice per entry when it sweeps a group.
 */
int csim_interval_bucket_slices(const struct csim_table *t,
				const struct csim_bucket_spec *spec,
				struct csim_interval_buckets *out)
{
	struct pair_map pm = { NULL, NULL, 0, 0, NULL, 0, 0, 0 };
	size_t n = 0, pos = 0;
	unsigned char *rows;
	int rc = 0;

	/* pass 1: pairs, and each pair's count in its hi */
	for (size_t i = 0; i < t->nslices && rc == 0; i++) {
		const struct csim_slice *sl = &t->slices[i];
		uint32_t id;

		if (!spec->keep(sl, spec->ctx))
			continue;
		id = pair_id(&pm, sl->pid, slice_lane(sl, spec));
		if (id == CSIM_NONE)
			rc = -1;
		else
			pm.pairs[id].hi++;
		n++;
	}
	if (spec->gather != NULL)
		out->rows = csim_array_alloc(n ? n : 1, spec->row_size);
	else
		out->idx = csim_array_alloc(n ? n : 1, sizeof(*out->idx));
	out->b = malloc((pm.n ? pm.n : 1) * sizeof(*out->b));
	if ((out->rows == NULL && out->idx == NULL) || out->b == NULL)
		rc = -1;
	if (rc != 0)
		goto out;
	/* lay the pairs out in (pid, lane) order; lo is where the next goes */
	if (pm.n > 0)   /* no pairs: pm.pairs is NULL, which memcpy may not take */
		memcpy(out->b, pm.pairs, pm.n * sizeof(*out->b));
	out->n = pm.n;
	qsort(out->b, out->n, sizeof(*out->b), bucket_cmp);
	for (size_t k = 0; k < out->n; k++) {
		struct csim_interval_bucket *b = &out->b[k];
		size_t c = b->hi;

		b->lo = pos;
		b->hi = pos + c;
		if (c > out->longest)
			out->longest = c;
		pm.pairs[pair_id(&pm, b->pid, b->pipe)].lo = pos;
		pos += c;
	}
	/* pass 2: place, in input order within each pair */
	rows = out->rows;
	for (size_t i = 0; i < t->nslices; i++) {
		const struct csim_slice *sl = &t->slices[i];
		size_t at;

		if (!spec->keep(sl, spec->ctx))
			continue;
		at = pm.pairs[pair_id(&pm, sl->pid, slice_lane(sl, spec))].lo++;
		if (rows != NULL)
			spec->gather(sl, (uint32_t)i, rows + at * spec->row_size, spec->ctx);
		else
			out->idx[at] = (uint32_t)i;
	}
out:
	free(pm.keys);
	free(pm.ids);
	free(pm.pairs);
	return rc;
}
