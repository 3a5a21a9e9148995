/*
 * metrics_writer: reshapes the run's API_INSTR block (read/instr_index.h)
 * into instr_metrics.json without holding it.
 *
 * {"cores":[...],"instructions":{core:[rows]},"column_types":{...}}. Each row
 * holds every instruction field under a lower-cased, underscored key; an
 * array as long as Cores is split per core unless its column's dtype is 5
 * (JSON string) or 100 (percentage with details). Values keep their input
 * bytes: rows are handed out as spans and never re-printed. A core's list
 * leaves out the rows that core did not execute (0 Instructions Executed:
 * the producer pads every row with a column per core).
 *
 * The file is core-major while the block is row-major, so the rows are read
 * twice: the plan sizes each core's part of the file (in the digest's
 * reading of the rows, saving one); write() reads them again and writes
 * each row's per-core records into their parts at offsets the plan fixed,
 * through one small buffer per core. Memory: O(cores + largest row).
 *
 * The writing can run on another thread (write/metrics_thread.h): a job
 * allocates everything the writing needs on the caller's thread, sized by
 * how far the plan's reading grew its buffers, so that running it
 * allocates nothing while the input is as the plan read it.
 *
 * Ownership: a plan owns its sizes until csim_metrics_plan_release(); a
 * job owns its row reader and buffers until csim_metrics_job_close() and
 * borrows the metrics, the plan and the out file.
 */
#ifndef CSIM_METRICS_WRITER_H
#define CSIM_METRICS_WRITER_H

#include <stddef.h>
#include <stdint.h>

#include "base/csim_error.h"
#include "model/instr_stats.h"
#include "read/instr_digest.h"
#include "read/instr_index.h"
#include "write/out_file.h"

/* Capacities the plan's reading grew its buffers to, in their elements. */
struct csim_metrics_marks {
	struct csim_instr_rows_marks rows;   /* the row reader's */
	size_t key_text, key_end, key_tmp;   /* a row's keys as written */
};

/*
 * The most a reshape may write: 64 times the payload, plus 16 MiB. A value
 * that is not split is copied into every core's record, so a payload
 * without per-core arrays reshapes to rows x cores records (140 KB of 2,000
 * rows and 2,000 cores: 252 MB). Honest dumps split their numeric columns
 * and stay near 5 times (docs/decisions.md, "Reshape bound").
 */
#define CSIM_METRICS_GROWTH 64u
#define CSIM_METRICS_SLACK (16u << 20)

struct csim_metrics_sizing;

struct csim_metrics_plan {
	uint64_t *part;         /* per core: bytes of its rows in the file */
	uint64_t *rows;         /* per core: its rows in the file */
	size_t ncores;
	const struct csim_metrics *mt;   /* borrowed: which cores --core keeps */
	uint64_t left_out;      /* records of cores that did not execute their
				   row (csim_instr_row_ran), over all cores */
	uint64_t bytes;         /* of every record planned */
	uint64_t limit;         /* CSIM_METRICS_GROWTH x payload + SLACK */
	int over;               /* bytes passed limit: the reading stopped there,
				   sizes and digest incomplete (not to be written) */
	struct csim_metrics_marks marks;
	struct csim_metrics_sizing *sizing;   /* between begin() and its sink's end */
};

struct csim_metrics_job;

/*
 * Sizes the plan (zeroed or made before) in a reading of mt's rows: fills
 * *sink for csim_instr_digest_rows() (read/instr_digest.h), which digests
 * the same rows for the summary in the same walk. A core's record of a row
 * it did not execute is left out (SPEC §7); the write leaves out the same
 * ones. The sink stops the reading with plan->over set (and CSIM_OK) once
 * the records pass plan->limit, so that a hostile shape costs no more than
 * the bound. Out of memory: CSIM_E_INPUT.
 */
int csim_metrics_plan_begin(struct csim_metrics_plan *plan, const struct csim_metrics *mt,
			    struct csim_instr_sink *sink, struct csim_error *err);

/* begin() and a reading of the rows for the plan alone. */
int csim_metrics_plan_make(struct csim_metrics_plan *plan, const struct csim_metrics *mt,
			   struct csim_error *err);

/* Accepts a zeroed plan. */
void csim_metrics_plan_release(struct csim_metrics_plan *plan);

/*
 * Writes the reshaped file, or with raw the payload byte for byte. Write
 * errors stay in out (see csim_out_commit); the return code reports an
 * allocation failure (CSIM_E_OUTPUT), an input that changed since the
 * plan (CSIM_E_INPUT) or a signal (CSIM_E_INTERRUPTED).
 */
int csim_metrics_write(const struct csim_metrics *mt, const struct csim_metrics_plan *plan,
		       int raw, struct csim_out *out, struct csim_error *err);

/*
 * instr_metrics.json of several runs (--run all, SPEC §2.1, §7):
 * {"runs":[<run 1's file>,<run 2's>,…]}, each entry what
 * csim_metrics_write() writes for that run (null for a run without
 * API_INSTR, mts[i] NULL). Errors as csim_metrics_write()'s.
 */
int csim_metrics_write_runs(const struct csim_metrics *const *mts,
			    const struct csim_metrics_plan *const *plans, size_t n, int raw,
			    struct csim_out *out, struct csim_error *err);

/*
 * csim_metrics_write() in three steps. open() allocates every buffer the
 * writing uses and opens the rows' reading (errors as write()'s); run()
 * writes into out, allocating nothing unless the input changed since the
 * plan; close() frees the job (accepts NULL). *job is NULL on failure.
 */
int csim_metrics_job_open(struct csim_metrics_job **job, const struct csim_metrics *mt,
			  const struct csim_metrics_plan *plan, int raw, struct csim_out *out,
			  struct csim_error *err);

/*
 * Writes the file as csim_metrics_write() does (once per job). It polls,
 * at each row, the interrupt flag (base/interrupt.h) and the job's stop
 * request (then CSIM_E_OUTPUT, "the metrics write was stopped").
 */
int csim_metrics_job_run(struct csim_metrics_job *job, struct csim_error *err);

/* Asks a running job to stop at its next row; safe from another thread. */
void csim_metrics_job_stop(struct csim_metrics_job *job);

void csim_metrics_job_close(struct csim_metrics_job *job);

#endif
