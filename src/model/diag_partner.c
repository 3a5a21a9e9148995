/*
 * Cross-core arrows are few (one per cube/vector hand-over), so one sort of
 * (waiting pid, setting pid, setting pipe) keys groups them; each waiting
 * pid's run of keys then gives its most frequent partner.
 */
#include "model/diag_partner.h"

#include <stdlib.h>

#include "base/array_grow.h"

struct key {
	uint32_t waiter, pid, pipe;
};

static int key_cmp(const void *a, const void *b)
{
	const struct key *x = a, *y = b;

	if (x->waiter != y->waiter)
		return x->waiter < y->waiter ? -1 : 1;
	if (x->pid != y->pid)
		return x->pid < y->pid ? -1 : 1;
	return x->pipe < y->pipe ? -1 : x->pipe > y->pipe;
}

/* The keys of one waiter, keys[0, n): the longest run of one partner wins. */
static void pick(struct csim_diag_partner *p, const struct key *keys, size_t n)
{
	p->waits = n;
	for (size_t i = 0; i < n;) {
		size_t j = i + 1;

		while (j < n && keys[j].pid == keys[i].pid && keys[j].pipe == keys[i].pipe)
			j++;
		if (j - i > p->count) {
			p->pid = keys[i].pid;
			p->pipe = keys[i].pipe;
			p->count = j - i;
		}
		i = j;
	}
}

int csim_diag_partner_find(const struct csim_model *m, struct csim_diag_partner **out,
			   struct csim_error *err)
{
	const size_t npids = m->table.pids.count, n = m->nintra_arrows;
	struct csim_diag_partner *p = NULL;
	struct key *keys = NULL;

	*out = NULL;
	if (n == 0)
		return CSIM_OK;
	keys = csim_array_alloc(n, sizeof(*keys));
	p = calloc(npids, sizeof(*p));
	if (keys == NULL || p == NULL) {
		free(keys);
		free(p);
		return csim_error_nomem(err, CSIM_E_INPUT);
	}
	for (size_t i = 0; i < n; i++) {
		const struct csim_arrow *a = &m->intra_arrows[i];

		keys[i] = (struct key){ m->table.slices[a->consumer].pid,
					m->table.slices[a->producer].pid, a->producer_pipe };
	}
	qsort(keys, n, sizeof(*keys), key_cmp);
	for (size_t i = 0; i < npids; i++)
		p[i] = (struct csim_diag_partner){ CSIM_NONE, CSIM_NONE, 0, 0 };
	for (size_t i = 0; i < n;) {
		size_t j = i + 1;

		while (j < n && keys[j].waiter == keys[i].waiter)
			j++;
		pick(&p[keys[i].waiter], keys + i, j - i);
		i = j;
	}
	free(keys);
	*out = p;
	return CSIM_OK;
}
