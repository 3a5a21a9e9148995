/*
 * compare_recheck: an independent check of compare.json (SPEC §14,
 * docs/compare.md) against the two files it compared. It shares no code
 * with the converter (cJSON only):
 *
 *   compare_recheck BASE.json NEW.json COMPARE.json [PCT]
 *
 * For two summary.json files (the last run of each) it recomputes the
 * kernel's span (each side's load_balance slowest core), every core's span
 * (NEW's cores in order, then BASE's others), change_ns and change_share
 * (4 decimals, half away from zero), each core's pipes (busy_ns, the busy
 * ns on its critical path, path_share = path / span to 4 decimals), the
 * diagnosis ids that appeared and went away, the spans past PCT % (a
 * span from 0 to more is past any PCT), and, when both carry every
 * instruction ("instructions"), the instructions and source lines whose
 * summed cycles moved. For two batch_summary.json files:
 * the rows in both (slowest_span_us as ns; paired by path, else by place:
 * the time-stamped levels aside, where each side has one), added and
 * removed. Prints
 * each difference; exit 0 when none, 1 otherwise, 2 on usage or I/O.
 */
#include <cjson/cJSON.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define NONE (-1e300)

static int bad;

static void fail(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

static void fail(const char *fmt, ...)
{
	va_list ap;

	printf("compare_recheck: ");
	va_start(ap, fmt);
	vprintf(fmt, ap);
	va_end(ap);
	printf("\n");
	bad = 1;
}

static cJSON *load(const char *path)
{
	FILE *f = fopen(path, "rb");
	char *buf;
	long n;
	cJSON *j;

	if (f == NULL || fseek(f, 0, SEEK_END) != 0 || (n = ftell(f)) < 0 ||
	    fseek(f, 0, SEEK_SET) != 0 || (buf = malloc((size_t)n + 1)) == NULL) {
		fprintf(stderr, "compare_recheck: cannot read %s\n", path);
		exit(2);
	}
	if (fread(buf, 1, (size_t)n, f) != (size_t)n) {
		fprintf(stderr, "compare_recheck: cannot read %s\n", path);
		exit(2);
	}
	buf[n] = '\0';
	fclose(f);
	j = cJSON_Parse(buf);
	free(buf);
	if (j == NULL) {
		fprintf(stderr, "compare_recheck: %s is not JSON\n", path);
		exit(2);
	}
	return j;
}

static double num(const cJSON *o, const char *key)
{
	const cJSON *v = cJSON_GetObjectItemCaseSensitive(o, key);

	return cJSON_IsNumber(v) ? v->valuedouble : NONE;
}

static const char *str(const cJSON *o, const char *key)
{
	const cJSON *v = cJSON_GetObjectItemCaseSensitive(o, key);

	return cJSON_IsString(v) ? v->valuestring : NULL;
}

/* The run a file's figures come from: the last of "runs", or the file. */
static const cJSON *last_run(const cJSON *doc)
{
	const cJSON *runs = cJSON_GetObjectItemCaseSensitive(doc, "runs");

	return cJSON_IsArray(runs) ? cJSON_GetArrayItem(runs, cJSON_GetArraySize(runs) - 1) : doc;
}

static const cJSON *find_named(const cJSON *arr, const char *key, const char *name)
{
	const cJSON *e;

	cJSON_ArrayForEach(e, arr) {
		const char *s = str(e, key);

		if (s != NULL && name != NULL && strcmp(s, name) == 0)
			return e;
	}
	return NULL;
}

/* The expected change share: (n - b) / b to 4 decimals, half away from zero. */
static double share4(double b, double n)
{
	double bp;

	if (b == NONE || n == NONE || b <= 0)
		return NONE;
	bp = (n - b) * 10000.0 / b;
	bp = bp < 0 ? -floor(-bp + 0.5) : floor(bp + 0.5);
	return bp / 10000.0;
}

static int same(double want, const cJSON *got)
{
	if (want == NONE)
		return cJSON_IsNull(got);
	return cJSON_IsNumber(got) && fabs(got->valuedouble - want) < 1e-9;
}

/* "key":[b,n] with the change and, when share_key, the change share. */
static void check_pair(const cJSON *o, const char *what, const char *key, const char *change,
		       double b, double n, int with_share)
{
	const cJSON *p = cJSON_GetObjectItemCaseSensitive(o, key);
	char label[512];

	snprintf(label, sizeof(label), "%s %s", what, key);
	if (!cJSON_IsArray(p) || cJSON_GetArraySize(p) != 2 || !same(b, cJSON_GetArrayItem(p, 0)) ||
	    !same(n, cJSON_GetArrayItem(p, 1)))
		fail("%s: want [%.0f, %.0f]", label, b, n);
	snprintf(label, sizeof(label), "%s %s", what, change);
	if (!same(b != NONE && n != NONE ? n - b : NONE,
		  cJSON_GetObjectItemCaseSensitive(o, change)))
		fail("%s: wrong (base %.0f, new %.0f)", label, b, n);
	if (with_share && !same(share4(b, n), cJSON_GetObjectItemCaseSensitive(o, "change_share")))
		fail("%s: change_share wrong (base %.0f, new %.0f)", label, b, n);
}

static double core_span(const cJSON *c)
{
	return c != NULL ? num(c, "span_ns") : NONE;
}

static double path_ns(const cJSON *core, const char *pipe)
{
	const cJSON *cp, *busy, *e;

	if (core == NULL)
		return NONE;
	cp = cJSON_GetObjectItemCaseSensitive(core, "critical_path");
	if (!cJSON_IsObject(cp))
		return NONE;
	busy = cJSON_GetObjectItemCaseSensitive(cp, "busy");
	e = find_named(busy, "pipe", pipe);
	return e != NULL ? num(e, "ns") : 0;
}

static double share_of(double part, double span)
{
	if (part == NONE || span == NONE || span <= 0)
		return NONE;
	return floor(part * 10000.0 / span + 0.5) / 10000.0;
}

static void check_pipe(const cJSON *got, const char *core, const char *pipe, const cJSON *bc,
		       const cJSON *nc)
{
	const cJSON *bp = bc != NULL ? find_named(cJSON_GetObjectItemCaseSensitive(bc, "pipes"),
						  "pipe", pipe) : NULL;
	const cJSON *np = nc != NULL ? find_named(cJSON_GetObjectItemCaseSensitive(nc, "pipes"),
						  "pipe", pipe) : NULL;
	const double pb = bp != NULL ? path_ns(bc, pipe) : NONE;
	const double pn = np != NULL ? path_ns(nc, pipe) : NONE;
	const cJSON *ps = cJSON_GetObjectItemCaseSensitive(got, "path_share");
	char what[300];

	snprintf(what, sizeof(what), "%s pipe %s", core, pipe);
	check_pair(got, what, "busy_ns", "change_ns", bp != NULL ? num(bp, "busy_ns") : NONE,
		   np != NULL ? num(np, "busy_ns") : NONE, 1);
	check_pair(got, what, "path_ns", "path_change_ns", pb, pn, 0);
	if (!cJSON_IsArray(ps) || !same(share_of(pb, core_span(bc)), cJSON_GetArrayItem(ps, 0)) ||
	    !same(share_of(pn, core_span(nc)), cJSON_GetArrayItem(ps, 1)))
		fail("%s: path_share wrong (%.0f, %.0f)", what, pb, pn);
}

/* NEW's pipes then BASE's others, as compare.json lists them. */
static void check_pipes(const cJSON *got, const char *core, const cJSON *bc, const cJSON *nc)
{
	const cJSON *pipes = cJSON_GetObjectItemCaseSensitive(got, "pipes"), *e;
	int want = 0, i = 0;

	if (nc != NULL)
		cJSON_ArrayForEach(e, cJSON_GetObjectItemCaseSensitive(nc, "pipes")) {
			check_pipe(cJSON_GetArrayItem(pipes, want), core, str(e, "pipe"), bc, nc);
			want++;
		}
	if (bc != NULL)
		cJSON_ArrayForEach(e, cJSON_GetObjectItemCaseSensitive(bc, "pipes")) {
			if (nc != NULL && find_named(cJSON_GetObjectItemCaseSensitive(nc, "pipes"),
						     "pipe", str(e, "pipe")) != NULL)
				continue;
			check_pipe(cJSON_GetArrayItem(pipes, want), core, str(e, "pipe"), bc, nc);
			want++;
		}
	cJSON_ArrayForEach(e, pipes) i++;
	if (i != want)
		fail("%s: %d pipes listed, want %d", core, i, want);
}

static void check_slower(const cJSON *cmp, const char *name, double b, double n, double pct,
			 int *k)
{
	const cJSON *slower = cJSON_GetObjectItemCaseSensitive(cmp, "slower");
	const cJSON *e;
	const char *got;

	if (pct < 0 || b == NONE || n == NONE || n <= b || (b > 0 && (n - b) * 100.0 <= pct * b))
		return;
	e = cJSON_GetArrayItem(slower, *k);
	got = e != NULL ? str(e, "name") : NULL;
	if (e == NULL || (name == NULL) != (got == NULL) ||
	    (name != NULL && strcmp(name, got) != 0))
		fail("slower: want %s in place %d", name != NULL ? name : "the kernel", *k);
	(*k)++;
}

static int has_id(const cJSON *diags, const char *id)
{
	return find_named(diags, "id", id) != NULL;
}

static void check_diags(const cJSON *cmp, const cJSON *b, const cJSON *n)
{
	const cJSON *bd = cJSON_GetObjectItemCaseSensitive(b, "diagnosis");
	const cJSON *nd = cJSON_GetObjectItemCaseSensitive(n, "diagnosis");
	const cJSON *dg = cJSON_GetObjectItemCaseSensitive(cmp, "diagnosis");
	const cJSON *app = cJSON_GetObjectItemCaseSensitive(dg, "appeared");
	const cJSON *gone = cJSON_GetObjectItemCaseSensitive(dg, "gone"), *e;
	int want_app = 0, want_gone = 0;

	cJSON_ArrayForEach(e, nd)
		if (!has_id(bd, str(e, "id"))) {
			want_app++;
			if (!has_id(app, str(e, "id")))
				fail("diagnosis %s appeared but is not listed", str(e, "id"));
		}
	cJSON_ArrayForEach(e, bd)
		if (!has_id(nd, str(e, "id"))) {
			want_gone++;
			if (!has_id(gone, str(e, "id")))
				fail("diagnosis %s went away but is not listed", str(e, "id"));
		}
	if (cJSON_GetArraySize(app) != want_app || cJSON_GetArraySize(gone) != want_gone)
		fail("diagnosis: %d appeared, %d gone listed otherwise", want_app, want_gone);
}

static const cJSON *slowest(const cJSON *run)
{
	const cJSON *lb = cJSON_GetObjectItemCaseSensitive(run, "load_balance");

	return find_named(cJSON_GetObjectItemCaseSensitive(run, "cores"), "core",
			  lb != NULL ? str(lb, "slowest_core") : NULL);
}

/* A side's estimate of the kernel's span with pipe twice as fast, or NONE. */
static double estimate(const cJSON *run, const char *pipe)
{
	const cJSON *lb = cJSON_GetObjectItemCaseSensitive(run, "load_balance");
	const cJSON *e = find_named(cJSON_GetObjectItemCaseSensitive(lb, "what_if"), "pipe", pipe);

	return e != NULL ? num(e, "span_ns") : NONE;
}

/* what_if: NEW's pipes in order, then BASE's others, each side's span and change. */
static void check_estimates(const cJSON *cmp, const cJSON *b, const cJSON *n, double kb,
			    double kn)
{
	const cJSON *got = cJSON_GetObjectItemCaseSensitive(cmp, "what_if"), *e;
	int i = 0;

	for (int side = 0; side < 2; side++) {
		const cJSON *lb = cJSON_GetObjectItemCaseSensitive(side ? b : n, "load_balance");

		cJSON_ArrayForEach(e, cJSON_GetObjectItemCaseSensitive(lb, "what_if")) {
			const char *pipe = str(e, "pipe");
			const cJSON *g = cJSON_GetArrayItem(got, i), *sp, *ch;
			double vb = estimate(b, pipe), vn = estimate(n, pipe);

			if (side && vn != NONE)
				continue;
			i++;
			sp = cJSON_GetObjectItemCaseSensitive(g, "span_ns");
			ch = cJSON_GetObjectItemCaseSensitive(g, "change");
			if (g == NULL || str(g, "pipe") == NULL || strcmp(str(g, "pipe"), pipe) != 0) {
				fail("what_if %s: not in its place", pipe);
				continue;
			}
			if (!same(vb, cJSON_GetArrayItem(sp, 0)) || !same(vn, cJSON_GetArrayItem(sp, 1)) ||
			    !same(share4(kb, vb), cJSON_GetArrayItem(ch, 0)) ||
			    !same(share4(kn, vn), cJSON_GetArrayItem(ch, 1)))
				fail("what_if %s: span_ns or change is not each side's estimate", pipe);
		}
	}
	if (cJSON_GetArraySize(got) != i)
		fail("what_if: %d listed, want %d", cJSON_GetArraySize(got), i);
}

/* One key's cycles on both sides (NONE where a side has no row of it). */
struct sum {
	char key[512];
	double base, now;
};

/* The key of a row: lines by source; instructions by mnemonic and source,
   or address without one; "" for a row that has none (a flag, no line). */
static void row_key(const cJSON *row, int lines, char *key, size_t n)
{
	const char *src = str(row, "source"), *addr = str(row, "address");
	const char *mn = str(row, "mnemonic");

	key[0] = '\0';
	if (lines) {
		if (src != NULL)
			snprintf(key, n, "%s", src);
	} else if (!cJSON_IsTrue(cJSON_GetObjectItemCaseSensitive(row, "flag"))) {
		snprintf(key, n, "%s\x1f%s%s", mn != NULL ? mn : "", src != NULL ? "S" : "A",
			 src != NULL ? src : addr != NULL ? addr : "");
	}
}

/* Adds every row of rows to the sums, on one side. */
static void add_rows(struct sum *s, size_t *n, const cJSON *rows, int lines, int now)
{
	const cJSON *r;

	cJSON_ArrayForEach(r, rows) {
		char key[512];
		size_t i;

		row_key(r, lines, key, sizeof(key));
		if (key[0] == '\0')
			continue;
		for (i = 0; i < *n && strcmp(s[i].key, key) != 0; i++)
			;
		if (i == *n) {
			snprintf(s[i].key, sizeof(s[i].key), "%s", key);
			s[i].base = s[i].now = NONE;
			(*n)++;
		}
		if (now)
			s[i].now = (s[i].now == NONE ? 0 : s[i].now) + num(r, "cycles");
		else
			s[i].base = (s[i].base == NONE ? 0 : s[i].base) + num(r, "cycles");
	}
}

/*
 * "instructions" and "source_lines" when both summaries carry every
 * instruction: exactly the keys whose summed cycles differ, each with its
 * two sums, the largest change first.
 */
static void check_items(const cJSON *cmp, const cJSON *b, const cJSON *n, int lines)
{
	const cJSON *brows = cJSON_GetObjectItemCaseSensitive(b, "instructions");
	const cJSON *nrows = cJSON_GetObjectItemCaseSensitive(n, "instructions");
	const char *what = lines ? "source_lines" : "instructions";
	const cJSON *got = cJSON_GetObjectItemCaseSensitive(cmp, what), *e;
	size_t cap = (size_t)cJSON_GetArraySize(brows) + (size_t)cJSON_GetArraySize(nrows) + 1;
	struct sum *s = calloc(cap, sizeof(*s));
	size_t ns = 0, want = 0;
	double last = -1;

	if (s == NULL) {
		fail("out of memory");
		return;
	}
	add_rows(s, &ns, brows, lines, 0);
	add_rows(s, &ns, nrows, lines, 1);
	for (size_t i = 0; i < ns; i++)
		want += s[i].base != s[i].now;
	if ((size_t)cJSON_GetArraySize(got) != want)
		fail("%s: %d listed, %zu moved", what, cJSON_GetArraySize(got), want);
	cJSON_ArrayForEach(e, got) {
		const cJSON *c = cJSON_GetObjectItemCaseSensitive(e, "cycles");
		const cJSON *cb = cJSON_GetArrayItem(c, 0), *cn = cJSON_GetArrayItem(c, 1);
		const double gb = cJSON_IsNumber(cb) ? cb->valuedouble : NONE;
		const double gn = cJSON_IsNumber(cn) ? cn->valuedouble : NONE;
		const double mag = fabs((gn == NONE ? 0 : gn) - (gb == NONE ? 0 : gb));
		char key[512];
		size_t i;

		row_key(e, lines, key, sizeof(key));
		for (i = 0; i < ns && strcmp(s[i].key, key) != 0; i++)
			;
		if (i == ns || s[i].base != gb || s[i].now != gn)
			fail("%s: %s [%g, %g] is not what the summaries sum to", what, key, gb, gn);
		if (last >= 0 && mag > last)
			fail("%s: %s moved more than the one before it", what, key);
		last = mag;
	}
	free(s);
}

static void check_single(const cJSON *bdoc, const cJSON *ndoc, const cJSON *cmp, double pct)
{
	const cJSON *b = last_run(bdoc), *n = last_run(ndoc);
	const cJSON *bcores = cJSON_GetObjectItemCaseSensitive(b, "cores");
	const cJSON *ncores = cJSON_GetObjectItemCaseSensitive(n, "cores");
	const cJSON *got = cJSON_GetObjectItemCaseSensitive(cmp, "cores"), *e;
	const double kb = core_span(slowest(b)), kn = core_span(slowest(n));
	int i = 0, k = 0;

	check_pair(cJSON_GetObjectItemCaseSensitive(cmp, "kernel"), "kernel", "span_ns",
		   "change_ns", kb, kn, 1);
	check_slower(cmp, NULL, kb, kn, pct, &k);
	cJSON_ArrayForEach(e, ncores) {
		const char *name = str(e, "core");
		const cJSON *bc = find_named(bcores, "core", name);
		const cJSON *g = cJSON_GetArrayItem(got, i++);

		if (g == NULL || str(g, "core") == NULL || strcmp(str(g, "core"), name) != 0) {
			fail("core %s: not in its place", name);
			continue;
		}
		check_pair(g, name, "span_ns", "change_ns", core_span(bc), core_span(e), 1);
		check_pipes(g, name, bc, e);
		check_slower(cmp, name, core_span(bc), core_span(e), pct, &k);
	}
	cJSON_ArrayForEach(e, bcores) {
		const char *name = str(e, "core");
		const cJSON *g;

		if (find_named(ncores, "core", name) != NULL)
			continue;
		g = cJSON_GetArrayItem(got, i++);
		if (g == NULL || str(g, "core") == NULL || strcmp(str(g, "core"), name) != 0) {
			fail("core %s (BASE only): not in its place", name);
			continue;
		}
		check_pair(g, name, "span_ns", "change_ns", core_span(e), NONE, 1);
		check_pipes(g, name, e, NULL);
	}
	if (cJSON_GetArraySize(got) != i)
		fail("cores: %d listed, want %d", cJSON_GetArraySize(got), i);
	if (cJSON_GetArraySize(cJSON_GetObjectItemCaseSensitive(cmp, "slower")) != k)
		fail("slower: %d listed, want %d",
		     cJSON_GetArraySize(cJSON_GetObjectItemCaseSensitive(cmp, "slower")), k);
	check_diags(cmp, b, n);
	check_estimates(cmp, b, n, kb, kn);
	if (cJSON_IsArray(cJSON_GetObjectItemCaseSensitive(b, "instructions")) &&
	    cJSON_IsArray(cJSON_GetObjectItemCaseSensitive(n, "instructions"))) {
		if (!cJSON_IsTrue(cJSON_GetObjectItemCaseSensitive(cmp, "items_complete")))
			fail("items_complete: both summaries carry every instruction");
		check_items(cmp, b, n, 0);
		check_items(cmp, b, n, 1);
	}
}

static double row_span(const cJSON *row)
{
	const double us = row != NULL ? num(row, "slowest_span_us") : NONE;
	const char *status = row != NULL ? str(row, "status") : NULL;

	if (us == NONE || status == NULL || strcmp(status, "ok") != 0)
		return NONE;
	return floor(us * 1000.0 + 0.5);
}

/*
 * A dump's place across builds (docs/compare.md, "Batches"): its path
 * after its last kernel_insight_all_funcs_* folder, each OPPROF_* folder
 * written OPPROF_*.
 */
static void place_of(const char *dump, char *out, size_t n)
{
	const char *p = dump, *q;
	size_t k = 0;

	for (q = dump; *q != '\0'; q++)
		if ((q == dump || q[-1] == '/') && strncmp(q, "kernel_insight_all_funcs_", 25) == 0)
			p = strchr(q, '/') != NULL ? strchr(q, '/') + 1 : q + strlen(q);
	while (*p != '\0' && k + 10 < n) {
		const char *end = strchr(p, '/');
		size_t len = end != NULL ? (size_t)(end - p) : strlen(p);

		if (strncmp(p, "OPPROF_", 7) == 0)
			k += (size_t)snprintf(out + k, n - k, "OPPROF_*");
		else
			k += (size_t)snprintf(out + k, n - k, "%.*s", (int)len, p);
		p += len;
		if (*p == '/') {
			out[k++] = '/';
			p++;
		}
	}
	out[k] = '\0';
}

/* Row i's dump, "" when it has none. */
static const char *dump_of(const cJSON *rows, int i)
{
	const char *d = str(cJSON_GetArrayItem(rows, i), "dump");

	return d != NULL ? d : "";
}

/* The one unpaired row of rows at place, or -1 (none or several). */
static int one_at(const cJSON *rows, const int *paired, const char *place)
{
	const cJSON *r;
	int i = 0, found = -1;
	char pl[1024];

	cJSON_ArrayForEach(r, rows) {
		place_of(str(r, "dump") != NULL ? str(r, "dump") : "", pl, sizeof(pl));
		if (paired[i] < 0 && strcmp(pl, place) == 0) {
			if (found >= 0)
				return -1;
			found = i;
		}
		i++;
	}
	return found;
}

/* now_pair[i]: the base row of NEW's row i (-1: none), and the reverse. */
static void pair_rows(const cJSON *brows, const cJSON *nrows, int *base_pair, int *now_pair)
{
	const int nb = cJSON_GetArraySize(brows), nn = cJSON_GetArraySize(nrows);
	char pl[1024];

	for (int j = 0; j < nb; j++)
		base_pair[j] = -1;
	for (int i = 0; i < nn; i++) {
		const char *d = str(cJSON_GetArrayItem(nrows, i), "dump");

		now_pair[i] = -1;
		for (int j = 0; j < nb && d != NULL; j++) {
			const char *e = str(cJSON_GetArrayItem(brows, j), "dump");

			if (base_pair[j] < 0 && e != NULL && strcmp(d, e) == 0) {
				now_pair[i] = j;
				base_pair[j] = i;
				break;
			}
		}
	}
	for (int i = 0; i < nn; i++) {
		int j;

		if (now_pair[i] >= 0)
			continue;
		place_of(dump_of(nrows, i), pl, sizeof(pl));
		j = one_at(brows, base_pair, pl);
		if (j < 0)
			continue;
		place_of(dump_of(brows, j), pl, sizeof(pl));
		if (one_at(nrows, now_pair, pl) == i) {
			now_pair[i] = j;
			base_pair[j] = i;
		}
	}
}

static void check_list(const cJSON *cmp, const char *key, const cJSON *from, const int *paired)
{
	const cJSON *list = cJSON_GetObjectItemCaseSensitive(cmp, key), *e;
	int want = 0, i = 0;

	cJSON_ArrayForEach(e, from) {
		if (paired[i++] >= 0)
			continue;
		if (find_named(list, "dump", str(e, "dump")) == NULL)
			fail("%s: a dump not listed (%d before it)", key, want);
		want++;
	}
	if (cJSON_GetArraySize(list) != want)
		fail("%s: %d listed, want %d", key, cJSON_GetArraySize(list), want);
}

static void check_batch(const cJSON *bdoc, const cJSON *ndoc, const cJSON *cmp, double pct)
{
	const cJSON *brows = cJSON_GetObjectItemCaseSensitive(bdoc, "rows");
	const cJSON *nrows = cJSON_GetObjectItemCaseSensitive(ndoc, "rows");
	const cJSON *dumps = cJSON_GetObjectItemCaseSensitive(cmp, "dumps"), *e;
	int *base_pair = calloc((size_t)cJSON_GetArraySize(brows) + 1, sizeof(int));
	int *now_pair = calloc((size_t)cJSON_GetArraySize(nrows) + 1, sizeof(int));
	int i = 0, k = 0, r = 0;

	if (base_pair == NULL || now_pair == NULL) {
		fail("out of memory");
		free(base_pair);
		free(now_pair);
		return;
	}
	pair_rows(brows, nrows, base_pair, now_pair);
	cJSON_ArrayForEach(e, nrows) {
		const char *name = str(e, "dump");
		const cJSON *b = now_pair[r] >= 0 ? cJSON_GetArrayItem(brows, now_pair[r]) : NULL, *g;

		r++;
		if (b == NULL)
			continue;
		g = cJSON_GetArrayItem(dumps, i++);
		if (g == NULL || str(g, "dump") == NULL || strcmp(str(g, "dump"), name) != 0) {
			fail("dump %s: not in its place", name);
			continue;
		}
		check_pair(g, name, "span_ns", "change_ns", row_span(b), row_span(e), 1);
		check_slower(cmp, name, row_span(b), row_span(e), pct, &k);
	}
	if (cJSON_GetArraySize(dumps) != i)
		fail("dumps: %d listed, want %d", cJSON_GetArraySize(dumps), i);
	check_list(cmp, "added", nrows, now_pair);
	check_list(cmp, "removed", brows, base_pair);
	if (cJSON_GetArraySize(cJSON_GetObjectItemCaseSensitive(cmp, "slower")) != k)
		fail("slower: %d listed, want %d",
		     cJSON_GetArraySize(cJSON_GetObjectItemCaseSensitive(cmp, "slower")), k);
	free(base_pair);
	free(now_pair);
}

int main(int argc, char **argv)
{
	cJSON *b, *n, *c;
	const char *kind;
	double pct = -1;

	if (argc != 4 && argc != 5) {
		fprintf(stderr, "usage: compare_recheck BASE.json NEW.json COMPARE.json [PCT]\n");
		return 2;
	}
	if (argc == 5)
		pct = strtod(argv[4], NULL);
	b = load(argv[1]);
	n = load(argv[2]);
	c = load(argv[3]);
	kind = str(c, "kind");
	if (num(c, "schema") != 1 || kind == NULL)
		fail("compare.json: schema %.0f, or no kind", num(c, "schema"));
	else if (strcmp(kind, "batch") == 0)
		check_batch(b, n, c, pct);
	else
		check_single(b, n, c, pct);
	cJSON_Delete(b);
	cJSON_Delete(n);
	cJSON_Delete(c);
	return bad;
}
