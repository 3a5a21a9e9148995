/*
 * summary_html: the model's summary (SPEC §10) as summary.html, a page that
 * opens offline: one file of HTML, CSS and inline SVG, no script, no
 * reference to another file or the network (docs/summary.md,
 * "summary.html"). It shows what the table on stdout shows (run facts,
 * clock, per core and pipe numbers, load balance, diagnosis), plus
 * busy-share bars, the WAIT-stall matrix of each core as a heat map and a
 * timeline overview of the slowest core (summary_timeline.h). Every string
 * from the input is escaped; numbers are formatted as in the table, so the
 * same input gives the same bytes. With more than CSIM_TABLE_FULL_CORES
 * cores, the detailed part lists the slowest, median and fastest core and
 * per-pipe totals; the overview keeps one compact row per core.
 */
#ifndef CSIM_SUMMARY_HTML_H
#define CSIM_SUMMARY_HTML_H

#include "base/csim_error.h"
#include "model/model.h"
#include "write/out_file.h"
#include "write/summary_view.h"

/*
 * Writes the whole page into o, its title and heading naming the dump
 * (in: its path as given, its size) and the op (summary_page_head.h): one
 * run's summary, or (--run all of several runs) each run's in a section of
 * its own, its anchors ending in "-<run>", then the slowest span from run
 * to run. Out of memory is
 * CSIM_E_OUTPUT; a write error is left for commit(), as with the other
 * writers.
 */
int csim_summary_html_write(const struct csim_model *const *runs, size_t n,
			    const struct csim_view_input *in, struct csim_out *o,
			    struct csim_error *err);

#endif
