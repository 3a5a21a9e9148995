/*
 * instr_digest: boils the API_INSTR rows, fed one at a time from a row
 * reader (read/instr_index.h), down to the run's instr_stats
 * (model/instr_stats.h): per pipe and core the cycles, executions and
 * cycle-weighted vector utilization, the ten rows with the most cycles, and
 * each address's `AscendC Inner Code` source line (SPEC §10).
 *
 * Values follow the reader's per-core rule (format-notes §5.2): element
 * [core] of an array, else element 0, a scalar for every core; a value that
 * is not a non-negative number is not applicable (-1 = NA).
 */
#ifndef CSIM_INSTR_DIGEST_H
#define CSIM_INSTR_DIGEST_H

#include <stdint.h>

#include "base/csim_error.h"
#include "model/instr_stats.h"
#include "read/instr_index.h"

/* A digest in progress: scratch for decoded strings. */
struct csim_instr_digest {
	struct csim_instr_stats *s;
	const struct csim_metrics *mt;   /* the rows' block: its cores, and which are in */
	char *buf;
	size_t buf_cap;
};

/*
 * Starts digesting mt's rows into s, freshly initialised (the core names
 * first). Whatever happens, end() follows; s is then safe to release.
 */
int csim_instr_digest_begin(struct csim_instr_digest *dg, struct csim_instr_stats *s,
			    const struct csim_metrics *mt, struct csim_error *err);

/* Adds one row (rows in input order: ties in the top ten go to the earlier). */
int csim_instr_digest_row(struct csim_instr_digest *dg, const struct csim_instr_row *row,
			  struct csim_error *err);

/* Sorts the source lines and frees the scratch; accepts a failed begin(). */
void csim_instr_digest_end(struct csim_instr_digest *dg);

/*
 * A reader of each row besides the digest, in the same reading (the metrics
 * writer's sizing, write/metrics_writer.h), so that the rows are walked once
 * for both. row() sees each row before the digest and may set *stop to end
 * the reading there; end() always follows, told how far the reading grew
 * the row reader's buffers.
 */
struct csim_instr_sink {
	int (*row)(void *ctx, const struct csim_instr_row *row, int *stop,
		   struct csim_error *err);
	void (*end)(void *ctx, const struct csim_instr_rows_marks *marks);
	void *ctx;
};

/*
 * One reading of mt's rows: digested into s (NULL: none), handed to sink
 * (NULL: none). Input errors as the row reader's.
 */
int csim_instr_digest_rows(struct csim_instr_stats *s, const struct csim_metrics *mt,
			   const struct csim_instr_sink *sink, struct csim_error *err);

/* Appends a source line for [lo, hi] to v; -1 out of memory. */
int csim_instr_digest_add_line(struct csim_instr_line **v, size_t *nv, size_t *cap,
			       uint64_t lo, uint64_t hi, uint32_t source);

/* Sorts lines by address, keeping the first of overlapping ones. */
void csim_instr_digest_sort_lines(struct csim_instr_line *v, size_t *nv);

#endif
