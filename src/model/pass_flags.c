/*
 * Every step runs over arrays grouped by interned id (a counting sort) and
 * sorted, so the whole work is O(n log n) in the number of flags and
 * slices. A SET and a WAIT without a shared id match FIFO per (pid,
 * producer pipe, consumer pipe, flag id), in begin order. Ids are scoped
 * to their run by the table, and these keys and the pair pass's LIFO ones
 * (name, pid, tid) carry the run, so with --run all no flag pairs or
 * matches across runs, which restart at ts 0. The consumer anchor is the
 * first consumer slice starting at or after the WAIT ends, among the
 * slices of the flag's run.
 */
#include "model/pass_flags.h"

#include <assert.h>
#include <stdlib.h>
#include <string.h>

#include "base/array_grow.h"
#include "base/dense_order.h"
#include "model/anchor_index.h"

const struct csim_pass_def csim_pass_pair_def = {
	csim_pass_pair, CSIM_PART_SYNCS, CSIM_PART_FLAGS
};

const struct csim_pass_def csim_pass_flags_def = {
	csim_pass_flags, CSIM_PART_FLAGS | CSIM_PART_PIPES | CSIM_PART_KEPT,
	CSIM_PART_ARROWS | CSIM_PART_DEPS
};

#define KEY_WORDS 4

/* A generic sort record: lexicographic on k[], then idx (input order). */
struct key_item {
	uint64_t k[KEY_WORDS];
	uint32_t idx;
};

static int key_item_cmp(const void *a, const void *b)
{
	const struct key_item *x = a, *y = b;

	for (int i = 0; i < KEY_WORDS; i++)
		if (x->k[i] != y->k[i])
			return x->k[i] < y->k[i] ? -1 : 1;
	return x->idx < y->idx ? -1 : x->idx > y->idx;
}

/* Orders signed values correctly as unsigned sort keys. */
static uint64_t key_signed(int64_t v)
{
	return (uint64_t)v ^ ((uint64_t)1 << 63);
}

/* SETs before WAITs, each by begin time, in one word (|t| < 2^62). */
static uint64_t key_kind_time(uint8_t kind, int64_t t)
{
	return (uint64_t)kind << 63 | (uint64_t)(t + ((int64_t)1 << 62));
}

static int same_group(const struct key_item *a, const struct key_item *b,
		      int words)
{
	for (int i = 0; i < words; i++)
		if (a->k[i] != b->k[i])
			return 0;
	return 1;
}

struct flag_work {
	struct csim_model *m;
	struct key_item *items;   /* scratch for comparison sorts, one per record or flag */
	uint32_t *src;            /* scratch for dense grouping, one per record or flag */
	uint32_t *keys;
	uint32_t *order;
	uint32_t *start;          /* group bounds, 2 * ids + 1 */
	uint32_t *stack;
	struct csim_flag *flags;  /* the model's */
	size_t nflags;
	struct csim_anchor_index anchors;
};

static void add_flag(struct flag_work *w, const struct csim_sync_rec *b,
		     const struct csim_sync_rec *e, uint32_t order)
{
	struct csim_flag *f = &w->flags[w->nflags++];

	f->begin_a = b->a;
	f->end = llround(e->a);
	f->order = order;
	f->pid = b->pid;
	f->pipe = b->pipe;
	f->id = b->id;
	f->kind = b->kind;
	f->intra = b->intra;
	f->run = b->run;
	f->detail = b->detail != CSIM_NONE ? b->detail : e->detail;
}

/* Records sharing (kind, id), in input order: the i-th B pairs with the i-th E. */
static void pair_group_by_id(struct flag_work *w, const uint32_t *idx, size_t n)
{
	const struct csim_sync_rec *recs = w->m->table.syncs;
	size_t bi = 0, ei = 0, paired = 0;

	for (;;) {
		while (bi < n && !recs[idx[bi]].is_begin)
			bi++;
		while (ei < n && recs[idx[ei]].is_begin)
			ei++;
		if (bi >= n || ei >= n)
			break;
		add_flag(w, &recs[idx[bi]], &recs[idx[ei]],
			 idx[bi] < idx[ei] ? idx[bi] : idx[ei]);
		paired++;
		bi++;
		ei++;
	}
	w->m->flag_skips[CSIM_FSKIP_INCOMPLETE] += n - 2 * paired;
}

/* Records sharing (name, pid, tid), in input order: E closes the latest B. */
static void pair_group_lifo(struct flag_work *w, const uint32_t *idx, size_t n)
{
	const struct csim_sync_rec *recs = w->m->table.syncs;
	size_t depth = 0;

	for (size_t i = 0; i < n; i++) {
		const struct csim_sync_rec *r = &recs[idx[i]];

		if (r->is_begin) {
			w->stack[depth++] = idx[i];
		} else if (depth == 0) {
			w->m->flag_skips[CSIM_FSKIP_INCOMPLETE]++;
		} else {
			uint32_t b = w->stack[--depth];

			add_flag(w, &recs[b], r, b);
		}
	}
	w->m->flag_skips[CSIM_FSKIP_INCOMPLETE] += depth;
}

/*
 * Sorts items, then hands each run equal in its first `words` keys to fn as
 * an array of idx values (written over w->order).
 */
static void for_each_group(struct flag_work *w, struct key_item *it, size_t n,
			   int words,
			   void (*fn)(struct flag_work *, const uint32_t *, size_t))
{
	qsort(it, n, sizeof(*it), key_item_cmp);
	for (size_t i = 0; i < n; i++)
		w->order[i] = it[i].idx;
	for (size_t i = 0; i < n;) {
		size_t j = i + 1;

		while (j < n && same_group(&it[i], &it[j], words))
			j++;
		fn(w, w->order + i, j - i);
		i = j;
	}
}

/*
 * Groups w->src[0..n) by w->keys (dense, < nkeys) into w->order, keeping
 * input order inside each group; w->start gets the bounds.
 */
static void dense_group(struct flag_work *w, size_t n, size_t nkeys)
{
	csim_dense_order(w->keys, n, nkeys, w->order, w->start);
	for (size_t i = 0; i < n; i++)
		w->order[i] = w->src[w->order[i]];
}

static void pair_begin_end(struct flag_work *w)
{
	const struct csim_table *t = &w->m->table;
	size_t nkeys = 2 * t->ids.count;
	size_t n = 0;

	for (uint32_t i = 0; i < t->nsyncs; i++) {
		const struct csim_sync_rec *r = &t->syncs[i];

		if (r->id != CSIM_NONE) {
			w->src[n] = i;
			w->keys[n++] = r->id * 2 + r->kind;
		}
	}
	dense_group(w, n, nkeys);
	for (size_t k = 0; k < nkeys; k++)
		pair_group_by_id(w, w->order + w->start[k], w->start[k + 1] - w->start[k]);
	n = 0;
	for (uint32_t i = 0; i < t->nsyncs; i++) {
		const struct csim_sync_rec *r = &t->syncs[i];

		if (r->id == CSIM_NONE)
			w->items[n++] = (struct key_item){
				{ (uint64_t)r->name << 32 | r->pid,
				  (uint64_t)r->run << 32 | r->pipe, 0, 0 }, i };
	}
	for_each_group(w, w->items, n, 2, pair_group_lifo);
}

/*
 * Flags and arrows usually come out of grouping already in order (ids are
 * interned in input order); checking is O(n), sorting anyway is not.
 */
static int is_sorted(const void *base, size_t n, size_t size,
		     int (*cmp)(const void *, const void *))
{
	const char *p = base;

	for (size_t i = 1; i < n; i++)
		if (cmp(p + (i - 1) * size, p + i * size) > 0)
			return 0;
	return 1;
}

static int flag_order_cmp(const void *a, const void *b)
{
	const struct csim_flag *x = a, *y = b;

	return x->order < y->order ? -1 : x->order > y->order;
}

static const struct csim_sync_detail *flag_detail(const struct flag_work *w,
						  const struct csim_flag *f)
{
	return f->detail != CSIM_NONE ? &w->m->table.details[f->detail] : NULL;
}

/*
 * Anchors a matched pair: a dependency whenever both ends have anchors, an
 * arrow only when the trace keeps both lanes; -1 when drawn, else the skip
 * reason, the dropped lanes first.
 */
static int anchor_pair(struct flag_work *w, const struct csim_flag *set,
		       const struct csim_flag *wait)
{
	struct csim_model *m = w->m;
	const struct csim_sync_detail *d = flag_detail(w, set);
	struct csim_arrow *a = &m->arrows[m->narrows];
	uint32_t prod_pipe = d != NULL && d->producer != CSIM_NONE ? d->producer : set->pipe;
	uint32_t cons_pipe = d != NULL && d->consumer != CSIM_NONE ? d->consumer : wait->pipe;
	int why = csim_anchor_index_link(&w->anchors,
		(struct csim_anchor_query){ set->pid, prod_pipe, set->run, csim_flag_begin(set),
					    set->begin_a },
		(struct csim_anchor_query){ wait->pid, cons_pipe, wait->run, wait->end, 0.0 }, a);

	if (why < 0)
		m->deps[m->ndeps++] = (struct csim_dep){ a->producer, a->consumer, wait->end,
							 prod_pipe, cons_pipe, a->running,
							 csim_flag_wait_ns(wait) };
	if (m->pipes[prod_pipe].drop >= 0)
		return CSIM_FSKIP_PRODUCER_DROPPED;
	if (m->pipes[cons_pipe].drop >= 0)
		return CSIM_FSKIP_CONSUMER_DROPPED;
	if (why >= 0)
		return why;
	m->narrows++;
	m->flag_running += a->running;
	a->has_flag_id = d != NULL && d->has_flag_id;
	a->flag_id = a->has_flag_id ? d->flag_id : 0;
	a->set_begin = csim_flag_begin(set);
	a->set_order = set->order;
	return -1;
}

/* One matching group: the i-th SET (by begin) goes with the i-th WAIT. */
static void match_sets(struct flag_work *w, const uint32_t *sets, size_t nset,
		       const uint32_t *waits, size_t nwait)
{
	for (size_t i = 0; i < nset && i < nwait; i++) {
		int why = anchor_pair(w, &w->flags[sets[i]], &w->flags[waits[i]]);

		if (why >= 0)
			w->m->flag_skips[why]++;
	}
	if (nset > nwait)
		w->m->flag_skips[CSIM_FSKIP_NO_WAIT] += nset - nwait;
	else
		w->m->flag_skips[CSIM_FSKIP_NO_SET] += nwait - nset;
	for (size_t i = nset; i < nwait; i++)
		csim_unreleased_add(w->m->unreleased, &w->flags[waits[i]]);
}

/* A keyed group sorted SETs first, each part by begin. */
static void match_group(struct flag_work *w, const uint32_t *idx, size_t n)
{
	size_t nset = 0;

	while (nset < n && w->flags[idx[nset]].kind == CSIM_SYNC_SET)
		nset++;
	match_sets(w, idx, nset, idx + nset, n - nset);
}

/*
 * Flags of one (id, kind) in input order; puts them in begin order. Almost
 * always there is one, or they are in order already.
 */
static void sort_by_begin(struct flag_work *w, uint32_t *idx, size_t n)
{
	size_t i;

	for (i = 1; i < n && csim_flag_begin(&w->flags[idx[i - 1]]) <=
			     csim_flag_begin(&w->flags[idx[i]]); i++)
		;
	if (i >= n)
		return;
	for (i = 0; i < n; i++)
		w->items[i] = (struct key_item){
			{ key_signed(csim_flag_begin(&w->flags[idx[i]])), 0, 0, 0 }, idx[i] };
	qsort(w->items, n, sizeof(*w->items), key_item_cmp);
	for (i = 0; i < n; i++)
		idx[i] = w->items[i].idx;
}

static void match_set_wait(struct flag_work *w)
{
	const struct csim_table *t = &w->m->table;
	size_t nids = t->ids.count;
	size_t n = 0;

	for (uint32_t i = 0; i < w->nflags; i++) {
		const struct csim_flag *f = &w->flags[i];

		if (f->id != CSIM_NONE && !f->intra) {
			w->src[n] = i;
			w->keys[n++] = f->id * 2 + f->kind;
		}
	}
	dense_group(w, n, 2 * nids);
	for (size_t id = 0; id < nids; id++) {
		uint32_t *sets = w->order + w->start[2 * id];
		uint32_t *waits = w->order + w->start[2 * id + 1];
		size_t nset = w->start[2 * id + 1] - w->start[2 * id];
		size_t nwait = w->start[2 * id + 2] - w->start[2 * id + 1];

		if (nset + nwait == 0)
			continue;
		sort_by_begin(w, sets, nset);
		sort_by_begin(w, waits, nwait);
		match_sets(w, sets, nset, waits, nwait);
	}
	n = 0;
	for (uint32_t i = 0; i < w->nflags; i++) {
		const struct csim_flag *f = &w->flags[i];
		const struct csim_sync_detail *d;

		if (f->id != CSIM_NONE || f->intra)   /* cross-core: pass_intra */
			continue;
		if (f->detail == CSIM_NONE) {
			w->m->flag_skips[CSIM_FSKIP_NO_KEY]++;
			continue;
		}
		d = &t->details[f->detail];
		w->items[n++] = (struct key_item){
			{ (uint64_t)f->pid << 32 | d->producer,
			  (uint64_t)f->run << 33 | (uint64_t)d->consumer << 1 | d->has_flag_id,
			  d->flag_id,
			  key_kind_time(f->kind, csim_flag_begin(f)) }, i };
	}
	for_each_group(w, w->items, n, 3, match_group);
}

static int too_many_ids(const struct csim_table *t, struct csim_error *err)
{
	return csim_error_set(err, CSIM_E_INPUT, CSIM_NO_OFFSET,
			      "too many distinct sync flag ids (%zu)", t->ids.count);
}

/*
 * The scratch both passes group and sort with: n items, and group bounds
 * for every interned id. Returns -1 when out of memory (what was allocated
 * is freed by work_free).
 */
static int work_alloc(struct flag_work *w, size_t n, size_t nids)
{
	w->items = csim_array_alloc(n, sizeof(*w->items));
	w->src = csim_array_alloc(n, sizeof(*w->src));
	w->keys = csim_array_alloc(n, sizeof(*w->keys));
	w->order = csim_array_alloc(n, sizeof(*w->order));
	w->start = csim_array_alloc(2 * nids + 1, sizeof(*w->start));
	return w->items != NULL && w->src != NULL && w->keys != NULL &&
	       w->order != NULL && w->start != NULL ? 0 : -1;
}

static void work_free(struct flag_work *w)
{
	free(w->items);
	free(w->src);
	free(w->keys);
	free(w->order);
	free(w->start);
	free(w->stack);
	csim_anchor_index_release(&w->anchors);
}

int csim_pass_pair(struct csim_model *m, struct csim_error *err)
{
	const struct csim_table *t = &m->table;
	size_t nrec = t->nsyncs ? t->nsyncs : 1;
	struct flag_work w;
	int rc = CSIM_OK;

	memset(&w, 0, sizeof(w));
	w.m = m;
	if (t->ids.count >= UINT32_MAX / 2)   /* keys are id * 2 + kind */
		return too_many_ids(t, err);
	m->flag_skips[CSIM_FSKIP_INCOMPLETE] = 0;
	free(m->flags);
	m->nflags = 0;
	w.stack = csim_array_alloc(nrec, sizeof(*w.stack));
	/* A flag takes a B and an E record. */
	m->flags = w.flags = csim_array_alloc(nrec / 2 + 1, sizeof(*w.flags));
	if (work_alloc(&w, nrec, t->ids.count) != 0 || w.stack == NULL || w.flags == NULL) {
		rc = csim_error_nomem(err, CSIM_E_INPUT);
		goto out;
	}
	pair_begin_end(&w);
	/* Flag index order is input order from here on: ties sort by it. */
	if (!is_sorted(w.flags, w.nflags, sizeof(*w.flags), flag_order_cmp))
		qsort(w.flags, w.nflags, sizeof(*w.flags), flag_order_cmp);
	m->nflags = w.nflags;
out:
	work_free(&w);
	return rc;
}

int csim_pass_flags(struct csim_model *m, struct csim_error *err)
{
	const struct csim_table *t = &m->table;
	size_t n = m->nflags ? m->nflags : 1;
	struct flag_work w;
	int rc = CSIM_OK;

	assert(m->npipes == t->pipes.count);
	memset(&w, 0, sizeof(w));
	w.m = m;
	w.flags = m->flags;
	w.nflags = m->nflags;
	if (t->ids.count >= UINT32_MAX / 2)   /* keys are id * 2 + kind */
		return too_many_ids(t, err);
	for (int i = 0; i < CSIM_FSKIP_COUNT; i++)
		if (i != CSIM_FSKIP_INCOMPLETE)   /* the pair pass's count */
			m->flag_skips[i] = 0;
	free(m->arrows);
	m->narrows = 0;
	free(m->deps);
	m->ndeps = 0;
	m->flag_running = 0;
	free(m->unreleased);
	m->unreleased = calloc(t->pids.count ? t->pids.count : 1, sizeof(*m->unreleased));
	/* An arrow takes a SET and a WAIT flag. */
	m->arrows = csim_array_alloc(n / 2 + 1, sizeof(*m->arrows));
	m->deps = csim_array_alloc(n / 2 + 1, sizeof(*m->deps));
	if (work_alloc(&w, n, t->ids.count) != 0 || m->arrows == NULL || m->deps == NULL ||
	    m->unreleased == NULL ||
	    csim_anchor_index_build(&w.anchors, m) != 0) {
		rc = csim_error_nomem(err, CSIM_E_INPUT);
		goto out;
	}
	match_set_wait(&w);
	if (!is_sorted(m->arrows, m->narrows, sizeof(*m->arrows), csim_anchor_arrow_cmp))
		qsort(m->arrows, m->narrows, sizeof(*m->arrows), csim_anchor_arrow_cmp);
out:
	work_free(&w);
	return rc;
}
