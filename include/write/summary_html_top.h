/*
 * summary_html_top: summary.html's tables of where the cycles went by
 * API_INSTR (SPEC §10): the rows with the most cycles over every core, and
 * the source lines with the most, as summary.json's top_instructions and
 * top_source_lines (docs/summary.md). Nothing when the dump has no
 * API_INSTR; every string escaped.
 */
#ifndef CSIM_SUMMARY_HTML_TOP_H
#define CSIM_SUMMARY_HTML_TOP_H

#include "model/model.h"
#include "write/out_file.h"

/* Both sections of run m; their ids end in sfx ("" for a page of one run). */
void csim_summary_html_top(struct csim_out *o, const struct csim_model *m, const char *sfx);

#endif
