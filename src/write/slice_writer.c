#include "write/slice_writer.h"

#include <string.h>

#include "read/event_args.h"
#include "read/event_scan.h"

void csim_slice_writer_init(struct csim_slice_writer *w, const struct csim_model *m,
			    struct csim_out *out)
{
	memset(w, 0, sizeof(*w));
	w->m = m;
	w->out = out;
	w->first = 1;
}

void csim_slice_writer_release(struct csim_slice_writer *w)
{
	csim_json_stack_release(&w->stack);
}

void csim_slice_writer_next(struct csim_slice_writer *w)
{
	csim_out_text(w->out, w->first ? "\n" : ",\n");
	w->first = 0;
}

/* A run's label (--run all) makes every pid a string naming the run. */
void csim_slice_writer_pid(struct csim_slice_writer *w, uint32_t pid)
{
	size_t n;
	const char *raw;

	if (w->m->run_label != 0) {
		raw = w->m->table.pid_names[pid];
		csim_out_json_string(w->out, raw, strlen(raw));
		return;
	}
	raw = csim_strtab_get(&w->m->table.pids, pid, &n);
	csim_out_bytes(w->out, raw, n);
}

void csim_slice_writer_meta(struct csim_slice_writer *w, const char *name, uint32_t pid)
{
	csim_slice_writer_next(w);
	csim_out_text(w->out, "{\"name\":\"");
	csim_out_text(w->out, name);
	csim_out_text(w->out, "\",\"ph\":\"M\",\"pid\":");
	csim_slice_writer_pid(w, pid);
}

void csim_slice_writer_tid(struct csim_slice_writer *w, uint32_t pipe, uint32_t sub)
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

static void put_field(struct csim_slice_writer *w, const char *key, struct csim_span v)
{
	csim_out_text(w->out, key);
	csim_out_bytes(w->out, v.p, v.n);
}

/*
 * The source line to add to args, if its pc_addr has one (SPEC §6, §10) and
 * it has no "source" yet. Looked up before anything of the row is written,
 * so that a failure leaves no part of it behind.
 */
static int source_of(struct csim_slice_writer *w, struct csim_span args,
		     const char **line, size_t *n, struct csim_error *err)
{
	uint64_t addr;
	int has_source, found;

	*line = NULL;
	*n = 0;
	if (args.p == NULL || w->m->instr.nlines + w->m->instr.nranges == 0)
		return CSIM_OK;
	found = csim_event_pc_addr(&w->stack, args, &addr, &has_source);
	if (found < 0)
		return csim_error_nomem(err, CSIM_E_OUTPUT);
	if (found && !has_source)
		*line = csim_instr_stats_source(&w->m->instr, addr, n);
	return CSIM_OK;
}

/* args as read, plus "source":"file:line" as its last member. */
static void put_args(struct csim_slice_writer *w, struct csim_span args,
		     const char *line, size_t n)
{
	const char *close;

	if (line == NULL) {
		put_field(w, ",\"args\":", args);
		return;
	}
	/* args is a validated object: its last byte is the closing brace */
	close = args.p + args.n - 1;
	csim_out_text(w->out, ",\"args\":");
	csim_out_bytes(w->out, args.p, args.n - 1);
	csim_out_text(w->out, csim_json_skip_ws(args.p + 1, close) == close ? "\"source\":"
									: ",\"source\":");
	csim_out_json_string(w->out, line, n);
	csim_out_char(w->out, '}');
}

static int write_slice(struct csim_slice_writer *w, const struct csim_event *ev,
		       const struct csim_slice *s, struct csim_error *err)
{
	struct csim_span args = ev->field[CSIM_F_ARGS];
	const char *line;
	size_t n;
	int rc = source_of(w, args, &line, &n, err);

	if (rc != CSIM_OK)
		return rc;
	csim_slice_writer_next(w);
	put_field(w, "{\"name\":", ev->field[CSIM_F_NAME]);
	csim_out_text(w->out, ",\"ph\":\"X\"");
	if (w->m->run_label != 0) {
		csim_out_text(w->out, ",\"pid\":");
		csim_slice_writer_pid(w, s->pid);
	} else {
		put_field(w, ",\"pid\":", ev->field[CSIM_F_PID]);
	}
	csim_out_text(w->out, ",\"tid\":");
	csim_slice_writer_tid(w, s->pipe, s->sublane);
	put_field(w, ",\"ts\":", ev->field[CSIM_F_TS]);
	if (ev->field[CSIM_F_DUR].p != NULL)
		put_field(w, ",\"dur\":", ev->field[CSIM_F_DUR]);
	csim_out_text(w->out, ",\"cname\":\"");
	csim_out_text(w->out, w->m->pipes[s->pipe].info->cname);
	csim_out_char(w->out, '"');
	if (args.p != NULL)
		put_args(w, args, line, n);
	csim_out_char(w->out, '}');
	return CSIM_OK;
}

int csim_slice_writer_rows(struct csim_slice_writer *w, struct csim_slice_reader *r,
			   size_t *done, struct csim_error *err)
{
	int rc = CSIM_OK;

	*done = r->loc;
	/* A write error stops the loop; commit reports it. */
	while (rc == CSIM_OK && !csim_out_failed(w->out)) {
		struct csim_event ev;
		size_t row;
		int has;

		rc = csim_slice_reader_next(r, &row, &ev, &has, err);
		if (rc != CSIM_OK || !has)
			break;
		if (csim_cut_in(w->m->cut.slice_in, row))
			rc = write_slice(w, &ev, &w->m->table.slices[row], err);
		if (rc == CSIM_OK)
			*done = r->loc;
	}
	if (rc == CSIM_OK)
		*done = r->loc_end;
	return rc;
}
