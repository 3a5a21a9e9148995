/*
 * timeline_bins: the slowest core's busy time per bin of its span, per
 * pipe (struct csim_summary_timeline), for summary.json's "timeline" and
 * the two timelines compare.html draws (docs/summary.md, "timeline").
 */
#ifndef CSIM_TIMELINE_BINS_H
#define CSIM_TIMELINE_BINS_H

#include "base/csim_error.h"
#include "model/model.h"

/* Bins of a timeline: the span cut into at most this many, of whole ns. */
#define CSIM_TIMELINE_BINS_MAX 200

/* Pipes of a timeline: the core's first this many (a real core has about a
   dozen; a core of 100 000 odd lanes would cost 160 MB of bins). */
#define CSIM_TIMELINE_PIPES_MAX 32

/*
 * Fills m->summary.timeline once the summary's cores are known: an
 * instruction slice (csim_summary_counts_as_instruction) of the slowest
 * core on one of its pipes adds, to each bin, the ns of [start, end) in
 * it, clipped to the core's span (and --window's); a zero-length one
 * counts as 1 ns. Out of memory: CSIM_E_INPUT.
 */
int csim_timeline_bins_build(struct csim_model *m, struct csim_error *err);

#endif
