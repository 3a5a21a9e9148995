#include "write/summary_writer.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

#include "model/clock.h"
#include "model/diag_text.h"
#include "model/diagnosis.h"
#include "write/json_members.h"
#include "write/run_changes.h"
#include "write/summary_path.h"
#include "write/summary_rows.h"
#include "write/summary_view.h"

static void write_waits(const struct csim_model *m, struct csim_out *o,
			const struct csim_summary_pipe *p)
{
	csim_json_key(o, "wait_flag_by_producer");
	csim_out_char(o, '[');
	for (size_t k = 0; k < p->nwaits; k++) {
		const struct csim_summary_wait *w = &m->summary.waits[p->wait0 + k];

		csim_out_text(o, k ? ",{" : "{");
		csim_json_key(o, "producer");
		csim_json_pipe(m, o, w->producer);
		csim_out_char(o, ',');
		csim_json_key(o, "ns");
		csim_out_int(o, w->ns);
		csim_out_char(o, '}');
	}
	csim_out_char(o, ']');
}

static void write_run(struct csim_out *o, const struct csim_run_info *run)
{
	const struct csim_basic_info *bi = &run->basic;
	const int has = csim_basic_info_has(bi);

	csim_json_key(o, "run");
	csim_out_char(o, '{');
	csim_json_uint_member(o, "index", run->run);
	csim_json_uint_member(o, "of", run->choice.runs);
	csim_json_key(o, "side_by_side");
	csim_out_text(o, run->side_by_side ? "true," : "false,");
	csim_json_key(o, "op_basic_info_offset");
	if (has)
		csim_out_uint(o, bi->offset);
	else
		csim_out_text(o, "null");
	/* The producer's values as it wrote them, but a count, a duration or
	   a clock written as a string of a number ("8", "1850") as that
	   number (docs/summary.md, "run"). */
	for (size_t f = 0; has && f < CSIM_BASIC_COUNT; f++) {
		struct csim_span v = bi->field[f];

		if (v.p == NULL)
			continue;
		(void)csim_basic_info_json_number(bi, (enum csim_basic_field)f, &v);
		csim_out_char(o, ',');
		csim_json_key(o, csim_basic_field_names[f]);
		csim_out_bytes(o, v.p, v.n);
	}
	csim_out_text(o, "},\n");
}

static void write_clock(struct csim_out *o, int has, const struct csim_clock *clock)
{
	csim_json_key(o, "clock");
	if (!has) {
		csim_out_text(o, "null,\n");
		return;
	}
	csim_out_char(o, '{');
	csim_json_key(o, "mhz");
	csim_json_us(o, llround(clock->mhz * 1000.0));   /* MHz with 3 decimals */
	csim_out_char(o, ',');
	csim_json_key(o, "source");
	csim_out_char(o, '"');
	csim_out_text(o, csim_clock_source_name(clock->source));
	csim_out_text(o, "\"},\n");
}

/* ,"key":v or ,"key":null */
static void out_opt_uint(struct csim_out *o, const char *key, int has, uint64_t v)
{
	csim_out_char(o, ',');
	csim_json_key(o, key);
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
	csim_json_key(o, "vector_utilization");
	if (p->util_cycles > 0) {
		snprintf(util, sizeof(util), "%.2f", p->util_weighted / (double)p->util_cycles);
		csim_out_text(o, util);
	} else {
		csim_out_text(o, "null");
	}
	out_opt_uint(o, "bytes", p->has_bytes, p->bytes);
	csim_out_char(o, ',');
	csim_json_key(o, "bandwidth_gbps");
	if (p->has_bytes && p->busy_ns > 0)
		csim_json_us(o, csim_view_bandwidth_mbps(p->bytes, p->busy_ns));
	else
		csim_out_text(o, "null");
}

static void write_pipe(const struct csim_model *m, struct csim_out *o,
		       const struct csim_summary_pipe *p, int64_t span)
{
	csim_out_text(o, "{");
	csim_json_key(o, "pipe");
	csim_json_pipe(m, o, p->pipe);
	csim_out_char(o, ',');
	csim_json_key(o, "kept");
	csim_out_text(o, p->kept ? "true," : "false,");
	csim_json_uint_member(o, "instructions", p->instructions);
	csim_json_int_member(o, "busy_ns", p->busy_ns);
	csim_json_key(o, "busy_us");
	csim_json_us(o, p->busy_ns);
	csim_out_char(o, ',');
	csim_json_key(o, "busy_share");
	csim_json_share(o, p->busy_ns, span);
	csim_out_char(o, ',');
	csim_json_uint_member(o, "depth", p->depth);
	csim_json_key(o, "rows");
	if (p->has_rows)
		csim_out_uint(o, p->rows);
	else
		csim_out_text(o, "null");
	csim_out_char(o, ',');
	csim_json_int_member(o, "wait_flag_ns", p->wait_ns);
	write_waits(m, o, p);
	write_pipe_instr(o, p);
	csim_out_char(o, ',');
	csim_json_key(o, "overlap_ns");
	if (p->has_overlap)
		csim_out_int(o, p->overlap_ns);
	else
		csim_out_text(o, "null");
	csim_out_char(o, ',');
	csim_json_key(o, "overlap_share");
	if (p->has_overlap)
		csim_json_share(o, p->overlap_ns, p->busy_ns);
	else
		csim_out_text(o, "null");
	csim_out_char(o, '}');
}

static void write_core(const struct csim_model *m, struct csim_out *o,
		       const struct csim_summary_core *c, const struct csim_clock *clock)
{
	int64_t span = c->last_ns - c->first_ns;

	csim_out_text(o, "{");
	csim_json_key(o, "core");
	csim_json_pid(m, o, c->pid);
	csim_out_char(o, ',');
	csim_json_int_member(o, "first_ns", c->first_ns);
	csim_json_int_member(o, "last_ns", c->last_ns);
	csim_json_int_member(o, "span_ns", span);
	csim_json_key(o, "span_us");
	csim_json_us(o, span);
	csim_out_char(o, ',');
	csim_json_key(o, "span_cycles");
	if (clock != NULL)
		csim_out_int(o, csim_clock_cycles(clock, span));
	else
		csim_out_text(o, "null");
	csim_out_char(o, ',');
	csim_json_int_member(o, "cross_core_wait_ns", c->cross_wait_ns);
	csim_json_key(o, "pipes");
	csim_out_char(o, '[');
	for (size_t k = 0; k < c->npipes; k++) {
		csim_out_text(o, k ? ",\n    " : "\n    ");
		write_pipe(m, o, &m->summary.pipes[c->pipe0 + k], span);
	}
	csim_out_text(o, c->npipes ? "\n  ]" : "]");
	csim_summary_path_write(m, o, (size_t)(c - m->summary.cores));
	csim_out_char(o, '}');
}

static void write_balance(const struct csim_model *m, struct csim_out *o)
{
	const struct csim_summary *s = &m->summary;

	csim_json_key(o, "load_balance");
	if (s->ncores == 0) {
		csim_out_text(o, "null");
		return;
	}
	csim_out_char(o, '{');
	csim_json_uint_member(o, "cores", s->ncores);
	csim_json_int_member(o, "min_span_ns", s->min_span_ns);
	csim_json_int_member(o, "median_span_ns", s->median_span_ns);
	csim_json_int_member(o, "max_span_ns", s->max_span_ns);
	csim_json_key(o, "slowest_core");
	csim_json_pid(m, o, s->cores[s->slowest].pid);
	csim_summary_path_kernel_write(m, o);
	csim_out_char(o, '}');
}

/* The slowest core's busy ns per bin, per pipe (model/timeline_bins.h). */
static void write_timeline(const struct csim_model *m, struct csim_out *o)
{
	const struct csim_summary *s = &m->summary;
	const struct csim_summary_timeline *tl = &s->timeline;
	const struct csim_summary_core *c;

	csim_json_key(o, "timeline");
	if (s->ncores == 0 || tl->bin_ns == 0) {
		csim_out_text(o, "null");
		return;
	}
	c = &s->cores[s->slowest];
	csim_out_char(o, '{');
	csim_json_key(o, "core");
	csim_json_pid(m, o, c->pid);
	csim_out_char(o, ',');
	csim_json_int_member(o, "first_ns", c->first_ns);
	csim_json_int_member(o, "span_ns", c->last_ns - c->first_ns);
	csim_json_int_member(o, "bin_ns", tl->bin_ns);
	csim_json_key(o, "pipes");
	csim_out_char(o, '[');
	for (size_t r = 0; r < tl->nrows; r++) {
		csim_out_text(o, r ? ",\n  {" : "\n  {");
		csim_json_key(o, "pipe");
		csim_json_pipe(m, o, s->pipes[c->pipe0 + r].pipe);
		csim_out_char(o, ',');
		csim_json_key(o, "busy_ns");
		csim_out_char(o, '[');
		for (size_t b = 0; b < tl->nbins; b++) {
			if (b)
				csim_out_char(o, ',');
			csim_out_uint(o, tl->busy[r * tl->nbins + b]);
		}
		csim_out_text(o, "]}");
	}
	csim_out_text(o, tl->nrows ? "\n]}" : "]}");
}

static void write_diag_nums(const struct csim_model *m, struct csim_out *o,
			    const struct csim_diag_num *nums, size_t n)
{
	csim_out_char(o, '{');
	for (size_t k = 0; k < n; k++) {
		if (k)
			csim_out_char(o, ',');
		csim_json_key(o, csim_diag_fig_name(nums[k].fig));
		if (nums[k].kind == CSIM_DIAG_PIPE)
			csim_json_pipe(m, o, (uint32_t)nums[k].v);
		else if (nums[k].kind == CSIM_DIAG_PID && nums[k].v == (int64_t)CSIM_NONE)
			csim_out_text(o, "null");
		else if (nums[k].kind == CSIM_DIAG_PID)
			csim_json_pid(m, o, (uint32_t)nums[k].v);
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
	csim_json_key(o, "id");
	csim_out_char(o, '"');
	csim_out_text(o, csim_diag_id(d->rule));
	csim_out_text(o, "\",");
	csim_json_key(o, "primary");
	csim_out_text(o, d->primary ? "true," : "false,");
	csim_json_key(o, "core");
	if (d->core == CSIM_DIAG_ALL)
		csim_out_text(o, "null");
	else
		csim_json_pid(m, o, m->summary.cores[d->core].pid);
	csim_out_char(o, ',');
	csim_json_key(o, "cores");
	csim_out_char(o, '[');
	for (size_t k = 0; k < d->nat; k++) {
		if (k)
			csim_out_char(o, ',');
		csim_json_pid(m, o, m->summary.cores[at[k].core].pid);
	}
	csim_out_text(o, "],");
	csim_json_key(o, "evidence_share");
	csim_json_share(o, d->evidence_ns, m->diagnosis.rank_span_ns);
	csim_out_char(o, ',');
	csim_json_key(o, "text");
	csim_out_json_string(o, text, n < sizeof(text) ? n : sizeof(text) - 1);
	csim_out_char(o, ',');
	csim_json_key(o, "numbers");
	write_diag_nums(m, o, d->nums, d->nnums);
	csim_out_char(o, ',');
	csim_json_key(o, "per_core");
	csim_out_char(o, '[');
	for (size_t k = 0; k < d->nat; k++) {
		if (at[k].nnums == 0)   /* a whole-run rule names its cores only */
			continue;
		csim_out_text(o, shown++ ? ",{" : "{");
		csim_json_key(o, "core");
		csim_json_pid(m, o, m->summary.cores[at[k].core].pid);
		csim_out_char(o, ',');
		csim_json_key(o, "numbers");
		write_diag_nums(m, o, at[k].nums, at[k].nnums);
		csim_out_char(o, '}');
	}
	csim_out_text(o, "]}");
}

static void write_diagnosis(const struct csim_model *m, struct csim_out *o)
{
	const struct csim_diagnosis *d = &m->diagnosis;

	csim_json_key(o, "diagnosis");
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
		csim_json_us(o, ns);
	else
		csim_out_int(o, ns);
}

/*
 * "cut": null, or what --core and --window kept of the trace; the summary
 * holds the cores --core keeps, clipped to the window (docs/summary.md).
 */
static void write_cut(const struct csim_model *m, struct csim_out *o)
{
	const struct csim_cut *c = &m->cut;
	const struct csim_window *w = &c->window;

	csim_json_key(o, "cut");
	if (!csim_cut_active(c)) {
		csim_out_text(o, "null,\n");
		return;
	}
	csim_out_char(o, '{');
	csim_json_key(o, "cores");
	csim_out_text(o, c->ncores ? "[" : "null");
	for (size_t i = 0; i < c->ncores; i++) {
		if (i)
			csim_out_char(o, ',');
		csim_out_json_string(o, c->cores[i], strlen(c->cores[i]));
	}
	csim_out_text(o, c->ncores ? "]," : ",");
	for (int as_us = 1; as_us >= 0; as_us--) {
		csim_json_key(o, as_us ? "window_us" : "window_ns");
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
	csim_json_key(o, "summary_windowed");
	csim_out_text(o, csim_window_active(w) ? "true," : "false,");
	csim_json_key(o, "summary_cores");
	csim_out_text(o, c->ncores > 0 ? "true," : "false,");
	csim_json_uint_member(o, "trace_slices", c->slices_in);
	csim_json_uint_member(o, "trace_arrows", c->arrows_in);
	csim_json_key(o, "trace_counters");
	csim_out_uint(o, c->counters_in);
	csim_out_text(o, "},\n");
}

/* Cycles as a share of all API_INSTR cycles, 4 decimals. */
static void out_cycle_share(const struct csim_model *m, struct csim_out *o, uint64_t cycles)
{
	csim_json_share(o, cycles > INT64_MAX ? INT64_MAX : (int64_t)cycles,
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
	csim_json_key(o, "address");
	v = csim_strtab_get(text, t->address, &n);
	csim_out_json_string(o, v, n);
	csim_out_char(o, ',');
	csim_json_key(o, "pipe");
	v = csim_strtab_get(text, t->pipe, &n);
	csim_out_json_string(o, v, n);
	csim_out_char(o, ',');
	csim_json_key(o, "mnemonic");
	v = csim_strtab_get(text, t->mnemonic, &n);
	csim_out_json_string(o, v, n);
	csim_out_char(o, ',');
	csim_json_key(o, "source");
	if (t->source != CSIM_NONE) {
		v = csim_strtab_get(text, t->source, &n);
		csim_out_json_string(o, v, n);
	} else {
		csim_out_text(o, "null");
	}
	csim_out_char(o, ',');
	csim_json_uint_member(o, "cycles", t->cycles);
	csim_json_key(o, "cycle_share");
	out_cycle_share(m, o, t->cycles);
	csim_out_char(o, ',');
	csim_json_uint_member(o, "executed", t->executed);
	csim_json_key(o, "cores");
	csim_out_uint(o, t->cores);
	csim_out_char(o, '}');
}

static void write_top(const struct csim_model *m, struct csim_out *o)
{
	csim_json_key(o, "top_instructions");
	if (!m->instr.loaded) {
		csim_out_text(o, "null,\n");
		csim_json_key(o, "flag_cycles");
		csim_out_text(o, "null");
		return;
	}
	csim_out_char(o, '[');
	for (size_t i = 0; i < m->instr.ntop; i++) {
		csim_out_text(o, i ? ",\n  " : "\n  ");
		write_top_row(m, o, &m->instr.top[i]);
	}
	csim_out_text(o, m->instr.ntop ? "\n],\n" : "],\n");
	/* The flag rows the top ten leave out, and their share of all cycles. */
	csim_json_key(o, "flag_cycles");
	csim_out_char(o, '{');
	csim_json_uint_member(o, "rows", m->instr.flag_rows);
	csim_json_uint_member(o, "cycles", m->instr.flag_cycles);
	csim_json_key(o, "cycle_share");
	out_cycle_share(m, o, m->instr.flag_cycles);
	csim_out_char(o, '}');
}

/* The source lines with the most cycles (SPEC §10); null without API_INSTR. */
static void write_top_lines(const struct csim_model *m, struct csim_out *o)
{
	const struct csim_summary *s = &m->summary;

	csim_json_key(o, "top_source_lines");
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
		csim_json_key(o, "source");
		csim_out_json_string(o, v, n);
		csim_out_char(o, ',');
		csim_json_uint_member(o, "cycles", l->cycles);
		csim_json_key(o, "cycle_share");
		out_cycle_share(m, o, l->cycles);
		csim_out_char(o, ',');
		csim_json_uint_member(o, "executed", l->executed);
		csim_json_key(o, "addresses");
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
	csim_json_key(o, "cores");
	csim_out_char(o, '[');
	for (size_t i = 0; i < s->ncores; i++) {
		csim_out_text(o, i ? ",\n  " : "\n  ");
		write_core(m, o, &s->cores[i], has_clock ? &clock : NULL);
	}
	csim_out_text(o, s->ncores ? "\n],\n" : "],\n");
	write_balance(m, o);
	csim_out_text(o, ",\n");
	write_timeline(m, o);
	csim_out_text(o, ",\n");
	write_top(m, o);
	csim_out_text(o, ",\n");
	write_top_lines(m, o);
	csim_out_text(o, ",\n");
	csim_summary_rows_json(m, o);
	csim_out_text(o, ",\n");
	write_diagnosis(m, o);
}

/* "input":{"path":...,"size":...,"gzip":...}: the dump the summary describes. */
static void write_input(struct csim_out *o, const struct csim_view_input *in)
{
	csim_json_key(o, "input");
	csim_out_char(o, '{');
	csim_json_key(o, "path");
	csim_out_json_string(o, in->path, strlen(in->path));
	csim_out_char(o, ',');
	csim_json_uint_member(o, "size", in->size);
	csim_json_key(o, "gzip");
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
	csim_json_key(o, "runs");
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
