/*
 * summary_recheck: an independent check of summary.json against the
 * trace.clean.json of the same run. It shares no code with the converter
 * (cJSON only): from the trace's slices alone it recomputes, per kept lane
 * (tid without "#k"; "<PIPE> cache" companion lanes are no instructions),
 * the number of slices, the union of their intervals on the ns grid
 * (start = llround(ts*1000), end = start + llround(dur*1000)), the number
 * of sub-lanes and the pipeline depth from the slices' float times
 * (summary_recheck_lanes.c), and per core the extent of its kept slices;
 * then it checks
 *   - every kept lane of the trace is a pipe with "kept":true in the summary
 *     and vice versa (pipes with instructions), with equal instructions,
 *     busy_ns, depth and rows (= sub-lanes), busy_us = busy_ns / 1000 and
 *     busy_share = busy_ns / span_ns to its 4 printed decimals;
 *   - every sub-lane k >= the lane's depth, and no other, has a thread_name
 *     ending in " (rounding)";
 *   - an MTE lane's overlap_ns = the ns during which it and some compute
 *     lane of its core (CUBE, VECTOR, PUSHQ, RVEC*, FIXP) are both busy,
 *     overlap_share = overlap_ns / busy_ns to 4 decimals; both null on
 *     other pipes and on an MTE pipe without busy time;
 *   - each core's span contains its kept slices (it also covers the dropped
 *     ones, which the trace no longer has), span_ns = last_ns - first_ns;
 *   - load_balance agrees with the cores' spans, its what_if with the
 *     cores' estimates (summary_recheck_path.c);
 *   - bytes of an MTE lane = the sum of its slices' args.process_bytes (null
 *     when none has one) and bandwidth_gbps = bytes * 1000 / busy_ns MB/s
 *     rounded half up; other pipes have both null;
 *   - from instr_metrics.json, per pipe cycles, sync_cycles, executed and
 *     vector_utilization, top_instructions and top_source_lines
 *     (summary_recheck_instr.c);
 *   - the diagnosis against the summary's figures: one line per rule, the
 *     primary first, each line's cores, numbers, thresholds and evidence
 *     (summary_recheck_diag.c);
 *   - each core's critical_path against its "critical path" lane: tiling,
 *     sums, busy time inside instructions, flag waits along arrows
 *     (summary_recheck_path.c). That lane is no pipe: it is left out of
 *     the lanes above.
 * WAIT_FLAG and cross-core wait times cannot be rechecked from the trace
 * (flag records are not written); the unit tests cover them. Source lines
 * from API_FILE ranges and the slices' args.source are not rechecked here
 * (tests/cli/t_source_lines.sh).
 * With --window (summary.json "cut" with "summary_windowed":true) every
 * interval is first clipped to the window_ns bounds (the depth's float
 * ones too), a kept lane's rows are its highest sub-lane + 1, and a
 * slice's bytes count in proportion to its grid interval's part in the
 * window, rounded half up (docs/summary.md "cut"); the labels are the
 * whole run's and are not checked. A --core cut cannot be rechecked (the
 * summary covers cores the trace lacks): exit 2.
 * Several runs (--run all: summary.json and instr_metrics.json hold "runs")
 * are checked one by one, run k against the trace's processes named
 * "<pid> run <k>".
 *
 *   summary_recheck TRACE SUMMARY [METRICS]
 *     METRICS: the run's instr_metrics.json, by default the one beside
 *     SUMMARY; a missing file is a run without API_INSTR.
 *     exit 0 all agree; 1 a difference (printed)
 */
#include <limits.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cjson/cJSON.h>

#include "summary_recheck.h"

#define MAX_LANES 1024
#define MAX_IVS 4096
#define NAME_LEN 128

struct iv { long long s, e; };

struct lane {
	char pid[NAME_LEN];
	char pipe[NAME_LEN];
	struct iv iv[MAX_IVS];
	struct sumcheck_slice f[MAX_IVS];   /* float times, as the trace writes them */
	size_t n;
	char subs[64][NAME_LEN];
	size_t nsubs;
	long max_sub;          /* the highest k of "PIPE#k" (0: the bare name) */
	int matched;
	unsigned long long bytes;
	int has_bytes;
	long depth;            /* recomputed; -1 until its pipe is checked */
};

/* The window of a windowed summary: intervals are clipped into it. */
static int windowed, has_from, has_to;
static long long from_ns, to_ns;
static struct sumcheck_window window;

static long long clamp(long long t)
{
	if (has_from && t < from_ns)
		return from_ns;
	if (has_to && t > to_ns)
		return to_ns;
	return t;
}

struct core {
	char pid[NAME_LEN];
	long long first, last;
};

/* The run label of the run being checked (" run 2"), "" for a file of one run. */
static const char *run_label = "";

static struct lane lanes[MAX_LANES];
static size_t nlanes;
static struct core cores[MAX_LANES];
static size_t ncores;
static int failures;

void sumcheck_fail(const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	printf("FAIL: ");
	vprintf(fmt, ap);
	printf("\n");
	va_end(ap);
	failures++;
}

static char *slurp(const char *path)
{
	FILE *f = fopen(path, "rb");
	char *buf;
	long n;

	if (f == NULL || fseek(f, 0, SEEK_END) != 0 || (n = ftell(f)) < 0 ||
	    fseek(f, 0, SEEK_SET) != 0 || (buf = malloc((size_t)n + 1)) == NULL) {
		if (f != NULL)
			fclose(f);
		return NULL;
	}
	if (fread(buf, 1, (size_t)n, f) != (size_t)n) {
		fclose(f);
		free(buf);
		return NULL;
	}
	buf[n] = '\0';
	fclose(f);
	return buf;
}

static cJSON *load(const char *path)
{
	char *text = slurp(path);
	cJSON *j = text != NULL ? cJSON_Parse(text) : NULL;

	free(text);
	if (j == NULL)
		fprintf(stderr, "summary_recheck: %s: unreadable or not JSON\n", path);
	return j;
}

static struct lane *lane_get(const char *pid, const char *pipe)
{
	for (size_t i = 0; i < nlanes; i++)
		if (strcmp(lanes[i].pid, pid) == 0 && strcmp(lanes[i].pipe, pipe) == 0)
			return &lanes[i];
	if (nlanes == MAX_LANES)
		return NULL;
	snprintf(lanes[nlanes].pid, NAME_LEN, "%s", pid);
	snprintf(lanes[nlanes].pipe, NAME_LEN, "%s", pipe);
	lanes[nlanes].depth = -1;
	return &lanes[nlanes++];
}

static struct core *core_get(const char *pid)
{
	for (size_t i = 0; i < ncores; i++)
		if (strcmp(cores[i].pid, pid) == 0)
			return &cores[i];
	if (ncores == MAX_LANES)
		return NULL;
	snprintf(cores[ncores].pid, NAME_LEN, "%s", pid);
	cores[ncores].first = LLONG_MAX;
	cores[ncores].last = LLONG_MIN;
	return &cores[ncores++];
}

static int add_slice(const cJSON *ev)
{
	const cJSON *pid = cJSON_GetObjectItemCaseSensitive(ev, "pid");
	const cJSON *tid = cJSON_GetObjectItemCaseSensitive(ev, "tid");
	const cJSON *ts = cJSON_GetObjectItemCaseSensitive(ev, "ts");
	const cJSON *dur = cJSON_GetObjectItemCaseSensitive(ev, "dur");
	char pipe[NAME_LEN];
	const char *hash;
	struct lane *l;
	struct core *c;
	long long s, e, s0, e0, bytes;
	double a, b;
	long sub;
	size_t k;

	if (!cJSON_IsString(pid) || !cJSON_IsString(tid) || !cJSON_IsNumber(ts))
		return -1;
	s0 = llround(ts->valuedouble * 1000);
	e0 = s0 + (cJSON_IsNumber(dur) ? llround(dur->valuedouble * 1000) : 0);
	a = ts->valuedouble * 1000;
	b = (ts->valuedouble + (cJSON_IsNumber(dur) ? dur->valuedouble : 0)) * 1000;
	s = clamp(s0);
	e = clamp(e0);
	c = core_get(pid->valuestring);
	if (c == NULL)
		return -1;
	if (s < c->first)
		c->first = s;
	if (e > c->last)
		c->last = e;
	snprintf(pipe, sizeof(pipe), "%s", tid->valuestring);
	hash = strchr(pipe, '#');
	if (hash != NULL)
		pipe[hash - pipe] = '\0';
	sub = hash != NULL ? strtol(tid->valuestring + (hash - pipe) + 1, NULL, 10) : 0;
	if (strlen(pipe) > 6 && strcmp(pipe + strlen(pipe) - 6, " cache") == 0)
		return 0;
	l = lane_get(pid->valuestring, pipe);
	if (l == NULL || l->n == MAX_IVS)
		return -1;
	l->f[l->n] = (struct sumcheck_slice){ a, b, s0, e0, sumcheck_path_instr(ev) };
	l->iv[l->n++] = (struct iv){ s, e };
	if (sub > l->max_sub)
		l->max_sub = sub;
	bytes = sumcheck_process_bytes(ev);
	if (strncmp(pipe, "MTE", 3) == 0 && bytes >= 0) {
		/* in a window, the share of the slice's grid interval inside it */
		if (windowed && e0 > s0 && e - s < e0 - s0)
			bytes = (long long)floorl((long double)bytes * (long double)(e - s) /
						  (long double)(e0 - s0) + 0.5L);
		l->bytes += (unsigned long long)bytes;
		l->has_bytes = 1;
	}
	for (k = 0; k < l->nsubs; k++)
		if (strcmp(l->subs[k], tid->valuestring) == 0)
			break;
	if (k == l->nsubs && l->nsubs < 64)
		snprintf(l->subs[l->nsubs++], NAME_LEN, "%s", tid->valuestring);
	return 0;
}

int sumcheck_core_in_trace(const char *pid)
{
	for (size_t i = 0; i < ncores; i++)
		if (strcmp(cores[i].pid, pid) == 0)
			return 1;
	return 0;
}

static const struct lane *lane_find(const char *pid, const char *pipe, size_t n)
{
	for (size_t i = 0; i < nlanes; i++)
		if (strcmp(lanes[i].pid, pid) == 0 && strncmp(lanes[i].pipe, pipe, n) == 0 &&
		    lanes[i].pipe[n] == '\0')
			return &lanes[i];
	return NULL;
}

long sumcheck_lane_slices(const char *pid, const char *pipe, const struct sumcheck_slice **out)
{
	const struct lane *l = lane_find(pid, pipe, strlen(pipe));

	*out = l != NULL ? l->f : NULL;
	return l != NULL ? (long)l->n : -1;
}

int sumcheck_lane_covers(const char *pid, const char *pipe, long long s, long long e)
{
	const struct lane *l = lane_find(pid, pipe, strlen(pipe));

	/* The whole slice: a segment clipped to a window lies inside it too. */
	for (size_t k = 0; l != NULL && k < l->n; k++)
		if (l->f[k].s <= s && e <= l->f[k].e)
			return 1;
	return 0;
}

size_t sumcheck_lane_instrs(const char *pid, const char *pipe, long long s, long long e,
			    int *out, size_t max)
{
	const struct lane *l = lane_find(pid, pipe, strlen(pipe));
	size_t n = 0, i;

	for (size_t k = 0; l != NULL && k < l->n; k++) {
		if (!(l->f[k].s <= s && e <= l->f[k].e))
			continue;
		for (i = 0; i < n && out[i] != l->f[k].instr; i++)
			;
		if (i == n && n < max)
			out[n++] = l->f[k].instr;
	}
	return n;
}

int sumcheck_lane_at(const char *pid, const char *tid, double t, long long start, long long end)
{
	const char *hash = strchr(tid, '#');
	const struct lane *l = lane_find(pid, tid, hash != NULL ? (size_t)(hash - tid) : strlen(tid));

	for (size_t k = 0; l != NULL && k < l->n; k++) {
		const struct sumcheck_slice *f = &l->f[k];

		if ((double)f->s < t && t < (double)f->e && (start < 0 || f->s == start) &&
		    (end < 0 || f->e == end))
			return 1;
	}
	return 0;
}

static int iv_cmp(const void *a, const void *b)
{
	const struct iv *x = a, *y = b;

	return x->s < y->s ? -1 : x->s > y->s;
}

/* Union length by sorting and merging: written apart from the converter's sweep. */
static long long union_of(struct lane *l)
{
	long long total = 0, cs = 0, ce = 0;
	int open = 0;

	qsort(l->iv, l->n, sizeof(l->iv[0]), iv_cmp);
	for (size_t i = 0; i < l->n; i++) {
		if (open && l->iv[i].s <= ce) {
			if (l->iv[i].e > ce)
				ce = l->iv[i].e;
			continue;
		}
		if (open)
			total += ce - cs;
		cs = l->iv[i].s;
		ce = l->iv[i].e;
		open = 1;
	}
	return open ? total + ce - cs : 0;
}

double sumcheck_num(const cJSON *o, const char *key)
{
	const cJSON *v = cJSON_GetObjectItemCaseSensitive(o, key);

	return cJSON_IsNumber(v) ? v->valuedouble : NAN;
}

static int is_compute(const char *pipe)
{
	return strcmp(pipe, "CUBE") == 0 || strcmp(pipe, "VECTOR") == 0 ||
	       strcmp(pipe, "PUSHQ") == 0 || strncmp(pipe, "RVEC", 4) == 0 ||
	       strcmp(pipe, "FIXP") == 0;
}

static int is_mte(const char *pipe)
{
	return strcmp(pipe, "MTE1") == 0 || strcmp(pipe, "MTE2") == 0 || strcmp(pipe, "MTE3") == 0;
}

/*
 * overlap_ns / overlap_share of a pipe: null unless an MTE pipe with busy
 * time; then the ns it shares with the compute lanes of its core (l NULL:
 * the pipe has no lane in the trace).
 */
static void check_overlap(const char *core, const char *pipe, const cJSON *p,
			  const struct lane *l, double busy)
{
	static struct sumcheck_iv comp[MAX_IVS * 4], mte[MAX_IVS];
	const cJSON *ns = cJSON_GetObjectItemCaseSensitive(p, "overlap_ns");
	const cJSON *share = cJSON_GetObjectItemCaseSensitive(p, "overlap_share");
	size_t nc = 0;
	long long want;

	if (!is_mte(pipe) || l == NULL || !(busy > 0)) {
		if (!cJSON_IsNull(ns) || !cJSON_IsNull(share))
			sumcheck_fail("%s %s: overlap_ns/overlap_share not null", core, pipe);
		return;
	}
	for (size_t i = 0; i < nlanes; i++) {
		if (strcmp(lanes[i].pid, core) != 0 || !is_compute(lanes[i].pipe))
			continue;
		for (size_t k = 0; k < lanes[i].n && nc < MAX_IVS * 4; k++)
			comp[nc++] = (struct sumcheck_iv){ lanes[i].iv[k].s, lanes[i].iv[k].e };
	}
	for (size_t k = 0; k < l->n; k++)
		mte[k] = (struct sumcheck_iv){ l->iv[k].s, l->iv[k].e };
	want = sumcheck_overlap(mte, l->n, comp, nc);
	if (!cJSON_IsNumber(ns) || ns->valuedouble != (double)want)
		sumcheck_fail("%s %s: overlap_ns %g, it is busy with compute during %lld ns", core,
			      pipe, sumcheck_num(p, "overlap_ns"), want);
	if (!cJSON_IsNumber(share) ||
	    llround(share->valuedouble * 10000) != (long long)floor((double)want * 10000 / busy + 0.5))
		sumcheck_fail("%s %s: overlap_share %g, %lld / %g", core, pipe,
			      sumcheck_num(p, "overlap_share"), want, busy);
}

static void check_pipe(const char *core, const cJSON *p, double span, const cJSON *metrics)
{
	const cJSON *name = cJSON_GetObjectItemCaseSensitive(p, "pipe");
	const cJSON *kept = cJSON_GetObjectItemCaseSensitive(p, "kept");
	double busy = sumcheck_num(p, "busy_ns"), share;
	struct lane *l = NULL;

	if (!cJSON_IsString(name) || !cJSON_IsBool(kept)) {
		sumcheck_fail("%s: a pipe without a name or kept flag", core);
		return;
	}
	{
		/* API_INSTR names the core as the dump does, without the run label. */
		char plain[NAME_LEN];
		size_t n = strlen(core), ln = strlen(run_label);

		snprintf(plain, sizeof(plain), "%.*s",
			 (int)(n > ln && strcmp(core + n - ln, run_label) == 0 ? n - ln : n), core);
		sumcheck_instr_pipe(metrics, plain, p);
	}
	if (fabs(sumcheck_num(p, "busy_us") * 1000 - busy) > 0.5)
		sumcheck_fail("%s %s: busy_us %g is not busy_ns %g / 1000", core, name->valuestring,
		     sumcheck_num(p, "busy_us"), busy);
	share = span > 0 ? busy / span : NAN;
	if (span > 0 && fabs(sumcheck_num(p, "busy_share") - share) > 0.00005 + 1e-9)
		sumcheck_fail("%s %s: busy_share %g, busy/span is %g", core, name->valuestring,
		     sumcheck_num(p, "busy_share"), share);
	for (size_t i = 0; i < nlanes; i++)
		if (strcmp(lanes[i].pid, core) == 0 && strcmp(lanes[i].pipe, name->valuestring) == 0)
			l = &lanes[i];
	if (!cJSON_IsTrue(kept) || sumcheck_num(p, "instructions") == 0) {
		/* A dropped lane's slices (and bytes) are not in the trace. */
		if (cJSON_IsTrue(kept) || strncmp(name->valuestring, "MTE", 3) != 0)
			sumcheck_bytes(core, name->valuestring, p, 0, 0, 0);
		check_overlap(core, name->valuestring, p, NULL, 0);
		if (cJSON_IsTrue(kept) && sumcheck_num(p, "rows") != 0)
			sumcheck_fail("%s %s: rows %g without an instruction", core,
				      name->valuestring, sumcheck_num(p, "rows"));
		if (!cJSON_IsTrue(kept) && !cJSON_IsNull(cJSON_GetObjectItemCaseSensitive(p, "rows")))
			sumcheck_fail("%s %s: a dropped lane with rows", core, name->valuestring);
		if (sumcheck_num(p, "instructions") == 0 && sumcheck_num(p, "depth") != 0)
			sumcheck_fail("%s %s: depth %g without an instruction", core,
				      name->valuestring, sumcheck_num(p, "depth"));
		if (l != NULL)
			sumcheck_fail("%s %s: in the trace, but not a kept pipe with instructions in the summary",
			     core, name->valuestring);
		return;
	}
	if (l == NULL) {
		sumcheck_fail("%s %s: kept in the summary, but no such lane in the trace", core,
		     name->valuestring);
		return;
	}
	l->matched = 1;
	if (sumcheck_num(p, "instructions") != (double)l->n)
		sumcheck_fail("%s %s: instructions %g, the trace has %g", core, name->valuestring,
		     sumcheck_num(p, "instructions"), (double)l->n);
	sumcheck_bytes(core, name->valuestring, p, l->has_bytes, l->bytes, union_of(l));
	if (busy != (double)union_of(l))
		sumcheck_fail("%s %s: busy_ns %g, the union of the trace's slices is %g", core,
		     name->valuestring, busy, (double)union_of(l));
	if (!windowed && sumcheck_num(p, "rows") != (double)l->nsubs)
		sumcheck_fail("%s %s: rows %g, the trace has %g sub-lanes", core,
		     name->valuestring, sumcheck_num(p, "rows"), (double)l->nsubs);
	if (windowed && sumcheck_num(p, "rows") != (double)(l->max_sub + 1))
		sumcheck_fail("%s %s: rows %g, the window's slices use sub-lanes up to #%ld",
		     core, name->valuestring, sumcheck_num(p, "rows"), l->max_sub);
	l->depth = sumcheck_depth(l->f, l->n, windowed ? &window : NULL);
	if (sumcheck_num(p, "depth") != (double)l->depth)
		sumcheck_fail("%s %s: depth %g, the trace's slices have %ld in flight at most",
			      core, name->valuestring, sumcheck_num(p, "depth"), l->depth);
	check_overlap(core, name->valuestring, p, l, busy);
}

static int span_cmp(const void *a, const void *b)
{
	const double *x = a, *y = b;

	return *x < *y ? -1 : *x > *y;
}

static void check_balance(const cJSON *sum, const cJSON *jcores)
{
	const cJSON *lb = cJSON_GetObjectItemCaseSensitive(sum, "load_balance");
	const cJSON *c, *slow;
	double spans[MAX_LANES], max = -1;
	const char *slowest = NULL;
	int n = 0;

	cJSON_ArrayForEach(c, jcores) {
		double sp = sumcheck_num(c, "span_ns");

		if (n < MAX_LANES)
			spans[n++] = sp;
		if (sp > max) {
			max = sp;
			slowest = cJSON_GetObjectItemCaseSensitive(c, "core")->valuestring;
		}
	}
	if (n == 0) {
		if (!cJSON_IsNull(lb))
			sumcheck_fail("load_balance is not null without cores");
		return;
	}
	qsort(spans, (size_t)n, sizeof(spans[0]), span_cmp);
	slow = cJSON_GetObjectItemCaseSensitive(lb, "slowest_core");
	if (sumcheck_num(lb, "cores") != n || sumcheck_num(lb, "min_span_ns") != spans[0] ||
	    sumcheck_num(lb, "max_span_ns") != spans[n - 1] ||
	    sumcheck_num(lb, "median_span_ns") != spans[(n - 1) / 2] ||
	    !cJSON_IsString(slow) || strcmp(slow->valuestring, slowest) != 0)
		sumcheck_fail("load_balance disagrees with the cores' spans (min %g, max %g)",
		     spans[0], spans[n - 1]);
}

static void check_core(const cJSON *c, const cJSON *metrics)
{
	const cJSON *name = cJSON_GetObjectItemCaseSensitive(c, "core");
	const cJSON *pipes = cJSON_GetObjectItemCaseSensitive(c, "pipes"), *p;
	double first = sumcheck_num(c, "first_ns"), last = sumcheck_num(c, "last_ns"), span = sumcheck_num(c, "span_ns");

	if (!cJSON_IsString(name) || !cJSON_IsArray(pipes)) {
		sumcheck_fail("a core without a name or pipes");
		return;
	}
	if (span != last - first || fabs(sumcheck_num(c, "span_us") * 1000 - span) > 0.5)
		sumcheck_fail("%s: span_ns %g / span_us disagree with first/last (%g)", name->valuestring,
		     span, last - first);
	for (size_t i = 0; i < ncores; i++)
		if (strcmp(cores[i].pid, name->valuestring) == 0 &&
		    (first > (double)cores[i].first || last < (double)cores[i].last))
			sumcheck_fail("%s: span does not contain the kept slices (%lld..%lld)",
			     name->valuestring, cores[i].first, cores[i].last);
	cJSON_ArrayForEach(p, pipes)
		check_pipe(name->valuestring, p, span, metrics);
}

/*
 * The run's instr_metrics.json: METRICS, else the one beside SUMMARY. A
 * missing file is a run without API_INSTR (*absent = 1, NULL returned).
 */
static cJSON *load_metrics(int argc, char **argv, int *absent)
{
	char path[4096];
	const char *slash = strrchr(argv[2], '/');
	FILE *f;

	if (argc == 4)
		snprintf(path, sizeof(path), "%s", argv[3]);
	else if (slash != NULL)
		snprintf(path, sizeof(path), "%.*s/instr_metrics.json", (int)(slash - argv[2]),
			 argv[2]);
	else
		snprintf(path, sizeof(path), "instr_metrics.json");
	f = fopen(path, "rb");
	*absent = f == NULL;
	if (f == NULL)
		return NULL;
	fclose(f);
	return sumcheck_instr_reshape(load(path));
}

/* A bound of window_ns: a number, or null when open. */
static int read_bound(const cJSON *b, int *has, long long *ns)
{
	if (cJSON_IsNull(b))
		return 0;
	if (!cJSON_IsNumber(b))
		return -1;
	*has = 1;
	*ns = (long long)b->valuedouble;
	return 0;
}

static int read_cut(const cJSON *cut)
{
	const cJSON *patterns, *win;

	if (cut == NULL || cJSON_IsNull(cut))
		return 0;
	/* A --core cut: the summary must hold the cores the trace holds, as
	   SPEC §10 has it since the cut reaches the summary (summary_cores). */
	patterns = cJSON_GetObjectItemCaseSensitive(cut, "cores");
	if (patterns != NULL && !cJSON_IsNull(patterns) &&
	    !cJSON_IsTrue(cJSON_GetObjectItemCaseSensitive(cut, "summary_cores"))) {
		fprintf(stderr, "summary_recheck: a --core cut: the summary covers cores the trace does not hold\n");
		return -1;
	}
	windowed = cJSON_IsTrue(cJSON_GetObjectItemCaseSensitive(cut, "summary_windowed"));
	win = cJSON_GetObjectItemCaseSensitive(cut, "window_ns");
	if (windowed && (!cJSON_IsArray(win) || cJSON_GetArraySize(win) != 2 ||
			 read_bound(cJSON_GetArrayItem(win, 0), &has_from, &from_ns) != 0 ||
			 read_bound(cJSON_GetArrayItem(win, 1), &has_to, &to_ns) != 0)) {
		fprintf(stderr, "summary_recheck: \"cut\" without a usable window_ns\n");
		return -1;
	}
	window = (struct sumcheck_window){ has_from, has_to, from_ns, to_ns };
	return 0;
}

/*
 * A thread_name of sub-lane k (tid "PIPE#k") says "(rounding)" exactly when
 * k is at or past its lane's depth: the row exists for the viewers'
 * rounding, no instruction in flight needs it (SPEC §4).
 */
static void check_label(const cJSON *ev)
{
	const cJSON *pid = cJSON_GetObjectItemCaseSensitive(ev, "pid");
	const cJSON *tid = cJSON_GetObjectItemCaseSensitive(ev, "tid");
	const cJSON *name = cJSON_GetObjectItemCaseSensitive(
		cJSON_GetObjectItemCaseSensitive(ev, "args"), "name");
	const char *hash, *suffix = " (rounding)";
	char pipe[NAME_LEN];
	long sub = 0;
	int says;

	if (!cJSON_IsString(pid) || !cJSON_IsString(tid) || !cJSON_IsString(name))
		return;
	snprintf(pipe, sizeof(pipe), "%s", tid->valuestring);
	hash = strchr(tid->valuestring, '#');
	if (hash != NULL) {
		pipe[hash - tid->valuestring] = '\0';
		sub = strtol(hash + 1, NULL, 10);
	}
	says = strlen(name->valuestring) >= strlen(suffix) &&
	       strcmp(name->valuestring + strlen(name->valuestring) - strlen(suffix), suffix) == 0;
	for (size_t i = 0; i < nlanes; i++) {
		const struct lane *l = &lanes[i];

		if (strcmp(l->pid, pid->valuestring) != 0 || strcmp(l->pipe, pipe) != 0 ||
		    l->depth < 0)
			continue;
		if (says != (sub > 0 && sub >= l->depth))
			sumcheck_fail("%s %s: thread_name \"%s\" with depth %ld", l->pid,
				      tid->valuestring, name->valuestring, l->depth);
	}
}

/* Forgets the lanes and cores of the run checked before. */
static void reset_run(void)
{
	memset(lanes, 0, nlanes * sizeof(*lanes));   /* the lanes are large: the used ones */
	memset(cores, 0, ncores * sizeof(*cores));
	nlanes = ncores = 0;
}

/* Whether pid ends in the run label sfx (every pid with sfx ""). */
static int of_run(const cJSON *ev, const char *sfx)
{
	const cJSON *pid = cJSON_GetObjectItemCaseSensitive(ev, "pid");
	size_t n = strlen(sfx), len;

	if (n == 0)
		return 1;
	if (!cJSON_IsString(pid))
		return 0;
	len = strlen(pid->valuestring);
	return len > n && strcmp(pid->valuestring + len - n, sfx) == 0;
}

/*
 * One run's summary against its processes in the trace (their pids end in
 * sfx: " run <k>" with --run all of several runs, else "") and its
 * metrics (NULL: none).
 */
static void check_run(const cJSON *trace, const cJSON *sum, const cJSON *metrics,
		      const char *sfx)
{
	const cJSON *ev, *jcores, *c;

	reset_run();
	sumcheck_path_reset();
	run_label = sfx;
	cJSON_ArrayForEach(ev, cJSON_GetObjectItemCaseSensitive(trace, "traceEvents")) {
		const cJSON *ph = cJSON_GetObjectItemCaseSensitive(ev, "ph");

		if (!of_run(ev, sfx) || sumcheck_path_add(ev))
			continue;
		if (cJSON_IsString(ph) && strcmp(ph->valuestring, "X") == 0 && add_slice(ev) != 0)
			sumcheck_fail("an X event the recheck cannot place");
	}
	jcores = cJSON_GetObjectItemCaseSensitive(sum, "cores");
	cJSON_ArrayForEach(c, jcores) {
		check_core(c, metrics);
		sumcheck_path_core(c, windowed);
	}
	sumcheck_path_done(jcores);
	sumcheck_path_kernel(cJSON_GetObjectItemCaseSensitive(sum, "load_balance"), jcores);
	for (size_t i = 0; i < nlanes; i++)
		if (!lanes[i].matched)
			sumcheck_fail("%s %s: a lane of the trace missing from the summary",
			     lanes[i].pid, lanes[i].pipe);
	if (!windowed)   /* the labels follow the whole run's depth */
		cJSON_ArrayForEach(ev, cJSON_GetObjectItemCaseSensitive(trace, "traceEvents")) {
			const cJSON *ph = cJSON_GetObjectItemCaseSensitive(ev, "ph");
			const cJSON *nm = cJSON_GetObjectItemCaseSensitive(ev, "name");

			if (cJSON_IsString(ph) && strcmp(ph->valuestring, "M") == 0 &&
			    cJSON_IsString(nm) && strcmp(nm->valuestring, "thread_name") == 0)
				check_label(ev);
		}
	check_balance(sum, jcores);
	sumcheck_timeline(sum);
	sumcheck_instr_top(metrics, sum);
	sumcheck_instr_lines(metrics, sum);
	sumcheck_diagnosis(sum);
}

/*
 * Several runs (--run all): summary.json {"runs":[...]} and
 * instr_metrics.json {"runs":[...]}, run k's the k-th of each, against the
 * processes named "<pid> run <k>".
 */
static void check_runs(const cJSON *trace, const cJSON *runs, const cJSON *metrics)
{
	const cJSON *mruns = metrics != NULL ? cJSON_GetObjectItemCaseSensitive(metrics, "runs")
					     : NULL;
	const cJSON *r;
	int k = 0;

	if (metrics != NULL && !cJSON_IsArray(mruns))
		sumcheck_fail("several runs but instr_metrics.json has no runs array");
	cJSON_ArrayForEach(r, runs) {
		char sfx[32];
		const cJSON *m = mruns != NULL ? cJSON_GetArrayItem(mruns, k) : NULL;
		const cJSON *idx = cJSON_GetObjectItemCaseSensitive(
			cJSON_GetObjectItemCaseSensitive(r, "run"), "index");

		k++;
		if (!cJSON_IsNumber(idx) || idx->valuedouble != k)
			sumcheck_fail("runs[%d] is not run %d", k - 1, k);
		snprintf(sfx, sizeof(sfx), " run %d", k);
		check_run(trace, r, cJSON_IsNull(m) ? NULL : m, sfx);
	}
	if (mruns != NULL && cJSON_GetArraySize(mruns) != k)
		sumcheck_fail("instr_metrics.json holds %d runs, summary.json %d",
			      cJSON_GetArraySize(mruns), k);
}

int main(int argc, char **argv)
{
	cJSON *trace, *sum, *metrics;
	const cJSON *runs;
	int absent;

	if (argc != 3 && argc != 4) {
		fprintf(stderr, "usage: summary_recheck TRACE SUMMARY [METRICS]\n");
		return 2;
	}
	trace = load(argv[1]);
	sum = load(argv[2]);
	metrics = load_metrics(argc, argv, &absent);
	runs = sum != NULL ? cJSON_GetObjectItemCaseSensitive(sum, "runs") : NULL;
	if (trace == NULL || sum == NULL || (metrics == NULL && !absent)) {
		cJSON_Delete(trace);
		cJSON_Delete(sum);
		return 1;
	}
	if (read_cut(cJSON_GetObjectItemCaseSensitive(runs != NULL ? cJSON_GetArrayItem(runs, 0)
								   : sum, "cut")) != 0) {
		cJSON_Delete(trace);
		cJSON_Delete(sum);
		cJSON_Delete(metrics);
		return 2;
	}
	if (sumcheck_num(sum, "schema") != 1)
		sumcheck_fail("schema is not 1");
	if (runs != NULL)
		check_runs(trace, runs, metrics);
	else
		check_run(trace, sum, metrics, "");
	cJSON_Delete(trace);
	cJSON_Delete(sum);
	cJSON_Delete(metrics);
	if (failures == 0)
		printf("summary agrees with the trace%s: %zu kept lane(s) on %zu core(s)%s\n",
		       absent ? "" : " and instr_metrics.json", nlanes, ncores,
		       runs != NULL ? " of the last run" : "");
	return failures ? 1 : 0;
}
