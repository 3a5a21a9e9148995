/*
 * batch_summary: batch_summary.json and batch_summary.csv (SPEC §11,
 * docs/batch.md), one row per dump in sorted path order, both written
 * atomically and renamed into place only when both are complete.
 */
#ifndef CSIM_BATCH_SUMMARY_H
#define CSIM_BATCH_SUMMARY_H

#include <stddef.h>
#include <stdint.h>

#include "base/csim_error.h"
#include "base/log.h"
#include "model/dump_figures.h"
#include "write/out_file.h"
#include "write/out_set.h"

struct csim_batch_row {
	uint64_t index;        /* in the whole sorted list (before --shard) */
	const char *dump;      /* the dump's folder relative to the base */
	const char *input;     /* the .bin read, or the PATH that held none */
	const char *summary;   /* its summary.html from the summaries' folder;
				  NULL unless ok */
	int status;            /* CSIM_OK, or the failed conversion's exit status */
	const char *message;   /* the error, "" when ok */
	struct csim_dump_figures fig;   /* zeroed unless ok */
	int64_t micros;        /* wall time of the dump's conversion */
};

struct csim_batch_totals {
	uint64_t found;        /* dumps in the whole sorted list */
	unsigned shard_k, shard_n;   /* shard_n 0: no --shard */
};

/*
 * Writes DIR/batch_summary.json and DIR/batch_summary.csv, or with --shard
 * K/N DIR/batch_summary.shard-K-of-N.json and .csv, so shards into one
 * folder never overwrite each other, committed as one set into set, which
 * the batch began on DIR (write/out_set.h: locked and mended) when it
 * started and holds to its end: one batch per folder at a time. The commit
 * removes the summaries of another split: the whole batch's under a
 * shard, every shard's under the whole, a shard's of another N
 * (docs/batch.md). The caller releases set.
 */
int csim_batch_summary_write(struct csim_out_set *set, const char *dir,
			     const struct csim_batch_row *rows, size_t n,
			     const struct csim_batch_totals *totals, struct csim_error *err);

/* The two files' names for this split, in buffers of cap bytes (64 suffice). */
void csim_batch_summary_names(const struct csim_batch_totals *totals, char *json, char *csv,
			      size_t cap);

/*
 * --summary-only --json in batch mode: the dump's result as one line of
 * JSON on f, {"index","dump","input","status","message","summary"}, where
 * summary is the dump's summary.json document (summary, as the worker
 * printed it) on one line, null for a failed dump. A failed write stays in
 * f's error flag.
 */
void csim_batch_summary_line(FILE *f, const struct csim_batch_row *row, const char *summary);

/* One CSV field (RFC 4180): quoted when it holds a comma, quote, CR or LF. */
void csim_batch_csv_field(struct csim_out *o, const char *s);

/* The CSV's header line, newline included. */
extern const char csim_batch_csv_header[];

#endif
