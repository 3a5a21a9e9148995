#include "model/path_top.h"

#include <stdlib.h>

#include "base/array_grow.h"
#include "base/strtab.h"

static int cmp_i64(int64_t a, int64_t b)
{
	return (a > b) - (a < b);
}

/* Time on the path of one instruction, first reached at `first`. */
struct csim_path_top_key {
	int64_t ns, busy, released;
	size_t first;
	uint32_t instr;
};

/* Largest first; ties: reached first (first is unique: a total order). */
static int top_cmp(const void *a, const void *b)
{
	const struct csim_path_top_key *x = a, *y = b;
	int c = cmp_i64(y->ns, x->ns);

	return c != 0 ? c : (x->first > y->first) - (x->first < y->first);
}

int csim_path_top_add(struct csim_path *p, const uint32_t *ids, struct csim_path_top_work *w,
		      struct csim_path_core *c)
{
	size_t k = 0, n;

	if (csim_array_grow((void **)&w->tkeys, &w->cap_tkeys, c->nseg + 1,
			    sizeof(*w->tkeys)) != 0)
		return -1;
	for (size_t i = c->seg0; i < c->seg0 + c->nseg; i++) {
		const struct csim_path_seg *s = &p->segs[i];
		int busy = s->kind == CSIM_SEG_BUSY;
		uint32_t id = busy ? ids[s->slice]
			      : (s->kind == CSIM_SEG_WAIT || s->kind == CSIM_SEG_CROSS) &&
				s->producer != CSIM_NONE ? ids[s->producer] : CSIM_NONE;
		struct csim_path_top_key *t;

		if (id == CSIM_NONE)
			continue;
		if (w->islot[id] == 0) {   /* 1 + the instruction's key, 0: none yet */
			w->tkeys[k] = (struct csim_path_top_key){ 0, 0, 0, k, id };
			w->islot[id] = (uint32_t)++k;
		}
		t = &w->tkeys[w->islot[id] - 1];
		t->ns += s->end - s->start;
		if (busy)
			t->busy += s->end - s->start;
		else
			t->released += s->end - s->start;
	}
	for (size_t i = 0; i < k; i++)
		w->islot[w->tkeys[i].instr] = 0;
	qsort(w->tkeys, k, sizeof(*w->tkeys), top_cmp);
	n = k < CSIM_PATH_TOP ? k : CSIM_PATH_TOP;
	if (csim_array_grow((void **)&p->top, &w->cap_top, p->ntop + n + 1, sizeof(*p->top)) != 0)
		return -1;
	c->top0 = p->ntop;
	c->ntop = n;
	for (size_t i = 0; i < n; i++)
		p->top[p->ntop++] = (struct csim_path_instr){ w->tkeys[i].instr, w->tkeys[i].ns,
			w->tkeys[i].busy, w->tkeys[i].released };
	return 0;
}

void csim_path_top_release(struct csim_path_top_work *w)
{
	free(w->tkeys);
	free(w->islot);
	w->tkeys = NULL;
	w->islot = NULL;
	w->cap_tkeys = w->cap_top = 0;
}
