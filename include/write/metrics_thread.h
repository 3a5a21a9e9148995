/*
 * metrics_thread: writes instr_metrics.json on a second thread, while the
 * caller runs the passes and writes the trace and the summaries (issue
 * #12: on the dense shape the metrics write was a fifth of the run).
 *
 * start() does on the caller's thread everything that allocates or can
 * fail before a byte is written: it opens the temporary file and the
 * write's job (write/metrics_writer.h: the rows' reader and every buffer,
 * sized by the plan's reading). The thread then only runs the job, which
 * allocates nothing while the input is as the plan read it, so the
 * failalloc sweeps' counts stay those of one thread. It logs nothing and
 * leaves the progress line alone; it starts with every signal blocked
 * (base/handoff.h) and sees them through the interrupt flag at each
 * row, then stops with CSIM_E_INTERRUPTED. Its error goes into its own
 * struct csim_error, handed over by join().
 *
 * Ownership: from start() to join() the thread borrows the metrics and the
 * plan (the caller must neither change nor free them) and owns the file;
 * join() frees the thread and hands the file over, written or not, for the
 * caller to commit or abort.
 */
#ifndef CSIM_METRICS_THREAD_H
#define CSIM_METRICS_THREAD_H

#include "base/csim_error.h"
#include "read/instr_index.h"
#include "write/metrics_writer.h"
#include "write/out_file.h"

/*
 * API_INSTR payloads below this are written in line: a thread would only
 * cost. A build may set it (CI's sanitizer build sets 1, so that every
 * test writes its metrics through the thread too).
 */
#ifndef CSIM_METRICS_THREAD_MIN_BYTES
#define CSIM_METRICS_THREAD_MIN_BYTES (1u << 20)
#endif

struct csim_metrics_thread;

/*
 * Opens DIR/NAME's temporary file, readies the write and starts the
 * thread. On failure *th is NULL and nothing is left behind: no file, no
 * thread (the caller may then write in line, which reports what failed in
 * its own place).
 */
int csim_metrics_thread_start(struct csim_metrics_thread **th, const struct csim_metrics *mt,
			      const struct csim_metrics_plan *plan, int raw, const char *dir,
			      const char *name, struct csim_error *err);

/*
 * Waits for the thread, frees it (*th becomes NULL) and hands the file to
 * *out. The write keeps its place in the caller's order of steps, as if it
 * ran there in line: before_rc is the code of the steps before it (when
 * not CSIM_OK the thread is asked to stop at its next row and its outcome
 * is dropped), rc that of the steps after it, whose error the thread's
 * replaces. Returns the resulting code; err holds its error.
 */
int csim_metrics_thread_join(struct csim_metrics_thread **th, int before_rc, int rc,
			     struct csim_out *out, struct csim_error *err);

/* Stops and joins the thread and removes the file; accepts NULL. */
void csim_metrics_thread_abort(struct csim_metrics_thread *th);

#endif
