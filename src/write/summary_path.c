#include "write/summary_path.h"

#include "write/json_members.h"

/* A signed ratio as -0.dddd: the what-if's change of the span. */
static void out_change(struct csim_out *o, int64_t num, int64_t den)
{
	if (num < 0 && den > 0)
		csim_out_char(o, '-');
	csim_json_share(o, num < 0 ? -num : num, den);
}

static void write_busy(const struct csim_model *m, struct csim_out *o,
		       const struct csim_path_core *c)
{
	csim_json_key(o, "busy");
	csim_out_char(o, '[');
	for (size_t k = 0; k < c->nbusy; k++) {
		const struct csim_path_busy *b = &m->path.busy[c->busy0 + k];

		csim_out_text(o, k ? ",{" : "{");
		csim_json_key(o, "pipe");
		csim_json_pipe(m, o, b->pipe);
		csim_out_char(o, ',');
		csim_json_int_member(o, "ns", b->ns);
		csim_json_key(o, "share");
		csim_json_share(o, b->ns, c->span_ns);
		csim_out_char(o, '}');
	}
	csim_out_text(o, "],");
}

static void write_waits(const struct csim_model *m, struct csim_out *o,
			const struct csim_path_core *c)
{
	csim_json_key(o, "wait");
	csim_out_char(o, '[');
	for (size_t k = 0; k < c->nwait; k++) {
		const struct csim_path_wait *w = &m->path.waits[c->wait0 + k];

		csim_out_text(o, k ? ",{" : "{");
		csim_json_key(o, "producer");
		csim_json_pipe(m, o, w->producer);
		csim_out_char(o, ',');
		csim_json_key(o, "consumer");
		csim_json_pipe(m, o, w->consumer);
		csim_out_char(o, ',');
		csim_json_int_member(o, "ns", w->ns);
		csim_json_key(o, "share");
		csim_json_share(o, w->ns, c->span_ns);
		csim_out_char(o, '}');
	}
	csim_out_text(o, "],");
}

/* pc_addr (as the trace writes it), name and source of an instruction (event_table.h). */
static void write_instr(const struct csim_model *m, struct csim_out *o, uint32_t id)
{
	const struct csim_instr_key k = csim_table_instr_key(&m->table, id);
	const char *line = NULL;
	uint64_t addr;
	size_t n = 0;

	csim_json_key(o, "pc_addr");
	if (k.pc_json.p != NULL)
		csim_out_bytes(o, k.pc_json.p, k.pc_json.n);   /* JSON text as read */
	else
		csim_out_text(o, "null");
	if (csim_instr_key_address(&k, &addr))
		line = csim_instr_stats_source(&m->instr, addr, &n);
	csim_out_char(o, ',');
	csim_json_key(o, "name");
	csim_out_bytes(o, k.name_json.p, k.name_json.n);
	csim_out_char(o, ',');
	csim_json_key(o, "source");
	if (line != NULL)
		csim_out_json_string(o, line, n);
	else
		csim_out_text(o, "null");
	csim_out_char(o, ',');
}

static void write_top(const struct csim_model *m, struct csim_out *o,
		      const struct csim_path_core *c)
{
	csim_json_key(o, "top_instructions");
	csim_out_char(o, '[');
	for (size_t k = 0; k < c->ntop; k++) {
		const struct csim_path_instr *t = &m->path.top[c->top0 + k];

		csim_out_text(o, k ? ",{" : "{");
		write_instr(m, o, t->instr);
		csim_json_int_member(o, "ns", t->ns);
		csim_json_int_member(o, "busy_ns", t->busy_ns);
		csim_json_int_member(o, "released_ns", t->released_ns);
		csim_json_key(o, "share");
		csim_json_share(o, t->ns, c->span_ns);
		csim_out_char(o, '}');
	}
	csim_out_text(o, "],");
}

static void write_what_if(const struct csim_model *m, struct csim_out *o,
			  const struct csim_path_core *c)
{
	csim_json_key(o, "what_if");
	csim_out_char(o, '[');
	for (size_t k = 0; k < c->nwhat_if; k++) {
		const struct csim_path_what_if *e = &m->path.what_if[c->what_if0 + k];

		csim_out_text(o, k ? ",{" : "{");
		csim_json_key(o, "pipe");
		csim_json_pipe(m, o, e->pipe);
		csim_out_char(o, ',');
		csim_json_int_member(o, "span_ns", e->span_ns);
		csim_json_key(o, "change");
		out_change(o, e->span_ns - c->span_ns, c->span_ns);
		csim_out_char(o, '}');
	}
	csim_out_char(o, ']');
}

void csim_summary_path_write(const struct csim_model *m, struct csim_out *o, size_t core)
{
	const struct csim_path_core *c;

	if (core >= m->path.ncores)
		return;
	c = &m->path.cores[core];
	csim_out_text(o, ",\n  ");
	csim_json_key(o, "critical_path");
	csim_out_char(o, '{');
	csim_json_int_member(o, "span_ns", c->span_ns);
	csim_json_uint_member(o, "segments", c->nseg);
	write_busy(m, o, c);
	write_waits(m, o, c);
	csim_json_int_member(o, "cross_core_wait_ns", c->cross_ns);
	csim_json_int_member(o, "issue_ns", c->issue_ns);
	write_top(m, o, c);
	write_what_if(m, o, c);
	csim_out_char(o, '}');
}

void csim_summary_path_kernel_write(const struct csim_model *m, struct csim_out *o)
{
	const struct csim_path *p = &m->path;
	int64_t span = m->summary.max_span_ns;

	csim_out_char(o, ',');
	csim_json_key(o, "what_if");
	csim_out_char(o, '[');
	for (size_t k = 0; k < p->nkernel; k++) {
		const struct csim_path_kernel_what_if *e = &p->kernel[k];

		csim_out_text(o, k ? ",{" : "{");
		csim_json_key(o, "pipe");
		csim_json_pipe(m, o, e->pipe);
		csim_out_char(o, ',');
		csim_json_int_member(o, "span_ns", e->span_ns);
		csim_json_key(o, "change");
		out_change(o, e->span_ns - span, span);
		csim_out_char(o, ',');
		csim_json_key(o, "core");
		csim_json_pid(m, o, m->summary.cores[e->core].pid);
		csim_out_char(o, '}');
	}
	csim_out_char(o, ']');
}
