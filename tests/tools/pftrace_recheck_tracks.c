/*
 * pftrace_recheck: the tracks. The root (uuid 0) orders processes and
 * threads explicitly; every thread track belongs to a process track by its
 * pid, every counter track to one by parent_uuid; every event is on a
 * track described earlier in the file, of its kind. Then the order: the
 * processes by sibling_order_rank against the JSON's process_sort_index,
 * and per process the lanes (sub-lanes collapsed) by rank against the
 * JSON's thread_sort_index.
 */
#include "pftrace_recheck.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const struct ctx *sort_ctx;

static int by_uuid(const void *a, const void *b)
{
	uint64_t x = sort_ctx->tracks[*(const size_t *)a].uuid;
	uint64_t y = sort_ctx->tracks[*(const size_t *)b].uuid;

	return x < y ? -1 : x > y;
}

size_t track_by_uuid(const struct ctx *c, uint64_t uuid)
{
	size_t lo = 0, hi = c->ntracks;

	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;

		if (c->tracks[c->by_uuid[mid]].uuid < uuid)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo < c->ntracks && c->tracks[c->by_uuid[lo]].uuid == uuid ? c->by_uuid[lo] : NONE;
}

static const char *decimal(int64_t v)
{
	char buf[32];

	snprintf(buf, sizeof(buf), "%lld", (long long)v);
	return xstrndup(buf, strlen(buf));
}

static void index_uuids(struct ctx *c)
{
	size_t i;

	c->by_uuid = xalloc((c->ntracks + 1) * sizeof(*c->by_uuid));
	for (i = 0; i < c->ntracks; i++)
		c->by_uuid[i] = i;
	sort_ctx = c;
	qsort(c->by_uuid, c->ntracks, sizeof(*c->by_uuid), by_uuid);
	for (i = 1; i < c->ntracks; i++)
		if (c->tracks[c->by_uuid[i]].uuid == c->tracks[c->by_uuid[i - 1]].uuid)
			problem("track", "uuid %llu is described twice",
				(unsigned long long)c->tracks[c->by_uuid[i]].uuid);
}

static void check_root(const struct ctx *c)
{
	size_t r = track_by_uuid(c, 0);

	if (r == NONE) {
		problem("root", "no root track (uuid 0)");
		return;
	}
	if (c->tracks[r].kind != TK_ROOT)
		problem("root", "the track of uuid 0 is not a bare root track");
	if (c->tracks[r].porder != 1 || c->tracks[r].torder != 1)
		problem("root", "uuid 0 has process_ordering %ld and thread_ordering %ld, want 1 "
			"(EXPLICIT) and 1", c->tracks[r].porder, c->tracks[r].torder);
}

static void check_process(struct ctx *c, size_t i)
{
	const struct ptrack *t = &c->tracks[i];

	if (!t->has_pid || t->pname == NULL) {
		problem("track", "process track uuid %llu without a pid or a process_name",
			(unsigned long long)t->uuid);
		return;
	}
	if (smap_put(&c->proc_by_pid, decimal(t->pid), i) != i)
		problem("track", "pid %d has two process tracks", (int)t->pid);
}

static size_t lane_of(struct ctx *c, size_t proc, const char *label)
{
	const char *key = xcat(decimal((int64_t)proc), "\x1f", label, (const char *)NULL);
	size_t i = smap_get(&c->lane_map, key);

	if (i != NONE)
		return i;
	grow((void **)&c->lanes, &c->lcap, c->nlanes + 1, sizeof(*c->lanes));
	c->lanes[c->nlanes].proc = proc;
	c->lanes[c->nlanes].label = label;
	return smap_put(&c->lane_map, key, c->nlanes++);
}

static int ends_with(const char *s, const char *tail)
{
	size_t n = strlen(s), m = strlen(tail);

	return n >= m && strcmp(s + n - m, tail) == 0;
}

static void check_thread(struct ctx *c, struct smap *tids, size_t i)
{
	struct ptrack *t = &c->tracks[i];
	unsigned long long u = (unsigned long long)t->uuid;

	if (!t->has_pid || !t->has_tid || t->tname == NULL) {
		problem("track", "thread track uuid %llu without a pid, tid or thread_name", u);
		return;
	}
	t->proc = smap_get(&c->proc_by_pid, decimal(t->pid));
	if (t->proc == NONE) {
		problem("track", "thread track \"%s\": pid %d has no process track", t->tname, (int)t->pid);
		return;
	}
	if (smap_put(tids, decimal(t->tid), i) != i)
		problem("track", "thread track \"%s\": tid %lld is not unique", t->tname,
			(long long)t->tid);
	if (t->name != NULL && strcmp(t->name, t->tname) != 0)
		problem("track", "thread track \"%s\" is named \"%s\"", t->tname, t->name);
	if (t->has_parent && t->parent != c->tracks[t->proc].uuid)
		problem("track", "thread track \"%s\": parent_uuid is not its process track", t->tname);
	t->label = lane_label(t->tname);
	t->points = ends_with(t->tname, "(points)");
	t->lane = lane_of(c, t->proc, t->label);
	if (t->points)
		c->lanes[t->lane].points_tracks++;
	else
		c->lanes[t->lane].regular++;
}

static void check_counter(struct ctx *c, size_t i)
{
	struct ptrack *t = &c->tracks[i];
	size_t p = t->has_parent ? track_by_uuid(c, t->parent) : NONE;

	if (t->name == NULL)
		problem("counter", "counter track uuid %llu has no name", (unsigned long long)t->uuid);
	if (p == NONE || c->tracks[p].kind != TK_PROCESS)
		problem("counter", "counter track \"%s\": parent_uuid is not a process track",
			t->name ? t->name : "?");
	else
		t->proc = p;
}

/* An event's track: described before it, and of the event's kind. */
static void check_event(struct ctx *c, struct pevent *e)
{
	static const char *const types[] = { "UNSPECIFIED", "SLICE_BEGIN", "SLICE_END", "INSTANT",
					     "COUNTER", "STATE" };
	const struct ptrack *t;
	int want;

	if (!e->has_track)
		return; /* reported by the decoder */
	e->track = track_by_uuid(c, e->track_uuid);
	if (e->track == NONE || c->tracks[e->track].packet > e->packet) {
		problem("packet", "packet %zu: track_uuid %llu is not described before it", e->packet,
			(unsigned long long)e->track_uuid);
		e->track = NONE;
		return;
	}
	t = &c->tracks[e->track];
	if (e->type < EV_BEGIN || e->type > EV_COUNTER) {
		problem("packet", "packet %zu: TrackEvent type %s", e->packet,
			e->type >= 0 ? types[e->type] : "unknown");
		e->track = NONE;
		return;
	}
	want = e->type == EV_COUNTER ? TK_COUNTER : TK_THREAD;
	if (t->kind != want) {
		problem("packet", "packet %zu: a TYPE_%s event on a track that is not a %s track",
			e->packet, types[e->type], want == TK_COUNTER ? "counter" : "thread");
		e->track = NONE;
	}
}

void tracks_check(struct ctx *c)
{
	struct smap tids = { NULL, NULL, 0, 0 };
	size_t i;

	index_uuids(c);
	check_root(c);
	for (i = 0; i < c->ntracks; i++)
		if (c->tracks[i].kind == TK_PROCESS)
			check_process(c, i);
	for (i = 0; i < c->ntracks; i++) {
		if (c->tracks[i].kind == TK_THREAD)
			check_thread(c, &tids, i);
		else if (c->tracks[i].kind == TK_COUNTER)
			check_counter(c, i);
		else if (c->tracks[i].kind == TK_OTHER)
			problem("track", "uuid %llu is not a root, process, thread or counter track",
				(unsigned long long)c->tracks[i].uuid);
	}
	for (i = 0; i < c->nevents; i++)
		check_event(c, &c->events[i]);
}

/* ---- order ---- */

static int by_rank(const void *a, const void *b)
{
	const struct ptrack *x = &sort_ctx->tracks[*(const size_t *)a];
	const struct ptrack *y = &sort_ctx->tracks[*(const size_t *)b];
	const char *nx = x->kind == TK_PROCESS ? x->pname : x->tname;
	const char *ny = y->kind == TK_PROCESS ? y->pname : y->tname;
	int32_t rx = x->has_rank ? x->rank : 0, ry = y->has_rank ? y->rank : 0;

	if (rx != ry)
		return rx < ry ? -1 : 1;
	return strcmp(nx, ny);
}

static int by_sort(const void *a, const void *b)
{
	const struct jthread *x = &sort_ctx->threads[*(const size_t *)a];
	const struct jthread *y = &sort_ctx->threads[*(const size_t *)b];

	if (x->sort != y->sort)
		return x->sort < y->sort ? -1 : 1;
	return strcmp(x->name ? x->name : x->tid, y->name ? y->name : y->tid);
}

static int by_psort(const void *a, const void *b)
{
	const struct jproc *x = &sort_ctx->procs[*(const size_t *)a];
	const struct jproc *y = &sort_ctx->procs[*(const size_t *)b];

	if (x->sort != y->sort)
		return x->sort < y->sort ? -1 : 1;
	return x->order < y->order ? -1 : x->order > y->order;
}

/* names joined by ", " with consecutive repeats dropped. */
static const char *joined(const char **names, size_t n)
{
	size_t len = 1, i, at = 0;
	char *out;

	for (i = 0; i < n; i++)
		len += strlen(names[i]) + 2;
	out = xalloc(len);
	for (i = 0; i < n; i++) {
		size_t k = strlen(names[i]);

		if (i > 0 && strcmp(names[i], names[i - 1]) == 0)
			continue;
		if (at > 0) {
			memcpy(out + at, ", ", 2);
			at += 2;
		}
		memcpy(out + at, names[i], k);
		at += k;
	}
	out[at] = '\0';
	return out;
}

/* Tracks of kind (of process proc, for threads) sorted by rank, named. */
static const char *track_order(const struct ctx *c, int kind, size_t proc)
{
	size_t *ix = xalloc((c->ntracks + 1) * sizeof(*ix)), n = 0, i;
	const char **names = xalloc((c->ntracks + 1) * sizeof(*names));

	for (i = 0; i < c->ntracks; i++)
		if (c->tracks[i].kind == kind && (kind == TK_PROCESS
			? c->tracks[i].pname != NULL : c->tracks[i].proc == proc && c->tracks[i].label))
			ix[n++] = i;
	qsort(ix, n, sizeof(*ix), by_rank);
	for (i = 0; i < n; i++) {
		const struct ptrack *t = &c->tracks[ix[i]];

		if (i > 0 && t->rank == c->tracks[ix[i - 1]].rank)
			problem("order", "\"%s\" and \"%s\" share sibling_order_rank %d",
				kind == TK_PROCESS ? c->tracks[ix[i - 1]].pname : c->tracks[ix[i - 1]].tname,
				kind == TK_PROCESS ? t->pname : t->tname, (int)t->rank);
		names[i] = kind == TK_PROCESS ? t->pname : t->label;
	}
	return joined(names, n);
}

static const char *json_lanes(const struct ctx *c, size_t proc)
{
	size_t *ix = xalloc((c->nthreads + 1) * sizeof(*ix)), n = 0, i;
	const char **names = xalloc((c->nthreads + 1) * sizeof(*names));

	for (i = 0; i < c->nthreads; i++)
		if (c->threads[i].proc == proc)
			ix[n++] = i;
	qsort(ix, n, sizeof(*ix), by_sort);
	for (i = 0; i < n; i++)
		names[i] = c->threads[ix[i]].label;
	return joined(names, n);
}

void order_check(struct ctx *c)
{
	size_t *ix = xalloc((c->nprocs + 1) * sizeof(*ix)), i;
	const char **names = xalloc((c->nprocs + 1) * sizeof(*names));
	const char *want, *got;
	struct smap by_name = { NULL, NULL, 0, 0 };

	sort_ctx = c;
	for (i = 0; i < c->nprocs; i++)
		ix[i] = i;
	qsort(ix, c->nprocs, sizeof(*ix), by_psort);
	for (i = 0; i < c->nprocs; i++)
		names[i] = c->procs[ix[i]].name ? c->procs[ix[i]].name : c->procs[ix[i]].pid;
	want = joined(names, c->nprocs);
	got = track_order(c, TK_PROCESS, NONE);
	if (strcmp(want, got) != 0)
		problem("order", "processes: JSON [%s], pftrace [%s]", want, got);
	for (i = 0; i < c->ntracks; i++)
		if (c->tracks[i].kind == TK_PROCESS && c->tracks[i].pname != NULL)
			smap_put(&by_name, c->tracks[i].pname, i);
	for (i = 0; i < c->nprocs; i++) {
		const char *name = c->procs[ix[i]].name;
		size_t p = name ? smap_get(&by_name, name) : NONE;

		if (p == NONE)
			continue; /* reported with the processes */
		want = json_lanes(c, ix[i]);
		got = track_order(c, TK_THREAD, p);
		if (strcmp(want, got) != 0)
			problem("lane order", "%s: JSON [%s], pftrace [%s]", name, want, got);
	}
}
