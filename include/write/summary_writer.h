/*
 * summary_writer: the model's summary (pass_summary.h) as summary.json,
 * schema 1 (docs/summary.md). Numbers are integers or fixed decimals
 * computed in integers, so the same input gives the same bytes. Fields of
 * SPEC §10 that no pass computes yet are written as null.
 */
#ifndef CSIM_SUMMARY_WRITER_H
#define CSIM_SUMMARY_WRITER_H

#include <stddef.h>

#include "model/model.h"
#include "write/out_file.h"
#include "write/summary_view.h"

/*
 * Writes the whole file into o; a write error is reported by commit(). It
 * names the dump first ("input": in, its path as given and its size). One
 * run: its summary, with the run's place in its file and its OP_BASIC_INFO
 * as the model holds them (model/run_info.h). Several (--run all): {"schema":1,"runs":[...],
 * "run_changes":[...]}, each run's summary as one would stand alone (but
 * for "schema") and the span's change from each run to the next.
 */
void csim_summary_write(const struct csim_model *const *runs, size_t n,
			const struct csim_view_input *in, struct csim_out *o);

#endif
