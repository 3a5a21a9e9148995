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
#include "model/pass_pair.h"
#include "model/sort_nearly.h"

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
	struct key_item *items;   /* scratch for comparison sorts, one per flag */
	uint32_t *src;            /* scratch for dense grouping, one per flag */
	uint32_t *keys;
	uint32_t *order;
	uint32_t *start;          /* group bounds, 2 * ids + 1 */
	struct csim_flag *flags;  /* the model's */
	size_t nflags;
	struct csim_anchor_index anchors;
};

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
		m->deps[m->ndeps++] = (struct csim_dep){
			.producer = a->producer, .consumer = a->consumer, .release = wait->end,
			.producer_pipe = prod_pipe, .consumer_pipe = cons_pipe,
			.running = a->running, .blocked = csim_flag_blocked(set, wait),
			.wait_ns = csim_flag_wait_ns(wait) };
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
	csim_dense_group(w->keys, w->src, n, 2 * nids, w->order, w->start);
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

/*
 * The scratch the matching groups and sorts with: n positions and items,
 * group bounds for nkeys keys. Returns -1 when out of memory (what was
 * allocated is freed by work_free).
 */
static int work_alloc(struct flag_work *w, size_t n, size_t nkeys)
{
	w->items = csim_array_alloc(n, sizeof(*w->items));
	w->src = csim_array_alloc(n, sizeof(*w->src));
	w->keys = csim_array_alloc(n, sizeof(*w->keys));
	w->order = csim_array_alloc(n, sizeof(*w->order));
	w->start = csim_array_alloc(nkeys + 1, sizeof(*w->start));
	return w->items != NULL && w->src != NULL && w->keys != NULL && w->order != NULL &&
	       w->start != NULL ? 0 : -1;
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
	rc = csim_flag_keys_check(t, err);
	if (rc != CSIM_OK)
		return rc;
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
	if (work_alloc(&w, n, 2 * t->ids.count) != 0 || m->arrows == NULL || m->deps == NULL ||
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
	if (!csim_is_sorted(m->arrows, m->narrows, sizeof(*m->arrows), csim_anchor_arrow_cmp))
		qsort(m->arrows, m->narrows, sizeof(*m->arrows), csim_anchor_arrow_cmp);
out:
	work_free(&w);
	return rc;
}
