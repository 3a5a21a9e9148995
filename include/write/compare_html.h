/*
 * compare_html: compare.html, the comparison of SPEC §14 as a
 * self-contained page like summary.html (no external file, opens
 * offline): the spans, the two timelines of the slowest core one above
 * the other on one time scale (from each summary.json's "timeline"), the
 * per-pipe changes as bars, the instructions and lines that moved, the
 * diagnosis lines that changed; for batches a row per dump with its change
 * as a bar (docs/compare.md, "compare.html").
 */
#ifndef CSIM_COMPARE_HTML_H
#define CSIM_COMPARE_HTML_H

#include "model/compare.h"
#include "write/out_file.h"

void csim_compare_html_write(const struct csim_compare *c, struct csim_out *o);

#endif
