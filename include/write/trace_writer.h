/*
 * trace_writer: writes trace.clean.json.
 *
 * Slice text is not kept in memory: the writer takes each kept slice's
 * event from the slice store's second reading and copies its name, pid, ts,
 * dur and args with exactly their input bytes; dropped events are skipped
 * unread. The writer itself reads no input.
 */
#ifndef CSIM_TRACE_WRITER_H
#define CSIM_TRACE_WRITER_H

#include <stddef.h>
#include <stdint.h>

#include "base/csim_error.h"
#include "model/model.h"
#include "write/out_file.h"
#include "read/slice_store.h"
#include "write/trace_meta.h"

/* One run's model and where its slice rows' text lies. */
struct csim_trace_part {
	const struct csim_model *m;
	const struct csim_slice_store *slices;
};

struct csim_trace_input {
	const struct csim_trace_part *parts;   /* one per run, in run order */
	size_t nparts;
	const char *profiling_type;        /* raw JSON text, NULL: "op" */
	const char *schema_version;        /* raw JSON text, NULL: 1 */
	uint64_t split_chunk;              /* rows on two threads in stretches of
					      this much text (trace_split.h); 0: not */
	const struct csim_trace_meta *meta; /* the top-level "metadata" object */
};

/*
 * Writes the whole trace into out (opened by the caller, who commits or
 * aborts it together with the other outputs). With several runs (--run
 * all), every run's metadata comes first, processes ranked in run order,
 * then every run's slices, critical-path segments (path_lane.h), counters
 * and arrows, the arrow ids going on from one run to the next (SPEC §2.1,
 * §6); after traceEvents, the "metadata" object (trace_meta.h).
 */
int csim_trace_write(const struct csim_trace_input *in, struct csim_out *out,
		     struct csim_error *err);

#endif
