/*
 * summary_page_head: the start of summary.html (summary_html.h) up to its
 * navigation: the page's head (title, styles by class) and its header. The
 * title and heading name the dump and the op: "<op name> — <path> —
 * clean_sim_trace summary", or the path alone without an op name
 * (docs/summary.md, "summary.html"); every string is escaped.
 */
#ifndef CSIM_SUMMARY_PAGE_HEAD_H
#define CSIM_SUMMARY_PAGE_HEAD_H

#include <stddef.h>

#include "model/model.h"
#include "write/out_file.h"
#include "write/summary_view.h"

/*
 * Writes the head, the header and the navigation of the page of runs[0..n)
 * (n > 1: --run all, a section per run) of the dump `in` into o.
 */
void csim_summary_page_head(struct csim_out *o, const struct csim_model *const *runs, size_t n,
			    const struct csim_view_input *in);

/*
 * The page's styles after "<style>": the rules by class and the timeline's
 * shade classes (svg .bg, .d1 .. .d5, the path's); compare.html's too.
 */
void csim_summary_page_styles(struct csim_out *o);

#endif
