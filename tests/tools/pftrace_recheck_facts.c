/*
 * pftrace_recheck --facts TRACE.pftrace: the file's countable facts, one
 * per line, for the scenarios' hand-written facts files (docs/testing.md):
 *   ptrack PROCESS PLACE NAME     a thread track's 0-based place in its
 *                                 process by sibling_order_rank
 *   pslice PROCESS TRACK NAME BEGIN END
 *                                 every slice as Perfetto's engine builds
 *                                 it (events by time, then file position;
 *                                 an END closes the innermost open slice;
 *                                 an instant's END is its BEGIN)
 *   pslices N                     slices on tracks other than "critical path"
 *   pflows N                      distinct flow ids
 * It reads the file alone, with none of the checks.
 */
#include "pftrace_recheck.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static size_t track_of(const struct ctx *c, uint64_t uuid)
{
	for (size_t i = 0; i < c->ntracks; i++)
		if (c->tracks[i].uuid == uuid)
			return i;
	return NONE;
}

static const char *process_of(const struct ctx *c, int32_t pid)
{
	for (size_t i = 0; i < c->ntracks; i++)
		if (c->tracks[i].kind == TK_PROCESS && c->tracks[i].has_pid && c->tracks[i].pid == pid)
			return c->tracks[i].pname != NULL ? c->tracks[i].pname : "?";
	return "?";
}

/* Thread tracks of one process before t by rank (then uuid). */
static size_t place_of(const struct ctx *c, size_t t)
{
	const struct ptrack *x = &c->tracks[t];
	size_t n = 0;

	for (size_t i = 0; i < c->ntracks; i++) {
		const struct ptrack *y = &c->tracks[i];

		if (i == t || y->kind != TK_THREAD || y->pid != x->pid)
			continue;
		n += y->rank < x->rank || (y->rank == x->rank && y->uuid < x->uuid);
	}
	return n;
}

static const struct ctx *sort_ctx;

/* By track, then time, then file order (the event's index). */
static int event_cmp(const void *a, const void *b)
{
	const size_t x = *(const size_t *)a, y = *(const size_t *)b;
	const struct pevent *e = &sort_ctx->events[x], *f = &sort_ctx->events[y];

	if (e->track != f->track)
		return e->track < f->track ? -1 : 1;
	if (e->ts != f->ts)
		return e->ts < f->ts ? -1 : 1;
	return x < y ? -1 : x > y;
}

static void print_slice(const struct ctx *c, size_t t, const struct pevent *b, int64_t end)
{
	printf("pslice %s %s %s %lld %lld\n", process_of(c, c->tracks[t].pid),
	       c->tracks[t].tname != NULL ? c->tracks[t].tname : "?",
	       b->name != NULL ? b->name : "?", (long long)b->ts, (long long)end);
}

int facts_print(struct ctx *c)
{
	size_t *ix = xalloc((c->nevents + 1) * sizeof(*ix)), *open, depth = 0, n = 0;
	size_t slices = 0, nflows = 0;
	struct smap flows = { NULL, NULL, 0, 0 };

	for (size_t t = 0; t < c->ntracks; t++)
		if (c->tracks[t].kind == TK_THREAD)
			printf("ptrack %s %zu %s\n", process_of(c, c->tracks[t].pid), place_of(c, t),
			       c->tracks[t].tname != NULL ? c->tracks[t].tname : "?");
	for (size_t i = 0; i < c->nevents; i++) {
		size_t t = c->events[i].has_track ? track_of(c, c->events[i].track_uuid) : NONE;

		c->events[i].track = t;
		if (t != NONE && c->tracks[t].kind == TK_THREAD && c->events[i].type != EV_COUNTER)
			ix[n++] = i;
		for (size_t k = 0; k < c->events[i].nflows; k++) {
			char key[24];

			snprintf(key, sizeof(key), "%llu", (unsigned long long)c->events[i].flows[k]);
			if (smap_put(&flows, xstrndup(key, strlen(key)), nflows) == nflows)
				nflows++;
		}
	}
	sort_ctx = c;
	qsort(ix, n, sizeof(*ix), event_cmp);
	open = xalloc((n + 1) * sizeof(*open));
	for (size_t i = 0; i < n; i++) {
		const struct pevent *e = &c->events[ix[i]];
		int path = c->tracks[e->track].tname != NULL &&
			   strcmp(c->tracks[e->track].tname, "critical path") == 0;

		if (i > 0 && e->track != c->events[ix[i - 1]].track)
			depth = 0;
		if (e->type == EV_BEGIN) {
			open[depth++] = ix[i];
		} else if (e->type == EV_INSTANT) {
			print_slice(c, e->track, e, e->ts);
			slices += !path;
		} else if (e->type == EV_END && depth > 0) {
			print_slice(c, e->track, &c->events[open[--depth]], e->ts);
			slices += !path;
		}
	}
	printf("pslices %zu\npflows %zu\n", slices, nflows);
	return 0;
}
