/*
 * arrow_recheck: an independent check of the sync arrows of a
 * trace.clean.json (SPEC §5.3). It shares no code with the converter
 * (cJSON only). Per arrow (an "s" event and its "f"), it finds the one
 * slice of the s's (pid, tid) holding the s strictly inside on the ns grid
 * (start = llround(ts*1000), end = start + llround(dur*1000)), the
 * producer, and likewise the consumer of the f; then:
 *   - causal: the producer has completed when its consumer starts,
 *     float noise allowed: b - tol <= a' (a = ts*1000, b = (ts+dur)*1000
 *     in double, tol = max(0.25, |a| * 2^-22), a' the consumer's a). At
 *     most --running N arrows may break this (the converter's counted
 *     fallback, a producer still running at its SET); default 0.
 *   - with --input TRACE (the simulator's trace of the converted run, as JSON
 *     or as the last TRACE block of a visualize_data.bin):
 *     the producer is the instruction whose completion released a SET of
 *     the arrow's key. Some SET B record on the producer's pid, of the
 *     arrow's producer pipe and flag (in-core: detail PIPE:/pipe_type: or
 *     tid, FLAGID:/event_id: against the name's "flagN"; cross-core:
 *     SET_INTRA_BLOCK with sync_id:N against "syncN"), at instant T = its
 *     ts*1000 (a SET_INTRA_BLOCK's: the ts of the E record of its pid and
 *     id, its release, SPEC §13: newer producers write the B at issue,
 *     before the pipe has finished), has the producer among the slices of the trace on the
 *     producer pipe's lanes (VECTOR: VECTOR, PUSHQ, RVEC*; every sub-lane;
 *     points and "<PIPE> cache" lanes excluded) that started by T and
 *     completed by T (a <= T, b - tol <= T), with the latest end (ties: the
 *     later start, then the later in the trace's order); or, for an arrow
 *     counted under --running, no slice completed by T and the producer is
 *     the last to start by T.
 *
 *   arrow_recheck TRACE [--input TRACE] [--running N]
 *     exit 0 every arrow agrees; 1 a difference (printed); 2 usage or I/O
 */
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cjson/cJSON.h>

struct slice {
	const char *pid, *tid;
	char lane[64];
	double a, b;
	long long s, e;
	size_t order;
	int point;
};

struct set_rec {
	const char *pid;
	char pipe[64];
	long long flag;
	int has_flag;
	int intra;
	double t;
};

static int failures;

static void fail(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

static void fail(const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	failures++;
}

static char *read_file(const char *path, size_t *size)
{
	FILE *f = fopen(path, "rb");
	char *buf = NULL;
	long n;

	if (f == NULL)
		return NULL;
	if (fseek(f, 0, SEEK_END) == 0 && (n = ftell(f)) >= 0 && fseek(f, 0, SEEK_SET) == 0) {
		buf = malloc((size_t)n + 1);
		if (buf != NULL && fread(buf, 1, (size_t)n, f) != (size_t)n) {
			free(buf);
			buf = NULL;
		} else if (buf != NULL) {
			buf[n] = '\0';
			*size = (size_t)n;
		}
	}
	fclose(f);
	return buf;
}

/*
 * A visualize_data.bin's last TRACE payload, moved to the start of buf
 * (blocks: u64 size, type, padding, version, reserve; a SOURCE block's
 * 4096-byte path uncounted). Returns 0 when buf holds no such container.
 */
static int last_trace(char *buf, size_t n)
{
	size_t off = 0, at = 0, len = 0;
	int found = 0;

	while (n - off >= 12) {
		unsigned long long size = 0;
		size_t body;

		for (int i = 7; i >= 0; i--)
			size = size << 8 | (unsigned char)buf[off + (size_t)i];
		body = off + 12 + ((unsigned char)buf[off + 8] == 1 ? 4096 : 0);
		if (body > n || size > n - body || (unsigned char)buf[off + 9] > size)
			return 0;
		if ((unsigned char)buf[off + 8] == 2) {
			at = body;
			len = (size_t)size - (unsigned char)buf[off + 9];
			found = 1;
		}
		off = body + (size_t)size;
	}
	if (found) {
		memmove(buf, buf + at, len);
		buf[len] = '\0';
	}
	return found;
}

static cJSON *load(const char *path)
{
	size_t n = 0;
	char *text = read_file(path, &n);
	cJSON *doc;

	if (text != NULL && text[0] != '{' && text[0] != '[' && !last_trace(text, n))
		text[0] = '\0';
	doc = text != NULL ? cJSON_Parse(text) : NULL;
	free(text);
	if (doc == NULL) {
		fprintf(stderr, "arrow_recheck: cannot read %s as JSON\n", path);
		exit(2);
	}
	return doc;
}

static const cJSON *events_of(const cJSON *doc)
{
	const cJSON *ev = cJSON_IsArray(doc) ? doc : cJSON_GetObjectItemCaseSensitive(doc, "traceEvents");

	if (!cJSON_IsArray(ev)) {
		fprintf(stderr, "arrow_recheck: no traceEvents array\n");
		exit(2);
	}
	return ev;
}

static const char *str(const cJSON *o, const char *key)
{
	const cJSON *v = cJSON_GetObjectItemCaseSensitive(o, key);

	return cJSON_IsString(v) ? v->valuestring : NULL;
}

static int num(const cJSON *o, const char *key, double *out)
{
	const cJSON *v = cJSON_GetObjectItemCaseSensitive(o, key);

	if (!cJSON_IsNumber(v))
		return 0;
	*out = v->valuedouble;
	return 1;
}

static double tol_of(double a)
{
	return fmax(0.25, fabs(a) * ldexp(1.0, -22));
}

/* The canonical pipe of a lane or detail name. */
static void canon(const char *in, size_t n, char *out, size_t cap)
{
	if (n >= cap)
		n = cap - 1;
	memcpy(out, in, n);
	out[n] = '\0';
	if (strcmp(out, "VEC") == 0)
		snprintf(out, cap, "VECTOR");
	else if (strcmp(out, "FIXPIPE") == 0)
		snprintf(out, cap, "FIXP");
}

/* Whether lane belongs to the anchor lanes of pipe (the vector family). */
static int in_family(const char *lane, const char *pipe)
{
	if (strcmp(pipe, "VECTOR") == 0)
		return strcmp(lane, "VECTOR") == 0 || strcmp(lane, "PUSHQ") == 0 ||
		       strncmp(lane, "RVEC", 4) == 0;
	return strcmp(lane, pipe) == 0;
}

static struct slice *slices;
static size_t nslices;

static void collect_slices(const cJSON *events)
{
	const cJSON *e;

	slices = calloc((size_t)cJSON_GetArraySize(events) + 1, sizeof(*slices));
	if (slices == NULL)
		exit(2);
	cJSON_ArrayForEach(e, events) {
		const char *ph = str(e, "ph"), *pid = str(e, "pid"), *tid = str(e, "tid");
		double ts, dur = 0.0;
		struct slice *s;
		const char *hash;

		if (ph == NULL || strcmp(ph, "X") != 0 || pid == NULL || tid == NULL ||
		    !num(e, "ts", &ts))
			continue;
		(void)num(e, "dur", &dur);
		s = &slices[nslices];
		s->pid = pid;
		s->tid = tid;
		hash = strchr(tid, '#');
		canon(tid, hash != NULL ? (size_t)(hash - tid) : strlen(tid), s->lane, sizeof(s->lane));
		s->a = ts * 1000.0;
		s->b = (ts + dur) * 1000.0;
		s->s = llround(ts * 1000.0);
		s->e = s->s + llround(dur * 1000.0);
		s->point = s->e == s->s || s->b - s->a < 1.0 || strstr(tid, " cache") != NULL;
		s->order = nslices++;
	}
}

/* Slices by (pid, tid, start): a binary search finds the one holding t. */
static struct slice **by_tid;

static int tid_cmp(const void *x, const void *y)
{
	const struct slice *a = *(const struct slice *const *)x, *b = *(const struct slice *const *)y;
	int c = strcmp(a->pid, b->pid);

	if (c == 0)
		c = strcmp(a->tid, b->tid);
	if (c == 0)
		c = (a->s > b->s) - (a->s < b->s);
	return c != 0 ? c : (a->order > b->order) - (a->order < b->order);
}

/* The slice of (pid, tid) holding t (ns) strictly inside its grid interval. */
static const struct slice *holding(const char *pid, const char *tid, double t)
{
	size_t lo = 0, hi = nslices;
	const struct slice *found = NULL;
	int n = 0;

	while (lo < hi) {   /* the first slice of (pid, tid) starting at or after t */
		size_t mid = lo + (hi - lo) / 2;
		const struct slice *m = by_tid[mid];
		int c = strcmp(m->pid, pid);

		if (c == 0)
			c = strcmp(m->tid, tid);
		if (c < 0 || (c == 0 && (double)m->s < t))
			lo = mid + 1;
		else
			hi = mid;
	}
	/* On a flat lane only the slice before can hold t; look at a few. */
	for (size_t i = lo; i-- > 0 && lo - i <= 64;) {
		const struct slice *m = by_tid[i];

		if (strcmp(m->pid, pid) != 0 || strcmp(m->tid, tid) != 0)
			break;
		if ((double)m->s < t && t < (double)m->e) {
			found = m;
			n++;
		}
	}
	return n == 1 ? found : NULL;
}

/* Whether x released a flag later than y: later end, then start, then order. */
static int ends_later(const struct slice *x, const struct slice *y)
{
	if (x->b != y->b)
		return x->b > y->b;
	if (x->a != y->a)
		return x->a > y->a;
	return x->order > y->order;
}

/*
 * Anchor candidates by (pid, pipe family, end b): a query walks back from
 * the last slice ending by t + the largest tolerance. The order differs
 * from the converter's (which sorts by start and by candidacy).
 */
static struct slice **by_end;
static size_t nby_end;

static const char *family_of(const struct slice *s)
{
	return in_family(s->lane, "VECTOR") ? "VECTOR" : s->lane;
}

static int end_cmp(const void *x, const void *y)
{
	const struct slice *a = *(const struct slice *const *)x, *b = *(const struct slice *const *)y;
	int c = strcmp(a->pid, b->pid);

	if (c == 0)
		c = strcmp(family_of(a), family_of(b));
	if (c == 0)
		c = (a->b > b->b) - (a->b < b->b);
	return c != 0 ? c : (a->order > b->order) - (a->order < b->order);
}

/* Index of the first slice of (pid, fam) ordered after end b (all of them: b = INFINITY). */
static size_t end_bound(const char *pid, const char *fam, double b)
{
	size_t lo = 0, hi = nby_end;

	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;
		const struct slice *m = by_end[mid];
		int c = strcmp(m->pid, pid);

		if (c == 0)
			c = strcmp(family_of(m), fam);
		if (c < 0 || (c == 0 && m->b <= b))
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo;
}

/*
 * The producer of a SET at t on (pid, pipe's lanes): the latest-ending
 * slice started and completed by t; with none, the last to start by t on
 * the grid (*running set).
 */
static const struct slice *producer_at(const char *pid, const char *pipe, double t,
				       int *running)
{
	const struct slice *best = NULL, *last = NULL;
	size_t top = end_bound(pid, pipe, t + tol_of(t) + 1.0);

	for (size_t i = top; i-- > 0;) {
		const struct slice *s = by_end[i];

		if (strcmp(s->pid, pid) != 0 || strcmp(family_of(s), pipe) != 0)
			break;
		if (best != NULL && s->b < best->b)
			break;
		if (s->a <= t && s->b - tol_of(s->a) <= t && (best == NULL || ends_later(s, best)))
			best = s;
	}
	*running = best == NULL;
	if (best != NULL)
		return best;
	for (size_t i = end_bound(pid, pipe, INFINITY); i-- > 0;) {
		const struct slice *s = by_end[i];

		if (strcmp(s->pid, pid) != 0 || strcmp(family_of(s), pipe) != 0)
			break;
		if (s->s <= llround(t) && (last == NULL || s->s > last->s ||
					   (s->s == last->s && s->order > last->order)))
			last = s;
	}
	return last;
}

/* The f events by id, for their s's look-up. */
struct fend {
	double id;
	const cJSON *e;
};

static struct fend *fends;
static size_t nfends;

static int fend_cmp(const void *x, const void *y)
{
	const struct fend *a = x, *b = y;

	return (a->id > b->id) - (a->id < b->id);
}

static void collect_ends(const cJSON *events)
{
	const cJSON *e;

	fends = calloc((size_t)cJSON_GetArraySize(events) + 1, sizeof(*fends));
	if (fends == NULL)
		exit(2);
	cJSON_ArrayForEach(e, events) {
		const char *ph = str(e, "ph");
		const cJSON *id = cJSON_GetObjectItemCaseSensitive(e, "id");

		if (ph != NULL && strcmp(ph, "f") == 0 && cJSON_IsNumber(id))
			fends[nfends++] = (struct fend){ id->valuedouble, e };
	}
	qsort(fends, nfends, sizeof(*fends), fend_cmp);
}

/* The consumer slice of the one f whose id is id. */
static const struct slice *consumer_of(const cJSON *id)
{
	size_t lo = 0, hi = nfends;
	const char *pid, *tid;
	double ts;

	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;

		if (fends[mid].id < id->valuedouble)
			lo = mid + 1;
		else
			hi = mid;
	}
	if (lo >= nfends || fends[lo].id != id->valuedouble ||
	    (lo + 1 < nfends && fends[lo + 1].id == id->valuedouble))
		return NULL;
	pid = str(fends[lo].e, "pid");
	tid = str(fends[lo].e, "tid");
	if (pid == NULL || tid == NULL || !num(fends[lo].e, "ts", &ts))
		return NULL;
	return holding(pid, tid, ts * 1000.0);
}

/* The two orders of the slices, once they are all read. */
static void index_slices(void)
{
	by_tid = calloc(nslices + 1, sizeof(*by_tid));
	by_end = calloc(nslices + 1, sizeof(*by_end));
	if (by_tid == NULL || by_end == NULL)
		exit(2);
	for (size_t i = 0; i < nslices; i++) {
		by_tid[i] = &slices[i];
		if (!slices[i].point)
			by_end[nby_end++] = &slices[i];
	}
	qsort(by_tid, nslices, sizeof(*by_tid), tid_cmp);
	qsort(by_end, nby_end, sizeof(*by_end), end_cmp);
}

static struct set_rec *sets;
static size_t nsets;

/* The value after key (e.g. "FLAGID:") in a detail, as a number (hex too). */
static int detail_num(const char *detail, const char *key, long long *out)
{
	const char *p = detail != NULL ? strstr(detail, key) : NULL;
	char *end;

	if (p == NULL)
		return 0;
	*out = strtoll(p + strlen(key), &end, 0);
	return end != p + strlen(key);
}

static void detail_pipe(const char *detail, const char *key, char *out, size_t cap)
{
	const char *p = detail != NULL ? strstr(detail, key) : NULL;
	size_t n = 0;

	if (p == NULL)
		return;
	p += strlen(key);
	while (p[n] != '\0' && p[n] != ',' && p[n] != ' ')
		n++;
	canon(p, n, out, cap);
}

/* The ns of the E record closing the SET_INTRA_BLOCK B record b (same pid, id). */
static int intra_end(const cJSON *events, const cJSON *b, double *t)
{
	const char *pid = str(b, "pid"), *id = str(b, "id");
	const cJSON *e;
	double ts;

	if (id == NULL)
		return 0;
	cJSON_ArrayForEach(e, events) {
		const char *ph = str(e, "ph"), *name = str(e, "name");
		const char *epid = str(e, "pid"), *eid = str(e, "id");

		if (ph != NULL && strcmp(ph, "E") == 0 && name != NULL &&
		    strncmp(name, "SET_INTRA_BLOCK", 15) == 0 && epid != NULL &&
		    strcmp(epid, pid) == 0 && eid != NULL && strcmp(eid, id) == 0 &&
		    num(e, "ts", &ts)) {
			*t = ts * 1000.0;
			return 1;
		}
	}
	return 0;
}

static void collect_sets(const cJSON *events)
{
	const cJSON *e;

	sets = calloc((size_t)cJSON_GetArraySize(events) + 1, sizeof(*sets));
	if (sets == NULL)
		exit(2);
	cJSON_ArrayForEach(e, events) {
		const char *ph = str(e, "ph"), *name = str(e, "name"), *pid = str(e, "pid");
		const char *tid = str(e, "tid"), *detail = NULL;
		const cJSON *args = cJSON_GetObjectItemCaseSensitive(e, "args");
		struct set_rec *r;
		double ts;
		int intra;

		if (ph == NULL || strcmp(ph, "B") != 0 || name == NULL || pid == NULL ||
		    tid == NULL || !num(e, "ts", &ts))
			continue;
		intra = strncmp(name, "SET_INTRA_BLOCK", 15) == 0;
		if (!intra && strcmp(name, "SET_FLAG") != 0 && strcmp(name, "set_event") != 0)
			continue;
		if (cJSON_IsObject(args))
			detail = str(args, "detail");
		r = &sets[nsets++];
		r->pid = pid;
		r->intra = intra;
		r->t = ts * 1000.0;
		if (intra && !intra_end(events, e, &r->t)) {
			nsets--;
			continue;
		}
		canon(tid, strlen(tid), r->pipe, sizeof(r->pipe));
		detail_pipe(detail, "PIPE:", r->pipe, sizeof(r->pipe));
		detail_pipe(detail, "pipe_type:", r->pipe, sizeof(r->pipe));
		r->has_flag = intra ? detail_num(detail, "sync_id:", &r->flag)
			      : detail_num(detail, "FLAGID:", &r->flag) ||
				detail_num(detail, "event_id:", &r->flag);
	}
}

/* The arrow's producer pipe and flag from its cat and name. */
static int arrow_key(const cJSON *s, char *pipe, size_t cap, long long *flag, int *has_flag,
		     int *intra)
{
	const char *cat = str(s, "cat"), *name = str(s, "name"), *p;

	if (cat == NULL || name == NULL)
		return 0;
	*intra = strcmp(cat, "intra_block") == 0;
	if (*intra) {
		const char *colon = strchr(name, ':'), *sp = colon != NULL ? strchr(colon, ' ') : NULL;

		if (sp == NULL)
			return 0;
		canon(colon + 1, (size_t)(sp - colon - 1), pipe, cap);
		p = strrchr(name, 'c');   /* "... sync<id>" */
		*has_flag = p != NULL && strncmp(p - 3, "sync", 4) == 0 && p[1] != '\0';
		*flag = *has_flag ? strtoll(p + 1, NULL, 10) : 0;
		return 1;
	}
	p = strstr(cat, "To");
	if (p == NULL)
		return 0;
	canon(cat, (size_t)(p - cat), pipe, cap);
	p = strstr(name, " flag");
	*has_flag = p != NULL && p[5] != '\0';
	*flag = *has_flag ? strtoll(p + 5, NULL, 10) : 0;
	return 1;
}

static int set_key_cmp(const struct set_rec *a, const char *pid, const char *pipe, int intra,
		       int has_flag, long long flag)
{
	int c = strcmp(a->pid, pid);

	if (c == 0)
		c = strcmp(a->pipe, pipe);
	if (c == 0)
		c = (a->intra > intra) - (a->intra < intra);
	if (c == 0)
		c = (a->has_flag > has_flag) - (a->has_flag < has_flag);
	if (c == 0 && has_flag)
		c = (a->flag > flag) - (a->flag < flag);
	return c;
}

static int set_cmp(const void *x, const void *y)
{
	const struct set_rec *a = x, *b = y;
	int c = set_key_cmp(a, b->pid, b->pipe, b->intra, b->has_flag, b->flag);

	return c != 0 ? c : (a->t > b->t) - (a->t < b->t);
}

/*
 * Whether some SET of the arrow's key names prod as its producer; *running
 * when only a SET at which prod was still running (the fallback) does. The
 * SETs prod could have released lie at or after its start; past the first
 * SET whose producer ends later than prod, none can.
 */
static int released_by(const cJSON *s, const struct slice *prod, int *running)
{
	char pipe[64];
	long long flag = 0;
	int has_flag = 0, intra = 0, found = 0;
	size_t lo = 0, hi = nsets;

	*running = 1;
	if (!arrow_key(s, pipe, sizeof(pipe), &flag, &has_flag, &intra))
		return 0;
	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;
		int c = set_key_cmp(&sets[mid], prod->pid, pipe, intra, has_flag, flag);

		if (c < 0 || (c == 0 && sets[mid].t < prod->a - 1.0))
			lo = mid + 1;
		else
			hi = mid;
	}
	for (size_t i = lo; i < nsets; i++) {
		const struct set_rec *r = &sets[i];
		const struct slice *p;
		int run;

		if (set_key_cmp(r, prod->pid, pipe, intra, has_flag, flag) != 0)
			break;
		p = producer_at(r->pid, pipe, r->t, &run);
		if (p == prod) {
			found = 1;
			*running = *running && run;
		} else if (p != NULL && !run && ends_later(p, prod)) {
			break;
		}
	}
	return found;
}

int main(int argc, char **argv)
{
	const char *trace = NULL, *input = NULL;
	long running_allowed = 0, running_seen = 0, broken = 0, arrows = 0;
	cJSON *doc, *in_doc = NULL;
	const cJSON *events, *s;

	for (int i = 1; i < argc; i++) {
		if (strcmp(argv[i], "--input") == 0 && i + 1 < argc)
			input = argv[++i];
		else if (strcmp(argv[i], "--running") == 0 && i + 1 < argc)
			running_allowed = strtol(argv[++i], NULL, 10);
		else if (trace == NULL)
			trace = argv[i];
		else
			trace = NULL, i = argc;
	}
	if (trace == NULL) {
		fprintf(stderr, "usage: arrow_recheck TRACE [--input TRACE] [--running N]\n");
		return 2;
	}
	doc = load(trace);
	events = events_of(doc);
	collect_slices(events);
	index_slices();
	collect_ends(events);
	if (input != NULL) {
		in_doc = load(input);
		collect_sets(events_of(in_doc));
		qsort(sets, nsets, sizeof(*sets), set_cmp);
	}
	cJSON_ArrayForEach(s, events) {
		const char *ph = str(s, "ph"), *pid = str(s, "pid"), *tid = str(s, "tid");
		const cJSON *id = cJSON_GetObjectItemCaseSensitive(s, "id");
		const struct slice *prod, *cons;
		double ts;

		if (ph == NULL || strcmp(ph, "s") != 0)
			continue;
		arrows++;
		if (pid == NULL || tid == NULL || !num(s, "ts", &ts) || !cJSON_IsNumber(id)) {
			fail("arrow %ld: malformed s\n", arrows);
			continue;
		}
		prod = holding(pid, tid, ts * 1000.0);
		cons = consumer_of(id);
		if (prod == NULL || cons == NULL) {
			fail("arrow id %lld: no single slice holds an end\n", (long long)id->valuedouble);
			continue;
		}
		if (prod->b - tol_of(prod->a) > cons->a) {
			broken++;
			if (broken > running_allowed)
				fail("arrow id %lld: the producer ends after its consumer starts\n",
				     (long long)id->valuedouble);
		}
		if (input != NULL) {
			int run = 0;

			if (!released_by(s, prod, &run))
				fail("arrow id %lld: no SET of its key was released by its producer's completion\n",
				     (long long)id->valuedouble);
			running_seen += run;
		}
	}
	if (input != NULL && running_seen > running_allowed)
		fail("%ld arrow(s) on a still-running producer beyond --running\n", running_seen);
	printf("%ld arrow(s) checked, %ld ending after their consumer starts, %d failure(s)\n",
	       arrows, broken, failures);
	free(slices);
	free(by_tid);
	free(by_end);
	free(fends);
	free(sets);
	cJSON_Delete(doc);
	cJSON_Delete(in_doc);
	return failures > 0 ? 1 : 0;
}
