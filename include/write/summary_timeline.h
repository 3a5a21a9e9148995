/*
 * summary_timeline: the SVG timeline overview of one core for summary.html
 * (SPEC §10): one row per pipe of the core's summary (the rows of its
 * table, dropped lanes included), time across. The core's span is cut into
 * at most CSIM_TIMELINE_BINS columns of equal whole-ns width; each column
 * of a row is shaded by the mean number of that pipe's instructions in
 * progress over the column (its sub-lanes folded into one depth shade:
 * darker = more sub-lanes busy), so the SVG's size is bounded whatever the
 * trace's. A zero-length instruction counts as 1 ns, so it leaves a mark.
 * At most CSIM_TIMELINE_ROWS rows are drawn (the table's first, in
 * dataflow order), then a line counting the rest: a core of 100 000 odd
 * lanes would otherwise cost 100 000 rows of bins.
 *
 * When the core has a critical path (SPEC §13) it is drawn over the rows:
 * a first row "critical path" whose columns show the kind of segment
 * holding most of each (busy, flag wait, cross-core wait, issue), and under
 * each pipe's row a strip where the path is busy on that pipe over most of
 * a column. Bounded like the rest: the segments are binned.
 */
#ifndef CSIM_SUMMARY_TIMELINE_H
#define CSIM_SUMMARY_TIMELINE_H

#include <stdint.h>

#include "base/csim_error.h"
#include "model/model.h"
#include "write/out_file.h"

/* Columns of the plot: at most this many bins, one pixel each at most. */
#define CSIM_TIMELINE_BINS 800

/* Rows drawn at most: a real core has about a dozen pipes. */
#define CSIM_TIMELINE_ROWS 32

/* Shade classes (1..CSIM_TIMELINE_SHADES) and their upper bounds in
   mean busy sub-lanes, halves: 1/2, 1, 2, 4, more. */
#define CSIM_TIMELINE_SHADES 5

/* The shade class (0 idle .. CSIM_TIMELINE_SHADES) of `busy` ns of
   instructions over a bin `w` ns wide. */
int csim_timeline_shade(uint64_t busy, int64_t w);

/* The legend's words for shade k (0: idle, the row's background). */
extern const char *const csim_timeline_shade_labels[CSIM_TIMELINE_SHADES + 1];

/* The fill colour of shade k (0: idle), for the page's styles and legend. */
extern const char *const csim_timeline_shade_colors[CSIM_TIMELINE_SHADES + 1];

/* The path row's kinds (enum csim_path_seg_kind order), their SVG classes,
   and colours and legend words, the strip's last. */
#define CSIM_TIMELINE_PATH_KINDS 4
extern const char *const csim_timeline_path_classes[CSIM_TIMELINE_PATH_KINDS];
extern const char *const csim_timeline_path_colors[CSIM_TIMELINE_PATH_KINDS + 1];
extern const char *const csim_timeline_path_labels[CSIM_TIMELINE_PATH_KINDS + 1];

/*
 * Writes <svg>…</svg> for core `c` of m->summary into o. Out of memory is
 * CSIM_E_OUTPUT (the page is being written); a write error is left for
 * commit().
 */
int csim_timeline_write(const struct csim_model *m, const struct csim_summary_core *c,
			struct csim_out *o, struct csim_error *err);

#endif
