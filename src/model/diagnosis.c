/*
 * Diagnosis rules. Every share is compared in integers (x·100 against
 * pct·span) so a run exactly on a threshold gives the same answer on every
 * machine; a line fires at or past its threshold. The vector utilization
 * is a float in API_INSTR, so its cycle-weighted sum is compared in
 * doubles against pct x cycles; for whole percentages (as in the
 * fixtures) both sides are exact integers below 2^53.
 */
#include "model/diagnosis.h"

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/array_grow.h"

const struct csim_pass_def csim_pass_diagnose_def = {
	csim_pass_diagnose,
	CSIM_PART_PIPES | CSIM_PART_ARROWS | CSIM_PART_INTRA | CSIM_PART_SUMMARY,
	CSIM_PART_DIAGNOSIS
};

static const char *const rule_ids[CSIM_DIAG_RULE_COUNT] = {
	"near_empty", "degenerate_no_cube", "truncated", "transfer_bound",
	"vector_shaped_wrong", "scalar_bound", "sync_bound", "load_imbalance",
};

/* The most lines a run can give: three whole-run ones, four per core, one across. */
static size_t max_lines(const struct csim_summary *s)
{
	return 4 + 4 * s->ncores;
}

struct builder {
	struct csim_diagnosis *d;
	struct csim_diag *cur;
};

static void line_start(struct builder *b, enum csim_diag_rule rule, size_t core)
{
	b->cur = &b->d->lines[b->d->n++];
	memset(b->cur, 0, sizeof(*b->cur));
	b->cur->rule = rule;
	b->cur->core = core;
}

static void line_num(struct builder *b, const char *key, int64_t v)
{
	b->cur->nums[b->cur->nnums++] = (struct csim_diag_num){ key, 0, v };
}

static void line_pipe(struct builder *b, const char *key, uint32_t pipe)
{
	b->cur->nums[b->cur->nnums++] = (struct csim_diag_num){ key, 1, pipe };
}

/* part·100 >= pct·whole, for non-negative ns counts far below 2^56. */
static int at_least(int64_t part, int pct, int64_t whole)
{
	return part * 100 >= (int64_t)pct * whole;
}

static const char *pipe_name(const struct csim_model *m, uint32_t pipe, size_t *n)
{
	return csim_strtab_get(&m->table.pipes, pipe, n);
}

static int pipe_is(const struct csim_model *m, uint32_t pipe, const char *name)
{
	size_t n;
	const char *p = pipe_name(m, pipe, &n);

	return n == strlen(name) && memcmp(p, name, n) == 0;
}

static int is_mte(const struct csim_model *m, uint32_t pipe)
{
	size_t n;
	const char *p = pipe_name(m, pipe, &n);

	return m->pipes[pipe].info->cls == CSIM_PIPE_PIPELINE && n >= 3 &&
	       memcmp(p, "MTE", 3) == 0;
}

/* The pipes that do the arithmetic: CUBE and the vector family. */
static int is_compute(const struct csim_model *m, uint32_t pipe)
{
	return m->pipes[pipe].info->vector_family || pipe_is(m, pipe, "CUBE");
}

/* A cube core is named so by the simulator: coreN.cubecoreM. */
static int is_cube_core(const struct csim_model *m, uint32_t pid)
{
	return strstr(m->table.pid_names[pid], "cubecore") != NULL;
}

static int is_pipeline(const struct csim_model *m, uint32_t pipe)
{
	return m->pipes[pipe].info->cls == CSIM_PIPE_PIPELINE;
}

/* Pipeline instructions of core c; CUBE's alone in *cube. */
static int64_t core_instructions(const struct csim_model *m,
				 const struct csim_summary_core *c, int64_t *cube)
{
	int64_t n = 0;

	for (size_t k = 0; k < c->npipes; k++) {
		const struct csim_summary_pipe *p = &m->summary.pipes[c->pipe0 + k];

		if (is_pipeline(m, p->pipe))
			n += (int64_t)p->instructions;
		if (pipe_is(m, p->pipe, "CUBE"))
			*cube += (int64_t)p->instructions;
	}
	return n;
}

static void rule_whole_run(const struct csim_model *m, struct builder *b)
{
	const struct csim_summary *s = &m->summary;
	int64_t instr = 0, cube_instr = 0, cube_cores = 0, cube_core_instr = 0;

	/* A window holds part of the run: too few instructions or no CUBE in
	   it says nothing about the kernel's inputs. */
	if (csim_window_active(&m->cut.window))
		return;
	for (size_t i = 0; i < s->ncores; i++) {
		int64_t n = core_instructions(m, &s->cores[i], &cube_instr);

		instr += n;
		if (is_cube_core(m, s->cores[i].pid)) {
			cube_cores++;
			cube_core_instr += n;
		}
	}
	if (instr < CSIM_DIAG_NEAR_EMPTY_INSTR) {
		line_start(b, CSIM_DIAG_NEAR_EMPTY, CSIM_DIAG_ALL);
		line_num(b, "instructions", instr);
		line_num(b, "cores", (int64_t)s->ncores);
	}
	if (cube_cores > 0 && cube_instr == 0) {
		line_start(b, CSIM_DIAG_NO_CUBE, CSIM_DIAG_ALL);
		line_num(b, "cube_cores", cube_cores);
		line_num(b, "cube_core_instructions", cube_core_instr);
		line_num(b, "cube_instructions", cube_instr);
	}
}

/* The WAITs of core ci that no SET released, when the latest lasts to its end. */
static int64_t open_at_end(const struct csim_model *m, const struct csim_unreleased *per_pid,
			   size_t ci)
{
	const struct csim_summary_core *c = &m->summary.cores[ci];
	const struct csim_unreleased *u = per_pid != NULL ? &per_pid[c->pid] : NULL;

	return u != NULL && u->n > 0 && u->last_end >= c->last_ns ? (int64_t)u->n : 0;
}

/*
 * A complete run releases every WAIT it begins; the producer still writes a
 * wait it never released as a B/E pair of its own (format-notes §4.2), so a
 * core whose unreleased wait lasts to its last instruction's end was still
 * blocked when the trace stopped: the run was cut (or hung until the cut).
 */
static void rule_truncated(const struct csim_model *m, struct builder *b)
{
	const struct csim_summary *s = &m->summary;
	int64_t waits = 0, cores = 0;

	/* a window's end clips the cores, not the run's unreleased waits */
	if (csim_window_active(&m->cut.window))
		return;
	for (size_t i = 0; i < s->ncores; i++) {
		int64_t n = open_at_end(m, m->unreleased, i) +
			    open_at_end(m, m->intra_unreleased, i);

		waits += n;
		cores += n > 0;
	}
	if (cores == 0)
		return;
	line_start(b, CSIM_DIAG_TRUNCATED, CSIM_DIAG_ALL);
	line_num(b, "unreleased_waits", waits);
	line_num(b, "cores_waiting", cores);
	line_num(b, "cores", (int64_t)s->ncores);
}

/* The busiest pipe of core c that `want` accepts, first in lane order on a tie. */
static const struct csim_summary_pipe *
busiest(const struct csim_model *m, const struct csim_summary_core *c,
	int (*want)(const struct csim_model *, uint32_t))
{
	const struct csim_summary_pipe *best = NULL;

	for (size_t k = 0; k < c->npipes; k++) {
		const struct csim_summary_pipe *p = &m->summary.pipes[c->pipe0 + k];

		if (want(m, p->pipe) && (best == NULL || p->busy_ns > best->busy_ns))
			best = p;
	}
	return best;
}

static int is_vector(const struct csim_model *m, uint32_t pipe)
{
	return m->pipes[pipe].info->vector_family;
}

static int is_scalar(const struct csim_model *m, uint32_t pipe)
{
	return m->pipes[pipe].info->cls == CSIM_PIPE_SCALAR;
}

static void rule_transfer(const struct csim_model *m, struct builder *b, size_t ci)
{
	const struct csim_summary_core *c = &m->summary.cores[ci];
	int64_t span = c->last_ns - c->first_ns;
	const struct csim_summary_pipe *mte = busiest(m, c, is_mte);
	const struct csim_summary_pipe *comp = busiest(m, c, is_compute);
	int64_t comp_busy = comp != NULL ? comp->busy_ns : 0;

	if (mte == NULL || !at_least(mte->busy_ns, CSIM_DIAG_TRANSFER_MTE_PCT, span) ||
	    comp_busy * 100 > (int64_t)CSIM_DIAG_TRANSFER_COMPUTE_PCT * span)
		return;
	line_start(b, CSIM_DIAG_TRANSFER_BOUND, ci);
	line_pipe(b, "pipe", mte->pipe);
	line_num(b, "busy_ns", mte->busy_ns);
	line_num(b, "span_ns", span);
	line_pipe(b, "compute_pipe", comp != NULL ? comp->pipe : CSIM_NONE);
	line_num(b, "compute_busy_ns", comp_busy);
}

/*
 * The vector family (VECTOR; PUSHQ and RVEC* on Ascend950) as one unit:
 * the busiest of its pipes for "busy", and the utilization of all of them
 * pooled by cycles, as API_INSTR may put it on another family pipe than
 * the busiest (RVECEX executes what RVECLD feeds).
 */
static void rule_vector(const struct csim_model *m, struct builder *b, size_t ci)
{
	const struct csim_summary_core *c = &m->summary.cores[ci];
	int64_t span = c->last_ns - c->first_ns;
	const struct csim_summary_pipe *p = busiest(m, c, is_vector);
	double weighted = 0;
	uint64_t cycles = 0;

	if (p == NULL || !at_least(p->busy_ns, CSIM_DIAG_VECTOR_BUSY_PCT, span))
		return;
	for (size_t k = 0; k < c->npipes; k++) {
		const struct csim_summary_pipe *q = &m->summary.pipes[c->pipe0 + k];

		if (is_vector(m, q->pipe) && q->has_instr && q->util_cycles > 0) {
			weighted += q->util_weighted;
			cycles += q->util_cycles;
		}
	}
	if (cycles == 0 || weighted > (double)CSIM_DIAG_VECTOR_UTIL_PCT * (double)cycles)
		return;
	line_start(b, CSIM_DIAG_VECTOR_SHAPE, ci);
	line_pipe(b, "pipe", p->pipe);
	line_num(b, "busy_ns", p->busy_ns);
	line_num(b, "span_ns", span);
	/* hundredths of a percent, rounded half up; weighted >= 0 here */
	line_num(b, "utilization_x100", (int64_t)(weighted * 100.0 / (double)cycles + 0.5));
	line_num(b, "utilization_cycles", cycles > INT64_MAX ? INT64_MAX : (int64_t)cycles);
}

static void rule_scalar(const struct csim_model *m, struct builder *b, size_t ci)
{
	const struct csim_summary_core *c = &m->summary.cores[ci];
	int64_t span = c->last_ns - c->first_ns;
	const struct csim_summary_pipe *p = busiest(m, c, is_scalar);

	if (p == NULL || !at_least(p->busy_ns, CSIM_DIAG_SCALAR_PCT, span))
		return;
	line_start(b, CSIM_DIAG_SCALAR_BOUND, ci);
	line_pipe(b, "pipe", p->pipe);
	line_num(b, "busy_ns", p->busy_ns);
	line_num(b, "span_ns", span);
}

static void rule_sync(const struct csim_model *m, struct builder *b, size_t ci)
{
	const struct csim_summary *s = &m->summary;
	const struct csim_summary_core *c = &s->cores[ci];
	int64_t span = c->last_ns - c->first_ns;
	const struct csim_summary_pipe *p = NULL;
	const struct csim_summary_wait *by = NULL;

	for (size_t k = 0; k < c->npipes; k++) {
		const struct csim_summary_pipe *q = &s->pipes[c->pipe0 + k];

		if (p == NULL || q->wait_ns > p->wait_ns)
			p = q;
	}
	if (p == NULL || !at_least(p->wait_ns, CSIM_DIAG_SYNC_PCT, span))
		return;
	for (size_t k = 0; k < p->nwaits; k++)
		if (by == NULL || s->waits[p->wait0 + k].ns > by->ns)
			by = &s->waits[p->wait0 + k];
	line_start(b, CSIM_DIAG_SYNC_BOUND, ci);
	line_pipe(b, "pipe", p->pipe);
	line_num(b, "wait_flag_ns", p->wait_ns);
	line_num(b, "span_ns", span);
	line_pipe(b, "producer", by != NULL ? by->producer : CSIM_NONE);
	line_num(b, "producer_ns", by != NULL ? by->ns : 0);
}

static void rule_imbalance(const struct csim_model *m, struct builder *b)
{
	const struct csim_summary *s = &m->summary;

	if (s->ncores < 2 || s->max_span_ns <= s->median_span_ns ||
	    !at_least(s->max_span_ns, CSIM_DIAG_IMBALANCE_PCT, s->median_span_ns))
		return;
	line_start(b, CSIM_DIAG_LOAD_IMBALANCE, s->slowest);
	line_num(b, "max_span_ns", s->max_span_ns);
	line_num(b, "median_span_ns", s->median_span_ns);
	line_num(b, "min_span_ns", s->min_span_ns);
	line_num(b, "cores", (int64_t)s->ncores);
}

void csim_diagnosis_release(struct csim_diagnosis *d)
{
	free(d->lines);
	memset(d, 0, sizeof(*d));
}

int csim_pass_diagnose(struct csim_model *m, struct csim_error *err)
{
	const struct csim_summary *s = &m->summary;
	struct builder b = { &m->diagnosis, NULL };
	void (*const per_core[])(const struct csim_model *, struct builder *, size_t) = {
		rule_transfer, rule_vector, rule_scalar, rule_sync,
	};

	csim_diagnosis_release(&m->diagnosis);
	m->diagnosis.lines = malloc(max_lines(s) * sizeof(*m->diagnosis.lines));
	if (m->diagnosis.lines == NULL)
		return csim_error_nomem(err, CSIM_E_INPUT);
	rule_whole_run(m, &b);
	rule_truncated(m, &b);
	/* Rule order first, so that lines of one rule sit together. */
	for (size_t r = 0; r < sizeof(per_core) / sizeof(per_core[0]); r++)
		for (size_t i = 0; i < s->ncores; i++)
			if (s->cores[i].last_ns > s->cores[i].first_ns)
				per_core[r](m, &b, i);
	rule_imbalance(m, &b);
	return CSIM_OK;
}

const char *csim_diag_id(enum csim_diag_rule rule)
{
	return rule < CSIM_DIAG_RULE_COUNT ? rule_ids[rule] : "unknown";
}

int64_t csim_diag_num(const struct csim_diag *d, const char *key)
{
	for (size_t k = 0; k < d->nnums; k++)
		if (strcmp(d->nums[k].key, key) == 0)
			return d->nums[k].v;
	return 0;
}

/*
 * The most bytes of a pipe name a text quotes: with the fixed wording, every
 * text then fits in CSIM_DIAG_TEXT_MAX. Core names are not quoted at all
 * (the line's core says which), as they have no bound.
 */
#define DIAG_NAME_MAX 64

/* part/whole in whole percent, rounded half up; 0 when whole is 0. */
static int64_t pct(int64_t part, int64_t whole)
{
	return whole > 0 ? (part * 100 + whole / 2) / whole : 0;
}

/* A pipe number of a line as text: its name, or `none`. */
static void pipe_text(const struct csim_model *m, const struct csim_diag *d,
		      const char *key, const char *none, char *buf, size_t cap)
{
	int64_t v = csim_diag_num(d, key);
	size_t n;
	const char *name;

	if (v < 0 || v == (int64_t)CSIM_NONE) {
		snprintf(buf, cap, "%s", none);
		return;
	}
	name = pipe_name(m, (uint32_t)v, &n);
	/* A name from the input can be long: cut it, but not inside a UTF-8 sequence. */
	if (n > DIAG_NAME_MAX) {
		n = DIAG_NAME_MAX;
		while (n > 0 && ((unsigned char)name[n] & 0xC0) == 0x80)
			n--;
	}
	snprintf(buf, cap, "%.*s", (int)n, name);
}

static const char *plural(int64_t n)
{
	return n == 1 ? "" : "s";
}

size_t csim_diag_text(const struct csim_model *m, const struct csim_diag *d,
		      char *buf, size_t cap)
{
	char p1[80], p2[96];
	int64_t span = csim_diag_num(d, "span_ns");
	int n = 0;

	switch (d->rule) {
	case CSIM_DIAG_NEAR_EMPTY:
		n = snprintf(buf, cap, "possibly a near-empty trace: %" PRId64
			     " instruction%s on the pipeline lanes over %" PRId64 " core%s; "
			     "if the kernel's work depends on its inputs (a trip count or "
			     "work-table size read from a tensor), it likely ran on zeroed "
			     "inputs: profile it with real inputs",
			     csim_diag_num(d, "instructions"), plural(csim_diag_num(d, "instructions")),
			     csim_diag_num(d, "cores"), plural(csim_diag_num(d, "cores")));
		break;
	case CSIM_DIAG_NO_CUBE:
		n = snprintf(buf, cap, "likely a degenerate trace: a matmul kernel with "
			     "CUBE = 0 (%" PRId64 " cube core%s ran %" PRId64 " pipeline "
			     "instruction%s, none on CUBE); a matmul that did no matmul "
			     "is a profiling artifact, not a free matmul: check the inputs "
			     "and shapes the simulator ran with",
			     csim_diag_num(d, "cube_cores"), plural(csim_diag_num(d, "cube_cores")),
			     csim_diag_num(d, "cube_core_instructions"),
			     plural(csim_diag_num(d, "cube_core_instructions")));
		break;
	case CSIM_DIAG_TRUNCATED:
		n = snprintf(buf, cap, "possibly truncated by the simulator's timeout: %"
			     PRId64 " wait%s never released by a SET on %" PRId64
			     " of %" PRId64 " core%s, the latest still open when its core's "
			     "last instruction ends (a complete run releases every wait); "
			     "re-run with a longer --timeout: if it stops in the same wait "
			     "again, the kernel hangs on that flag",
			     csim_diag_num(d, "unreleased_waits"),
			     plural(csim_diag_num(d, "unreleased_waits")),
			     csim_diag_num(d, "cores_waiting"), csim_diag_num(d, "cores"),
			     plural(csim_diag_num(d, "cores")));
		break;
	case CSIM_DIAG_TRANSFER_BOUND:
		pipe_text(m, d, "pipe", "?", p1, sizeof(p1));
		pipe_text(m, d, "compute_pipe", "", p2, sizeof(p2));
		if (p2[0] != '\0')
			snprintf(p2 + strlen(p2), sizeof(p2) - strlen(p2), " %" PRId64 " %%",
				 pct(csim_diag_num(d, "compute_busy_ns"), span));
		n = snprintf(buf, cap, "likely transfer-bound: %s busy %" PRId64
			     " %% of the span, %s; try double buffering",
			     p1, pct(csim_diag_num(d, "busy_ns"), span),
			     p2[0] != '\0' ? p2 : "no compute pipe ran");
		break;
	case CSIM_DIAG_VECTOR_SHAPE:
		pipe_text(m, d, "pipe", "?", p1, sizeof(p1));
		n = snprintf(buf, cap, "likely shaped wrong for the vector unit: %s busy %"
			     PRId64 " %% of the span at %" PRId64 " %% mean vector utilization "
			     "(API_INSTR, cycle-weighted); tune the tile shape so that each "
			     "vector instruction fills its repeat and mask",
			     p1, pct(csim_diag_num(d, "busy_ns"), span),
			     (csim_diag_num(d, "utilization_x100") + 50) / 100);
		break;
	case CSIM_DIAG_SCALAR_BOUND:
		pipe_text(m, d, "pipe", "?", p1, sizeof(p1));
		n = snprintf(buf, cap, "likely scalar-bound: %s busy %" PRId64
			     " %% of the span; move address and loop arithmetic out of "
			     "the inner loops (--keep-scalar shows the lane)",
			     p1, pct(csim_diag_num(d, "busy_ns"), span));
		break;
	case CSIM_DIAG_SYNC_BOUND:
		pipe_text(m, d, "pipe", "?", p1, sizeof(p1));
		pipe_text(m, d, "producer", "an unnamed pipe", p2, sizeof(p2));
		n = snprintf(buf, cap, "likely sync-bound: %s blocked in WAIT_FLAG %"
			     PRId64 " ns, %" PRId64 " %% of the %" PRId64 " ns span, most on %s (%"
			     PRId64 " %%); see what "
			     "%s does before its SET_FLAG: double buffering lets it run ahead",
			     p1, csim_diag_num(d, "wait_flag_ns"),
			     pct(csim_diag_num(d, "wait_flag_ns"), span), span, p2, pct(csim_diag_num(d, "producer_ns"), span), p2);
		break;
	case CSIM_DIAG_LOAD_IMBALANCE:
		n = snprintf(buf, cap, "likely load imbalance: the slowest core spans %"
			     PRId64 " ns, %" PRId64 " %% of the median %" PRId64 " ns over %"
			     PRId64 " cores; check how the tiling splits the work across blocks",
			     csim_diag_num(d, "max_span_ns"),
			     pct(csim_diag_num(d, "max_span_ns"), csim_diag_num(d, "median_span_ns")),
			     csim_diag_num(d, "median_span_ns"), csim_diag_num(d, "cores"));
		break;
	default:
		n = snprintf(buf, cap, "unknown rule");
		break;
	}
	return n > 0 ? (size_t)n : 0;
}
