/*
 * out_file: JSON escaping, the half-nanosecond timestamp format, and the
 * atomic commit/abort rules of SPEC §8 (no temp files left, a failed write
 * never touches an existing output).
 */
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "check.h"
#include "write/out_file.h"
#include "testutil.h"

#define NAME "trace.clean.json"

/* Writes with fn into a fresh file, commits, and compares the bytes. */
static void expect_output(struct check_ctx *c, void (*fn)(struct csim_out *),
			  const char *want, size_t want_n)
{
	char dir[64], path[128];
	struct csim_out o;
	struct csim_error err;
	char *got;
	size_t n = 0;

	if (!CHECK(c, tdir_make(dir, sizeof(dir)) == 0))
		return;
	tpath(path, sizeof(path), dir, NAME);
	if (CHECK_I64(c, csim_out_open(&o, dir, NAME, &err), CSIM_OK)) {
		fn(&o);
		CHECK_I64(c, csim_out_commit(&o, &err), CSIM_OK);
		got = tfile_read(path, &n);
		CHECK_BYTES(c, got, n, want, want_n);
		free(got);
		CHECK_I64(c, tdir_count(dir), 1);
	}
	tdir_remove(dir);
}

static void write_strings(struct csim_out *o)
{
	csim_out_json_string(o, "a\"b\\c/d", 7);
	csim_out_char(o, '\n');
	csim_out_json_string(o, "\n\t", 2);
	csim_out_char(o, '\n');
	csim_out_json_string(o, "\x01\x1f\b\f\r", 5);
	csim_out_char(o, '\n');
	csim_out_json_string(o, "a\0b", 3);
	csim_out_char(o, '\n');
	csim_out_json_string(o, "\x7f \xce\xbcs \xf0\x9f\x98\x80", 10);
	csim_out_char(o, '\n');
	csim_out_json_string(o, "", 0);
	csim_out_char(o, '\n');
	/* escaped() builds one string from pieces, without quotes. */
	csim_out_char(o, '"');
	csim_out_json_escaped(o, "MTE2", 4);
	csim_out_json_escaped(o, "->\"", 3);
	csim_out_json_escaped(o, "VEC", 3);
	csim_out_char(o, '"');
}

static void test_json_string_escaping(struct check_ctx *c)
{
	const char want[] =
		"\"a\\\"b\\\\c/d\"\n"
		"\"\\n\\t\"\n"
		"\"\\u0001\\u001f\\u0008\\u000c\\u000d\"\n"
		"\"a\\u0000b\"\n"
		"\"\x7f \xce\xbcs \xf0\x9f\x98\x80\"\n"
		"\"\"\n"
		"\"MTE2->\\\"VEC\"";

	expect_output(c, write_strings, want, sizeof(want) - 1);
}

static void write_times(struct csim_out *o)
{
	static const int64_t v[] = {
		0, 1, 2, 3, 21025, 1999, 2000, 2001, 2000000000000, -1, -2,
		-21025, INT64_MAX, INT64_MIN
	};

	for (size_t i = 0; i < sizeof(v) / sizeof(v[0]); i++) {
		csim_out_half_ns_as_us(o, v[i]);
		csim_out_char(o, '\n');
	}
}

/* The escaping into memory is the buffered one's, byte for byte. */
static void write_escapes_both_ways(struct csim_out *o)
{
	static const char *const texts[] = { "a\"b\\c/d", "\n\t", "\x01\x1f\b\f\r",
					     "\x7f \xce\xbcs", "", "ab c" };
	char dst[64];

	for (size_t i = 0; i < sizeof(texts) / sizeof(texts[0]); i++) {
		size_t n = csim_out_json_escape(dst, texts[i], strlen(texts[i]));

		csim_out_json_escaped(o, texts[i], strlen(texts[i]));
		csim_out_char(o, '|');
		csim_out_bytes(o, dst, n);
		csim_out_char(o, '\n');
	}
}

static void test_json_escape_into_memory(struct check_ctx *c)
{
	static const char want[] =
		"a\\\"b\\\\c/d|a\\\"b\\\\c/d\n"
		"\\n\\t|\\n\\t\n"
		"\\u0001\\u001f\\u0008\\u000c\\u000d|\\u0001\\u001f\\u0008\\u000c\\u000d\n"
		"\x7f \xce\xbcs|\x7f \xce\xbcs\n"
		"|\n"
		"ab c|ab c\n";

	expect_output(c, write_escapes_both_ways, want, sizeof(want) - 1);
}

/* A hole that fits in the buffer, filled before and after a flush. */
static void write_small_hole(struct csim_out *o)
{
	uint64_t at;

	csim_out_text(o, "A");
	at = csim_out_hole(o, 5);
	csim_out_text(o, "Z");
	csim_out_at(o, at + 3, "lo", 2);
	csim_out_at(o, at, "hel", 3);
}

static void test_small_hole_is_filled_in_the_buffer(struct check_ctx *c)
{
	expect_output(c, write_small_hole, "AhelloZ", 7);
}

#define BIG_HOLE ((2u << 20) + 3)

/* A hole larger than the buffer: written in place with pwrite, in pieces,
   the later piece first; text written after it follows it. */
static void write_big_hole(struct csim_out *o)
{
	char *x = malloc(BIG_HOLE);
	uint64_t at;

	if (x == NULL)
		return;
	memset(x, 'x', 1u << 20);
	memset(x + (1u << 20), 'y', BIG_HOLE - (1u << 20));
	csim_out_text(o, "[");
	at = csim_out_hole(o, BIG_HOLE);
	csim_out_text(o, "]");
	csim_out_at(o, at + (1u << 20), x + (1u << 20), BIG_HOLE - (1u << 20));
	csim_out_at(o, at, x, 1u << 20);
	free(x);
}

static void test_big_hole_is_filled_in_the_file(struct check_ctx *c)
{
	char *want = malloc(BIG_HOLE + 2);

	if (!CHECK(c, want != NULL))
		return;
	want[0] = '[';
	memset(want + 1, 'x', 1u << 20);
	memset(want + 1 + (1u << 20), 'y', BIG_HOLE - (1u << 20));
	want[BIG_HOLE + 1] = ']';
	expect_output(c, write_big_hole, want, BIG_HOLE + 2);
	free(want);
}

/* A gzip file has no offsets: a hole is a write error, reported at commit. */
static void test_hole_in_a_gzip_file_fails_commit(struct check_ctx *c)
{
	char dir[64];
	struct csim_out o;
	struct csim_error err;

	if (!CHECK(c, tdir_make(dir, sizeof(dir)) == 0))
		return;
	if (CHECK_I64(c, csim_out_open_gzip(&o, dir, NAME ".gz", &err), CSIM_OK)) {
		csim_out_text(&o, "{}");
		(void)csim_out_hole(&o, 4);
		CHECK(c, csim_out_failed(&o));
		CHECK_I64(c, csim_out_commit(&o, &err), CSIM_E_OUTPUT);
		CHECK_I64(c, tdir_count(dir), 0);
	}
	tdir_remove(dir);
}

static void test_half_ns_as_us(struct check_ctx *c)
{
	const char want[] =
		"0.000\n0.0005\n0.001\n0.0015\n10.5125\n0.9995\n1.000\n1.0005\n"
		"1000000000.000\n-0.0005\n-0.001\n-10.5125\n"
		"4611686018427387.9035\n-4611686018427387.904\n";

	expect_output(c, write_times, want, sizeof(want) - 1);
}

static void write_integers(struct csim_out *o)
{
	csim_out_uint(o, 0);
	csim_out_char(o, ' ');
	csim_out_uint(o, UINT64_MAX);
	csim_out_char(o, ' ');
	csim_out_int(o, -1);
	csim_out_char(o, ' ');
	csim_out_int(o, INT64_MIN);
	csim_out_char(o, ' ');
	csim_out_int(o, INT64_MAX);
	csim_out_text(o, " end");
	csim_out_bytes(o, "", 0);
}

static void test_integers_and_text(struct check_ctx *c)
{
	const char want[] = "0 18446744073709551615 -1 -9223372036854775808 "
			    "9223372036854775807 end";

	expect_output(c, write_integers, want, sizeof(want) - 1);
}

static void test_commit_writes_exact_bytes_and_no_temp_file(struct check_ctx *c)
{
	char dir[64], path[128];
	struct tbuf want = { NULL, 0, 0, 0 };
	struct csim_out o;
	struct csim_error err;
	struct stat st;
	mode_t mask = umask(022);
	char *got = NULL;
	size_t n = 0;

	umask(mask);
	if (!CHECK(c, tdir_make(dir, sizeof(dir)) == 0))
		return;
	tpath(path, sizeof(path), dir, NAME);
	/* Small pieces past the 1 MiB buffer, then one piece larger than it. */
	for (int i = 0; i < 200000; i++) {
		char line[16];
		int k = snprintf(line, sizeof(line), "%d,", i);

		tbuf_add(&want, line, (size_t)k);
	}
	tbuf_fill(&want, 'z', 3u << 20);
	tbuf_adds(&want, "]\n");
	if (!CHECK(c, !want.oom) ||
	    !CHECK_I64(c, csim_out_open(&o, dir, NAME, &err), CSIM_OK))
		goto out;
	CHECK_I64(c, tdir_count(dir), 1);   /* only the temp file so far */
	CHECK(c, !tfile_exists(path));
	for (size_t i = 0; i < want.n - (3u << 20) - 2; i++)
		csim_out_char(&o, want.p[i]);
	csim_out_bytes(&o, want.p + want.n - (3u << 20) - 2, 3u << 20);
	csim_out_text(&o, "]\n");
	CHECK_I64(c, csim_out_failed(&o), 0);
	CHECK(c, !tfile_exists(path));      /* nothing appears before commit */
	CHECK_I64(c, csim_out_commit(&o, &err), CSIM_OK);
	CHECK_U64(c, o.written, want.n);
	got = tfile_read(path, &n);
	CHECK_BYTES(c, got, n, want.p, want.n);
	CHECK_I64(c, tdir_count(dir), 1);
	CHECK(c, stat(path, &st) == 0 && (st.st_mode & 0777) == (0666 & ~mask));
	csim_out_abort(&o);                 /* harmless after commit */
	CHECK(c, tfile_exists(path));
out:
	free(got);
	tbuf_free(&want);
	tdir_remove(dir);
}

static void test_commit_replaces_an_older_file(struct check_ctx *c)
{
	char dir[64], path[128];
	struct csim_out o;
	struct csim_error err;
	char *got;
	size_t n = 0;

	if (!CHECK(c, tdir_make(dir, sizeof(dir)) == 0))
		return;
	tpath(path, sizeof(path), dir, NAME);
	CHECK(c, tfile_write(path, "old old old", 11) == 0);
	CHECK_I64(c, csim_out_open(&o, dir, NAME, &err), CSIM_OK);
	csim_out_text(&o, "new");
	CHECK_I64(c, csim_out_commit(&o, &err), CSIM_OK);
	got = tfile_read(path, &n);
	CHECK_MEM(c, got, n, "new");
	free(got);
	CHECK_I64(c, tdir_count(dir), 1);
	tdir_remove(dir);
}

static void test_abort_leaves_nothing(struct check_ctx *c)
{
	char dir[64], path[128];
	struct csim_out o;
	struct csim_error err;
	char *got;
	size_t n = 0;

	if (!CHECK(c, tdir_make(dir, sizeof(dir)) == 0))
		return;
	tpath(path, sizeof(path), dir, NAME);
	CHECK_I64(c, csim_out_open(&o, dir, NAME, &err), CSIM_OK);
	csim_out_text(&o, "half a file");
	csim_out_abort(&o);
	CHECK_I64(c, tdir_count(dir), 0);
	csim_out_abort(&o);                 /* twice is harmless */
	/* With an older output present, abort keeps it as it was. */
	CHECK(c, tfile_write(path, "keep", 4) == 0);
	CHECK_I64(c, csim_out_open(&o, dir, NAME, &err), CSIM_OK);
	csim_out_text(&o, "replacement");
	csim_out_abort(&o);
	got = tfile_read(path, &n);
	CHECK_MEM(c, got, n, "keep");
	free(got);
	CHECK_I64(c, tdir_count(dir), 1);
	tdir_remove(dir);
}

/* Header: abort is "safe ... on a zeroed struct": it must not close fd 0. */
static void test_abort_on_a_zeroed_struct_closes_nothing(struct check_ctx *c)
{
	struct csim_out o;
	int saved;

	if (fcntl(0, F_GETFD) == -1)
		(void)open("/dev/null", O_RDONLY);   /* make fd 0 exist */
	saved = dup(0);
	memset(&o, 0, sizeof(o));
	csim_out_abort(&o);
	CHECK(c, fcntl(0, F_GETFD) != -1);
	if (saved >= 0) {
		dup2(saved, 0);
		close(saved);
	}
}

/* The temp file's descriptor is swapped for /dev/full after open. */
static void check_write_failure(struct check_ctx *c, int older_exists,
				size_t size)
{
	char dir[64], path[128];
	struct csim_out o;
	struct csim_error err;
	int full = open("/dev/full", O_WRONLY);
	struct stat before, after;
	char *got;
	size_t n = 0;

	if (!CHECK(c, full >= 0) || !CHECK(c, tdir_make(dir, sizeof(dir)) == 0)) {
		if (full >= 0)
			close(full);
		return;
	}
	tpath(path, sizeof(path), dir, NAME);
	memset(&before, 0, sizeof(before));
	if (older_exists)
		CHECK(c, tfile_write(path, "{\"good\":1}", 10) == 0 &&
			 stat(path, &before) == 0);
	CHECK_I64(c, csim_out_open(&o, dir, NAME, &err), CSIM_OK);
	CHECK(c, dup2(full, o.fd) == o.fd);
	close(full);
	for (size_t i = 0; i < size; i++)
		csim_out_char(&o, 'x');
	/* A write past the buffer fails early; a small one only at commit. */
	CHECK_I64(c, csim_out_failed(&o), size > (1u << 20));
	csim_error_clear(&err);
	CHECK_I64(c, csim_out_commit(&o, &err), CSIM_E_OUTPUT);
	CHECK_I64(c, err.code, CSIM_E_OUTPUT);
	CHECK_CONTAINS(c, err.message, "cannot write");
	CHECK_CONTAINS(c, err.message, path);
	CHECK_CONTAINS(c, err.message, "No space left on device");
	CHECK_I64(c, tdir_count(dir), older_exists);
	if (older_exists) {
		got = tfile_read(path, &n);
		CHECK_MEM(c, got, n, "{\"good\":1}");
		free(got);
		/* The very same file, not a rewritten copy. */
		CHECK(c, stat(path, &after) == 0);
		CHECK_U64(c, after.st_ino, before.st_ino);
		CHECK_I64(c, after.st_mtim.tv_nsec, before.st_mtim.tv_nsec);
		CHECK_I64(c, after.st_mtim.tv_sec, before.st_mtim.tv_sec);
	} else {
		CHECK(c, !tfile_exists(path));
	}
	csim_out_abort(&o);
	tdir_remove(dir);
}

static void test_write_failure_fails_commit_and_keeps_the_older_file(struct check_ctx *c)
{
	check_write_failure(c, 1, 100);
	check_write_failure(c, 1, 3u << 20);
	check_write_failure(c, 0, 100);
}

static void test_commit_onto_a_directory_fails_cleanly(struct check_ctx *c)
{
	char dir[64], path[128];
	struct csim_out o;
	struct csim_error err;

	if (!CHECK(c, tdir_make(dir, sizeof(dir)) == 0))
		return;
	CHECK(c, tdir_mkpath(dir, NAME) == 0);    /* the name is taken by a folder */
	CHECK_I64(c, csim_out_open(&o, dir, NAME, &err), CSIM_OK);
	csim_out_text(&o, "{}");
	CHECK_I64(c, csim_out_commit(&o, &err), CSIM_E_OUTPUT);
	CHECK_CONTAINS(c, err.message, tpath(path, sizeof(path), dir, NAME));
	CHECK_I64(c, tdir_count(dir), 1);         /* the folder, no temp file */
	CHECK_I64(c, tdir_count(path), 0);
	tdir_remove(dir);
}

static void test_open_in_a_missing_directory_fails(struct check_ctx *c)
{
	char dir[64], missing[128];
	struct csim_out o;
	struct csim_error err;

	if (!CHECK(c, tdir_make(dir, sizeof(dir)) == 0))
		return;
	tpath(missing, sizeof(missing), dir, "nope");
	CHECK_I64(c, csim_out_open(&o, missing, NAME, &err), CSIM_E_OUTPUT);
	CHECK_CONTAINS(c, err.message, "cannot write");
	CHECK_CONTAINS(c, err.message, "/nope/" NAME);
	CHECK_I64(c, o.fd, -1);
	csim_out_abort(&o);
	CHECK_I64(c, tdir_count(dir), 0);
	tdir_remove(dir);
}

int main(void)
{
	struct check_ctx c = { 0, 0, NULL };

	CHECK_RUN(&c, test_json_string_escaping);
	CHECK_RUN(&c, test_json_escape_into_memory);
	CHECK_RUN(&c, test_small_hole_is_filled_in_the_buffer);
	CHECK_RUN(&c, test_big_hole_is_filled_in_the_file);
	CHECK_RUN(&c, test_hole_in_a_gzip_file_fails_commit);
	CHECK_RUN(&c, test_half_ns_as_us);
	CHECK_RUN(&c, test_integers_and_text);
	CHECK_RUN(&c, test_commit_writes_exact_bytes_and_no_temp_file);
	CHECK_RUN(&c, test_commit_replaces_an_older_file);
	CHECK_RUN(&c, test_abort_leaves_nothing);
	CHECK_RUN(&c, test_abort_on_a_zeroed_struct_closes_nothing);
	CHECK_RUN(&c, test_write_failure_fails_commit_and_keeps_the_older_file);
	CHECK_RUN(&c, test_commit_onto_a_directory_fails_cleanly);
	CHECK_RUN(&c, test_open_in_a_missing_directory_fails);
	return check_done(&c);
}
