#include "read/input_stream.h"
#include "base/interrupt.h"
#include "read/gz_source.h"
#include "read/input_sniff.h"

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

/* Large enough for a SOURCE path plus two block headers, the widest peek. */
#define CSIM_STREAM_WINDOW (256u * 1024u)
#define CSIM_STREAM_MIN_PEEK (8u * 1024u)
#define CSIM_GZ_SMALL_FILE (16u * 1024u)
#define CSIM_GZ_SMALL_WINDOW (32u * 1024u)

static int stream_fail(struct csim_stream *s, struct csim_error *err,
		       const char *what)
{
	return csim_error_set(err, CSIM_E_INPUT, csim_stream_tell(s),
			      "%s: %s: %s", s->path, what, strerror(errno));
}

/*
 * The first two bytes, for gzip's magic: read in place from a file, or read
 * for good from a pipe (ESPIPE), which then hands them on to whoever reads
 * next (head, nhead). Returns 0, or -1 with errno set.
 */
static int stream_magic(int fd, unsigned char head[2], size_t *nhead, int *seekable)
{
	ssize_t n;

	*nhead = 0;
	*seekable = 1;
	do {
		n = pread(fd, head, 2, 0);
	} while (n < 0 && errno == EINTR && !csim_interrupt_pending());
	if (n >= 0) {
		*nhead = (size_t)n;
		return 0;
	}
	if (errno != ESPIPE)
		return -1;
	*seekable = 0;
	while (*nhead < 2) {
		n = read(fd, head + *nhead, 2 - *nhead);
		if (n < 0 && errno == EINTR && !csim_interrupt_pending())
			continue;
		if (n < 0)
			return -1;
		if (n == 0)
			break;
		*nhead += (size_t)n;
	}
	return 0;
}

/*
 * A small plain file needs no more window than itself (and the peek of a
 * SOURCE path plus two headers). A small gzip file gets a small window too:
 * it only costs more reads if it inflates a lot, and big windows made every
 * small input pay for mapping and unmapping them (the block-reader fuzzer
 * ran at half its speed).
 */
static size_t stream_window_size(const struct stat *st, int is_gzip)
{
	if (!S_ISREG(st->st_mode) || (uint64_t)st->st_size >= CSIM_STREAM_WINDOW)
		return CSIM_STREAM_WINDOW;
	if (is_gzip)
		return (uint64_t)st->st_size < CSIM_GZ_SMALL_FILE ? CSIM_GZ_SMALL_WINDOW
								  : CSIM_STREAM_WINDOW;
	return (size_t)st->st_size + CSIM_STREAM_MIN_PEEK;
}

void csim_stream_init(struct csim_stream *s)
{
	memset(s, 0, sizeof(*s));
	s->fd = -1;
}

int csim_stream_open(struct csim_stream *s, const char *path,
		     struct csim_error *err)
{
	struct stat st;
	unsigned char head[2];
	size_t nhead = 0;
	int is_gzip, seekable = 1;
	int rc = CSIM_OK;

	csim_stream_init(s);
	s->path = path;
	s->fd = open(path, O_RDONLY | O_CLOEXEC);
	if (s->fd < 0)
		return csim_error_set(err, CSIM_E_INPUT, CSIM_NO_OFFSET,
				      "%s: cannot open: %s", path, strerror(errno));
	if (fstat(s->fd, &st) != 0) {
		rc = stream_fail(s, err, "cannot read");
		goto out;
	}
	if (S_ISDIR(st.st_mode)) {
		errno = EISDIR;
		rc = stream_fail(s, err, "cannot read");
		goto out;
	}
	if (stream_magic(s->fd, head, &nhead, &seekable) != 0) {
		rc = csim_interrupt_pending() ? csim_interrupt_fail(err)
					      : stream_fail(s, err, "cannot read");
		goto out;
	}
	is_gzip = csim_input_sniff(head, nhead) == CSIM_SNIFF_GZIP;
	s->id.dev = st.st_dev;
	s->id.ino = st.st_ino;
	s->id.mtime_ns = (int64_t)st.st_mtim.tv_sec * 1000000000 + st.st_mtim.tv_nsec;
	s->id.size = (int64_t)st.st_size;
	s->cap = stream_window_size(&st, is_gzip);
	s->buf = malloc(s->cap);
	if (s->buf == NULL) {
		rc = csim_error_nomem(err, CSIM_E_INPUT);
		goto out;
	}
	if (is_gzip) {
		/* A pipe is read here: the thread is for files worth it. */
		int big = S_ISREG(st.st_mode) && (uint64_t)st.st_size >= CSIM_GZ_THREAD_MIN;

		if (csim_gz_source_open(&s->gz, s->fd, big, head, seekable ? 0 : nhead) != 0)
			rc = csim_error_nomem(err, CSIM_E_INPUT);
	} else {
		s->size = (uint64_t)st.st_size;
		s->size_known = S_ISREG(st.st_mode);
		if (!seekable) {
			memcpy(s->buf, head, nhead);   /* the window's first bytes */
			s->len = nhead;
		}
	}
out:
	if (rc != CSIM_OK)
		csim_stream_release(s);
	return rc;
}

void csim_stream_release(struct csim_stream *s)
{
	csim_gz_source_release(s->gz);   /* joins its thread: before close */
	if (s->fd >= 0)
		close(s->fd);
	free(s->buf);
	s->gz = NULL;
	s->fd = -1;
	s->buf = NULL;
}

uint64_t csim_stream_tell(const struct csim_stream *s)
{
	return s->base + s->pos;
}

static ssize_t stream_raw_read_once(struct csim_stream *s, void *dst, size_t n)
{
	ssize_t got;

	if (n > INT_MAX / 2)
		n = INT_MAX / 2;
	if (csim_interrupt_pending())
		return -1;
	do {
		got = read(s->fd, dst, n);
	} while (got < 0 && errno == EINTR && !csim_interrupt_pending());
	return got;
}

void csim_stream_set_progress(struct csim_stream *s, struct csim_progress *p)
{
	s->progress = p;
}

/*
 * Reads directly from the file (gzip: from its source; dst NULL drops the
 * bytes); returns bytes read, 0 at EOF, -1 on error. Progress is told the
 * file's offset: for plain input base + len, as every caller reads into the
 * byte after the window's end (0 bytes valid in it after a skip or seek);
 * for gzip the compressed bytes that gave these.
 */
static ssize_t stream_raw_read(struct csim_stream *s, void *dst, size_t n)
{
	uint64_t raw = 0;
	ssize_t got;

	if (s->gz == NULL) {
		got = stream_raw_read_once(s, dst, n);
		raw = s->base + s->len + (uint64_t)(got > 0 ? got : 0);
	} else if (csim_interrupt_pending()) {
		got = -1;
	} else {
		got = csim_gz_source_read(s->gz, dst, n, &raw);
	}
	if (s->progress != NULL && got > 0)
		csim_progress_bytes(s->progress, raw, (uint64_t)got);
	return got;
}

static int stream_gz_error(struct csim_stream *s, struct csim_error *err)
{
	const struct csim_gz_failure *f;

	if (csim_interrupt_pending())
		return csim_interrupt_fail(err);
	if (s->gz == NULL)
		return stream_fail(s, err, "read failed");
	f = csim_gz_source_failure(s->gz);
	/* Both offsets: the compressed one finds the damage in the file, the
	   inflated one is what the dump's block offsets count. */
	switch (f->kind) {
	case CSIM_GZ_FAIL_NOMEM:
		return csim_error_nomem(err, CSIM_E_INPUT);
	case CSIM_GZ_FAIL_ERRNO:
		return csim_error_set(err, CSIM_E_INPUT, f->inflated_at,
				      "%s: %s at compressed byte %llu: %s", s->path, f->msg,
				      (unsigned long long)f->raw_at, strerror(f->sys_errno));
	case CSIM_GZ_FAIL_CUT:
		return csim_error_set(err, CSIM_E_INPUT, f->inflated_at,
				      "%s: truncated gzip stream: the file ends at compressed byte %llu "
				      "(inflated offset %llu)", s->path,
				      (unsigned long long)f->raw_at, (unsigned long long)f->inflated_at);
	default:
		return csim_error_set(err, CSIM_E_INPUT, f->inflated_at,
				      "%s: corrupt gzip data near compressed byte %llu (inflated offset "
				      "%llu): %s", s->path, (unsigned long long)f->raw_at,
				      (unsigned long long)f->inflated_at, f->msg);
	}
}

int csim_stream_peek(struct csim_stream *s, size_t n, const unsigned char **p,
		     size_t *avail, struct csim_error *err)
{
	*avail = 0;   /* a caller that reads it after a failure sees no bytes */
	if (n > s->cap)
		n = s->cap;
	if (s->len - s->pos < n && !s->eof) {
		if (s->pos > 0) {
			memmove(s->buf, s->buf + s->pos, s->len - s->pos);
			s->base += s->pos;
			s->len -= s->pos;
			s->pos = 0;
		}
		while (s->len < n && !s->eof) {
			ssize_t got = stream_raw_read(s, s->buf + s->len,
						      s->cap - s->len);

			if (got < 0)
				return stream_gz_error(s, err);
			if (got == 0)
				s->eof = 1;
			s->len += (size_t)got;
		}
	}
	*p = s->buf + s->pos;
	*avail = s->len - s->pos < n ? s->len - s->pos : n;
	return CSIM_OK;
}

void csim_stream_consume(struct csim_stream *s, size_t n)
{
	s->pos += n;
}

int csim_stream_read(struct csim_stream *s, void *dst, size_t n, size_t *got,
		     struct csim_error *err)
{
	unsigned char *out = dst;
	size_t done = 0;

	/* Drain the window first, then read large requests straight into dst. */
	if (s->pos < s->len) {
		size_t k = s->len - s->pos < n ? s->len - s->pos : n;

		memcpy(out, s->buf + s->pos, k);
		s->pos += k;
		done = k;
	}
	while (done < n && !s->eof) {
		ssize_t r = stream_raw_read(s, out + done, n - done);

		if (r < 0) {
			*got = done;
			return stream_gz_error(s, err);
		}
		if (r == 0)
			s->eof = 1;
		done += (size_t)r;
		s->base += (uint64_t)r;
	}
	*got = done;
	return CSIM_OK;
}

int csim_stream_skip(struct csim_stream *s, uint64_t n, uint64_t *skipped,
		     struct csim_error *err)
{
	uint64_t done = 0;

	if (s->pos < s->len) {
		size_t k = s->len - s->pos;

		if ((uint64_t)k > n)
			k = (size_t)n;
		s->pos += k;
		done = k;
	}
	if (done < n && s->gz == NULL && s->size_known) {
		/* Plain files seek; the bounds check stays with the caller. */
		uint64_t here = csim_stream_tell(s);
		uint64_t left = s->size > here ? s->size - here : 0;
		uint64_t k = n - done < left ? n - done : left;

		if (lseek(s->fd, (off_t)(here + k), SEEK_SET) < 0)
			return stream_fail(s, err, "seek failed");
		s->base = here + k;
		s->pos = s->len = 0;
		done += k;
		if (done < n)
			s->eof = 1;
	}
	if (done < n && s->gz != NULL) {
		/* The window is drained: gzip bytes are dropped, never copied. */
		s->base += s->pos;
		s->pos = s->len = 0;
		while (done < n && !s->eof) {
			uint64_t want = n - done;
			ssize_t got = stream_raw_read(s, NULL, want < CSIM_GZ_CHUNK
							      ? (size_t)want : CSIM_GZ_CHUNK);

			if (got < 0)
				return stream_gz_error(s, err);
			if (got == 0)
				s->eof = 1;
			done += (uint64_t)got;
			s->base += (uint64_t)got;
		}
	}
	while (done < n && !s->eof) {
		const unsigned char *p;
		size_t avail;
		uint64_t want = n - done;
		int rc = csim_stream_peek(s, want < s->cap ? (size_t)want : s->cap,
					  &p, &avail, err);

		if (rc != CSIM_OK)
			return rc;
		csim_stream_consume(s, avail);
		done += avail;
		if (avail == 0)
			break;
	}
	*skipped = done;
	return CSIM_OK;
}

/*
 * gzip cannot seek: forward, the bytes between are dropped (the window's
 * first); backward, the source starts again from the file's start, as
 * gzseek() did.
 */
static int stream_gz_seek(struct csim_stream *s, uint64_t offset,
			  struct csim_error *err)
{
	uint64_t here = csim_stream_tell(s);
	uint64_t skipped;
	int rc;

	if (offset < here) {
		s->pos = s->len = 0;
		s->base = 0;
		s->eof = 0;
		here = 0;
		if (csim_gz_source_rewind(s->gz) != 0)
			return stream_fail(s, err, "seek failed");
	}
	rc = csim_stream_skip(s, offset - here, &skipped, err);
	if (rc != CSIM_OK)
		return rc;
	if (skipped < offset - here) {
		/* Past the end: reads there find nothing, as after gzseek(). */
		s->base = offset;
		s->pos = s->len = 0;
	}
	return CSIM_OK;
}

int csim_stream_seek(struct csim_stream *s, uint64_t offset,
		     struct csim_error *err)
{
	if (s->gz != NULL)
		return stream_gz_seek(s, offset, err);
	s->pos = s->len = 0;
	s->eof = 0;
	if (lseek(s->fd, (off_t)offset, SEEK_SET) < 0)
		return stream_fail(s, err, "seek failed");
	s->base = offset;
	return CSIM_OK;
}

int csim_file_id_same(const struct csim_file_id *a, const struct csim_file_id *b)
{
	return a->dev == b->dev && a->ino == b->ino && a->mtime_ns == b->mtime_ns &&
	       a->size == b->size;
}
