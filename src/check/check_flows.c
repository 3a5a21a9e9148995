#include "check/check_flows.h"

#include <stdlib.h>

static int cmp_i64(int64_t a, int64_t b) { return (a > b) - (a < b); }
static int cmp_u64(uint64_t a, uint64_t b) { return (a > b) - (a < b); }
static int cmp_u32(uint32_t a, uint32_t b) { return (a > b) - (a < b); }

static int cmp_id(const void *pa, const void *pb)
{
	const struct csim_check_flow *a = pa, *b = pb;
	int c = cmp_i64(a->id, b->id);

	return c != 0 ? c : cmp_u64(a->index, b->index);
}

static int key_cmp(const struct csim_check_flow *a, const struct csim_check_flow *b)
{
	int c = cmp_i64(a->id, b->id);

	if (c == 0)
		c = cmp_u32(a->cat, b->cat);
	return c != 0 ? c : cmp_u32(a->name, b->name);
}

static int cmp_key(const void *pa, const void *pb)
{
	const struct csim_check_flow *a = pa, *b = pb;
	int c = key_cmp(a, b);

	return c != 0 ? c : cmp_u64(a->index, b->index);
}

static void sort_flows(struct csim_check_flows *f, int (*cmp)(const void *, const void *))
{
	if (f->n > 1)
		qsort(f->v, f->n, sizeof(*f->v), cmp);
}

static void duplicates(struct csim_check_state *st)
{
	const struct csim_check_flow *s = st->starts.v;

	sort_flows(&st->starts, cmp_id);
	for (size_t i = 1; i < st->starts.n; i++)
		if (s[i].id == s[i - 1].id)
			csim_check_violation(&st->rep, "flow-duplicate",
					     "s events #%llu and #%llu share id %lld: Perfetto ignores "
					     "the second and draws its arrow from the first",
					     (unsigned long long)s[i - 1].index,
					     (unsigned long long)s[i].index, (long long)s[i].id);
}

static void unpaired(struct csim_check_state *st, const struct csim_check_flow *f,
		     size_t n, const char *ph, const char *missing)
{
	for (size_t i = 0; i < n; i++)
		csim_check_violation(&st->rep, "flow-pair",
				     "%s event #%llu (id %lld, cat \"%.64s\", name \"%.64s\") has no %s "
				     "with the same id, cat and name: neither viewer draws the arrow",
				     ph, (unsigned long long)f[i].index, (long long)f[i].id,
				     csim_check_ids_name_text(&st->ids, f[i].cat),
				     csim_check_ids_name_text(&st->ids, f[i].name), missing);
}

/* The viewers process equal timestamps (on the ns grid) in file order. */
static void order(struct csim_check_state *st, const struct csim_check_flow *s,
		  const struct csim_check_flow *f)
{
	char a[48], b[48];

	if (s->ts < f->ts && s->ns < f->ns)
		return;
	if (s->ts <= f->ts && s->index < f->index)
		return;
	csim_check_violation(&st->rep, "flow-order",
			     "id %lld: s event #%llu (ts %s us) is not before its f event #%llu (ts %s us)%s: "
			     "both viewers drop an f whose s they have not seen yet, so the arrow is not drawn",
			     (long long)s->id, (unsigned long long)s->index,
			     csim_check_us_text(s->ts, a, sizeof(a)), (unsigned long long)f->index,
			     csim_check_us_text(f->ts, b, sizeof(b)),
			     s->ns == f->ns ? " (one ns on the viewers' grid, where file order decides, "
					      "and the f comes first)" : "");
}

/* One (id, cat, name) group: ns s events and nf f events. */
static void group(struct csim_check_state *st, const struct csim_check_flow *s, size_t ns,
		  const struct csim_check_flow *f, size_t nf)
{
	if (ns == 0) {
		unpaired(st, f, nf, "f", "s");
	} else if (nf == 0) {
		unpaired(st, s, ns, "s", "f");
	} else if (nf > 1) {
		csim_check_violation(&st->rep, "flow-pair",
				     "id %lld (cat \"%.64s\", name \"%.64s\") has %zu f events (first #%llu, "
				     "second #%llu): Perfetto draws an arrow to each, chrome://tracing only to the first",
				     (long long)f->id, csim_check_ids_name_text(&st->ids, f->cat),
				     csim_check_ids_name_text(&st->ids, f->name), nf,
				     (unsigned long long)f[0].index, (unsigned long long)f[1].index);
	} else if (ns == 1) {
		order(st, s, f);
	}
	/* ns > 1 with one f: flow-duplicate has said it. */
}

static size_t group_end(const struct csim_check_flow *v, size_t i, size_t n,
			const struct csim_check_flow *key)
{
	while (i < n && key_cmp(&v[i], key) == 0)
		i++;
	return i;
}

void csim_check_flows(struct csim_check_state *st)
{
	const struct csim_check_flow *s = st->starts.v, *f = st->ends.v;
	size_t ns = st->starts.n, nf = st->ends.n, i = 0, j = 0;

	duplicates(st);
	sort_flows(&st->starts, cmp_key);
	sort_flows(&st->ends, cmp_key);
	/* A merge walk over both, sorted by (id, cat, name). */
	while (i < ns || j < nf) {
		int c = i == ns ? 1 : j == nf ? -1 : key_cmp(&s[i], &f[j]);
		const struct csim_check_flow *key = c <= 0 ? &s[i] : &f[j];
		size_t i2 = c <= 0 ? group_end(s, i, ns, key) : i;
		size_t j2 = c >= 0 ? group_end(f, j, nf, key) : j;

		/* An empty side may be a NULL array: no arithmetic on it. */
		group(st, i2 > i ? s + i : NULL, i2 - i, j2 > j ? f + j : NULL, j2 - j);
		i = i2;
		j = j2;
	}
}
