/*
 * input_stream: a bounded, buffered byte stream over a plain or gzip file.
 *
 * The converter never maps or loads the dump whole; everything above reads it
 * through this window. gzip input (magic 1f 8b at offset 0) is decompressed
 * transparently, and offsets are then offsets in the decompressed bytes;
 * a big gzip file is inflated ahead on a second thread (read/gz_source.h),
 * which nothing above the stream sees.
 *
 * Ownership: the stream owns its window buffer, file handle and gzip
 * source (with its thread); release() joins the thread and frees them all. It accepts a stream after init() or a failed open() and an
 * already released one, but not a merely zeroed one: that has fd 0, which
 * release() would close (stdin).
 */
#ifndef CSIM_INPUT_STREAM_H
#define CSIM_INPUT_STREAM_H

#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

#include "base/csim_error.h"
#include "base/progress.h"

struct csim_gz_source;

/* What identifies the file a stream reads: a second reading must find the same. */
struct csim_file_id {
	dev_t dev;
	ino_t ino;
	int64_t mtime_ns;
	int64_t size;          /* of the file as stored (gzip: compressed) */
};

struct csim_stream {
	const char *path;      /* borrowed, for messages */
	int fd;
	struct csim_gz_source *gz;   /* non-NULL for gzip input */
	unsigned char *buf;    /* look-ahead window */
	size_t cap;
	size_t pos;            /* first unconsumed byte in buf */
	size_t len;            /* bytes valid in buf */
	uint64_t base;         /* stream offset of buf[0] */
	uint64_t size;         /* total bytes, when size_known */
	int size_known;
	int eof;
	struct csim_file_id id;
	struct csim_progress *progress;   /* told of each read; NULL: none */
};

/* Leaves s safe to release (fd -1, no buffers). open() does it first. */
void csim_stream_init(struct csim_stream *s);
int csim_stream_open(struct csim_stream *s, const char *path,
		     struct csim_error *err);
void csim_stream_release(struct csim_stream *s);

/*
 * Tells p how far the file has been read after each read from it: the
 * file's own offset, so for gzip input the compressed bytes consumed,
 * measured against id.size. p NULL (the default) stops it.
 */
void csim_stream_set_progress(struct csim_stream *s, struct csim_progress *p);

int csim_file_id_same(const struct csim_file_id *a, const struct csim_file_id *b);

/* Offset of the next unconsumed byte. */
uint64_t csim_stream_tell(const struct csim_stream *s);

/*
 * Makes up to n bytes (n <= the window capacity) visible at *p without
 * consuming them; *avail < n only at end of file.
 */
int csim_stream_peek(struct csim_stream *s, size_t n, const unsigned char **p,
		     size_t *avail, struct csim_error *err);
void csim_stream_consume(struct csim_stream *s, size_t n);

/* Reads up to n bytes into dst; *got < n only at end of file. */
int csim_stream_read(struct csim_stream *s, void *dst, size_t n, size_t *got,
		     struct csim_error *err);

/* Skips n bytes; *skipped < n only at end of file. */
int csim_stream_skip(struct csim_stream *s, uint64_t n, uint64_t *skipped,
		     struct csim_error *err);

/* Repositions to an absolute offset (used by the second, writing pass). */
int csim_stream_seek(struct csim_stream *s, uint64_t offset,
		     struct csim_error *err);

#endif
