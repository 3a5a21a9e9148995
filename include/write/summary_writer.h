/*
 * summary_writer: the model's summary (pass_summary.h) as summary.json,
 * schema 1 (docs/summary.md). Numbers are integers or fixed decimals
 * computed in integers, so the same input gives the same bytes. Fields of
 * SPEC §10 that no pass computes yet are written as null.
 */
#ifndef CSIM_SUMMARY_WRITER_H
#define CSIM_SUMMARY_WRITER_H

#include "base/csim_error.h"
#include "model/model.h"
#include "write/out_file.h"

/* Writes the whole file into o; a write error is reported by commit(). */
void csim_summary_write(const struct csim_model *m, struct csim_out *o);

#endif
