/*
 * pftrace_recheck: flows and counters against the JSON. Each end of an
 * arrow (its "s" and "f" sharing an id) binds to the X slice of its thread
 * that holds its ts strictly inside; the pftrace carries the id in flow_ids
 * of the producer's slice and in terminating_flow_ids of the consumer's,
 * nowhere else, the producer first in Perfetto's event order. A counter
 * event's members are samples of the counter tracks "<name> <key>" of its
 * process, at the exact ns of its ts.
 */
#include "pftrace_recheck.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const struct ctx *sort_ctx;

/* ---- arrows ---- */

/* A thread's JSON slices by ts, with the latest end so far. */
struct tslices {
	size_t *ix, n, cap;
	double *reach;
};

static int by_ts(const void *a, const void *b)
{
	double x = sort_ctx->jslices[*(const size_t *)a].ts;
	double y = sort_ctx->jslices[*(const size_t *)b].ts;

	return x < y ? -1 : x > y;
}

static struct tslices *per_thread(const struct ctx *c)
{
	struct tslices *t = xalloc((c->nthreads + 1) * sizeof(*t));
	size_t i, k;

	for (i = 0; i < c->njslices; i++) {
		struct tslices *ts = c->jslices[i].thread != NONE ? &t[c->jslices[i].thread] : NULL;

		if (ts == NULL)
			continue;
		grow((void **)&ts->ix, &ts->cap, ts->n + 1, sizeof(*ts->ix));
		ts->ix[ts->n++] = i;
	}
	sort_ctx = c;
	for (i = 0; i < c->nthreads; i++) {
		qsort(t[i].ix, t[i].n, sizeof(*t[i].ix), by_ts);
		t[i].reach = xalloc((t[i].n + 1) * sizeof(*t[i].reach));
		for (k = 0; k < t[i].n; k++) {
			const struct jslice *s = &c->jslices[t[i].ix[k]];
			double end = s->ts + s->dur;

			t[i].reach[k] = k > 0 && t[i].reach[k - 1] > end ? t[i].reach[k - 1] : end;
		}
	}
	return t;
}

/* The one JSON slice of a's thread holding a's ts strictly inside. */
static size_t bound_slice(const struct ctx *c, const struct tslices *t, const struct jarrow *a)
{
	size_t lo = 0, hi = t->n, found = NONE, count = 0;

	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;

		if (c->jslices[t->ix[mid]].ts < a->ts)
			lo = mid + 1;
		else
			hi = mid;
	}
	while (lo-- > 0 && t->reach[lo] > a->ts) {
		const struct jslice *s = &c->jslices[t->ix[lo]];

		if (s->ts + s->dur > a->ts) {
			found = t->ix[lo];
			count++;
		}
	}
	if (count != 1) {
		problem("json", "line %zu: arrow %llu lies inside %zu slices of its thread, want 1",
			a->line, (unsigned long long)a->id, count);
		return NONE;
	}
	return found;
}

/* A flow id on a pftrace slice. */
struct flow {
	uint64_t id;
	size_t slice;
};

static int by_id(const void *a, const void *b)
{
	uint64_t x = ((const struct flow *)a)->id, y = ((const struct flow *)b)->id;

	return x < y ? -1 : x > y;
}

/* The pftrace's flow ids (terms: terminating_flow_ids), sorted by id. */
static struct flow *flows_of(const struct ctx *c, int terms, size_t *n)
{
	struct flow *f = NULL;
	size_t cap = 0, i, k;

	*n = 0;
	for (i = 0; i < c->nslices; i++) {
		const struct pevent *e = c->slices[i].ev;
		size_t m = terms ? e->nterms : e->nflows;

		for (k = 0; k < m; k++) {
			grow((void **)&f, &cap, *n + 1, sizeof(*f));
			f[*n].id = terms ? e->terms[k] : e->flows[k];
			f[(*n)++].slice = i;
		}
	}
	if (*n > 0)
		qsort(f, *n, sizeof(*f), by_id);
	return f;
}

static size_t lower(const struct flow *f, size_t n, uint64_t id)
{
	size_t lo = 0, hi = n;

	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;

		if (f[mid].id < id)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo;
}

static const char *where(const struct ctx *c, size_t slice)
{
	const struct pslice *s = &c->slices[slice];
	char buf[48];
	size_t p = c->tracks[s->track].proc;

	snprintf(buf, sizeof(buf), " at %lld ns on ", (long long)s->begin);
	return xcat("\"", s->ev->name ? s->ev->name : "?", "\"", buf,
		    p != NONE ? c->tracks[p].pname : "?", " / ", c->tracks[s->track].tname,
		    (const char *)NULL);
}

/* Arrow a's id is on exactly one slice of f, the one of JSON slice x. */
static void check_end_of(const struct ctx *c, const struct jarrow *a, size_t x,
			 const struct flow *f, size_t n, const char *field)
{
	size_t at = lower(f, n, a->id), k = at, want = c->jslices[x].match;

	while (k < n && f[k].id == a->id)
		k++;
	if (want == NONE)
		return; /* its slice is missing, reported */
	if (k - at != 1)
		problem("flow", "id %llu is in %s of %zu slices, want 1 (%s)",
			(unsigned long long)a->id, field, k - at, where(c, want));
	else if (f[at].slice != want)
		problem("flow", "id %llu is in %s of %s, want %s", (unsigned long long)a->id, field,
			where(c, f[at].slice), where(c, want));
}

static int by_arrow(const void *a, const void *b)
{
	uint64_t x = sort_ctx->arrows[*(const size_t *)a].id;
	uint64_t y = sort_ctx->arrows[*(const size_t *)b].id;

	return x < y ? -1 : x > y;
}

/* Is id one of the JSON's arrows (ix: arrow indices sorted by id)? */
static int json_has(const struct ctx *c, const size_t *ix, uint64_t id)
{
	size_t lo = 0, hi = c->narrows;

	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;

		if (c->arrows[ix[mid]].id < id)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo < c->narrows && c->arrows[ix[lo]].id == id;
}

/* Ids of the pftrace that no JSON arrow has. */
static void check_unknown(const struct ctx *c, const size_t *ix, const struct flow *f, size_t n,
			  const char *field)
{
	size_t i;

	for (i = 0; i < n; i++)
		if ((i == 0 || f[i].id != f[i - 1].id) && !json_has(c, ix, f[i].id))
			problem("flow", "id %llu in %s of %s is no JSON arrow",
				(unsigned long long)f[i].id, field, where(c, f[i].slice));
}

/* One end of an arrow whose id has one "s" and one "f": the pftrace slice
 * it binds to, or NONE. */
static size_t check_arrow_end(struct ctx *c, const struct tslices *t, const struct jarrow *a,
			      const struct flow *f, size_t nf, const struct flow *term, size_t nt)
{
	size_t x;

	if (a->thread == NONE || (x = bound_slice(c, &t[a->thread], a)) == NONE)
		return NONE;
	if (a->ph == 's')
		check_end_of(c, a, x, f, nf, "flow_ids");
	else
		check_end_of(c, a, x, term, nt, "terminating_flow_ids");
	return c->jslices[x].match;
}

/* Perfetto binds a flow's ends in its event order (time, then file
 * position) and drops a terminating id seen before its flow began. */
static void check_flow_order(const struct ctx *c, uint64_t id, size_t from, size_t to)
{
	const struct pslice *p = &c->slices[from], *q = &c->slices[to];

	if (p->begin > q->begin || (p->begin == q->begin && p->ev->packet > q->ev->packet))
		problem("flow", "id %llu: the consumer %s comes before the producer %s in Perfetto's "
			"order (time, then file position), which drops the flow",
			(unsigned long long)id, where(c, to), where(c, from));
}

void match_flows(struct ctx *c)
{
	struct tslices *t = per_thread(c);
	size_t nf, nt, i, j, *ix = xalloc((c->narrows + 1) * sizeof(*ix));
	struct flow *f = flows_of(c, 0, &nf), *term = flows_of(c, 1, &nt);

	for (i = 0; i < c->narrows; i++)
		ix[i] = i;
	sort_ctx = c;
	qsort(ix, c->narrows, sizeof(*ix), by_arrow);
	for (i = 0; i < c->narrows; i = j) {
		const struct jarrow *a, *b;
		size_t starts = 0, from, to;

		for (j = i; j < c->narrows && c->arrows[ix[j]].id == c->arrows[ix[i]].id; j++)
			starts += c->arrows[ix[j]].ph == 's';
		if (j - i != 2 || starts != 1) {
			problem("json", "line %zu: arrow %llu has %zu \"s\" and %zu \"f\", want 1 and 1",
				c->arrows[ix[i]].line, (unsigned long long)c->arrows[ix[i]].id, starts,
				j - i - starts);
			continue;
		}
		a = &c->arrows[ix[i]];
		b = &c->arrows[ix[i + 1]];
		from = check_arrow_end(c, t, a->ph == 's' ? a : b, f, nf, term, nt);
		to = check_arrow_end(c, t, a->ph == 's' ? b : a, f, nf, term, nt);
		if (from != NONE && to != NONE)
			check_flow_order(c, a->id, from, to);
		c->flows++;
	}
	check_unknown(c, ix, f, nf, "flow_ids");
	check_unknown(c, ix, term, nt, "terminating_flow_ids");
}

/* ---- counters ---- */

struct sample {
	const char *key; /* process, track, ts */
	double v;
	size_t ev;
	int used;
};

static const char *sample_key(const char *proc, const char *track, int64_t ts)
{
	char buf[32];

	snprintf(buf, sizeof(buf), "%lld", (long long)ts);
	return xcat(proc, "\x1f", track, "\x1f", buf, (const char *)NULL);
}

static struct sample *samples_of(struct ctx *c, size_t *n, struct smap *heads, size_t **next)
{
	struct sample *s = xalloc((c->nevents + 1) * sizeof(*s));
	size_t i;

	*n = 0;
	for (i = 0; i < c->nevents; i++) {
		const struct pevent *e = &c->events[i];
		const struct ptrack *t = e->track != NONE ? &c->tracks[e->track] : NULL;

		if (t == NULL || e->type != EV_COUNTER || t->proc == NONE || t->name == NULL)
			continue;
		if (!e->has_value)
			problem("counter", "packet %zu: a counter sample without double_counter_value",
				e->packet);
		s[*n].key = sample_key(c->tracks[t->proc].pname, t->name, e->ts);
		s[*n].v = e->value;
		s[(*n)++].ev = i;
	}
	*next = xalloc((*n + 1) * sizeof(**next));
	for (i = *n; i-- > 0;) {
		(*next)[i] = smap_get(heads, s[i].key);
		smap_set(heads, s[i].key, i);
	}
	return s;
}

/* The unused sample of the JSON counter k: equal, else any, else NONE. */
static size_t find_sample(const struct sample *s, const size_t *next, size_t i, double v)
{
	size_t any = NONE;

	for (; i != NONE; i = next[i]) {
		if (s[i].used)
			continue;
		if (s[i].v == v)
			return i;
		if (any == NONE)
			any = i;
	}
	return any;
}

void match_counters(struct ctx *c)
{
	struct smap heads = { NULL, NULL, 0, 0 };
	size_t n, i, *next, pass;
	struct sample *s = samples_of(c, &n, &heads, &next);

	/* Numbers first; then strings holding a number (Perfetto's JSON
	 * importer reads those too), whose sample is optional. */
	for (pass = 0; pass < 2; pass++) {
		for (i = 0; i < c->ncounters; i++) {
			const struct jcounter *k = &c->counters[i];
			size_t at;

			if (k->kind != (pass == 0 ? CV_NUMBER : CV_NUMSTR))
				continue;
			at = find_sample(s, next, smap_get(&heads, sample_key(k->proc, k->track, k->ts)),
					 k->v);
			if (at != NONE && (s[at].v == k->v || pass == 0))
				s[at].used = 1;
			if (at != NONE && s[at].v == k->v)
				c->samples++;
			else if (at != NONE && pass == 0)
				problem("counter", "line %zu: \"%s\" of %s at %lld ns is %.17g, JSON %.17g",
					k->line, k->track, k->proc, (long long)k->ts, s[at].v, k->v);
			else if (pass == 0)
				problem("counter", "line %zu: no sample of \"%s\" of %s at %lld ns",
					k->line, k->track, k->proc, (long long)k->ts);
		}
	}
	for (i = 0; i < n; i++)
		if (!s[i].used)
			problem("counter", "a sample of %.17g (packet %zu) is no JSON counter value",
				s[i].v, c->events[s[i].ev].packet);
}
