#include "write/compare_json.h"

#include <string.h>

#include "write/summary_view.h"

static void out_span(struct csim_out *o, struct csim_span s)
{
	if (s.p == NULL)
		csim_out_text(o, "null");
	else
		csim_out_json_string(o, s.p, s.n);
}

static void out_num(struct csim_out *o, int64_t v)
{
	if (v == CSIM_RESULT_NONE)
		csim_out_text(o, "null");
	else
		csim_out_int(o, v);
}

/* Ten-thousandths as a share with 4 decimals ("-0.0118"). */
static void out_bp(struct csim_out *o, int64_t bp)
{
	const uint64_t a = bp < 0 ? (uint64_t)0 - (uint64_t)bp : (uint64_t)bp;

	csim_out_format(o, "%s%llu.%04llu", bp < 0 ? "-" : "", (unsigned long long)(a / 10000),
			(unsigned long long)(a % 10000));
}

/* "KEY":[base,new],"change_KEY2":d (null when a side lacks it) */
static void out_pair(struct csim_out *o, const char *key, const char *change,
		     struct csim_compare_pair p)
{
	csim_out_format(o, "\"%s\":[", key);
	out_num(o, p.base);
	csim_out_char(o, ',');
	out_num(o, p.now);
	csim_out_format(o, "],\"%s\":", change);
	out_num(o, csim_compare_delta(p));
}

/* ,"change_share":s — null when a side lacks it or base is 0 */
static void out_change_share(struct csim_out *o, struct csim_compare_pair p)
{
	csim_out_text(o, ",\"change_share\":");
	if (p.base == CSIM_RESULT_NONE || p.now == CSIM_RESULT_NONE || p.base <= 0)
		csim_out_text(o, "null");
	else
		out_bp(o, csim_view_change_bp(p.base, p.now));
}

/* A part's share of a span, 4 decimals rounded half up; null without. */
static void out_share(struct csim_out *o, int64_t part, int64_t span)
{
	if (part == CSIM_RESULT_NONE || span == CSIM_RESULT_NONE || span <= 0 || part < 0)
		csim_out_text(o, "null");
	else
		out_bp(o, (part * 10000 + span / 2) / span);
}

/* An estimate's change of the kernel's span as a signed share, null without. */
static void out_estimate_change(struct csim_out *o, int64_t est, int64_t span)
{
	if (est == CSIM_RESULT_NONE || span == CSIM_RESULT_NONE || span <= 0)
		csim_out_text(o, "null");
	else
		out_bp(o, csim_view_change_bp(span, est));
}

static void out_span_fields(struct csim_out *o, const struct csim_compare_span *s)
{
	out_pair(o, "span_ns", "change_ns", s->ns);
	out_change_share(o, s->ns);
	csim_out_char(o, ',');
	out_pair(o, "span_cycles", "change_cycles", s->cycles);
}

static void out_side(struct csim_out *o, const char *key, const struct csim_result *r,
		     const struct csim_result_run *run)
{
	csim_out_format(o, "\"%s\":{\"file\":", key);
	csim_out_json_string(o, r->file, strlen(r->file));
	if (run != NULL) {
		csim_out_format(o, ",\"run\":%u,\"runs\":%zu,\"op\":", run->index, r->nruns);
		out_span(o, run->op);
		csim_out_text(o, ",\"soc\":");
		out_span(o, run->soc);
		csim_out_text(o, ",\"clock_mhz\":");
		if (run->mhz > 0)
			csim_out_format(o, "%.3f", run->mhz);
		else
			csim_out_text(o, "null");
	}
	csim_out_char(o, '}');
}

static void out_gate(struct csim_out *o, const struct csim_compare *c)
{
	csim_out_text(o, ",\"threshold_pct\":");
	if (c->threshold < 0)
		csim_out_text(o, "null");
	else
		csim_out_format(o, "%.6g", c->threshold);
	csim_out_text(o, ",\"slower\":[");
	for (size_t i = 0; i < c->nslower; i++) {
		const struct csim_compare_slower *s = &c->slower[i];

		csim_out_text(o, i ? ",{\"name\":" : "{\"name\":");
		out_span(o, s->what);
		csim_out_char(o, ',');
		out_pair(o, "span_ns", "change_ns", s->ns);
		out_change_share(o, s->ns);
		csim_out_char(o, '}');
	}
	csim_out_char(o, ']');
}

static void out_pipes(struct csim_out *o, const struct csim_compare *c,
		      const struct csim_compare_core *cc)
{
	csim_out_text(o, ",\"pipes\":[");
	for (size_t k = 0; k < cc->npipes; k++) {
		const struct csim_compare_pipe *p = &c->pipes[cc->pipe0 + k];

		csim_out_text(o, k ? ",\n{\"pipe\":" : "\n{\"pipe\":");
		out_span(o, p->pipe);
		csim_out_char(o, ',');
		out_pair(o, "busy_ns", "change_ns", p->busy_ns);
		out_change_share(o, p->busy_ns);
		csim_out_char(o, ',');
		out_pair(o, "path_ns", "path_change_ns", p->path_ns);
		csim_out_text(o, ",\"path_share\":[");
		out_share(o, p->path_ns.base, cc->span.ns.base);
		csim_out_char(o, ',');
		out_share(o, p->path_ns.now, cc->span.ns.now);
		csim_out_text(o, "]}");
	}
	csim_out_char(o, ']');
}

static void out_items(struct csim_out *o, const char *key, const struct csim_compare_item *it,
		      size_t n, int named)
{
	csim_out_format(o, ",\n\"%s\":[", key);
	for (size_t i = 0; i < n; i++) {
		csim_out_text(o, i ? ",\n{" : "\n{");
		if (named) {
			csim_out_text(o, "\"mnemonic\":");
			out_span(o, it[i].name);
			csim_out_text(o, ",\"address\":");
			out_span(o, it[i].address);
			csim_out_char(o, ',');
		}
		csim_out_text(o, "\"source\":");
		out_span(o, it[i].source);
		csim_out_char(o, ',');
		out_pair(o, "cycles", "change", it[i].cycles);
		csim_out_char(o, '}');
	}
	csim_out_char(o, ']');
}

static void out_diags(struct csim_out *o, const struct csim_compare *c, int appeared)
{
	size_t k = 0;

	csim_out_format(o, "\"%s\":[", appeared ? "appeared" : "gone");
	for (size_t i = 0; i < c->ndiags; i++) {
		const struct csim_result_diag *d = c->diags[i].d;

		if (c->diags[i].appeared != appeared)
			continue;
		csim_out_text(o, k++ ? ",{\"id\":" : "{\"id\":");
		out_span(o, d->id);
		csim_out_format(o, ",\"primary\":%s,\"cores\":%zu,\"text\":",
				d->primary ? "true" : "false", d->ncores);
		out_span(o, d->text);
		csim_out_char(o, '}');
	}
	csim_out_char(o, ']');
}

/* The kernel's what-if per pipe: each side's span and its change as a share of that side's. */
static void out_estimates(struct csim_out *o, const struct csim_compare *c)
{
	csim_out_text(o, ",\n\"what_if\":[");
	for (size_t k = 0; k < c->nestimates; k++) {
		const struct csim_compare_estimate *e = &c->estimates[k];

		csim_out_text(o, k ? ",\n{\"pipe\":" : "\n{\"pipe\":");
		out_span(o, e->pipe);
		csim_out_text(o, ",\"span_ns\":[");
		out_num(o, e->span_ns.base);
		csim_out_char(o, ',');
		out_num(o, e->span_ns.now);
		csim_out_text(o, "],\"change\":[");
		out_estimate_change(o, e->span_ns.base, c->kernel.ns.base);
		csim_out_char(o, ',');
		out_estimate_change(o, e->span_ns.now, c->kernel.ns.now);
		csim_out_text(o, "]}");
	}
	csim_out_char(o, ']');
}

static void out_single(struct csim_out *o, const struct csim_compare *c)
{
	csim_out_text(o, ",\n\"kernel\":{");
	out_span_fields(o, &c->kernel);
	csim_out_text(o, "},\n\"slowest_core\":");
	out_span(o, c->shown < c->ncores ? c->cores[c->shown].core : csim_span_of(NULL, 0));
	csim_out_text(o, ",\n\"cores\":[");
	for (size_t i = 0; i < c->ncores; i++) {
		const struct csim_compare_core *cc = &c->cores[i];

		csim_out_text(o, i ? ",\n{\"core\":" : "\n{\"core\":");
		out_span(o, cc->core);
		csim_out_char(o, ',');
		out_span_fields(o, &cc->span);
		out_pipes(o, c, cc);
		csim_out_char(o, '}');
	}
	csim_out_char(o, ']');
	out_estimates(o, c);
	/* every instruction and line that moved, or the top tens' (docs/compare.md) */
	csim_out_text(o, c->complete ? ",\n\"items_complete\":true" : ",\n\"items_complete\":false");
	out_items(o, "instructions", c->instrs, c->ninstrs, 1);
	out_items(o, "source_lines", c->lines, c->nlines, 0);
	csim_out_text(o, ",\n\"diagnosis\":{");
	out_diags(o, c, 1);
	csim_out_char(o, ',');
	out_diags(o, c, 0);
	csim_out_char(o, '}');
}

static void out_text_pair(struct csim_out *o, const char *key, struct csim_span b,
			  struct csim_span n)
{
	csim_out_format(o, ",\"%s\":[", key);
	out_span(o, b);
	csim_out_char(o, ',');
	out_span(o, n);
	csim_out_char(o, ']');
}

static void out_dump(struct csim_out *o, const struct csim_compare_dump *d)
{
	const struct csim_result_dump *b = d->base, *n = d->now;
	const struct csim_span none = { NULL, 0 }, ok = { "ok", 2 }, failed = { "failed", 6 };
	struct csim_compare_span s;

	s.ns.base = b != NULL ? b->span_ns : CSIM_RESULT_NONE;
	s.ns.now = n != NULL ? n->span_ns : CSIM_RESULT_NONE;
	s.cycles.base = b != NULL ? b->span_cycles : CSIM_RESULT_NONE;
	s.cycles.now = n != NULL ? n->span_cycles : CSIM_RESULT_NONE;
	csim_out_text(o, "{\"dump\":");
	out_span(o, d->dump);
	out_text_pair(o, "status", b == NULL ? none : b->ok ? ok : failed,
		      n == NULL ? none : n->ok ? ok : failed);
	csim_out_char(o, ',');
	out_span_fields(o, &s);
	out_text_pair(o, "op_name", b != NULL ? b->op : none, n != NULL ? n->op : none);
	out_text_pair(o, "primary_diagnosis", b != NULL ? b->primary : none,
		      n != NULL ? n->primary : none);
	out_text_pair(o, "critical_path_top", b != NULL ? b->path_top : none,
		      n != NULL ? n->path_top : none);
	csim_out_char(o, '}');
}

/* Which list a dump is in: 0 in both, 1 added (in NEW only), 2 removed. */
static int list_of(const struct csim_compare_dump *d)
{
	return d->base == NULL ? 1 : d->now == NULL ? 2 : 0;
}

static void out_batch(struct csim_out *o, const struct csim_compare *c)
{
	static const char *const keys[3] = { ",\n\"dumps\":[", "],\n\"added\":[",
					     "],\n\"removed\":[" };

	for (int list = 0; list < 3; list++) {
		size_t k = 0;

		csim_out_text(o, keys[list]);
		for (size_t i = 0; i < c->ndumps; i++) {
			if (list_of(&c->dumps[i]) != list)
				continue;
			csim_out_text(o, k++ ? ",\n" : "\n");
			out_dump(o, &c->dumps[i]);
		}
	}
	csim_out_char(o, ']');
}

void csim_compare_json_write(const struct csim_compare *c, struct csim_out *o)
{
	csim_out_format(o, "{\"schema\":%d,\"kind\":\"%s\",\n", CSIM_COMPARE_SCHEMA,
			c->kind == CSIM_RESULT_BATCH ? "batch" : "single");
	out_side(o, "base", c->base, c->base_run);
	csim_out_text(o, ",\n");
	out_side(o, "new", c->now, c->now_run);
	csim_out_format(o, ",\n\"differ\":{\"op\":%s,\"soc\":%s,\"clock\":%s}",
			c->other & CSIM_COMPARE_OTHER_OP ? "true" : "false",
			c->other & CSIM_COMPARE_OTHER_SOC ? "true" : "false",
			c->other & CSIM_COMPARE_OTHER_CLOCK ? "true" : "false");
	out_gate(o, c);
	if (c->kind == CSIM_RESULT_BATCH)
		out_batch(o, c);
	else
		out_single(o, c);
	csim_out_text(o, "}\n");
	csim_out_flush(o);
}
