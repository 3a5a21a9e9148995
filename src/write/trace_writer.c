#include "write/trace_writer.h"

#include <string.h>

#include "read/event_args.h"
#include "read/event_scan.h"
#include "read/json_scan.h"
#include "write/out_file.h"

struct writer {
	const struct csim_model *m;
	struct csim_out *out;
	int first;             /* no event written yet */
	struct csim_json_stack stack;   /* for reading args' pc_addr */
};

static void next_event(struct writer *w)
{
	csim_out_text(w->out, w->first ? "\n" : ",\n");
	w->first = 0;
}

static void put_pid(struct writer *w, uint32_t pid)
{
	size_t n;
	const char *raw = csim_strtab_get(&w->m->table.pids, pid, &n);

	csim_out_bytes(w->out, raw, n);
}

/* The thread id of a sub-lane: "MTE1", "MTE1#1", ... */
static void put_tid(struct writer *w, uint32_t pipe, uint32_t sub)
{
	size_t n;
	const char *name = csim_strtab_get(&w->m->table.pipes, pipe, &n);

	csim_out_char(w->out, '"');
	csim_out_json_escaped(w->out, name, n);
	if (sub != 0) {
		csim_out_char(w->out, '#');
		csim_out_uint(w->out, sub);
	}
	csim_out_char(w->out, '"');
}

static void put_meta_head(struct writer *w, const char *name, uint32_t pid)
{
	next_event(w);
	csim_out_text(w->out, "{\"name\":\"");
	csim_out_text(w->out, name);
	csim_out_text(w->out, "\",\"ph\":\"M\",\"pid\":");
	put_pid(w, pid);
}

static void write_process_meta(struct writer *w, uint32_t pid, size_t rank)
{
	const char *name = w->m->table.pid_names[pid];

	put_meta_head(w, "process_name", pid);
	csim_out_text(w->out, ",\"args\":{\"name\":");
	csim_out_json_string(w->out, name, strlen(name));
	csim_out_text(w->out, "}}");
	put_meta_head(w, "process_sort_index", pid);
	csim_out_text(w->out, ",\"args\":{\"sort_index\":");
	csim_out_uint(w->out, rank);
	csim_out_text(w->out, "}}");
}

static void write_thread_meta(struct writer *w, const struct csim_thread *th)
{
	const struct csim_lane *lane = &w->m->lanes[th->lane];
	size_t n;
	const char *pipe = csim_strtab_get(&w->m->table.pipes, lane->pipe, &n);
	/* A companion lane is named by its own name ("MTE2 cache"). */
	const char *label = csim_pipe_is_cache_lane(pipe, n) ? NULL
			    : w->m->pipes[lane->pipe].info->label;
	size_t num_n;
	const char *num = csim_pipe_label_number(pipe, n, &num_n);

	put_meta_head(w, "thread_name", lane->pid);
	csim_out_text(w->out, ",\"tid\":");
	put_tid(w, lane->pipe, th->sub);
	csim_out_text(w->out, ",\"args\":{\"name\":\"");
	if (label != NULL)
		csim_out_json_escaped(w->out, label, strlen(label));
	else
		csim_out_json_escaped(w->out, pipe, n);
	if (label != NULL && num != NULL) {
		csim_out_char(w->out, ' ');
		csim_out_json_escaped(w->out, num, num_n);
	}
	if (th->sub != 0) {
		csim_out_text(w->out, " #");
		csim_out_uint(w->out, th->sub);
	}
	csim_out_text(w->out, "\"}}");
	put_meta_head(w, "thread_sort_index", lane->pid);
	csim_out_text(w->out, ",\"tid\":");
	put_tid(w, lane->pipe, th->sub);
	csim_out_text(w->out, ",\"args\":{\"sort_index\":");
	csim_out_int(w->out, th->sort_index);
	csim_out_text(w->out, "}}");
}

/* Metadata only for what the cut (--core, --window) leaves events on. */
static void write_metadata(struct writer *w)
{
	const struct csim_model *m = w->m;
	const struct csim_cut *c = &m->cut;
	size_t t = 0;

	for (size_t p = 0; p < m->nprocesses; p++) {
		uint32_t pid = m->processes[p];

		if (csim_cut_in(c->process_in, p))
			write_process_meta(w, pid, p);
		for (; t < m->nthreads && m->lanes[m->threads[t].lane].pid == pid; t++)
			if (csim_cut_in(c->thread_in, t))
				write_thread_meta(w, &m->threads[t]);
	}
}

static void put_field(struct writer *w, const char *key, struct csim_span v)
{
	csim_out_text(w->out, key);
	csim_out_bytes(w->out, v.p, v.n);
}

/*
 * args as read, plus "source":"file:line" as its last member when its
 * pc_addr has a source line (SPEC §6, §10) and it has no "source" yet.
 */
static int put_args(struct writer *w, struct csim_span args, struct csim_error *err)
{
	const char *line = NULL, *close;
	size_t n = 0;
	uint64_t addr;
	int has_source, found;

	if (w->m->instr.nlines + w->m->instr.nranges > 0) {
		found = csim_event_pc_addr(&w->stack, args, &addr, &has_source);
		if (found < 0)
			return csim_error_nomem(err, CSIM_E_OUTPUT);
		if (found && !has_source)
			line = csim_instr_stats_source(&w->m->instr, addr, &n);
	}
	if (line == NULL) {
		put_field(w, ",\"args\":", args);
		return CSIM_OK;
	}
	/* args is a validated object: its last byte is the closing brace */
	close = args.p + args.n - 1;
	csim_out_text(w->out, ",\"args\":");
	csim_out_bytes(w->out, args.p, args.n - 1);
	csim_out_text(w->out, csim_json_skip_ws(args.p + 1, close) == close ? "\"source\":"
									: ",\"source\":");
	csim_out_json_string(w->out, line, n);
	csim_out_char(w->out, '}');
	return CSIM_OK;
}

static int write_slice(struct writer *w, const struct csim_event *ev,
		       const struct csim_slice *s, struct csim_error *err)
{
	int rc = CSIM_OK;

	next_event(w);
	put_field(w, "{\"name\":", ev->field[CSIM_F_NAME]);
	csim_out_text(w->out, ",\"ph\":\"X\"");
	put_field(w, ",\"pid\":", ev->field[CSIM_F_PID]);
	csim_out_text(w->out, ",\"tid\":");
	put_tid(w, s->pipe, s->sublane);
	put_field(w, ",\"ts\":", ev->field[CSIM_F_TS]);
	if (ev->field[CSIM_F_DUR].p != NULL)
		put_field(w, ",\"dur\":", ev->field[CSIM_F_DUR]);
	csim_out_text(w->out, ",\"cname\":\"");
	csim_out_text(w->out, w->m->pipes[s->pipe].info->cname);
	csim_out_char(w->out, '"');
	if (ev->field[CSIM_F_ARGS].p != NULL)
		rc = put_args(w, ev->field[CSIM_F_ARGS], err);
	csim_out_char(w->out, '}');
	return rc;
}

/* Second reading: the kept slices, in input order. */
static int write_slices(struct writer *w, const struct csim_slice_store *store,
			struct csim_error *err)
{
	struct csim_slice_reader reader;
	int rc = csim_slice_reader_open(&reader, store, w->m->table.slices, err);

	while (rc == CSIM_OK && !csim_out_failed(w->out)) {
		struct csim_event ev;
		size_t row;
		int has;

		rc = csim_slice_reader_next(&reader, &row, &ev, &has, err);
		if (rc != CSIM_OK || !has)
			break;
		if (csim_cut_in(w->m->cut.slice_in, row))
			rc = write_slice(w, &ev, &w->m->table.slices[row], err);
	}
	/* A write error stops the loop; commit reports it. */
	csim_slice_reader_close(&reader);
	return rc;
}

static void write_counters(struct writer *w)
{
	const struct csim_table *t = &w->m->table;

	for (size_t i = 0; i < t->ncounters; i++) {
		if (!csim_cut_in(w->m->cut.counter_in, i))
			continue;
		next_event(w);
		csim_out_bytes(w->out, t->counter_text + t->counters[i].off,
			       t->counters[i].len);
	}
}

/*
 * The pipe pair of an arrow, "<P><sep><C>": its cat ("MTE2ToVECTOR", one
 * category per pair, so chrome://tracing's flow list filters by pair) and
 * the start of its name ("MTE2->VECTOR flag1").
 */
static void put_pipe_pair(struct writer *w, const struct csim_arrow *a,
			  const char *sep)
{
	const struct csim_table *t = &w->m->table;
	size_t pn, cn;
	const char *p = csim_strtab_get(&t->pipes, a->producer_pipe, &pn);
	const char *c = csim_strtab_get(&t->pipes, a->consumer_pipe, &cn);

	csim_out_json_escaped(w->out, p, pn);
	csim_out_text(w->out, sep);
	csim_out_json_escaped(w->out, c, cn);
}

static void put_arrow_cat_name(struct writer *w, const struct csim_arrow *a)
{
	csim_out_text(w->out, ",\"cat\":\"");
	put_pipe_pair(w, a, "To");
	csim_out_text(w->out, "\",\"name\":\"");
	put_pipe_pair(w, a, "->");
	if (a->has_flag_id) {
		csim_out_text(w->out, " flag");
		csim_out_uint(w->out, a->flag_id);
	}
	csim_out_char(w->out, '"');
}

/* "<pid>:<PIPE>": one side of a cross-core arrow's name. */
static void put_core_pipe(struct writer *w, uint32_t slice, uint32_t pipe)
{
	const struct csim_table *t = &w->m->table;
	const char *pid = t->pid_names[t->slices[slice].pid];
	size_t n;
	const char *name = csim_strtab_get(&t->pipes, pipe, &n);

	csim_out_json_escaped(w->out, pid, strlen(pid));
	csim_out_char(w->out, ':');
	csim_out_json_escaped(w->out, name, n);
}

/*
 * A cross-core arrow (SPEC §5.6): one cat for all, so they filter as one
 * group; the name says which cores and pipes, and the sync id.
 */
static void put_intra_cat_name(struct writer *w, const struct csim_arrow *a)
{
	csim_out_text(w->out, ",\"cat\":\"intra_block\",\"name\":\"");
	put_core_pipe(w, a->producer, a->producer_pipe);
	csim_out_text(w->out, " -> ");
	put_core_pipe(w, a->consumer, a->consumer_pipe);
	if (a->has_flag_id) {
		csim_out_text(w->out, " sync");
		csim_out_uint(w->out, a->flag_id);
	}
	csim_out_char(w->out, '"');
}

static void write_arrow_end(struct writer *w, const struct csim_arrow *a,
			    uint64_t id, int is_start, int intra)
{
	const struct csim_slice *s =
		&w->m->table.slices[is_start ? a->producer : a->consumer];

	next_event(w);
	csim_out_text(w->out, is_start ? "{\"ph\":\"s\",\"id\":" : "{\"ph\":\"f\",\"bp\":\"e\",\"id\":");
	csim_out_uint(w->out, id);
	if (intra)
		put_intra_cat_name(w, a);
	else
		put_arrow_cat_name(w, a);
	csim_out_text(w->out, ",\"pid\":");
	put_pid(w, s->pid);
	csim_out_text(w->out, ",\"tid\":");
	put_tid(w, s->pipe, s->sublane);
	csim_out_text(w->out, ",\"ts\":");
	csim_out_half_ns_as_us(w->out, is_start ? a->s_half_ns : a->f_half_ns);
	csim_out_char(w->out, '}');
}

/*
 * In-core arrows, then cross-core ones (SPEC §5.6), ids 1..n over both;
 * with a cut, over the arrows it keeps.
 */
static void write_arrows(struct writer *w)
{
	const struct csim_model *m = w->m;
	uint64_t id = 0;

	for (size_t i = 0; i < m->narrows; i++) {
		if (!csim_cut_in(m->cut.arrow_in, i))
			continue;
		id++;
		write_arrow_end(w, &m->arrows[i], id, 1, 0);
		write_arrow_end(w, &m->arrows[i], id, 0, 0);
	}
	for (size_t i = 0; i < m->nintra_arrows; i++) {
		if (!csim_cut_in(m->cut.intra_in, i))
			continue;
		id++;
		write_arrow_end(w, &m->intra_arrows[i], id, 1, 1);
		write_arrow_end(w, &m->intra_arrows[i], id, 0, 1);
	}
}

int csim_trace_write(const struct csim_model *m, const struct csim_trace_input *in,
		     struct csim_out *out, struct csim_error *err)
{
	struct writer w;
	int rc;

	memset(&w, 0, sizeof(w));
	w.m = m;
	w.out = out;
	w.first = 1;
	csim_out_text(w.out, "{\"displayTimeUnit\":\"ns\",\"profilingType\":");
	csim_out_text(w.out, in->profiling_type ? in->profiling_type : "\"op\"");
	csim_out_text(w.out, ",\"schemaVersion\":");
	csim_out_text(w.out, in->schema_version ? in->schema_version : "1");
	csim_out_text(w.out, ",\"traceEvents\":[");
	write_metadata(&w);
	rc = write_slices(&w, in->slices, err);
	csim_json_stack_release(&w.stack);
	if (rc != CSIM_OK)
		return rc;
	write_counters(&w);
	write_arrows(&w);
	csim_out_text(w.out, "\n]}\n");
	return CSIM_OK;
}
