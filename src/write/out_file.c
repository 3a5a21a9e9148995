#define _GNU_SOURCE   /* sync_file_range */
#include "write/out_file.h"
#include "base/interrupt.h"
#include "base/path.h"

#include <errno.h>
#include <stdarg.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#define ZLIB_CONST
#include <zlib.h>

#define OUT_BUFFER (1u << 20)
#define OUT_WRITEBACK ((uint64_t)8 << 20)   /* out_written() */

/*
 * Level 1: on a 29 MB trace deflate costs about a third of level 6's CPU
 * for a file 1.4x as large, still 15x smaller than the JSON
 * (docs/performance.md, "gzip output"; docs/decisions.md).
 */
#define GZ_LEVEL 1
#define GZ_WINDOW_BITS (15 + 16)   /* 32 KB window, gzip wrapper */
#define GZ_OUT (1u << 18)
#define GZ_MAX_IN (1u << 30)       /* avail_in is an unsigned int */

struct csim_out_deflate {
	z_stream z;
	unsigned char out[GZ_OUT];
};

/*
 * Every OUT_WRITEBACK bytes that reach a file, the disk is asked to
 * start writing them (sync_file_range, SYNC_FILE_RANGE_WRITE: it starts
 * the write-out and does not wait for it), so it writes while the run
 * goes on and the fsync before the commit finds little left to wait for.
 * A hint only: a file system that refuses it (EINVAL, ENOSYS...) is not
 * asked again, and the fsync is the guarantee either way.
 */
static void out_written(struct csim_out *o, size_t n)
{
	o->unflushed += n;
	if (o->unflushed < OUT_WRITEBACK || o->no_writeback)
		return;
	o->unflushed = 0;
	if (sync_file_range(o->fd, 0, 0, SYNC_FILE_RANGE_WRITE) != 0)
		o->no_writeback = 1;
}

/* mkstemp makes 0600 files; give outputs the usual 0666 & ~umask. */
static void out_set_mode(int fd)
{
	mode_t mask = umask(0);

	umask(mask);
	(void)fchmod(fd, 0666 & ~mask);
}

int csim_out_open(struct csim_out *o, const char *dir, const char *name,
		  struct csim_error *err)
{
	char tmpl[64];
	int rc;

	memset(o, 0, sizeof(*o));
	o->fd = -1;
	snprintf(tmpl, sizeof(tmpl), ".%s.XXXXXX", name);
	o->final_path = csim_path_join(dir, name);
	o->tmp_path = csim_path_join(dir, tmpl);
	o->buf = malloc(OUT_BUFFER);
	if (o->final_path == NULL || o->tmp_path == NULL || o->buf == NULL) {
		rc = csim_error_nomem(err, CSIM_E_OUTPUT);
		goto fail;
	}
	o->cap = OUT_BUFFER;
	o->fd = mkstemp(o->tmp_path);
	if (o->fd < 0) {
		rc = csim_error_set(err, CSIM_E_OUTPUT, CSIM_NO_OFFSET,
				    "cannot write %s: %s", o->final_path,
				    strerror(errno));
		goto fail;
	}
	out_set_mode(o->fd);
	return CSIM_OK;
fail:
	free(o->tmp_path);   /* nothing was created under this name */
	o->tmp_path = NULL;
	csim_out_abort(o);
	return rc;
}

int csim_out_open_gzip(struct csim_out *o, const char *dir, const char *name,
		       struct csim_error *err)
{
	int rc = csim_out_open(o, dir, name, err);

	if (rc != CSIM_OK)
		return rc;
	o->gz = calloc(1, sizeof(*o->gz));
	if (o->gz == NULL)
		goto nomem;
	/* A failed init frees what it got; the struct is then not a stream. */
	if (deflateInit2(&o->gz->z, GZ_LEVEL, Z_DEFLATED, GZ_WINDOW_BITS, 8,
			 Z_DEFAULT_STRATEGY) != Z_OK) {
		free(o->gz);
		o->gz = NULL;
		goto nomem;
	}
	return CSIM_OK;
nomem:
	csim_out_abort(o);
	return csim_error_nomem(err, CSIM_E_OUTPUT);
}

static void out_write_all(struct csim_out *o, const char *p, size_t len)
{
	size_t done = 0;

	while (done < len && o->write_errno == 0) {
		ssize_t n;

		if (csim_interrupt_pending()) {
			o->write_errno = EINTR;
			break;
		}
		n = write(o->fd, p + done, len - done);
		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0) {
			o->write_errno = n < 0 ? errno : EIO;
			break;
		}
		done += (size_t)n;
	}
	o->written += done;
	out_written(o, done);
}

/* Deflates len bytes; Z_FINISH also ends the member and writes its trailer. */
static void out_deflate(struct csim_out *o, const char *p, size_t len, int flush)
{
	z_stream *z = &o->gz->z;

	do {
		size_t piece = len < GZ_MAX_IN ? len : GZ_MAX_IN;
		int mode = piece == len ? flush : Z_NO_FLUSH;
		int zrc;

		z->next_in = (const Bytef *)p;
		z->avail_in = (uInt)piece;
		p += piece;
		len -= piece;
		do {
			z->next_out = o->gz->out;
			z->avail_out = GZ_OUT;
			zrc = deflate(z, mode);
			if (zrc == Z_STREAM_ERROR) {
				o->write_errno = EIO;
				return;
			}
			out_write_all(o, (const char *)o->gz->out, GZ_OUT - z->avail_out);
			if (o->write_errno != 0)
				return;
		} while (z->avail_out == 0 ||
			 (mode == Z_FINISH && zrc != Z_STREAM_END));
	} while (len > 0);
}

/* Bytes leave the buffer here: to the file, through deflate, or on. */
static void out_send(struct csim_out *o, const char *p, size_t len)
{
	if (o->send != NULL) {
		int e = len > 0 && o->write_errno == 0 ? o->send(o->send_ctx, p, len) : 0;

		if (e != 0)
			o->write_errno = e;
		else
			o->written += len;
	} else if (o->gz != NULL) {
		out_deflate(o, p, len, Z_NO_FLUSH);
	} else {
		out_write_all(o, p, len);
	}
}

static void out_flush(struct csim_out *o)
{
	out_send(o, o->buf, o->len);
	o->len = 0;
}

void csim_out_flush(struct csim_out *o)
{
	out_flush(o);
}

void csim_out_stage(struct csim_out *o, char *buf, size_t cap,
		    int (*send)(void *ctx, const char *p, size_t n), void *ctx)
{
	memset(o, 0, sizeof(*o));
	o->fd = -1;
	o->buf = buf;
	o->cap = cap;
	o->send = send;
	o->send_ctx = ctx;
}

static int stream_send(void *ctx, const char *p, size_t n)
{
	FILE *f = ctx;

	errno = 0;
	if (fwrite(p, 1, n, f) == n)
		return 0;
	return errno != 0 ? errno : EIO;
}

void csim_out_stream(struct csim_out *o, char *buf, size_t cap, FILE *f)
{
	csim_out_stage(o, buf, cap, stream_send, f);
}

uint64_t csim_out_hole(struct csim_out *o, uint64_t n)
{
	uint64_t at;

	if (o->write_errno == 0 && o->gz != NULL)
		o->write_errno = EINVAL;   /* a deflate stream has no offsets */
	if (o->write_errno != 0)
		return o->written + o->len;
	if (n <= o->cap - o->len) {
		/* A small hole stays in the buffer and leaves with it, so a
		   small file is written at commit like any other. */
		at = o->written + o->len;
		memset(o->buf + o->len, 0, (size_t)n);
		o->len += (size_t)n;
		return at;
	}
	out_flush(o);
	at = o->written;
	if (o->write_errno != 0)
		return at;
	if (n > (uint64_t)INT64_MAX - at)
		o->write_errno = EFBIG;
	else if (lseek(o->fd, (off_t)n, SEEK_CUR) < 0)
		o->write_errno = errno;
	else
		o->written += n;
	return at;
}

void csim_out_at(struct csim_out *o, uint64_t offset, const char *p, size_t n)
{
	size_t done = 0;

	if (o->write_errno == 0 && offset + n > o->written) {
		/* The bytes from o->written on are still in the buffer. */
		uint64_t from = offset > o->written ? offset : o->written;
		size_t skip = (size_t)(from - offset);

		memcpy(o->buf + (from - o->written), p + skip, n - skip);
		n = skip;
	}
	while (done < n && o->write_errno == 0) {
		ssize_t k;

		if (csim_interrupt_pending()) {
			o->write_errno = EINTR;
			break;
		}
		k = pwrite(o->fd, p + done, n - done, (off_t)(offset + done));
		if (k < 0 && errno == EINTR)
			continue;
		if (k <= 0) {
			o->write_errno = k < 0 ? errno : EIO;
			break;
		}
		done += (size_t)k;
	}
	out_written(o, done);
}

int csim_out_failed(const struct csim_out *o)
{
	return o->write_errno != 0;
}

void csim_out_bytes(struct csim_out *o, const char *p, size_t n)
{
	if (o->write_errno != 0)
		return;
	if (o->len + n > o->cap) {
		out_flush(o);
		if (n >= o->cap) {
			/* Large pieces (a huge args value) go straight out. */
			out_send(o, p, n);
			return;
		}
	}
	memcpy(o->buf + o->len, p, n);
	o->len += n;
}

void csim_out_text(struct csim_out *o, const char *s)
{
	csim_out_bytes(o, s, strlen(s));
}

void csim_out_char(struct csim_out *o, char c)
{
	if (o->len < o->cap)
		o->buf[o->len++] = c;
	else
		csim_out_bytes(o, &c, 1);
}

void csim_out_uint(struct csim_out *o, uint64_t v)
{
	char tmp[24];
	size_t i = sizeof(tmp);

	do {
		tmp[--i] = (char)('0' + v % 10);
		v /= 10;
	} while (v != 0);
	csim_out_bytes(o, tmp + i, sizeof(tmp) - i);
}

void csim_out_int(struct csim_out *o, int64_t v)
{
	if (v < 0) {
		csim_out_char(o, '-');
		csim_out_uint(o, (uint64_t)0 - (uint64_t)v);
	} else {
		csim_out_uint(o, (uint64_t)v);
	}
}

void csim_out_json_string(struct csim_out *o, const char *p, size_t n)
{
	csim_out_char(o, '"');
	csim_out_json_escaped(o, p, n);
	csim_out_char(o, '"');
}

void csim_out_json_escaped(struct csim_out *o, const char *p, size_t n)
{
	static const char hex[] = "0123456789abcdef";
	size_t run = 0;

	for (size_t i = 0; i < n; i++) {
		unsigned char c = (unsigned char)p[i];
		char esc[6] = { '\\', 'u', '0', '0', hex[c >> 4], hex[c & 15] };

		if (c >= 0x20 && c != '"' && c != '\\')
			continue;
		csim_out_bytes(o, p + run, i - run);
		run = i + 1;
		if (c == '"' || c == '\\') {
			char two[2] = { '\\', (char)c };

			csim_out_bytes(o, two, 2);
		} else if (c == '\n') {
			csim_out_bytes(o, "\\n", 2);
		} else if (c == '\t') {
			csim_out_bytes(o, "\\t", 2);
		} else {
			csim_out_bytes(o, esc, sizeof(esc));
		}
	}
	csim_out_bytes(o, p + run, n - run);
}

size_t csim_out_json_escape(char *dst, const char *p, size_t n)
{
	static const char hex[] = "0123456789abcdef";
	size_t len = 0;

	for (size_t i = 0; i < n; i++) {
		unsigned char c = (unsigned char)p[i];

		if (c >= 0x20 && c != '"' && c != '\\') {
			dst[len++] = (char)c;
			continue;
		}
		dst[len++] = '\\';
		if (c == '"' || c == '\\') {
			dst[len++] = (char)c;
		} else if (c == '\n') {
			dst[len++] = 'n';
		} else if (c == '\t') {
			dst[len++] = 't';
		} else {
			memcpy(dst + len, "u00", 3);
			dst[len + 3] = hex[c >> 4];
			dst[len + 4] = hex[c & 15];
			len += 5;
		}
	}
	return len;
}

void csim_out_html_escaped(struct csim_out *o, const char *p, size_t n)
{
	size_t run = 0;

	for (size_t i = 0; i < n; i++) {
		unsigned char c = (unsigned char)p[i];
		const char *esc;

		if (c == '&')
			esc = "&amp;";
		else if (c == '<')
			esc = "&lt;";
		else if (c == '>')
			esc = "&gt;";
		else if (c == '"')
			esc = "&quot;";
		else if (c == '\'')
			esc = "&#39;";
		else if (c < 0x20 || c == 0x7F)
			esc = "?";   /* no control byte in a page (HTML forbids most) */
		else
			continue;
		csim_out_bytes(o, p + run, i - run);
		run = i + 1;
		csim_out_text(o, esc);
	}
	csim_out_bytes(o, p + run, n - run);
}

void csim_out_format(struct csim_out *o, const char *fmt, ...)
{
	char buf[CSIM_OUT_FORMAT_MAX];
	va_list ap;
	int n;

	va_start(ap, fmt);
	n = vsnprintf(buf, sizeof(buf), fmt, ap);
	va_end(ap);
	if (n > 0)
		csim_out_bytes(o, buf, (size_t)n < sizeof(buf) ? (size_t)n : sizeof(buf) - 1);
}

void csim_out_half_ns_as_us(struct csim_out *o, int64_t half_ns)
{
	uint64_t v;
	uint64_t ns;
	char frac[5];

	if (half_ns < 0) {
		csim_out_char(o, '-');
		v = (uint64_t)0 - (uint64_t)half_ns;
	} else {
		v = (uint64_t)half_ns;
	}
	ns = v / 2;
	csim_out_uint(o, ns / 1000);
	frac[0] = '.';
	frac[1] = (char)('0' + ns % 1000 / 100);
	frac[2] = (char)('0' + ns % 100 / 10);
	frac[3] = (char)('0' + ns % 10);
	frac[4] = '5';
	csim_out_bytes(o, frac, v % 2 ? 5 : 4);
}

/* The file's failure as the run's error; EINTR with a signal pending is that signal's. */
static int out_error(const struct csim_out *o, struct csim_error *err)
{
	if (o->write_errno == EINTR && csim_interrupt_pending())
		return csim_interrupt_fail(err);
	return csim_error_set(err, CSIM_E_OUTPUT, CSIM_NO_OFFSET, "cannot write %s: %s",
			      o->final_path, strerror(o->write_errno));
}

int csim_out_finish(struct csim_out *o, struct csim_error *err)
{
	out_flush(o);
	if (o->gz != NULL && o->write_errno == 0)
		out_deflate(o, "", 0, Z_FINISH);
	if (o->write_errno == 0 && fsync(o->fd) != 0 && errno != EINVAL)
		o->write_errno = errno;
	if (o->write_errno == 0 && close(o->fd) != 0)
		o->write_errno = errno;
	else if (o->write_errno != 0)
		close(o->fd);
	o->fd = -1;
	if (o->write_errno != 0) {
		const int rc = out_error(o, err);

		csim_out_abort(o);
		return rc;
	}
	return CSIM_OK;
}

int csim_out_commit(struct csim_out *o, struct csim_error *err)
{
	int rc = csim_out_finish(o, err);

	if (rc == CSIM_OK && rename(o->tmp_path, o->final_path) != 0) {
		o->write_errno = errno;
		rc = out_error(o, err);
	} else if (rc == CSIM_OK) {
		free(o->tmp_path);   /* renamed: nothing left to remove */
		o->tmp_path = NULL;
	}
	csim_out_abort(o);
	return rc;
}

void csim_out_abort(struct csim_out *o)
{
	/* A zeroed struct has fd 0 but no buffer: never close stdin. */
	if (o->buf != NULL && o->fd >= 0)
		close(o->fd);
	if (o->tmp_path != NULL)
		unlink(o->tmp_path);
	if (o->gz != NULL)
		(void)deflateEnd(&o->gz->z);   /* Z_DATA_ERROR: ended early, fine */
	free(o->gz);
	o->gz = NULL;
	free(o->tmp_path);
	free(o->final_path);
	free(o->buf);
	o->fd = -1;
	o->tmp_path = o->final_path = o->buf = NULL;
}
