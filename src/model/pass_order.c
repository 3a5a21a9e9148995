#include "model/pass_order.h"

#include <assert.h>
#include <stdlib.h>
#include <string.h>

const struct csim_pass_def csim_pass_order_def = {
	csim_pass_order, CSIM_PART_PIPES | CSIM_PART_LANES, CSIM_PART_ORDER
};

struct named {
	const char *name;
	size_t n;
	int rank;          /* primary key before the name */
	uint32_t id;
};

static int is_digit(char c)
{
	return c >= '0' && c <= '9';
}

/* Compares runs of digits by value, everything else byte by byte. */
static int natural_cmp(const char *a, size_t an, const char *b, size_t bn)
{
	size_t i = 0, j = 0;

	while (i < an && j < bn) {
		if (is_digit(a[i]) && is_digit(b[j])) {
			size_t i0, j0, li, lj;
			int c;

			while (i < an && a[i] == '0' && i + 1 < an && is_digit(a[i + 1]))
				i++;
			while (j < bn && b[j] == '0' && j + 1 < bn && is_digit(b[j + 1]))
				j++;
			i0 = i;
			j0 = j;
			while (i < an && is_digit(a[i]))
				i++;
			while (j < bn && is_digit(b[j]))
				j++;
			li = i - i0;
			lj = j - j0;
			if (li != lj)
				return li < lj ? -1 : 1;
			c = memcmp(a + i0, b + j0, li);
			if (c != 0)
				return c;
			continue;
		}
		if (a[i] != b[j])
			return (unsigned char)a[i] < (unsigned char)b[j] ? -1 : 1;
		i++;
		j++;
	}
	if (an - i != bn - j)
		return an - i < bn - j ? -1 : 1;
	/* Equal naturally ("core01" vs "core1"): fall back to the bytes. */
	if (an != bn)
		return an < bn ? -1 : 1;
	return memcmp(a, b, an);
}

static int named_cmp(const void *x, const void *y)
{
	const struct named *a = x, *b = y;
	int c;

	if (a->rank != b->rank)
		return a->rank < b->rank ? -1 : 1;
	c = natural_cmp(a->name, a->n, b->name, b->n);
	if (c != 0)
		return c;
	return a->id < b->id ? -1 : a->id > b->id;
}

/* Simulator cores are named core<N>.<kind>core<M>; anything else sorts after. */
static int is_core_pid(const char *name, size_t n)
{
	return n > 4 && memcmp(name, "core", 4) == 0 && is_digit(name[4]);
}

static int order_processes(struct csim_model *m, struct csim_error *err)
{
	const struct csim_table *t = &m->table;
	size_t npids = t->pids.count;
	unsigned char *used = calloc(npids ? npids : 1, 1);
	struct named *items = malloc((npids ? npids : 1) * sizeof(*items));
	size_t n = 0;
	int rc = CSIM_OK;

	free(m->processes);
	m->processes = malloc((npids ? npids : 1) * sizeof(*m->processes));
	if (used == NULL || items == NULL || m->processes == NULL) {
		rc = csim_error_nomem(err, CSIM_E_INPUT);
		goto out;
	}
	for (size_t i = 0; i < m->nlanes; i++)
		used[m->lanes[i].pid] = 1;
	for (size_t i = 0; i < t->ncounters; i++)
		used[t->counters[i].pid] = 1;
	for (uint32_t pid = 0; pid < npids; pid++) {
		const char *name = t->pid_names[pid];
		size_t len = strlen(name);

		if (used[pid])
			items[n++] = (struct named){ name, len,
						     is_core_pid(name, len) ? 0 : 1, pid };
	}
	qsort(items, n, sizeof(*items), named_cmp);
	for (size_t i = 0; i < n; i++)
		m->processes[i] = items[i].id;
	m->nprocesses = n;
out:
	free(used);
	free(items);
	return rc;
}

/*
 * The threads of one process's lanes, sorted: sub-lane k of a lane gets
 * sort index base + k. The base is order * 100 (SPEC §4), but never below
 * the previous lane's last index + 1, so lanes that share an order (WARP_n,
 * the pipes not in the table, a pipe's `<PIPE> cache` lane) or one with 100
 * sub-lanes or more never interleave: both viewers sort threads by index,
 * then by name. A lane never pushes the next order's base further than
 * its own sub-lanes need, so indices stay order * 100 + k (SPEC §6).
 */
static size_t add_threads(struct csim_model *m, const struct named *items, size_t n,
			  size_t k)
{
	long next = 0;   /* the first index the next lane may use */

	for (size_t i = 0; i < n; i++) {
		uint32_t nsub = m->lanes[items[i].id].nsub;
		long base = (long)items[i].rank * 100;

		if (base < next)
			base = next;
		for (uint32_t sub = 0; sub < nsub; sub++)
			m->threads[k++] = (struct csim_thread){ items[i].id, sub,
								(int)(base + sub) };
		next = base + (long)nsub;
	}
	return k;
}

/*
 * The lanes of each pid, in lane order: by_pid[start[pid] ..
 * start[pid + 1]) (a counting sort, so the threads' order costs the same
 * for 200 000 processes as for 10: each lane is visited once).
 */
static int lanes_by_pid(const struct csim_model *m, size_t npids, size_t **start_out,
			uint32_t **by_pid_out)
{
	size_t *start = calloc(npids + 1, sizeof(*start));
	uint32_t *by_pid = malloc((m->nlanes ? m->nlanes : 1) * sizeof(*by_pid));

	if (start == NULL || by_pid == NULL) {
		free(start);
		free(by_pid);
		return -1;
	}
	for (size_t i = 0; i < m->nlanes; i++)
		start[m->lanes[i].pid + 1]++;
	for (size_t p = 0; p < npids; p++)
		start[p + 1] += start[p];
	for (size_t i = 0; i < m->nlanes; i++)
		by_pid[start[m->lanes[i].pid]++] = (uint32_t)i;
	/* Each start[p] now points past pid p's lanes: shift back by one pid. */
	for (size_t p = npids; p > 0; p--)
		start[p] = start[p - 1];
	start[0] = 0;
	*start_out = start;
	*by_pid_out = by_pid;
	return 0;
}

static int order_threads(struct csim_model *m, struct csim_error *err)
{
	const struct csim_table *t = &m->table;
	const size_t npids = t->pids.count;
	struct named *items = malloc((m->nlanes ? m->nlanes : 1) * sizeof(*items));
	size_t *start = NULL;
	uint32_t *by_pid = NULL;
	size_t nthreads = 0, k = 0;
	int rc = CSIM_OK;

	for (size_t i = 0; i < m->nlanes; i++)
		nthreads += m->lanes[i].nsub;
	free(m->threads);
	m->threads = malloc((nthreads ? nthreads : 1) * sizeof(*m->threads));
	if (items == NULL || m->threads == NULL || lanes_by_pid(m, npids, &start, &by_pid) != 0) {
		rc = csim_error_nomem(err, CSIM_E_INPUT);
		goto out;
	}
	for (size_t p = 0; p < m->nprocesses; p++) {
		const uint32_t pid = m->processes[p];
		size_t n = 0;

		for (size_t j = start[pid]; j < start[pid + 1]; j++) {
			const uint32_t i = by_pid[j];
			size_t len;
			const char *name = csim_strtab_get(&t->pipes, m->lanes[i].pipe, &len);

			items[n++] = (struct named){ name, len,
						     m->pipes[m->lanes[i].pipe].info->order, i };
		}
		qsort(items, n, sizeof(*items), named_cmp);
		k = add_threads(m, items, n, k);
	}
	m->nthreads = k;
out:
	free(items);
	free(start);
	free(by_pid);
	return rc;
}

int csim_pass_order(struct csim_model *m, struct csim_error *err)
{
	int rc;

	assert(m->npipes == m->table.pipes.count);
	rc = order_processes(m, err);
	if (rc == CSIM_OK)
		rc = order_threads(m, err);
	return rc;
}
