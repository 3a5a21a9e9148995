/*
 * pftrace_recheck: the pftrace against the JSON, slice for slice. Each
 * JSON "X" is one slice on its process and lane with its name, beginning
 * at the exact ns of its decimal ts and ending at that of ts + dur (or cut,
 * within SPEC §4's tol, at the next slice of its track), an instant when
 * of zero length, its args as debug annotations. Each arrow is one flow
 * from the producer's slice to the consumer's; each counter member one
 * sample on its counter track (pftrace_recheck_flows.c).
 */
#include "pftrace_recheck.h"

#include <cjson/cJSON.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const char *proc_name(const struct ctx *c, size_t track)
{
	size_t p = c->tracks[track].proc;

	return p != NONE && c->tracks[p].pname ? c->tracks[p].pname : "?";
}

static const char *num(int64_t v)
{
	char buf[32];

	snprintf(buf, sizeof(buf), "%lld", (long long)v);
	return xstrndup(buf, strlen(buf));
}

/* ---- args ---- */

static int value_equal(const struct jmem *m, const struct pannot *a)
{
	char ch = m->val[0];

	if (ch == '"') {
		const char *s = json_unescape(m->val, m->vallen);

		return a->kind == AN_STRING && a->s && s && strcmp(a->s, s) == 0;
	}
	if (ch == '{' || ch == '[') {
		cJSON *x = cJSON_ParseWithLength(m->val, m->vallen);
		cJSON *y = a->kind == AN_JSON && a->s ? cJSON_Parse(a->s) : NULL;
		int eq = x != NULL && y != NULL && cJSON_Compare(x, y, 1);

		cJSON_Delete(x);
		cJSON_Delete(y);
		return eq;
	}
	if (ch == 't' || ch == 'f')
		return a->kind == AN_BOOL && a->i == (ch == 't');
	if (json_is_integer(m->val, m->vallen)) {
		long long v;

		errno = 0;
		v = strtoll(m->val, NULL, 10);
		if (errno == 0)
			return a->kind == AN_INT && a->i == v;
	}
	return a->kind == AN_DOUBLE && a->d == strtod(m->val, NULL);
}

static const char *describe(const struct pannot *a)
{
	char buf[64];

	switch (a->kind) {
	case AN_BOOL: return a->i ? "bool_value true" : "bool_value false";
	case AN_INT: snprintf(buf, sizeof(buf), "int_value %lld", (long long)a->i); break;
	case AN_DOUBLE: snprintf(buf, sizeof(buf), "double_value %.17g", a->d); break;
	case AN_STRING: return xcat("string \"", a->s ? a->s : "?", "\"", (const char *)NULL);
	case AN_JSON: return xcat("legacy_json_value ", a->s ? a->s : "?", (const char *)NULL);
	default: return "no value";
	}
	return xstrndup(buf, strlen(buf));
}

static struct pannot *annotation(struct pevent *ev, const char *key, unsigned gen)
{
	size_t i;

	for (i = 0; i < ev->nann; i++)
		if (ev->ann[i].mark != gen && ev->ann[i].name && strcmp(ev->ann[i].name, key) == 0)
			return &ev->ann[i];
	return NULL;
}

/* Does ev carry exactly js's args? Each difference reported if report. */
static int args_equal(const struct jslice *js, struct pevent *ev, int report)
{
	static unsigned gen;
	struct jiter it;
	struct jmem m;
	int same = 1;
	size_t i;

	gen++;
	if (js->args != NULL && jiter_start(&it, js->args, js->args_len)) {
		while (jiter_next(&it, &m)) {
			const char *key = json_unescape(m.key - 1, m.keylen + 2);
			struct pannot *a;

			if (key == NULL || m.val[0] == 'n')
				continue; /* null: no annotation */
			a = annotation(ev, key, gen);
			if (a != NULL)
				a->mark = gen;
			if (a != NULL && value_equal(&m, a))
				continue;
			same = 0;
			if (report && a == NULL)
				problem("args", "line %zu: \"%s\" has no annotation \"%s\"", js->line,
					js->name, key);
			else if (report)
				problem("args", "line %zu: \"%s\" annotation \"%s\" is %s, JSON %.*s",
					js->line, js->name, key, describe(a), (int)m.vallen, m.val);
		}
	}
	for (i = 0; i < ev->nann; i++) {
		if (ev->ann[i].mark == gen)
			continue;
		same = 0;
		if (report)
			problem("args", "line %zu: \"%s\" has an annotation \"%s\" that its JSON args lack",
				js->line, js->name, ev->ann[i].name ? ev->ann[i].name : "?");
	}
	return same;
}

/* ---- slices ---- */

static const char *slice_key(const char *pname, const char *label, const char *name,
			     int64_t begin)
{
	return xcat(pname, "\x1f", label, "\x1f", name, "\x1f", num(begin), (const char *)NULL);
}

/* The slice of track t other than not that begins at ns, or NULL. */
static const struct pslice *begins_at(const struct ctx *c, size_t t, int64_t ns,
				      const struct pslice *not)
{
	const struct pslice *s = c->slices + c->track_first[t];
	size_t lo = 0, hi = c->track_count[t];

	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;

		if (s[mid].begin < ns)
			lo = mid + 1;
		else
			hi = mid;
	}
	for (; lo < c->track_count[t] && s[lo].begin == ns; lo++)
		if (&s[lo] != not)
			return &s[lo];
	return NULL;
}

static void check_end(const struct ctx *c, const struct jslice *js, const struct pslice *ps)
{
	const struct pslice *next;
	double over, tol;

	if (js->b == js->e && !ps->instant)
		problem("slice", "line %zu: \"%s\" at %lld ns has zero length but is no TYPE_INSTANT",
			js->line, js->name, (long long)js->b);
	if (ps->end == js->e)
		return;
	if (ps->end > js->e) {
		problem("end", "line %zu: \"%s\" ends at %lld ns, JSON ts+dur gives %lld", js->line,
			js->name, (long long)ps->end, (long long)js->e);
		return;
	}
	next = begins_at(c, ps->track, ps->end, ps);
	if (next == NULL) {
		problem("end", "line %zu: \"%s\" ends at %lld ns, before JSON's %lld, where no slice "
			"of its track begins", js->line, js->name, (long long)ps->end, (long long)js->e);
		return;
	}
	over = js->b_f - (next->json != NONE ? c->jslices[next->json].a_f : (double)next->begin);
	tol = noise_tol(js->a_f);
	if (over > tol)
		problem("end", "line %zu: \"%s\" is cut at %lld ns (JSON ends it at %lld): an overlap "
			"of %.4f ns, beyond tol %.4f", js->line, js->name, (long long)ps->end,
			(long long)js->e, over, tol);
}

/* Where a JSON slice went missing: the nearest begin of its name there. */
static void report_missing(const struct ctx *c, const struct jslice *js, const char *pname,
			   const char *label)
{
	const struct pslice *best = NULL;
	size_t i;

	for (i = 0; reporting() && i < c->nslices; i++) {
		const struct pslice *s = &c->slices[i];

		if (s->json == NONE && c->tracks[s->track].label &&
		    strcmp(c->tracks[s->track].label, label) == 0 && s->ev->name &&
		    strcmp(s->ev->name, js->name) == 0 && strcmp(proc_name(c, s->track), pname) == 0 &&
		    (best == NULL || llabs(s->begin - js->b) < llabs(best->begin - js->b)))
			best = s;
	}
	problem("slice", "line %zu: no slice \"%s\" on %s / %s beginning at %lld ns%s%s", js->line,
		js->name, pname, label, (long long)js->b, best ? "; nearest unmatched begins at " : "",
		best ? num(best->begin) : "");
}

/* The best unmatched slice in the chain from i: one with the JSON's end
 * and args, else one cut earlier with its args, else any. */
static size_t pick(struct ctx *c, const size_t *next, size_t i, const struct jslice *js)
{
	size_t any = NONE, cut = NONE;

	for (; i != NONE; i = next[i]) {
		struct pslice *s = &c->slices[i];

		if (s->json != NONE)
			continue;
		if (any == NONE)
			any = i;
		if (s->end > js->e || !args_equal(js, s->ev, 0))
			continue;
		if (s->end == js->e)
			return i;
		if (cut == NONE)
			cut = i;
	}
	return cut != NONE ? cut : any;
}

/* Chains of the slices sharing a key (process, lane, name, begin). */
static size_t *chain(struct ctx *c, struct smap *heads)
{
	size_t *next = xalloc((c->nslices + 1) * sizeof(*next)), i;

	for (i = c->nslices; i-- > 0;) {
		const struct pslice *s = &c->slices[i];
		const char *key = slice_key(proc_name(c, s->track), c->tracks[s->track].label,
					    s->ev->name ? s->ev->name : "", s->begin);

		next[i] = smap_get(heads, key);
		smap_set(heads, key, i);
	}
	return next;
}

void match_slices(struct ctx *c)
{
	struct smap heads = { NULL, NULL, 0, 0 };
	size_t *next = chain(c, &heads), i;

	for (i = 0; i < c->njslices; i++) {
		struct jslice *js = &c->jslices[i];
		const struct jthread *t;
		const char *pname;
		size_t s;

		if (js->thread == NONE)
			continue;
		t = &c->threads[js->thread];
		pname = c->procs[t->proc].name ? c->procs[t->proc].name : t->pid;
		s = pick(c, next, smap_get(&heads, slice_key(pname, t->label, js->name, js->b)), js);
		if (s == NONE) {
			report_missing(c, js, pname, t->label);
			continue;
		}
		js->match = s;
		c->slices[s].json = i;
	}
	for (i = 0; i < c->njslices; i++) {
		struct jslice *js = &c->jslices[i];

		if (js->match == NONE)
			continue;
		check_end(c, js, &c->slices[js->match]);
		args_equal(js, c->slices[js->match].ev, 1);
		c->annotations += c->slices[js->match].ev->nann;
	}
	for (i = 0; i < c->nslices; i++) {
		const struct pslice *s = &c->slices[i];

		if (s->json == NONE)
			problem("slice", "\"%s\" [%lld, %lld) on %s / %s is not in the JSON",
				s->ev->name ? s->ev->name : "?", (long long)s->begin,
				(long long)s->end, proc_name(c, s->track), c->tracks[s->track].tname);
	}
}
