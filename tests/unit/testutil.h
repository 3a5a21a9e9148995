/*
 * testutil.h: helpers shared by the unit tests: a growable byte buffer with a
 * visualize_data.bin block writer (SPEC §2), and temporary files and
 * directories under /tmp that the tests create and remove again.
 */
#ifndef CSIM_TEST_UTIL_H
#define CSIM_TEST_UTIL_H

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include <zlib.h>

/* ---- byte buffer ---- */

struct tbuf {
	char *p;
	size_t n, cap;
	int oom;        /* an append failed; the content is incomplete */
};

static inline void tbuf_free(struct tbuf *b)
{
	free(b->p);
	memset(b, 0, sizeof(*b));
}

/* Not inlined: at -O3 gcc's -Wstringop-overflow misreads the grown size. */
__attribute__((noinline)) static int tbuf_reserve(struct tbuf *b, size_t more)
{
	size_t cap = b->cap ? b->cap : 256;
	char *p;

	if (b->oom)
		return -1;
	if (b->n + more <= b->cap)
		return 0;
	while (cap < b->n + more)
		cap *= 2;
	p = realloc(b->p, cap);
	if (p == NULL) {
		b->oom = 1;
		return -1;
	}
	b->p = p;
	b->cap = cap;
	return 0;
}

static inline void tbuf_add(struct tbuf *b, const void *p, size_t n)
{
	if (n == 0 || tbuf_reserve(b, n) != 0)
		return;
	memcpy(b->p + b->n, p, n);
	b->n += n;
}

static inline void tbuf_adds(struct tbuf *b, const char *s)
{
	tbuf_add(b, s, strlen(s));
}

static inline void tbuf_fill(struct tbuf *b, char byte, size_t n)
{
	if (n == 0 || tbuf_reserve(b, n) != 0)
		return;
	memset(b->p + b->n, byte, n);
	b->n += n;
}

/* ---- block writer ---- */

#define T_RESERVE 0x5a
#define T_VERSION 0x5a

static inline void tbuf_header(struct tbuf *b, uint64_t size, uint8_t type,
			       uint8_t padding, uint8_t version, uint8_t reserve)
{
	unsigned char h[12];

	for (int i = 0; i < 8; i++)
		h[i] = (unsigned char)(size >> (8 * i));
	h[8] = type;
	h[9] = padding;
	h[10] = version;
	h[11] = reserve;
	tbuf_add(b, h, sizeof(h));
}

static inline uint8_t t_pad_of(size_t n)
{
	return (uint8_t)((4 - n % 4) % 4);
}

/* A block as the producer writes it; returns its offset. */
static inline uint64_t tbuf_block_v(struct tbuf *b, uint8_t type, uint8_t version,
				    const char *payload, size_t n)
{
	uint64_t at = b->n;
	uint8_t pad = t_pad_of(n);

	tbuf_header(b, (uint64_t)n + pad, type, pad, version, T_RESERVE);
	tbuf_add(b, payload, n);
	tbuf_fill(b, 0, pad);
	return at;
}

static inline uint64_t tbuf_block(struct tbuf *b, uint8_t type,
				  const char *payload, size_t n)
{
	return tbuf_block_v(b, type, T_VERSION, payload, n);
}

static inline uint64_t tbuf_blocks(struct tbuf *b, uint8_t type, const char *s)
{
	return tbuf_block(b, type, s, strlen(s));
}

/*
 * A SOURCE block: header, 4096-byte NUL-padded path, text, padding. The
 * producer's framing leaves the path out of contentSize; the older
 * "inclusive" framing counts it.
 */
static inline uint64_t tbuf_source(struct tbuf *b, const char *path,
				   const char *text, size_t n, int inclusive)
{
	uint64_t at = b->n;
	uint8_t pad = t_pad_of(n);
	size_t pn = strlen(path) < 4096 ? strlen(path) : 4095;

	tbuf_header(b, (uint64_t)n + pad + (inclusive ? 4096u : 0u), 1, pad,
		    T_VERSION, T_RESERVE);
	tbuf_add(b, path, pn);
	tbuf_fill(b, 0, 4096 - pn);
	tbuf_add(b, text, n);
	tbuf_fill(b, 0, pad);
	return at;
}

/* ---- files ---- */

static inline int tfile_write(const char *path, const void *p, size_t n)
{
	FILE *f = fopen(path, "wb");
	int ok;

	if (f == NULL)
		return -1;
	ok = n == 0 || fwrite(p, 1, n, f) == n;
	return fclose(f) == 0 && ok ? 0 : -1;
}

/*
 * Writes p over the start of an existing file in place, its modification
 * time kept: a file changed between two readings that the identity check
 * (device, inode, size, mtime) cannot see.
 */
static inline int tfile_rewrite_unseen(const char *path, const void *p, size_t n)
{
	struct stat st;
	struct timespec times[2];
	int fd, ok;

	if (stat(path, &st) != 0 || (fd = open(path, O_WRONLY)) < 0)
		return -1;
	ok = write(fd, p, n) == (ssize_t)n;
	ok = close(fd) == 0 && ok;
	times[0] = st.st_atim;
	times[1] = st.st_mtim;
	return ok && utimensat(AT_FDCWD, path, times, 0) == 0 ? 0 : -1;
}

static inline int tfile_write_gz(const char *path, const void *p, size_t n)
{
	gzFile gz = gzopen(path, "wb");
	const char *q = p;
	int ok = 1;

	if (gz == NULL)
		return -1;
	while (n > 0 && ok) {
		unsigned k = n > (1u << 20) ? (1u << 20) : (unsigned)n;

		ok = gzwrite(gz, q, k) == (int)k;
		q += k;
		n -= k;
	}
	return gzclose(gz) == Z_OK && ok ? 0 : -1;
}

/* Appends one gzip member of p[0..n) deflated by zlib at `level`; 0 or -1. */
static inline int tbuf_gz_member(struct tbuf *out, const void *p, size_t n, int level)
{
	z_stream z;
	unsigned char buf[65536];
	int ret;

	memset(&z, 0, sizeof(z));
	if (deflateInit2(&z, level, Z_DEFLATED, 15 + 16, 8, Z_DEFAULT_STRATEGY) != Z_OK)
		return -1;
	z.next_in = (unsigned char *)(uintptr_t)p;
	z.avail_in = (uInt)n;
	do {
		z.next_out = buf;
		z.avail_out = sizeof(buf);
		ret = deflate(&z, Z_FINISH);
		tbuf_add(out, buf, sizeof(buf) - z.avail_out);
	} while (ret == Z_OK);
	deflateEnd(&z);
	return ret == Z_STREAM_END && !out->oom ? 0 : -1;
}

/* The whole file, NUL-terminated, malloc'd; NULL on failure. */
static inline char *tfile_read(const char *path, size_t *n)
{
	FILE *f = fopen(path, "rb");
	struct tbuf b = { NULL, 0, 0, 0 };
	char chunk[4096];
	size_t got;

	if (f == NULL)
		return NULL;
	while ((got = fread(chunk, 1, sizeof(chunk), f)) > 0)
		tbuf_add(&b, chunk, got);
	fclose(f);
	tbuf_add(&b, "", 1);
	if (b.oom) {
		tbuf_free(&b);
		return NULL;
	}
	*n = b.n - 1;
	return b.p;
}

static inline int tfile_exists(const char *path)
{
	struct stat st;

	return lstat(path, &st) == 0;
}

/* dir/name into buf (PATH_MAX-sized buffers are plenty here). */
static inline const char *tpath(char *buf, size_t cap, const char *dir,
				const char *name)
{
	snprintf(buf, cap, "%s/%s", dir, name);
	return buf;
}

/* ---- directories ---- */

/* Creates /tmp/csim_unit_XXXXXX into buf (at least 32 bytes). */
static inline int tdir_make(char *buf, size_t cap)
{
	snprintf(buf, cap, "/tmp/csim_unit_XXXXXX");
	return mkdtemp(buf) != NULL ? 0 : -1;
}

/* mkdir -p of dir/rel. */
static inline int tdir_mkpath(const char *dir, const char *rel)
{
	char buf[4096];
	size_t dn = strlen(dir);

	if (snprintf(buf, sizeof(buf), "%s/%s", dir, rel) >= (int)sizeof(buf))
		return -1;
	for (char *s = buf + dn + 1; *s != '\0'; s++) {
		if (*s != '/')
			continue;
		*s = '\0';
		if (mkdir(buf, 0777) != 0 && errno != EEXIST)
			return -1;
		*s = '/';
	}
	return mkdir(buf, 0777) != 0 && errno != EEXIST ? -1 : 0;
}

/* rm -rf, without following symbolic links. */
static inline void tdir_remove(const char *path)
{
	struct stat st;
	DIR *d;
	struct dirent *e;

	if (lstat(path, &st) != 0)
		return;
	if (!S_ISDIR(st.st_mode)) {
		unlink(path);
		return;
	}
	d = opendir(path);
	while (d != NULL && (e = readdir(d)) != NULL) {
		char child[4096];

		if (strcmp(e->d_name, ".") == 0 || strcmp(e->d_name, "..") == 0)
			continue;
		if (snprintf(child, sizeof(child), "%s/%s", path, e->d_name) <
		    (int)sizeof(child))
			tdir_remove(child);
	}
	if (d != NULL)
		closedir(d);
	rmdir(path);
}

/* Number of entries in a directory besides . and .., or -1. */
static inline int tdir_count(const char *path)
{
	DIR *d = opendir(path);
	struct dirent *e;
	int n = 0;

	if (d == NULL)
		return -1;
	while ((e = readdir(d)) != NULL)
		if (strcmp(e->d_name, ".") != 0 && strcmp(e->d_name, "..") != 0)
			n++;
	closedir(d);
	return n;
}

#endif
