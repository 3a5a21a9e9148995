/*
 * input_stream over gzip input: the bytes a big .gz gives through the
 * second thread (read/gz_source.h) are the plain file's, whichever way
 * they are read (read, peek, skip, seek back and forth); a small one never
 * starts the thread; concatenated members, trailing bytes, a cut file and
 * corrupt data behave as gzread() did, every byte before the fault is
 * delivered, and release() ends the thread wherever the reading stopped.
 * The thread is seen in /proc/self/task by its name.
 */
#include <dirent.h>

#include "check.h"
#include "testutil.h"

#include "read/gz_source.h"
#include "read/input_stream.h"

#define BIG (4u * 1024u * 1024u + 12345u)

/* 1 + the inflating threads (named "csim_inflate"; a sanitizer's own don't count). */
static int threads_now(void)
{
	DIR *d = opendir("/proc/self/task");
	struct dirent *e;
	int n = 1;

	if (d == NULL)
		return -1;
	while ((e = readdir(d)) != NULL) {
		char path[300], comm[32] = "";
		FILE *f;

		if (e->d_name[0] == '.')
			continue;
		snprintf(path, sizeof(path), "/proc/self/task/%s/comm", e->d_name);
		f = fopen(path, "r");
		if (f == NULL)
			continue;   /* the thread ended meanwhile */
		if (fgets(comm, sizeof(comm), f) != NULL && strcmp(comm, "csim_inflate\n") == 0)
			n++;
		fclose(f);
	}
	closedir(d);
	return n;
}

/* Bytes that deflate only a little, so the .gz is well past the thread's size. */
static void make_data(struct tbuf *b, size_t n, uint32_t seed)
{
	tbuf_fill(b, 0, n);
	for (size_t i = 0; i < n && !b->oom; i++) {
		seed = seed * 1103515245u + 12345u;
		b->p[i] = (char)('0' + ((seed >> 16) & 0x3f));
	}
}

/* One gzip member of p[0..n) appended to out, deflated as `gzip -1` does. */
static int gz_member(struct tbuf *out, const char *p, size_t n)
{
	return tbuf_gz_member(out, p, n, 1);
}

struct gz_fixture {
	char dir[256];
	char path[512];
	struct tbuf plain;   /* what the .gz inflates to */
};

static int fixture_open(struct gz_fixture *f)
{
	memset(f, 0, sizeof(*f));
	if (tdir_make(f->dir, sizeof(f->dir)) != 0)
		return -1;
	tpath(f->path, sizeof(f->path), f->dir, "in.gz");
	return 0;
}

static void fixture_close(struct gz_fixture *f)
{
	tdir_remove(f->dir);
	tbuf_free(&f->plain);
}

/* Reads s to its end or error in pieces of `piece` bytes; returns rc. */
static int read_all(struct csim_stream *s, size_t piece, struct tbuf *got,
		    struct csim_error *err)
{
	char *buf = malloc(piece);
	size_t n;
	int rc = CSIM_OK;

	if (buf == NULL)
		return -1;
	do {
		rc = csim_stream_read(s, buf, piece, &n, err);
		tbuf_add(got, buf, n);
	} while (rc == CSIM_OK && n == piece);
	free(buf);
	return rc;
}

static int same_prefix(const struct tbuf *got, const struct tbuf *want)
{
	return got->n <= want->n && memcmp(got->p, want->p, got->n) == 0;
}

static void test_big_gzip_reads_as_plain_on_a_second_thread(struct check_ctx *c)
{
	static const size_t pieces[] = { 1, 4093, 100000, 3u << 20 };
	struct gz_fixture f;
	struct tbuf gz = { 0 };

	if (!CHECK(c, fixture_open(&f) == 0))
		return;
	make_data(&f.plain, BIG, 1);
	if (!CHECK(c, gz_member(&gz, f.plain.p, f.plain.n) == 0) ||
	    !CHECK(c, gz.n >= 2 * CSIM_GZ_THREAD_MIN) ||
	    !CHECK(c, tfile_write(f.path, gz.p, gz.n) == 0))
		goto out;
	for (size_t i = 0; i < sizeof(pieces) / sizeof(pieces[0]); i++) {
		struct csim_stream s;
		struct csim_error err;
		struct tbuf got = { 0 };
		char first[1];
		size_t n;

		CHECK_I64(c, csim_stream_open(&s, f.path, &err), CSIM_OK);
		/* The first read inflates here, the next starts the thread. */
		for (int k = 1; k <= 2; k++) {
			CHECK_I64(c, csim_stream_read(&s, first, 1, &n, &err), CSIM_OK);
			tbuf_add(&got, first, n);
			CHECK_I64(c, threads_now(), k);
		}
		CHECK_I64(c, read_all(&s, pieces[i], &got, &err), CSIM_OK);
		CHECK(c, got.n == f.plain.n && memcmp(got.p, f.plain.p, got.n) == 0);
		CHECK_U64(c, csim_stream_tell(&s), f.plain.n);
		csim_stream_release(&s);
		CHECK_I64(c, threads_now(), 1);
		tbuf_free(&got);
	}
out:
	tbuf_free(&gz);
	fixture_close(&f);
}

/* Peek, skip and seek (back to the start, forward past chunks, past the end). */
static void test_big_gzip_peeks_skips_and_seeks(struct check_ctx *c)
{
	static const uint64_t at[] = { 3000000, 17, 17, 0, 1048575, 4000000, 1, BIG - 10 };
	struct gz_fixture f;
	struct tbuf gz = { 0 };
	struct csim_stream s;
	struct csim_error err;
	const unsigned char *p;
	size_t avail, n;
	uint64_t skipped;
	char buf[64];

	csim_stream_init(&s);
	if (!CHECK(c, fixture_open(&f) == 0))
		return;
	make_data(&f.plain, BIG, 2);
	if (!CHECK(c, gz_member(&gz, f.plain.p, f.plain.n) == 0) ||
	    !CHECK(c, tfile_write(f.path, gz.p, gz.n) == 0) ||
	    !CHECK_I64(c, csim_stream_open(&s, f.path, &err), CSIM_OK))
		goto out;
	CHECK_I64(c, csim_stream_peek(&s, 100, &p, &avail, &err), CSIM_OK);
	CHECK(c, avail == 100 && memcmp(p, f.plain.p, 100) == 0);
	csim_stream_consume(&s, 40);
	CHECK_I64(c, csim_stream_skip(&s, 2500000, &skipped, &err), CSIM_OK);
	CHECK_U64(c, skipped, 2500000);
	CHECK_U64(c, csim_stream_tell(&s), 2500040);
	CHECK_I64(c, csim_stream_read(&s, buf, sizeof(buf), &n, &err), CSIM_OK);
	CHECK(c, n == sizeof(buf) && memcmp(buf, f.plain.p + 2500040, n) == 0);
	for (size_t i = 0; i < sizeof(at) / sizeof(at[0]); i++) {
		CHECK_I64(c, csim_stream_seek(&s, at[i], &err), CSIM_OK);
		CHECK_U64(c, csim_stream_tell(&s), at[i]);
		CHECK_I64(c, csim_stream_read(&s, buf, 8, &n, &err), CSIM_OK);
		if (!CHECK(c, n == 8 && memcmp(buf, f.plain.p + at[i], 8) == 0))
			fprintf(stderr, "    seek to %llu\n", (unsigned long long)at[i]);
	}
	CHECK_I64(c, csim_stream_read(&s, buf, sizeof(buf), &n, &err), CSIM_OK);
	CHECK_U64(c, n, 2);   /* the last 10 bytes were 8 + 2 */
	CHECK_I64(c, csim_stream_seek(&s, BIG + 100, &err), CSIM_OK);
	CHECK_U64(c, csim_stream_tell(&s), BIG + 100);
	CHECK_I64(c, csim_stream_read(&s, buf, sizeof(buf), &n, &err), CSIM_OK);
	CHECK_U64(c, n, 0);
	CHECK_I64(c, csim_stream_seek(&s, 5, &err), CSIM_OK);
	CHECK_I64(c, csim_stream_read(&s, buf, 8, &n, &err), CSIM_OK);
	CHECK(c, n == 8 && memcmp(buf, f.plain.p + 5, 8) == 0);
out:
	csim_stream_release(&s);
	CHECK_I64(c, threads_now(), 1);
	tbuf_free(&gz);
	fixture_close(&f);
}

static void test_small_gzip_never_starts_a_thread(struct check_ctx *c)
{
	struct gz_fixture f;
	struct tbuf gz = { 0 }, got = { 0 };
	struct csim_stream s;
	struct csim_error err;

	csim_stream_init(&s);
	if (!CHECK(c, fixture_open(&f) == 0))
		return;
	/* Compresses to far below the thread's size, inflates to 3 chunks. */
	tbuf_fill(&f.plain, 'a', 3 * CSIM_GZ_CHUNK);
	if (!CHECK(c, gz_member(&gz, f.plain.p, f.plain.n) == 0) ||
	    !CHECK(c, gz.n < CSIM_GZ_THREAD_MIN) ||
	    !CHECK(c, tfile_write(f.path, gz.p, gz.n) == 0) ||
	    !CHECK_I64(c, csim_stream_open(&s, f.path, &err), CSIM_OK))
		goto out;
	CHECK_I64(c, read_all(&s, 65536, &got, &err), CSIM_OK);
	CHECK(c, got.n == f.plain.n && memcmp(got.p, f.plain.p, got.n) == 0);
	CHECK_I64(c, threads_now(), 1);
out:
	csim_stream_release(&s);
	tbuf_free(&got);
	tbuf_free(&gz);
	fixture_close(&f);
}

/* Members follow one another; bytes after the last that are no member are ignored. */
static void test_members_concatenate_and_trailing_bytes_are_ignored(struct check_ctx *c)
{
	struct gz_fixture f;
	struct tbuf gz = { 0 }, got = { 0 };
	struct csim_stream s;
	struct csim_error err;
	size_t cut = BIG / 3;

	csim_stream_init(&s);
	if (!CHECK(c, fixture_open(&f) == 0))
		return;
	make_data(&f.plain, BIG, 3);
	if (!CHECK(c, gz_member(&gz, f.plain.p, cut) == 0) ||
	    !CHECK(c, gz_member(&gz, f.plain.p + cut, 0) == 0) ||
	    !CHECK(c, gz_member(&gz, f.plain.p + cut, f.plain.n - cut) == 0))
		goto out;
	tbuf_adds(&gz, "\x1f not a member");
	if (!CHECK(c, tfile_write(f.path, gz.p, gz.n) == 0) ||
	    !CHECK_I64(c, csim_stream_open(&s, f.path, &err), CSIM_OK))
		goto out;
	CHECK_I64(c, read_all(&s, 300000, &got, &err), CSIM_OK);
	CHECK(c, got.n == f.plain.n && memcmp(got.p, f.plain.p, got.n) == 0);
out:
	csim_stream_release(&s);
	tbuf_free(&got);
	tbuf_free(&gz);
	fixture_close(&f);
}

/*
 * A fault of the compressed file: every byte before it is delivered, then
 * the error names the file, both offsets (the compressed byte, the
 * inflated offset that every byte before it reached) and zlib's reason;
 * cut_at: the size of a file cut inside a member (0: a corrupt member).
 */
static void expect_fault(struct check_ctx *c, const struct gz_fixture *f,
			 size_t piece, uint64_t good, uint64_t cut_at, const char *why)
{
	struct csim_stream s;
	struct csim_error err;
	struct tbuf got = { 0 };
	char want[sizeof(f->path) + 160];   /* the path and the fixed text with two 20-digit numbers */
	int rc;

	CHECK_I64(c, csim_stream_open(&s, f->path, &err), CSIM_OK);
	rc = read_all(&s, piece, &got, &err);
	if (cut_at != 0)
		snprintf(want, sizeof(want), "%s: truncated gzip stream: the file ends at "
			 "compressed byte %llu (inflated offset %llu)", f->path,
			 (unsigned long long)cut_at, (unsigned long long)got.n);
	else
		snprintf(want, sizeof(want), " (inflated offset %llu): %s",
			 (unsigned long long)got.n, why);
	if (!CHECK_I64(c, rc, CSIM_E_INPUT) || !CHECK_CONTAINS(c, err.message, want))
		fprintf(stderr, "    piece %zu\n", piece);
	if (cut_at == 0)
		CHECK_CONTAINS(c, err.message, ": corrupt gzip data near compressed byte ");
	CHECK(c, same_prefix(&got, &f->plain));
	if (good != 0)
		CHECK_U64(c, got.n, good);
	CHECK_U64(c, err.offset, got.n);
	CHECK_U64(c, csim_stream_tell(&s), got.n);
	csim_stream_release(&s);
	CHECK_I64(c, threads_now(), 1);
	tbuf_free(&got);
}

static void test_cut_and_corrupt_gzip_fail_after_the_good_bytes(struct check_ctx *c)
{
	struct gz_fixture f;
	struct tbuf gz = { 0 };
	size_t cut = BIG / 2, second;

	if (!CHECK(c, fixture_open(&f) == 0))
		return;
	make_data(&f.plain, BIG, 4);
	if (!CHECK(c, gz_member(&gz, f.plain.p, cut) == 0))
		goto out;
	second = gz.n;
	if (!CHECK(c, gz_member(&gz, f.plain.p + cut, f.plain.n - cut) == 0))
		goto out;
	/* Cut in the middle of the second member. */
	CHECK(c, tfile_write(f.path, gz.p, second + (gz.n - second) / 2) == 0);
	expect_fault(c, &f, 77777, 0, second + (gz.n - second) / 2, NULL);
	expect_fault(c, &f, 1u << 20, 0, second + (gz.n - second) / 2, NULL);
	/* The second member's method byte: fails right after the first member. */
	gz.p[second + 2] = 9;
	CHECK(c, tfile_write(f.path, gz.p, gz.n) == 0);
	expect_fault(c, &f, 65536, cut, 0, "unknown compression method");
	gz.p[second + 2] = 8;
	/* The first member's CRC: its bytes all come, then the check fails. */
	gz.p[second - 8] ^= 1;
	CHECK(c, tfile_write(f.path, gz.p, gz.n) == 0);
	expect_fault(c, &f, 65536, cut, 0, "incorrect data check");
out:
	tbuf_free(&gz);
	fixture_close(&f);
}

/* Release with the worker ahead (a full ring) or mid-chunk joins it. */
static void test_release_anywhere_ends_the_thread(struct check_ctx *c)
{
	struct gz_fixture f;
	struct tbuf gz = { 0 };

	if (!CHECK(c, fixture_open(&f) == 0))
		return;
	make_data(&f.plain, BIG, 5);
	if (!CHECK(c, gz_member(&gz, f.plain.p, f.plain.n) == 0) ||
	    !CHECK(c, tfile_write(f.path, gz.p, gz.n) == 0))
		goto out;
	for (uint64_t skip = 0; skip < BIG; skip += 1500000) {
		struct csim_stream s;
		struct csim_error err;
		uint64_t skipped;
		char one[2];
		size_t n;

		CHECK_I64(c, csim_stream_open(&s, f.path, &err), CSIM_OK);
		CHECK_I64(c, csim_stream_read(&s, one, 1, &n, &err), CSIM_OK);
		CHECK_I64(c, csim_stream_skip(&s, skip, &skipped, &err), CSIM_OK);
		CHECK_I64(c, csim_stream_read(&s, one, 1, &n, &err), CSIM_OK);
		CHECK(c, n == 1 && one[0] == f.plain.p[skip + 1]);
		csim_stream_release(&s);
		CHECK_I64(c, threads_now(), 1);
	}
out:
	tbuf_free(&gz);
	fixture_close(&f);
}

int main(void)
{
	struct check_ctx c = { 0, 0, NULL };

	CHECK_RUN(&c, test_big_gzip_reads_as_plain_on_a_second_thread);
	CHECK_RUN(&c, test_big_gzip_peeks_skips_and_seeks);
	CHECK_RUN(&c, test_small_gzip_never_starts_a_thread);
	CHECK_RUN(&c, test_members_concatenate_and_trailing_bytes_are_ignored);
	CHECK_RUN(&c, test_cut_and_corrupt_gzip_fail_after_the_good_bytes);
	CHECK_RUN(&c, test_release_anywhere_ends_the_thread);
	return check_done(&c);
}
