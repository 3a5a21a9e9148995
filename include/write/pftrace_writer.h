/*
 * pftrace_writer: writes trace.pftrace (SPEC §15, docs/perfetto.md), the
 * trace as Perfetto's protobuf TrackEvents: the tracks of pass_tracks at
 * each slice's exact ns, args as debug annotations, arrows as flows, the
 * critical-path lane and the counters. Like the JSON writer it reads no
 * input of its own: slice text comes from the slice store's second
 * reading, in input order. Last, the trace's metadata (trace_meta.h) as
 * one ChromeEventBundle.
 */
#ifndef CSIM_PFTRACE_WRITER_H
#define CSIM_PFTRACE_WRITER_H

#include <stdint.h>

#include "base/csim_error.h"
#include "write/out_file.h"
#include "write/trace_writer.h"

struct csim_pftrace_result {
	int64_t shift;   /* ns added to every time: Perfetto's are unsigned,
			    so a trace with negative times starts at 0; 0 mostly */
};

/*
 * The whole file into out (opened by the caller, who commits or aborts it
 * with the other outputs): every run's processes, ranked in run order
 * (SPEC §2.1). Every part's model must have run pass_tracks.
 */
int csim_pftrace_write(const struct csim_trace_part *parts, size_t nparts,
		       const struct csim_trace_meta *meta, struct csim_out *out,
		       struct csim_pftrace_result *res, struct csim_error *err);

#endif
