#include "write/trace_writer.h"

#include <string.h>

#include "write/lane_label.h"
#include "write/out_file.h"
#include "write/path_lane.h"
#include "write/slice_writer.h"
#include "write/trace_split.h"

static void write_process_meta(struct csim_slice_writer *w, uint32_t pid, size_t rank)
{
	const char *name = w->m->table.pid_names[pid];

	csim_slice_writer_meta(w, "process_name", pid);
	csim_out_text(w->out, ",\"args\":{\"name\":");
	csim_out_json_string(w->out, name, strlen(name));
	csim_out_text(w->out, "}}");
	csim_slice_writer_meta(w, "process_sort_index", pid);
	csim_out_text(w->out, ",\"args\":{\"sort_index\":");
	csim_out_uint(w->out, rank);
	csim_out_text(w->out, "}}");
}

static void write_thread_meta(struct csim_slice_writer *w, const struct csim_thread *th)
{
	const struct csim_lane *lane = &w->m->lanes[th->lane];
	const char *head, *tail;
	size_t head_n, tail_n;

	csim_lane_label(w->m, lane, &head, &head_n, &tail, &tail_n);
	csim_slice_writer_meta(w, "thread_name", lane->pid);
	csim_out_text(w->out, ",\"tid\":");
	csim_slice_writer_tid(w, lane->pipe, th->sub);
	csim_out_text(w->out, ",\"args\":{\"name\":\"");
	csim_out_json_escaped(w->out, head, head_n);
	if (tail != NULL) {
		csim_out_char(w->out, ' ');
		csim_out_json_escaped(w->out, tail, tail_n);
	}
	if (th->sub != 0) {
		csim_out_text(w->out, " #");
		csim_out_uint(w->out, th->sub);
	}
	/* Beyond the pipe's depth a sub-lane holds no instruction in flight
	   with the others: it is there because Perfetto rounds start and
	   duration apart (SPEC §4). */
	if (th->sub != 0 && th->sub >= lane->depth)
		csim_out_text(w->out, " (rounding)");
	csim_out_text(w->out, "\"}}");
	csim_slice_writer_meta(w, "thread_sort_index", lane->pid);
	csim_out_text(w->out, ",\"tid\":");
	csim_slice_writer_tid(w, lane->pipe, th->sub);
	csim_out_text(w->out, ",\"args\":{\"sort_index\":");
	csim_out_int(w->out, th->sort_index);
	csim_out_text(w->out, "}}");
}

/*
 * Metadata only for what the cut (--core, --window) leaves events on; the
 * processes ranked from `rank` on (the runs before have the ranks before).
 * A process's critical-path lane (path_lane.h) comes before its pipes.
 */
static void write_metadata(struct csim_slice_writer *w, size_t rank)
{
	const struct csim_model *m = w->m;
	const struct csim_cut *c = &m->cut;
	size_t t = 0, core = 0;

	for (size_t p = 0; p < m->nprocesses; p++) {
		uint32_t pid = m->processes[p];
		int has_path = csim_path_lane_core(m, &core, pid) != NULL;

		if (csim_cut_in(c->process_in, p)) {
			write_process_meta(w, pid, rank + p);
			if (has_path)
				csim_path_lane_meta(w, pid);
		}
		for (; t < m->nthreads && m->lanes[m->threads[t].lane].pid == pid; t++)
			if (csim_cut_in(c->thread_in, t))
				write_thread_meta(w, &m->threads[t]);
	}
}

/*
 * Second reading: the kept slices, in input order; a large trace's on two
 * threads (trace_split.h) unless told to stay on this one.
 */
static int write_slices(struct csim_slice_writer *w, const struct csim_slice_store *slices,
			uint64_t split_chunk, struct csim_error *err)
{
	struct csim_slice_reader reader;
	size_t done;
	int rc;

	if (split_chunk != 0 && !w->first)
		return csim_trace_split_write(w, slices, split_chunk, err);
	rc = csim_slice_reader_open(&reader, slices, w->m->table.slices, err);
	if (rc == CSIM_OK)
		rc = csim_slice_writer_rows(w, &reader, &done, err);
	csim_slice_reader_close(&reader);
	return rc;
}

/* Counters as read; a run's label (--run all) replaces their pid. */
static void write_counters(struct csim_slice_writer *w)
{
	const struct csim_table *t = &w->m->table;

	for (size_t i = 0; i < t->ncounters; i++) {
		const struct csim_counter *c = &t->counters[i];
		const char *text = t->counter_text + c->off;

		if (!csim_cut_in(w->m->cut.counter_in, i))
			continue;
		csim_slice_writer_next(w);
		if (w->m->run_label == 0 || c->pid_len == 0) {
			csim_out_bytes(w->out, text, c->len);
			continue;
		}
		csim_out_bytes(w->out, text, c->pid_at);
		csim_slice_writer_pid(w, c->pid);
		csim_out_bytes(w->out, text + c->pid_at + c->pid_len,
			       c->len - c->pid_at - c->pid_len);
	}
}

/*
 * The pipe pair of an arrow, "<P><sep><C>": its cat ("MTE2ToVECTOR", one
 * category per pair, so chrome://tracing's flow list filters by pair) and
 * the start of its name ("MTE2->VECTOR flag1").
 */
static void put_pipe_pair(struct csim_slice_writer *w, const struct csim_arrow *a,
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

static void put_arrow_cat_name(struct csim_slice_writer *w, const struct csim_arrow *a)
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
static void put_core_pipe(struct csim_slice_writer *w, uint32_t slice, uint32_t pipe)
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
static void put_intra_cat_name(struct csim_slice_writer *w, const struct csim_arrow *a)
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

static void write_arrow_end(struct csim_slice_writer *w, const struct csim_arrow *a,
			    uint64_t id, int is_start, int intra)
{
	const struct csim_slice *s =
		&w->m->table.slices[is_start ? a->producer : a->consumer];

	csim_slice_writer_next(w);
	csim_out_text(w->out, is_start ? "{\"ph\":\"s\",\"id\":" : "{\"ph\":\"f\",\"bp\":\"e\",\"id\":");
	csim_out_uint(w->out, id);
	if (intra)
		put_intra_cat_name(w, a);
	else
		put_arrow_cat_name(w, a);
	csim_out_text(w->out, ",\"pid\":");
	csim_slice_writer_pid(w, s->pid);
	csim_out_text(w->out, ",\"tid\":");
	csim_slice_writer_tid(w, s->pipe, s->sublane);
	csim_out_text(w->out, ",\"ts\":");
	csim_out_half_ns_as_us(w->out, is_start ? a->s_half_ns : a->f_half_ns);
	csim_out_char(w->out, '}');
}

/*
 * In-core arrows, then cross-core ones (SPEC §5.6), ids going on from *id
 * over both; with a cut, over the arrows it keeps.
 */
static void write_arrows(struct csim_slice_writer *w, uint64_t *idp)
{
	const struct csim_model *m = w->m;
	uint64_t id = *idp;

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
	*idp = id;
}

int csim_trace_write(const struct csim_trace_input *in, struct csim_out *out,
		     struct csim_error *err)
{
	struct csim_slice_writer w;
	size_t rank = 0;
	uint64_t id = 0;
	int rc = CSIM_OK;

	csim_slice_writer_init(&w, in->parts[0].m, out);
	csim_out_text(w.out, "{\"displayTimeUnit\":\"ns\",\"profilingType\":");
	csim_out_text(w.out, in->profiling_type ? in->profiling_type : "\"op\"");
	csim_out_text(w.out, ",\"schemaVersion\":");
	csim_out_text(w.out, in->schema_version ? in->schema_version : "1");
	csim_out_text(w.out, ",\"traceEvents\":[");
	for (size_t i = 0; i < in->nparts; i++) {
		w.m = in->parts[i].m;
		write_metadata(&w, rank);
		rank += w.m->nprocesses;
	}
	for (size_t i = 0; i < in->nparts && rc == CSIM_OK; i++) {
		w.m = in->parts[i].m;
		rc = write_slices(&w, in->parts[i].slices, in->split_chunk, err);
	}
	csim_slice_writer_release(&w);
	if (rc != CSIM_OK)
		return rc;
	for (size_t i = 0; i < in->nparts; i++) {
		w.m = in->parts[i].m;
		csim_path_lane_write(&w);
	}
	for (size_t i = 0; i < in->nparts; i++) {
		w.m = in->parts[i].m;
		write_counters(&w);
	}
	for (size_t i = 0; i < in->nparts; i++) {
		w.m = in->parts[i].m;
		write_arrows(&w, &id);
	}
	csim_out_text(w.out, "\n]");
	csim_trace_meta_json(in->meta, w.out);
	csim_out_text(w.out, "}\n");
	return CSIM_OK;
}
