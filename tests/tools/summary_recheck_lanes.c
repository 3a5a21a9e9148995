/*
 * summary_recheck, lane part: the pipeline depth of SPEC §4 and the MTE
 * pipes' overlap with compute of SPEC §10, recomputed from a lane's own
 * ts/dur as trace.clean.json writes them, with nothing of the converter's
 * packing or sweeps:
 *   - depth: each slice that is not a point (grid e == s, or b - a < 1 in
 *     float ns, a = ts*1000, b = (ts+dur)*1000) is true during
 *     [a, b - tol), tol = max(0.25, |a| * 2^-22), clipped to the window;
 *     the depth is the largest number of them true at one instant, counted
 *     over the sorted list of their starts and ends (an end before a start
 *     at the same instant: half-open), and 1 when the lane has slices but
 *     no such instant;
 *   - overlap: the ns during which an MTE lane's grid intervals and the
 *     compute lanes' grid intervals of its core both cover a point,
 *     counted over the elementary segments between all their bounds;
 *   - bytes: a lane's process_bytes and its bandwidth over its busy time.
 */
#include <limits.h>
#include <math.h>
#include <stdlib.h>

#include "summary_recheck.h"

struct edge {
	double t;
	int delta;     /* +1 a start, -1 an end */
};

static int edge_cmp(const void *a, const void *b)
{
	const struct edge *x = a, *y = b;

	if (x->t != y->t)
		return x->t < y->t ? -1 : 1;
	return x->delta - y->delta;   /* ends first */
}

long sumcheck_depth(const struct sumcheck_slice *v, size_t n, const struct sumcheck_window *w)
{
	struct edge *e = malloc((2 * n + 1) * sizeof(*e));
	size_t ne = 0;
	long live = 0, peak = 0;

	if (e == NULL)
		return -1;
	for (size_t i = 0; i < n; i++) {
		double tol = fabs(v[i].a) * ldexp(1.0, -22), lo = v[i].a, hi;

		if (tol < 0.25)
			tol = 0.25;
		hi = v[i].b - tol;
		if (v[i].e == v[i].s || v[i].b - v[i].a < 1)
			continue;   /* a point: true nowhere */
		if (w != NULL && w->has_from && lo < (double)w->from)
			lo = (double)w->from;
		if (w != NULL && w->has_to && hi > (double)w->to)
			hi = (double)w->to;
		if (!(hi > lo))
			continue;
		e[ne++] = (struct edge){ lo, +1 };
		e[ne++] = (struct edge){ hi, -1 };
	}
	qsort(e, ne, sizeof(*e), edge_cmp);
	for (size_t i = 0; i < ne; i++) {
		live += e[i].delta;
		if (live > peak)
			peak = live;
	}
	free(e);
	return peak == 0 && n > 0 ? 1 : peak;
}

static int ll_cmp(const void *a, const void *b)
{
	const long long *x = a, *y = b;

	return *x < *y ? -1 : *x > *y;
}

static int covers(const struct sumcheck_iv *v, size_t n, long long lo, long long hi)
{
	for (size_t i = 0; i < n; i++)
		if (v[i].s <= lo && v[i].e >= hi)
			return 1;
	return 0;
}

long long sumcheck_overlap(const struct sumcheck_iv *mte, size_t nm,
			   const struct sumcheck_iv *comp, size_t nc)
{
	long long *t = malloc((2 * (nm + nc) + 1) * sizeof(*t)), total = 0;
	size_t nt = 0;

	if (t == NULL)
		return -1;
	for (size_t i = 0; i < nm; i++) {
		t[nt++] = mte[i].s;
		t[nt++] = mte[i].e;
	}
	for (size_t i = 0; i < nc; i++) {
		t[nt++] = comp[i].s;
		t[nt++] = comp[i].e;
	}
	qsort(t, nt, sizeof(*t), ll_cmp);
	for (size_t i = 0; i + 1 < nt; i++)
		if (t[i + 1] > t[i] && covers(mte, nm, t[i], t[i + 1]) &&
		    covers(comp, nc, t[i], t[i + 1]))
			total += t[i + 1] - t[i];
	free(t);
	return total;
}

/* args.process_bytes as a decimal string (or a whole number); -1: none. */
long long sumcheck_process_bytes(const cJSON *ev)
{
	const cJSON *v = cJSON_GetObjectItemCaseSensitive(
		cJSON_GetObjectItemCaseSensitive(ev, "args"), "process_bytes");
	long long b = 0;

	if (cJSON_IsNumber(v))
		return v->valuedouble >= 0 && v->valuedouble == floor(v->valuedouble) &&
		       v->valuedouble < 9e15 ? (long long)v->valuedouble : -1;
	if (!cJSON_IsString(v) || v->valuestring[0] == '\0')
		return -1;
	for (const char *c = v->valuestring; *c != '\0'; c++) {
		if (*c < '0' || *c > '9' || b > (LLONG_MAX - 9) / 10)
			return -1;
		b = b * 10 + (*c - '0');
	}
	return b;
}

/*
 * bytes: the sum of the lane's process_bytes (null: no slice has one, and
 * always on a pipe that is no MTE); bandwidth_gbps: bytes / busy_ns, i.e.
 * bytes * 1000 / busy_ns MB/s rounded half up, printed as GB/s.
 */
void sumcheck_bytes(const char *core, const char *pipe, const cJSON *p, int has_bytes,
		    unsigned long long sum, long long busy)
{
	const cJSON *bytes = cJSON_GetObjectItemCaseSensitive(p, "bytes");
	const cJSON *bw = cJSON_GetObjectItemCaseSensitive(p, "bandwidth_gbps");
	unsigned long long mbps;

	if (!has_bytes) {
		if (!cJSON_IsNull(bytes) || !cJSON_IsNull(bw))
			sumcheck_fail("%s %s: bytes/bandwidth_gbps not null, the trace has no process_bytes",
				      core, pipe);
		return;
	}
	if (!cJSON_IsNumber(bytes) || bytes->valuedouble != (double)sum)
		sumcheck_fail("%s %s: bytes %g, the trace's process_bytes sum to %llu", core, pipe,
			      sumcheck_num(p, "bytes"), sum);
	if (busy <= 0) {
		if (!cJSON_IsNull(bw))
			sumcheck_fail("%s %s: bandwidth_gbps without busy time", core, pipe);
		return;
	}
	if (sum > ULLONG_MAX / 2000) {
		sumcheck_fail("%s %s: bytes too large for the recheck", core, pipe);
		return;
	}
	mbps = sum * 1000 / (unsigned long long)busy;
	if (2 * (sum * 1000 % (unsigned long long)busy) >= (unsigned long long)busy)
		mbps++;
	if (!cJSON_IsNumber(bw) || llround(bw->valuedouble * 1000) != (long long)mbps)
		sumcheck_fail("%s %s: bandwidth_gbps %g, %llu bytes in %lld ns is %llu.%03llu", core,
			      pipe, sumcheck_num(p, "bandwidth_gbps"), sum, busy, mbps / 1000,
			      mbps % 1000);
}

