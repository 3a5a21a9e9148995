/*
 * instr_index: the run's API_INSTR payload (SPEC §7) read in bounded memory.
 *
 * load() is the first scan: it validates the whole payload (through
 * read/instr_text.h's window, so the payload is never held whole unless it
 * came in memory) and keeps only what is small: the Cores, the
 * "Instructions Dtype" value and where Instructions begins. A row reader
 * then walks the Instructions rows one at a time, as often as needed (the
 * digest and the metrics writer's sizing share one walk, its writing
 * another), handing out each row's fields as spans and, for an array with
 * one element per core, the elements. An array as long as Cores is split
 * per core unless its column's dtype is 5 (JSON string) or 100 (percentage
 * with details); the Dtype follows Instructions in the producer's files
 * (format-notes §5.2), which is why the rows are walked after the scan.
 *
 * Memory: the Cores, the Dtype and the largest row (or top-level member
 * other than Instructions), never per row or per element of the block.
 *
 * Ownership: load() takes an in-memory payload buffer; release() frees it
 * and what load kept. A row reader owns its file handle and buffers until
 * close(); a row's spans are valid until the next call.
 */
#ifndef CSIM_INSTR_INDEX_H
#define CSIM_INSTR_INDEX_H

#include <stddef.h>
#include <stdint.h>

#include "base/csim_error.h"
#include "base/span.h"
#include "read/block_reader.h"
#include "read/input_stream.h"
#include "read/instr_text.h"

struct csim_metrics_field {
	struct csim_span key;   /* key text between its quotes */
	struct csim_span val;   /* raw value text */
	size_t elems;           /* first element span in the row's elem[], when split */
	int split;              /* an array with one element per core */
};

/* One Instructions row, from a row reader. */
struct csim_instr_row {
	size_t index;           /* from 0, in input order */
	const struct csim_metrics_field *fields;
	size_t nfields;
	const struct csim_span *elem;   /* element spans of the split fields */
	const struct csim_metrics_field *executed;   /* its first "Instructions
							Executed" field, or NULL */
};

struct csim_metrics {
	struct csim_instr_source src;
	char *payload;          /* an in-memory payload (owned), or NULL */
	char *cores_text;       /* the Cores value as written */
	uint64_t cores_at;      /* its payload offset */
	struct csim_span *cores;   /* raw string values of Cores, in cores_text */
	size_t ncores, cores_cap;
	char *dtype;            /* raw "Instructions Dtype" value, or NULL */
	size_t dtype_n;
	struct csim_span *whole;   /* keys of the Dtype's numeric entries, in order */
	unsigned char *whole_code; /* per entry: 1 when its code is 5 or 100 */
	size_t nwhole, whole_cap, whole_code_cap;
	uint64_t instr_at;      /* payload offset of the Instructions array */
	size_t nrows;
	/* --core: the patterns, and per core whether its name matches one
	   (csim_metrics_cut); NULL: every core is in */
	const char *const *cut;
	size_t ncut;
	unsigned char *core_in;
};

/*
 * Keeps the cores whose decoded name matches one of the --core patterns
 * (shell globs, as the trace's cut matches pids): the summary's API_INSTR
 * figures and instr_metrics.json then hold those cores only. The patterns
 * must outlive mt. Out of memory: CSIM_E_INPUT.
 */
int csim_metrics_cut(struct csim_metrics *mt, const char *const *patterns, size_t n,
		     struct csim_error *err);

/* Whether core c is in (csim_metrics_cut). */
static inline int csim_metrics_core_in(const struct csim_metrics *mt, size_t c)
{
	return mt->core_in == NULL || mt->core_in[c] != 0;
}

/* How many cores are in. */
static inline size_t csim_metrics_cores_in(const struct csim_metrics *mt)
{
	size_t n = 0;

	for (size_t c = 0; c < mt->ncores; c++)
		n += (size_t)csim_metrics_core_in(mt, c);
	return n;
}

/*
 * Validates an API_INSTR payload held in memory (gzip input, tests). Takes
 * ownership of payload in every case, also on failure: call
 * csim_metrics_release() afterwards either way.
 */
int csim_metrics_load(struct csim_metrics *mt, const char *path,
		      uint64_t block_offset, char *payload, size_t size,
		      struct csim_error *err);

/*
 * The same for the payload of block blk of a plain file, read through the
 * window; an input error if the file is no longer id. path must outlive mt.
 */
int csim_metrics_load_block(struct csim_metrics *mt, const char *path,
			    const struct csim_block *blk, const struct csim_file_id *id,
			    struct csim_error *err);

/* Accepts a zeroed struct. */
void csim_metrics_release(struct csim_metrics *mt);

/* The API_INSTR block's payload size, as its header gives it. */
static inline uint64_t csim_metrics_payload_size(const struct csim_metrics *mt)
{
	return mt->src.block.payload_size;
}

/* The API_INSTR block's header offset. */
static inline uint64_t csim_metrics_block_offset(const struct csim_metrics *mt)
{
	return mt->src.block.offset;
}

struct csim_instr_rows {
	const struct csim_metrics *mt;
	struct csim_instr_text text;
	struct csim_instr_walk walk;
	struct csim_metrics_field *fields;
	size_t nfields, fields_cap;
	struct csim_span *elem;
	size_t nelem, elem_cap;
	size_t index;           /* rows handed out */
};

/* How large a reading grew the reader's buffers, in their elements. */
struct csim_instr_rows_marks {
	size_t window;          /* the window (0: payload in memory) */
	size_t stack;           /* the JSON nesting stack */
	size_t fields, elems;   /* a row's fields and split elements */
};

/* Opens a reading of mt's rows (again from the file, when mt has one). */
int csim_instr_rows_open(struct csim_instr_rows *rr, const struct csim_metrics *mt,
			 struct csim_error *err);

/*
 * The next row; *has 0 at the end. Rows are delimited by read/json_skip,
 * not validated again: rows that no longer match the first scan (another
 * count, a row that is no object, bytes the skipper refuses) mean the file
 * changed.
 */
int csim_instr_rows_next(struct csim_instr_rows *rr, struct csim_instr_row *row,
			 int *has, struct csim_error *err);

/*
 * Whether core c executed the row (SPEC §7): no unless its Instructions
 * Executed for c (the element of an array split per core, or a scalar for
 * every core) is a JSON number equal to 0. A row without the column, or
 * whose count for c is no number, a negative one (-1: not applicable) or
 * an array not split per core, has no count for c and counts as executed.
 * The metrics writer leaves out the records of cores that did not execute
 * a row, and the digest their values, so both describe the same records.
 */
int csim_instr_row_ran(const struct csim_instr_row *row, size_t c);

/* Accepts a reader whose open failed. */
void csim_instr_rows_close(struct csim_instr_rows *rr);

/*
 * rr's marks after a reading; and a new reader grown to them, so that it
 * reads the same rows without growing any buffer, wherever the window's
 * refills cut them (a buffer grows only for an item larger than it).
 * reserve() returns -1 out of memory.
 */
struct csim_instr_rows_marks csim_instr_rows_marks(const struct csim_instr_rows *rr);
int csim_instr_rows_reserve(struct csim_instr_rows *rr, const struct csim_instr_rows_marks *m);

/*
 * The whole payload, byte for byte, through the window (--raw-metrics):
 * opened like a row reader, then read with csim_instr_text_chunk().
 */
int csim_metrics_open_text(const struct csim_metrics *mt, struct csim_instr_text *t,
			   struct csim_error *err);

#endif
