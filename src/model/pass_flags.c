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

struct flag_work {
	struct csim_model *m;
	struct key_item *items;   /* scratch for comparison sorts, one per record or flag */
	uint32_t *src;            /* scratch for dense grouping, one per record or flag */
	uint32_t *keys;
	uint32_t *order;
	uint32_t *start;          /* group bounds, 2 * ids + 1 */
	struct csim_flag *flags;  /* the model's */
	size_t nflags;
	struct csim_anchor_index anchors;
};

/* A flag's fields from its B record; its end comes with its E (close_flag). */
static void open_flag(struct csim_flag *f, const struct csim_sync_rec *b, uint32_t order)
{
	f->begin_a = b->a;
	f->order = order;
	f->pid = b->pid;
	f->pipe = b->pipe;
	f->id = b->id;
	f->kind = b->kind;
	f->intra = b->intra;
	f->run = b->run;
	f->detail = b->detail;
}

static void close_flag(struct csim_flag *f, const struct csim_sync_rec *e)
{
	f->end = llround(e->a);
	if (f->detail == CSIM_NONE)
		f->detail = e->detail;
}

static void add_flag(struct flag_work *w, const struct csim_sync_rec *b,
		     const struct csim_sync_rec *e, uint32_t order)
{
	struct csim_flag *f = &w->flags[w->nflags++];

	open_flag(f, b, order);
	close_flag(f, e);
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

/* A flag from its B record, open: its E not met yet. */
#define FLAG_OPEN 0xff

/*
 * Records without an id pair LIFO per (name, pid, run, pipe): an E closes
 * the latest open B of its key. One sweep in input order, the records read
 * once: sorting them by key took 1.7 s of the dense-heavy shape's 5.6 s
 * (2.4 M records). A B takes the next flag at once, so the flags come out
 * in the order of their B, which is their order; while open, a flag's end
 * links it to the key's previous open one (the key's stack), so pairing
 * needs no memory per record. Those never closed are removed at the end.
 * -1 when out of memory.
 */
static int pair_lifo(struct flag_work *w, size_t *cap_flags)
{
	const struct csim_table *t = &w->m->table;
	struct csim_strtab keys;
	uint32_t *top = NULL;
	size_t cap_top = 0, ntop = 0, first = w->nflags, kept;
	uint64_t *incomplete = &w->m->flag_skips[CSIM_FSKIP_INCOMPLETE];
	int rc = -1;

	csim_strtab_init(&keys, CSIM_STRTAB_GROUPED);
	for (uint32_t i = 0; i < t->nsyncs; i++) {
		const struct csim_sync_rec *r = &t->syncs[i];
		char key[11];
		uint32_t g;

		if (r->id != CSIM_NONE)
			continue;
		key[0] = (char)r->name;
		memcpy(key + 1, &r->pid, 4);
		memcpy(key + 5, &r->pipe, 4);
		memcpy(key + 9, &r->run, 2);
		if (csim_strtab_intern(&keys, key, sizeof(key), &g) != 0)
			goto out;
		if (g == ntop) {   /* a new key: ids come dense, in first-seen order */
			if (csim_array_grow((void **)&top, &cap_top, ntop + 1, sizeof(*top)) != 0)
				goto out;
			top[ntop++] = CSIM_NONE;
		}
		if (r->is_begin) {
			if (csim_array_grow((void **)&w->flags, cap_flags, w->nflags + 1,
					    sizeof(*w->flags)) != 0)
				goto out;
			w->m->flags = w->flags;
			open_flag(&w->flags[w->nflags], r, i);
			w->flags[w->nflags].end = top[g];
			top[g] = (uint32_t)w->nflags++;
		} else if (top[g] == CSIM_NONE) {
			++*incomplete;
		} else {
			struct csim_flag *f = &w->flags[top[g]];

			top[g] = (uint32_t)f->end;
			close_flag(f, r);
		}
	}
	for (uint32_t g = 0; g < keys.count; g++)
		for (uint32_t b = top[g]; b != CSIM_NONE; b = (uint32_t)w->flags[b].end) {
			w->flags[b].kind = FLAG_OPEN;
			++*incomplete;
		}
	kept = first;
	for (size_t f = first; f < w->nflags; f++)
		if (w->flags[f].kind != FLAG_OPEN)
			w->flags[kept++] = w->flags[f];
	w->nflags = kept;
	rc = 0;
out:
	csim_strtab_release(&keys);
	free(top);
	return rc;
}

static int pair_begin_end(struct flag_work *w, size_t *cap_flags)
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
	return pair_lifo(w, cap_flags);
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

/*
 * Puts the flags in `order` order. Orders are distinct record indices
 * below nrec, so a flag's rank comes from one sweep over them and the flags
 * move in place along the permutation's cycles: O(nrec), no copy of the
 * flags. Replaced a qsort of 40-byte flags, 0.13 s on the dense-heavy
 * shape's 1.2 M flags.
 */
static void order_flags(struct flag_work *w, size_t nrec)
{
	uint32_t *slot = w->src, *rank = w->order;   /* nrec entries each */
	uint32_t k = 0;
	struct csim_flag one;

	for (size_t r = 0; r < nrec; r++)
		slot[r] = CSIM_NONE;
	for (uint32_t i = 0; i < w->nflags; i++)
		slot[w->flags[i].order] = i;
	for (size_t r = 0; r < nrec; r++)
		if (slot[r] != CSIM_NONE)
			rank[slot[r]] = k++;
	csim_permute_in_place(w->flags, w->nflags, sizeof(*w->flags), rank, &one);
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

/* One matching group: the i-th SET (by begin) goes with the i-th WAIT; -1
   when out of memory. */
static int match_sets(struct flag_work *w, const uint32_t *sets, size_t nset,
		      const uint32_t *waits, size_t nwait)
{
	for (size_t i = 0; i < nset && i < nwait; i++) {
		const struct csim_flag *set = &w->flags[sets[i]], *wait = &w->flags[waits[i]];
		int why;

		if (csim_anchor_index_need(&w->anchors, set->pid, wait->pid) != 0)
			return -1;
		why = anchor_pair(w, set, wait);
		if (why >= 0)
			w->m->flag_skips[why]++;
	}
	if (nset > nwait)
		w->m->flag_skips[CSIM_FSKIP_NO_WAIT] += nset - nwait;
	else
		w->m->flag_skips[CSIM_FSKIP_NO_SET] += nwait - nset;
	for (size_t i = nset; i < nwait; i++)
		csim_unreleased_add(w->m->unreleased, &w->flags[waits[i]]);
	return 0;
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

/*
 * The FIFO key of an id-less flag as bytes, for interning: pid, producer,
 * run, consumer, has_flag_id, flag_id. Groups are ranked by it as a tuple.
 */
struct fifo_key {
	uint32_t pid, producer, consumer;
	uint16_t run;
	uint8_t has_flag_id;
	uint64_t flag_id;
};

#define FIFO_KEY_BYTES 23

static void fifo_key_put(const struct fifo_key *k, char *out)
{
	memcpy(out, &k->pid, 4);
	memcpy(out + 4, &k->producer, 4);
	memcpy(out + 8, &k->consumer, 4);
	memcpy(out + 12, &k->run, 2);
	memcpy(out + 14, &k->has_flag_id, 1);
	memcpy(out + 15, &k->flag_id, 8);
}

static struct fifo_key fifo_key_get(const char *in)
{
	struct fifo_key k;

	memcpy(&k.pid, in, 4);
	memcpy(&k.producer, in + 4, 4);
	memcpy(&k.consumer, in + 8, 4);
	memcpy(&k.run, in + 12, 2);
	memcpy(&k.has_flag_id, in + 14, 1);
	memcpy(&k.flag_id, in + 15, 8);
	return k;
}

static int fifo_key_cmp(const struct fifo_key *x, const struct fifo_key *y)
{
	const uint64_t a[] = { x->pid, x->producer, x->run, x->consumer, x->has_flag_id, x->flag_id };
	const uint64_t b[] = { y->pid, y->producer, y->run, y->consumer, y->has_flag_id, y->flag_id };

	for (size_t i = 0; i < sizeof(a) / sizeof(*a); i++)
		if (a[i] != b[i])
			return a[i] < b[i] ? -1 : 1;
	return 0;
}

/* Group ids sorted by their key: qsort's context-free comparator needs the keys beside them. */
struct group_rank {
	struct fifo_key key;
	uint32_t group;
};

static int group_rank_cmp(const void *a, const void *b)
{
	const struct group_rank *x = a, *y = b;

	return fifo_key_cmp(&x->key, &y->key);
}

/*
 * Ranks the interned groups by key: rank[group] is its place. Few groups
 * (cores x pipe pairs x flag ids), so a comparison sort of them is cheap.
 */
static uint32_t *rank_groups(const struct csim_strtab *groups)
{
	struct group_rank *gr = csim_array_alloc(groups->count, sizeof(*gr));
	uint32_t *rank = csim_array_alloc(groups->count, sizeof(*rank));

	if (gr == NULL || rank == NULL) {
		free(gr);
		free(rank);
		return NULL;
	}
	for (uint32_t g = 0; g < groups->count; g++) {
		size_t len;

		gr[g] = (struct group_rank){ fifo_key_get(csim_strtab_get(groups, g, &len)), g };
	}
	qsort(gr, groups->count, sizeof(*gr), group_rank_cmp);
	for (uint32_t r = 0; r < groups->count; r++)
		rank[gr[r].group] = r;
	free(gr);
	return rank;
}

/*
 * Id-less flags match FIFO per key: groups in key order, in each the SETs
 * then the WAITs, each by begin (input order on ties). Groups are interned
 * and counted into place (csim_dense_order) rather than sorting every flag:
 * a qsort of 40-byte keys took 0.27 s on the dense-heavy shape's 1.2 M
 * flags. -1 when out of memory.
 */
static int match_by_key(struct flag_work *w)
{
	const struct csim_table *t = &w->m->table;
	struct csim_strtab groups;
	uint32_t *rank = NULL, *start = NULL;
	size_t n = 0;
	int identity = 1, rc = -1;

	csim_strtab_init(&groups, CSIM_STRTAB_GROUPED);
	for (uint32_t i = 0; i < w->nflags; i++) {
		const struct csim_flag *f = &w->flags[i];
		const struct csim_sync_detail *d;
		char key[FIFO_KEY_BYTES];

		if (f->id != CSIM_NONE || f->intra || f->detail == CSIM_NONE) {
			if (f->id == CSIM_NONE && !f->intra)
				w->m->flag_skips[CSIM_FSKIP_NO_KEY]++;
			/* from here on positions are no flag indices: written out
			   (while every flag has a key, w->src is not touched) */
			for (size_t k = identity ? 0 : n; k < n; k++)
				w->src[k] = (uint32_t)k;
			identity = 0;
			continue;   /* cross-core: pass_intra */
		}
		d = &t->details[f->detail];
		fifo_key_put(&(struct fifo_key){ f->pid, d->producer, d->consumer, f->run,
						 d->has_flag_id, d->flag_id }, key);
		if (csim_strtab_intern(&groups, key, sizeof(key), &w->keys[n]) != 0)
			goto out;
		if (!identity)
			w->src[n] = i;
		n++;
	}
	rank = rank_groups(&groups);
	start = csim_array_alloc(groups.count + 1, sizeof(*start));
	if (rank == NULL || start == NULL)
		goto out;
	for (size_t i = 0; i < n; i++)
		w->keys[i] = rank[w->keys[i]];
	csim_dense_order(w->keys, n, groups.count, w->order, start);
	for (size_t g = 0; g < groups.count; g++) {
		uint32_t *idx = w->keys + start[g];
		size_t len = start[g + 1] - start[g], nset = 0, k = 0;

		/* SETs first, each part in input order (the positions are ascending). */
		for (size_t i = start[g]; i < start[g + 1]; i++) {
			uint32_t f = identity ? w->order[i] : w->src[w->order[i]];

			if (w->flags[f].kind == CSIM_SYNC_SET)
				idx[nset++] = f;
		}
		for (size_t i = start[g]; i < start[g + 1]; i++) {
			uint32_t f = identity ? w->order[i] : w->src[w->order[i]];

			if (w->flags[f].kind != CSIM_SYNC_SET)
				idx[nset + k++] = f;
		}
		sort_by_begin(w, idx, nset);
		sort_by_begin(w, idx + nset, len - nset);
		if (match_sets(w, idx, nset, idx + nset, len - nset) != 0)
			goto out;
	}
	rc = 0;
out:
	csim_strtab_release(&groups);
	free(rank);
	free(start);
	return rc;
}

static int match_set_wait(struct flag_work *w)
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
		if (match_sets(w, sets, nset, waits, nwait) != 0)
			return -1;
	}
	return match_by_key(w);
}

static int too_many_ids(const struct csim_table *t, struct csim_error *err)
{
	return csim_error_set(err, CSIM_E_INPUT, CSIM_NO_OFFSET,
			      "too many distinct sync flag ids (%zu)", t->ids.count);
}

/*
 * The scratch both passes group and sort with: n positions, group bounds
 * for nkeys keys and, for comparison sorts (the flags pass), n items.
 * Returns -1 when out of memory (what was allocated is freed by work_free).
 */
static int work_alloc(struct flag_work *w, size_t n, size_t nkeys, int with_items)
{
	w->items = with_items ? csim_array_alloc(n, sizeof(*w->items)) : NULL;
	w->src = csim_array_alloc(n, sizeof(*w->src));
	w->keys = csim_array_alloc(n, sizeof(*w->keys));
	w->order = csim_array_alloc(n, sizeof(*w->order));
	w->start = csim_array_alloc(nkeys + 1, sizeof(*w->start));
	return (w->items != NULL || !with_items) && w->src != NULL && w->keys != NULL &&
	       w->order != NULL && w->start != NULL ? 0 : -1;
}

/* Frees the scratch; again, nothing. */
static void work_free(struct flag_work *w)
{
	free(w->items);
	free(w->src);
	free(w->keys);
	free(w->order);
	free(w->start);
	w->items = NULL;
	w->src = w->keys = w->order = w->start = NULL;
	csim_anchor_index_release(&w->anchors);
}

int csim_pass_pair(struct csim_model *m, struct csim_error *err)
{
	const struct csim_table *t = &m->table;
	size_t nrec = t->nsyncs ? t->nsyncs : 1, cap_flags;
	struct flag_work w;
	int rc = CSIM_OK;

	memset(&w, 0, sizeof(w));
	w.m = m;
	if (t->ids.count >= UINT32_MAX / 2)   /* keys are id * 2 + kind */
		return too_many_ids(t, err);
	m->flag_skips[CSIM_FSKIP_INCOMPLETE] = 0;
	free(m->flags);
	m->nflags = 0;
	/* A flag takes a B and an E record; an id-less B takes one until its
	   E is met, so a run of Bs alone may need more (grown then). */
	cap_flags = nrec / 2 + 1;
	m->flags = w.flags = csim_array_alloc(cap_flags, sizeof(*w.flags));
	if (work_alloc(&w, nrec, 2 * t->ids.count, 0) != 0 || w.flags == NULL) {
		rc = csim_error_nomem(err, CSIM_E_INPUT);
		goto out;
	}
	if (pair_begin_end(&w, &cap_flags) != 0) {
		rc = csim_error_nomem(err, CSIM_E_INPUT);
		goto out;
	}
	/* Flag index order is input order from here on: ties sort by it. */
	if (!is_sorted(w.flags, w.nflags, sizeof(*w.flags), flag_order_cmp))
		order_flags(&w, t->nsyncs);
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
	if (work_alloc(&w, n, 2 * t->ids.count, 1) != 0 || m->arrows == NULL || m->deps == NULL ||
	    m->unreleased == NULL ||
	    csim_anchor_index_build_by_core(&w.anchors, m) != 0) {
		rc = csim_error_nomem(err, CSIM_E_INPUT);
		goto out;
	}
	if (match_set_wait(&w) != 0) {
		rc = csim_error_nomem(err, CSIM_E_INPUT);
		goto out;
	}
	/* The scratch goes first: the sort takes some of its own (glibc sorts
	   records past 32 bytes through pointers, 16 bytes an arrow). */
	work_free(&w);
	if (!is_sorted(m->arrows, m->narrows, sizeof(*m->arrows), csim_anchor_arrow_cmp))
		qsort(m->arrows, m->narrows, sizeof(*m->arrows), csim_anchor_arrow_cmp);
out:
	work_free(&w);
	return rc;
}
