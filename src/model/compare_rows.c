#include "model/compare_rows.h"

#include <stdlib.h>
#include <string.h>

/* One key of a side: the sum of its rows' cycles. */
struct keyed {
	struct csim_span name;     /* mnemonic; NULL for a line */
	struct csim_span key;      /* the source line, or the address (by_address) */
	int by_address;
	int64_t cycles;
	const struct csim_result_instr *first;
};

static int span_cmp(struct csim_span a, struct csim_span b)
{
	const size_t n = a.n < b.n ? a.n : b.n;
	const int c = n > 0 ? memcmp(a.p, b.p, n) : 0;

	return c != 0 ? c : (a.n > b.n) - (a.n < b.n);
}

static int keyed_cmp(const void *x, const void *y)
{
	const struct keyed *a = x, *b = y;
	int c = span_cmp(a->name, b->name);

	if (c == 0)
		c = a->by_address - b->by_address;
	return c != 0 ? c : span_cmp(a->key, b->key);
}

/*
 * A side's keys, sorted and summed: instructions (lines 0) by mnemonic and
 * line or address, flag rows left out; lines (lines 1) by source, every
 * row with one. *n keys; NULL when out of memory.
 */
static struct keyed *keys_of(const struct csim_result_run *run, int lines, size_t *n)
{
	struct keyed *v = malloc((run->nall + 1) * sizeof(*v));
	size_t k = 0, out = 0;

	if (v == NULL)
		return NULL;
	for (size_t i = 0; i < run->nall; i++) {
		const struct csim_result_instr *in = &run->all[i];
		const int64_t cycles = in->cycles == CSIM_RESULT_NONE ? 0 : in->cycles;

		if (lines ? in->source.p == NULL : in->flag)
			continue;
		v[k++] = (struct keyed){
			.name = lines ? csim_span_of("", 0) : in->name,
			.key = lines || in->source.p != NULL ? in->source : in->address,
			.by_address = !lines && in->source.p == NULL,
			.cycles = cycles, .first = in
		};
	}
	qsort(v, k, sizeof(*v), keyed_cmp);
	for (size_t i = 0; i < k; i++) {
		if (out > 0 && keyed_cmp(&v[out - 1], &v[i]) == 0)
			v[out - 1].cycles += v[i].cycles;
		else
			v[out++] = v[i];
	}
	*n = out;
	return v;
}

static void add_item(struct csim_compare_item *items, size_t *n, const struct keyed *b,
		     const struct keyed *nw, int lines)
{
	const struct keyed *any = nw != NULL ? nw : b;
	struct csim_compare_item *it;

	if (b != NULL && nw != NULL && b->cycles == nw->cycles)
		return;   /* unchanged: not a difference */
	it = &items[(*n)++];
	memset(it, 0, sizeof(*it));
	it->name = lines ? csim_span_of(NULL, 0) : any->first->name;
	it->source = any->first->source;
	it->address = lines ? csim_span_of(NULL, 0) : any->first->address;
	it->cycles.base = b != NULL ? b->cycles : CSIM_RESULT_NONE;
	it->cycles.now = nw != NULL ? nw->cycles : CSIM_RESULT_NONE;
}

/* The two sides' keys merged into the changed items. */
static int merge(const struct csim_result_run *br, const struct csim_result_run *nr, int lines,
		 struct csim_compare_item **items, size_t *nitems)
{
	size_t nb = 0, nn = 0, i = 0, j = 0;
	struct keyed *b = keys_of(br, lines, &nb), *n = keys_of(nr, lines, &nn);
	int rc = -1;

	*items = calloc(nb + nn + 1, sizeof(**items));
	*nitems = 0;
	if (b == NULL || n == NULL || *items == NULL)
		goto out;
	while (i < nb || j < nn) {
		const int c = i == nb ? 1 : j == nn ? -1 : keyed_cmp(&b[i], &n[j]);

		if (c < 0)
			add_item(*items, nitems, &b[i++], NULL, lines);
		else if (c > 0)
			add_item(*items, nitems, NULL, &n[j++], lines);
		else
			add_item(*items, nitems, &b[i++], &n[j++], lines);
	}
	rc = 0;
out:
	free(b);
	free(n);
	return rc;
}

int csim_compare_rows(const struct csim_result_run *base, const struct csim_result_run *now,
		      struct csim_compare_item **instrs, size_t *ninstrs,
		      struct csim_compare_item **lines, size_t *nlines)
{
	if (merge(base, now, 0, instrs, ninstrs) != 0)
		return -1;
	return merge(base, now, 1, lines, nlines);
}
