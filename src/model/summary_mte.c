#include "model/summary_mte.h"

#include <stdlib.h>
#include <string.h>

#include "base/array_grow.h"

/*
 * bytes * part / whole (part <= whole) rounded half up, in integers. A
 * slice longer than 2^31 ns (2 s) is scaled down first, so 2 * r * part
 * cannot overflow; nothing a simulator runs comes near it.
 */
static uint64_t prorate(uint64_t bytes, uint64_t part, uint64_t whole)
{
	uint64_t q, r;

	while (whole > (UINT64_C(1) << 31)) {
		whole >>= 1;
		part >>= 1;
	}
	q = bytes / whole;
	r = bytes % whole;
	return q * part + (2 * r * part + whole) / (2 * whole);
}

uint64_t csim_mte_window_bytes(const struct csim_window *w, const struct csim_slice *sl,
			       uint64_t bytes)
{
	int64_t whole = sl->end - sl->start;
	int64_t part = csim_window_clamp(w, sl->end) - csim_window_clamp(w, sl->start);

	if (whole <= 0 || part >= whole)
		return bytes;
	return prorate(bytes, (uint64_t)part, (uint64_t)whole);
}

static int name_is(const struct csim_model *m, uint32_t pipe, const char *name)
{
	size_t n;
	const char *p = csim_strtab_get(&m->table.pipes, pipe, &n);

	return n == strlen(name) && memcmp(p, name, n) == 0;
}

enum csim_overlap_role csim_overlap_role(const struct csim_model *m, uint32_t pipe)
{
	if (name_is(m, pipe, "MTE1") || name_is(m, pipe, "MTE2") || name_is(m, pipe, "MTE3"))
		return CSIM_OVERLAP_MTE;
	if (m->pipes[pipe].info->vector_family || name_is(m, pipe, "CUBE") ||
	    name_is(m, pipe, "FIXP"))
		return CSIM_OVERLAP_COMPUTE;
	return CSIM_OVERLAP_NONE;
}

static int push(struct csim_interval **v, size_t *nv, size_t *cap, size_t rec,
		int64_t start, int64_t end)
{
	if (*nv == *cap && csim_array_grow((void **)v, cap, *nv + 1, sizeof(**v)) != 0)
		return -1;
	(*v)[(*nv)++] = (struct csim_interval){ rec, 0, start, end };
	return 0;
}

/* Appends [s, e) to the sorted, disjoint runs v[0..*n), joining a run it
   touches or overlaps. */
static void join_run(struct csim_interval *v, size_t *n, const struct csim_interval *r)
{
	if (*n > 0 && r->start <= v[*n - 1].end) {
		if (r->end > v[*n - 1].end)
			v[*n - 1].end = r->end;
		return;
	}
	v[(*n)++] = *r;
}

/*
 * The compute runs so far (compute[0..before)) and a new pipe's
 * (compute[before..ncompute)), each sorted and disjoint, merged into one
 * such list: a linear merge per compute pipe, not a sort of them all.
 */
static int merge_compute(struct csim_overlap *o, size_t before)
{
	size_t i = 0, j = before, n = 0;

	if (before == 0)
		return 0;
	if (csim_array_grow((void **)&o->tmp, &o->tmp_cap, o->ncompute, sizeof(*o->tmp)) != 0)
		return -1;
	while (i < before || j < o->ncompute) {
		int first = j == o->ncompute ||
			    (i < before && o->compute[i].start <= o->compute[j].start);

		join_run(o->tmp, &n, first ? &o->compute[i++] : &o->compute[j++]);
	}
	memcpy(o->compute, o->tmp, n * sizeof(*o->tmp));
	o->ncompute = n;
	return 0;
}

int csim_overlap_add(struct csim_overlap *o, enum csim_overlap_role role, size_t rec,
		     const struct csim_interval *it, size_t n)
{
	struct csim_interval **v = role == CSIM_OVERLAP_MTE ? &o->mte : &o->compute;
	size_t *nv = role == CSIM_OVERLAP_MTE ? &o->nmte : &o->ncompute;
	size_t *cap = role == CSIM_OVERLAP_MTE ? &o->mte_cap : &o->compute_cap;
	size_t before = o->ncompute;
	int64_t s = 0, e = 0;

	if (role == CSIM_OVERLAP_NONE)
		return 0;
	/* Runs of busy time, as the busy union counts it: a touching or
	   overlapping interval extends the run; an empty one adds nothing. */
	for (size_t i = 0; i < n; i++) {
		if (it[i].end <= it[i].start)
			continue;
		if (e > s && it[i].start <= e) {
			if (it[i].end > e)
				e = it[i].end;
			continue;
		}
		if (e > s && push(v, nv, cap, rec, s, e) != 0)
			return -1;
		s = it[i].start;
		e = it[i].end;
	}
	if (e > s && push(v, nv, cap, rec, s, e) != 0)
		return -1;
	return role == CSIM_OVERLAP_COMPUTE ? merge_compute(o, before) : 0;
}

void csim_overlap_finish_core(struct csim_overlap *o, struct csim_summary_pipe *recs)
{
	size_t nc = o->ncompute, c = 0;

	/* Each MTE pipe's runs are sorted and disjoint, as are the compute
	   runs: one walk of both per pipe. */
	for (size_t i = 0; i < o->nmte; i++) {
		const struct csim_interval *r = &o->mte[i];
		struct csim_summary_pipe *p = &recs[r->group];

		if (i == 0 || r->group != o->mte[i - 1].group)
			c = 0;
		p->has_overlap = 1;
		while (c < nc && o->compute[c].end <= r->start)
			c++;
		for (size_t k = c; k < nc && o->compute[k].start < r->end; k++) {
			int64_t lo = r->start > o->compute[k].start ? r->start : o->compute[k].start;
			int64_t hi = r->end < o->compute[k].end ? r->end : o->compute[k].end;

			p->overlap_ns += hi - lo;
		}
	}
	o->nmte = o->ncompute = 0;
}

void csim_overlap_release(struct csim_overlap *o)
{
	free(o->mte);
	free(o->compute);
	free(o->tmp);
	memset(o, 0, sizeof(*o));
}
