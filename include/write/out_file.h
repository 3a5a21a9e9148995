/*
 * out_file: a buffered output file that appears atomically.
 *
 * Bytes go to a temporary file in the destination directory; commit() renames
 * it over the final name, abort() removes it. A failed write is remembered and
 * reported once, by commit(), as exit status 3; until then writes are cheap
 * calls that never fail individually. The JSON and HTML helpers here are
 * the only place output text is escaped.
 *
 * A file opened with csim_out_open_gzip() holds the same bytes as one gzip
 * member: each buffer flush goes through a streaming deflate, so memory stays
 * bounded whatever the file's size (SPEC §6: chrome://tracing reads only the
 * first member, so the stream is never restarted).
 */
#ifndef CSIM_OUT_FILE_H
#define CSIM_OUT_FILE_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "base/csim_error.h"

struct csim_out_deflate;   /* zlib's state, private to out_file.c */

struct csim_out {
	int fd;
	char *tmp_path;
	char *final_path;
	char *buf;
	size_t len, cap;
	int write_errno;       /* first failure, 0 if none */
	uint64_t written;      /* bytes that reached the file */
	uint64_t unflushed;    /* bytes written since the last write-out hint */
	int no_writeback;      /* the file system refused the hint */
	struct csim_out_deflate *gz;   /* NULL: plain file */
	/* A staged output's way out (csim_out_stage); NULL: the file. */
	int (*send)(void *ctx, const char *p, size_t n);
	void *send_ctx;
};

/* name is a plain file name of at most 48 bytes (the temp name adds 8). */
int csim_out_open(struct csim_out *o, const char *dir, const char *name,
		  struct csim_error *err);

/* The same, for a gzip file (name should end in ".gz"). */
int csim_out_open_gzip(struct csim_out *o, const char *dir, const char *name,
		       struct csim_error *err);

/*
 * An output with no file: bytes collect in buf (cap bytes, owned by the
 * caller, who never commits or aborts it) and leave through send() when it
 * is full or flushed; send returns 0 or an errno value, which is then
 * remembered like a failed write. Allocates nothing.
 */
void csim_out_stage(struct csim_out *o, char *buf, size_t cap,
		    int (*send)(void *ctx, const char *p, size_t n), void *ctx);

/*
 * A staged output onto an open stream (stdout, for --summary-only): the
 * bytes leave through fwrite(). A failed write is remembered like any
 * other, so the writer stops early, and stays in the stream's error flag
 * for the stream's owner to report (main checks stdout once).
 */
void csim_out_stream(struct csim_out *o, char *buf, size_t cap, FILE *f);

/* Sends the buffered bytes on (to the file, deflate or send()). */
void csim_out_flush(struct csim_out *o);

/*
 * Flushes, fsyncs and closes the temporary file, which stays under its
 * temporary name (write/out_set.h puts it in place); on failure it is gone
 * and o is aborted.
 */
int csim_out_finish(struct csim_out *o, struct csim_error *err);

/* Finishes and renames into place alone; on failure the temp file is gone. */
int csim_out_commit(struct csim_out *o, struct csim_error *err);

/* Discards the temporary file (safe after commit and on a zeroed struct). */
void csim_out_abort(struct csim_out *o);

/* Whether a write has failed already (lets long writers stop early). */
int csim_out_failed(const struct csim_out *o);

/*
 * Leaves n bytes of a plain file unwritten after what was written so far,
 * for csim_out_at() to fill, and returns where they begin; later writes
 * follow them. (instr_metrics.json: each core's rows, written at once.) A
 * hole that fits in the buffer is filled there.
 */
uint64_t csim_out_hole(struct csim_out *o, uint64_t n);

/*
 * Writes bytes at an offset of a plain file, inside a hole: into the buffer
 * while they are still there, else straight to the file. A failure is
 * remembered like any write's.
 */
void csim_out_at(struct csim_out *o, uint64_t offset, const char *p, size_t n);

void csim_out_bytes(struct csim_out *o, const char *p, size_t n);
void csim_out_text(struct csim_out *o, const char *s);
void csim_out_char(struct csim_out *o, char c);
void csim_out_uint(struct csim_out *o, uint64_t v);
void csim_out_int(struct csim_out *o, int64_t v);

/* A JSON string literal with quotes; escapes quotes, backslashes, controls. */
void csim_out_json_string(struct csim_out *o, const char *p, size_t n);

/* The same escaping without the quotes, to build a string from pieces. */
void csim_out_json_escaped(struct csim_out *o, const char *p, size_t n);

/*
 * The same escaping into memory: dst holds at least 6 * n bytes. Returns
 * the length written.
 */
size_t csim_out_json_escape(char *dst, const char *p, size_t n);

/*
 * Text for an HTML page, in an element or a quoted attribute: & < > " '
 * as entities, a control byte as '?'.
 */
void csim_out_html_escaped(struct csim_out *o, const char *p, size_t n);

/* Longest text csim_out_format() writes, NUL included. */
#define CSIM_OUT_FORMAT_MAX 256

/*
 * printf-style text of at most CSIM_OUT_FORMAT_MAX - 1 bytes (the rest is
 * cut): for numbers and fixed markup, never for names from the input.
 */
void csim_out_format(struct csim_out *o, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

/* A timestamp given in half-nanoseconds, as microseconds (3 or 4 decimals). */
void csim_out_half_ns_as_us(struct csim_out *o, int64_t half_ns);

#endif
