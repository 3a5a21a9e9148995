/*
 * trace_writer: writes trace.clean.json.
 *
 * Slice text is not kept in memory: the writer reads each kept slice's event
 * again from where the table says it lies and copies its name, pid, ts, dur
 * and args with exactly their input bytes; dropped events are skipped
 * unread.
 */
#ifndef CSIM_TRACE_WRITER_H
#define CSIM_TRACE_WRITER_H

#include <stddef.h>

#include "block_reader.h"
#include "csim_error.h"
#include "model.h"
#include "out_file.h"

struct csim_trace_input {
	const char *bin_path;
	const struct csim_block *blocks;   /* the TRACE blocks, in file order */
	const size_t *rows_end;            /* slice rows up to the end of each */
	size_t nblocks;
	const char *profiling_type;        /* raw JSON text, NULL: "op" */
	const char *schema_version;        /* raw JSON text, NULL: 1 */
	const struct csim_stream *first_read;  /* identity of the file read first */
};

/*
 * Writes the whole trace into out (opened by the caller, who commits or
 * aborts it together with the other outputs).
 */
int csim_trace_write(const struct csim_model *m, const struct csim_trace_input *in,
		     struct csim_out *out, struct csim_error *err);

#endif
