/*
 * trace_meta: what a trace says of itself (SPEC §6, docs/output.md
 * "metadata"): the op, SoC and clock of the run, the dump's path and
 * size, the run converted, the converter's version and the options that
 * shaped the output. trace.clean.json carries them as its top-level
 * "metadata" object (Perfetto: json_metadata.*), trace.pftrace as one
 * ChromeEventBundle of ChromeMetadata entries (Perfetto: cr-*).
 */
#ifndef CSIM_TRACE_META_H
#define CSIM_TRACE_META_H

#include <stddef.h>

#include "base/span.h"
#include "model/model.h"
#include "write/out_file.h"
#include "write/summary_view.h"

enum csim_meta_kind {
	CSIM_META_STRING,   /* value: plain bytes */
	CSIM_META_ESCAPED,  /* value: a JSON string's contents as the input wrote them */
	CSIM_META_NUMBER    /* num: a JSON number */
};

struct csim_meta_fact {
	const char *key;
	enum csim_meta_kind kind;
	struct csim_span value;
	char num[32];
};

#define CSIM_META_MAX 16

struct csim_trace_meta {
	struct csim_meta_fact fact[CSIM_META_MAX];
	size_t n;
};

/*
 * The facts of a trace of nruns runs, m the first (op, SoC and clock are
 * its: the runs of one file are re-runs of one kernel). The facts borrow
 * m's OP_BASIC_INFO, the input's path and options, which must outlive
 * them. options: the options that shaped the output, as the command line
 * spells them (cli/options_text.h).
 */
void csim_trace_meta_fill(struct csim_trace_meta *meta, const struct csim_model *m,
			  size_t nruns, const struct csim_view_input *in, const char *options);

/* ,"metadata":{...}: the member that follows traceEvents. */
void csim_trace_meta_json(const struct csim_trace_meta *meta, struct csim_out *o);

#endif
