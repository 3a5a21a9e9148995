/*
 * path_recheck: compares summary.json's critical paths with the truth
 * gen_path wrote for the same run (tests/cli/t_critical_path.sh,
 * t_critical_path_what_if.sh). It shares no code with the converter
 * (cJSON only).
 *
 *   path_recheck TRUTH SUMMARY              the paths
 *   path_recheck --what-if TRUTH SUMMARY    the what-if estimates
 *
 * The paths: per core of the truth, the summary's core of that name (in
 * "cores", or in each of "runs"[].cores) must have a critical_path whose
 * span_ns, segments, busy ns per pipe, wait ns per producer -> consumer
 * pair, cross_core_wait_ns and issue_ns equal the truth's exactly, and
 * its top_instructions are the truth's instructions holding the most of
 * the path (by pc_addr and name: every tile runs one program, so an
 * instruction's time on the path sums over the tiles; busy inside it and
 * waited for its release, a cross-core one on another core) with the
 * truth's ns, busy_ns and released_ns, the 10 largest (ties at
 * the tenth: any of them), largest first; and on
 * every core of the summary the invariants of docs/summary.md hold: busy +
 * wait + cross + issue == span_ns == the core's span_ns; every share is ns
 * / span_ns to its 4 decimals; busy and wait largest first; what_if holds
 * at most 16 pipes busy on the run's paths, its own busy ones among them,
 * smallest span first, each span at most span_ns and its change (span' -
 * span) / span to 4 decimals.
 *
 * The what-if: every estimate must equal the span the documented model
 * gives (the truth's model_span_ns: docs/critical-path.md "What-if"
 * replayed on the trace from the simulation's causes), and is printed
 * against the simulated span with that pipe twice as fast:
 *   whatif <core> <pipe> <simulated> <estimate> <(estimate - simulated) / span>
 * The estimate is not expected to equal the simulation: the model leaves
 * out what the trace does not show (critical-path.md says what). And the
 * kernel's estimates (load_balance.what_if) must be, per pipe, the largest
 * of its cores' (a core's span where it lists none).
 *
 * Exit status: 0 all agree, 1 a difference (printed), 2 usage or unreadable input.
 */
#include <limits.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cjson/cJSON.h>

struct ctx {
	int failures;
	const char *core;
};

static void fail(struct ctx *c, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	printf("FAIL: %s: ", c->core);
	vprintf(fmt, ap);
	printf("\n");
	va_end(ap);
	c->failures++;
}

static cJSON *load(const char *path)
{
	FILE *f = fopen(path, "rb");
	char *buf = NULL;
	long n = -1;
	cJSON *j = NULL;

	if (f != NULL && fseek(f, 0, SEEK_END) == 0 && (n = ftell(f)) >= 0 &&
	    fseek(f, 0, SEEK_SET) == 0 && (buf = malloc((size_t)n + 1)) != NULL &&
	    fread(buf, 1, (size_t)n, f) == (size_t)n) {
		buf[n] = '\0';
		j = cJSON_Parse(buf);
	}
	if (f != NULL)
		fclose(f);
	free(buf);
	if (j == NULL)
		fprintf(stderr, "path_recheck: %s: unreadable or not JSON\n", path);
	return j;
}

/* An integer member, or LLONG_MIN when it is missing or not a whole number. */
static long long num(const cJSON *o, const char *key)
{
	const cJSON *v = cJSON_GetObjectItemCaseSensitive(o, key);

	if (!cJSON_IsNumber(v) || v->valuedouble != floor(v->valuedouble))
		return LLONG_MIN;
	return (long long)v->valuedouble;
}

static const char *str(const cJSON *o, const char *key)
{
	const cJSON *v = cJSON_GetObjectItemCaseSensitive(o, key);

	return cJSON_IsString(v) ? v->valuestring : "";
}

/* The summary's core named `name`, searched in cores and in every run's cores. */
static const cJSON *find_core(const cJSON *summary, const char *name)
{
	const cJSON *runs = cJSON_GetObjectItemCaseSensitive(summary, "runs");
	const cJSON *run, *core;

	cJSON_ArrayForEach(core, cJSON_GetObjectItemCaseSensitive(summary, "cores"))
		if (strcmp(str(core, "core"), name) == 0)
			return core;
	cJSON_ArrayForEach(run, runs)
		cJSON_ArrayForEach(core, cJSON_GetObjectItemCaseSensitive(run, "cores"))
			if (strcmp(str(core, "core"), name) == 0)
				return core;
	return NULL;
}

/* share == ns / span to 4 decimals (either rounding of the last digit's half). */
static void check_share(struct ctx *c, const cJSON *e, long long ns, long long span, const char *what)
{
	const cJSON *share = cJSON_GetObjectItemCaseSensitive(e, "share");

	if (!cJSON_IsNumber(share) || span <= 0 ||
	    fabs(share->valuedouble * 10000.0 - (double)ns * 10000.0 / (double)span) > 0.5 + 1e-6)
		fail(c, "%s share %s is not %lld / %lld", what,
		     cJSON_IsNumber(share) ? "wrong" : "missing", ns, span);
}

/* Sum of a list's ns, checking it is largest first and each share. */
static long long list_sum(struct ctx *c, const cJSON *list, long long span, const char *what)
{
	long long sum = 0, prev = -1;
	const cJSON *e;

	if (!cJSON_IsArray(list)) {
		fail(c, "%s is not a list", what);
		return 0;
	}
	cJSON_ArrayForEach(e, list) {
		long long ns = num(e, "ns");

		if (ns <= 0)
			fail(c, "%s entry without positive ns", what);
		if (prev >= 0 && ns > prev)
			fail(c, "%s not largest first (%lld after %lld)", what, ns, prev);
		check_share(c, e, ns, span, what);
		prev = ns;
		sum += ns;
	}
	return sum;
}

/* The entry of `list` whose keys (one or two) equal those of `want`, or NULL. */
static const cJSON *match(const cJSON *list, const cJSON *want, const char *k1, const char *k2)
{
	const cJSON *e;

	cJSON_ArrayForEach(e, list)
		if (strcmp(str(e, k1), str(want, k1)) == 0 &&
		    (k2 == NULL || strcmp(str(e, k2), str(want, k2)) == 0))
			return e;
	return NULL;
}

/* Whether pipe is one of the first 16 entries of a critical path's busy list. */
static int in_busy(const cJSON *cp, const char *pipe)
{
	const cJSON *busy = cJSON_GetObjectItemCaseSensitive(cp, "busy");

	for (int k = 0; k < cJSON_GetArraySize(busy) && k < 16; k++)
		if (strcmp(str(cJSON_GetArrayItem(busy, k), "pipe"), pipe) == 0)
			return 1;
	return 0;
}

/*
 * what_if: at most 16 pipes, each once, each busy on the path of a core of
 * the run (run_cores: a core's group is some of them), every pipe of the
 * core's own busy list among them unless the group's 16 left it out.
 */
static void check_what_if_list(struct ctx *c, const cJSON *cp, long long span,
			       const cJSON *run_cores)
{
	const cJSON *busy = cJSON_GetObjectItemCaseSensitive(cp, "busy");
	const cJSON *wi = cJSON_GetObjectItemCaseSensitive(cp, "what_if");
	const cJSON *e, *b, *o;
	int n = cJSON_GetArraySize(wi);
	long long prev = -1;

	if (!cJSON_IsArray(wi) || n > 16) {
		fail(c, "what_if is not a list of at most 16 pipes");
		return;
	}
	cJSON_ArrayForEach(b, busy)
		if (n < 16 && match(wi, b, "pipe", NULL) == NULL)
			fail(c, "what_if leaves out %s, busy on the path", str(b, "pipe"));
	cJSON_ArrayForEach(e, wi) {
		long long w = num(e, "span_ns");
		const cJSON *ch = cJSON_GetObjectItemCaseSensitive(e, "change");
		int found = 0;

		if (w < 0 || w > span)
			fail(c, "what_if %s span %lld outside [0, %lld]", str(e, "pipe"), w, span);
		if (prev >= 0 && w < prev)
			fail(c, "what_if not smallest span first (%lld after %lld)", w, prev);
		if (!cJSON_IsNumber(ch) || span <= 0 ||
		    fabs(ch->valuedouble * 10000.0 - (double)(w - span) * 10000.0 / (double)span) >
		    0.5 + 1e-6)
			fail(c, "what_if %s change is not (%lld - %lld) / %lld", str(e, "pipe"), w, span,
			     span);
		for (const cJSON *d = wi->child; d != e; d = d->next)
			if (strcmp(str(d, "pipe"), str(e, "pipe")) == 0)
				fail(c, "what_if lists %s twice", str(e, "pipe"));
		cJSON_ArrayForEach(o, run_cores)
			found |= in_busy(cJSON_GetObjectItemCaseSensitive(o, "critical_path"),
					 str(e, "pipe"));
		if (!found)
			fail(c, "what_if %s is busy on no path of the run", str(e, "pipe"));
		prev = w;
	}
}

/* The invariants of one summary core's critical path. */
static void check_invariants(struct ctx *c, const cJSON *core, const cJSON *run_cores)
{
	const cJSON *cp = cJSON_GetObjectItemCaseSensitive(core, "critical_path");
	long long span = num(cp, "span_ns"), sum;

	if (!cJSON_IsObject(cp)) {
		fail(c, "no critical_path");
		return;
	}
	if (span != num(core, "span_ns"))
		fail(c, "critical_path span_ns %lld, core span_ns %lld", span, num(core, "span_ns"));
	sum = list_sum(c, cJSON_GetObjectItemCaseSensitive(cp, "busy"), span, "busy") +
	      list_sum(c, cJSON_GetObjectItemCaseSensitive(cp, "wait"), span, "wait") +
	      num(cp, "cross_core_wait_ns") + num(cp, "issue_ns");
	if (sum != span)
		fail(c, "busy + wait + cross + issue = %lld, span_ns %lld", sum, span);
	check_what_if_list(c, cp, span, run_cores);
}

/* Both lists hold the same keys with the same ns. */
static void same_sums(struct ctx *c, const cJSON *truth, const cJSON *got, const char *what,
		      const char *k1, const char *k2)
{
	const cJSON *t;

	if (cJSON_GetArraySize(truth) != cJSON_GetArraySize(got))
		fail(c, "%s has %d entries, truth %d", what, cJSON_GetArraySize(got),
		     cJSON_GetArraySize(truth));
	cJSON_ArrayForEach(t, truth) {
		const cJSON *g = match(got, t, k1, k2);

		if (g == NULL || num(g, "ns") != num(t, "ns"))
			fail(c, "%s %s%s%s: %lld ns, truth %lld", what, str(t, k1), k2 ? "->" : "",
			     k2 ? str(t, k2) : "", g ? num(g, "ns") : 0LL, num(t, "ns"));
	}
}

/* top_instructions: the truth's instructions with the most time on the
   path, busy inside them and waited for their release, each part equal. */
static void check_top(struct ctx *c, const cJSON *truth, const cJSON *got)
{
	const cJSON *t, *g;
	int n = cJSON_GetArraySize(truth), want = n < 10 ? n : 10;
	long long last = LLONG_MAX;

	if (!cJSON_IsArray(got) || cJSON_GetArraySize(got) != want) {
		fail(c, "top_instructions has %d entries, the truth %d", cJSON_GetArraySize(got), want);
		return;
	}
	cJSON_ArrayForEach(g, got) {
		t = match(truth, g, "pc_addr", "name");
		if (t == NULL || num(t, "ns") != num(g, "ns") ||
		    num(t, "busy_ns") != num(g, "busy_ns") ||
		    num(t, "released_ns") != num(g, "released_ns"))
			fail(c, "top instruction %s %s: %lld ns (%lld busy, %lld released), truth %lld "
			     "(%lld, %lld)", str(g, "pc_addr"), str(g, "name"), num(g, "ns"),
			     num(g, "busy_ns"), num(g, "released_ns"), t ? num(t, "ns") : 0LL,
			     t ? num(t, "busy_ns") : 0LL, t ? num(t, "released_ns") : 0LL);
		if (num(g, "ns") > last)
			fail(c, "top_instructions not largest first");
		last = num(g, "ns");
	}
	cJSON_ArrayForEach(t, truth)
		if (match(got, t, "pc_addr", "name") == NULL && num(t, "ns") > last)
			fail(c, "instruction %s %s holds %lld ns of the path, not in top_instructions",
			     str(t, "pc_addr"), str(t, "name"), num(t, "ns"));
}

static void check_truth(struct ctx *c, const cJSON *truth, const cJSON *core)
{
	const cJSON *cp = cJSON_GetObjectItemCaseSensitive(core, "critical_path");
	const char *keys[] = { "span_ns", "segments", "cross_core_wait_ns", "issue_ns" };

	for (size_t k = 0; k < sizeof(keys) / sizeof(keys[0]); k++)
		if (num(cp, keys[k]) != num(truth, keys[k]))
			fail(c, "%s %lld, truth %lld", keys[k], num(cp, keys[k]), num(truth, keys[k]));
	same_sums(c, cJSON_GetObjectItemCaseSensitive(truth, "busy"),
		  cJSON_GetObjectItemCaseSensitive(cp, "busy"), "busy", "pipe", NULL);
	same_sums(c, cJSON_GetObjectItemCaseSensitive(truth, "wait"),
		  cJSON_GetObjectItemCaseSensitive(cp, "wait"), "wait", "producer", "consumer");
	check_top(c, cJSON_GetObjectItemCaseSensitive(truth, "instructions"),
		  cJSON_GetObjectItemCaseSensitive(cp, "top_instructions"));
}

static void check_what_if(struct ctx *c, const cJSON *truth, const cJSON *core)
{
	const cJSON *cp = cJSON_GetObjectItemCaseSensitive(core, "critical_path");
	const cJSON *e;
	long long span = num(cp, "span_ns");

	cJSON_ArrayForEach(e, cJSON_GetObjectItemCaseSensitive(cp, "what_if")) {
		const cJSON *t = match(cJSON_GetObjectItemCaseSensitive(truth, "what_if"), e, "pipe", NULL);
		long long w = num(e, "span_ns");

		if (t == NULL) {
			fail(c, "what_if %s: no such pipe in the truth", str(e, "pipe"));
			continue;
		}
		printf("whatif %s %s %lld %lld %.4f\n", c->core, str(e, "pipe"), num(t, "span_ns"), w,
		       span > 0 ? (double)(w - num(t, "span_ns")) / (double)span : 0.0);
		if (w != num(t, "model_span_ns"))
			fail(c, "what_if %s estimate %lld, the documented model gives %lld", str(e, "pipe"),
			     w, num(t, "model_span_ns"));
	}
}

/*
 * One run's summary (the top level, or one of "runs"): each core's
 * invariants, and with --what-if the kernel's estimates (load_balance's
 * what_if): each pipe's the largest of the cores' estimates, a core's span
 * where it has none. Returns the number of cores.
 */
static int check_run(struct ctx *c, const cJSON *run, int what_if)
{
	const cJSON *cores = cJSON_GetObjectItemCaseSensitive(run, "cores"), *core, *e;
	const cJSON *lb = cJSON_GetObjectItemCaseSensitive(run, "load_balance");
	int n = 0;

	cJSON_ArrayForEach(core, cores) {
		c->core = str(core, "core");
		if (!what_if)
			check_invariants(c, core, cores);
		n++;
	}
	c->core = "kernel";
	cJSON_ArrayForEach(e, cJSON_GetObjectItemCaseSensitive(lb, "what_if")) {
		long long want = -1;

		cJSON_ArrayForEach(core, cores) {
			const cJSON *cp = cJSON_GetObjectItemCaseSensitive(core, "critical_path");
			const cJSON *x = match(cJSON_GetObjectItemCaseSensitive(cp, "what_if"), e,
					       "pipe", NULL);
			long long v = x != NULL ? num(x, "span_ns") : num(core, "span_ns");

			want = v > want ? v : want;
		}
		if (num(e, "span_ns") != want)
			fail(c, "what_if %s span %lld, the cores' largest %lld", str(e, "pipe"),
			     num(e, "span_ns"), want);
	}
	return n;
}

int main(int argc, char **argv)
{
	struct ctx c = { 0, "" };
	int what_if = argc == 4 && strcmp(argv[1], "--what-if") == 0;
	cJSON *truth, *summary;
	const cJSON *t, *run, *core;
	int cores = 0;

	if (argc != 3 && !what_if) {
		fprintf(stderr, "usage: path_recheck [--what-if] TRUTH SUMMARY\n");
		return 2;
	}
	truth = load(argv[argc - 2]);
	summary = load(argv[argc - 1]);
	if (truth == NULL || summary == NULL) {
		cJSON_Delete(truth);
		cJSON_Delete(summary);
		return 2;
	}
	cores += check_run(&c, summary, what_if);
	cJSON_ArrayForEach(run, cJSON_GetObjectItemCaseSensitive(summary, "runs"))
		cores += check_run(&c, run, what_if);
	cJSON_ArrayForEach(t, cJSON_GetObjectItemCaseSensitive(truth, "cores")) {
		c.core = str(t, "core");
		core = find_core(summary, c.core);
		if (core == NULL)
			fail(&c, "not in the summary");
		else if (what_if)
			check_what_if(&c, t, core);
		else
			check_truth(&c, t, core);
		cores--;
	}
	c.core = argv[argc - 1];
	if (cores != 0)
		fail(&c, "the summary and the truth hold different numbers of cores");
	cJSON_Delete(truth);
	cJSON_Delete(summary);
	return c.failures ? 1 : 0;
}
