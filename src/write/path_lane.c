#include "write/path_lane.h"

#include <string.h>

#include "write/json_members.h"

const struct csim_path_core *csim_path_lane_core(const struct csim_model *m, size_t *next,
						 uint32_t pid)
{
	const struct csim_summary *s = &m->summary;
	const struct csim_path_core *c;

	/* The summary lists the trace's processes first, in process order
	   (pass_summary.h); a process without instructions has no core. */
	if (*next >= s->ncores || *next >= m->path.ncores || s->cores[*next].pid != pid)
		return NULL;
	c = &m->path.cores[(*next)++];
	return c->nseg > 0 ? c : NULL;
}

void csim_path_lane_meta(struct csim_slice_writer *w, uint32_t pid)
{
	csim_slice_writer_meta(w, "thread_name", pid);
	csim_out_text(w->out, ",\"tid\":\"" CSIM_PATH_LANE_TID "\",\"args\":{\"name\":\""
		      CSIM_PATH_LANE_TID "\"}}");
	csim_slice_writer_meta(w, "thread_sort_index", pid);
	csim_out_text(w->out, ",\"tid\":\"" CSIM_PATH_LANE_TID "\",\"args\":{\"sort_index\":");
	csim_out_int(w->out, CSIM_PATH_LANE_SORT_INDEX);
	csim_out_text(w->out, "}}");
}

/* A pipe's name as JSON text, or "?" for a pipe the flag does not name. */
static void put_pipe(struct csim_slice_writer *w, uint32_t pipe)
{
	size_t n;
	const char *name;

	if (pipe == CSIM_NONE) {
		csim_out_char(w->out, '?');
		return;
	}
	name = csim_strtab_get(&w->m->table.pipes, pipe, &n);
	csim_out_json_escaped(w->out, name, n);
}

/* The segment's name, in the words of the summary table's path line. */
static void put_segment_name(struct csim_slice_writer *w, const struct csim_path_seg *g)
{
	csim_out_char(w->out, '"');
	switch (g->kind) {
	case CSIM_SEG_BUSY:
		put_pipe(w, g->pipe);
		break;
	case CSIM_SEG_WAIT:
		csim_out_text(w->out, "wait ");
		put_pipe(w, g->producer_pipe);
		csim_out_text(w->out, "->");
		put_pipe(w, g->pipe);
		break;
	case CSIM_SEG_CROSS:
		csim_out_text(w->out, "cross-core wait");
		break;
	default:
		csim_out_text(w->out, "issue");
		break;
	}
	csim_out_char(w->out, '"');
}

/*
 * cname, and args where the name does not say it all. Busy time takes its
 * pipe's colour; the waits and issue gaps take colours no pipe has, so the
 * eye finds them. The lane has about as many events as the pipes (an issue
 * gap between most instructions of a scalar-heavy kernel): no args that
 * repeat the name.
 */
static void put_segment_tail(struct csim_slice_writer *w, const struct csim_path_seg *g)
{
	const struct csim_model *m = w->m;

	switch (g->kind) {
	case CSIM_SEG_BUSY:
		csim_out_text(w->out, ",\"cname\":\"");
		csim_out_text(w->out, m->pipes[g->pipe].info->cname);
		csim_out_char(w->out, '"');
		break;
	case CSIM_SEG_WAIT:
		csim_out_text(w->out, ",\"cname\":\"thread_state_runnable\"");
		break;
	case CSIM_SEG_CROSS:
		csim_out_text(w->out, ",\"cname\":\"bad\"");
		if (g->producer != CSIM_NONE) {
			csim_out_text(w->out, ",\"args\":{\"core\":");
			csim_json_pid(m, w->out, m->table.slices[g->producer].pid);
			csim_out_text(w->out, ",\"pipe\":\"");
			put_pipe(w, g->producer_pipe);
			csim_out_text(w->out, "\"}");
		}
		break;
	default:
		csim_out_text(w->out, ",\"cname\":\"thread_state_unknown\"");
		break;
	}
}

/*
 * Whether a 1 ns segment at start reads as shorter than 1 ns: the viewers
 * and --check take ts and dur as doubles and compute (ts + dur) * 1000 -
 * ts * 1000, which for some starts falls a hair under 1, the threshold of a
 * point (SPEC §4) that needs a ns of room on both sides. start / 1000.0 is
 * the double nearest the decimal text, as the reader's strtod gives.
 */
static int reads_as_point(int64_t start)
{
	const double ts = (double)start / 1000.0, dur = 1.0 / 1000.0;

	return (ts + dur) * 1000.0 - ts * 1000.0 < 1.0;
}

static void put_segment(struct csim_slice_writer *w, uint32_t pid, const struct csim_path_seg *g)
{
	csim_slice_writer_next(w);
	csim_out_text(w->out, "{\"name\":");
	put_segment_name(w, g);
	csim_out_text(w->out, ",\"ph\":\"X\",\"pid\":");
	csim_slice_writer_pid(w, pid);
	csim_out_text(w->out, ",\"tid\":\"" CSIM_PATH_LANE_TID "\",\"ts\":");
	csim_out_half_ns_as_us(w->out, 2 * g->start);
	csim_out_text(w->out, ",\"dur\":");
	/* 1.0000001 ns: 1 on Perfetto's grid, and no point for catapult or
	   --check; the overlap with the next segment (1e-7 ns) is float noise. */
	if (g->end - g->start == 1 && reads_as_point(g->start))
		csim_out_text(w->out, "0.0010000001");
	else
		csim_out_half_ns_as_us(w->out, 2 * (g->end - g->start));
	put_segment_tail(w, g);
	csim_out_char(w->out, '}');
}

void csim_path_lane_write(struct csim_slice_writer *w)
{
	const struct csim_model *m = w->m;
	size_t next = 0;

	for (size_t p = 0; p < m->nprocesses; p++) {
		uint32_t pid = m->processes[p];
		const struct csim_path_core *c = csim_path_lane_core(m, &next, pid);

		if (c == NULL || !csim_cut_in(m->cut.process_in, p))
			continue;
		for (size_t k = 0; k < c->nseg; k++)
			put_segment(w, pid, &m->path.segs[c->seg0 + k]);
	}
}

/* Appends text to buf[at..cap), as far as it fits; the length it would take. */
static size_t put_text(char *buf, size_t at, size_t cap, const char *text, size_t n)
{
	if (at < cap)
		memcpy(buf + at, text, n < cap - at ? n : cap - at);
	return at + n;
}

static size_t put_pipe_text(const struct csim_model *m, uint32_t pipe, char *buf, size_t at,
			    size_t cap)
{
	size_t n;
	const char *name;

	if (pipe == CSIM_NONE)
		return put_text(buf, at, cap, "?", 1);
	name = csim_strtab_get(&m->table.pipes, pipe, &n);
	return put_text(buf, at, cap, name, n);
}

size_t csim_path_lane_name(const struct csim_model *m, const struct csim_path_seg *g,
			   char *buf, size_t cap)
{
	size_t at;

	switch (g->kind) {
	case CSIM_SEG_BUSY:
		return put_pipe_text(m, g->pipe, buf, 0, cap);
	case CSIM_SEG_WAIT:
		at = put_text(buf, 0, cap, "wait ", 5);
		at = put_pipe_text(m, g->producer_pipe, buf, at, cap);
		at = put_text(buf, at, cap, "->", 2);
		return put_pipe_text(m, g->pipe, buf, at, cap);
	case CSIM_SEG_CROSS:
		return put_text(buf, 0, cap, "cross-core wait", 15);
	default:
		return put_text(buf, 0, cap, "issue", 5);
	}
}
