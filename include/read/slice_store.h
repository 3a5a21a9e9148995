/*
 * slice_store: where each slice row's text lies in the input, and the second
 * reading that fetches it.
 *
 * Slice text is not kept in memory (kept slices are the largest events; their
 * args carry call stacks). The first reading records every TRACE block and,
 * per slice row the lane rule keeps (lane_verdict.h), the event's payload
 * offset and field layout; rows dropped at once cost nothing here. The trace
 * writer then walks the kept rows with a csim_slice_reader, which reopens the
 * same file, refuses one that changed, and hands out each row's field spans
 * without parsing them again.
 *
 * Except for an input that cannot be read again by offset cheaply (gzip:
 * each second reading would inflate the whole file again): there the store
 * keeps the recorded rows' text as it comes, in one arena, and the reader
 * hands out spans of it without opening the file (keep_text()). Past
 * CSIM_SLICE_TEXT_MEM bytes the arena is written out to an unlinked
 * temporary file (O_TMPFILE in $TMPDIR, else /tmp) and read back from there,
 * so memory stays bounded; where no such file can be made or written, the
 * text stays in memory (docs/decisions.md).
 *
 * The recorded rows' locations go the same way, for every input: no pass
 * reads them, only the writers' second reading, in order. Each
 * CSIM_SLICE_LOCS_STEP of them is appended to a temporary file of their
 * own, and readers take them back through a window (struct
 * csim_slice_loc_cursor): 1.63 M kept rows were 78 MB held through every
 * pass on the dense-heavy benchmark shape.
 *
 * Ownership: the store owns its arrays and borrows path; a reader owns its
 * file handle and buffers until csim_slice_reader_close().
 */
#ifndef CSIM_SLICE_STORE_H
#define CSIM_SLICE_STORE_H

#include <stddef.h>
#include <stdint.h>

#include "read/block_reader.h"
#include "base/csim_error.h"
#include "read/event_scan.h"
#include "model/event_table.h"
#include "read/input_stream.h"
#include "read/payload_window.h"

/*
 * Where an event's name, pid, ts, dur and args lie inside its text, so the
 * second reading hands them out without parsing. n[0] (the name's length)
 * 0 means "not recorded: parse again" (fields beyond 64 KiB into the event).
 */
struct csim_slice_layout {
	uint32_t len;                 /* the whole event */
	uint16_t off[4], n[4];        /* name, pid, ts, dur (n 0: absent) */
	uint32_t args_off, args_n;    /* args_n 0: absent */
};

/* Kept text held in memory before the arena goes to a temporary file. */
#define CSIM_SLICE_TEXT_MEM ((size_t)64 << 20)
/*
 * Once the arena has gone to the file, it goes again each time it holds
 * this much: a write that blocks the main thread for as long as a few MiB
 * take is absorbed by the scanner's and the inflater's queues ahead of it,
 * where one of 64 MiB stalled both cores (docs/performance.md).
 */
#define CSIM_SLICE_SPILL_STEP ((size_t)1 << 20)

struct csim_slice_loc {
	uint64_t offset;                  /* payload offset within its TRACE block */
	size_t row;                       /* its row in the table's slices[] */
	struct csim_slice_layout layout;
};

/* Recorded rows held in memory before they go to their temporary file. */
#define CSIM_SLICE_LOCS_STEP ((size_t)1 << 16)

struct csim_slice_store {
	const char *path;
	struct csim_file_id file_id;      /* the file as first read */
	struct csim_block *blocks;        /* TRACE blocks in file order */
	size_t *locs_end;                 /* locs recorded up to the end of each */
	size_t nblocks, blocks_cap, locs_end_cap;
	struct csim_slice_loc *locs;      /* the recorded rows from locs_spilled on,
					     in row order */
	size_t nlocs, locs_cap;           /* nlocs: all of them, in the file or not */
	size_t locs_spilled;              /* rows [0, locs_spilled) are in locs_fd */
	size_t locs_step;                 /* CSIM_SLICE_LOCS_STEP (tests lower it) */
	int locs_fd;                      /* their temporary file; -1: none */
	int locs_spill_off;               /* no such file: all rows in memory */
	int keep_text;                    /* locs[].offset: into the kept text */
	char *text;                       /* the kept text from offset `spilled` on */
	size_t text_len, text_cap;
	size_t text_limit;                /* CSIM_SLICE_TEXT_MEM, then the step (tests lower it) */
	int spill_fd;                     /* the kept text before `spilled`; -1: none */
	int spill_off;                    /* no temporary file: all text in memory */
	uint64_t spilled;
	struct csim_progress *progress;   /* told of the second reading; NULL: none */
};

/* Leaves store empty and safe to release. */
void csim_slice_store_init(struct csim_slice_store *store, const char *path,
			   const struct csim_file_id *file_id);
void csim_slice_store_release(struct csim_slice_store *store);

/*
 * Forgets every block and row recorded (their memory is kept for reuse):
 * the rows of a run that will not be converted are discarded with them, so
 * the second reading walks only the converted run's blocks.
 */
void csim_slice_store_clear(struct csim_slice_store *store);

/*
 * From now on the store keeps each recorded row's text and the second
 * reading never opens the file: for input that cannot be read again by
 * offset cheaply (gzip). Call it before the first row.
 */
void csim_slice_store_keep_text(struct csim_slice_store *store);

/* Rows recorded next belong to this TRACE block. */
int csim_slice_store_begin_block(struct csim_slice_store *store,
				 const struct csim_block *blk, struct csim_error *err);

/* Records where the event of slice row `row` lies; rows come in increasing order. */
int csim_slice_store_add(struct csim_slice_store *store, const struct csim_event *ev,
			 size_t row, struct csim_error *err);

/* Records where ev's fields lie (first reading). */
void csim_slice_layout_make(const struct csim_event *ev, struct csim_slice_layout *layout);

/* Room for `rows` recorded rows in all, allocated once (best effort, like the table's). */
void csim_slice_store_reserve(struct csim_slice_store *store, size_t rows);

/*
 * Reads recorded rows by index, from memory or through a window of their
 * temporary file; in order it costs one read per window.
 */
struct csim_slice_loc_cursor {
	const struct csim_slice_store *store;
	struct csim_slice_loc *buf;       /* rows [base, base + n) of the file */
	size_t base, n, cap;
};

void csim_slice_loc_cursor_init(struct csim_slice_loc_cursor *c,
				const struct csim_slice_store *store);
/* Makes room for its window now, so that get() never allocates. */
int csim_slice_loc_cursor_reserve(struct csim_slice_loc_cursor *c, struct csim_error *err);
/* Recorded row i (< nlocs), valid until the next call. */
int csim_slice_loc_cursor_get(struct csim_slice_loc_cursor *c, size_t i,
			      const struct csim_slice_loc **loc, struct csim_error *err);
void csim_slice_loc_cursor_release(struct csim_slice_loc_cursor *c);

struct csim_slice_reader {
	const struct csim_slice_store *store;
	const struct csim_slice *rows;    /* the model's rows: kept flag, start */
	struct csim_block_reader reader;
	struct csim_payload_window win;   /* the current block's bytes */
	struct csim_trace_scan *scan;     /* parses a row with no recorded layout */
	size_t block, loc, loc_end;       /* next row: locs[loc], up to loc_end */
	size_t stop_block;                /* the block win.stop was set for */
	struct csim_progress *progress;   /* NULL: told nothing */
	int opened;
	size_t fixed;                     /* detached: the longest row it takes */
	char *spill_buf;                  /* a window of the temporary file */
	size_t spill_cap, spill_len;
	uint64_t spill_base;
	struct csim_slice_loc_cursor locs;
};

/*
 * Opens the second reading over the store's file (or its kept text); an
 * input error if the file is no longer the one first read. rows must
 * outlive the reader.
 */
int csim_slice_reader_open(struct csim_slice_reader *r,
			   const struct csim_slice_store *store,
			   const struct csim_slice *rows, struct csim_error *err);

/*
 * The next kept row in input order: *row and the raw spans of its name, pid,
 * ts, dur and args in ev (valid until the next call, or with kept text until
 * the store changes); *has is 0 at the end.
 * A row whose text no longer matches the first reading is an input error.
 */
int csim_slice_reader_next(struct csim_slice_reader *r, size_t *row,
			   struct csim_event *ev, int *has, struct csim_error *err);

/*
 * Limits the reader to the recorded rows locs[begin, end) (all of them after
 * open). Going back (begin before the next row) seeks the file again.
 */
void csim_slice_reader_range(struct csim_slice_reader *r, size_t begin, size_t end);

/*
 * Prepares a reader for a worker thread: room for rows of up to `longest`
 * bytes now, no progress, and from then on no allocation at all; a row that
 * would need one (longer, or with no recorded layout) fails as out of
 * memory, for the caller to leave to a reader that may allocate.
 */
int csim_slice_reader_detach(struct csim_slice_reader *r, size_t longest,
			     struct csim_error *err);

/* Accepts a reader whose open failed. */
void csim_slice_reader_close(struct csim_slice_reader *r);

#endif
