/*
 * payload_window: contiguous bytes of one block's payload, so that a scanner
 * can parse an element in place.
 *
 * The window (read/byte_window.h) holds payload bytes [base, base + len)
 * in buf; a scanner consumes them up to pos and refills, which keeps the
 * unconsumed tail and reads more after it. The window grows only to hold
 * the largest single element. The trace scanner reads through one for both readings: in order
 * on the first, and at recorded offsets (csim_payload_window_at) on the
 * second.
 */
#ifndef CSIM_PAYLOAD_WINDOW_H
#define CSIM_PAYLOAD_WINDOW_H

#include <stddef.h>
#include <stdint.h>

#include "read/block_reader.h"
#include "read/byte_window.h"
#include "base/csim_error.h"

struct csim_payload_window {
	struct csim_block_reader *reader;
	struct csim_block block;
	struct csim_byte_window bytes;    /* offsets are the payload's; its stop:
					     a payload offset not to read past
					     when nothing beyond it is wanted
					     (csim_payload_window_at) */
	struct csim_byte_source source;   /* the block's payload */
};

/* Accepts a zeroed or released window. */
void csim_payload_window_release(struct csim_payload_window *w);

/* Starts on a block whose payload the reader is positioned at. */
int csim_payload_window_begin(struct csim_payload_window *w,
			      struct csim_block_reader *reader,
			      const struct csim_block *block, struct csim_error *err);

/*
 * Gives the window room for cap bytes now, so that no later call allocates
 * while elements are at most cap bytes (a reading on a worker thread).
 */
int csim_payload_window_reserve(struct csim_payload_window *w, size_t cap,
				struct csim_error *err);

/* Reads more payload into the window, keeping bytes from w->pos on. */
int csim_payload_window_refill(struct csim_payload_window *w, struct csim_error *err);

/*
 * Makes payload bytes [offset, offset + len) visible at w->buf + w->pos,
 * skipping the bytes before them. Offsets must not decrease from call to
 * call within a block (second reading).
 */
int csim_payload_window_at(struct csim_payload_window *w, uint64_t offset,
			   size_t len, struct csim_error *err);

#endif
