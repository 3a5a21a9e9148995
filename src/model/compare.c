#include "model/compare.h"

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/array_grow.h"

double csim_compare_change(struct csim_compare_pair p, int *known)
{
	*known = p.base != CSIM_RESULT_NONE && p.now != CSIM_RESULT_NONE && p.base != 0;
	return *known ? (double)(p.now - p.base) / (double)p.base : 0.0;
}

int64_t csim_compare_delta(struct csim_compare_pair p)
{
	return p.base != CSIM_RESULT_NONE && p.now != CSIM_RESULT_NONE ? p.now - p.base
									: CSIM_RESULT_NONE;
}

void csim_compare_release(struct csim_compare *c)
{
	free(c->cores);
	free(c->pipes);
	free(c->instrs);
	free(c->lines);
	free(c->diags);
	free(c->estimates);
	free(c->dumps);
	free(c->slower);
	memset(c, 0, sizeof(*c));
}

static struct csim_compare_pair pair(int64_t base, int64_t now)
{
	struct csim_compare_pair p = { base, now };

	return p;
}

static int64_t field_or_none(const void *row, int64_t value)
{
	return row != NULL ? value : CSIM_RESULT_NONE;
}

/* --- the gate --- */

static int add_slower(struct csim_compare *c, struct csim_span what, struct csim_compare_pair ns,
		      size_t *cap)
{
	/* base 0 grown to anything is past any threshold */
	const int past = ns.base != CSIM_RESULT_NONE && ns.now != CSIM_RESULT_NONE &&
			 ns.now > ns.base &&
			 (ns.base == 0 ||
			  (double)(ns.now - ns.base) * 100.0 > c->threshold * (double)ns.base);

	if (c->threshold < 0 || !past)
		return 0;
	if (csim_array_grow((void **)&c->slower, cap, c->nslower + 1, sizeof(*c->slower)) != 0)
		return -1;
	c->slower[c->nslower].what = what;
	c->slower[c->nslower].ns = ns;
	c->nslower++;
	return 0;
}

/* --- single results --- */

static const struct csim_result_core *core_of(const struct csim_result_run *run, size_t i)
{
	return i < run->ncores ? &run->cores[i] : NULL;
}

static struct csim_compare_span span_of(const struct csim_result_core *b,
					const struct csim_result_core *n)
{
	struct csim_compare_span s;

	s.ns = pair(field_or_none(b, b != NULL ? b->span_ns : 0),
		    field_or_none(n, n != NULL ? n->span_ns : 0));
	s.cycles = pair(b != NULL ? b->span_cycles : CSIM_RESULT_NONE,
			n != NULL ? n->span_cycles : CSIM_RESULT_NONE);
	return s;
}

/* The pipes of one core pair: NEW's order, then BASE's others. */
static int pair_pipes(struct csim_compare *c, struct csim_compare_core *cc,
		      const struct csim_result_core *b, const struct csim_result_core *n)
{
	const struct csim_result_run *br = c->base_run, *nr = c->now_run;
	const size_t most = (b != NULL ? b->npipes : 0) + (n != NULL ? n->npipes : 0);
	struct csim_compare_pipe *p;

	p = realloc(c->pipes, (c->npipes + most + 1) * sizeof(*p));
	if (p == NULL)
		return -1;
	c->pipes = p;
	cc->pipe0 = c->npipes;
	for (size_t k = 0; n != NULL && k < n->npipes; k++) {
		const struct csim_result_pipe *np = &nr->pipes[n->pipe0 + k];
		const size_t j = b != NULL ? csim_result_pipe_find(br, b, np->pipe) : 0;
		const struct csim_result_pipe *bp = b != NULL && j < b->npipes
						    ? &br->pipes[b->pipe0 + j] : NULL;

		p = &c->pipes[c->npipes++];
		p->pipe = np->pipe;
		p->busy_ns = pair(bp != NULL ? bp->busy_ns : CSIM_RESULT_NONE, np->busy_ns);
		p->path_ns = pair(bp != NULL ? bp->path_ns : CSIM_RESULT_NONE, np->path_ns);
	}
	for (size_t k = 0; b != NULL && k < b->npipes; k++) {
		const struct csim_result_pipe *bp = &br->pipes[b->pipe0 + k];

		if (n != NULL && csim_result_pipe_find(nr, n, bp->pipe) < n->npipes)
			continue;
		p = &c->pipes[c->npipes++];
		p->pipe = bp->pipe;
		p->busy_ns = pair(bp->busy_ns, CSIM_RESULT_NONE);
		p->path_ns = pair(bp->path_ns, CSIM_RESULT_NONE);
	}
	cc->npipes = c->npipes - cc->pipe0;
	return 0;
}

static int add_core(struct csim_compare *c, const struct csim_result_core *b,
		    const struct csim_result_core *n, size_t *slower_cap)
{
	struct csim_compare_core *cc = &c->cores[c->ncores++];

	cc->core = n != NULL ? n->core : b->core;
	cc->span = span_of(b, n);
	if (pair_pipes(c, cc, b, n) != 0)
		return -1;
	return add_slower(c, cc->core, cc->span.ns, slower_cap);
}

static int compare_cores(struct csim_compare *c, size_t *slower_cap)
{
	const struct csim_result_run *br = c->base_run, *nr = c->now_run;
	const struct csim_result_core *bs = core_of(br, br->slowest), *ns = core_of(nr, nr->slowest);

	c->cores = calloc(br->ncores + nr->ncores + 1, sizeof(*c->cores));
	if (c->cores == NULL)
		return -1;
	c->kernel = span_of(bs, ns);
	if (add_slower(c, csim_span_of(NULL, 0), c->kernel.ns, slower_cap) != 0)
		return -1;
	for (size_t i = 0; i < nr->ncores; i++)
		if (add_core(c, core_of(br, csim_result_core_find(br, nr->cores[i].core)),
			     &nr->cores[i], slower_cap) != 0)
			return -1;
	for (size_t i = 0; i < br->ncores; i++)
		if (csim_result_core_find(nr, br->cores[i].core) == nr->ncores &&
		    add_core(c, &br->cores[i], NULL, slower_cap) != 0)
			return -1;
	/* the table's pipes: NEW's slowest core, else BASE's */
	c->shown = c->ncores;
	for (size_t i = 0; i < c->ncores; i++)
		if ((ns != NULL && csim_result_same(c->cores[i].core, ns->core)) ||
		    (ns == NULL && bs != NULL && csim_result_same(c->cores[i].core, bs->core)))
			c->shown = i;
	return 0;
}

/* Instructions are matched by mnemonic and source line, or by address
   where a side has no source: an address moves when the code changes. */
static int same_instr(const struct csim_result_instr *a, const struct csim_result_instr *b)
{
	if (!csim_result_same(a->name, b->name))
		return 0;
	if (a->source.p != NULL && b->source.p != NULL)
		return csim_result_same(a->source, b->source);
	return csim_result_same(a->address, b->address);
}

static int64_t magnitude(struct csim_compare_pair p)
{
	const int64_t b = p.base != CSIM_RESULT_NONE ? p.base : 0;
	const int64_t n = p.now != CSIM_RESULT_NONE ? p.now : 0;

	return n > b ? n - b : b - n;
}

/*
 * Largest change first; ties in first-seen order: a stable merge sort, as
 * every instruction of two builds may have moved (tens of thousands: two
 * summaries of 50,000 rows, 49,800 moved, compared in 0.15 s against
 * 1.58 s by insertion, the same bytes). Without the scratch memory, the
 * insertion sort.
 */
static void sort_items(struct csim_compare_item *it, size_t n)
{
	struct csim_compare_item *tmp = n > 1 ? malloc(n * sizeof(*tmp)) : NULL;

	if (tmp == NULL) {
		for (size_t i = 1; i < n; i++) {
			struct csim_compare_item x = it[i];
			size_t j = i;

			for (; j > 0 && magnitude(it[j - 1].cycles) < magnitude(x.cycles); j--)
				it[j] = it[j - 1];
			it[j] = x;
		}
		return;
	}
	for (size_t width = 1; width < n; width *= 2) {
		for (size_t lo = 0; lo < n; lo += 2 * width) {
			const size_t mid = lo + width < n ? lo + width : n;
			const size_t hi = lo + 2 * width < n ? lo + 2 * width : n;
			size_t i = lo, j = mid, k = lo;

			while (i < mid && j < hi)
				tmp[k++] = magnitude(it[j].cycles) > magnitude(it[i].cycles) ? it[j++]
											   : it[i++];
			while (i < mid)
				tmp[k++] = it[i++];
			while (j < hi)
				tmp[k++] = it[j++];
		}
		memcpy(it, tmp, n * sizeof(*it));
	}
	free(tmp);
}

static int compare_instrs(struct csim_compare *c)
{
	const struct csim_result_run *br = c->base_run, *nr = c->now_run;

	c->instrs = calloc(br->ninstrs + nr->ninstrs + 1, sizeof(*c->instrs));
	if (c->instrs == NULL)
		return -1;
	for (size_t i = 0; i < nr->ninstrs; i++) {
		const struct csim_result_instr *n = &nr->instrs[i], *b = NULL;
		struct csim_compare_item *it = &c->instrs[c->ninstrs++];

		for (size_t j = 0; j < br->ninstrs && b == NULL; j++)
			if (same_instr(&br->instrs[j], n))
				b = &br->instrs[j];
		it->name = n->name;
		it->source = n->source;
		it->address = n->address;
		it->cycles = pair(b != NULL ? b->cycles : CSIM_RESULT_NONE, n->cycles);
	}
	for (size_t j = 0; j < br->ninstrs; j++) {
		const struct csim_result_instr *b = &br->instrs[j];
		struct csim_compare_item *it;
		int found = 0;

		for (size_t i = 0; i < nr->ninstrs && !found; i++)
			found = same_instr(b, &nr->instrs[i]);
		if (found)
			continue;
		it = &c->instrs[c->ninstrs++];
		it->name = b->name;
		it->source = b->source;
		it->address = b->address;
		it->cycles = pair(b->cycles, CSIM_RESULT_NONE);
	}
	sort_items(c->instrs, c->ninstrs);
	return 0;
}

static const struct csim_result_line *line_find(const struct csim_result_run *run,
						struct csim_span source)
{
	for (size_t i = 0; i < run->nlines; i++)
		if (csim_result_same(run->lines[i].source, source))
			return &run->lines[i];
	return NULL;
}

static int compare_lines(struct csim_compare *c)
{
	const struct csim_result_run *br = c->base_run, *nr = c->now_run;

	c->lines = calloc(br->nlines + nr->nlines + 1, sizeof(*c->lines));
	if (c->lines == NULL)
		return -1;
	for (size_t i = 0; i < nr->nlines; i++) {
		const struct csim_result_line *b = line_find(br, nr->lines[i].source);
		struct csim_compare_item *it = &c->lines[c->nlines++];

		it->source = nr->lines[i].source;
		it->cycles = pair(b != NULL ? b->cycles : CSIM_RESULT_NONE, nr->lines[i].cycles);
	}
	for (size_t j = 0; j < br->nlines; j++) {
		struct csim_compare_item *it;

		if (line_find(nr, br->lines[j].source) != NULL)
			continue;
		it = &c->lines[c->nlines++];
		it->source = br->lines[j].source;
		it->cycles = pair(br->lines[j].cycles, CSIM_RESULT_NONE);
	}
	sort_items(c->lines, c->nlines);
	return 0;
}

/*
 * The instructions and lines whose cycles moved: every one when both
 * summaries carry every instruction (model/compare_rows.h), else their
 * top tens.
 */
static int compare_items(struct csim_compare *c)
{
	c->complete = c->base_run->has_all && c->now_run->has_all;
	if (!c->complete)
		return compare_instrs(c) != 0 || compare_lines(c) != 0 ? -1 : 0;
	if (csim_compare_rows(c->base_run, c->now_run, &c->instrs, &c->ninstrs, &c->lines,
			      &c->nlines) != 0)
		return -1;
	sort_items(c->instrs, c->ninstrs);
	sort_items(c->lines, c->nlines);
	return 0;
}

static int has_diag(const struct csim_result_run *run, struct csim_span id)
{
	for (size_t i = 0; i < run->ndiags; i++)
		if (csim_result_same(run->diags[i].id, id))
			return 1;
	return 0;
}

/* A rule is one line of a diagnosis (SPEC §10): lines are matched by rule. */
static int compare_diags(struct csim_compare *c)
{
	const struct csim_result_run *br = c->base_run, *nr = c->now_run;

	c->diags = calloc(br->ndiags + nr->ndiags + 1, sizeof(*c->diags));
	if (c->diags == NULL)
		return -1;
	for (size_t i = 0; i < nr->ndiags; i++)
		if (!has_diag(br, nr->diags[i].id))
			c->diags[c->ndiags++] = (struct csim_compare_diag){ &nr->diags[i], 1 };
	for (size_t i = 0; i < br->ndiags; i++)
		if (!has_diag(nr, br->diags[i].id))
			c->diags[c->ndiags++] = (struct csim_compare_diag){ &br->diags[i], 0 };
	return 0;
}

static const struct csim_result_estimate *estimate_find(const struct csim_result_run *run,
							struct csim_span pipe)
{
	for (size_t i = 0; i < run->nestimates; i++)
		if (csim_result_same(run->estimates[i].pipe, pipe))
			return &run->estimates[i];
	return NULL;
}

/* The kernel's what-if (SPEC §13), pipe by pipe. */
static int compare_estimates(struct csim_compare *c)
{
	const struct csim_result_run *br = c->base_run, *nr = c->now_run;

	c->estimates = calloc(br->nestimates + nr->nestimates + 1, sizeof(*c->estimates));
	if (c->estimates == NULL)
		return -1;
	for (size_t i = 0; i < nr->nestimates; i++) {
		const struct csim_result_estimate *b = estimate_find(br, nr->estimates[i].pipe);

		c->estimates[c->nestimates++] = (struct csim_compare_estimate){
			nr->estimates[i].pipe,
			pair(b != NULL ? b->span_ns : CSIM_RESULT_NONE, nr->estimates[i].span_ns) };
	}
	for (size_t i = 0; i < br->nestimates; i++)
		if (estimate_find(nr, br->estimates[i].pipe) == NULL)
			c->estimates[c->nestimates++] = (struct csim_compare_estimate){
				br->estimates[i].pipe,
				pair(br->estimates[i].span_ns, CSIM_RESULT_NONE) };
	return 0;
}

static unsigned others(const struct csim_result_run *b, const struct csim_result_run *n)
{
	unsigned o = 0;

	if (!csim_result_same(b->op, n->op))
		o |= CSIM_COMPARE_OTHER_OP;
	if (!csim_result_same(b->soc, n->soc))
		o |= CSIM_COMPARE_OTHER_SOC;
	if (b->mhz != n->mhz)
		o |= CSIM_COMPARE_OTHER_CLOCK;
	return o;
}

static int compare_single(struct csim_compare *c, size_t *slower_cap)
{
	c->other = others(c->base_run, c->now_run);
	if (compare_cores(c, slower_cap) != 0 || compare_items(c) != 0 ||
	    compare_diags(c) != 0 || compare_estimates(c) != 0)
		return -1;
	return 0;
}

/* --- batch results --- */

/* The one unpaired dump of r at the place of s, or r->ndumps (none, or several). */
static size_t one_at_place(const struct csim_result *r, const size_t *pair,
			   struct csim_span s)
{
	size_t found = r->ndumps;

	for (size_t i = 0; i < r->ndumps; i++) {
		if (pair[i] != SIZE_MAX || !csim_result_dump_same_place(r->dumps[i].dump, s))
			continue;
		if (found != r->ndumps)
			return r->ndumps;
		found = i;
	}
	return found;
}

/*
 * Pairs the two batches' dumps: by exact path, then what is left by place
 * (csim_result_dump_same_place) where each side has exactly one dump
 * there. now_pair[i] is the base dump of now's dump i, base_pair the
 * reverse; SIZE_MAX: unpaired.
 */
static void pair_dumps(const struct csim_result *b, const struct csim_result *n,
		       size_t *base_pair, size_t *now_pair)
{
	for (size_t j = 0; j < b->ndumps; j++)
		base_pair[j] = SIZE_MAX;
	for (size_t i = 0; i < n->ndumps; i++) {
		const size_t j = csim_result_dump_find(b, n->dumps[i].dump);

		now_pair[i] = SIZE_MAX;
		if (j < b->ndumps && base_pair[j] == SIZE_MAX) {
			now_pair[i] = j;
			base_pair[j] = i;
		}
	}
	for (size_t i = 0; i < n->ndumps; i++) {
		size_t j;

		if (now_pair[i] != SIZE_MAX)
			continue;
		j = one_at_place(b, base_pair, n->dumps[i].dump);
		if (j < b->ndumps && one_at_place(n, now_pair, b->dumps[j].dump) == i) {
			now_pair[i] = j;
			base_pair[j] = i;
		}
	}
}

static int compare_batch(struct csim_compare *c, size_t *slower_cap)
{
	const struct csim_result *b = c->base, *n = c->now;
	size_t *base_pair = calloc(b->ndumps + 1, sizeof(*base_pair));
	size_t *now_pair = calloc(n->ndumps + 1, sizeof(*now_pair));
	int rc = -1;

	c->dumps = calloc(b->ndumps + n->ndumps + 1, sizeof(*c->dumps));
	if (c->dumps == NULL || base_pair == NULL || now_pair == NULL)
		goto out;
	pair_dumps(b, n, base_pair, now_pair);
	for (size_t i = 0; i < n->ndumps; i++) {
		const struct csim_result_dump *nd = &n->dumps[i];
		const struct csim_result_dump *bd;

		if (now_pair[i] == SIZE_MAX)
			continue;
		bd = &b->dumps[now_pair[i]];
		c->dumps[c->ndumps++] = (struct csim_compare_dump){ nd->dump, bd, nd };
		if (!csim_result_same(bd->op, nd->op))
			c->other_ops++;
		if (add_slower(c, nd->dump, pair(bd->span_ns, nd->span_ns), slower_cap) != 0)
			goto out;
	}
	for (size_t i = 0; i < n->ndumps; i++)
		if (now_pair[i] == SIZE_MAX) {
			c->dumps[c->ndumps++] = (struct csim_compare_dump){ n->dumps[i].dump, NULL,
									    &n->dumps[i] };
			c->nadded++;
		}
	for (size_t j = 0; j < b->ndumps; j++)
		if (base_pair[j] == SIZE_MAX) {
			c->dumps[c->ndumps++] = (struct csim_compare_dump){ b->dumps[j].dump,
									    &b->dumps[j], NULL };
			c->nremoved++;
		}
	if (c->other_ops > 0)
		c->other |= CSIM_COMPARE_OTHER_OP;
	rc = 0;
out:
	free(base_pair);
	free(now_pair);
	return rc;
}

int csim_compare_build(struct csim_compare *c, const struct csim_result *base,
		       const struct csim_result *nw, double threshold, struct csim_error *err)
{
	size_t slower_cap = 0;
	int bad;

	memset(c, 0, sizeof(*c));
	c->base = base;
	c->now = nw;
	c->kind = base->kind;
	c->threshold = threshold;
	if (base->kind != nw->kind)
		return csim_error_set(err, CSIM_E_USAGE, CSIM_NO_OFFSET,
				      "cannot compare %s (%s) with %s (%s): give two batch results "
				      "or two single ones", base->file,
				      base->kind == CSIM_RESULT_BATCH ? "a batch" : "one dump",
				      nw->file, nw->kind == CSIM_RESULT_BATCH ? "a batch" : "one dump");
	if (base->kind == CSIM_RESULT_SINGLE) {
		c->base_run = &base->runs[base->nruns - 1];
		c->now_run = &nw->runs[nw->nruns - 1];
	}
	bad = base->kind == CSIM_RESULT_BATCH ? compare_batch(c, &slower_cap)
					      : compare_single(c, &slower_cap);
	return bad ? csim_error_nomem(err, CSIM_E_INPUT) : CSIM_OK;
}

int csim_compare_runs(struct csim_compare *c, const struct csim_result *base, size_t base_run,
		      const struct csim_result *nw, size_t now_run, struct csim_error *err)
{
	size_t slower_cap = 0;

	memset(c, 0, sizeof(*c));
	c->base = base;
	c->now = nw;
	c->kind = CSIM_RESULT_SINGLE;
	c->threshold = -1.0;
	c->base_run = &base->runs[base_run];
	c->now_run = &nw->runs[now_run];
	snprintf(c->base_label, sizeof(c->base_label), "run %u", c->base_run->index);
	snprintf(c->now_label, sizeof(c->now_label), "run %u", c->now_run->index);
	return compare_single(c, &slower_cap) != 0 ? csim_error_nomem(err, CSIM_E_INPUT) : CSIM_OK;
}
