/*
 * trace_split: the kept slice rows of a large trace, written by two threads.
 *
 * The recorded rows are cut into stretches of about CSIM_TRACE_SPLIT_CHUNK
 * bytes of kept text. The main thread writes the even stretches straight
 * into the trace; a worker formats the odd ones, through its own reader of
 * the input, into a staging buffer, and hands the bytes to the trace when
 * their turn comes: the file holds the rows in input order, byte for byte
 * as in line.
 *
 * The worker allocates nothing and reports nothing. At a row it could only
 * write by allocating, at any error, an interrupt or a failed write, it
 * hands its stretch back from the first row it did not write, and the main
 * thread writes every row from there on itself: what is written, reported
 * and allocated is what the in-line write gives (docs/decisions.md).
 */
#ifndef CSIM_TRACE_SPLIT_H
#define CSIM_TRACE_SPLIT_H

#include <stdint.h>

#include "base/csim_error.h"
#include "read/slice_store.h"
#include "write/slice_writer.h"

/*
 * Kept text per stretch: ~2.3 MB of output, under the 4 MiB staging buffer;
 * under four stretches' worth the rows are written in line. (CI's sanitizer
 * build lowers it, so that every test goes through the threads.)
 */
#ifndef CSIM_TRACE_SPLIT_CHUNK
#define CSIM_TRACE_SPLIT_CHUNK ((uint64_t)2 << 20)
#endif

/*
 * Writes the store's kept rows through w (after at least one event: the
 * worker's rows all follow a comma), in stretches of `chunk` bytes of kept
 * text on two threads when there are four or more and a thread starts,
 * else in line (chunk 0: in line).
 */
int csim_trace_split_write(struct csim_slice_writer *w, const struct csim_slice_store *store,
			   uint64_t chunk, struct csim_error *err);

#endif
