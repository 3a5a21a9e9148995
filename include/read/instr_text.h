/*
 * instr_text: the run's API_INSTR payload read as JSON through a bounded
 * window, so that no reading of it holds the payload whole (SPEC §7, issue
 * #12).
 *
 * A source names where the payload lies: a block of a plain file, which
 * every reading opens again (refusing a file that changed since the first
 * reading, as the slice store does), or a buffer in memory (gzip input,
 * whose re-reading would inflate the file from its start). The window holds
 * the item being scanned and grows only to hold the largest one: a row of
 * Instructions, or a top-level member other than Instructions.
 *
 * Scan errors name the file, the block and the payload byte, as
 * "PATH: API_INSTR block at offset N: WHY at payload byte M".
 *
 * Ownership: a source borrows its path and buffer; a text owns its window,
 * its reader and its nesting stack until csim_instr_text_close().
 */
#ifndef CSIM_INSTR_TEXT_H
#define CSIM_INSTR_TEXT_H

#include <stddef.h>
#include <stdint.h>

#include "base/csim_error.h"
#include "read/block_reader.h"
#include "read/byte_window.h"
#include "read/input_stream.h"
#include "read/json_scan.h"

struct csim_instr_source {
	const char *path;
	struct csim_block block;        /* the API_INSTR block */
	struct csim_file_id file_id;    /* the file as first read */
	const char *payload;            /* the payload in memory, or NULL: in the file */
};

struct csim_instr_text {
	const struct csim_instr_source *src;
	struct csim_block_reader reader;
	int opened;                     /* reader holds the file */
	struct csim_byte_window w;      /* payload offsets; lent: in memory */
	struct csim_byte_source source; /* the block's payload in the file */
	struct csim_json_stack stack;
};

/*
 * Grows the window to window bytes (when it is read from the file; 0 leaves
 * it) and the nesting stack to stack levels, so a reading of text it was
 * sized by never grows them. -1 out of memory.
 */
int csim_instr_text_reserve(struct csim_instr_text *t, size_t window, size_t stack);

/* The container a walk is in: its closing bracket and whether an item has
   been seen (a separator comes next). */
struct csim_instr_walk {
	char close;
	int started;
};

/* Starts a reading at the first payload byte. */
int csim_instr_text_open(struct csim_instr_text *t, const struct csim_instr_source *src,
			 struct csim_error *err);

/* Accepts a text whose open failed, and a zeroed one. */
void csim_instr_text_close(struct csim_instr_text *t);

/* Payload offset of a byte in the window. */
uint64_t csim_instr_text_offset(const struct csim_instr_text *t, const char *p);

/* The input error "WHY at payload byte AT"; returns CSIM_E_INPUT. */
int csim_instr_text_bad(const struct csim_instr_text *t, uint64_t at, const char *why,
			struct csim_error *err);

/* The input error "the file changed while it was being converted". */
int csim_instr_text_changed(const struct csim_instr_text *t, struct csim_error *err);

/* Moves forward to a payload offset (a later reading's start). */
int csim_instr_text_seek(struct csim_instr_text *t, uint64_t offset,
			 struct csim_error *err);

/*
 * Skips whitespace; *c is the next byte, or -1 at the payload's end. The
 * byte is then at t->data + t->pos.
 */
int csim_instr_text_peek(struct csim_instr_text *t, int *c, struct csim_error *err);

/*
 * Enters the container whose opening bracket is at t->pos.
 */
void csim_instr_text_enter(struct csim_instr_text *t, struct csim_instr_walk *w);

/*
 * The next item of the container being walked, up to its value (see
 * csim_json_iter_head): *has 1 with item->key (objects) valid until the
 * next call, and t->pos at the value; *has 0 after the closing bracket.
 */
int csim_instr_text_head(struct csim_instr_text *t, struct csim_instr_walk *w,
			 struct csim_json_item *item, int *has, struct csim_error *err);

/*
 * Scans the value at t->pos and moves past it; *value is its text, valid
 * until the next call.
 */
int csim_instr_text_value(struct csim_instr_text *t, struct csim_span *value,
			  struct csim_error *err);

/*
 * Reads more payload, keeping data[pos, len) (moved to the window's start)
 * and growing the window when that fills it: for a caller scanning an item
 * at t->pos itself, after CSIM_SCAN_MORE. Not after the payload's end.
 */
int csim_instr_text_more(struct csim_instr_text *t, struct csim_error *err);

/*
 * The next piece of the payload from t->pos, byte for byte (--raw-metrics);
 * *n 0 at its end.
 */
int csim_instr_text_chunk(struct csim_instr_text *t, const char **p, size_t *n,
			  struct csim_error *err);

#endif
