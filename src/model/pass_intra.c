/*
 * Cross-core records are few (one pair per cube/vector hand-over), so they
 * are matched with one comparison sort by (id, SET/WAIT, begin, input
 * order) instead of the flag pass's grouping by interned id.
 */
#include "model/pass_intra.h"

#include <stdlib.h>
#include <string.h>

#include "base/array_grow.h"
#include "model/anchor_index.h"

const struct csim_pass_def csim_pass_intra_def = {
	csim_pass_intra, CSIM_PART_FLAGS | CSIM_PART_PIPES | CSIM_PART_KEPT,
	CSIM_PART_INTRA
};

struct intra_item {
	uint32_t id;
	uint8_t kind;
	int64_t begin;
	uint32_t flag;       /* index in flags[]: input order */
};

static int item_cmp(const void *a, const void *b)
{
	const struct intra_item *x = a, *y = b;

	if (x->id != y->id)
		return x->id < y->id ? -1 : 1;
	if (x->kind != y->kind)
		return x->kind < y->kind ? -1 : 1;
	if (x->begin != y->begin)
		return x->begin < y->begin ? -1 : 1;
	return x->flag < y->flag ? -1 : x->flag > y->flag;
}

static const struct csim_sync_detail *detail_of(const struct csim_model *m,
						const struct csim_flag *f)
{
	return f->detail != CSIM_NONE ? &m->table.details[f->detail] : NULL;
}

/* The pipe a record names: its detail's PIPE:, else its tid. */
static uint32_t named_pipe(const struct csim_model *m, const struct csim_flag *f)
{
	const struct csim_sync_detail *d = detail_of(m, f);

	return d != NULL && d->producer != CSIM_NONE ? d->producer : f->pipe;
}

/*
 * Anchors one SET -> WAIT pair; -1 when drawn, else the skip reason. The
 * producer is the slice completed by the SET's end, the release (SPEC
 * §13): newer producers write SET_INTRA_BLOCK's B when the scalar unit
 * issues it, before the pipe it names has finished, older ones at that
 * pipe's end; the E follows the pipe's end under both.
 */
static int anchor_pair(struct csim_model *m, const struct csim_anchor_index *ix,
		       const struct csim_flag *set, const struct csim_flag *wait)
{
	struct csim_arrow *a = &m->intra_arrows[m->nintra_arrows];
	const struct csim_sync_detail *sd = detail_of(m, set);
	const struct csim_sync_detail *wd = detail_of(m, wait);
	uint32_t prod_pipe = named_pipe(m, set), cons_pipe = named_pipe(m, wait);
	int why = csim_anchor_index_link(ix,
		(struct csim_anchor_query){ set->pid, prod_pipe, set->run,
					    set->end, (double)set->end },
		(struct csim_anchor_query){ wait->pid, cons_pipe, wait->run, wait->end,
					    0.0 }, a);

	/* a dependency whenever both ends anchor; an arrow on kept lanes only */
	if (why < 0)
		m->intra_sets[m->nintra_deps] = (struct csim_intra_set){ csim_flag_begin(set),
			set->end, sd != NULL && sd->has_flag_id ? sd->flag_id : UINT64_MAX,
			(uint32_t)m->nintra_deps };
	if (why < 0)
		m->intra_deps[m->nintra_deps++] = (struct csim_dep){
			.producer = a->producer, .consumer = a->consumer, .release = wait->end,
			.producer_pipe = prod_pipe, .consumer_pipe = cons_pipe,
			.running = a->running, .blocked = 0,   /* find_releases() */
			.wait_ns = csim_flag_wait_ns(wait) };
	if (m->pipes[prod_pipe].drop >= 0)
		return CSIM_FSKIP_PRODUCER_DROPPED;
	if (m->pipes[cons_pipe].drop >= 0)
		return CSIM_FSKIP_CONSUMER_DROPPED;
	if (why >= 0)
		return why;
	m->nintra_arrows++;
	m->intra_running += a->running;
	/* The SET's sync_id names the arrow; the WAIT's stands in for it. */
	if (sd == NULL || !sd->has_flag_id)
		sd = wd;
	a->has_flag_id = sd != NULL && sd->has_flag_id;
	a->flag_id = a->has_flag_id ? sd->flag_id : 0;
	a->set_begin = csim_flag_begin(set);
	a->set_order = set->order;
	return -1;
}

/* One id's records, SETs first, each part by begin: the i-th SET takes the i-th WAIT. */
static void match_id(struct csim_model *m, const struct csim_anchor_index *ix,
		     const struct intra_item *it, size_t n)
{
	size_t nset = 0, nwait;

	while (nset < n && it[nset].kind == CSIM_SYNC_SET)
		nset++;
	nwait = n - nset;
	for (size_t i = 0; i < nset && i < nwait; i++) {
		int why = anchor_pair(m, ix, &m->flags[it[i].flag],
				      &m->flags[it[nset + i].flag]);

		if (why >= 0)
			m->intra_skips[why]++;
	}
	if (nset > nwait)
		m->intra_skips[CSIM_FSKIP_NO_WAIT] += nset - nwait;
	else
		m->intra_skips[CSIM_FSKIP_NO_SET] += nwait - nset;
	for (size_t i = nset + nset; i < n; i++)   /* WAITs beyond the SETs: none released them */
		csim_unreleased_add(m->intra_unreleased, &m->flags[it[i].flag]);
}

static size_t count_keyed(const struct csim_model *m)
{
	size_t n = 0;

	for (size_t i = 0; i < m->nflags; i++)
		n += m->flags[i].intra && m->flags[i].id != CSIM_NONE;
	return n;
}

/*
 * The cross-core flags that carry an id, into items (NULL when none does);
 * those without one are counted: the SPEC pairs them by id only.
 */
static void collect(struct csim_model *m, struct intra_item *items)
{
	size_t n = 0;

	for (uint32_t i = 0; i < m->nflags; i++) {
		const struct csim_flag *f = &m->flags[i];

		if (!f->intra)
			continue;
		if (f->id == CSIM_NONE)
			m->intra_skips[CSIM_FSKIP_NO_KEY]++;
		else
			items[n++] = (struct intra_item){ f->id, f->kind, csim_flag_begin(f), i };
	}
}

/* Dependencies by (producer core, consumer core, sync flag, SET end, index). */
struct release_key {
	uint32_t from, to;
	uint64_t key;
	int64_t end;
	uint32_t dep;
};

static int release_cmp(const void *a, const void *b)
{
	const struct release_key *x = a, *y = b;

	if (x->from != y->from)
		return x->from < y->from ? -1 : 1;
	if (x->to != y->to)
		return x->to < y->to ? -1 : 1;
	if (x->key != y->key)
		return x->key < y->key ? -1 : 1;
	if (x->end != y->end)
		return x->end < y->end ? -1 : 1;
	return x->dep < y->dep ? -1 : x->dep > y->dep;
}

/*
 * Each dependency's releasing SET (struct csim_intra_set): the SET of its
 * group (same cores, same sync flag) that fired last by the WAIT's end,
 * when that is a later one than its own. -1 when out of memory.
 */
static int find_releases(struct csim_model *m)
{
	const struct csim_slice *sl = m->table.slices;
	size_t n = m->nintra_deps;
	struct release_key *k = csim_array_alloc(n + 1, sizeof(*k));

	if (k == NULL)
		return -1;
	for (uint32_t i = 0; i < n; i++)
		k[i] = (struct release_key){ sl[m->intra_deps[i].producer].pid,
			sl[m->intra_deps[i].consumer].pid, m->intra_sets[i].key,
			m->intra_sets[i].end, i };
	qsort(k, n, sizeof(*k), release_cmp);
	for (size_t g = 0, e; g < n; g = e) {
		for (e = g + 1; e < n && k[e].from == k[g].from && k[e].to == k[g].to &&
				k[e].key == k[g].key; e++)
			;
		if (k[g].key == UINT64_MAX)
			continue;
		for (size_t j = g; j < e; j++) {
			int64_t release = m->intra_deps[k[j].dep].release;
			size_t lo = g, hi = e;

			while (lo < hi) {   /* the first SET of the group ending after release */
				size_t mid = lo + (hi - lo) / 2;

				if (k[mid].end <= release)
					lo = mid + 1;
				else
					hi = mid;
			}
			if (lo > g && k[lo - 1].end > k[j].end)
				m->intra_sets[k[j].dep].release = k[lo - 1].dep;
		}
	}
	/* a WAIT blocked when the SET that released it fired after the WAIT
	   began (SPEC §13): one reached later held nothing, however long the
	   sync took to arrive */
	for (uint32_t i = 0; i < n; i++) {
		struct csim_dep *d = &m->intra_deps[i];

		d->blocked = m->intra_sets[m->intra_sets[i].release].end >
			     d->release - (int64_t)d->wait_ns;
	}
	free(k);
	return 0;
}

int csim_pass_intra(struct csim_model *m, struct csim_error *err)
{
	struct csim_anchor_index ix;
	struct intra_item *items = NULL;
	size_t n = count_keyed(m);
	int rc = CSIM_OK;

	memset(&ix, 0, sizeof(ix));
	memset(m->intra_skips, 0, sizeof(m->intra_skips));
	free(m->intra_arrows);
	m->intra_arrows = NULL;
	m->nintra_arrows = 0;
	free(m->intra_deps);
	m->intra_deps = NULL;
	free(m->intra_sets);
	m->intra_sets = NULL;
	m->nintra_deps = 0;
	m->intra_running = 0;
	free(m->intra_unreleased);
	m->intra_unreleased = NULL;
	if (n == 0) {   /* the usual case: no anchor index to build */
		collect(m, NULL);
		return CSIM_OK;
	}
	items = csim_array_alloc(n, sizeof(*items));
	/* An arrow takes a SET and a WAIT. */
	m->intra_arrows = csim_array_alloc(n / 2 + 1, sizeof(*m->intra_arrows));
	m->intra_deps = csim_array_alloc(n / 2 + 1, sizeof(*m->intra_deps));
	m->intra_sets = csim_array_alloc(n / 2 + 1, sizeof(*m->intra_sets));
	m->intra_unreleased = calloc(m->table.pids.count, sizeof(*m->intra_unreleased));
	if (items == NULL || m->intra_arrows == NULL || m->intra_deps == NULL ||
	    m->intra_sets == NULL || m->intra_unreleased == NULL ||
	    csim_anchor_index_build(&ix, m) != 0) {
		rc = csim_error_nomem(err, CSIM_E_INPUT);
		goto out;
	}
	collect(m, items);
	qsort(items, n, sizeof(*items), item_cmp);
	for (size_t i = 0; i < n;) {
		size_t j = i + 1;

		while (j < n && items[j].id == items[i].id)
			j++;
		match_id(m, &ix, items + i, j - i);
		i = j;
	}
	qsort(m->intra_arrows, m->nintra_arrows, sizeof(*m->intra_arrows),
	      csim_anchor_arrow_cmp);
	if (find_releases(m) != 0)
		rc = csim_error_nomem(err, CSIM_E_INPUT);
out:
	free(items);
	csim_anchor_index_release(&ix);
	return rc;
}
