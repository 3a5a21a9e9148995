/*
 * Diagnosis rules. Every share is compared in integers (x·100 against
 * pct·span) so a run exactly on a threshold gives the same answer on every
 * machine; a line fires at or past its threshold. The vector utilization
 * is a float in API_INSTR, so its cycle-weighted sum is compared in
 * doubles against pct x cycles; for whole percentages (as in the
 * fixtures) both sides are exact integers below 2^53.
 */
#include "model/diag_rules.h"

#include <string.h>

#include "model/diag_path.h"


/* part·100 >= pct·whole, for non-negative ns counts far below 2^56. */
static int at_least(int64_t part, int pct, int64_t whole)
{
	return part * 100 >= (int64_t)pct * whole;
}

static int pipe_is(const struct csim_model *m, uint32_t pipe, const char *name)
{
	size_t n;
	const char *p = csim_strtab_get(&m->table.pipes, pipe, &n);

	return n == strlen(name) && memcmp(p, name, n) == 0;
}

static int is_pipeline(const struct csim_model *m, uint32_t pipe)
{
	return m->pipes[pipe].info->cls == CSIM_PIPE_PIPELINE;
}

static int is_mte(const struct csim_model *m, uint32_t pipe)
{
	size_t n;
	const char *p = csim_strtab_get(&m->table.pipes, pipe, &n);

	return is_pipeline(m, pipe) && n >= 3 && memcmp(p, "MTE", 3) == 0;
}

static int is_vector(const struct csim_model *m, uint32_t pipe)
{
	return m->pipes[pipe].info->vector_family;
}

/* The pipes that do the arithmetic: CUBE and the vector family. */
static int is_compute(const struct csim_model *m, uint32_t pipe)
{
	return is_vector(m, pipe) || pipe_is(m, pipe, "CUBE");
}

static int is_scalar(const struct csim_model *m, uint32_t pipe)
{
	return m->pipes[pipe].info->cls == CSIM_PIPE_SCALAR;
}

static int64_t span_of(const struct csim_summary_core *c)
{
	return c->last_ns - c->first_ns;
}

static const struct csim_summary_pipe *pipe_at(const struct csim_model *m,
					       const struct csim_summary_core *c, size_t k)
{
	return &m->summary.pipes[c->pipe0 + k];
}

/* Pipeline instructions of core c; CUBE's alone added to *cube. */
static int64_t core_instructions(const struct csim_model *m,
				 const struct csim_summary_core *c, int64_t *cube)
{
	int64_t n = 0;

	for (size_t k = 0; k < c->npipes; k++) {
		const struct csim_summary_pipe *p = pipe_at(m, c, k);

		if (is_pipeline(m, p->pipe))
			n += (int64_t)p->instructions;
		if (pipe_is(m, p->pipe, "CUBE"))
			*cube += (int64_t)p->instructions;
	}
	return n;
}

/* API_INSTR Cycles of core c's CUBE pipe into *cycles; whether API_INSTR names the core. */
static int core_cube_cycles(const struct csim_model *m, const struct csim_summary_core *c,
			    uint64_t *cycles)
{
	int named = 0;

	for (size_t k = 0; k < c->npipes; k++) {
		const struct csim_summary_pipe *p = pipe_at(m, c, k);

		named |= p->has_instr;
		if (p->has_instr && pipe_is(m, p->pipe, "CUBE"))
			*cycles += p->instr_cycles;
	}
	return named;
}

static int rule_near_empty(const struct csim_model *m, struct csim_diag_build *b)
{
	const struct csim_summary *s = &m->summary;
	int64_t instr = 0, cube = 0;

	for (size_t i = 0; i < s->ncores; i++)
		instr += core_instructions(m, &s->cores[i], &cube);
	if (instr >= CSIM_DIAG_NEAR_EMPTY_INSTR)
		return 0;
	csim_diag_build_line(b, CSIM_DIAG_NEAR_EMPTY, CSIM_DIAG_ALL);
	csim_diag_build_int(b, CSIM_DIAG_FIG_INSTRUCTIONS, instr);
	csim_diag_build_int(b, CSIM_DIAG_FIG_CORES, (int64_t)s->ncores);
	for (size_t i = 0; i < s->ncores; i++)
		csim_diag_build_core(b, i);
	csim_diag_build_end(b, 1);
	return 1;
}

/* A cube core is named so by the simulator: coreN.cubecoreM. */
static int is_cube_core(const struct csim_model *m, const struct csim_summary_core *c)
{
	return strstr(m->table.pid_names[c->pid], "cubecore") != NULL;
}

/*
 * CUBE = 0 on a kernel with cube cores: judged on API_INSTR's CUBE Cycles
 * over the cube cores when API_INSTR names them (the slices can show an
 * MMAD whose rows ran no cycle, and the cycles are what the user sums),
 * else on the trace's CUBE instructions. `emit` 0: judge only.
 */
static int rule_no_cube(const struct csim_model *m, struct csim_diag_build *b, int emit)
{
	const struct csim_summary *s = &m->summary;
	int64_t cube_instr = 0, cube_cores = 0, cube_core_instr = 0;
	uint64_t cycles = 0;
	int named = 0;

	for (size_t i = 0; i < s->ncores; i++) {
		int64_t n = core_instructions(m, &s->cores[i], &cube_instr);

		if (is_cube_core(m, &s->cores[i])) {
			cube_cores++;
			cube_core_instr += n;
			named |= core_cube_cycles(m, &s->cores[i], &cycles);
		}
	}
	named &= m->instr.loaded;
	if (cube_cores == 0 || (named ? cycles != 0 : cube_instr != 0))
		return 0;
	if (!emit)
		return 1;
	csim_diag_build_line(b, CSIM_DIAG_NO_CUBE, CSIM_DIAG_ALL);
	csim_diag_build_int(b, CSIM_DIAG_FIG_CUBE_CORES, cube_cores);
	csim_diag_build_int(b, CSIM_DIAG_FIG_CUBE_CORE_INSTRUCTIONS, cube_core_instr);
	csim_diag_build_int(b, CSIM_DIAG_FIG_CUBE_INSTRUCTIONS, cube_instr);
	if (named)
		csim_diag_build_int(b, CSIM_DIAG_FIG_CUBE_CYCLES, 0);
	for (size_t i = 0; i < s->ncores; i++)
		if (is_cube_core(m, &s->cores[i]))
			csim_diag_build_core(b, i);
	csim_diag_build_end(b, 1);
	return 1;
}

/* The WAITs of core ci that no SET released, when the latest lasts to its end. */
static int64_t open_at_end(const struct csim_model *m, const struct csim_unreleased *per_pid,
			   size_t ci)
{
	const struct csim_summary_core *c = &m->summary.cores[ci];
	const struct csim_unreleased *u = per_pid != NULL ? &per_pid[c->pid] : NULL;

	return u != NULL && u->n > 0 && u->last_end >= c->last_ns ? (int64_t)u->n : 0;
}

static int64_t core_open_waits(const struct csim_model *m, size_t ci)
{
	return open_at_end(m, m->unreleased, ci) + open_at_end(m, m->intra_unreleased, ci);
}

/*
 * A complete run releases every WAIT it begins; the producer still writes a
 * wait it never released as a B/E pair of its own (format-notes §4.2), so a
 * core whose unreleased wait lasts to its last instruction's end was still
 * blocked when the trace stopped: the run was cut (or hung until the cut).
 */
static void rule_truncated(const struct csim_model *m, struct csim_diag_build *b)
{
	const struct csim_summary *s = &m->summary;
	int64_t waits = 0, cores = 0;

	for (size_t i = 0; i < s->ncores; i++) {
		int64_t n = core_open_waits(m, i);

		waits += n;
		cores += n > 0;
	}
	if (cores == 0)
		return;
	csim_diag_build_line(b, CSIM_DIAG_TRUNCATED, CSIM_DIAG_ALL);
	csim_diag_build_int(b, CSIM_DIAG_FIG_UNRELEASED_WAITS, waits);
	csim_diag_build_int(b, CSIM_DIAG_FIG_CORES_WAITING, cores);
	csim_diag_build_int(b, CSIM_DIAG_FIG_CORES, (int64_t)s->ncores);
	for (size_t i = 0; i < s->ncores; i++) {
		int64_t n = core_open_waits(m, i);

		if (n > 0) {
			csim_diag_build_core(b, i);
			csim_diag_build_int(b, CSIM_DIAG_FIG_UNRELEASED_WAITS, n);
		}
	}
	csim_diag_build_end(b, 0);
}

int csim_diag_rules_whole(const struct csim_model *m, struct csim_diag_build *b)
{
	int degenerate;

	/* A window holds part of the run: too few instructions, no CUBE or an
	   open wait in it says nothing about the kernel's inputs or timeout. */
	if (csim_window_active(&m->cut.window))
		return 0;
	degenerate = rule_near_empty(m, b);
	degenerate |= rule_no_cube(m, b, !degenerate);
	rule_truncated(m, b);
	return degenerate;
}

/* The busiest pipe of core c that `want` accepts, first in lane order on a tie. */
static const struct csim_summary_pipe *
busiest(const struct csim_model *m, const struct csim_summary_core *c,
	int (*want)(const struct csim_model *, uint32_t))
{
	const struct csim_summary_pipe *best = NULL;

	for (size_t k = 0; k < c->npipes; k++) {
		const struct csim_summary_pipe *p = pipe_at(m, c, k);

		if (want(m, p->pipe) && (best == NULL || p->busy_ns > best->busy_ns))
			best = p;
	}
	return best;
}

static void rule_transfer(const struct csim_model *m, struct csim_diag_build *b, size_t ci)
{
	const struct csim_summary_core *c = &m->summary.cores[ci];
	const int64_t span = span_of(c);
	const struct csim_summary_pipe *mte = busiest(m, c, is_mte);
	const struct csim_summary_pipe *comp = busiest(m, c, is_compute);
	const int64_t comp_busy = comp != NULL ? comp->busy_ns : 0;

	if (mte == NULL || !at_least(mte->busy_ns, CSIM_DIAG_TRANSFER_MTE_PCT, span) ||
	    comp_busy * 100 > (int64_t)CSIM_DIAG_TRANSFER_COMPUTE_PCT * span)
		return;
	csim_diag_build_core(b, ci);
	csim_diag_build_pipe(b, CSIM_DIAG_FIG_PIPE, mte->pipe);
	csim_diag_build_int(b, CSIM_DIAG_FIG_BUSY_NS, mte->busy_ns);
	csim_diag_build_int(b, CSIM_DIAG_FIG_SPAN_NS, span);
	csim_diag_build_pipe(b, CSIM_DIAG_FIG_COMPUTE_PIPE, comp != NULL ? comp->pipe : CSIM_NONE);
	csim_diag_build_int(b, CSIM_DIAG_FIG_COMPUTE_BUSY_NS, comp_busy);
}

/*
 * The vector family (VECTOR; PUSHQ and RVEC* on Ascend950) as one unit:
 * the busiest of its pipes for "busy", and the utilization of all of them
 * pooled by cycles, as API_INSTR may put it on another family pipe than
 * the busiest (RVECEX executes what RVECLD feeds).
 */
static void rule_vector(const struct csim_model *m, struct csim_diag_build *b, size_t ci)
{
	const struct csim_summary_core *c = &m->summary.cores[ci];
	const int64_t span = span_of(c);
	const struct csim_summary_pipe *p = busiest(m, c, is_vector);
	double weighted = 0;
	uint64_t cycles = 0;

	if (p == NULL || !at_least(p->busy_ns, CSIM_DIAG_VECTOR_BUSY_PCT, span))
		return;
	for (size_t k = 0; k < c->npipes; k++) {
		const struct csim_summary_pipe *q = pipe_at(m, c, k);

		if (is_vector(m, q->pipe) && q->has_instr && q->util_cycles > 0) {
			weighted += q->util_weighted;
			cycles += q->util_cycles;
		}
	}
	if (cycles == 0 || weighted > (double)CSIM_DIAG_VECTOR_UTIL_PCT * (double)cycles)
		return;
	csim_diag_build_core(b, ci);
	csim_diag_build_pipe(b, CSIM_DIAG_FIG_PIPE, p->pipe);
	csim_diag_build_int(b, CSIM_DIAG_FIG_BUSY_NS, p->busy_ns);
	csim_diag_build_int(b, CSIM_DIAG_FIG_SPAN_NS, span);
	/* hundredths of a percent, rounded half up; weighted >= 0 here */
	csim_diag_build_int(b, CSIM_DIAG_FIG_UTILIZATION_X100,
			    (int64_t)(weighted * 100.0 / (double)cycles + 0.5));
	csim_diag_build_int(b, CSIM_DIAG_FIG_UTILIZATION_CYCLES,
			    cycles > INT64_MAX ? INT64_MAX : (int64_t)cycles);
}

static void rule_scalar(const struct csim_model *m, struct csim_diag_build *b, size_t ci)
{
	const struct csim_summary_core *c = &m->summary.cores[ci];
	const int64_t span = span_of(c);
	const struct csim_summary_pipe *p = busiest(m, c, is_scalar);

	if (p == NULL || !at_least(p->busy_ns, CSIM_DIAG_SCALAR_PCT, span))
		return;
	csim_diag_build_core(b, ci);
	csim_diag_build_pipe(b, CSIM_DIAG_FIG_PIPE, p->pipe);
	csim_diag_build_int(b, CSIM_DIAG_FIG_BUSY_NS, p->busy_ns);
	csim_diag_build_int(b, CSIM_DIAG_FIG_SPAN_NS, span);
}

/*
 * The line of core ci that names `producer` as its bottleneck, if any: a
 * pipe waiting mostly on a transfer-bound MTE pipe, on a vector family
 * shaped wrong or on a scalar-bound SCALAR is starved by that bottleneck
 * (docs/summary.md, "Consequences").
 */
static struct csim_diag_at *cause_of(const struct csim_model *m, const struct csim_diag_build *b,
				     size_t ci, uint32_t producer)
{
	struct csim_diag_at *at;

	if (producer == CSIM_NONE)
		return NULL;
	at = csim_diag_build_find(b, CSIM_DIAG_TRANSFER_BOUND, ci);
	if (at != NULL && csim_diag_at_num(at, CSIM_DIAG_FIG_PIPE) == (int64_t)producer)
		return at;
	at = csim_diag_build_find(b, CSIM_DIAG_VECTOR_SHAPE, ci);
	if (at != NULL && is_vector(m, producer))
		return at;
	at = csim_diag_build_find(b, CSIM_DIAG_SCALAR_BOUND, ci);
	if (at != NULL && is_scalar(m, producer))
		return at;
	return NULL;
}

static void rule_sync(const struct csim_model *m, struct csim_diag_build *b, size_t ci)
{
	const struct csim_summary *s = &m->summary;
	const struct csim_summary_core *c = &s->cores[ci];
	const int64_t span = span_of(c);
	const struct csim_summary_pipe *p = NULL;
	const struct csim_summary_wait *by = NULL;
	struct csim_diag_at *cause;

	for (size_t k = 0; k < c->npipes; k++)
		if (p == NULL || pipe_at(m, c, k)->wait_ns > p->wait_ns)
			p = pipe_at(m, c, k);
	if (p == NULL || !at_least(p->wait_ns, CSIM_DIAG_SYNC_PCT, span))
		return;
	for (size_t k = 0; k < p->nwaits; k++)
		if (by == NULL || s->waits[p->wait0 + k].ns > by->ns)
			by = &s->waits[p->wait0 + k];
	cause = cause_of(m, b, ci, by != NULL ? by->producer : CSIM_NONE);
	if (cause != NULL) {
		csim_diag_build_add(cause, CSIM_DIAG_FIG_STARVED_PIPE, CSIM_DIAG_PIPE, p->pipe);
		csim_diag_build_add(cause, CSIM_DIAG_FIG_STARVED_WAIT_NS, CSIM_DIAG_INT, p->wait_ns);
		return;
	}
	csim_diag_build_core(b, ci);
	csim_diag_build_pipe(b, CSIM_DIAG_FIG_PIPE, p->pipe);
	csim_diag_build_int(b, CSIM_DIAG_FIG_WAIT_FLAG_NS, p->wait_ns);
	csim_diag_build_int(b, CSIM_DIAG_FIG_SPAN_NS, span);
	csim_diag_build_pipe(b, CSIM_DIAG_FIG_PRODUCER, by != NULL ? by->producer : CSIM_NONE);
	csim_diag_build_int(b, CSIM_DIAG_FIG_PRODUCER_NS, by != NULL ? by->ns : 0);
}

static void rule_cross(const struct csim_model *m, struct csim_diag_build *b, size_t ci,
		       const struct csim_diag_partner *partners)
{
	const struct csim_summary_core *c = &m->summary.cores[ci];
	const int64_t span = span_of(c);
	const struct csim_diag_partner none = { CSIM_NONE, CSIM_NONE, 0, 0 };
	const struct csim_diag_partner *p = partners != NULL ? &partners[c->pid] : &none;

	if (!at_least(c->cross_wait_ns, CSIM_DIAG_CROSS_CORE_PCT, span))
		return;
	csim_diag_build_core(b, ci);
	csim_diag_build_int(b, CSIM_DIAG_FIG_CROSS_CORE_WAIT_NS, c->cross_wait_ns);
	csim_diag_build_int(b, CSIM_DIAG_FIG_SPAN_NS, span);
	csim_diag_build_pid(b, CSIM_DIAG_FIG_PARTNER_CORE, p->pid);
	csim_diag_build_pipe(b, CSIM_DIAG_FIG_PARTNER_PIPE, p->pipe);
	csim_diag_build_int(b, CSIM_DIAG_FIG_PARTNER_WAITS, (int64_t)p->count);
	csim_diag_build_int(b, CSIM_DIAG_FIG_WAITS, (int64_t)p->waits);
}

/* The cores at or past the threshold, each with its span: the slowest always among them. */
static void rule_imbalance(const struct csim_model *m, struct csim_diag_build *b)
{
	const struct csim_summary *s = &m->summary;
	const int64_t median = s->median_span_ns;

	if (s->ncores < 2 || s->max_span_ns <= median ||
	    !at_least(s->max_span_ns, CSIM_DIAG_IMBALANCE_PCT, median))
		return;
	csim_diag_build_line(b, CSIM_DIAG_LOAD_IMBALANCE, s->slowest);
	csim_diag_build_int(b, CSIM_DIAG_FIG_MAX_SPAN_NS, s->max_span_ns);
	csim_diag_build_int(b, CSIM_DIAG_FIG_MEDIAN_SPAN_NS, median);
	csim_diag_build_int(b, CSIM_DIAG_FIG_MIN_SPAN_NS, s->min_span_ns);
	csim_diag_build_int(b, CSIM_DIAG_FIG_CORES, (int64_t)s->ncores);
	for (size_t i = 0; i < s->ncores; i++) {
		const int64_t span = span_of(&s->cores[i]);

		if (span > median && at_least(span, CSIM_DIAG_IMBALANCE_PCT, median)) {
			csim_diag_build_core(b, i);
			csim_diag_build_int(b, CSIM_DIAG_FIG_SPAN_NS, span);
		}
	}
	csim_diag_build_end(b, 0);
}

/*
 * SPEC §13: the diagnosis names its primary cause from the critical path.
 * On a core where a per-core line fired, the pipe busiest on its path,
 * when it holds at least CSIM_DIAG_PATH_PCT of the span and more of the
 * path than any of those lines' causes (and none of them names it): a
 * sync_bound line whose flag waits hold none of the path says what the
 * pipes suffered, not what would shorten the core. A core where no rule
 * fired keeps its silence (docs/summary.md, "path_bound").
 */
static void rule_path(const struct csim_model *m, struct csim_diag_build *b, size_t ci)
{
	static const enum csim_diag_rule others[] = {
		CSIM_DIAG_TRANSFER_BOUND, CSIM_DIAG_VECTOR_SHAPE, CSIM_DIAG_SCALAR_BOUND,
		CSIM_DIAG_SYNC_BOUND, CSIM_DIAG_CROSS_CORE,
	};
	const struct csim_summary_core *c = &m->summary.cores[ci];
	const int64_t span = span_of(c);
	const struct csim_path_busy *top;
	int fired = 0;

	if (ci >= m->path.ncores || m->path.cores[ci].nbusy == 0)
		return;
	top = &m->path.busy[m->path.cores[ci].busy0];
	if (!at_least(top->ns, CSIM_DIAG_PATH_PCT, span))
		return;
	for (size_t r = 0; r < sizeof(others) / sizeof(others[0]); r++) {
		const struct csim_diag_at *at = csim_diag_build_find(b, others[r], ci);
		int64_t ns;

		if (at == NULL)
			continue;
		fired = 1;
		if (r < 3 && (csim_diag_at_num(at, CSIM_DIAG_FIG_PIPE) == (int64_t)top->pipe ||
			      (is_vector(m, top->pipe) && r == 1)))
			return;   /* its line names that pipe already */
		if (csim_diag_path_ns(m, others[r], at, &ns) && ns >= top->ns)
			return;   /* its cause holds as much of the path */
	}
	if (!fired)
		return;
	for (size_t k = 0; k < c->npipes; k++) {
		const struct csim_summary_pipe *p = pipe_at(m, c, k);

		if (p->pipe == top->pipe) {
			csim_diag_build_core(b, ci);
			csim_diag_build_pipe(b, CSIM_DIAG_FIG_PIPE, top->pipe);
			csim_diag_build_int(b, CSIM_DIAG_FIG_BUSY_NS, p->busy_ns);
			csim_diag_build_int(b, CSIM_DIAG_FIG_SPAN_NS, span);
			return;
		}
	}
}

void csim_diag_rules_figures(const struct csim_model *m, struct csim_diag_build *b,
			     const struct csim_diag_partner *partners)
{
	const struct csim_summary *s = &m->summary;
	void (*const per_core[])(const struct csim_model *, struct csim_diag_build *, size_t) = {
		rule_transfer, rule_vector, rule_scalar, rule_sync,
	};
	const enum csim_diag_rule rules[] = {
		CSIM_DIAG_TRANSFER_BOUND, CSIM_DIAG_VECTOR_SHAPE, CSIM_DIAG_SCALAR_BOUND,
		CSIM_DIAG_SYNC_BOUND,
	};

	/* sync after the three it can be a consequence of */
	for (size_t r = 0; r < sizeof(rules) / sizeof(rules[0]); r++) {
		csim_diag_build_line(b, rules[r], CSIM_DIAG_ALL);
		for (size_t i = 0; i < s->ncores; i++)
			if (span_of(&s->cores[i]) > 0)
				per_core[r](m, b, i);
		csim_diag_build_end(b, 0);
	}
	csim_diag_build_line(b, CSIM_DIAG_CROSS_CORE, CSIM_DIAG_ALL);
	for (size_t i = 0; i < s->ncores; i++)
		if (span_of(&s->cores[i]) > 0)
			rule_cross(m, b, i, partners);
	csim_diag_build_end(b, 0);
	csim_diag_build_line(b, CSIM_DIAG_PATH_BOUND, CSIM_DIAG_ALL);
	for (size_t i = 0; i < s->ncores; i++)
		if (span_of(&s->cores[i]) > 0)
			rule_path(m, b, i);
	csim_diag_build_end(b, 0);
	rule_imbalance(m, b);
}
