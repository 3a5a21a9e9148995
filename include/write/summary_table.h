/*
 * summary_table: the model's summary (SPEC §10) as the one-screen table
 * printed on stdout after the "wrote" lines (docs/summary.md, "The table").
 *
 * Every line fits in 80 columns: names longer than their column are cut
 * (marked '~'), control bytes are shown as '?', and numbers fit their
 * columns up to the bounds docs/summary.md states. Numbers are computed in
 * integers and printed without locale, so the same input prints the same
 * bytes. With more than CSIM_TABLE_FULL_CORES cores the per-core part is
 * condensed to the slowest, median and fastest core plus per-pipe totals.
 */
#ifndef CSIM_SUMMARY_TABLE_H
#define CSIM_SUMMARY_TABLE_H

#include <stdio.h>

#include "base/csim_error.h"
#include "model/model.h"
#include "write/summary_view.h"
#include "write/table_text.h"

/* Up to this many cores every core is listed; beyond it, three are. */
#define CSIM_TABLE_FULL_CORES 8

/* A table ready to print: whatever it allocates, it allocates up front. */
struct csim_summary_table {
	const struct csim_model *m;
	struct csim_view_total *totals;    /* condensed form only */
	size_t ntotals;
};

/*
 * Gets the table of m ready (m must outlive it).
 * Called before any output is committed, so that running out of memory
 * (CSIM_E_INPUT, as in the passes) leaves no half-announced run.
 */
int csim_summary_table_prepare(struct csim_summary_table *t, const struct csim_model *m,
			       struct csim_error *err);

/*
 * Prints the table to f. Write errors are left in f's error flag for the
 * caller (main checks stdout once, exit 3).
 */
void csim_summary_table_print(const struct csim_summary_table *t, FILE *f);

/* Frees what prepare allocated; a zeroed table is safe to release. */
void csim_summary_table_release(struct csim_summary_table *t);

#endif
