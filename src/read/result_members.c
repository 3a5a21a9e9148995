#include "read/result_members.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/array_grow.h"

/* One element more in *arr (count *n, capacity *cap); its bytes zeroed. */
static void *grow(struct csim_result_reader *rd, void **arr, size_t *n, size_t *cap,
		  size_t elem)
{
	char *e;

	if (csim_array_grow(arr, cap, *n + 1, elem) != 0) {
		(void)csim_error_nomem(rd->err, CSIM_E_INPUT);
		return NULL;
	}
	e = (char *)*arr + *n * elem;
	memset(e, 0, elem);
	(*n)++;
	return e;
}

struct run_ctx {
	struct csim_result_run *run;
	size_t cores_cap, pipes_cap, instrs_cap, lines_cap, diags_cap, estimates_cap, all_cap;
	struct csim_span slowest;
};

/* --- a core: its pipes and its critical path's busy parts --- */

struct core_ctx {
	struct run_ctx *rc;
	size_t core;                /* index in the run */
	struct csim_span path;      /* critical_path, or null */
	int has_span;
};

static int pipe_member(struct csim_result_reader *rd, void *ctx, const struct csim_json_item *m)
{
	struct csim_result_pipe *p = ctx;

	if (csim_result_key(m, "pipe"))
		return csim_result_string(rd, m->value, &p->pipe);
	if (csim_result_key(m, "busy_ns"))
		return csim_result_int(rd, m->value, &p->busy_ns);
	return CSIM_OK;
}

static int pipe_element(struct csim_result_reader *rd, void *ctx, const struct csim_json_item *m)
{
	struct core_ctx *cc = ctx;
	struct csim_result_run *run = cc->rc->run;
	struct csim_result_pipe *p = grow(rd, (void **)&run->pipes, &run->npipes,
					  &cc->rc->pipes_cap, sizeof(*p));
	int rc;

	if (p == NULL)
		return rd->err->code;
	p->path_ns = CSIM_RESULT_NONE;
	rc = csim_result_walk(rd, m->value, '{', p, pipe_member);
	if (rc == CSIM_OK && p->pipe.p == NULL)
		rc = csim_result_fail(rd, m->value.p, "a pipe without its name");
	if (rc == CSIM_OK)
		run->cores[cc->core].npipes++;
	return rc;
}

struct path_part {
	struct csim_span pipe;
	int64_t ns;
};

static int path_part_member(struct csim_result_reader *rd, void *ctx,
			    const struct csim_json_item *m)
{
	struct path_part *pp = ctx;

	if (csim_result_key(m, "pipe"))
		return csim_result_string(rd, m->value, &pp->pipe);
	if (csim_result_key(m, "ns"))
		return csim_result_int(rd, m->value, &pp->ns);
	return CSIM_OK;
}

static int path_busy(struct csim_result_reader *rd, void *ctx, const struct csim_json_item *m)
{
	struct core_ctx *cc = ctx;
	struct csim_result_run *run = cc->rc->run;
	const struct csim_result_core *c = &run->cores[cc->core];
	struct path_part pp = { { NULL, 0 }, CSIM_RESULT_NONE };
	size_t k;
	int rc = csim_result_walk(rd, m->value, '{', &pp, path_part_member);

	if (rc != CSIM_OK)
		return rc;
	k = csim_result_pipe_find(run, c, pp.pipe);
	if (k < c->npipes && pp.ns != CSIM_RESULT_NONE)
		run->pipes[c->pipe0 + k].path_ns = pp.ns;
	return CSIM_OK;
}

static int path_member(struct csim_result_reader *rd, void *ctx, const struct csim_json_item *m)
{
	if (csim_result_key(m, "busy"))
		return csim_result_walk(rd, m->value, '[', ctx, path_busy);
	return CSIM_OK;
}

static int core_member(struct csim_result_reader *rd, void *ctx, const struct csim_json_item *m)
{
	struct core_ctx *cc = ctx;
	struct csim_result_core *c = &cc->rc->run->cores[cc->core];

	if (csim_result_key(m, "core"))
		return csim_result_string(rd, m->value, &c->core);
	if (csim_result_key(m, "span_ns")) {
		cc->has_span = 1;
		return csim_result_int(rd, m->value, &c->span_ns);
	}
	if (csim_result_key(m, "span_cycles"))
		return csim_result_int(rd, m->value, &c->span_cycles);
	if (csim_result_key(m, "pipes")) {
		c->pipe0 = cc->rc->run->npipes;
		c->npipes = 0;
		return csim_result_walk(rd, m->value, '[', cc, pipe_element);
	}
	if (csim_result_key(m, "critical_path"))
		cc->path = m->value;
	return CSIM_OK;
}

static int core_element(struct csim_result_reader *rd, void *ctx, const struct csim_json_item *m)
{
	struct run_ctx *rcx = ctx;
	struct csim_result_run *run = rcx->run;
	struct core_ctx cc = { rcx, run->ncores, { NULL, 0 }, 0 };
	struct csim_result_core *c = grow(rd, (void **)&run->cores, &run->ncores, &rcx->cores_cap,
					  sizeof(*c));
	int rc;

	if (c == NULL)
		return rd->err->code;
	c->span_cycles = CSIM_RESULT_NONE;
	rc = csim_result_walk(rd, m->value, '{', &cc, core_member);
	c = &run->cores[cc.core];
	if (rc == CSIM_OK && (c->core.p == NULL || !cc.has_span || c->span_ns == CSIM_RESULT_NONE))
		rc = csim_result_fail(rd, m->value.p, "a core without its name or span_ns");
	if (rc != CSIM_OK || cc.path.p == NULL || csim_result_is_null(cc.path))
		return rc;
	c->has_path = 1;
	for (size_t k = 0; k < c->npipes; k++)
		run->pipes[c->pipe0 + k].path_ns = 0;
	return csim_result_walk(rd, cc.path, '{', &cc, path_member);
}

/* --- the run's other members --- */

static int info_member(struct csim_result_reader *rd, void *ctx, const struct csim_json_item *m)
{
	struct csim_result_run *run = ctx;
	int64_t index;
	int rc;

	if (csim_result_key(m, "name"))
		return csim_result_string(rd, m->value, &run->op);
	if (csim_result_key(m, "soc"))
		return csim_result_string(rd, m->value, &run->soc);
	if (csim_result_key(m, "side_by_side")) {
		run->side_by_side = csim_span_eq(m->value, "true");
		return CSIM_OK;
	}
	if (!csim_result_key(m, "index"))
		return CSIM_OK;
	rc = csim_result_int(rd, m->value, &index);
	if (rc == CSIM_OK && (index < 1 || index > (int64_t)UINT32_MAX))
		rc = csim_result_fail(rd, m->value.p, "a run index below 1");
	if (rc == CSIM_OK)
		run->index = (unsigned)index;
	return rc;
}

static int clock_member(struct csim_result_reader *rd, void *ctx, const struct csim_json_item *m)
{
	if (csim_result_key(m, "mhz"))
		return csim_result_number(rd, m->value, ctx);
	return CSIM_OK;
}

static int estimate_member(struct csim_result_reader *rd, void *ctx,
			   const struct csim_json_item *m)
{
	struct csim_result_estimate *e = ctx;

	if (csim_result_key(m, "pipe"))
		return csim_result_string(rd, m->value, &e->pipe);
	if (csim_result_key(m, "span_ns"))
		return csim_result_int(rd, m->value, &e->span_ns);
	return CSIM_OK;
}

static int estimate_element(struct csim_result_reader *rd, void *ctx,
			    const struct csim_json_item *m)
{
	struct run_ctx *rcx = ctx;
	struct csim_result_run *run = rcx->run;
	struct csim_result_estimate *e = grow(rd, (void **)&run->estimates, &run->nestimates,
					      &rcx->estimates_cap, sizeof(*e));
	int rc;

	if (e == NULL)
		return rd->err->code;
	e->span_ns = CSIM_RESULT_NONE;
	rc = csim_result_walk(rd, m->value, '{', e, estimate_member);
	if (rc == CSIM_OK && (e->pipe.p == NULL || e->span_ns == CSIM_RESULT_NONE))
		rc = csim_result_fail(rd, m->value.p, "a what_if entry without its pipe or span_ns");
	return rc;
}

static int balance_member(struct csim_result_reader *rd, void *ctx,
			  const struct csim_json_item *m)
{
	struct run_ctx *rcx = ctx;

	if (csim_result_key(m, "slowest_core"))
		return csim_result_string(rd, m->value, &rcx->slowest);
	/* the kernel's estimates: absent from summaries written before them */
	if (csim_result_key(m, "what_if"))
		return csim_result_walk(rd, m->value, '[', rcx, estimate_element);
	return CSIM_OK;
}

static int instr_member(struct csim_result_reader *rd, void *ctx, const struct csim_json_item *m)
{
	struct csim_result_instr *in = ctx;

	if (csim_result_key(m, "address"))
		return csim_result_string(rd, m->value, &in->address);
	if (csim_result_key(m, "pipe"))
		return csim_result_string(rd, m->value, &in->pipe);
	if (csim_result_key(m, "mnemonic"))
		return csim_result_string(rd, m->value, &in->name);
	if (csim_result_key(m, "source"))
		return csim_result_string(rd, m->value, &in->source);
	if (csim_result_key(m, "cycles"))
		return csim_result_int(rd, m->value, &in->cycles);
	if (csim_result_key(m, "flag"))
		in->flag = m->value.n == 4 && memcmp(m->value.p, "true", 4) == 0;
	return CSIM_OK;
}

/* An element of "instructions": every row with cycles (docs/summary.md). */
static int all_element(struct csim_result_reader *rd, void *ctx, const struct csim_json_item *m)
{
	struct run_ctx *rcx = ctx;
	struct csim_result_run *run = rcx->run;
	struct csim_result_instr *in = grow(rd, (void **)&run->all, &run->nall, &rcx->all_cap,
					    sizeof(*in));

	if (in == NULL)
		return rd->err->code;
	in->cycles = CSIM_RESULT_NONE;
	return csim_result_walk(rd, m->value, '{', in, instr_member);
}

static int instr_element(struct csim_result_reader *rd, void *ctx, const struct csim_json_item *m)
{
	struct run_ctx *rcx = ctx;
	struct csim_result_run *run = rcx->run;
	struct csim_result_instr *in = grow(rd, (void **)&run->instrs, &run->ninstrs,
					    &rcx->instrs_cap, sizeof(*in));

	if (in == NULL)
		return rd->err->code;
	in->cycles = CSIM_RESULT_NONE;
	return csim_result_walk(rd, m->value, '{', in, instr_member);
}

static int line_member(struct csim_result_reader *rd, void *ctx, const struct csim_json_item *m)
{
	struct csim_result_line *ln = ctx;

	if (csim_result_key(m, "source"))
		return csim_result_string(rd, m->value, &ln->source);
	if (csim_result_key(m, "cycles"))
		return csim_result_int(rd, m->value, &ln->cycles);
	return CSIM_OK;
}

static int line_element(struct csim_result_reader *rd, void *ctx, const struct csim_json_item *m)
{
	struct run_ctx *rcx = ctx;
	struct csim_result_run *run = rcx->run;
	struct csim_result_line *ln = grow(rd, (void **)&run->lines, &run->nlines,
					   &rcx->lines_cap, sizeof(*ln));

	if (ln == NULL)
		return rd->err->code;
	ln->cycles = CSIM_RESULT_NONE;
	return csim_result_walk(rd, m->value, '{', ln, line_member);
}

static int count_element(struct csim_result_reader *rd, void *ctx, const struct csim_json_item *m)
{
	(void)rd;
	(void)m;
	(*(size_t *)ctx)++;
	return CSIM_OK;
}

static int diag_member(struct csim_result_reader *rd, void *ctx, const struct csim_json_item *m)
{
	struct csim_result_diag *d = ctx;

	if (csim_result_key(m, "id"))
		return csim_result_string(rd, m->value, &d->id);
	if (csim_result_key(m, "text"))
		return csim_result_string(rd, m->value, &d->text);
	if (csim_result_key(m, "primary"))
		d->primary = csim_span_eq(m->value, "true");
	else if (csim_result_key(m, "cores"))
		return csim_result_walk(rd, m->value, '[', &d->ncores, count_element);
	return CSIM_OK;
}

static int diag_element(struct csim_result_reader *rd, void *ctx, const struct csim_json_item *m)
{
	struct run_ctx *rcx = ctx;
	struct csim_result_run *run = rcx->run;
	struct csim_result_diag *d = grow(rd, (void **)&run->diags, &run->ndiags,
					  &rcx->diags_cap, sizeof(*d));
	int rc;

	if (d == NULL)
		return rd->err->code;
	rc = csim_result_walk(rd, m->value, '{', d, diag_member);
	if (rc == CSIM_OK && d->id.p == NULL)
		rc = csim_result_fail(rd, m->value.p, "a diagnosis line without its id");
	return rc;
}

/* --- the timeline --- */

struct timeline_ctx {
	struct csim_result_timeline *tl;
	size_t pipes_cap, busy_cap, nbusy;   /* values of every row so far */
	size_t row_start;
};

static int bin_element(struct csim_result_reader *rd, void *ctx, const struct csim_json_item *m)
{
	struct timeline_ctx *tc = ctx;
	int64_t *v = grow(rd, (void **)&tc->tl->busy, &tc->nbusy, &tc->busy_cap, sizeof(*v));

	if (v == NULL)
		return rd->err->code;
	return csim_result_int(rd, m->value, v);
}

static int row_member_of_timeline(struct csim_result_reader *rd, void *ctx,
				  const struct csim_json_item *m)
{
	struct timeline_ctx *tc = ctx;
	struct csim_result_timeline *tl = tc->tl;

	if (csim_result_key(m, "pipe"))
		return csim_result_string(rd, m->value, &tl->pipes[tl->nrows - 1]);
	if (!csim_result_key(m, "busy_ns"))
		return CSIM_OK;
	tc->row_start = tc->nbusy;
	return csim_result_walk(rd, m->value, '[', tc, bin_element);
}

static int timeline_row(struct csim_result_reader *rd, void *ctx, const struct csim_json_item *m)
{
	struct timeline_ctx *tc = ctx;
	struct csim_result_timeline *tl = tc->tl;
	struct csim_span *p = grow(rd, (void **)&tl->pipes, &tl->nrows, &tc->pipes_cap, sizeof(*p));
	const size_t before = tc->nbusy;
	int rc;

	if (p == NULL)
		return rd->err->code;
	rc = csim_result_walk(rd, m->value, '{', tc, row_member_of_timeline);
	if (rc == CSIM_OK && tl->nrows == 1)
		tl->nbins = tc->nbusy - before;
	if (rc == CSIM_OK && (tc->nbusy - before != tl->nbins || tl->pipes[tl->nrows - 1].p == NULL))
		rc = csim_result_fail(rd, m->value.p, "a timeline row without its pipe or of "
				      "another number of bins");
	return rc;
}

static int timeline_member(struct csim_result_reader *rd, void *ctx,
			   const struct csim_json_item *m)
{
	struct timeline_ctx *tc = ctx;
	struct csim_result_timeline *tl = tc->tl;

	if (csim_result_key(m, "core"))
		return csim_result_string(rd, m->value, &tl->core);
	if (csim_result_key(m, "first_ns"))
		return csim_result_int(rd, m->value, &tl->first_ns);
	if (csim_result_key(m, "span_ns"))
		return csim_result_int(rd, m->value, &tl->span_ns);
	if (csim_result_key(m, "bin_ns"))
		return csim_result_int(rd, m->value, &tl->bin_ns);
	if (csim_result_key(m, "pipes"))
		return csim_result_walk(rd, m->value, '[', tc, timeline_row);
	return CSIM_OK;
}

static int read_timeline(struct csim_result_reader *rd, struct csim_result_run *run,
			 struct csim_span v)
{
	struct timeline_ctx tc = { &run->timeline, 0, 0, 0, 0 };
	int rc;

	/* A repeated member: the last one holds (fuzz_compare found rows of
	   the first counted over the second's bins). */
	free(run->timeline.pipes);
	free(run->timeline.busy);
	memset(&run->timeline, 0, sizeof(run->timeline));
	rc = csim_result_walk(rd, v, '{', &tc, timeline_member);

	if (rc == CSIM_OK && (run->timeline.bin_ns <= 0 || run->timeline.span_ns < 0 ||
			      run->timeline.first_ns == CSIM_RESULT_NONE))
		rc = csim_result_fail(rd, v.p, "a timeline without its span or bins");
	if (rc != CSIM_OK)
		run->timeline.bin_ns = 0;
	return rc;
}

static int run_member(struct csim_result_reader *rd, void *ctx, const struct csim_json_item *m)
{
	struct run_ctx *rcx = ctx;
	struct csim_result_run *run = rcx->run;

	/* null: no clock, no core (load_balance, timeline), no API_INSTR
	   (the top lists); docs/summary.md */
	if (csim_result_is_null(m->value))
		return CSIM_OK;
	if (csim_result_key(m, "run"))
		return csim_result_walk(rd, m->value, '{', run, info_member);
	if (csim_result_key(m, "clock"))
		return csim_result_walk(rd, m->value, '{', &run->mhz, clock_member);
	if (csim_result_key(m, "cores"))
		return csim_result_walk(rd, m->value, '[', rcx, core_element);
	if (csim_result_key(m, "load_balance"))
		return csim_result_walk(rd, m->value, '{', rcx, balance_member);
	if (csim_result_key(m, "timeline"))
		return read_timeline(rd, run, m->value);
	if (csim_result_key(m, "top_instructions"))
		return csim_result_walk(rd, m->value, '[', rcx, instr_element);
	if (csim_result_key(m, "top_source_lines"))
		return csim_result_walk(rd, m->value, '[', rcx, line_element);
	if (csim_result_key(m, "instructions")) {
		run->has_all = 1;
		return csim_result_walk(rd, m->value, '[', rcx, all_element);
	}
	if (csim_result_key(m, "diagnosis"))
		return csim_result_walk(rd, m->value, '[', rcx, diag_element);
	return CSIM_OK;
}

/*
 * Runs side by side name their cores "<pid> run <k>" (SPEC §2.1): the
 * suffix goes, so that a core is matched across runs and files by its pid.
 */
static void drop_run_suffix(struct csim_result_run *run)
{
	char suffix[32];
	const int k = snprintf(suffix, sizeof(suffix), " run %u", run->index);

	for (size_t i = 0; i <= run->ncores && k > 0; i++) {
		struct csim_span *c = i < run->ncores ? &run->cores[i].core : &run->timeline.core;

		if (c->p != NULL && c->n > (size_t)k &&
		    memcmp(c->p + c->n - (size_t)k, suffix, (size_t)k) == 0)
			c->n -= (size_t)k;
	}
}

int csim_result_read_run(struct csim_result_reader *rd, struct csim_span v)
{
	struct csim_result *r = rd->r;
	size_t cap = r->nruns;   /* runs are few: the array grows one by one */
	struct run_ctx rcx;
	struct csim_result_run *run;
	int rc;

	if (csim_array_grow((void **)&r->runs, &cap, r->nruns + 1, sizeof(*r->runs)) != 0)
		return csim_error_nomem(rd->err, CSIM_E_INPUT);
	memset(&rcx, 0, sizeof(rcx));
	run = &r->runs[r->nruns++];
	memset(run, 0, sizeof(*run));
	run->index = (unsigned)r->nruns;
	rcx.run = run;
	rc = csim_result_walk(rd, v, '{', &rcx, run_member);
	run->slowest = rcx.slowest.p != NULL ? csim_result_core_find(run, rcx.slowest)
		       : run->ncores;
	if (run->side_by_side)
		drop_run_suffix(run);
	return rc;
}

static int run_element(struct csim_result_reader *rd, void *ctx, const struct csim_json_item *m)
{
	(void)ctx;
	return csim_result_read_run(rd, m->value);
}

int csim_result_read_runs(struct csim_result_reader *rd, struct csim_span runs)
{
	int rc = csim_result_walk(rd, runs, '[', NULL, run_element);

	if (rc == CSIM_OK && rd->r->nruns == 0)
		rc = csim_result_fail(rd, runs.p, "no run in \"runs\"");
	return rc;
}

/* --- batch_summary.json's rows --- */

static int row_member(struct csim_result_reader *rd, void *ctx, const struct csim_json_item *m)
{
	struct csim_result_dump *d = ctx;
	struct csim_span status;
	double us;
	int rc;

	if (csim_result_key(m, "index"))
		return csim_result_int(rd, m->value, &d->index);
	if (csim_result_key(m, "dump"))
		return csim_result_string(rd, m->value, &d->dump);
	if (csim_result_key(m, "message"))
		return csim_result_string(rd, m->value, &d->message);
	if (csim_result_key(m, "op_name"))
		return csim_result_string(rd, m->value, &d->op);
	if (csim_result_key(m, "slowest_span_cycles"))
		return csim_result_int(rd, m->value, &d->span_cycles);
	if (csim_result_key(m, "critical_path_top"))
		return csim_result_string(rd, m->value, &d->path_top);
	if (csim_result_key(m, "critical_path_share"))
		return csim_result_number(rd, m->value, &d->path_share);
	if (csim_result_key(m, "primary_diagnosis"))
		return csim_result_string(rd, m->value, &d->primary);
	if (csim_result_key(m, "status")) {
		rc = csim_result_string(rd, m->value, &status);
		d->ok = csim_span_eq(status, "ok");
		return rc;
	}
	if (!csim_result_key(m, "slowest_span_us") || csim_result_is_null(m->value))
		return CSIM_OK;
	/* µs with 3 decimals: whole ns */
	rc = csim_result_number(rd, m->value, &us);
	if (rc == CSIM_OK)
		d->span_ns = (int64_t)(us * 1000.0 + 0.5);
	return rc;
}

static int row_element(struct csim_result_reader *rd, void *ctx, const struct csim_json_item *m)
{
	size_t *cap = ctx;
	struct csim_result *r = rd->r;
	struct csim_result_dump *d = grow(rd, (void **)&r->dumps, &r->ndumps, cap, sizeof(*d));
	int rc;

	if (d == NULL)
		return rd->err->code;
	d->index = CSIM_RESULT_NONE;
	d->span_ns = CSIM_RESULT_NONE;
	d->span_cycles = CSIM_RESULT_NONE;
	rc = csim_result_walk(rd, m->value, '{', d, row_member);
	if (rc == CSIM_OK && d->dump.p == NULL)
		rc = csim_result_fail(rd, m->value.p, "a row without its dump");
	if (rc == CSIM_OK && !d->ok)
		d->span_ns = CSIM_RESULT_NONE;
	return rc;
}

int csim_result_read_rows(struct csim_result_reader *rd, struct csim_span rows)
{
	size_t cap = 0;

	return csim_result_walk(rd, rows, '[', &cap, row_element);
}
