/*
 * The pair pass: each flag from its B and E records. Records with an id
 * pair by (kind, id), grouped by a counting sort; those without pair LIFO
 * per (name, pid, pipe, run) in one sweep. The run is in every key, so
 * with --run all no flag pairs across runs, which restart at ts 0.
 */
#include "model/pass_pair.h"

#include <stdlib.h>
#include <string.h>

#include "base/array_grow.h"
#include "base/dense_order.h"
#include "model/sort_nearly.h"

const struct csim_pass_def csim_pass_pair_def = {
	csim_pass_pair, CSIM_PART_SYNCS, CSIM_PART_FLAGS
};

struct pair_work {
	struct csim_model *m;
	uint32_t *src;            /* record indices to group, one per record */
	uint32_t *keys;
	uint32_t *order;
	uint32_t *start;          /* group bounds, 2 * ids + 1 */
	struct csim_flag *flags;  /* the model's */
	size_t nflags;
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

static void add_flag(struct pair_work *w, const struct csim_sync_rec *b,
		     const struct csim_sync_rec *e, uint32_t order)
{
	struct csim_flag *f = &w->flags[w->nflags++];

	open_flag(f, b, order);
	close_flag(f, e);
}

/* Records sharing (kind, id), in input order: the i-th B pairs with the i-th E. */
static void pair_group_by_id(struct pair_work *w, const uint32_t *idx, size_t n)
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
static int pair_lifo(struct pair_work *w, size_t *cap_flags)
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

static int pair_begin_end(struct pair_work *w, size_t *cap_flags)
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
	csim_dense_group(w->keys, w->src, n, nkeys, w->order, w->start);
	for (size_t k = 0; k < nkeys; k++)
		pair_group_by_id(w, w->order + w->start[k], w->start[k + 1] - w->start[k]);
	return pair_lifo(w, cap_flags);
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
static void order_flags(struct pair_work *w, size_t nrec)
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

/* Returns -1 when out of memory (what was allocated is freed by work_free). */
static int work_alloc(struct pair_work *w, size_t n, size_t nkeys)
{
	w->src = csim_array_alloc(n, sizeof(*w->src));
	w->keys = csim_array_alloc(n, sizeof(*w->keys));
	w->order = csim_array_alloc(n, sizeof(*w->order));
	w->start = csim_array_alloc(nkeys + 1, sizeof(*w->start));
	return w->src != NULL && w->keys != NULL && w->order != NULL && w->start != NULL ? 0 : -1;
}

static void work_free(struct pair_work *w)
{
	free(w->src);
	free(w->keys);
	free(w->order);
	free(w->start);
}

int csim_pass_pair(struct csim_model *m, struct csim_error *err)
{
	const struct csim_table *t = &m->table;
	size_t nrec = t->nsyncs ? t->nsyncs : 1, cap_flags;
	struct pair_work w;
	int rc = CSIM_OK;

	memset(&w, 0, sizeof(w));
	w.m = m;
	rc = csim_flag_keys_check(t, err);
	if (rc != CSIM_OK)
		return rc;
	m->flag_skips[CSIM_FSKIP_INCOMPLETE] = 0;
	free(m->flags);
	m->nflags = 0;
	/* A flag takes a B and an E record; an id-less B takes one until its
	   E is met, so a run of Bs alone may need more (grown then). */
	cap_flags = nrec / 2 + 1;
	m->flags = w.flags = csim_array_alloc(cap_flags, sizeof(*w.flags));
	if (work_alloc(&w, nrec, 2 * t->ids.count) != 0 || w.flags == NULL) {
		rc = csim_error_nomem(err, CSIM_E_INPUT);
		goto out;
	}
	if (pair_begin_end(&w, &cap_flags) != 0) {
		rc = csim_error_nomem(err, CSIM_E_INPUT);
		goto out;
	}
	/* Flag index order is input order from here on: ties sort by it. */
	if (!csim_is_sorted(w.flags, w.nflags, sizeof(*w.flags), flag_order_cmp))
		order_flags(&w, t->nsyncs);
	m->nflags = w.nflags;
out:
	work_free(&w);
	return rc;
}

int csim_flag_keys_check(const struct csim_table *t, struct csim_error *err)
{
	if (t->ids.count < UINT32_MAX / 2)   /* keys are id * 2 + kind */
		return CSIM_OK;
	return csim_error_set(err, CSIM_E_INPUT, CSIM_NO_OFFSET,
			      "too many distinct sync flag ids (%zu)", t->ids.count);
}
