/*
 * scan_pipe: scans a TRACE block's events on a second thread while the
 * caller ingests them, so the two halves of the first reading (JSON scanning
 * and the table's work: numbers, interning, rows) overlap on two cores.
 *
 * The scanning thread copies each event's text into one of a few fixed
 * batches (bounded memory whatever the block's size) and hands full batches
 * over; the caller gets the same events, in the same order, with the same
 * offsets and spans as csim_trace_scan_next() would give, then the same
 * end or error. While the pipe runs, the scanner and its block reader
 * belong to the thread: the caller touches neither until finish().
 *
 * Ownership: the pipe owns its thread and batches; finish() stops the
 * thread if it still runs, joins it and frees everything, on every path.
 */
#ifndef CSIM_SCAN_PIPE_H
#define CSIM_SCAN_PIPE_H

#include <stdint.h>

#include "base/csim_error.h"
#include "read/event_scan.h"

/*
 * Payloads below this are scanned in line: a thread would only cost. A
 * build may set it (CI's sanitizer build sets 1, so that every test runs
 * through the pipe too).
 */
#ifndef CSIM_SCAN_PIPE_MIN_BYTES
#define CSIM_SCAN_PIPE_MIN_BYTES (8u * 1024u * 1024u)
#endif

struct csim_scan_pipe;

/*
 * Starts scanning sc (after csim_trace_scan_begin()) on a new thread; the
 * events' texts (ph, name, pid, tid, id) are decoded on the caller's thread
 * into isc's buffers, which balances the two threads' work. *pipe is NULL
 * when it fails (out of memory, an input error) and also, with CSIM_OK,
 * when no thread could be made: the caller then scans sc on its own
 * thread, which yields the same events.
 */
int csim_scan_pipe_start(struct csim_scan_pipe **pipe, struct csim_trace_scan *sc,
			 struct csim_trace_scan *isc, struct csim_error *err);

/*
 * The next event, as csim_trace_scan_next() gives it; valid until the next
 * call. *has is 0 at the payload's valid end; a scanning error comes back
 * here, after every event before it.
 */
int csim_scan_pipe_next(struct csim_scan_pipe *pipe, struct csim_event *ev,
			int *has, struct csim_error *err);

/* Stops and joins the thread and frees the pipe; accepts NULL. */
void csim_scan_pipe_finish(struct csim_scan_pipe *pipe);

#endif
