/*
 * Nothing of a row outlives its feeding but its address's source line, so
 * the digest stays small whatever the block's size.
 */
#include "read/instr_digest.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "base/array_grow.h"
#include "base/number_grid.h"
#include "model/pipe_table.h"
#include "read/json_scan.h"
#include "read/json_skip.h"

/* The columns a row is read for (format-notes §5.2). */
enum column {
	COL_ADDRESS, COL_INNER_CODE, COL_PIPE, COL_SOURCE, COL_CYCLES,
	COL_EXECUTED, COL_UTIL, COL_COUNT
};

static const char *const column_names[COL_COUNT] = {
	"Address", "AscendC Inner Code", "Pipe", "Source", "Cycles",
	"Instructions Executed", "Vector Utilization Percentage"
};

/* One call's view: the digest and where its errors go. */
struct digest {
	struct csim_instr_stats *s;
	struct csim_instr_digest *dg;
	const struct csim_instr_row *row;
	struct csim_error *err;
};

/* A string value decoded into the scratch buffer; NULL when not a string. */
static int decode(struct digest *d, const char *v, size_t vn, struct csim_span *out)
{
	out->p = NULL;
	out->n = 0;
	if (vn < 2 || v[0] != '"')
		return CSIM_OK;
	if (csim_array_grow((void **)&d->dg->buf, &d->dg->buf_cap, vn, 1) != 0)
		return csim_error_nomem(d->err, CSIM_E_INPUT);
	out->n = csim_json_unescape(v + 1, vn - 2, d->dg->buf);
	out->p = d->dg->buf;
	return CSIM_OK;
}

static int intern(struct digest *d, struct csim_span v, uint32_t *id)
{
	if (csim_strtab_intern(&d->s->text, v.p != NULL ? v.p : "", v.n, id) != 0)
		return csim_error_nomem(d->err, CSIM_E_INPUT);
	return CSIM_OK;
}

static int load_cores(struct digest *d, const struct csim_metrics *mt)
{
	struct csim_instr_stats *s = d->s;

	s->cores = csim_array_alloc(mt->ncores ? mt->ncores : 1, sizeof(*s->cores));
	if (s->cores == NULL)
		return csim_error_nomem(d->err, CSIM_E_INPUT);
	for (size_t c = 0; c < mt->ncores; c++) {
		struct csim_span name;
		int rc = decode(d, mt->cores[c].p, mt->cores[c].n, &name);

		if (rc == CSIM_OK)
			rc = intern(d, name, &s->cores[c]);
		if (rc != CSIM_OK)
			return rc;
		s->ncores = c + 1;
	}
	return CSIM_OK;
}

/* The pipe's index in s->pipes, adding it (and its groups) when new. */
static int pipe_index(struct digest *d, struct csim_span pipe, size_t *idx)
{
	struct csim_instr_stats *s = d->s;
	size_t n, cap;
	const char *canon = csim_pipe_canonical(pipe.p != NULL ? pipe.p : "", pipe.n, &n);
	uint32_t id;
	void *g;
	int rc = intern(d, csim_span_of(canon, n), &id);

	if (rc != CSIM_OK)
		return rc;
	for (*idx = 0; *idx < s->npipes; (*idx)++)
		if (s->pipes[*idx] == id)
			return CSIM_OK;
	if (csim_array_grow((void **)&s->pipes, &s->pipes_cap, s->npipes + 1,
			    sizeof(*s->pipes)) != 0)
		return csim_error_nomem(d->err, CSIM_E_INPUT);
	/* Pipes are a few dozen: growing the groups one pipe at a time is cheap. */
	cap = (s->npipes + 1) * (s->ncores ? s->ncores : 1);
	g = realloc(s->groups, cap * sizeof(*s->groups));
	if (g == NULL)
		return csim_error_nomem(d->err, CSIM_E_INPUT);
	s->groups = g;
	memset(&s->groups[s->npipes * s->ncores], 0, s->ncores * sizeof(*s->groups));
	s->pipes[s->npipes] = id;
	*idx = s->npipes++;
	return CSIM_OK;
}

/*
 * The column's value for core c (format-notes §5.2, the reader's rule): a
 * per-core array's element, else element c of a shorter or longer array if
 * it has one, else its element 0; a scalar serves every core.
 */
static int value_at(struct digest *d, const struct csim_metrics_field *f, size_t c,
		    struct csim_span *v)
{
	struct csim_json_skip_iter it;
	struct csim_scan_result res;
	struct csim_span key, e;
	int has = 1;
	size_t k = 0;

	v->p = NULL;
	v->n = 0;
	if (f == NULL)
		return CSIM_OK;
	if (f->split) {
		*v = d->row->elem[f->elems + c];
		return CSIM_OK;
	}
	if (*f->val.p != '[') {
		*v = f->val;
		return CSIM_OK;
	}
	/* The row reader delimited the array; a text that changed since the
	   first scan yields fewer elements here, and the plan's sizes or the
	   row reader refuse it. */
	csim_json_skip_iter_init(&it, f->val.p, f->val.p + f->val.n, 1);
	while (csim_json_skip_next(&it, &key, &e, &has, &res) == CSIM_SCAN_OK && has) {
		if (k == 0 || k == c)
			*v = e;
		if (k++ == c)
			break;
	}
	return CSIM_OK;
}

/*
 * The value of a short plain number ("0", "1234", "87.5": at most 15
 * digits, no sign, no exponent, no leading zero), which is most of the
 * metrics columns; 0 for anything else. The digits make an exact mantissa
 * below 2^53 and the power of ten is exact, so one IEEE division gives what
 * csim_number_parse() gives (its fast path is the same division).
 */
static int plain_number(const char *p, size_t n, double *x)
{
	static const double pow10[15] = {
		1e0, 1e1, 1e2, 1e3, 1e4, 1e5, 1e6, 1e7, 1e8, 1e9, 1e10, 1e11, 1e12, 1e13, 1e14,
	};
	uint64_t m = 0;
	size_t frac = 0;
	int point = 0;

	if (n == 0 || n > 15 || (p[0] == '0' && n > 1 && p[1] != '.'))
		return 0;
	for (size_t i = 0; i < n; i++) {
		char ch = p[i];

		if (ch >= '0' && ch <= '9') {
			m = m * 10 + (uint64_t)(ch - '0');
			frac += (size_t)point;
		} else if (ch == '.' && !point && i > 0 && i + 1 < n) {
			point = 1;
		} else {
			return 0;
		}
	}
	*x = (double)m / pow10[frac];
	return 1;
}

/* A number value, or -1 when absent, not a number or negative (NA). */
static double number_at(struct digest *d, const struct csim_metrics_field *f, size_t c,
			int *rc)
{
	struct csim_span v;
	double x;

	*rc = value_at(d, f, c, &v);
	if (*rc != CSIM_OK || v.p == NULL)
		return -1;
	if (plain_number(v.p, v.n, &x))
		return x;
	/* "-1" and the like: whatever follows, below zero or no number. */
	if (v.n >= 2 && v.p[0] == '-' && v.p[1] >= '1' && v.p[1] <= '9')
		return -1;
	if (!csim_number_parse(v.p, v.n, &x) || !isfinite(x) || x < 0)
		return -1;
	return x;
}

static uint64_t to_count(double x)
{
	return x <= 0 ? 0 : x >= 1.8e19 ? UINT64_MAX : (uint64_t)llround(x);
}

/* SET/WAIT flag rows: their cycles are time blocked, not work. */
static int is_sync(struct csim_span mnemonic)
{
	static const char *const prefixes[] = {
		"SET_FLAG", "WAIT_FLAG", "set_event", "wait_event",
		"SET_INTRA_BLOCK", "WAIT_INTRA_BLOCK"
	};

	for (size_t i = 0; i < sizeof(prefixes) / sizeof(prefixes[0]); i++) {
		size_t n = strlen(prefixes[i]);

		if (mnemonic.n >= n && memcmp(mnemonic.p, prefixes[i], n) == 0)
			return 1;
	}
	return 0;
}

/* Row totals, for the top ten. */
struct row_sum {
	uint64_t cycles, executed;
	uint32_t cores;
};

static int add_values(struct digest *d, const struct csim_metrics_field *const *col,
		      size_t pipe, int sync, struct row_sum *sum)
{
	struct csim_instr_stats *s = d->s;
	int rc = CSIM_OK;

	for (size_t c = 0; c < s->ncores && rc == CSIM_OK; c++) {
		struct csim_instr_group *g = &s->groups[pipe * s->ncores + c];
		double cyc, exe, util;
		uint64_t cycles;

		/* Left out of instr_metrics.json too (SPEC §7): the summary
		   counts the records the file holds, of the cores --core keeps. */
		if (!csim_metrics_core_in(d->dg->mt, c) || !csim_instr_row_ran(d->row, c))
			continue;
		cyc = number_at(d, col[COL_CYCLES], c, &rc);
		exe = rc == CSIM_OK ? number_at(d, col[COL_EXECUTED], c, &rc) : -1;
		util = rc == CSIM_OK ? number_at(d, col[COL_UTIL], c, &rc) : -1;
		cycles = to_count(cyc);

		if (cyc < 0 && exe < 0)
			continue;
		g->present = 1;
		if (sync) {
			g->sync_cycles += cycles;
		} else {
			g->cycles += cycles;
			g->executed += to_count(exe);
		}
		if (util >= 0 && cycles > 0 && !sync) {
			g->util_weighted += util * (double)cycles;
			g->util_cycles += cycles;
		}
		sum->cycles += cycles;
		sum->executed += to_count(exe);
		sum->cores += cycles > 0;
	}
	s->total_cycles += sum->cycles;
	return rc;
}

int csim_instr_digest_add_line(struct csim_instr_line **v, size_t *nv, size_t *cap,
			       uint64_t lo, uint64_t hi, uint32_t source)
{
	if (csim_array_grow((void **)v, cap, *nv + 1, sizeof(**v)) != 0)
		return -1;
	(*v)[(*nv)++] = (struct csim_instr_line){ lo, hi, source };
	return 0;
}

/* Keeps the row when it is among the ten with the most cycles. */
static int rank_row(struct digest *d, const struct csim_instr_row_sum *r,
		    const struct row_sum *sum)
{
	struct csim_instr_stats *s = d->s;
	struct csim_instr_top t;
	size_t at = s->ntop;

	if (sum->cycles == 0)
		return CSIM_OK;
	while (at > 0 && s->top[at - 1].cycles < sum->cycles)
		at--;
	if (at == CSIM_INSTR_TOP)
		return CSIM_OK;
	memset(&t, 0, sizeof(t));
	t.pipe = r->pipe;
	t.source = r->source;
	t.cycles = sum->cycles;
	t.executed = sum->executed;
	t.cores = sum->cores;
	t.row = d->row->index;
	t.mnemonic = r->mnemonic;
	t.address = r->address;
	if (s->ntop < CSIM_INSTR_TOP)
		s->ntop++;
	memmove(&s->top[at + 1], &s->top[at], (s->ntop - 1 - at) * sizeof(s->top[0]));
	s->top[at] = t;
	return CSIM_OK;
}

static const struct csim_metrics_field *find_column(const struct csim_metrics_field *f,
						    enum column *which)
{
	for (int k = 0; k < COL_COUNT; k++) {
		if (csim_span_eq(f->key, column_names[k])) {
			*which = (enum column)k;
			return f;
		}
	}
	return NULL;
}

/* The first word of Source: the mnemonic, decoded into `into`. */
static int mnemonic_of(struct digest *d, const struct csim_metrics_field *f,
		       struct csim_span *m)
{
	int rc = f != NULL ? decode(d, f->val.p, f->val.n, m) : CSIM_OK;
	size_t n = 0;

	if (f == NULL || m->p == NULL) {
		*m = csim_span_of("", 0);
		return rc;
	}
	while (n < m->n && m->p[n] != ' ')
		n++;
	m->n = n;
	return rc;
}

/* Keeps the row's totals for the top source lines, when it can have one. */
/* Every row that ran: the source lines' sums and summary.json's "instructions". */
static int keep_row_sum(struct digest *d, const struct csim_instr_row_sum *r)
{
	struct csim_instr_stats *s = d->s;

	if (r->cycles == 0 && r->executed == 0)
		return CSIM_OK;
	if (csim_array_grow((void **)&s->rows, &s->rows_cap, s->nrows + 1, sizeof(*s->rows)) != 0)
		return csim_error_nomem(d->err, CSIM_E_INPUT);
	s->rows[s->nrows++] = *r;
	return CSIM_OK;
}

static int digest_row(struct digest *d)
{
	const struct csim_instr_row *row = d->row;
	const struct csim_metrics_field *col[COL_COUNT] = { NULL };
	struct csim_span v = { NULL, 0 }, mnemonic;
	struct row_sum sum = { 0, 0, 0 };
	struct csim_instr_row_sum r = { .source = CSIM_NONE };
	uint32_t source = CSIM_NONE;
	uint64_t addr = 0;
	int has_addr = 0, sync;
	size_t pipe = 0;
	int rc;

	for (size_t i = 0; i < row->nfields; i++) {
		enum column which;
		const struct csim_metrics_field *f = find_column(&row->fields[i], &which);

		if (f != NULL && col[which] == NULL)
			col[which] = f;
	}
	rc = col[COL_PIPE] != NULL ? decode(d, col[COL_PIPE]->val.p, col[COL_PIPE]->val.n, &v)
				   : CSIM_OK;
	if (rc == CSIM_OK)
		rc = pipe_index(d, v, &pipe);
	if (rc == CSIM_OK && col[COL_INNER_CODE] != NULL)
		rc = decode(d, col[COL_INNER_CODE]->val.p, col[COL_INNER_CODE]->val.n, &v);
	if (rc == CSIM_OK && col[COL_INNER_CODE] != NULL && v.n > 0)
		rc = intern(d, v, &source);
	if (rc == CSIM_OK && col[COL_ADDRESS] != NULL) {
		rc = decode(d, col[COL_ADDRESS]->val.p, col[COL_ADDRESS]->val.n, &v);
		has_addr = rc == CSIM_OK && v.p != NULL && csim_number_hex(v.p, v.n, &addr);
	}
	if (rc == CSIM_OK && source != CSIM_NONE && has_addr &&
	    csim_instr_digest_add_line(&d->s->lines, &d->s->nlines, &d->s->lines_cap,
				       addr, addr, source) != 0)
		rc = csim_error_nomem(d->err, CSIM_E_INPUT);
	if (rc == CSIM_OK)
		rc = mnemonic_of(d, col[COL_SOURCE], &mnemonic);
	sync = rc == CSIM_OK && is_sync(mnemonic);
	/* mnemonic points into the scratch buffer: interned before the
	   address is decoded into it. */
	if (rc == CSIM_OK)
		rc = intern(d, mnemonic, &r.mnemonic);
	v = csim_span_of("", 0);
	if (rc == CSIM_OK && col[COL_ADDRESS] != NULL)
		rc = decode(d, col[COL_ADDRESS]->val.p, col[COL_ADDRESS]->val.n, &v);
	if (rc == CSIM_OK)
		rc = intern(d, v.p != NULL ? v : csim_span_of("", 0), &r.address);
	if (rc == CSIM_OK)
		rc = add_values(d, col, pipe, sync, &sum);
	r.addr = has_addr ? addr : 0;
	r.has_addr = (uint32_t)has_addr;
	r.source = source;
	r.pipe = rc == CSIM_OK ? d->s->pipes[pipe] : 0;
	r.flag = (uint32_t)sync;
	r.cycles = sum.cycles;
	r.executed = sum.executed;
	if (rc == CSIM_OK)
		rc = keep_row_sum(d, &r);
	/* A flag row's cycles are a wait (SCALAR WAIT_FLAG led a real kernel's
	   list): counted apart, the top ten are work (docs/summary.md). */
	if (rc == CSIM_OK && sync && sum.cycles > 0) {
		d->s->flag_cycles += sum.cycles;
		d->s->flag_rows++;
	}
	if (rc == CSIM_OK && !sync)
		rc = rank_row(d, &r, &sum);
	return rc;
}

static int line_cmp(const void *a, const void *b)
{
	const struct csim_instr_line *x = a, *y = b;

	if (x->lo != y->lo)
		return x->lo < y->lo ? -1 : 1;
	return (x->source > y->source) - (x->source < y->source);
}

void csim_instr_digest_sort_lines(struct csim_instr_line *v, size_t *nv)
{
	size_t out = 0;

	if (*nv == 0)
		return;
	qsort(v, *nv, sizeof(*v), line_cmp);
	/* Where lines overlap, the one starting lower (then the one seen
	   first) keeps the shared addresses and the other keeps the rest, so
	   a lookup finds one answer. */
	for (size_t i = 0; i < *nv; i++) {
		struct csim_instr_line l = v[i];

		if (out > 0 && l.lo <= v[out - 1].hi) {
			if (l.hi <= v[out - 1].hi)
				continue;
			l.lo = v[out - 1].hi + 1;
		}
		v[out++] = l;
	}
	*nv = out;
}

int csim_instr_digest_begin(struct csim_instr_digest *dg, struct csim_instr_stats *s,
			    const struct csim_metrics *mt, struct csim_error *err)
{
	struct digest d = { s, dg, NULL, err };

	memset(dg, 0, sizeof(*dg));
	dg->s = s;
	dg->mt = mt;
	s->loaded = 1;
	return load_cores(&d, mt);
}

int csim_instr_digest_row(struct csim_instr_digest *dg, const struct csim_instr_row *row,
			  struct csim_error *err)
{
	struct digest d = { dg->s, dg, row, err };

	return digest_row(&d);
}

void csim_instr_digest_end(struct csim_instr_digest *dg)
{
	if (dg->s != NULL)
		csim_instr_digest_sort_lines(dg->s->lines, &dg->s->nlines);
	free(dg->buf);
	memset(dg, 0, sizeof(*dg));
}

int csim_instr_digest_rows(struct csim_instr_stats *s, const struct csim_metrics *mt,
			   const struct csim_instr_sink *sink, struct csim_error *err)
{
	struct csim_instr_rows rr;
	struct csim_instr_digest dg;
	struct csim_instr_row row;
	struct csim_instr_rows_marks marks;
	int has = 1, stop = 0, rc;

	memset(&dg, 0, sizeof(dg));
	rc = csim_instr_rows_open(&rr, mt, err);
	if (rc == CSIM_OK && s != NULL)
		rc = csim_instr_digest_begin(&dg, s, mt, err);
	while (rc == CSIM_OK && !stop &&
	       (rc = csim_instr_rows_next(&rr, &row, &has, err)) == CSIM_OK && has) {
		if (sink != NULL)
			rc = sink->row(sink->ctx, &row, &stop, err);
		if (rc == CSIM_OK && s != NULL)
			rc = csim_instr_digest_row(&dg, &row, err);
	}
	marks = csim_instr_rows_marks(&rr);
	if (sink != NULL)
		sink->end(sink->ctx, &marks);
	csim_instr_digest_end(&dg);
	csim_instr_rows_close(&rr);
	return rc;
}
