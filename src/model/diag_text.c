/*
 * Wording. A figure is shown per core as a whole percent (rounded half up)
 * or in ns, and across the line's cores as its range: "88-93", or one
 * value when every core has the same. A pipe named differently on some
 * cores shows as "MTE2/MTE3" (two names at most, then "/...").
 */
#include "model/diag_text.h"

#include <inttypes.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "model/diagnosis.h"

/* The most bytes of a name (pipe or core, from the input) a text quotes. */
#define DIAG_NAME_MAX 64

/* A share's denominator is not a figure of the entry but a number given. */
#define NO_DEN CSIM_DIAG_FIG_COUNT

/* The text so far: len is what it needs, even past cap. */
struct text {
	char *buf;
	size_t cap, len;
};

static void put(struct text *t, const char *fmt, ...)
{
	va_list ap;
	int n;

	va_start(ap, fmt);
	if (t->len < t->cap)
		n = vsnprintf(t->buf + t->len, t->cap - t->len, fmt, ap);
	else
		n = vsnprintf(NULL, 0, fmt, ap);
	va_end(ap);
	if (n > 0)
		t->len += (size_t)n;
}

/* A name from the input can be long: cut it, but not inside a UTF-8 sequence. */
static void put_name(struct text *t, const char *name, size_t n)
{
	if (n > DIAG_NAME_MAX) {
		n = DIAG_NAME_MAX;
		while (n > 0 && ((unsigned char)name[n] & 0xC0) == 0x80)
			n--;
	}
	put(t, "%.*s", (int)n, name);
}

static void put_pipe(struct text *t, const struct csim_model *m, uint32_t pipe)
{
	size_t n;
	const char *name = csim_strtab_get(&m->table.pipes, pipe, &n);

	put_name(t, name, n);
}

static const char *pid_name(const struct csim_model *m, size_t core)
{
	return m->table.pid_names[m->summary.cores[core].pid];
}

static const struct csim_diag_at *entry(const struct csim_model *m, const struct csim_diag *d,
					size_t k)
{
	return &m->diagnosis.at[d->at0 + k];
}

/* part/whole in whole percent, rounded half up; 0 when whole is 0. */
static int64_t pct(int64_t part, int64_t whole)
{
	return whole > 0 ? (part * 100 + whole / 2) / whole : 0;
}

static const char *plural(int64_t n)
{
	return n == 1 ? "" : "s";
}

/* The simulator's kind of a core, from its pid: cube, vector, or neither (""). */
static const char *kind_of(const char *pid)
{
	if (strstr(pid, "cubecore") != NULL)
		return "cube ";
	return strstr(pid, "veccore") != NULL ? "vector " : "";
}

/* " on core0.veccore0", or " on 3 of 8 cube cores" (of the run's cores of that kind). */
static void put_where(struct text *t, const struct csim_model *m, const struct csim_diag *d)
{
	const char *kind;
	size_t total = 0;

	if (d->nat == 0)
		return;
	if (d->nat == 1) {
		put(t, " on ");
		put_name(t, pid_name(m, entry(m, d, 0)->core), strlen(pid_name(m, entry(m, d, 0)->core)));
		return;
	}
	kind = kind_of(pid_name(m, entry(m, d, 0)->core));
	for (size_t k = 1; k < d->nat; k++)
		if (strcmp(kind_of(pid_name(m, entry(m, d, k)->core)), kind) != 0)
			kind = "";
	for (size_t i = 0; i < m->summary.ncores; i++)
		total += kind[0] == '\0' || strcmp(kind_of(pid_name(m, i)), kind) == 0;
	put(t, " on %zu of %zu %scores", d->nat, total, kind);
}

static void put_range(struct text *t, int64_t lo, int64_t hi)
{
	if (lo == hi)
		put(t, "%" PRId64, lo);
	else
		put(t, "%" PRId64 "-%" PRId64, lo, hi);
}

/*
 * The range of fig over the entries that have it, as a whole percent of
 * their den_fig (NO_DEN: of den); returns how many entries have it.
 */
static size_t put_share(struct text *t, const struct csim_model *m, const struct csim_diag *d,
			enum csim_diag_fig fig, enum csim_diag_fig den_fig, int64_t den)
{
	int64_t lo = 0, hi = 0;
	size_t n = 0;

	for (size_t k = 0; k < d->nat; k++) {
		const struct csim_diag_at *at = entry(m, d, k);
		int64_t v;

		if (!csim_diag_at_has(at, fig))
			continue;
		v = pct(csim_diag_at_num(at, fig), den_fig != NO_DEN ? csim_diag_at_num(at, den_fig) : den);
		lo = n == 0 || v < lo ? v : lo;
		hi = n == 0 || v > hi ? v : hi;
		n++;
	}
	put_range(t, lo, hi);
	return n;
}

/* The range of fig in ns (or its own unit) over the entries. */
static void put_ns(struct text *t, const struct csim_model *m, const struct csim_diag *d,
		   enum csim_diag_fig fig)
{
	int64_t lo = 0, hi = 0;

	for (size_t k = 0; k < d->nat; k++) {
		int64_t v = csim_diag_at_num(entry(m, d, k), fig);

		lo = k == 0 || v < lo ? v : lo;
		hi = k == 0 || v > hi ? v : hi;
	}
	put_range(t, lo, hi);
}

/* The pipes fig names over the entries, "A", "A/B" or "A/B/..."; `none` when none does. */
static void put_pipes(struct text *t, const struct csim_model *m, const struct csim_diag *d,
		      enum csim_diag_fig fig, const char *none)
{
	uint32_t seen[2];
	size_t n = 0;
	int more = 0;

	for (size_t k = 0; k < d->nat; k++) {
		const struct csim_diag_at *at = entry(m, d, k);
		int64_t v = csim_diag_at_num(at, fig);

		if (!csim_diag_at_has(at, fig) || v < 0 || v == (int64_t)CSIM_NONE ||
		    (n > 0 && seen[0] == (uint32_t)v) || (n > 1 && seen[1] == (uint32_t)v))
			continue;
		if (n < 2)
			seen[n++] = (uint32_t)v;
		else
			more = 1;
	}
	if (n == 0)
		put(t, "%s", none);
	for (size_t i = 0; i < n; i++) {
		if (i > 0)
			put(t, "/");
		put_pipe(t, m, seen[i]);
	}
	if (more)
		put(t, "/...");
}

/* Entries whose `fig` pipe is of the scalar class. */
static size_t count_scalar(const struct csim_model *m, const struct csim_diag *d,
			   enum csim_diag_fig fig)
{
	size_t n = 0;

	for (size_t k = 0; k < d->nat; k++) {
		int64_t v = csim_diag_at_num(entry(m, d, k), fig);

		n += v >= 0 && v != (int64_t)CSIM_NONE &&
		     m->pipes[v].info->cls == CSIM_PIPE_SCALAR;
	}
	return n;
}

/* The sync_bound waits a cause of the same core starved, folded into its line. */
static void put_starved(struct text *t, const struct csim_model *m, const struct csim_diag *d)
{
	struct text probe = { NULL, 0, 0 };
	size_t n;

	n = put_share(&probe, m, d, CSIM_DIAG_FIG_STARVED_WAIT_NS, CSIM_DIAG_FIG_SPAN_NS, 0);
	if (n == 0)
		return;
	put(t, ", ");
	put_pipes(t, m, d, CSIM_DIAG_FIG_STARVED_PIPE, "");
	put(t, " waiting on it ");
	put_share(t, m, d, CSIM_DIAG_FIG_STARVED_WAIT_NS, CSIM_DIAG_FIG_SPAN_NS, 0);
	put(t, " %% of the span");
	if (n < d->nat)
		put(t, " on %zu of them", n);
}

/*
 * "<before>45 % of the critical path<after>" (the range over the entries)
 * when the entries have a path (diag_path.h), else `otherwise`: the share of
 * the path a cause holds comes first, as it is what ranks the line.
 */
static void put_path(struct text *t, const struct csim_model *m, const struct csim_diag *d,
		     const char *before, const char *after, const char *otherwise)
{
	struct text probe = { NULL, 0, 0 };

	if (put_share(&probe, m, d, CSIM_DIAG_FIG_PATH_NS, CSIM_DIAG_FIG_SPAN_NS, 0) == 0) {
		put(t, "%s", otherwise);
		return;
	}
	put(t, "%s", before);
	put_share(t, m, d, CSIM_DIAG_FIG_PATH_NS, CSIM_DIAG_FIG_SPAN_NS, 0);
	put(t, " %% of the critical path%s", after);
}

static void text_transfer(struct text *t, const struct csim_model *m, const struct csim_diag *d)
{
	struct text probe = { NULL, 0, 0 };

	put(t, "likely transfer-bound");
	put_where(t, m, d);
	put(t, ": ");
	put_pipes(t, m, d, CSIM_DIAG_FIG_PIPE, "?");
	put_path(t, m, d, " holds ", ", busy ", " busy ");
	put_share(t, m, d, CSIM_DIAG_FIG_BUSY_NS, CSIM_DIAG_FIG_SPAN_NS, 0);
	put(t, " %% of the span, ");
	put_pipes(&probe, m, d, CSIM_DIAG_FIG_COMPUTE_PIPE, "");
	if (probe.len == 0) {
		put(t, "no compute pipe ran");
	} else {
		put_pipes(t, m, d, CSIM_DIAG_FIG_COMPUTE_PIPE, "");
		put(t, " ");
		put_share(t, m, d, CSIM_DIAG_FIG_COMPUTE_BUSY_NS, CSIM_DIAG_FIG_SPAN_NS, 0);
		put(t, " %%");
	}
	put_starved(t, m, d);
	put(t, "; try double buffering");
}

/* What holds the critical path where the core's other lines name less of it. */
static void text_path(struct text *t, const struct csim_model *m, const struct csim_diag *d)
{
	put(t, "likely held by ");
	put_pipes(t, m, d, CSIM_DIAG_FIG_PIPE, "?");
	put(t, " along the critical path");
	put_where(t, m, d);
	put(t, ": it holds ");
	put_share(t, m, d, CSIM_DIAG_FIG_PATH_NS, CSIM_DIAG_FIG_SPAN_NS, 0);
	put(t, " %% of the critical path, busy ");
	put_share(t, m, d, CSIM_DIAG_FIG_BUSY_NS, CSIM_DIAG_FIG_SPAN_NS, 0);
	put(t, " %% of the span; shortening its instructions on the path shortens the "
	       "core (see the path's top instructions and the what-if)");
}

static void text_vector(struct text *t, const struct csim_model *m, const struct csim_diag *d)
{
	int64_t lo = 0, hi = 0;

	for (size_t k = 0; k < d->nat; k++) {
		int64_t u = (csim_diag_at_num(entry(m, d, k), CSIM_DIAG_FIG_UTILIZATION_X100) + 50) / 100;

		lo = k == 0 || u < lo ? u : lo;
		hi = k == 0 || u > hi ? u : hi;
	}
	put(t, "likely shaped wrong for the vector unit");
	put_where(t, m, d);
	put(t, ": ");
	put_pipes(t, m, d, CSIM_DIAG_FIG_PIPE, "?");
	put_path(t, m, d, " holds ", ", busy ", " busy ");
	put_share(t, m, d, CSIM_DIAG_FIG_BUSY_NS, CSIM_DIAG_FIG_SPAN_NS, 0);
	put(t, " %% of the span at ");
	put_range(t, lo, hi);
	put(t, " %% mean vector utilization (API_INSTR, cycle-weighted)");
	put_starved(t, m, d);
	put(t, "; tune the tile shape so that each vector instruction fills its repeat and mask");
}

static void text_scalar(struct text *t, const struct csim_model *m, const struct csim_diag *d)
{
	put(t, "likely scalar-bound");
	put_where(t, m, d);
	put(t, ": ");
	put_pipes(t, m, d, CSIM_DIAG_FIG_PIPE, "?");
	put_path(t, m, d, " and the issue gaps hold ", ", ", " ");
	put(t, "busy ");
	put_share(t, m, d, CSIM_DIAG_FIG_BUSY_NS, CSIM_DIAG_FIG_SPAN_NS, 0);
	put(t, " %% of the span");
	put_starved(t, m, d);
	put(t, "; move address and loop arithmetic out of the inner loops "
	    "(--keep-scalar shows the lane)");
}

/*
 * A scalar unit blocked in WAIT_FLAG waits for a result it reads (a
 * GetValue, a read-back inside the loop): nothing runs ahead of it, so the
 * fix is moving or batching the read, not double buffering.
 */
static void text_sync(struct text *t, const struct csim_model *m, const struct csim_diag *d)
{
	const size_t scalar = count_scalar(m, d, CSIM_DIAG_FIG_PIPE);

	put(t, "likely sync-bound");
	put_where(t, m, d);
	put(t, ": ");
	put_pipes(t, m, d, CSIM_DIAG_FIG_PIPE, "?");
	put(t, " blocked in WAIT_FLAG ");
	put_ns(t, m, d, CSIM_DIAG_FIG_WAIT_FLAG_NS);
	put(t, " ns, ");
	put_share(t, m, d, CSIM_DIAG_FIG_WAIT_FLAG_NS, CSIM_DIAG_FIG_SPAN_NS, 0);
	put(t, " %% of the ");
	put_ns(t, m, d, CSIM_DIAG_FIG_SPAN_NS);
	put(t, " ns span, most on ");
	put_pipes(t, m, d, CSIM_DIAG_FIG_PRODUCER, "an unnamed pipe");
	put(t, " (");
	put_share(t, m, d, CSIM_DIAG_FIG_PRODUCER_NS, CSIM_DIAG_FIG_SPAN_NS, 0);
	put(t, " %%)");
	put_path(t, m, d, ", its flag waits ", "", "");
	if (scalar == d->nat) {
		put(t, ": likely a scalar read of its result inside the loop (GetValue, a "
		    "read-back); hoist the read out of the loop or batch it (no pipe runs "
		    "ahead while the scalar unit waits, so double buffering does not help)");
	} else if (scalar == 0) {
		put(t, "; see what ");
		put_pipes(t, m, d, CSIM_DIAG_FIG_PRODUCER, "the producer");
		put(t, " does before its SET_FLAG: double buffering lets it run ahead");
	} else {
		put(t, "; where the scalar unit waits, hoist the read of the result out of "
		    "the loop or batch it; elsewhere see what the producer does before its "
		    "SET_FLAG: double buffering lets it run ahead");
	}
}

/* "FIXP of core0.cubecore0", "FIXP of 8 cube cores", or "another core". */
static void put_partner(struct text *t, const struct csim_model *m, const struct csim_diag *d)
{
	uint32_t first = CSIM_NONE;
	size_t distinct = 0;
	const char *kind = NULL;

	for (size_t k = 0; k < d->nat; k++) {
		int64_t v = csim_diag_at_num(entry(m, d, k), CSIM_DIAG_FIG_PARTNER_CORE);
		int again = 0;

		if (v < 0 || v == (int64_t)CSIM_NONE)
			continue;
		for (size_t j = 0; j < k && !again; j++)
			again = csim_diag_at_num(entry(m, d, j), CSIM_DIAG_FIG_PARTNER_CORE) == v;
		if (again)
			continue;
		if (distinct++ == 0) {
			first = (uint32_t)v;
			kind = kind_of(m->table.pid_names[first]);
		} else if (strcmp(kind, kind_of(m->table.pid_names[v])) != 0) {
			kind = "";
		}
	}
	if (distinct == 0) {
		put(t, "another core (the trace names no partner)");
		return;
	}
	put_pipes(t, m, d, CSIM_DIAG_FIG_PARTNER_PIPE, "?");
	put(t, " of ");
	if (distinct == 1)
		put_name(t, m->table.pid_names[first], strlen(m->table.pid_names[first]));
	else
		put(t, "%zu %scores", distinct, kind);
}

static void text_cross(struct text *t, const struct csim_model *m, const struct csim_diag *d)
{
	put(t, "likely waiting across cores");
	put_where(t, m, d);
	put(t, ": in cross-core WAIT ");
	put_ns(t, m, d, CSIM_DIAG_FIG_CROSS_CORE_WAIT_NS);
	put(t, " ns, ");
	put_share(t, m, d, CSIM_DIAG_FIG_CROSS_CORE_WAIT_NS, CSIM_DIAG_FIG_SPAN_NS, 0);
	put(t, " %% of the ");
	put_ns(t, m, d, CSIM_DIAG_FIG_SPAN_NS);
	put(t, " ns span");
	put_path(t, m, d, " (", ")", "");
	put(t, ", most set by ");
	put_partner(t, m, d);
	put(t, "; the other side of the hand-over is the longer stage: see what it does "
	    "before its SET, then balance the work between the cores or give the "
	    "hand-over more buffers so that it runs ahead");
}

static void text_imbalance(struct text *t, const struct csim_model *m, const struct csim_diag *d)
{
	const int64_t median = csim_diag_num(d, CSIM_DIAG_FIG_MEDIAN_SPAN_NS);

	put(t, "likely load imbalance");
	put_where(t, m, d);
	put(t, ": span%s ", d->nat == 1 ? "" : "s");
	put_ns(t, m, d, CSIM_DIAG_FIG_SPAN_NS);
	put(t, " ns, ");
	put_share(t, m, d, CSIM_DIAG_FIG_SPAN_NS, NO_DEN, median);
	put(t, " %% of the median %" PRId64 " ns over %" PRId64 " cores; check how the "
	    "tiling splits the work across blocks", median,
	    csim_diag_num(d, CSIM_DIAG_FIG_CORES));
}

static void text_near_empty(struct text *t, const struct csim_diag *d)
{
	const int64_t instr = csim_diag_num(d, CSIM_DIAG_FIG_INSTRUCTIONS);
	const int64_t cores = csim_diag_num(d, CSIM_DIAG_FIG_CORES);

	put(t, "possibly a near-empty trace: %" PRId64 " instruction%s on the pipeline "
	    "lanes over %" PRId64 " core%s; if the kernel's work depends on its inputs (a "
	    "trip count or work-table size read from a tensor), it likely ran on zeroed "
	    "inputs: profile it with real inputs",
	    instr, plural(instr), cores, plural(cores));
}

static void text_no_cube(struct text *t, const struct csim_diag *d)
{
	const int64_t cores = csim_diag_num(d, CSIM_DIAG_FIG_CUBE_CORES);
	const int64_t instr = csim_diag_num(d, CSIM_DIAG_FIG_CUBE_CORE_INSTRUCTIONS);

	put(t, "likely a degenerate trace: a matmul kernel with CUBE = 0 (%" PRId64
	    " cube core%s ran %" PRId64 " pipeline instruction%s, %s); a matmul that did no "
	    "matmul is a profiling artifact, not a free matmul: check the inputs and "
	    "shapes the simulator ran with",
	    cores, plural(cores), instr, plural(instr),
	    csim_diag_has(d, CSIM_DIAG_FIG_CUBE_CYCLES) ? "0 CUBE cycles in API_INSTR"
							: "none on CUBE");
}

static void text_truncated(struct text *t, const struct csim_diag *d)
{
	const int64_t waits = csim_diag_num(d, CSIM_DIAG_FIG_UNRELEASED_WAITS);
	const int64_t cores = csim_diag_num(d, CSIM_DIAG_FIG_CORES);

	put(t, "possibly truncated by the simulator's timeout: %" PRId64 " wait%s never "
	    "released by a SET on %" PRId64 " of %" PRId64 " core%s, the latest still open "
	    "when its core's last instruction ends (a complete run releases every wait); "
	    "re-run with a longer --timeout: if it stops in the same wait again, the "
	    "kernel hangs on that flag",
	    waits, plural(waits), csim_diag_num(d, CSIM_DIAG_FIG_CORES_WAITING), cores,
	    plural(cores));
}

size_t csim_diag_text(const struct csim_model *m, const struct csim_diag *d,
		      char *buf, size_t cap)
{
	struct text t = { buf, cap, 0 };

	if (cap > 0)
		buf[0] = '\0';
	switch (d->rule) {
	case CSIM_DIAG_NEAR_EMPTY: text_near_empty(&t, d); break;
	case CSIM_DIAG_NO_CUBE: text_no_cube(&t, d); break;
	case CSIM_DIAG_TRUNCATED: text_truncated(&t, d); break;
	case CSIM_DIAG_TRANSFER_BOUND: text_transfer(&t, m, d); break;
	case CSIM_DIAG_VECTOR_SHAPE: text_vector(&t, m, d); break;
	case CSIM_DIAG_SCALAR_BOUND: text_scalar(&t, m, d); break;
	case CSIM_DIAG_SYNC_BOUND: text_sync(&t, m, d); break;
	case CSIM_DIAG_PATH_BOUND: text_path(&t, m, d); break;
	case CSIM_DIAG_CROSS_CORE: text_cross(&t, m, d); break;
	case CSIM_DIAG_LOAD_IMBALANCE: text_imbalance(&t, m, d); break;
	default: put(&t, "unknown rule"); break;
	}
	return t.len;
}
