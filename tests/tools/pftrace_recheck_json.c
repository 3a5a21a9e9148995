/*
 * pftrace_recheck: trace.clean.json (SPEC §6). The events of its
 * traceEvents array are found by this file's own scan (one a line, but an
 * event's args keep the input's bytes, line breaks included); cJSON
 * validates each event; the raw text of ts, dur and args is taken by the
 * scan too, since cJSON keeps only a double: exact nanoseconds come from
 * the decimal digits. Problems name the line where the event begins.
 */
#include "pftrace_recheck.h"

#include <cjson/cJSON.h>
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* ---- exact decimals ---- */

/* A decimal in ns: digit i weighs 10^(DEC_POINT - 1 - i). */
#define DEC_POINT 40
#define DEC_LEN 400

struct dec {
	int neg;
	unsigned char d[DEC_LEN];
};

/* The µs number text s[0..n), times 1000. 0 when out of range. */
static int dec_parse(const char *s, size_t n, struct dec *x)
{
	size_t i = 0, mant_start, mant_end, nint = 0;
	long exp = 0, k = 0;

	memset(x, 0, sizeof(*x));
	if (i < n && s[i] == '-')
		x->neg = 1, i++;
	mant_start = i;
	while (i < n && ((s[i] >= '0' && s[i] <= '9') || s[i] == '.'))
		i++;
	mant_end = i;
	if (i < n && (s[i] == 'e' || s[i] == 'E')) {
		char *end;

		errno = 0;
		exp = strtol(s + i + 1, &end, 10);
		if (errno != 0 || exp > 1000 || exp < -1000)
			return 0;
	}
	for (i = mant_start; i < mant_end && s[i] != '.'; i++)
		nint++;
	for (i = mant_start; i < mant_end; i++) {
		long power, at;

		if (s[i] == '.')
			continue;
		power = (long)nint - 1 - k + exp + 3;
		k++;
		at = DEC_POINT - 1 - power;
		if (s[i] == '0')
			continue;
		if (at < 0 || at >= DEC_LEN)
			return 0;
		x->d[at] = (unsigned char)(s[i] - '0');
	}
	return 1;
}

static int dec_cmp_mag(const struct dec *a, const struct dec *b)
{
	return memcmp(a->d, b->d, DEC_LEN);
}

/* a += b, exactly. 0 on overflow. */
static int dec_add(struct dec *a, const struct dec *b)
{
	int i, carry = 0;

	if (a->neg == b->neg) {
		for (i = DEC_LEN - 1; i >= 0; i--) {
			int v = a->d[i] + b->d[i] + carry;

			a->d[i] = (unsigned char)(v % 10);
			carry = v / 10;
		}
		return carry == 0;
	}
	if (dec_cmp_mag(a, b) >= 0) {
		for (i = DEC_LEN - 1; i >= 0; i--) {
			int v = a->d[i] - b->d[i] - carry;

			carry = v < 0;
			a->d[i] = (unsigned char)(v + 10 * carry);
		}
	} else {
		for (i = DEC_LEN - 1; i >= 0; i--) {
			int v = b->d[i] - a->d[i] - carry;

			carry = v < 0;
			a->d[i] = (unsigned char)(v + 10 * carry);
		}
		a->neg = b->neg;
	}
	return 1;
}

/* Rounded half away from zero. 0 beyond int64. */
static int dec_round(const struct dec *x, int64_t *out)
{
	uint64_t v = 0;
	int i;

	for (i = 0; i < DEC_POINT; i++) {
		if (v > (UINT64_MAX - x->d[i]) / 10)
			return 0;
		v = v * 10 + x->d[i];
	}
	if (x->d[DEC_POINT] >= 5)
		v++;
	if (v > (uint64_t)INT64_MAX)
		return 0;
	*out = x->neg ? -(int64_t)v : (int64_t)v;
	return 1;
}

int dec_ns(const char *a, size_t an, const char *b, size_t bn, int64_t *out)
{
	struct dec x, y;

	if (!dec_parse(a, an, &x))
		return 0;
	if (b != NULL && (!dec_parse(b, bn, &y) || !dec_add(&x, &y)))
		return 0;
	return dec_round(&x, out);
}

/* ---- member scan ---- */

static int is_ws(char ch)
{
	return ch == ' ' || ch == '\t' || ch == '\n' || ch == '\r';
}

static size_t skip_ws(const char *s, size_t i, size_t n)
{
	while (i < n && is_ws(s[i]))
		i++;
	return i;
}

/* s[i] is '"': the index after the closing quote. */
static size_t skip_string(const char *s, size_t i, size_t n)
{
	for (i++; i < n; i++) {
		if (s[i] == '\\')
			i++;
		else if (s[i] == '"')
			return i + 1;
	}
	return n;
}

static size_t skip_value(const char *s, size_t i, size_t n)
{
	int depth = 0;

	while (i < n) {
		char ch = s[i];

		if (ch == '"') {
			i = skip_string(s, i, n);
			if (depth == 0)
				return i;
			continue;
		}
		if (ch == '{' || ch == '[') {
			depth++;
		} else if (ch == '}' || ch == ']') {
			if (depth == 0)
				return i;
			if (--depth == 0)
				return i + 1;
		} else if (depth == 0 && (ch == ',' || is_ws(ch))) {
			return i;
		}
		i++;
	}
	return i;
}

int jiter_start(struct jiter *it, const char *s, size_t n)
{
	it->s = s;
	it->n = n;
	it->i = skip_ws(s, 0, n);
	if (it->i >= n || s[it->i] != '{')
		return 0;
	it->i++;
	return 1;
}

int jiter_next(struct jiter *it, struct jmem *m)
{
	const char *s = it->s;
	size_t i = skip_ws(s, it->i, it->n), end;

	if (i < it->n && s[i] == ',')
		i = skip_ws(s, i + 1, it->n);
	if (i >= it->n || s[i] != '"')
		return 0;
	end = skip_string(s, i, it->n);
	m->key = s + i + 1;
	m->keylen = end - i - 2;
	i = skip_ws(s, end, it->n);
	if (i >= it->n || s[i] != ':')
		return 0;
	i = skip_ws(s, i + 1, it->n);
	end = skip_value(s, i, it->n);
	m->val = s + i;
	m->vallen = end - i;
	it->i = end;
	return 1;
}

char *json_unescape(const char *raw, size_t n)
{
	cJSON *j;
	char *out = NULL;

	if (n < 2 || raw[0] != '"')
		return NULL;
	if (memchr(raw, '\\', n) == NULL)
		return xstrndup(raw + 1, n - 2);
	j = cJSON_ParseWithLength(raw, n);
	if (j != NULL && cJSON_IsString(j))
		out = xstrndup(j->valuestring, strlen(j->valuestring));
	cJSON_Delete(j);
	return out;
}

int json_is_integer(const char *raw, size_t n)
{
	size_t i = raw[0] == '-';

	if (i >= n)
		return 0;
	for (; i < n; i++)
		if (raw[i] < '0' || raw[i] > '9')
			return 0;
	return 1;
}

static int key_is(const struct jmem *m, const char *key)
{
	return m->keylen == strlen(key) && memcmp(m->key, key, m->keylen) == 0;
}

/* A pid or tid as text: a string's characters, a number's digits. */
static const char *id_text(const struct jmem *m)
{
	if (m->val == NULL)
		return NULL;
	if (m->val[0] == '"')
		return json_unescape(m->val, m->vallen);
	return xstrndup(m->val, m->vallen);
}

/* ---- events ---- */

struct jev {
	struct jmem name, ph, pid, tid, ts, dur, id, args;
	size_t line;
};

static void members(const char *s, size_t n, struct jev *e)
{
	struct jiter it;
	struct jmem m;

	if (!jiter_start(&it, s, n))
		return;
	while (jiter_next(&it, &m)) {
		struct jmem *to = key_is(&m, "name") ? &e->name : key_is(&m, "ph") ? &e->ph
			: key_is(&m, "pid") ? &e->pid : key_is(&m, "tid") ? &e->tid
			: key_is(&m, "ts") ? &e->ts : key_is(&m, "dur") ? &e->dur
			: key_is(&m, "id") ? &e->id : key_is(&m, "args") ? &e->args : NULL;

		if (to != NULL)
			*to = m;
	}
}

/* The member KEY of e's args, or an empty jmem. */
static struct jmem arg(const struct jev *e, const char *key)
{
	struct jiter it;
	struct jmem m;

	if (e->args.val != NULL && jiter_start(&it, e->args.val, e->args.vallen))
		while (jiter_next(&it, &m))
			if (key_is(&m, key))
				return m;
	memset(&m, 0, sizeof(m));
	return m;
}

static size_t proc_of(struct ctx *c, const char *pid)
{
	size_t i = smap_get(&c->jproc_map, pid);

	if (i != NONE)
		return i;
	grow((void **)&c->procs, &c->pcap, c->nprocs + 1, sizeof(*c->procs));
	c->procs[c->nprocs].pid = pid;
	c->procs[c->nprocs].order = c->nprocs;
	return smap_put(&c->jproc_map, pid, c->nprocs++);
}

static size_t thread_of(struct ctx *c, const char *pid, const char *tid)
{
	const char *key = xcat(pid, "\x1f", tid, (const char *)NULL);
	size_t i = smap_get(&c->jthread_map, key);

	if (i != NONE)
		return i;
	grow((void **)&c->threads, &c->thcap, c->nthreads + 1, sizeof(*c->threads));
	c->threads[c->nthreads].pid = pid;
	c->threads[c->nthreads].tid = tid;
	c->threads[c->nthreads].order = c->nthreads;
	return smap_put(&c->jthread_map, key, c->nthreads++);
}

static void on_metadata(struct ctx *c, const struct jev *e, const char *name)
{
	const char *pid = id_text(&e->pid), *tid = id_text(&e->tid);
	struct jmem nm = arg(e, "name"), si = arg(e, "sort_index");
	int thread = strcmp(name, "thread_name") == 0 || strcmp(name, "thread_sort_index") == 0;

	if (pid == NULL || (thread && tid == NULL)) {
		problem("json", "line %zu: %s without its pid or tid", e->line, name);
		return;
	}
	if (strcmp(name, "process_name") == 0 && nm.val != NULL) {
		size_t p = proc_of(c, pid);

		c->procs[p].name = json_unescape(nm.val, nm.vallen);
	} else if (strcmp(name, "process_sort_index") == 0 && si.val != NULL) {
		size_t p = proc_of(c, pid);

		c->procs[p].sort = strtod(si.val, NULL);
	} else if (strcmp(name, "thread_name") == 0 && nm.val != NULL) {
		size_t t = thread_of(c, pid, tid);

		c->threads[t].name = json_unescape(nm.val, nm.vallen);
	} else if (strcmp(name, "thread_sort_index") == 0 && si.val != NULL) {
		size_t t = thread_of(c, pid, tid);

		c->threads[t].sort = strtod(si.val, NULL);
	}
}

static void on_slice(struct ctx *c, const struct jev *e)
{
	const char *pid = id_text(&e->pid), *tid = id_text(&e->tid);
	struct jslice *s;
	static const char zero[] = "0";
	const char *dur = e->dur.val ? e->dur.val : zero;
	size_t durlen = e->dur.val ? e->dur.vallen : 1;

	if (pid == NULL || tid == NULL || e->ts.val == NULL || e->name.val == NULL) {
		problem("json", "line %zu: an X event without its name, pid, tid or ts", e->line);
		return;
	}
	grow((void **)&c->jslices, &c->jscap, c->njslices + 1, sizeof(*c->jslices));
	s = &c->jslices[c->njslices];
	s->line = e->line;
	s->match = s->thread = NONE;
	s->key = xcat(pid, "\x1f", tid, (const char *)NULL);
	s->name = json_unescape(e->name.val, e->name.vallen);
	if (s->name == NULL) {
		problem("json", "line %zu: an X event whose name is no string", e->line);
		return;
	}
	if (e->args.val != NULL && e->args.val[0] == '{') {
		s->args = e->args.val;
		s->args_len = e->args.vallen;
	}
	if (!dec_ns(e->ts.val, e->ts.vallen, NULL, 0, &s->b) ||
	    !dec_ns(e->ts.val, e->ts.vallen, dur, durlen, &s->e)) {
		problem("json", "line %zu: ts or dur out of range", e->line);
		return;
	}
	s->ts = strtod(e->ts.val, NULL);
	s->dur = strtod(dur, NULL);
	s->a_f = s->ts * 1000;
	s->b_f = (s->ts + s->dur) * 1000;
	c->njslices++;
}

static void on_arrow(struct ctx *c, const struct jev *e, char ph)
{
	const char *pid = id_text(&e->pid), *tid = id_text(&e->tid);
	struct jarrow *a;

	if (pid == NULL || tid == NULL || e->ts.val == NULL || e->id.val == NULL ||
	    !json_is_integer(e->id.val, e->id.vallen) || e->id.val[0] == '-') {
		problem("json", "line %zu: an arrow without a pid, tid, ts or integer id", e->line);
		return;
	}
	grow((void **)&c->arrows, &c->acap, c->narrows + 1, sizeof(*c->arrows));
	a = &c->arrows[c->narrows++];
	a->line = e->line;
	a->ph = ph;
	a->id = strtoull(e->id.val, NULL, 10);
	a->ts = strtod(e->ts.val, NULL);
	a->key = xcat(pid, "\x1f", tid, (const char *)NULL);
	a->thread = NONE;
}

/* A counter value: a number, a string holding a number, or other. */
static int counter_value(const struct jmem *m, double *v)
{
	char *str, *end;

	if (m->val[0] == '-' || (m->val[0] >= '0' && m->val[0] <= '9')) {
		*v = strtod(m->val, NULL);
		return CV_NUMBER;
	}
	if (m->val[0] != '"' || (str = json_unescape(m->val, m->vallen)) == NULL || *str == '\0')
		return CV_OTHER;
	*v = strtod(str, &end);
	return *end == '\0' && isfinite(*v) ? CV_NUMSTR : CV_OTHER;
}

static void on_counter(struct ctx *c, const struct jev *e)
{
	const char *pid = id_text(&e->pid), *name;
	struct jiter it;
	struct jmem m;
	int64_t ts;

	if (pid == NULL || e->name.val == NULL || e->ts.val == NULL || e->args.val == NULL ||
	    !dec_ns(e->ts.val, e->ts.vallen, NULL, 0, &ts)) {
		problem("json", "line %zu: a counter without a name, pid, ts or args", e->line);
		return;
	}
	name = json_unescape(e->name.val, e->name.vallen);
	if (name == NULL || !jiter_start(&it, e->args.val, e->args.vallen))
		return;
	while (jiter_next(&it, &m)) {
		struct jcounter *k;
		char *key = json_unescape(m.key - 1, m.keylen + 2);

		grow((void **)&c->counters, &c->ccap, c->ncounters + 1, sizeof(*c->counters));
		k = &c->counters[c->ncounters++];
		k->line = e->line;
		k->proc = pid;
		k->track = xcat(name, " ", key ? key : "", (const char *)NULL);
		k->ts = ts;
		k->kind = counter_value(&m, &k->v);
	}
}

static void on_event(struct ctx *c, const char *s, size_t n, size_t line)
{
	struct jev e;
	const char *ph;
	cJSON *j = cJSON_ParseWithLength(s, n);

	if (j == NULL || !cJSON_IsObject(j)) {
		problem("json", "line %zu: an event that is not a JSON object", line);
		cJSON_Delete(j);
		return;
	}
	cJSON_Delete(j);
	memset(&e, 0, sizeof(e));
	e.line = line;
	members(s, n, &e);
	ph = e.ph.val ? json_unescape(e.ph.val, e.ph.vallen) : NULL;
	if (ph == NULL)
		return;
	if (strcmp(ph, "M") == 0 && e.name.val != NULL) {
		const char *name = json_unescape(e.name.val, e.name.vallen);

		if (name != NULL)
			on_metadata(c, &e, name);
	}
	else if (strcmp(ph, "X") == 0)
		on_slice(c, &e);
	else if (strcmp(ph, "s") == 0 || strcmp(ph, "f") == 0)
		on_arrow(c, &e, ph[0]);
	else if (strcmp(ph, "C") == 0)
		on_counter(c, &e);
}

/* Processes, threads, slices and arrows joined up by pid and tid. */
static void resolve(struct ctx *c)
{
	size_t i;

	for (i = 0; i < c->nprocs; i++)
		if (c->procs[i].name == NULL)
			problem("json", "process \"%s\" has no process_name", c->procs[i].pid);
	for (i = 0; i < c->nthreads; i++) {
		struct jthread *t = &c->threads[i];

		t->proc = proc_of(c, t->pid);
		if (t->name == NULL)
			problem("json", "thread \"%s\" of \"%s\" has no thread_name", t->tid, t->pid);
		t->label = lane_label(t->name ? t->name : t->tid);
	}
	for (i = 0; i < c->njslices; i++) {
		c->jslices[i].thread = smap_get(&c->jthread_map, c->jslices[i].key);
		if (c->jslices[i].thread == NONE)
			problem("json", "line %zu: X event on a thread without metadata", c->jslices[i].line);
	}
	for (i = 0; i < c->narrows; i++) {
		c->arrows[i].thread = smap_get(&c->jthread_map, c->arrows[i].key);
		if (c->arrows[i].thread == NONE)
			problem("json", "line %zu: arrow on a thread without metadata", c->arrows[i].line);
	}
	for (i = 0; i < c->ncounters; i++) {
		size_t p = smap_get(&c->jproc_map, c->counters[i].proc);

		if (p != NONE && c->procs[p].name != NULL)
			c->counters[i].proc = c->procs[p].name;
	}
}

static char *slurp_text(const char *path, size_t *len)
{
	FILE *f = fopen(path, "rb");
	char *buf = NULL;
	size_t cap = 0, n = 0, got;

	if (f == NULL)
		return NULL;
	do {
		grow((void **)&buf, &cap, n + 65537, 1);
		got = fread(buf + n, 1, cap - n - 1, f);
		n += got;
	} while (got > 0);
	if (ferror(f)) {
		fclose(f);
		return NULL;
	}
	fclose(f);
	buf[n] = '\0';
	*len = n;
	return buf;
}

/* Lines from buf[*at] to buf[to], counted into *line. */
static void count_lines(const char *buf, size_t *at, size_t to, size_t *line)
{
	const char *p;

	while ((p = memchr(buf + *at, '\n', to - *at)) != NULL) {
		(*line)++;
		*at = (size_t)(p - buf) + 1;
	}
	*at = to;
}

/* The events of the traceEvents array at buf[i] (its '['). */
static void events(struct ctx *c, const char *buf, size_t len, size_t i)
{
	size_t line = 1, counted = 0;

	for (i++;;) {
		size_t end;

		i = skip_ws(buf, i, len);
		if (i < len && buf[i] == ']')
			return;
		if (i >= len || buf[i] != '{') {
			count_lines(buf, &counted, i < len ? i : len, &line);
			problem("json", "line %zu: traceEvents holds something else than an object",
				line);
			return;
		}
		end = skip_value(buf, i, len);
		count_lines(buf, &counted, i, &line);
		on_event(c, buf + i, end - i, line);
		i = skip_ws(buf, end, len);
		if (i < len && buf[i] == ',')
			i++;
	}
}

int json_read(const char *path, struct ctx *c)
{
	size_t len;
	char *buf = slurp_text(path, &len);
	struct jiter it;
	struct jmem m;
	int have_events = 0;

	if (buf == NULL)
		return 0;
	if (!jiter_start(&it, buf, len)) {
		problem("json", "%s is no JSON object", path);
		return 1;
	}
	while (jiter_next(&it, &m)) {
		if (key_is(&m, "traceEvents") && m.vallen > 0 && m.val[0] == '[') {
			events(c, buf, len, (size_t)(m.val - buf));
			resolve(c);
			have_events = 1;
		} else if (key_is(&m, "metadata")) {
			meta_read_json(c, m.val, m.vallen);
		}
	}
	if (!have_events)
		problem("json", "%s has no traceEvents array", path);
	return 1;
}
