/*
 * The diagnosis part of summary_recheck: summary.json's "diagnosis" against
 * the summary's own figures, by docs/summary.md ("Diagnosis") and nothing
 * of the converter:
 *   - one line per rule (no id twice), ids known; the first line alone has
 *     "primary":true; evidence_share never rises down the list;
 *   - near_empty or degenerate_no_cube silence every rule but truncated
 *     (and near_empty silences degenerate_no_cube);
 *   - "cores" are cores of the summary, each once; "core" is null or one
 *     of them; "per_core" names each of them at most once;
 *   - every per-core entry's numbers are the summary's (the named pipe's
 *     busy_ns or wait_flag_ns, the producer's ns, the core's span_ns and
 *     cross_core_wait_ns) and meet the rule's threshold;
 *   - a per-core line's "numbers" are those of its "core", the entry whose
 *     evidence is largest, and evidence_share is that evidence over the
 *     slowest core's span (the whole-run rules: 1);
 *   - where the core has a critical path, an entry's path_ns is the time
 *     the cause holds on it (check_path), and that is its evidence;
 *   - path_bound names the core's path's busiest pipe, at least 40 % of
 *     the span, beside another per-core line there whose cause holds less
 *     of the path and names another pipe (check_path_bound).
 */
#include <math.h>
#include <string.h>

#include "summary_recheck.h"

static const char *const ids[] = {
	"near_empty", "degenerate_no_cube", "truncated", "transfer_bound",
	"vector_shaped_wrong", "scalar_bound", "sync_bound", "cross_core_wait",
	"load_imbalance", "path_bound",
};
#define NIDS (sizeof(ids) / sizeof(ids[0]))

static const cJSON *item(const cJSON *o, const char *key)
{
	return cJSON_GetObjectItemCaseSensitive(o, key);
}

static const char *str(const cJSON *o, const char *key)
{
	const cJSON *v = item(o, key);

	return cJSON_IsString(v) ? v->valuestring : NULL;
}

static int rule_of(const char *id)
{
	for (size_t r = 0; id != NULL && r < NIDS; r++)
		if (strcmp(ids[r], id) == 0)
			return (int)r;
	return -1;
}

static const cJSON *core_named(const cJSON *cores, const char *pid)
{
	const cJSON *c;

	cJSON_ArrayForEach(c, cores) {
		const char *name = str(c, "core");

		if (pid != NULL && name != NULL && strcmp(name, pid) == 0)
			return c;
	}
	return NULL;
}

static const cJSON *pipe_named(const cJSON *core, const char *pipe)
{
	const cJSON *p;

	cJSON_ArrayForEach(p, item(core, "pipes")) {
		const char *name = str(p, "pipe");

		if (pipe != NULL && name != NULL && strcmp(name, pipe) == 0)
			return p;
	}
	return NULL;
}

/* The ns a pipe waited on producer (null: not named) by wait_flag_by_producer. */
static double waited_on(const cJSON *pipe, const cJSON *producer)
{
	const cJSON *w;

	cJSON_ArrayForEach(w, item(pipe, "wait_flag_by_producer")) {
		const cJSON *p = item(w, "producer");

		if ((cJSON_IsNull(producer) && cJSON_IsNull(p)) ||
		    (cJSON_IsString(producer) && cJSON_IsString(p) &&
		     strcmp(producer->valuestring, p->valuestring) == 0))
			return sumcheck_num(w, "ns");
	}
	return 0;
}

/* part * 100 >= pct * whole, the rules' comparison. */
static int at_least(double part, double pct, double whole)
{
	return part * 100 >= pct * whole;
}

/* The figure of `key` of the named pipe of a core (NAN when it has no such pipe). */
static double pipe_figure(const cJSON *core, const cJSON *nums, const char *pipe_key,
			  const char *key)
{
	const cJSON *p = pipe_named(core, str(nums, pipe_key));

	return p != NULL ? sumcheck_num(p, key) : NAN;
}

static int is_vector_family(const char *pipe)
{
	return pipe != NULL && (strcmp(pipe, "VECTOR") == 0 || strcmp(pipe, "VEC") == 0 ||
				strcmp(pipe, "PUSHQ") == 0 || strncmp(pipe, "RVEC", 4) == 0);
}

/*
 * path_ns of a per-core entry (docs/summary.md, "Ranking"): present exactly
 * when the core's critical_path has segments, and then the time the cause
 * holds on it, from critical_path alone: the named pipe's busy entry
 * (scalar_bound: and issue_ns), the flag waits into the blocked pipe (the
 * vector family as one), or cross_core_wait_ns. That time, at most the
 * span, is then the entry's evidence (*e). 0: it disagrees.
 */
static int check_path(int r, const char *pid, const cJSON *core, const cJSON *nums, double *e)
{
	const cJSON *cp = item(core, "critical_path"), *it;
	const char *pipe = str(nums, "pipe");
	const double span = sumcheck_num(core, "span_ns");
	double want = 0;

	if (!cJSON_IsObject(cp) || sumcheck_num(cp, "segments") == 0)
		return item(nums, "path_ns") == NULL;
	if (r == 3 || r == 4 || r == 5 || r == 9) {
		cJSON_ArrayForEach(it, item(cp, "busy"))
			if (pipe != NULL && str(it, "pipe") != NULL && strcmp(str(it, "pipe"), pipe) == 0)
				want += sumcheck_num(it, "ns");
		if (r == 5)
			want += sumcheck_num(cp, "issue_ns");
	} else if (r == 6) {
		cJSON_ArrayForEach(it, item(cp, "wait")) {
			const char *c = str(it, "consumer");

			if (c != NULL && pipe != NULL &&
			    (strcmp(c, pipe) == 0 || (is_vector_family(c) && is_vector_family(pipe))))
				want += sumcheck_num(it, "ns");
		}
	} else {
		want = sumcheck_num(cp, "cross_core_wait_ns");
	}
	if (sumcheck_num(nums, "path_ns") != want) {
		sumcheck_fail("diagnosis %s on %s: path_ns %g, its critical path gives %g", ids[r],
			      pid, sumcheck_num(nums, "path_ns"), want);
		return 0;
	}
	*e = fmin(want, span);
	return 1;
}

/*
 * One per-core entry of rule r on core: its numbers against the summary
 * and the threshold; returns its evidence (docs/summary.md "Ranking").
 */
static double check_entry(int r, const char *pid, const cJSON *core, const cJSON *nums,
			  double median)
{
	const double span = sumcheck_num(core, "span_ns");
	double e = NAN, busy;
	int ok = sumcheck_num(nums, "span_ns") == span;

	switch (r) {
	case 3:   /* transfer_bound */
		busy = pipe_figure(core, nums, "pipe", "busy_ns");
		ok &= busy == sumcheck_num(nums, "busy_ns") && at_least(busy, 70, span) &&
		      sumcheck_num(nums, "compute_busy_ns") * 100 <= 30 * span &&
		      (cJSON_IsNull(item(nums, "compute_pipe")) ? sumcheck_num(nums, "compute_busy_ns") == 0
		       : pipe_figure(core, nums, "compute_pipe", "busy_ns") == sumcheck_num(nums, "compute_busy_ns"));
		e = fmin(busy, span);
		break;
	case 4:   /* vector_shaped_wrong */
		busy = pipe_figure(core, nums, "pipe", "busy_ns");
		ok &= busy == sumcheck_num(nums, "busy_ns") && at_least(busy, 70, span) &&
		      sumcheck_num(nums, "utilization_x100") <= 5000;
		e = fmin(busy, span);
		break;
	case 5:   /* scalar_bound */
		busy = pipe_figure(core, nums, "pipe", "busy_ns");
		ok &= busy == sumcheck_num(nums, "busy_ns") && at_least(busy, 60, span);
		e = fmin(busy, span);
		break;
	case 6: { /* sync_bound */
		const cJSON *p = pipe_named(core, str(nums, "pipe"));
		double wait = p != NULL ? sumcheck_num(p, "wait_flag_ns") : NAN;

		ok &= wait == sumcheck_num(nums, "wait_flag_ns") && at_least(wait, 50, span) &&
		      waited_on(p, item(nums, "producer")) == sumcheck_num(nums, "producer_ns");
		e = fmin(wait, span);
		break;
	}
	case 7: { /* cross_core_wait */
		double wait = sumcheck_num(core, "cross_core_wait_ns");

		ok &= wait == sumcheck_num(nums, "cross_core_wait_ns") && at_least(wait, 50, span);
		e = fmin(wait, span);
		break;
	}
	case 8:   /* load_imbalance */
		ok &= span > median && at_least(span, 125, median);
		e = span - median;
		break;
	case 9: { /* path_bound: the path's busiest pipe, at least 40 % of the span */
		const cJSON *top = cJSON_GetArrayItem(item(item(core, "critical_path"), "busy"), 0);

		busy = pipe_figure(core, nums, "pipe", "busy_ns");
		ok &= busy == sumcheck_num(nums, "busy_ns") && top != NULL &&
		      str(top, "pipe") != NULL && str(nums, "pipe") != NULL &&
		      strcmp(str(top, "pipe"), str(nums, "pipe")) == 0 &&
		      at_least(sumcheck_num(top, "ns"), 40, span);
		e = fmin(busy, span);
		break;
	}
	case 2:   /* truncated: per core, its count of open waits */
		ok = sumcheck_num(nums, "unreleased_waits") > 0;
		break;
	default:
		ok = 0;
		break;
	}
	if (((r >= 3 && r <= 7) || r == 9) && !check_path(r, pid, core, nums, &e))
		ok = 0;
	/* a sync wait folded into its cause names a pipe of the core */
	if (item(nums, "starved_pipe") != NULL)
		ok &= pipe_figure(core, nums, "starved_pipe", "wait_flag_ns") ==
		      sumcheck_num(nums, "starved_wait_ns");
	if (!ok)
		sumcheck_fail("diagnosis %s on %s: numbers disagree with the summary or miss "
			      "the threshold", ids[r], pid);
	return e;
}

/* A line's cores, per_core entries and evidence; returns its evidence_share. */
static double check_line(const cJSON *line, int r, const cJSON *jcores, const cJSON *lb)
{
	const cJSON *cores = item(line, "cores"), *c, *pc;
	const char *rep = str(line, "core"), *best_pid = NULL;
	const double max_span = cJSON_IsObject(lb) ? sumcheck_num(lb, "max_span_ns") : 0;
	const double median = cJSON_IsObject(lb) ? sumcheck_num(lb, "median_span_ns") : 0;
	double best = -1, share = sumcheck_num(line, "evidence_share");
	const cJSON *best_nums = NULL;
	int n = 0, rep_in = rep == NULL;

	cJSON_ArrayForEach(c, cores) {
		const cJSON *d;
		int twice = 0;

		cJSON_ArrayForEach(d, cores)
			twice += cJSON_IsString(d) && cJSON_IsString(c) &&
				 strcmp(d->valuestring, c->valuestring) == 0;
		if (!cJSON_IsString(c) || core_named(jcores, c->valuestring) == NULL || twice != 1)
			sumcheck_fail("diagnosis %s: core %s is not a core of the summary, or twice",
				      ids[r], cJSON_IsString(c) ? c->valuestring : "?");
		rep_in |= cJSON_IsString(c) && rep != NULL && strcmp(c->valuestring, rep) == 0;
		n++;
	}
	if (!rep_in)
		sumcheck_fail("diagnosis %s: core %s is not among its cores", ids[r], rep);
	if (n == 0 && r != 0)
		sumcheck_fail("diagnosis %s holds on no core", ids[r]);
	cJSON_ArrayForEach(pc, item(line, "per_core")) {
		const char *pid = str(pc, "core");
		const cJSON *d, *nums = item(pc, "numbers");
		int in = 0;
		double e;

		cJSON_ArrayForEach(d, cores)
			in += cJSON_IsString(d) && pid != NULL && strcmp(d->valuestring, pid) == 0;
		if (in != 1 || !cJSON_IsObject(nums)) {
			sumcheck_fail("diagnosis %s: per_core %s is not one of its cores", ids[r],
				      pid != NULL ? pid : "?");
			continue;
		}
		e = check_entry(r, pid, core_named(jcores, pid), nums, median);
		if (e > best) {   /* the first in core order on a tie */
			best = e;
			best_nums = nums;
			best_pid = pid;
		}
	}
	if (r <= 2) {   /* about the trace itself: the whole span */
		if (max_span > 0 ? fabs(share - 1) > 1e-9 : !cJSON_IsNull(item(line, "evidence_share")))
			sumcheck_fail("diagnosis %s: evidence_share %g, a whole-run rule covers 1",
				      ids[r], share);
		return max_span > 0 ? 1 : 0;
	}
	if (r == 8) {   /* load_imbalance speaks for the run, through the slowest core */
		if (rep == NULL || strcmp(rep, str(lb, "slowest_core")) != 0 ||
		    sumcheck_num(item(line, "numbers"), "max_span_ns") != max_span ||
		    sumcheck_num(item(line, "numbers"), "median_span_ns") != median)
			sumcheck_fail("diagnosis load_imbalance: not the load balance's numbers");
	} else if (best_nums == NULL || rep == NULL || strcmp(rep, best_pid) != 0 ||
		   !cJSON_Compare(best_nums, item(line, "numbers"), 1)) {
		sumcheck_fail("diagnosis %s: core and numbers are not those of its weightiest core",
			      ids[r]);
	}
	if (best < 0 || max_span <= 0 || fabs(share - best / max_span) > 0.00005 + 1e-9)
		sumcheck_fail("diagnosis %s: evidence_share %g, the evidence gives %g / %g",
			      ids[r], share, best, max_span);
	return share;
}

/* The entry of line's per_core for pid, or NULL. */
static const cJSON *entry_of(const cJSON *line, const char *pid)
{
	const cJSON *pc;

	cJSON_ArrayForEach(pc, item(line, "per_core"))
		if (str(pc, "core") != NULL && pid != NULL && strcmp(str(pc, "core"), pid) == 0)
			return item(pc, "numbers");
	return NULL;
}

/*
 * path_bound holds on a core only beside another per-core line there
 * (transfer, vector, scalar, sync, cross-core), none of whose causes holds
 * as much of the path or, for the first three, names its pipe.
 */
static void check_path_bound(const cJSON *diag, const cJSON *pb)
{
	const cJSON *pc, *line;

	cJSON_ArrayForEach(pc, item(pb, "per_core")) {
		const char *pid = str(pc, "core"), *pipe = str(item(pc, "numbers"), "pipe");
		double ns = sumcheck_num(item(pc, "numbers"), "path_ns");
		int others = 0;

		cJSON_ArrayForEach(line, diag) {
			int r = rule_of(str(line, "id"));
			const cJSON *nums = entry_of(line, pid);

			if (r < 3 || r > 7 || nums == NULL)
				continue;
			others++;
			if (sumcheck_num(nums, "path_ns") >= ns ||
			    (r <= 5 && str(nums, "pipe") != NULL && pipe != NULL &&
			     (strcmp(str(nums, "pipe"), pipe) == 0 ||
			      (r == 4 && is_vector_family(pipe)))))
				sumcheck_fail("diagnosis path_bound on %s: %s there names as much of "
					      "the path, or its pipe", pid, ids[r]);
		}
		if (others == 0)
			sumcheck_fail("diagnosis path_bound on %s: no other line holds there", pid);
	}
}

void sumcheck_diagnosis(const cJSON *sum)
{
	const cJSON *diag = item(sum, "diagnosis"), *line;
	const cJSON *jcores = item(sum, "cores"), *lb = item(sum, "load_balance");
	int seen[NIDS] = { 0 }, i = 0;
	double last = INFINITY;

	if (!cJSON_IsArray(diag)) {
		sumcheck_fail("diagnosis is not an array");
		return;
	}
	cJSON_ArrayForEach(line, diag) {
		int r = rule_of(str(line, "id"));
		double share;

		if (r < 0) {
			sumcheck_fail("diagnosis line %d: unknown id", i);
			continue;
		}
		if (seen[r]++)
			sumcheck_fail("diagnosis: %s on more than one line", ids[r]);
		if (cJSON_IsTrue(item(line, "primary")) != (i == 0) ||
		    !cJSON_IsBool(item(line, "primary")))
			sumcheck_fail("diagnosis %s: \"primary\" must be true on the first line only",
				      ids[r]);
		share = check_line(line, r, jcores, lb);
		if (r == 9)
			check_path_bound(diag, line);
		if (share > last + 1e-9)
			sumcheck_fail("diagnosis %s: evidence_share %g rises above the line before (%g)",
				      ids[r], share, last);
		last = share;
		i++;
	}
	if ((seen[0] || seen[1]) &&
	    (seen[3] || seen[4] || seen[5] || seen[6] || seen[7] || seen[8] || seen[9]))
		sumcheck_fail("diagnosis: a degenerate trace with lines that read its figures");
	if (seen[0] && seen[1])
		sumcheck_fail("diagnosis: degenerate_no_cube beside near_empty");
}
