/*
 * summary_recheck's timeline part: summary.json's "timeline" (the slowest
 * core's busy ns per bin, per pipe) against that core's lanes in the
 * trace. Rows: the core's first 32 pipes, in its order. Bins: the core's span cut into ceil(span / 200) ns each; a
 * slice adds the ns of its grid interval [s, e) inside each bin, clipped
 * to the span, a zero-length one [s, s + 1). Pipes without a lane in the
 * trace (dropped ones, SCALAR by default) are checked for their place and
 * length only.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "summary_recheck.h"

static const cJSON *core_named(const cJSON *sum, const char *name)
{
	const cJSON *c;

	cJSON_ArrayForEach(c, cJSON_GetObjectItemCaseSensitive(sum, "cores")) {
		const cJSON *n = cJSON_GetObjectItemCaseSensitive(c, "core");

		if (cJSON_IsString(n) && strcmp(n->valuestring, name) == 0)
			return c;
	}
	return NULL;
}

/* The busy ns per bin of one lane's slices. */
static void bin_lane(const struct sumcheck_slice *f, long n, long long first, long long span,
		     long long w, long long *out, long nbins)
{
	for (long k = 0; k < n; k++) {
		long long a = f[k].s - first, b = (f[k].e > f[k].s ? f[k].e : f[k].s + 1) - first;

		a = a < 0 ? 0 : a;
		b = b > span ? span : b;
		if (a >= span)
			a = span - 1;
		for (long i = (long)(a / w); a < b && i < nbins; i++) {
			const long long end = (long long)(i + 1) * w, hi = b < end ? b : end;

			out[i] += hi - a;
			a = hi;
		}
	}
}

static void check_row(const char *core, const cJSON *row, const cJSON *want_pipe,
		      long long first, long long span, long long w, long nbins)
{
	const cJSON *pipe = cJSON_GetObjectItemCaseSensitive(row, "pipe");
	const cJSON *busy = cJSON_GetObjectItemCaseSensitive(row, "busy_ns");
	const cJSON *name = cJSON_GetObjectItemCaseSensitive(want_pipe, "pipe");
	const struct sumcheck_slice *f;
	long long *want;
	long n, i = 0;
	const cJSON *b;

	if (!cJSON_IsString(pipe) || !cJSON_IsString(name) ||
	    strcmp(pipe->valuestring, name->valuestring) != 0) {
		sumcheck_fail("%s timeline: a row not in the core's pipe order", core);
		return;
	}
	if (!cJSON_IsArray(busy) || cJSON_GetArraySize(busy) != nbins) {
		sumcheck_fail("%s timeline %s: not %ld bins", core, pipe->valuestring, nbins);
		return;
	}
	n = sumcheck_lane_slices(core, pipe->valuestring, &f);
	if (n < 0)
		return;   /* a dropped lane: its slices are not in the trace */
	want = calloc((size_t)nbins, sizeof(*want));
	if (want == NULL) {
		sumcheck_fail("out of memory");
		return;
	}
	bin_lane(f, n, first, span, w, want, nbins);
	cJSON_ArrayForEach(b, busy) {
		if (!cJSON_IsNumber(b) || b->valuedouble != (double)want[i]) {
			sumcheck_fail("%s timeline %s bin %ld: %g ns, the trace gives %lld", core,
				      pipe->valuestring, i, cJSON_IsNumber(b) ? b->valuedouble : NAN,
				      want[i]);
			break;
		}
		i++;
	}
	free(want);
}

void sumcheck_timeline(const cJSON *sum)
{
	const cJSON *tl = cJSON_GetObjectItemCaseSensitive(sum, "timeline");
	const cJSON *lb = cJSON_GetObjectItemCaseSensitive(sum, "load_balance");
	const cJSON *slowest = cJSON_GetObjectItemCaseSensitive(lb, "slowest_core");
	const cJSON *core, *rows, *pipes;
	long long first, span, w;
	long nbins, r = 0;

	if (!cJSON_IsObject(lb)) {
		if (!cJSON_IsNull(tl))
			sumcheck_fail("timeline: not null without a core");
		return;
	}
	if (!cJSON_IsObject(tl) || !cJSON_IsString(slowest)) {
		sumcheck_fail("timeline: missing");
		return;
	}
	core = core_named(sum, slowest->valuestring);
	if (core == NULL || strcmp(cJSON_GetObjectItemCaseSensitive(tl, "core")->valuestring,
				   slowest->valuestring) != 0) {
		sumcheck_fail("timeline: not the slowest core's");
		return;
	}
	first = (long long)sumcheck_num(core, "first_ns");
	span = (long long)sumcheck_num(core, "span_ns");
	if (sumcheck_num(tl, "first_ns") != (double)first || sumcheck_num(tl, "span_ns") != (double)span)
		sumcheck_fail("timeline: first_ns or span_ns not the core's");
	span = span > 0 ? span : 1;
	w = (span + 199) / 200;
	if (sumcheck_num(tl, "bin_ns") != (double)w) {
		sumcheck_fail("timeline: bin_ns %g, want %lld", sumcheck_num(tl, "bin_ns"), w);
		return;
	}
	nbins = (long)((span + w - 1) / w);
	rows = cJSON_GetObjectItemCaseSensitive(tl, "pipes");
	pipes = cJSON_GetObjectItemCaseSensitive(core, "pipes");
	/* the core's first 32 pipes */
	if (cJSON_GetArraySize(rows) !=
	    (cJSON_GetArraySize(pipes) < 32 ? cJSON_GetArraySize(pipes) : 32)) {
		sumcheck_fail("timeline: %d rows for %d pipes", cJSON_GetArraySize(rows),
			      cJSON_GetArraySize(pipes));
		return;
	}
	for (const cJSON *row = rows != NULL ? rows->child : NULL; row != NULL; row = row->next)
		check_row(slowest->valuestring, row, cJSON_GetArrayItem(pipes, (int)r++), first, span,
			  w, nbins);
}
