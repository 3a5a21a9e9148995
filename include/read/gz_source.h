/*
 * gz_source: the inflated bytes of a gzip file, for input_stream only.
 *
 * A big file (a regular file of CSIM_GZ_THREAD_MIN compressed bytes or
 * more) is inflated on a second thread into a ring of CSIM_GZ_CHUNKS chunks
 * of CSIM_GZ_CHUNK bytes, so inflation overlaps the scan and memory stays
 * bounded whatever the input's size; a small one inflates on the caller's
 * thread, straight into the caller's buffer, and never starts a thread.
 *
 * Reading follows gzread(): concatenated members are read one after the
 * other, bytes after the last member that do not start another are ignored,
 * and a file that ends inside a member fails (CSIM_GZ_FAIL_CUT) after
 * every byte inflated before the cut was delivered. The inflation
 * itself is gz_inflate's (igzip or zlib, as built).
 *
 * Threads: the worker allocates nothing (the inflater's state is made on the
 * opening thread, and so is zlib's window: the first chunk is always
 * inflated there),
 * never sees a signal (they are blocked in it, so they reach the main thread
 * and its loops poll them) and touches nothing outside the source; the
 * caller's thread owns everything else. release() stops and joins it.
 *
 * Ownership: the source borrows the file descriptor (the stream closes it,
 * after release()).
 */
#ifndef CSIM_GZ_SOURCE_H
#define CSIM_GZ_SOURCE_H

#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

/* Compressed size from which a regular file is inflated on a second thread. */
#define CSIM_GZ_THREAD_MIN (256u * 1024u)
#define CSIM_GZ_CHUNK (1024u * 1024u)
#define CSIM_GZ_CHUNKS 4u

struct csim_gz_source;

enum csim_gz_fail_kind {
	CSIM_GZ_FAIL_NONE,
	CSIM_GZ_FAIL_DATA,     /* corrupt: msg says how */
	CSIM_GZ_FAIL_CUT,      /* the file ends inside a member */
	CSIM_GZ_FAIL_NOMEM,
	CSIM_GZ_FAIL_ERRNO     /* reading the file: msg and sys_errno */
};

/*
 * Why inflation stopped early, and where in both streams: the compressed
 * file's bytes and the inflated bytes the dump's offsets count.
 */
struct csim_gz_failure {
	enum csim_gz_fail_kind kind;
	const char *msg;       /* static text (the inflater's or ours) */
	int sys_errno;         /* for CSIM_GZ_FAIL_ERRNO */
	uint64_t raw_at;       /* compressed bytes used (a cut: the file's size) */
	uint64_t inflated_at;  /* inflated bytes handed out before it */
};

/*
 * Opens a source over fd. head: the nhead (at most 2) bytes already read
 * from fd's start, which a pipe cannot give back (NULL, 0 for a file read
 * from its start). threaded: the file is big enough for the second thread.
 * Returns 0, or -1 when out of memory.
 */
int csim_gz_source_open(struct csim_gz_source **out, int fd, int threaded,
			const unsigned char *head, size_t nhead);

/* Stops and joins the worker, frees everything; accepts NULL. */
void csim_gz_source_release(struct csim_gz_source *g);

/*
 * Up to n inflated bytes into dst (dst NULL: dropped); returns how many,
 * 0 at the end, -1 on failure (see failure()). *raw is how many compressed
 * bytes had been read from the file to inflate them (for progress).
 */
ssize_t csim_gz_source_read(struct csim_gz_source *g, void *dst, size_t n,
			    uint64_t *raw);

/* What made read() return -1. */
const struct csim_gz_failure *csim_gz_source_failure(const struct csim_gz_source *g);

/* Back to the start of the file; -1 with errno set if it cannot seek. */
int csim_gz_source_rewind(struct csim_gz_source *g);

#endif
