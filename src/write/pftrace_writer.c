#include "write/pftrace_writer.h"

#include <stdlib.h>
#include <string.h>

#include "read/event_args.h"
#include "read/event_scan.h"
#include "read/json_scan.h"
#include "write/lane_label.h"
#include "write/path_lane.h"
#include "write/pftrace_args.h"
#include "write/pftrace_counters.h"
#include "write/pftrace_packet.h"

/*
 * Bytes of args texts (and their encodings) the writer remembers: a loop's
 * instructions repeat theirs. Encoding each anew took the writer from
 * 70 M to 178 M instructions on the dense 20 MB dump (docs/performance.md);
 * past the budget, texts are encoded each time.
 */
#define ARGS_CACHE_BUDGET ((size_t)16 << 20)

/* TrackDescriptor's orderings: by sibling_order_rank. */
#define ORDERING_EXPLICIT 1

/* A flow's end on a row: the JSON's arrow id (SPEC §5.4). */
struct flow_end {
	uint32_t row;
	uint64_t id;
};

/* One run's model and the uuids it got. */
struct part {
	const struct csim_model *m;
	const struct csim_slice_store *slices;
	uint64_t proc0;           /* process p: proc0 + p (its pid number too) */
	uint64_t path0;           /* process p's critical-path lane */
	uint64_t track0;          /* track k (model/exact_tracks.h): track0 + k */
	unsigned char *used;      /* per track: a slice the cut keeps is on it */
	uint32_t *proc_of_pid;    /* per pid id: its process, or CSIM_NONE */
	struct flow_end *from, *to;   /* by row: producers, consumers */
	size_t nflows;
};

struct writer {
	struct csim_pf pf;
	struct part *parts;
	size_t nparts;
	int64_t shift;
	uint64_t next_uuid;
	struct csim_json_stack stack;      /* for args' pc_addr */
	struct csim_pf_args_cache args;    /* annotations by args text */
};

/* A time as written: shifted, and never negative (a path segment's grid
   time may lie a ns before the earliest exact one). */
static int64_t at(const struct writer *w, int64_t ns)
{
	return ns + w->shift > 0 ? ns + w->shift : 0;
}

/* ---- what the parts hold ---- */

static int add_flow(struct part *p, const struct csim_arrow *a, uint64_t id, size_t *n)
{
	p->from[*n] = (struct flow_end){ a->producer, id };
	p->to[*n] = (struct flow_end){ a->consumer, id };
	(*n)++;
	return 0;
}

static int flow_cmp(const void *a, const void *b)
{
	const struct flow_end *x = a, *y = b;

	if (x->row != y->row)
		return x->row < y->row ? -1 : 1;
	return x->id < y->id ? -1 : x->id > y->id;
}

/* The arrows the JSON writes, with its ids (going on from *id), by row. */
static int part_flows(struct part *p, uint64_t *id)
{
	const struct csim_model *m = p->m;
	size_t n = 0;

	p->from = calloc(m->narrows + m->nintra_arrows + 1, sizeof(*p->from));
	p->to = calloc(m->narrows + m->nintra_arrows + 1, sizeof(*p->to));
	if (p->from == NULL || p->to == NULL)
		return -1;
	for (size_t i = 0; i < m->narrows; i++)
		if (csim_cut_in(m->cut.arrow_in, i))
			add_flow(p, &m->arrows[i], ++*id, &n);
	for (size_t i = 0; i < m->nintra_arrows; i++)
		if (csim_cut_in(m->cut.intra_in, i))
			add_flow(p, &m->intra_arrows[i], ++*id, &n);
	p->nflows = n;
	qsort(p->from, n, sizeof(*p->from), flow_cmp);
	qsort(p->to, n, sizeof(*p->to), flow_cmp);
	return 0;
}

static int row_written(const struct csim_model *m, size_t row)
{
	return m->table.slices[row].kept && csim_cut_in(m->cut.slice_in, row);
}

/* Which tracks hold a slice the cut keeps; the earliest time written. */
static int part_tracks(struct part *p, int64_t *min)
{
	const struct csim_model *m = p->m;
	const struct csim_table *t = &m->table;

	p->used = calloc(m->tracks.total + 1, 1);
	p->proc_of_pid = malloc((t->pids.count + 1) * sizeof(*p->proc_of_pid));
	if (p->used == NULL || p->proc_of_pid == NULL)
		return -1;
	for (size_t i = 0; i < t->pids.count; i++)
		p->proc_of_pid[i] = CSIM_NONE;
	for (size_t i = 0; i < m->nprocesses; i++)
		p->proc_of_pid[m->processes[i]] = (uint32_t)i;
	for (size_t row = 0; row < t->nslices; row++) {
		int64_t b, e;

		if (!row_written(m, row))
			continue;
		p->used[m->tracks.row_track[row]] = 1;
		csim_exact_tracks_times(&m->tracks, t, row, &b, &e);
		*min = b < *min ? b : *min;
	}
	for (size_t i = 0; i < t->ncounters; i++) {
		int64_t ns;

		if (csim_cut_in(m->cut.counter_in, i) && csim_pf_counter_time(t, &t->counters[i], &ns))
			*min = ns < *min ? ns : *min;
	}
	return 0;
}

static int prepare(struct writer *w, const struct csim_trace_part *in, size_t n)
{
	int64_t min = 0;
	uint64_t id = 0;

	w->parts = calloc(n, sizeof(*w->parts));
	if (w->parts == NULL)
		return -1;
	w->nparts = n;
	w->next_uuid = 1;
	for (size_t i = 0; i < n; i++) {
		struct part *p = &w->parts[i];

		p->m = in[i].m;
		p->slices = in[i].slices;
		p->proc0 = w->next_uuid;
		p->path0 = p->proc0 + p->m->nprocesses;
		p->track0 = p->path0 + p->m->nprocesses;
		w->next_uuid = p->track0 + p->m->tracks.total;
		if (part_flows(p, &id) != 0 || part_tracks(p, &min) != 0)
			return -1;
	}
	w->shift = -min;
	return 0;
}

static void release(struct writer *w)
{
	for (size_t i = 0; i < w->nparts; i++) {
		free(w->parts[i].used);
		free(w->parts[i].proc_of_pid);
		free(w->parts[i].from);
		free(w->parts[i].to);
	}
	free(w->parts);
	csim_json_stack_release(&w->stack);
	csim_pf_args_cache_release(&w->args);
	csim_pf_release(&w->pf);
}

/* ---- tracks ---- */

static int put_root(struct writer *w, struct csim_error *err)
{
	struct csim_pb *pb = &w->pf.pkt;

	csim_pf_begin(&w->pf, -1);
	csim_pb_begin(pb, CSIM_PF_TRACK_DESCRIPTOR);
	csim_pb_uint(pb, CSIM_PF_TD_UUID, 0);
	csim_pb_uint(pb, CSIM_PF_TD_PROCESS_ORDERING, ORDERING_EXPLICIT);
	csim_pb_uint(pb, CSIM_PF_TD_THREAD_ORDERING, ORDERING_EXPLICIT);
	csim_pb_end(pb);
	return csim_pf_end(&w->pf, err);
}

/* A thread track: uuid, its process's pid, its rank; its name follows, then csim_pb_end twice. */
static void thread_head(struct writer *w, uint64_t uuid, uint64_t pid, int64_t rank)
{
	struct csim_pb *pb = &w->pf.pkt;

	csim_pf_begin(&w->pf, -1);
	csim_pb_begin(pb, CSIM_PF_TRACK_DESCRIPTOR);
	csim_pb_uint(pb, CSIM_PF_TD_UUID, uuid);
	csim_pb_int(pb, CSIM_PF_TD_RANK, rank);
	csim_pb_begin(pb, CSIM_PF_TD_THREAD);
	csim_pb_uint(pb, CSIM_PF_THREAD_PID, pid);
	csim_pb_uint(pb, CSIM_PF_THREAD_TID, uuid);
	csim_pb_begin(pb, CSIM_PF_THREAD_NAME);
}

static int thread_done(struct writer *w, struct csim_error *err)
{
	csim_pb_end(&w->pf.pkt);   /* the name */
	csim_pb_end(&w->pf.pkt);   /* the ThreadDescriptor */
	csim_pb_end(&w->pf.pkt);   /* the TrackDescriptor */
	return csim_pf_end(&w->pf, err);
}

/*
 * Track k of a lane: the JSON's label (its thread_name), " #k" past the
 * first, and "(points)" for a track only points (SPEC §4) need.
 */
static int put_track(struct writer *w, const struct part *p, const struct csim_thread *th,
		     uint32_t k, struct csim_error *err)
{
	const struct csim_model *m = p->m;
	const struct csim_lane *lane = &m->lanes[th->lane];
	const uint32_t track = m->tracks.first[th->lane] + k;
	struct csim_pb *pb = &w->pf.pkt;
	const char *head, *tail;
	size_t head_n, tail_n;
	char num[32];

	csim_lane_label(m, lane, &head, &head_n, &tail, &tail_n);
	thread_head(w, p->track0 + track, p->proc0 + p->proc_of_pid[lane->pid],
		    (int64_t)th->sort_index + k);
	csim_pb_raw(pb, head, head_n);
	if (tail != NULL) {
		csim_pb_raw(pb, " ", 1);
		csim_pb_raw(pb, tail, tail_n);
	}
	if (k > 0)
		csim_pb_raw(pb, num, (size_t)snprintf(num, sizeof(num), " #%u", (unsigned)k));
	if (k > 0 && k >= m->tracks.depth[th->lane])
		csim_pb_raw(pb, " (points)", 9);
	return thread_done(w, err);
}

static int put_path_lane(struct writer *w, const struct part *p, size_t proc,
			 struct csim_error *err)
{
	thread_head(w, p->path0 + proc, p->proc0 + proc, CSIM_PATH_LANE_SORT_INDEX);
	csim_pb_raw(&w->pf.pkt, CSIM_PATH_LANE_TID, strlen(CSIM_PATH_LANE_TID));
	return thread_done(w, err);
}

/* A process's lanes: its critical path, then each pipe's tracks in the JSON's order. */
static int put_lanes(struct writer *w, const struct part *p, size_t proc, size_t *t,
		     size_t *next_path, struct csim_error *err)
{
	const struct csim_model *m = p->m;
	const uint32_t pid = m->processes[proc];
	int rc = CSIM_OK;

	if (csim_path_lane_core(m, next_path, pid) != NULL &&
	    csim_cut_in(m->cut.process_in, proc))
		rc = put_path_lane(w, p, proc, err);
	for (; rc == CSIM_OK && *t < m->nthreads && m->lanes[m->threads[*t].lane].pid == pid;
	     (*t)++) {
		const struct csim_thread *th = &m->threads[*t];

		if (th->sub != 0)
			continue;
		for (uint32_t k = 0; rc == CSIM_OK && k < m->tracks.ntracks[th->lane]; k++)
			if (p->used[m->tracks.first[th->lane] + k])
				rc = put_track(w, p, th, k, err);
	}
	return rc;
}

static int put_tracks(struct writer *w, struct csim_error *err)
{
	size_t rank = 0;
	int rc = put_root(w, err);

	for (size_t i = 0; i < w->nparts && rc == CSIM_OK; i++) {
		const struct part *p = &w->parts[i];
		const struct csim_model *m = p->m;
		size_t t = 0, next_path = 0;

		for (size_t proc = 0; proc < m->nprocesses && rc == CSIM_OK; proc++) {
			if (csim_cut_in(m->cut.process_in, proc)) {
				csim_pf_process(&w->pf, p->proc0 + proc,
						m->table.pid_names[m->processes[proc]], rank + proc);
				rc = csim_pf_end(&w->pf, err);
			}
			if (rc == CSIM_OK)
				rc = put_lanes(w, p, proc, &t, &next_path, err);
		}
		rank += m->nprocesses;
	}
	return rc;
}

/* ---- slices ---- */

static void event_head(struct writer *w, int type, uint64_t track)
{
	csim_pb_begin(&w->pf.pkt, CSIM_PF_TRACK_EVENT);
	csim_pb_uint(&w->pf.pkt, CSIM_PF_EV_TYPE, (uint64_t)type);
	csim_pb_uint(&w->pf.pkt, CSIM_PF_EV_TRACK_UUID, track);
}

static int is_instant(const struct csim_table *t, size_t row)
{
	int64_t b, e;

	csim_table_exact(t, row, &b, &e);
	return e <= b;
}

/*
 * Every slice's end before any begin: at one time Perfetto takes events in
 * file order, and a slice that ends where the next of its track begins
 * must close before that one opens (docs/perfetto.md).
 */
static int put_ends(struct writer *w, const struct part *p, struct csim_error *err)
{
	const struct csim_model *m = p->m;
	const struct csim_table *t = &m->table;
	int rc = CSIM_OK;

	for (size_t row = 0; row < t->nslices && rc == CSIM_OK; row++) {
		int64_t b, e;

		if (!row_written(m, row) || is_instant(t, row))
			continue;
		csim_exact_tracks_times(&m->tracks, t, row, &b, &e);
		csim_pf_begin(&w->pf, at(w, e));
		event_head(w, CSIM_PF_END, p->track0 + m->tracks.row_track[row]);
		csim_pb_end(&w->pf.pkt);
		rc = csim_pf_end(&w->pf, err);
	}
	return rc;
}

/* The flow ids of a row among ends[*i..n) (by row), moving *i past them. */
static void put_flows(struct writer *w, const struct flow_end *ends, size_t n, size_t *i,
		      size_t row, uint32_t field)
{
	while (*i < n && ends[*i].row < row)
		(*i)++;
	for (; *i < n && ends[*i].row == row; (*i)++)
		csim_pb_fixed64(&w->pf.pkt, field, ends[*i].id);
}

/* args' source line where the JSON adds one (SPEC §6, §10). */
static int put_source(struct writer *w, const struct csim_model *m, struct csim_span args)
{
	uint64_t addr;
	int has_source, found;
	const char *line;
	size_t n;

	if (args.p == NULL || m->instr.nlines + m->instr.nranges == 0)
		return 0;
	found = csim_event_pc_addr(&w->stack, args, &addr, &has_source);
	if (found < 0)
		return -1;
	line = found && !has_source ? csim_instr_stats_source(&m->instr, addr, &n) : NULL;
	if (line != NULL)
		csim_pf_string_arg(&w->pf, "source", line, n);
	return 0;
}

/* args and their source line: as the same args text gave them before, or anew. */
static int put_annotations(struct writer *w, const struct csim_model *m, struct csim_span args)
{
	const size_t from = w->pf.pkt.len;
	uint32_t slot;

	if (args.p == NULL || csim_pf_args_cached(&w->pf, &w->args, args, &slot))
		return 0;
	csim_pf_args(&w->pf, args);
	if (put_source(w, m, args) != 0)
		return -1;
	csim_pf_args_cache_keep(&w->pf, &w->args, slot, from);
	return 0;
}

static int put_begin(struct writer *w, const struct part *p, size_t row,
		     const struct csim_event *ev, size_t *fi, size_t *ti, struct csim_error *err)
{
	const struct csim_model *m = p->m;
	const struct csim_span name = ev->field[CSIM_F_NAME];
	const int instant = is_instant(&m->table, row);
	int64_t b, e;
	const char *s;
	size_t n;

	csim_exact_tracks_times(&m->tracks, &m->table, row, &b, &e);
	csim_pf_begin(&w->pf, at(w, b));
	event_head(w, instant ? CSIM_PF_INSTANT : CSIM_PF_BEGIN,
		   p->track0 + m->tracks.row_track[row]);
	s = csim_pf_decode(&w->pf, name.p + 1, name.n - 2, &n);
	if (s != NULL)
		csim_pb_uint(&w->pf.pkt, CSIM_PF_EV_NAME_IID, csim_pf_name(&w->pf, s, n));
	if (put_annotations(w, m, ev->field[CSIM_F_ARGS]) != 0)
		return csim_error_nomem(err, CSIM_E_OUTPUT);
	put_flows(w, p->from, p->nflows, fi, row, CSIM_PF_EV_FLOW_IDS);
	put_flows(w, p->to, p->nflows, ti, row, CSIM_PF_EV_TERMINATING_FLOW_IDS);
	csim_pb_end(&w->pf.pkt);
	return csim_pf_end(&w->pf, err);
}

/*
 * Second reading: the begins, in input order. The args cache starts empty
 * for each run: a source line is the run's (its API_INSTR's), so the same
 * args text may gain another in the next run.
 */
static int put_begins(struct writer *w, const struct part *p, struct csim_error *err)
{
	struct csim_slice_reader reader;
	size_t fi = 0, ti = 0;
	int rc = csim_slice_reader_open(&reader, p->slices, p->m->table.slices, err);

	csim_pf_args_cache_release(&w->args);
	csim_pf_args_cache_init(&w->args, ARGS_CACHE_BUDGET);

	while (rc == CSIM_OK && !csim_out_failed(w->pf.out)) {
		struct csim_event ev;
		size_t row;
		int has;

		rc = csim_slice_reader_next(&reader, &row, &ev, &has, err);
		if (rc != CSIM_OK || !has)
			break;
		if (row_written(p->m, row))
			rc = put_begin(w, p, row, &ev, &fi, &ti, err);
	}
	csim_slice_reader_close(&reader);
	return rc;
}

/* ---- the critical path ---- */

static int put_segment(struct writer *w, const struct part *p, size_t proc,
		       const struct csim_path_seg *g, struct csim_error *err)
{
	const struct csim_model *m = p->m;
	const uint64_t track = p->path0 + proc;
	char small[256], *name = small;
	size_t n = csim_path_lane_name(m, g, small, sizeof(small));
	int rc;

	if (n > sizeof(small)) {   /* pipes with long names */
		name = malloc(n);
		if (name == NULL)
			return csim_error_nomem(err, CSIM_E_OUTPUT);
		(void)csim_path_lane_name(m, g, name, n);
	}
	csim_pf_begin(&w->pf, at(w, g->start));
	event_head(w, CSIM_PF_BEGIN, track);
	csim_pb_uint(&w->pf.pkt, CSIM_PF_EV_NAME_IID, csim_pf_name(&w->pf, name, n));
	if (name != small)
		free(name);
	if (g->kind == CSIM_SEG_CROSS && g->producer != CSIM_NONE) {
		const char *core = m->table.pid_names[m->table.slices[g->producer].pid];
		size_t pn;
		const char *pipe = g->producer_pipe == CSIM_NONE
				   ? "?" : csim_strtab_get(&m->table.pipes, g->producer_pipe, &pn);

		if (g->producer_pipe == CSIM_NONE)
			pn = 1;
		csim_pf_string_arg(&w->pf, "core", core, strlen(core));
		csim_pf_string_arg(&w->pf, "pipe", pipe, pn);
	}
	csim_pb_end(&w->pf.pkt);
	rc = csim_pf_end(&w->pf, err);
	if (rc != CSIM_OK)
		return rc;
	csim_pf_begin(&w->pf, at(w, g->end));
	event_head(w, CSIM_PF_END, track);
	csim_pb_end(&w->pf.pkt);
	return csim_pf_end(&w->pf, err);
}

static int put_path(struct writer *w, const struct part *p, struct csim_error *err)
{
	const struct csim_model *m = p->m;
	size_t next = 0;
	int rc = CSIM_OK;

	for (size_t proc = 0; proc < m->nprocesses && rc == CSIM_OK; proc++) {
		const struct csim_path_core *c = csim_path_lane_core(m, &next, m->processes[proc]);

		if (c == NULL || !csim_cut_in(m->cut.process_in, proc))
			continue;
		for (size_t k = 0; k < c->nseg && rc == CSIM_OK; k++)
			rc = put_segment(w, p, proc, &m->path.segs[c->seg0 + k], err);
	}
	return rc;
}

/* After every slice, as the JSON has them after its slices. */
static int put_counters(struct writer *w, struct csim_error *err)
{
	struct csim_pf_counters c;
	size_t rank = 0;
	int rc = CSIM_OK;

	for (size_t i = 0; i < w->nparts; i++)
		rank += w->parts[i].m->nprocesses;
	csim_pf_counters_init(&c, w->next_uuid, rank, w->shift);
	for (size_t i = 0; i < w->nparts && rc == CSIM_OK; i++) {
		const struct part *p = &w->parts[i];
		const struct csim_pf_counter_run run = { p->m, i, p->proc_of_pid, p->proc0 };

		rc = csim_pf_counters_write(&c, &w->pf, &run, err);
	}
	csim_pf_counters_release(&c);
	return rc;
}

/* One ChromeMetadata: a whole number as int_value, any other fact as a string. */
static void put_fact(struct csim_pb *pb, const struct csim_meta_fact *f, char *scratch)
{
	csim_pb_begin(pb, CSIM_PF_BUNDLE_METADATA);
	csim_pb_bytes(pb, CSIM_PF_META_NAME, f->key, strlen(f->key));
	switch (f->kind) {
	case CSIM_META_STRING:
		csim_pb_bytes(pb, CSIM_PF_META_STRING, f->value.p, f->value.n);
		break;
	case CSIM_META_ESCAPED:
		csim_pb_bytes(pb, CSIM_PF_META_STRING, scratch,
			      csim_json_unescape(f->value.p, f->value.n, scratch));
		break;
	case CSIM_META_NUMBER:
		if (strchr(f->num, '.') == NULL)
			csim_pb_int(pb, CSIM_PF_META_INT, strtoll(f->num, NULL, 10));
		else
			csim_pb_bytes(pb, CSIM_PF_META_STRING, f->num, strlen(f->num));
		break;
	}
	csim_pb_end(pb);
}

/* The trace's metadata, the JSON's "metadata" object (docs/perfetto.md). */
static int put_meta(struct writer *w, const struct csim_trace_meta *meta,
		    struct csim_error *err)
{
	struct csim_pb *pb = &w->pf.pkt;
	size_t longest = 1;
	char *scratch;
	int rc;

	for (size_t i = 0; i < meta->n; i++)
		if (meta->fact[i].value.n > longest)
			longest = meta->fact[i].value.n;
	scratch = malloc(longest);
	if (scratch == NULL)
		return csim_error_nomem(err, CSIM_E_OUTPUT);
	csim_pf_begin(&w->pf, -1);
	csim_pb_begin(pb, CSIM_PF_CHROME_EVENTS);
	for (size_t i = 0; i < meta->n; i++)
		put_fact(pb, &meta->fact[i], scratch);
	csim_pb_end(pb);
	rc = csim_pf_end(&w->pf, err);
	free(scratch);
	return rc;
}

int csim_pftrace_write(const struct csim_trace_part *parts, size_t nparts,
		       const struct csim_trace_meta *meta, struct csim_out *out,
		       struct csim_pftrace_result *res, struct csim_error *err)
{
	struct writer w;
	int rc;

	memset(&w, 0, sizeof(w));
	csim_pf_init(&w.pf, out);
	csim_pf_args_cache_init(&w.args, ARGS_CACHE_BUDGET);
	rc = prepare(&w, parts, nparts) == 0 ? CSIM_OK : csim_error_nomem(err, CSIM_E_OUTPUT);
	if (rc == CSIM_OK)
		rc = put_tracks(&w, err);
	for (size_t i = 0; i < w.nparts && rc == CSIM_OK; i++)
		rc = put_ends(&w, &w.parts[i], err);
	for (size_t i = 0; i < w.nparts && rc == CSIM_OK; i++)
		rc = put_begins(&w, &w.parts[i], err);
	for (size_t i = 0; i < w.nparts && rc == CSIM_OK; i++)
		rc = put_path(&w, &w.parts[i], err);
	if (rc == CSIM_OK)
		rc = put_counters(&w, err);
	if (rc == CSIM_OK)
		rc = put_meta(&w, meta, err);
	res->shift = w.shift;
	release(&w);
	return rc;
}
