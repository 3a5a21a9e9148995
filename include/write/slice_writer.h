/*
 * slice_writer: the trace's events, one at a time, and the X events of the
 * kept slice rows.
 *
 * A writer holds what every event of trace.clean.json needs: the model, the
 * output and whether an event was written yet (the separator). The trace
 * writer uses it for the metadata, counters and arrows; the rows of the
 * slice store's second reading go through csim_slice_writer_rows(), on the
 * main thread or, for a stretch of them, on trace_split's worker.
 */
#ifndef CSIM_SLICE_WRITER_H
#define CSIM_SLICE_WRITER_H

#include <stddef.h>
#include <stdint.h>

#include "base/csim_error.h"
#include "model/model.h"
#include "read/json_scan.h"
#include "read/slice_store.h"
#include "write/out_file.h"

struct csim_slice_writer {
	const struct csim_model *m;
	struct csim_out *out;
	int first;                      /* no event written yet */
	struct csim_json_stack stack;   /* for reading args' pc_addr */
};

void csim_slice_writer_init(struct csim_slice_writer *w, const struct csim_model *m,
			    struct csim_out *out);
void csim_slice_writer_release(struct csim_slice_writer *w);

/* What goes before an event: a newline, and a comma after the first. */
void csim_slice_writer_next(struct csim_slice_writer *w);
/* A pid as the input wrote it, or as a string naming its run (model run_label). */
void csim_slice_writer_pid(struct csim_slice_writer *w, uint32_t pid);
/* The start of a metadata event of process pid, up to its pid:
   {"name":"<name>","ph":"M","pid":<pid> */
void csim_slice_writer_meta(struct csim_slice_writer *w, const char *name, uint32_t pid);
/* The thread id of a sub-lane: "MTE1", "MTE1#1", ... */
void csim_slice_writer_tid(struct csim_slice_writer *w, uint32_t pipe, uint32_t sub);

/*
 * Writes the reader's kept rows, in input order, up to the end of its range.
 * *done is the first recorded row not written: the range's end on success,
 * the failing row on error, of which nothing was written.
 */
int csim_slice_writer_rows(struct csim_slice_writer *w, struct csim_slice_reader *r,
			   size_t *done, struct csim_error *err);

#endif
