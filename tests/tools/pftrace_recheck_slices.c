/*
 * pftrace_recheck: the slices of each thread track, rebuilt as Perfetto's
 * trace processor builds them: the track's events sorted by timestamp,
 * then file position; a BEGIN opens a slice, an END closes the innermost
 * open one. Then every track flat on these integer intervals (no two
 * slices overlap, no instant at the begin of or inside a slice, no two
 * instants at one ns), and per lane (a process's tracks of one label):
 *
 * - the tracks not named "... (points)" are exactly SPEC §4's pipeline
 *   depth, computed from the JSON's float times of the lane's slices: the
 *   peak number of non-point slices whose true intervals [a, b - tol) hold
 *   one instant (a = ts*1000, b = (ts+dur)*1000, tol = max(0.25,
 *   |a|*2^-22)), at least 1 when the lane has a slice;
 * - a "(points)" track exists only where a point (SPEC §4: llround(dur*1000)
 *   == 0, or b - a < 1) found no free track of the depth, so its lane has
 *   at least one point among its JSON slices. Such a track may hold
 *   ordinary slices too (first fit puts them there).
 *
 * The depth on the integer intervals may differ from SPEC §4's (float
 * noise, or a true overlap under 1 ns that rounds to touching ns); it is
 * not checked against the tracks, only reported as "depth differs" (a
 * problem with --strict-depth).
 */
#include "pftrace_recheck.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

static const struct ctx *sort_ctx;

static int by_time(const void *a, const void *b)
{
	size_t x = *(const size_t *)a, y = *(const size_t *)b;
	int64_t tx = sort_ctx->events[x].ts, ty = sort_ctx->events[y].ts;

	if (tx != ty)
		return tx < ty ? -1 : 1;
	return x < y ? -1 : x > y;
}

static int by_begin(const void *a, const void *b)
{
	const struct pslice *x = a, *y = b;

	if (x->begin != y->begin)
		return x->begin < y->begin ? -1 : 1;
	return x->pos < y->pos ? -1 : x->pos > y->pos;
}

static const char *name_of(const struct pslice *s)
{
	return s->ev->name ? s->ev->name : "?";
}

static const char *track_name(const struct ctx *c, size_t t)
{
	return c->tracks[t].tname ? c->tracks[t].tname : "?";
}

static struct pslice *new_slice(struct ctx *c, size_t *cap, size_t track, size_t ev)
{
	struct pslice *s;

	grow((void **)&c->slices, cap, c->nslices + 1, sizeof(*c->slices));
	s = &c->slices[c->nslices++];
	s->track = track;
	s->json = NONE;
	s->pos = ev;
	s->ev = &c->events[ev];
	s->begin = s->end = c->events[ev].ts;
	return s;
}

/* The slices of track t from its events ix[0..n) in time order. */
static void replay(struct ctx *c, size_t *cap, size_t t, const size_t *ix, size_t n)
{
	size_t *open = xalloc((n + 1) * sizeof(*open)), depth = 0, i;

	for (i = 0; i < n; i++) {
		const struct pevent *e = &c->events[ix[i]];

		if (e->type == EV_BEGIN) {
			open[depth++] = ix[i];
		} else if (e->type == EV_INSTANT) {
			new_slice(c, cap, t, ix[i])->instant = 1;
			c->instants++;
		} else if (depth == 0) {
			problem("slice", "\"%s\": a SLICE_END at %lld ns closes no slice", track_name(c, t),
				(long long)e->ts);
		} else {
			new_slice(c, cap, t, open[--depth])->end = e->ts;
		}
		if (e->type == EV_END && (e->nann > 0 || e->nflows > 0 || e->nterms > 0))
			problem("slice", "\"%s\": a SLICE_END at %lld ns carries args or flows",
				track_name(c, t), (long long)e->ts);
	}
	while (depth > 0) {
		const struct pevent *e = &c->events[open[--depth]];

		problem("slice", "\"%s\": \"%s\" begun at %lld ns never ends", track_name(c, t),
			e->name ? e->name : "?", (long long)e->ts);
	}
}

/* Slices that overlap or nest, in begin order (instants aside). */
static void check_flat(const struct ctx *c, size_t t, const struct pslice *s, size_t n)
{
	const struct pslice *reach = NULL; /* the slice ending last so far */
	size_t i;

	for (i = 0; i < n; i++) {
		if (s[i].instant)
			continue;
		if (s[i].end <= s[i].begin)
			problem("slice", "\"%s\": \"%s\" at %lld ns is a BEGIN/END of zero length, want "
				"an instant", track_name(c, t), name_of(&s[i]), (long long)s[i].begin);
		if (reach != NULL && reach->end > s[i].begin)
			problem("flat", "\"%s\": \"%s\" [%lld, %lld) %s \"%s\" [%lld, %lld)",
				track_name(c, t), name_of(&s[i]), (long long)s[i].begin,
				(long long)s[i].end, s[i].end <= reach->end ? "nests in" : "overlaps",
				name_of(reach), (long long)reach->begin, (long long)reach->end);
		if (reach == NULL || s[i].end > reach->end)
			reach = &s[i];
	}
}

/* Instants: never at the begin of or inside a slice, nor at one ns. */
static void check_instants(const struct ctx *c, size_t t, const struct pslice *s, size_t n)
{
	const struct pslice *reach = NULL, *last_instant = NULL;
	size_t i, j;

	for (i = 0; i < n; i = j) {
		/* Slices beginning at one ns come before the instants among them. */
		for (j = i; j < n && s[j].begin == s[i].begin; j++)
			if (!s[j].instant && (reach == NULL || s[j].end > reach->end))
				reach = &s[j];
		for (j = i; j < n && s[j].begin == s[i].begin; j++) {
			if (!s[j].instant)
				continue;
			if (reach != NULL && reach->end > s[j].begin)
				problem("instant", "\"%s\": instant \"%s\" at %lld ns lies %s \"%s\" [%lld, %lld)",
					track_name(c, t), name_of(&s[j]), (long long)s[j].begin,
					reach->begin == s[j].begin ? "at the begin of" : "inside",
					name_of(reach), (long long)reach->begin, (long long)reach->end);
			if (last_instant != NULL && last_instant->begin == s[j].begin)
				problem("instant", "\"%s\": instants \"%s\" and \"%s\" both at %lld ns",
					track_name(c, t), name_of(last_instant), name_of(&s[j]),
					(long long)s[j].begin);
			last_instant = &s[j];
		}
	}
}

static void check_track(const struct ctx *c, size_t t)
{
	const struct pslice *s = c->slices + c->track_first[t];
	size_t n = c->track_count[t], i;

	if (n == 0) {
		problem("track", "\"%s\" holds no slice", track_name(c, t));
		return;
	}
	for (i = 0; i < n; i++)
		if (s[i].ev->name == NULL)
			problem("slice", "\"%s\": a slice at %lld ns without a name", track_name(c, t),
				(long long)s[i].begin);
	check_flat(c, t, s, n);
	check_instants(c, t, s, n);
}

void slices_build(struct ctx *c)
{
	size_t *first = xalloc((c->ntracks + 1) * sizeof(*first));
	size_t *count = xalloc((c->ntracks + 1) * sizeof(*count));
	size_t *ix = xalloc((c->nevents + 1) * sizeof(*ix)), *fill, i, t, cap = 0;

	for (i = 0; i < c->nevents; i++)
		if (c->events[i].track != NONE && c->events[i].type != EV_COUNTER)
			count[c->events[i].track]++;
	for (t = 1; t < c->ntracks; t++)
		first[t] = first[t - 1] + count[t - 1];
	fill = xalloc((c->ntracks + 1) * sizeof(*fill));
	memcpy(fill, first, c->ntracks * sizeof(*fill));
	for (i = 0; i < c->nevents; i++)
		if (c->events[i].track != NONE && c->events[i].type != EV_COUNTER)
			ix[fill[c->events[i].track]++] = i;
	sort_ctx = c;
	c->track_first = xalloc((c->ntracks + 1) * sizeof(*c->track_first));
	c->track_count = xalloc((c->ntracks + 1) * sizeof(*c->track_count));
	for (t = 0; t < c->ntracks; t++) {
		if (c->tracks[t].kind != TK_THREAD || c->tracks[t].label == NULL)
			continue;
		qsort(ix + first[t], count[t], sizeof(*ix), by_time);
		c->track_first[t] = c->nslices;
		replay(c, &cap, t, ix + first[t], count[t]);
		c->track_count[t] = c->nslices - c->track_first[t];
		qsort(c->slices + c->track_first[t], c->track_count[t], sizeof(*c->slices), by_begin);
		c->lanes[c->tracks[t].lane].slices += c->track_count[t];
		check_track(c, t);
	}
}

/* ---- depth ---- */

static int cmp_i64(const void *a, const void *b)
{
	int64_t x = *(const int64_t *)a, y = *(const int64_t *)b;

	return x < y ? -1 : x > y;
}

static int cmp_dbl(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return x < y ? -1 : x > y;
}

/* Peak number of the half-open intervals [b[i], e[i]) over one instant. */
static size_t peak_i64(int64_t *b, int64_t *e, size_t n)
{
	size_t i, j = 0, cur = 0, peak = 0;

	qsort(b, n, sizeof(*b), cmp_i64);
	qsort(e, n, sizeof(*e), cmp_i64);
	for (i = 0; i < n; i++) {
		while (j < n && e[j] <= b[i])
			j++, cur--;
		if (++cur > peak)
			peak = cur;
	}
	return peak;
}

static size_t peak_dbl(double *b, double *e, size_t n)
{
	size_t i, j = 0, cur = 0, peak = 0;

	qsort(b, n, sizeof(*b), cmp_dbl);
	qsort(e, n, sizeof(*e), cmp_dbl);
	for (i = 0; i < n; i++) {
		while (j < n && e[j] <= b[i])
			j++, cur--;
		if (++cur > peak)
			peak = cur;
	}
	return peak;
}

/* The integer depth of lane l from the slices of its tracks t[0..n). */
static size_t int_depth(const struct ctx *c, size_t l, const size_t *t, size_t n)
{
	int64_t *b = xalloc((c->lanes[l].slices + 1) * sizeof(*b));
	int64_t *e = xalloc((c->lanes[l].slices + 1) * sizeof(*e));
	size_t k = 0, j, i;

	for (j = 0; j < n; j++) {
		for (i = c->track_first[t[j]]; i < c->track_first[t[j]] + c->track_count[t[j]]; i++) {
			if (c->slices[i].instant)
				continue;
			b[k] = c->slices[i].begin;
			e[k++] = c->slices[i].end;
		}
	}
	k = peak_i64(b, e, k);
	return k > 0 || c->lanes[l].slices == 0 ? k : 1;
}

/* Is JSON slice j a SPEC §4 point: e == s (s = llround(ts*1000), e = s +
 * llround(dur*1000)), or b - a < 1 ns? */
static int is_point(const struct jslice *j)
{
	long long s = llround(j->ts * 1000);
	long long e = s + llround(j->dur * 1000);

	return e == s || j->b_f - j->a_f < 1;
}

/* SPEC §4's depth of the JSON slices js[0..n) of one lane. */
static size_t float_depth(const struct jslice *const *js, size_t n)
{
	double *b = xalloc((n + 1) * sizeof(*b)), *e = xalloc((n + 1) * sizeof(*e));
	size_t k = 0, i;

	for (i = 0; i < n; i++) {
		if (is_point(js[i]))
			continue;
		b[k] = js[i]->a_f;
		e[k++] = js[i]->b_f - noise_tol(js[i]->a_f);
	}
	k = peak_dbl(b, e, k);
	return k > 0 || n == 0 ? k : 1;
}

/* The pftrace lane of JSON slice i, or NONE. */
static size_t lane_of_json(const struct ctx *c, const struct smap *lanes, size_t i)
{
	const struct jthread *t;
	const char *pname;

	if (c->jslices[i].thread == NONE)
		return NONE;
	t = &c->threads[c->jslices[i].thread];
	pname = c->procs[t->proc].name;
	return pname ? smap_get(lanes, xcat(pname, "\x1f", t->label, (const char *)NULL)) : NONE;
}

/* Per lane, its thread tracks (*tracks[l], *ntracks[l] of them). */
static void lane_tracks(const struct ctx *c, size_t ***tracks, size_t **ntracks)
{
	size_t *cap = xalloc((c->nlanes + 1) * sizeof(*cap)), t;

	*tracks = xalloc((c->nlanes + 1) * sizeof(**tracks));
	*ntracks = xalloc((c->nlanes + 1) * sizeof(**ntracks));
	for (t = 0; t < c->ntracks; t++) {
		size_t l = c->tracks[t].lane;

		if (c->tracks[t].kind != TK_THREAD || l == NONE)
			continue;
		grow((void **)&(*tracks)[l], &cap[l], (*ntracks)[l] + 1, sizeof(***tracks));
		(*tracks)[l][(*ntracks)[l]++] = t;
	}
}

void depth_check(struct ctx *c)
{
	struct smap lanes = { NULL, NULL, 0, 0 };
	const struct jslice ***js = xalloc((c->nlanes + 1) * sizeof(*js));
	size_t *njs = xalloc((c->nlanes + 1) * sizeof(*njs)), *cap, l, i;
	size_t **tracks, *ntracks;

	lane_tracks(c, &tracks, &ntracks);
	cap = xalloc((c->nlanes + 1) * sizeof(*cap));
	for (l = 0; l < c->nlanes; l++)
		smap_put(&lanes, xcat(c->tracks[c->lanes[l].proc].pname, "\x1f", c->lanes[l].label,
				      (const char *)NULL), l);
	for (i = 0; i < c->njslices; i++) {
		l = lane_of_json(c, &lanes, i);
		if (l == NONE)
			continue;
		grow((void **)&js[l], &cap[l], njs[l] + 1, sizeof(*js[l]));
		js[l][njs[l]++] = &c->jslices[i];
	}
	for (l = 0; l < c->nlanes; l++) {
		struct lane *ln = &c->lanes[l];
		const char *pname = c->tracks[ln->proc].pname;
		size_t fd = float_depth(js[l], njs[l]), points = 0;

		ln->depth = (int64_t)int_depth(c, l, tracks[l], ntracks[l]);
		if ((ln->slices > 0 || njs[l] > 0) && ln->regular != fd)
			problem("lane", "%s / %s: %zu tracks besides points tracks, SPEC §4 depth %zu",
				pname, ln->label, ln->regular, fd);
		for (i = 0; i < njs[l]; i++)
			points += (size_t)is_point(js[l][i]);
		if (ln->points_tracks > 0 && points == 0)
			problem("lane", "%s / %s: a (points) track but no point", pname, ln->label);
		if (njs[l] > 0 && (int64_t)fd != ln->depth)
			depth_note("%s / %s: SPEC §4 depth %zu on the JSON's float times, %lld on the "
				   "pftrace's integer intervals", pname, ln->label, fd,
				   (long long)ln->depth);
	}
}
