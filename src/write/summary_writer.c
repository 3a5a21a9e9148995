#include "write/summary_writer.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

#include "model/clock.h"
#include "model/diag_text.h"
#include "model/diagnosis.h"
#include "write/run_changes.h"
#include "write/summary_view.h"

/* A non-negative ratio num/den (num <= den) as 0.dddd, rounded half up. */
static void out_share(struct csim_out *o, int64_t num, int64_t den)
{
	int64_t q, r, d = 0;
	char buf[8];

	if (den <= 0 || num < 0) {
		csim_out_text(o, "null");
		return;
	}
	q = num / den;
	r = num % den;
	for (int k = 0; k < 4; k++) {
		r *= 10;
		d = d * 10 + r / den;
		r %= den;
	}
	if (2 * r >= den && ++d == 10000) {
		d = 0;
		q++;
	}
	csim_out_int(o, q);
	buf[0] = '.';
	for (int k = 4; k >= 1; k--) {
		buf[k] = (char)('0' + d % 10);
		d /= 10;
	}
	csim_out_bytes(o, buf, 5);
}

/* ns as µs with exactly 3 decimals. */
static void out_us(struct csim_out *o, int64_t ns)
{
	uint64_t a = ns < 0 ? (uint64_t)0 - (uint64_t)ns : (uint64_t)ns;
	char frac[4];

	if (ns < 0)
		csim_out_char(o, '-');
	csim_out_uint(o, a / 1000);
	frac[0] = '.';
	frac[1] = (char)('0' + a / 100 % 10);
	frac[2] = (char)('0' + a / 10 % 10);
	frac[3] = (char)('0' + a % 10);
	csim_out_bytes(o, frac, 4);
}

static void out_key(struct csim_out *o, const char *key)
{
	csim_out_char(o, '"');
	csim_out_text(o, key);
	csim_out_text(o, "\":");
}

/* "key":v, — a member followed by more. */
static void out_int_member(struct csim_out *o, const char *key, int64_t v)
{
	out_key(o, key);
	csim_out_int(o, v);
	csim_out_char(o, ',');
}

static void out_uint_member(struct csim_out *o, const char *key, uint64_t v)
{
	out_key(o, key);
	csim_out_uint(o, v);
	csim_out_char(o, ',');
}

static void out_pipe_name(const struct csim_model *m, struct csim_out *o, uint32_t pipe)
{
	size_t n;
	const char *name;

	if (pipe == CSIM_NONE) {
		csim_out_text(o, "null");
		return;
	}
	name = csim_strtab_get(&m->table.pipes, pipe, &n);
	csim_out_json_string(o, name, n);
}

static void out_pid_name(const struct csim_model *m, struct csim_out *o, uint32_t pid)
{
	const char *name = m->table.pid_names[pid];

	csim_out_json_string(o, name, strlen(name));
}

static void write_waits(const struct csim_model *m, struct csim_out *o,
			const struct csim_summary_pipe *p)
{
	out_key(o, "wait_flag_by_producer");
	csim_out_char(o, '[');
	for (size_t k = 0; k < p->nwaits; k++) {
		const struct csim_summary_wait *w = &m->summary.waits[p->wait0 + k];

		csim_out_text(o, k ? ",{" : "{");
		out_key(o, "producer");
		out_pipe_name(m, o, w->producer);
		csim_out_char(o, ',');
		out_key(o, "ns");
		csim_out_int(o, w->ns);
		csim_out_char(o, '}');
	}
	csim_out_char(o, ']');
}

static void write_run(struct csim_out *o, const struct csim_run_info *run)
{
	const struct csim_basic_info *bi = &run->basic;
	const int has = csim_basic_info_has(bi);

	out_key(o, "run");
	csim_out_char(o, '{');
	out_uint_member(o, "index", run->run);
	out_uint_member(o, "of", run->choice.runs);
	out_key(o, "side_by_side");
	csim_out_text(o, run->side_by_side ? "true," : "false,");
	out_key(o, "op_basic_info_offset");
	if (has)
		csim_out_uint(o, bi->offset);
	else
		csim_out_text(o, "null");
	/* The producer's values as it wrote them (strings or numbers). */
	for (size_t f = 0; has && f < CSIM_BASIC_COUNT; f++) {
		if (bi->field[f].p == NULL)
			continue;
		csim_out_char(o, ',');
		out_key(o, csim_basic_field_names[f]);
		csim_out_bytes(o, bi->field[f].p, bi->field[f].n);
	}
	csim_out_text(o, "},\n");
}

static void write_clock(struct csim_out *o, int has, const struct csim_clock *clock)
{
	out_key(o, "clock");
	if (!has) {
		csim_out_text(o, "null,\n");
		return;
	}
	csim_out_char(o, '{');
	out_key(o, "mhz");
	out_us(o, llround(clock->mhz * 1000.0));   /* MHz with 3 decimals */
	csim_out_char(o, ',');
	out_key(o, "source");
	csim_out_char(o, '"');
	csim_out_text(o, csim_clock_source_name(clock->source));
	csim_out_text(o, "\"},\n");
}

/* ,"key":v or ,"key":null */
static void out_opt_uint(struct csim_out *o, const char *key, int has, uint64_t v)
{
	csim_out_char(o, ',');
	out_key(o, key);
	if (has)
		csim_out_uint(o, v);
	else
		csim_out_text(o, "null");
}

/* API_INSTR's numbers and the bytes moved (null: not known). */
static void write_pipe_instr(struct csim_out *o, const struct csim_summary_pipe *p)
{
	char util[32];

	out_opt_uint(o, "cycles", p->has_instr, p->instr_cycles);
	out_opt_uint(o, "sync_cycles", p->has_instr, p->instr_sync_cycles);
	out_opt_uint(o, "executed", p->has_instr, p->instr_executed);
	csim_out_char(o, ',');
	out_key(o, "vector_utilization");
	if (p->util_cycles > 0) {
		snprintf(util, sizeof(util), "%.2f", p->util_weighted / (double)p->util_cycles);
		csim_out_text(o, util);
	} else {
		csim_out_text(o, "null");
	}
	out_opt_uint(o, "bytes", p->has_bytes, p->bytes);
	csim_out_char(o, ',');
	out_key(o, "bandwidth_gbps");
	if (p->has_bytes && p->busy_ns > 0)
		out_us(o, csim_view_bandwidth_mbps(p->bytes, p->busy_ns));
	else
		csim_out_text(o, "null");
}

static void write_pipe(const struct csim_model *m, struct csim_out *o,
		       const struct csim_summary_pipe *p, int64_t span)
{
	csim_out_text(o, "{");
	out_key(o, "pipe");
	out_pipe_name(m, o, p->pipe);
	csim_out_char(o, ',');
	out_key(o, "kept");
	csim_out_text(o, p->kept ? "true," : "false,");
	out_uint_member(o, "instructions", p->instructions);
	out_int_member(o, "busy_ns", p->busy_ns);
	out_key(o, "busy_us");
	out_us(o, p->busy_ns);
	csim_out_char(o, ',');
	out_key(o, "busy_share");
	out_share(o, p->busy_ns, span);
	csim_out_char(o, ',');
	out_uint_member(o, "depth", p->depth);
	out_key(o, "rows");
	if (p->has_rows)
		csim_out_uint(o, p->rows);
	else
		csim_out_text(o, "null");
	csim_out_char(o, ',');
	out_int_member(o, "wait_flag_ns", p->wait_ns);
	write_waits(m, o, p);
	write_pipe_instr(o, p);
	csim_out_char(o, ',');
	out_key(o, "overlap_ns");
	if (p->has_overlap)
		csim_out_int(o, p->overlap_ns);
	else
		csim_out_text(o, "null");
	csim_out_char(o, ',');
	out_key(o, "overlap_share");
	if (p->has_overlap)
		out_share(o, p->overlap_ns, p->busy_ns);
	else
		csim_out_text(o, "null");
	csim_out_char(o, '}');
}

static void write_core(const struct csim_model *m, struct csim_out *o,
		       const struct csim_summary_core *c, const struct csim_clock *clock)
{
	int64_t span = c->last_ns - c->first_ns;

	csim_out_text(o, "{");
	out_key(o, "core");
	out_pid_name(m, o, c->pid);
	csim_out_char(o, ',');
	out_int_member(o, "first_ns", c->first_ns);
	out_int_member(o, "last_ns", c->last_ns);
	out_int_member(o, "span_ns", span);
	out_key(o, "span_us");
	out_us(o, span);
	csim_out_char(o, ',');
	out_key(o, "span_cycles");
	if (clock != NULL)
		csim_out_int(o, csim_clock_cycles(clock, span));
	else
		csim_out_text(o, "null");
	csim_out_char(o, ',');
	out_int_member(o, "cross_core_wait_ns", c->cross_wait_ns);
	out_key(o, "pipes");
	csim_out_char(o, '[');
	for (size_t k = 0; k < c->npipes; k++) {
		csim_out_text(o, k ? ",\n    " : "\n    ");
		write_pipe(m, o, &m->summary.pipes[c->pipe0 + k], span);
	}
	csim_out_text(o, c->npipes ? "\n  ]}" : "]}");
}

static void write_balance(const struct csim_model *m, struct csim_out *o)
{
	const struct csim_summary *s = &m->summary;

	out_key(o, "load_balance");
	if (s->ncores == 0) {
		csim_out_text(o, "null");
		return;
	}
	csim_out_char(o, '{');
	out_uint_member(o, "cores", s->ncores);
	out_int_member(o, "min_span_ns", s->min_span_ns);
	out_int_member(o, "median_span_ns", s->median_span_ns);
	out_int_member(o, "max_span_ns", s->max_span_ns);
	out_key(o, "slowest_core");
	out_pid_name(m, o, s->cores[s->slowest].pid);
	csim_out_char(o, '}');
}

static void write_diag_nums(const struct csim_model *m, struct csim_out *o,
			    const struct csim_diag_num *nums, size_t n)
{
	csim_out_char(o, '{');
	for (size_t k = 0; k < n; k++) {
		if (k)
			csim_out_char(o, ',');
		out_key(o, csim_diag_fig_name(nums[k].fig));
		if (nums[k].kind == CSIM_DIAG_PIPE)
			out_pipe_name(m, o, (uint32_t)nums[k].v);
		else if (nums[k].kind == CSIM_DIAG_PID && nums[k].v == (int64_t)CSIM_NONE)
			csim_out_text(o, "null");
		else if (nums[k].kind == CSIM_DIAG_PID)
			out_pid_name(m, o, (uint32_t)nums[k].v);
		else
			csim_out_int(o, nums[k].v);
	}
	csim_out_char(o, '}');
}

/*
 * One diagnosis line (docs/summary.md, "Diagnosis"): its rule, rank, the
 * core its numbers describe (null: the whole run), the cores it holds on,
 * its evidence, text and numbers, and each core's numbers.
 */
static void write_diag(const struct csim_model *m, struct csim_out *o,
		       const struct csim_diag *d)
{
	const struct csim_diag_at *at = m->diagnosis.at + d->at0;
	char text[CSIM_DIAG_TEXT_MAX];
	size_t n = csim_diag_text(m, d, text, sizeof(text)), shown = 0;

	csim_out_char(o, '{');
	out_key(o, "id");
	csim_out_char(o, '"');
	csim_out_text(o, csim_diag_id(d->rule));
	csim_out_text(o, "\",");
	out_key(o, "primary");
	csim_out_text(o, d->primary ? "true," : "false,");
	out_key(o, "core");
	if (d->core == CSIM_DIAG_ALL)
		csim_out_text(o, "null");
	else
		out_pid_name(m, o, m->summary.cores[d->core].pid);
	csim_out_char(o, ',');
	out_key(o, "cores");
	csim_out_char(o, '[');
	for (size_t k = 0; k < d->nat; k++) {
		if (k)
			csim_out_char(o, ',');
		out_pid_name(m, o, m->summary.cores[at[k].core].pid);
	}
	csim_out_text(o, "],");
	out_key(o, "evidence_share");
	out_share(o, d->evidence_ns, m->diagnosis.rank_span_ns);
	csim_out_char(o, ',');
	out_key(o, "text");
	csim_out_json_string(o, text, n < sizeof(text) ? n : sizeof(text) - 1);
	csim_out_char(o, ',');
	out_key(o, "numbers");
	write_diag_nums(m, o, d->nums, d->nnums);
	csim_out_char(o, ',');
	out_key(o, "per_core");
	csim_out_char(o, '[');
	for (size_t k = 0; k < d->nat; k++) {
		if (at[k].nnums == 0)   /* a whole-run rule names its cores only */
			continue;
		csim_out_text(o, shown++ ? ",{" : "{");
		out_key(o, "core");
		out_pid_name(m, o, m->summary.cores[at[k].core].pid);
		csim_out_char(o, ',');
		out_key(o, "numbers");
		write_diag_nums(m, o, at[k].nums, at[k].nnums);
		csim_out_char(o, '}');
	}
	csim_out_text(o, "]}");
}

static void write_diagnosis(const struct csim_model *m, struct csim_out *o)
{
	const struct csim_diagnosis *d = &m->diagnosis;

	out_key(o, "diagnosis");
	csim_out_char(o, '[');
	for (size_t i = 0; i < d->n; i++) {
		csim_out_text(o, i ? ",\n  " : "\n  ");
		write_diag(m, o, &d->lines[i]);
	}
	csim_out_text(o, d->n ? "\n]" : "]");
}

/* A window bound: µs with 3 decimals, or null when open. */
static void out_bound(struct csim_out *o, int has, int64_t ns, int as_us)
{
	if (!has)
		csim_out_text(o, "null");
	else if (as_us)
		out_us(o, ns);
	else
		csim_out_int(o, ns);
}

/*
 * "cut": null, or what --core and --window kept of the trace; the summary
 * is clipped to the window, never cut by core (docs/summary.md).
 */
static void write_cut(const struct csim_model *m, struct csim_out *o)
{
	const struct csim_cut *c = &m->cut;
	const struct csim_window *w = &c->window;

	out_key(o, "cut");
	if (!csim_cut_active(c)) {
		csim_out_text(o, "null,\n");
		return;
	}
	csim_out_char(o, '{');
	out_key(o, "cores");
	csim_out_text(o, c->ncores ? "[" : "null");
	for (size_t i = 0; i < c->ncores; i++) {
		if (i)
			csim_out_char(o, ',');
		csim_out_json_string(o, c->cores[i], strlen(c->cores[i]));
	}
	csim_out_text(o, c->ncores ? "]," : ",");
	for (int as_us = 1; as_us >= 0; as_us--) {
		out_key(o, as_us ? "window_us" : "window_ns");
		if (csim_window_active(w)) {
			csim_out_char(o, '[');
			out_bound(o, w->has_from, w->from_ns, as_us);
			csim_out_char(o, ',');
			out_bound(o, w->has_to, w->to_ns, as_us);
			csim_out_text(o, "],");
		} else {
			csim_out_text(o, "null,");
		}
	}
	out_key(o, "summary_windowed");
	csim_out_text(o, csim_window_active(w) ? "true," : "false,");
	out_uint_member(o, "trace_slices", c->slices_in);
	out_uint_member(o, "trace_arrows", c->arrows_in);
	out_key(o, "trace_counters");
	csim_out_uint(o, c->counters_in);
	csim_out_text(o, "},\n");
}

/* Cycles as a share of all API_INSTR cycles, 4 decimals. */
static void out_cycle_share(const struct csim_model *m, struct csim_out *o, uint64_t cycles)
{
	out_share(o, cycles > INT64_MAX ? INT64_MAX : (int64_t)cycles,
		  m->instr.total_cycles > INT64_MAX ? INT64_MAX : (int64_t)m->instr.total_cycles);
}

/* One of the rows with the most cycles (SPEC §10). */
static void write_top_row(const struct csim_model *m, struct csim_out *o,
			  const struct csim_instr_top *t)
{
	const struct csim_strtab *text = &m->instr.text;
	size_t n;
	const char *v;

	csim_out_char(o, '{');
	out_key(o, "address");
	v = csim_strtab_get(text, t->address, &n);
	csim_out_json_string(o, v, n);
	csim_out_char(o, ',');
	out_key(o, "pipe");
	v = csim_strtab_get(text, t->pipe, &n);
	csim_out_json_string(o, v, n);
	csim_out_char(o, ',');
	out_key(o, "mnemonic");
	v = csim_strtab_get(text, t->mnemonic, &n);
	csim_out_json_string(o, v, n);
	csim_out_char(o, ',');
	out_key(o, "source");
	if (t->source != CSIM_NONE) {
		v = csim_strtab_get(text, t->source, &n);
		csim_out_json_string(o, v, n);
	} else {
		csim_out_text(o, "null");
	}
	csim_out_char(o, ',');
	out_uint_member(o, "cycles", t->cycles);
	out_key(o, "cycle_share");
	out_cycle_share(m, o, t->cycles);
	csim_out_char(o, ',');
	out_uint_member(o, "executed", t->executed);
	out_key(o, "cores");
	csim_out_uint(o, t->cores);
	csim_out_char(o, '}');
}

static void write_top(const struct csim_model *m, struct csim_out *o)
{
	out_key(o, "top_instructions");
	if (!m->instr.loaded) {
		csim_out_text(o, "null");
		return;
	}
	csim_out_char(o, '[');
	for (size_t i = 0; i < m->instr.ntop; i++) {
		csim_out_text(o, i ? ",\n  " : "\n  ");
		write_top_row(m, o, &m->instr.top[i]);
	}
	csim_out_text(o, m->instr.ntop ? "\n]" : "]");
}

/* The source lines with the most cycles (SPEC §10); null without API_INSTR. */
static void write_top_lines(const struct csim_model *m, struct csim_out *o)
{
	const struct csim_summary *s = &m->summary;

	out_key(o, "top_source_lines");
	if (!m->instr.loaded) {
		csim_out_text(o, "null");
		return;
	}
	csim_out_char(o, '[');
	for (size_t i = 0; i < s->nlines; i++) {
		const struct csim_summary_line *l = &s->lines[i];
		size_t n;
		const char *v = csim_strtab_get(&m->instr.text, l->source, &n);

		csim_out_text(o, i ? ",\n  {" : "\n  {");
		out_key(o, "source");
		csim_out_json_string(o, v, n);
		csim_out_char(o, ',');
		out_uint_member(o, "cycles", l->cycles);
		out_key(o, "cycle_share");
		out_cycle_share(m, o, l->cycles);
		csim_out_char(o, ',');
		out_uint_member(o, "executed", l->executed);
		out_key(o, "addresses");
		csim_out_uint(o, l->addresses);
		csim_out_char(o, '}');
	}
	csim_out_text(o, s->nlines ? "\n]" : "]");
}

/* One run's summary: the members of its object, without the braces. */
static void write_body(const struct csim_model *m, struct csim_out *o)
{
	const struct csim_summary *s = &m->summary;
	struct csim_clock clock;
	const int has_clock = csim_clock_of_run(&m->run, s->derived_mhz, &clock);

	write_run(o, &m->run);
	write_cut(m, o);
	write_clock(o, has_clock, &clock);
	out_key(o, "cores");
	csim_out_char(o, '[');
	for (size_t i = 0; i < s->ncores; i++) {
		csim_out_text(o, i ? ",\n  " : "\n  ");
		write_core(m, o, &s->cores[i], has_clock ? &clock : NULL);
	}
	csim_out_text(o, s->ncores ? "\n],\n" : "],\n");
	write_balance(m, o);
	csim_out_text(o, ",\n");
	write_top(m, o);
	csim_out_text(o, ",\n");
	write_top_lines(m, o);
	csim_out_text(o, ",\n");
	write_diagnosis(m, o);
}

/* "input":{"path":...,"size":...,"gzip":...}: the dump the summary describes. */
static void write_input(struct csim_out *o, const struct csim_view_input *in)
{
	out_key(o, "input");
	csim_out_char(o, '{');
	out_key(o, "path");
	csim_out_json_string(o, in->path, strlen(in->path));
	csim_out_char(o, ',');
	out_uint_member(o, "size", in->size);
	out_key(o, "gzip");
	csim_out_text(o, in->gzip ? "true},\n" : "false},\n");
}

void csim_summary_write(const struct csim_model *const *runs, size_t n,
			const struct csim_view_input *in, struct csim_out *o)
{
	csim_out_text(o, "{\"schema\":1,\n");
	write_input(o, in);
	if (n == 1) {
		write_body(runs[0], o);
		csim_out_text(o, "}\n");
		return;
	}
	out_key(o, "runs");
	csim_out_text(o, "[\n");
	for (size_t i = 0; i < n; i++) {
		csim_out_text(o, i ? ",\n{" : "{");
		write_body(runs[i], o);
		csim_out_char(o, '}');
	}
	csim_out_text(o, "],\n");
	csim_run_changes_json(runs, n, o);
	csim_out_text(o, "}\n");
}
