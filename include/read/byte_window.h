/*
 * byte_window: the one sliding window of the readers. A scanner parses an
 * item in place in buf[pos, len), consumes it up to pos, and when an item
 * runs past len asks for a refill, which keeps the unconsumed tail, reads
 * more after it from the window's source and grows the window only when one
 * item fills it whole; csim_byte_window_pull is that loop. The TRACE
 * payload's readings (payload_window), the API_INSTR payload's
 * (instr_text) and --check's trace file (check_scan) all read through one.
 *
 * A window may also lend bytes already in memory (a held payload): it is
 * then final from the start and never reads.
 */
#ifndef CSIM_BYTE_WINDOW_H
#define CSIM_BYTE_WINDOW_H

#include <stddef.h>
#include <stdint.h>

#include "base/csim_error.h"
#include "read/json_scan.h"

/* Where a window's bytes come from. */
struct csim_byte_source {
	/* Up to n bytes into dst, *got of them; *more 0 once no byte follows. */
	int (*read)(void *ctx, char *dst, size_t n, size_t *got, int *more,
		    struct csim_error *err);
	void *ctx;
};

struct csim_byte_window {
	char *buf;
	size_t cap, len, pos;   /* buf[pos, len) is not consumed yet */
	uint64_t base;          /* source offset of buf[0] */
	int final;              /* no byte follows buf[len - 1] */
	uint64_t stop;          /* 0, or a source offset not to read past while
				   nothing beyond it is wanted */
	int lent;               /* buf is the caller's bytes, not the window's */
};

/*
 * Gives an empty window its buffer for a source of `size` bytes: a small
 * one for a small source (a test dump, a fuzz input should not pay for a
 * big window), else `standard` bytes; a buffer already as large is kept.
 */
int csim_byte_window_start(struct csim_byte_window *w, uint64_t size, size_t standard,
			   struct csim_error *err);

/* The window over bytes in memory, final: it never reads nor frees them. */
void csim_byte_window_lend(struct csim_byte_window *w, const char *data, size_t n);

/* Room for cap bytes now, so that no later refill allocates for items up
   to that size; -1 out of memory. */
int csim_byte_window_reserve(struct csim_byte_window *w, size_t cap);

/* Reads more from src after the unconsumed bytes (see above). */
int csim_byte_window_refill(struct csim_byte_window *w, const struct csim_byte_source *src,
			    struct csim_error *err);

/*
 * The one pull loop of the readers: scan(ctx, res) scans the item at the
 * window's position; while it is cut by the window's end (CSIM_SCAN_MORE)
 * the window is refilled from src and the item scanned again. CSIM_OK with
 * *scan_rc the scan's last code (CSIM_SCAN_OK, _BAD or _NOMEM) and res, or
 * the refill's error.
 */
int csim_byte_window_pull(struct csim_byte_window *w, const struct csim_byte_source *src,
			  int (*scan)(void *ctx, struct csim_scan_result *res), void *ctx,
			  int *scan_rc, struct csim_scan_result *res, struct csim_error *err);

/* Empties the window at source offset `offset` (the source skipped there). */
void csim_byte_window_drop(struct csim_byte_window *w, uint64_t offset);

/* Source offset of a byte in the window. */
static inline uint64_t csim_byte_window_offset(const struct csim_byte_window *w, const char *p)
{
	return w->base + (uint64_t)(p - w->buf);
}

/* Accepts a zeroed or released window. */
void csim_byte_window_release(struct csim_byte_window *w);

#endif
