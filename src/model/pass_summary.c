/*
 * Summary pass. Every instruction slice and every WAIT flag becomes an
 * interval item keyed by (pid, pipe, what, producer); one sort by key and
 * start puts each union's intervals next to each other in start order, so
 * one sweep gives every busy time, WAIT time and peak depth. Spans need no
 * sort: one scan of the rows.
 */
#include "model/pass_summary.h"

#include <stdlib.h>
#include <string.h>

#include "base/array_grow.h"

const struct csim_pass_def csim_pass_summary_def = {
	csim_pass_summary,
	CSIM_PART_FLAGS | CSIM_PART_PIPES | CSIM_PART_LANES | CSIM_PART_ORDER,
	CSIM_PART_SUMMARY
};

/* What an item's interval counts towards, in the order a pipe's run holds them. */
enum item_what { WHAT_INSTR, WHAT_WAIT, WHAT_WAIT_BY, WHAT_CROSS };

/* The pseudo-pipe that holds a core's cross-core waits: after every pipe. */
#define CROSS_PIPE UINT32_MAX

struct item {
	uint64_t group;        /* pid << 32 | pipe */
	uint64_t sub;          /* what << 32 | producer + 1 (0: not named) */
	int64_t start, end;
};

static int item_cmp(const void *a, const void *b)
{
	const struct item *x = a, *y = b;

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

static uint32_t item_pid(const struct item *it) { return (uint32_t)(it->group >> 32); }
static uint32_t item_pipe(const struct item *it) { return (uint32_t)it->group; }
static unsigned item_what(const struct item *it) { return (unsigned)(it->sub >> 32); }

static struct item make_item(uint32_t pid, uint32_t pipe, enum item_what what,
			     uint32_t producer, int64_t start, int64_t end)
{
	uint64_t prod = producer == CSIM_NONE ? 0 : (uint64_t)producer + 1;

	/* A WAIT whose E comes before its B in time blocked for no time. */
	return (struct item){ (uint64_t)pid << 32 | pipe, (uint64_t)what << 32 | prod,
			      start, end > start ? end : start };
}

/* Length of the union of sorted intervals it[0..n). */
static int64_t union_ns(const struct item *it, size_t n)
{
	int64_t total = 0, s = 0, e = 0;

	for (size_t i = 0; i < n; i++) {
		if (i == 0 || it[i].start > e) {
			total += e - s;
			s = it[i].start;
			e = it[i].end;
		} else if (it[i].end > e) {
			e = it[i].end;
		}
	}
	return n > 0 ? total + (e - s) : 0;
}

/* Min-heap of interval ends, for the peak depth of a dropped lane. */
static void heap_push(int64_t *h, size_t *n, int64_t v)
{
	size_t i = (*n)++;

	while (i > 0 && h[(i - 1) / 2] > v) {
		h[i] = h[(i - 1) / 2];
		i = (i - 1) / 2;
	}
	h[i] = v;
}

static void heap_pop(int64_t *h, size_t *n)
{
	int64_t last = h[--(*n)];
	size_t i = 0;

	for (;;) {
		size_t c = 2 * i + 1;

		if (c >= *n)
			break;
		if (c + 1 < *n && h[c + 1] < h[c])
			c++;
		if (h[c] >= last)
			break;
		h[i] = h[c];
		i = c;
	}
	if (*n > 0)
		h[i] = last;
}

/*
 * Peak number of slices in progress in one ns; a zero-length slice is in
 * progress during its own ns, so a lane with slices has depth >= 1.
 */
static uint32_t peak_depth(const struct item *it, size_t n, int64_t *heap)
{
	size_t live = 0, peak = 0;

	for (size_t i = 0; i < n; i++) {
		int64_t end = it[i].end > it[i].start ? it[i].end : it[i].start + 1;

		while (live > 0 && heap[0] <= it[i].start)
			heap_pop(heap, &live);
		heap_push(heap, &live, end);
		if (live > peak)
			peak = live;
	}
	return peak > UINT32_MAX ? UINT32_MAX : (uint32_t)peak;
}

static uint32_t lane_nsub(const struct csim_model *m, uint32_t pid, uint32_t pipe)
{
	size_t lo = 0, hi = m->nlanes;

	/* lanes[] is sorted by (pid, pipe). */
	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;
		const struct csim_lane *l = &m->lanes[mid];

		if (l->pid < pid || (l->pid == pid && l->pipe < pipe))
			lo = mid + 1;
		else
			hi = mid;
	}
	if (lo < m->nlanes && m->lanes[lo].pid == pid && m->lanes[lo].pipe == pipe)
		return m->lanes[lo].nsub;
	return 0;
}

/* The instruction slices of one (pid, pipe): idx[lo..hi). */
struct bucket {
	uint32_t pid, pipe;
	size_t lo, hi;
};

static uint64_t bucket_key(const struct bucket *b)
{
	return (uint64_t)b->pid << 32 | b->pipe;
}

struct work {
	struct csim_model *m;
	struct csim_summary *s;
	struct item *items;        /* WAITs and cross-core waits */
	size_t nitems;
	uint32_t *idx;             /* instruction slices grouped by (pid, pipe) */
	struct bucket *buckets;    /* in (pid, pipe id) order */
	size_t nbuckets, longest;
	struct item *scratch;      /* one bucket's intervals, sorted */
	int64_t *heap;
	/* per pid id */
	int64_t *first, *last, *cross;
	unsigned char *has;
	size_t *pipe0, *npipes;    /* its records in the unordered pipes[] */
	struct csim_summary_pipe *raw;   /* pipe records in (pid, pipe id) order */
	size_t nraw;
};

static int counts_as_instruction(const struct csim_slice *sl)
{
	return sl->kind == CSIM_SLICE_INSTR || sl->kind == CSIM_SLICE_INTRA_WAIT;
}

static void collect_wait(struct work *w, const struct csim_flag *f, int by_producer)
{
	const struct csim_table *t = &w->m->table;
	uint32_t producer = f->detail != CSIM_NONE ? t->details[f->detail].producer : CSIM_NONE;

	if (f->kind != CSIM_SYNC_WAIT)
		return;
	if (f->intra) {
		if (!by_producer)
			w->items[w->nitems++] = make_item(f->pid, CROSS_PIPE, WHAT_CROSS,
							  CSIM_NONE, f->begin, f->end);
	} else if (!by_producer) {
		w->items[w->nitems++] = make_item(f->pid, f->pipe, WHAT_WAIT,
						  CSIM_NONE, f->begin, f->end);
	} else {
		w->items[w->nitems++] = make_item(f->pid, f->pipe, WHAT_WAIT_BY,
						  producer, f->begin, f->end);
	}
}

static void collect_items(struct work *w)
{
	const struct csim_table *t = &w->m->table;

	for (size_t i = 0; i < t->nslices; i++) {
		const struct csim_slice *sl = &t->slices[i];

		if (!w->has[sl->pid] || sl->start < w->first[sl->pid])
			w->first[sl->pid] = sl->start;
		if (!w->has[sl->pid] || sl->end > w->last[sl->pid])
			w->last[sl->pid] = sl->end;
		w->has[sl->pid] = 1;
		if (sl->kind == CSIM_SLICE_INTRA_WAIT)
			w->items[w->nitems++] = make_item(sl->pid, CROSS_PIPE, WHAT_CROSS,
							  CSIM_NONE, sl->start, sl->end);
	}
	/* WAIT totals first, then by producer: each run comes out of the
	   bucketing in flag order, nearly sorted already. */
	for (int by = 0; by < 2; by++)
		for (size_t i = 0; i < w->m->nflags; i++)
			collect_wait(w, &w->m->flags[i], by);
}

/*
 * Insertion sort of one bucket, which the input order leaves nearly sorted
 * (the producer writes each core's instructions by end tick); gives up
 * after `budget` moves, leaving a permutation, so the caller can fall back
 * to qsort and the whole stays O(n log n).
 */
static int insertion_sorted(struct item *a, size_t n, size_t budget)
{
	size_t moves = 0;

	for (size_t i = 1; i < n; i++) {
		struct item x = a[i];
		size_t j = i;

		while (j > 0 && item_cmp(&a[j - 1], &x) > 0) {
			a[j] = a[j - 1];
			j--;
			if (++moves > budget) {
				a[j] = x;
				return 0;
			}
		}
		a[j] = x;
	}
	return 1;
}

static void sort_bucket(struct item *a, size_t n)
{
	if (!insertion_sorted(a, n, 8 * n + 64))
		qsort(a, n, sizeof(*a), item_cmp);
}

/* Bucket slot of an item's pipe: its id, the cross-core pseudo-pipe last. */
static size_t pipe_slot(const struct item *it, size_t npipes)
{
	return item_pipe(it) == CROSS_PIPE ? npipes : item_pipe(it);
}

/* Moves pid p's items src[lo..hi) into dst[lo..hi) grouped by pipe slot, ascending. */
static void bucket_pipes(const struct item *src, struct item *dst, size_t lo, size_t hi,
			 size_t npipes, size_t *cnt, uint32_t *touched)
{
	size_t ntouched = 0, pos = lo;

	for (size_t i = lo; i < hi; i++) {
		size_t k = pipe_slot(&src[i], npipes);

		if (cnt[k]++ == 0)
			touched[ntouched++] = (uint32_t)k;
	}
	qsort(touched, ntouched, sizeof(*touched), pipe_id_cmp);
	for (size_t t = 0; t < ntouched; t++) {
		size_t c = cnt[touched[t]];

		cnt[touched[t]] = pos;   /* from here on: where the next one goes */
		pos += c;
	}
	for (size_t i = lo; i < hi; i++)
		dst[cnt[pipe_slot(&src[i], npipes)]++] = src[i];
	pos = lo;
	for (size_t t = 0; t < ntouched; t++) {
		size_t end = cnt[touched[t]];

		sort_bucket(&dst[pos], end - pos);
		pos = end;
		cnt[touched[t]] = 0;
	}
}

/*
 * Sorts items by (pid, pipe, what/producer, start, end) as one qsort would,
 * but as two stable counting sorts (by pid, then by pipe within a pid) and
 * a nearly-linear sort of each (pid, pipe) bucket: the comparison sort of
 * every slice was most of the pass's time.
 */
static int sort_items(struct work *w, struct csim_error *err)
{
	size_t npids = w->m->table.pids.count, npipes = w->m->table.pipes.count;
	struct item *tmp = csim_array_alloc(w->nitems ? w->nitems : 1, sizeof(*tmp));
	size_t *off = calloc(npids + 2, sizeof(*off));
	size_t *cnt = calloc(npipes + 1, sizeof(*cnt));
	uint32_t *touched = malloc((npipes + 1) * sizeof(*touched));
	int rc = CSIM_OK;

	if (tmp == NULL || off == NULL || cnt == NULL || touched == NULL) {
		rc = csim_error_nomem(err, CSIM_E_INPUT);
		goto out;
	}
	for (size_t i = 0; i < w->nitems; i++)
		off[item_pid(&w->items[i]) + 2]++;
	for (size_t p = 2; p < npids + 2; p++)
		off[p] += off[p - 1];
	/* off[p + 1] is where pid p's next item goes; afterwards, its end. */
	for (size_t i = 0; i < w->nitems; i++)
		tmp[off[item_pid(&w->items[i]) + 1]++] = w->items[i];
	for (size_t p = 0; p < npids; p++)
		bucket_pipes(tmp, w->items, off[p], off[p + 1], npipes, cnt, touched);
out:
	free(tmp);
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
	struct bucket *pairs;   /* by id: pid, pipe, and (lo, hi) once laid out */
	size_t pairs_cap;
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
	size_t h = pm->cap ? pair_slot(pm, key) : 0;

	if (pm->cap && pm->keys[h] == key)
		return pm->ids[h];
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
	pm->pairs[pm->n] = (struct bucket){ pid, pipe, 0, 0 };
	return (uint32_t)pm->n++;
}

static int bucket_cmp(const void *a, const void *b)
{
	uint64_t x = bucket_key(a), y = bucket_key(b);

	return (x > y) - (x < y);
}

/*
 * Groups the instruction slices by (pid, pipe) with one stable counting
 * sort over their indices (4 bytes each), so no copy of every slice is
 * ever held: a bucket's intervals are copied and sorted when it is swept.
 */
static int bucket_slices(struct work *w, struct csim_error *err)
{
	const struct csim_table *t = &w->m->table;
	struct pair_map pm = { NULL, NULL, 0, 0, NULL, 0 };
	size_t n = 0, pos = 0;
	int rc = CSIM_OK;

	/* pass 1: pairs, and each pair's count in its hi */
	for (size_t i = 0; i < t->nslices && rc == CSIM_OK; i++) {
		const struct csim_slice *sl = &t->slices[i];
		uint32_t id;

		if (!counts_as_instruction(sl))
			continue;
		id = pair_id(&pm, sl->pid, sl->pipe);
		if (id == CSIM_NONE)
			rc = csim_error_nomem(err, CSIM_E_INPUT);
		else
			pm.pairs[id].hi++;
		n++;
	}
	w->idx = csim_array_alloc(n ? n : 1, sizeof(*w->idx));
	w->buckets = malloc((pm.n ? pm.n : 1) * sizeof(*w->buckets));
	if (rc == CSIM_OK && (w->idx == NULL || w->buckets == NULL))
		rc = csim_error_nomem(err, CSIM_E_INPUT);
	if (rc != CSIM_OK)
		goto out;
	/* lay the pairs out in (pid, pipe) order; lo is where the next goes */
	memcpy(w->buckets, pm.pairs, pm.n * sizeof(*w->buckets));
	w->nbuckets = pm.n;
	qsort(w->buckets, w->nbuckets, sizeof(*w->buckets), bucket_cmp);
	for (size_t k = 0; k < w->nbuckets; k++) {
		struct bucket *b = &w->buckets[k];
		size_t c = b->hi;

		b->lo = pos;
		b->hi = pos + c;
		if (c > w->longest)
			w->longest = c;
		pm.pairs[pair_id(&pm, b->pid, b->pipe)].lo = pos;
		pos += c;
	}
	/* pass 2: place, in input order within each pair */
	for (size_t i = 0; i < t->nslices; i++) {
		const struct csim_slice *sl = &t->slices[i];

		if (counts_as_instruction(sl))
			w->idx[pm.pairs[pair_id(&pm, sl->pid, sl->pipe)].lo++] = (uint32_t)i;
	}
out:
	free(pm.keys);
	free(pm.ids);
	free(pm.pairs);
	return rc;
}

/* The end of the run of items sharing group and sub with items[i]. */
static size_t run_end(const struct work *w, size_t i)
{
	size_t j = i;

	while (j < w->nitems && w->items[j].group == w->items[i].group &&
	       w->items[j].sub == w->items[i].sub)
		j++;
	return j;
}

/* The instruction numbers of one bucket: its intervals sorted in scratch. */
static void sweep_bucket(struct work *w, const struct bucket *b,
			 struct csim_summary_pipe *p)
{
	const struct csim_slice *sl = w->m->table.slices;
	size_t n = b->hi - b->lo;

	for (size_t k = 0; k < n; k++) {
		const struct csim_slice *x = &sl[w->idx[b->lo + k]];

		w->scratch[k] = make_item(b->pid, b->pipe, WHAT_INSTR, CSIM_NONE,
					  x->start, x->end);
	}
	sort_bucket(w->scratch, n);
	p->instructions = n;
	p->busy_ns = union_ns(w->scratch, n);
	p->peak_depth = p->kept ? lane_nsub(w->m, b->pid, b->pipe)
			: peak_depth(w->scratch, n, w->heap);
}

/* The WAIT runs of group `key` from items[i] on; returns the next item. */
static size_t sweep_waits(struct work *w, size_t i, uint64_t key,
			  struct csim_summary_pipe *p)
{
	while (i < w->nitems && w->items[i].group == key) {
		const struct item *r = &w->items[i];
		size_t j = run_end(w, i);

		if (item_what(r) == WHAT_WAIT) {
			p->wait_ns = union_ns(r, j - i);
		} else {
			uint32_t prod = (uint32_t)r->sub;

			w->s->waits[w->s->nwaits++] = (struct csim_summary_wait){
				prod == 0 ? CSIM_NONE : prod - 1, union_ns(r, j - i)
			};
		}
		i = j;
	}
	return i;
}

/* One pipe record per (pid, pipe) of the buckets and the WAITs, merged in order. */
static void sweep(struct work *w)
{
	size_t i = 0, b = 0;

	while (i < w->nitems || b < w->nbuckets) {
		uint64_t kb = b < w->nbuckets ? bucket_key(&w->buckets[b]) : UINT64_MAX;
		uint64_t ki = i < w->nitems ? w->items[i].group : UINT64_MAX;
		uint64_t key = kb < ki ? kb : ki;
		uint32_t pid = (uint32_t)(key >> 32), pipe = (uint32_t)key;
		struct csim_summary_pipe *p;

		if (pipe == CROSS_PIPE) {
			size_t j = run_end(w, i);

			w->cross[pid] = union_ns(&w->items[i], j - i);
			i = j;
			continue;
		}
		if (w->npipes[pid]++ == 0)
			w->pipe0[pid] = w->nraw;
		p = &w->raw[w->nraw++];
		memset(p, 0, sizeof(*p));
		p->pipe = pipe;
		p->kept = w->m->pipes[pipe].drop < 0;
		p->wait0 = w->s->nwaits;
		if (kb == key)
			sweep_bucket(w, &w->buckets[b++], p);
		i = sweep_waits(w, i, key, p);
		p->nwaits = w->s->nwaits - p->wait0;
	}
}

/* A pipe to put in lane order: pipe table order, then name, then id. */
struct named {
	int order;
	const char *name;
	size_t n;
	uint32_t id;
	size_t idx;
};

static int named_cmp(const void *a, const void *b)
{
	const struct named *x = a, *y = b;
	size_t n = x->n < y->n ? x->n : y->n;
	int c;

	if (x->order != y->order)
		return x->order < y->order ? -1 : 1;
	c = memcmp(x->name, y->name, n);
	if (c != 0)
		return c;
	if (x->n != y->n)
		return x->n < y->n ? -1 : 1;
	return (x->id > y->id) - (x->id < y->id);
}

/* An unnamed producer sorts after every pipe. */
static struct named named_pipe(const struct csim_model *m, uint32_t pipe, size_t idx)
{
	struct named v = { CSIM_PIPE_ORDER_OTHER + 1, "", 0, pipe, idx };

	if (pipe != CSIM_NONE) {
		v.name = csim_strtab_get(&m->table.pipes, pipe, &v.n);
		v.order = m->pipes[pipe].info->order;
	}
	return v;
}

/* Puts the waits of p in producer order, through the scratch `tmp`. */
static void order_waits(const struct csim_model *m, struct csim_summary *s,
			const struct csim_summary_pipe *p, struct named *tmp,
			struct csim_summary_wait *wtmp)
{
	for (size_t k = 0; k < p->nwaits; k++)
		tmp[k] = named_pipe(m, s->waits[p->wait0 + k].producer, p->wait0 + k);
	qsort(tmp, p->nwaits, sizeof(*tmp), named_cmp);
	for (size_t k = 0; k < p->nwaits; k++)
		wtmp[k] = s->waits[tmp[k].idx];
	memcpy(&s->waits[p->wait0], wtmp, p->nwaits * sizeof(*wtmp));
}

/* Appends core `pid` with its pipes in lane order. */
static void add_core(struct work *w, uint32_t pid, struct named *tmp,
		     struct csim_summary_wait *wtmp)
{
	struct csim_summary *s = w->s;
	struct csim_summary_core *c = &s->cores[s->ncores++];
	size_t n = w->npipes[pid];

	c->pid = pid;
	c->first_ns = w->first[pid];
	c->last_ns = w->last[pid];
	c->cross_wait_ns = w->cross[pid];
	c->pipe0 = s->npipes;
	c->npipes = n;
	for (size_t k = 0; k < n; k++)
		tmp[k] = named_pipe(w->m, w->raw[w->pipe0[pid] + k].pipe, w->pipe0[pid] + k);
	qsort(tmp, n, sizeof(*tmp), named_cmp);
	for (size_t k = 0; k < n; k++)
		s->pipes[s->npipes++] = w->raw[tmp[k].idx];
	for (size_t k = 0; k < n; k++)
		order_waits(w->m, s, &s->pipes[c->pipe0 + k], tmp, wtmp);
}

static int span_cmp(const void *a, const void *b)
{
	const int64_t *x = a, *y = b;

	return (*x > *y) - (*x < *y);
}

/* Min, lower median and max span; the slowest core is the first with the max. */
static int balance(struct csim_summary *s, struct csim_error *err)
{
	int64_t *spans;

	if (s->ncores == 0)
		return CSIM_OK;
	spans = malloc(s->ncores * sizeof(*spans));
	if (spans == NULL)
		return csim_error_nomem(err, CSIM_E_INPUT);
	s->slowest = 0;
	for (size_t i = 0; i < s->ncores; i++) {
		spans[i] = s->cores[i].last_ns - s->cores[i].first_ns;
		if (spans[i] > spans[s->slowest])
			s->slowest = i;
	}
	qsort(spans, s->ncores, sizeof(*spans), span_cmp);
	s->min_span_ns = spans[0];
	s->median_span_ns = spans[(s->ncores - 1) / 2];
	s->max_span_ns = spans[s->ncores - 1];
	free(spans);
	return CSIM_OK;
}

/*
 * Cores in output order: the processes of the trace first, then cores whose
 * every slice is dropped, by first appearance.
 */
static int order_cores(struct work *w, struct csim_error *err)
{
	const struct csim_model *m = w->m;
	size_t npids = m->table.pids.count, most = 1;
	unsigned char *done = calloc(npids ? npids : 1, 1);
	struct named *tmp;
	struct csim_summary_wait *wtmp;
	int rc;

	for (size_t i = 0; i < w->nraw; i++)
		if (w->raw[i].nwaits > most)
			most = w->raw[i].nwaits;
	for (size_t pid = 0; pid < npids; pid++)
		if (w->npipes[pid] > most)
			most = w->npipes[pid];
	tmp = malloc(most * sizeof(*tmp));
	wtmp = malloc(most * sizeof(*wtmp));
	if (done == NULL || tmp == NULL || wtmp == NULL) {
		rc = csim_error_nomem(err, CSIM_E_INPUT);
		goto out;
	}
	for (size_t p = 0; p < m->nprocesses; p++) {
		uint32_t pid = m->processes[p];

		if (w->has[pid] && !done[pid])
			add_core(w, pid, tmp, wtmp);
		done[pid] = 1;
	}
	for (uint32_t pid = 0; pid < npids; pid++)
		if (w->has[pid] && !done[pid])
			add_core(w, pid, tmp, wtmp);
	rc = balance(w->s, err);
out:
	free(done);
	free(tmp);
	free(wtmp);
	return rc;
}

static void work_release(struct work *w)
{
	free(w->items);
	free(w->idx);
	free(w->buckets);
	free(w->scratch);
	free(w->heap);
	free(w->first);
	free(w->last);
	free(w->cross);
	free(w->has);
	free(w->pipe0);
	free(w->npipes);
	free(w->raw);
}

void csim_summary_release(struct csim_summary *s)
{
	free(s->cores);
	free(s->pipes);
	free(s->waits);
	memset(s, 0, sizeof(*s));
}

/* Room for every item and per-pid value. */
static int work_alloc(struct work *w, struct csim_error *err)
{
	const struct csim_table *t = &w->m->table;
	size_t npids = t->pids.count ? t->pids.count : 1;
	size_t nitems = t->nslices + 2 * w->m->nflags + 1;

	if (nitems < t->nslices)
		return csim_error_nomem(err, CSIM_E_INPUT);
	w->items = csim_array_alloc(nitems, sizeof(*w->items));
	w->first = calloc(npids, sizeof(*w->first));
	w->last = calloc(npids, sizeof(*w->last));
	w->cross = calloc(npids, sizeof(*w->cross));
	w->has = calloc(npids, 1);
	w->pipe0 = calloc(npids, sizeof(*w->pipe0));
	w->npipes = calloc(npids, sizeof(*w->npipes));
	w->s->cores = csim_array_alloc(npids, sizeof(*w->s->cores));
	if (w->items == NULL || w->first == NULL || w->last == NULL ||
	    w->cross == NULL || w->has == NULL || w->pipe0 == NULL ||
	    w->npipes == NULL || w->s->cores == NULL)
		return csim_error_nomem(err, CSIM_E_INPUT);
	return CSIM_OK;
}

/* Once everything is grouped: room for the records and the largest group. */
static int records_alloc(struct work *w, struct csim_error *err)
{
	size_t groups = w->nbuckets, waits = 0, longest = w->longest;

	for (size_t i = 0; i < w->nitems;) {
		size_t j = run_end(w, i);

		if (i == 0 || w->items[i].group != w->items[i - 1].group)
			groups++;
		if (item_what(&w->items[i]) == WHAT_WAIT_BY)
			waits++;
		if (j - i > longest)
			longest = j - i;
		i = j;
	}
	w->heap = csim_array_alloc(longest ? longest : 1, sizeof(*w->heap));
	w->scratch = csim_array_alloc(w->longest ? w->longest : 1, sizeof(*w->scratch));
	w->raw = csim_array_alloc(groups ? groups : 1, sizeof(*w->raw));
	w->s->pipes = csim_array_alloc(groups ? groups : 1, sizeof(*w->s->pipes));
	w->s->waits = csim_array_alloc(waits ? waits : 1, sizeof(*w->s->waits));
	if (w->heap == NULL || w->scratch == NULL || w->raw == NULL || w->s->pipes == NULL ||
	    w->s->waits == NULL)
		return csim_error_nomem(err, CSIM_E_INPUT);
	return CSIM_OK;
}

int csim_pass_summary(struct csim_model *m, struct csim_error *err)
{
	struct work w;
	int rc;

	memset(&w, 0, sizeof(w));
	w.m = m;
	w.s = &m->summary;
	csim_summary_release(w.s);
	rc = work_alloc(&w, err);
	if (rc == CSIM_OK) {
		collect_items(&w);
		rc = bucket_slices(&w, err);
	}
	if (rc == CSIM_OK)
		rc = sort_items(&w, err);
	if (rc == CSIM_OK)
		rc = records_alloc(&w, err);
	if (rc == CSIM_OK) {
		sweep(&w);
		rc = order_cores(&w, err);
	}
	if (rc != CSIM_OK)
		csim_summary_release(w.s);
	work_release(&w);
	return rc;
}
