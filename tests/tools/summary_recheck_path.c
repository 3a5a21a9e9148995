/*
 * The critical-path part of summary_recheck: each core's "critical path"
 * lane of the trace against its summary.json critical_path (SPEC §13,
 * docs/critical-path.md), from the lane's events alone (cJSON only):
 *   - a core of the trace has the lane exactly when its path has segments,
 *     and their number is "segments";
 *   - the segments tile the core's span: the first starts at first_ns, each
 *     starts where the one before ended, the last ends at last_ns, and each
 *     lasts at least a ns;
 *   - busy ns per pipe, wait ns per producer -> consumer pair, the
 *     cross-core wait and the issue time summed from the segments equal
 *     busy[], wait[], cross_core_wait_ns and issue_ns; busy and wait are
 *     sorted largest first, each share is ns / span_ns to 4 decimals, and
 *     the four add up to span_ns;
 *   - a busy segment lies inside an instruction of its pipe on its core
 *     (a pipe the trace drops: the summary says kept:false);
 *   - a flag wait runs from an arrow's producer's end to its consumer's
 *     start: an arrow of its pipe pair on its core whose s lies in a slice
 *     ending at the segment's start and whose f lies in a slice starting at
 *     its end (without a window; a pair with a dropped scalar side has no
 *     arrow);
 *   - top_instructions: each names an instruction (args.pc_addr on its
 *     core, named as its first slice; without one, its name) of the trace whose slices
 *     cover its busy segments, or one on a pipe
 *     the trace drops (its busy_ns at most their busy time), or one that
 *     only released waits; its busy_ns lies between the busy time only its
 *     slices cover and the time they may cover (equal where no two
 *     instructions overlap), ns is busy_ns + released_ns, the released_ns
 *     together at most the path's flag and cross-core waits; sorted,
 *     shares of the span, its source its slices' args.source; at most 10,
 *     every instruction that surely holds more than the last listed one is
 *     listed, and with fewer than 10 their busy_ns add up to the busy time.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "summary_recheck.h"

#define MAX_SEGS 65536
#define MAX_ENDS 65536
#define LEN 128
#define MAX_INSTRS 8192
#define MAX_TOP 10

enum kind { K_BUSY, K_WAIT, K_CROSS, K_ISSUE, K_BAD };

struct seg {
	char pid[LEN];
	long long s, e;
	enum kind kind;
	char a[LEN], b[LEN];   /* busy: pipe; wait: producer, consumer */
};

/* One s or f of an in-core arrow. */
struct flow_end {
	double id;
	int is_start;
	char cat[LEN], pid[LEN], tid[LEN];
	double ts;
};

/* An instruction of the trace, and while a core is checked its busy time
   on the path: lo surely (only its slices cover it), hi at most. */
struct instr {
	char pid[LEN];
	int has_pc;
	char pc[LEN];          /* args.pc_addr as the trace writes it */
	char name[LEN];
	int has_source;
	char source[LEN];
	long long lo, hi;
	int listed;
};

static struct instr instrs[MAX_INSTRS];
static size_t ninstrs;
static struct seg segs[MAX_SEGS];
static size_t nsegs;
static struct flow_end ends[MAX_ENDS];
static size_t nends;
static int overflow;

static const char *str_of(const cJSON *o, const char *key)
{
	const cJSON *v = cJSON_GetObjectItemCaseSensitive(o, key);

	return cJSON_IsString(v) ? v->valuestring : NULL;
}

/*
 * A segment's kind and pipes from its name (docs/critical-path.md, "In the
 * trace"): "issue", "cross-core wait", "wait P->C", else busy on the pipe
 * it names.
 */
static enum kind parse_name(const char *name, char *a, char *b)
{
	const char *arrow;

	a[0] = b[0] = '\0';
	if (strcmp(name, "issue") == 0)
		return K_ISSUE;
	if (strcmp(name, "cross-core wait") == 0)
		return K_CROSS;
	if (strncmp(name, "wait ", 5) == 0) {
		arrow = strstr(name, "->");
		if (arrow == NULL)
			return K_BAD;
		snprintf(a, LEN, "%.*s", (int)(arrow - name - 5), name + 5);
		snprintf(b, LEN, "%s", arrow + 2);
		return K_WAIT;
	}
	snprintf(a, LEN, "%s", name);
	return name[0] != '\0' ? K_BUSY : K_BAD;
}

void sumcheck_path_reset(void)
{
	nsegs = nends = ninstrs = 0;
	overflow = 0;
}

/* An instruction is its address on its core, named as its first slice;
   without one, its name. */
static int instr_find(const char *pid, const char *pc, const char *name)
{
	for (size_t i = 0; i < ninstrs; i++)
		if (instrs[i].has_pc == (pc != NULL) && strcmp(instrs[i].pid, pid) == 0 &&
		    strcmp(pc != NULL ? instrs[i].pc : instrs[i].name, pc != NULL ? pc : name) == 0)
			return (int)i;
	return -1;
}

int sumcheck_path_instr(const cJSON *ev)
{
	const cJSON *args = cJSON_GetObjectItemCaseSensitive(ev, "args");
	const char *name = str_of(ev, "name"), *source = str_of(args, "source");
	const char *pid = str_of(ev, "pid"), *pc = str_of(args, "pc_addr");
	int id = instr_find(pid != NULL ? pid : "", pc, name != NULL ? name : "");
	struct instr *in;

	if (id >= 0)
		return id;
	if (ninstrs == MAX_INSTRS) {
		overflow = 1;
		return -1;
	}
	in = &instrs[ninstrs];
	memset(in, 0, sizeof(*in));
	snprintf(in->pid, LEN, "%s", pid != NULL ? pid : "");
	in->has_pc = pc != NULL;
	snprintf(in->pc, LEN, "%s", pc != NULL ? pc : "");
	snprintf(in->name, LEN, "%s", name != NULL ? name : "");
	in->has_source = source != NULL;
	snprintf(in->source, LEN, "%s", source != NULL ? source : "");
	return (int)ninstrs++;
}

static void add_end(const cJSON *ev, const char *ph)
{
	const char *cat = str_of(ev, "cat"), *pid = str_of(ev, "pid"), *tid = str_of(ev, "tid");
	struct flow_end *f;

	if (cat == NULL || pid == NULL || tid == NULL || strcmp(cat, "intra_block") == 0)
		return;
	if (nends == MAX_ENDS) {
		overflow = 1;
		return;
	}
	f = &ends[nends++];
	f->id = sumcheck_num(ev, "id");
	f->is_start = ph[0] == 's';
	snprintf(f->cat, LEN, "%s", cat);
	snprintf(f->pid, LEN, "%s", pid);
	snprintf(f->tid, LEN, "%s", tid);
	f->ts = sumcheck_num(ev, "ts");
}

int sumcheck_path_add(const cJSON *ev)
{
	const char *ph = str_of(ev, "ph"), *tid = str_of(ev, "tid"), *pid = str_of(ev, "pid");
	const char *name = str_of(ev, "name");
	struct seg *g;
	double ts, dur;

	if (ph != NULL && (strcmp(ph, "s") == 0 || strcmp(ph, "f") == 0)) {
		add_end(ev, ph);
		return 0;
	}
	if (ph == NULL || strcmp(ph, "X") != 0 || tid == NULL || strcmp(tid, "critical path") != 0)
		return 0;
	if (nsegs == MAX_SEGS || pid == NULL) {
		overflow = 1;
		return 1;
	}
	g = &segs[nsegs++];
	snprintf(g->pid, LEN, "%s", pid);
	ts = sumcheck_num(ev, "ts");
	dur = sumcheck_num(ev, "dur");
	g->s = llround(ts * 1000);
	g->e = g->s + llround(dur * 1000);
	g->kind = parse_name(name != NULL ? name : "", g->a, g->b);
	return 1;
}

/* A sum by name (one name, or a producer/consumer pair). */
struct sum {
	char a[LEN], b[LEN];
	long long ns;
	int seen;
};

static void add_to(struct sum *v, size_t *n, size_t cap, const char *a, const char *b,
		   long long ns)
{
	for (size_t i = 0; i < *n; i++)
		if (strcmp(v[i].a, a) == 0 && strcmp(v[i].b, b) == 0) {
			v[i].ns += ns;
			return;
		}
	if (*n == cap) {
		overflow = 1;
		return;
	}
	snprintf(v[*n].a, LEN, "%s", a);
	snprintf(v[*n].b, LEN, "%s", b);
	v[*n].ns = ns;
	v[(*n)++].seen = 0;
}

/* list (busy[] or wait[]) against the sums: equal members, largest first. */
static void check_list(const char *core, const char *what, const cJSON *list, struct sum *v,
		       size_t n, int pairs, double span)
{
	const cJSON *it;
	double prev = INFINITY;
	size_t count = 0;

	cJSON_ArrayForEach(it, list) {
		const char *a = str_of(it, pairs ? "producer" : "pipe");
		const char *b = pairs ? str_of(it, "consumer") : "";
		double ns = sumcheck_num(it, "ns"), share = sumcheck_num(it, "share");
		size_t i;

		count++;
		if (ns > prev)
			sumcheck_fail("%s: critical_path %s not sorted largest first", core, what);
		prev = ns;
		if (span > 0 && llround(share * 10000) != (long long)floor(ns * 10000 / span + 0.5))
			sumcheck_fail("%s: critical_path %s share %g is not %g / %g", core, what,
				      share, ns, span);
		for (i = 0; i < n; i++)
			if (a != NULL && b != NULL && strcmp(v[i].a, a) == 0 && strcmp(v[i].b, b) == 0)
				break;
		if (i == n) {
			sumcheck_fail("%s: critical_path %s %s%s%s: no such segment on the lane", core,
				      what, a ? a : "?", pairs ? "->" : "", pairs && b ? b : "");
			continue;
		}
		v[i].seen = 1;
		if (ns != (double)v[i].ns)
			sumcheck_fail("%s: critical_path %s %s%s%s %g ns, the lane's segments %lld",
				      core, what, v[i].a, pairs ? "->" : "", v[i].b, ns, v[i].ns);
	}
	if (count != n)
		sumcheck_fail("%s: critical_path %s has %zu entries, the lane %zu", core, what,
			      count, n);
}

/* The arrow of pair a -> b on pid whose producer ends at s and consumer starts at e. */
static int wait_has_arrow(const char *pid, const struct seg *g)
{
	char cat[2 * LEN + 2];

	snprintf(cat, sizeof(cat), "%sTo%s", g->a, g->b);
	for (size_t i = 0; i < nends; i++) {
		const struct flow_end *s = &ends[i];

		if (!s->is_start || strcmp(s->cat, cat) != 0 || strcmp(s->pid, pid) != 0 ||
		    !sumcheck_lane_at(pid, s->tid, s->ts * 1000, -1, g->s))
			continue;
		for (size_t j = 0; j < nends; j++) {
			const struct flow_end *f = &ends[j];

			if (!f->is_start && f->id == s->id && strcmp(f->cat, cat) == 0 &&
			    sumcheck_lane_at(f->pid, f->tid, f->ts * 1000, g->e, -1))
				return 1;
		}
	}
	return 0;
}

static int is_scalar(const char *pipe)
{
	return strcmp(pipe, "SCALAR") == 0 || strcmp(pipe, "SCALARLDST") == 0;
}

/* Whether the summary core c lists pipe as dropped from the trace. */
static int dropped(const cJSON *c, const char *pipe)
{
	const cJSON *p;

	cJSON_ArrayForEach(p, cJSON_GetObjectItemCaseSensitive(c, "pipes")) {
		const char *name = str_of(p, "pipe");

		if (name != NULL && strcmp(name, pipe) == 0)
			return cJSON_IsFalse(cJSON_GetObjectItemCaseSensitive(p, "kept"));
	}
	return 0;
}

/* Tiling and where each segment lies; sums into busy, wait, cross, issue. */
/* A busy segment's instruction: surely one, maybe one of several, or on a
   dropped pipe (*dropped_ns). */
static void busy_instr(const cJSON *c, const char *core, const struct seg *g,
		       long long *dropped_ns)
{
	int ids[8];
	size_t n;

	if (dropped(c, g->a)) {
		*dropped_ns += g->e - g->s;
		return;
	}
	n = sumcheck_lane_instrs(core, g->a, g->s, g->e, ids, 8);
	for (size_t k = 0; k < n; k++) {
		if (ids[k] < 0)
			continue;
		instrs[ids[k]].hi += g->e - g->s;
		if (n == 1)
			instrs[ids[k]].lo += g->e - g->s;
	}
}

static void walk_segments(const cJSON *c, const char *core, int windowed, struct sum *busy,
			  size_t *nbusy, struct sum *wait, size_t *nwait, long long *cross,
			  long long *issue, size_t *count, long long *dropped_ns)
{
	long long at = (long long)sumcheck_num(c, "first_ns");

	for (size_t i = 0; i < nsegs; i++) {
		const struct seg *g = &segs[i];

		if (strcmp(g->pid, core) != 0)
			continue;
		++*count;
		if (g->s != at || g->e < g->s + 1)
			sumcheck_fail("%s: critical path segment [%lld, %lld] does not follow %lld "
				      "or lasts under a ns", core, g->s, g->e, at);
		at = g->e;
		switch (g->kind) {
		case K_BUSY:
			add_to(busy, nbusy, MAX_SEGS, g->a, "", g->e - g->s);
			if (!sumcheck_lane_covers(core, g->a, g->s, g->e) && !dropped(c, g->a))
				sumcheck_fail("%s: busy %s [%lld, %lld] inside no %s instruction",
					      core, g->a, g->s, g->e, g->a);
			busy_instr(c, core, g, dropped_ns);
			break;
		case K_WAIT:
			add_to(wait, nwait, MAX_SEGS, g->a, g->b, g->e - g->s);
			if (!windowed && !is_scalar(g->a) && !is_scalar(g->b) &&
			    !wait_has_arrow(core, g))
				sumcheck_fail("%s: wait %s->%s [%lld, %lld] along no arrow", core, g->a,
					      g->b, g->s, g->e);
			break;
		case K_CROSS:
			*cross += g->e - g->s;
			break;
		case K_ISSUE:
			*issue += g->e - g->s;
			break;
		default:
			sumcheck_fail("%s: a critical path segment of no known kind", core);
		}
	}
	if (*count > 0 && at != (long long)sumcheck_num(c, "last_ns"))
		sumcheck_fail("%s: the critical path ends at %lld, the span at %g", core, at,
			      sumcheck_num(c, "last_ns"));
}

/* One entry of top_instructions against the instructions of the trace. */
static void check_top_entry(const char *core, const cJSON *it, double span,
			    long long dropped_ns, double *prev)
{
	const cJSON *pcv = cJSON_GetObjectItemCaseSensitive(it, "pc_addr");
	const char *name = str_of(it, "name"), *source = str_of(it, "source");
	double ns = sumcheck_num(it, "ns"), share = sumcheck_num(it, "share");
	double busy = sumcheck_num(it, "busy_ns"), rel = sumcheck_num(it, "released_ns");
	int has_pc = cJSON_IsString(pcv), id;

	if (name == NULL || !(ns >= 1) || (!has_pc && !cJSON_IsNull(pcv)) || !(busy >= 0) ||
	    !(rel >= 0)) {
		sumcheck_fail("%s: a top_instructions entry without pc_addr, name, ns, busy_ns or "
			      "released_ns", core);
		return;
	}
	if (busy + rel != ns)
		sumcheck_fail("%s: top instruction %s: busy_ns %g + released_ns %g is not ns %g",
			      core, name, busy, rel, ns);
	if (ns > *prev)
		sumcheck_fail("%s: critical_path top_instructions not sorted largest first", core);
	*prev = ns;
	if (span > 0 && llround(share * 10000) != (long long)floor(ns * 10000 / span + 0.5))
		sumcheck_fail("%s: top instruction %s share %g is not %g / %g", core, name, share,
			      ns, span);
	id = instr_find(core, has_pc ? pcv->valuestring : NULL, name);
	if (id >= 0 && strcmp(instrs[id].name, name) != 0)
		sumcheck_fail("%s: top instruction %s at %s: its first slice is named %s", core,
			      name, pcv->valuestring, instrs[id].name);
	if (id < 0 || (instrs[id].hi == 0 && instrs[id].lo == 0)) {
		/* none of its slices is under a busy segment: a dropped pipe's, or
		   one that only released waits (another core's, maybe) */
		if (busy > (double)dropped_ns)
			sumcheck_fail("%s: top instruction %s (%s) holds %g busy ns, no busy "
				      "segment of it in the trace and %lld ns on dropped pipes",
				      core, name, has_pc ? pcv->valuestring : "no pc", busy,
				      dropped_ns);
		return;
	}
	if (instrs[id].listed++)
		sumcheck_fail("%s: top instruction %s listed twice", core, name);
	if (busy < (double)instrs[id].lo || busy > (double)instrs[id].hi)
		sumcheck_fail("%s: top instruction %s holds %g busy ns; its slices cover %lld to "
			      "%lld", core, name, busy, instrs[id].lo, instrs[id].hi);
	if (instrs[id].has_source != (source != NULL) ||
	    (source != NULL && strcmp(source, instrs[id].source) != 0))
		sumcheck_fail("%s: top instruction %s source %s, its slices' %s", core, name,
			      source ? source : "null",
			      instrs[id].has_source ? instrs[id].source : "none");
}

static void check_top(const char *core, const cJSON *list, double span, long long busy,
		      long long waited, long long dropped_ns)
{
	const cJSON *it;
	double prev = INFINITY, sum = 0, rel = 0;
	size_t count = 0;

	if (!cJSON_IsArray(list)) {
		sumcheck_fail("%s: critical_path has no top_instructions", core);
		return;
	}
	cJSON_ArrayForEach(it, list) {
		check_top_entry(core, it, span, dropped_ns, &prev);
		sum += sumcheck_num(it, "busy_ns");
		rel += sumcheck_num(it, "released_ns");
		count++;
	}
	if (rel > (double)waited)
		sumcheck_fail("%s: top_instructions released %g ns, the path waited %lld", core, rel,
			      waited);
	if (count > MAX_TOP)
		sumcheck_fail("%s: %zu top_instructions, at most %d", core, count, MAX_TOP);
	if (count < MAX_TOP && sum != (double)busy)
		sumcheck_fail("%s: %zu top_instructions hold %g busy ns, the busy segments %lld",
			      core, count, sum, busy);
	for (size_t i = 0; i < ninstrs; i++)
		if (!instrs[i].listed && instrs[i].lo > 0 &&
		    (count < MAX_TOP || (double)instrs[i].lo > prev))
			sumcheck_fail("%s: instruction %s holds %lld ns of the path, not in "
				      "top_instructions", core, instrs[i].name, instrs[i].lo);
}

void sumcheck_path_core(const cJSON *c, int windowed)
{
	static struct sum busy[MAX_SEGS], wait[MAX_SEGS];
	const char *core = str_of(c, "core");
	const cJSON *cp = cJSON_GetObjectItemCaseSensitive(c, "critical_path");
	double span = sumcheck_num(c, "span_ns"), nseg = sumcheck_num(cp, "segments");
	size_t nbusy = 0, nwait = 0, count = 0;
	long long cross = 0, issue = 0, total, busy_ns = 0, dropped_ns = 0;

	if (core == NULL || !cJSON_IsObject(cp)) {
		sumcheck_fail("%s: no critical_path", core ? core : "a core");
		return;
	}
	if (overflow)
		sumcheck_fail("the trace has more path segments or arrows than the recheck holds");
	for (size_t i = 0; i < ninstrs; i++)
		instrs[i].lo = instrs[i].hi = instrs[i].listed = 0;
	walk_segments(c, core, windowed, busy, &nbusy, wait, &nwait, &cross, &issue, &count,
		      &dropped_ns);
	if (count == 0 && (nseg == 0 || !sumcheck_core_in_trace(core)))
		return;   /* no path, or a core the trace shows no lane of */
	if (nseg != (double)count)
		sumcheck_fail("%s: critical_path segments %g, the lane has %zu", core, nseg, count);
	if (sumcheck_num(cp, "span_ns") != span)
		sumcheck_fail("%s: critical_path span_ns %g, the core's %g", core,
			      sumcheck_num(cp, "span_ns"), span);
	check_list(core, "busy", cJSON_GetObjectItemCaseSensitive(cp, "busy"), busy, nbusy, 0, span);
	check_list(core, "wait", cJSON_GetObjectItemCaseSensitive(cp, "wait"), wait, nwait, 1, span);
	if (sumcheck_num(cp, "cross_core_wait_ns") != (double)cross ||
	    sumcheck_num(cp, "issue_ns") != (double)issue)
		sumcheck_fail("%s: critical_path cross %g / issue %g ns, the lane's %lld / %lld",
			      core, sumcheck_num(cp, "cross_core_wait_ns"),
			      sumcheck_num(cp, "issue_ns"), cross, issue);
	for (size_t i = 0; i < nbusy; i++)
		busy_ns += busy[i].ns;
	total = cross;
	for (size_t i = 0; i < nwait; i++)
		total += wait[i].ns;
	check_top(core, cJSON_GetObjectItemCaseSensitive(cp, "top_instructions"), span, busy_ns,
		  total, dropped_ns);
	total += issue + busy_ns;
	if ((double)total != span)
		sumcheck_fail("%s: the path's parts add up to %lld, the span is %g", core, total, span);
}

/* Every lane belongs to a core of the summary. */
void sumcheck_path_done(const cJSON *jcores)
{
	for (size_t i = 0; i < nsegs; i++) {
		const cJSON *c;
		int found = 0;

		cJSON_ArrayForEach(c, jcores) {
			const char *core = str_of(c, "core");

			found |= core != NULL && strcmp(core, segs[i].pid) == 0;
		}
		if (!found) {
			sumcheck_fail("%s: a critical path lane of no core in the summary",
				      segs[i].pid);
			return;
		}
	}
}

/* A core's estimate of its span with pipe twice as fast, or its span. */
static double core_estimate(const cJSON *c, const char *pipe)
{
	const cJSON *e;

	cJSON_ArrayForEach(e, cJSON_GetObjectItemCaseSensitive(
				 cJSON_GetObjectItemCaseSensitive(c, "critical_path"), "what_if")) {
		const char *p = str_of(e, "pipe");

		if (p != NULL && strcmp(p, pipe) == 0)
			return sumcheck_num(e, "span_ns");
	}
	return sumcheck_num(c, "span_ns");
}

/*
 * The kernel's what-if (load_balance.what_if): per pipe, the largest of the
 * cores' estimates (a core's span where it lists none), the first core to
 * reach it, its change of the largest span to 4 decimals; smallest first;
 * every pipe a core lists, up to 16.
 */
void sumcheck_path_kernel(const cJSON *lb, const cJSON *jcores)
{
	const cJSON *list = cJSON_GetObjectItemCaseSensitive(lb, "what_if"), *e, *c, *w;
	double max = sumcheck_num(lb, "max_span_ns"), prev = -1;
	int n = 0, listed = 0;

	if (!cJSON_IsObject(lb))
		return;
	if (!cJSON_IsArray(list)) {
		sumcheck_fail("load_balance has no what_if list");
		return;
	}
	cJSON_ArrayForEach(e, list) {
		const char *pipe = str_of(e, "pipe"), *core = str_of(e, "core");
		double want = -1, got = sumcheck_num(e, "span_ns");
		const char *first = NULL;

		if (pipe == NULL || core == NULL) {
			sumcheck_fail("load_balance.what_if: an entry without its pipe or core");
			continue;
		}
		cJSON_ArrayForEach(c, jcores) {
			double v = core_estimate(c, pipe);

			if (v > want) {
				want = v;
				first = str_of(c, "core");
			}
		}
		if (got != want || first == NULL || strcmp(first, core) != 0)
			sumcheck_fail("load_balance.what_if %s: %g ns set by %s, the cores' largest %g "
				      "by %s", pipe, got, core, want, first ? first : "none");
		if (max > 0 && llround(sumcheck_num(e, "change") * 10000) !=
		    llround((got - max) * 10000 / max))
			sumcheck_fail("load_balance.what_if %s: change is not (%g - %g) / %g", pipe,
				      got, max, max);
		if (got < prev)
			sumcheck_fail("load_balance.what_if not smallest span first");
		prev = got;
		n++;
	}
	/* every pipe a core estimates is the kernel's, up to 16 */
	cJSON_ArrayForEach(c, jcores)
		cJSON_ArrayForEach(w, cJSON_GetObjectItemCaseSensitive(
					 cJSON_GetObjectItemCaseSensitive(c, "critical_path"), "what_if")) {
			int found = 0;

			cJSON_ArrayForEach(e, list)
				found |= str_of(e, "pipe") != NULL && str_of(w, "pipe") != NULL &&
					 strcmp(str_of(e, "pipe"), str_of(w, "pipe")) == 0;
			listed += !found;
		}
	if (listed > 0 && n < 16)
		sumcheck_fail("load_balance.what_if leaves out a pipe a core estimates");
}
