/*
 * metrics_writer over a payload left in the file: the first
 * scan and both readings of the rows go through a bounded window, so they
 * must give the bytes and the errors the in-memory payload gives, also
 * for a row larger than the window (which grows to hold it) and for errors
 * past the window's first fill; and a file that changed between the
 * readings must be refused, leaving no output.
 */
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "check.h"
#include "read/block_reader.h"
#include "write/metrics_writer.h"
#include "write/out_file.h"
#include "testutil.h"

/* The plan and the digest in one reading, as the conversion makes them. */
static int plan_digested(struct csim_metrics_plan *plan, const struct csim_metrics *mt,
			 struct csim_instr_stats *s, struct csim_error *err)
{
	struct csim_instr_sink sink;
	int rc = csim_metrics_plan_begin(plan, mt, &sink, err);

	return rc == CSIM_OK ? csim_instr_digest_rows(s, mt, &sink, err) : rc;
}

#define BIN_PATH_NAME "v.bin"
#define BIG (1536u * 1024u)   /* larger than the 1 MiB window */

struct dump {
	char dir[64], path[160];
	struct csim_block blk;
	struct csim_file_id id;
};

/* A dump whose second block is the API_INSTR payload; finds that block. */
static int dump_write(struct check_ctx *c, struct dump *d, const char *payload, size_t n)
{
	struct tbuf file = { NULL, 0, 0, 0 };
	struct csim_block_reader rd;
	struct csim_error err;
	int has = 1, rc, found = 0;

	tbuf_blocks(&file, CSIM_BLOCK_OP_BASIC_INFO, "{\"x\":1}");
	tbuf_block(&file, CSIM_BLOCK_API_INSTR, payload, n);
	tpath(d->path, sizeof(d->path), d->dir, BIN_PATH_NAME);
	rc = tfile_write(d->path, file.p, file.n);
	tbuf_free(&file);
	if (!CHECK(c, rc == 0) ||
	    !CHECK_I64(c, csim_block_reader_open(&rd, d->path, &err), CSIM_OK))
		return 0;
	while (csim_block_reader_next(&rd, &d->blk, &has, &err) == CSIM_OK && has)
		if (d->blk.type == CSIM_BLOCK_API_INSTR) {
			found = 1;
			break;
		}
	d->id = *csim_block_reader_file_id(&rd);
	csim_block_reader_release(&rd);
	return CHECK(c, found);
}

/* Loads (from the file, or a copy in memory), plans and writes; the text. */
static char *render(struct check_ctx *c, const char *payload, size_t len, int in_file,
		    int raw, size_t *n)
{
	struct dump d;
	struct csim_metrics mt;
	struct csim_metrics_plan plan;
	struct csim_out out;
	struct csim_error err;
	char path[200], *text = NULL;
	int rc;

	*n = 0;
	memset(&mt, 0, sizeof(mt));
	memset(&plan, 0, sizeof(plan));
	if (!CHECK(c, tdir_make(d.dir, sizeof(d.dir)) == 0))
		return NULL;
	if (in_file) {
		rc = dump_write(c, &d, payload, len)
		     ? csim_metrics_load_block(&mt, d.path, &d.blk, &d.id, &err) : -1;
	} else {
		char *copy = malloc(len ? len : 1);

		if (!CHECK(c, copy != NULL))
			goto out;
		memcpy(copy, payload, len);
		rc = csim_metrics_load(&mt, "m", 40, copy, len, &err);
	}
	if (rc == CSIM_OK)
		rc = csim_metrics_plan_make(&plan, &mt, &err);
	if (!CHECK_I64(c, rc, CSIM_OK) ||
	    !CHECK_I64(c, csim_out_open(&out, d.dir, "instr_metrics.json", &err), CSIM_OK))
		goto out;
	if (CHECK_I64(c, csim_metrics_write(&mt, &plan, raw, &out, &err), CSIM_OK) &&
	    CHECK_I64(c, csim_out_commit(&out, &err), CSIM_OK))
		text = tfile_read(tpath(path, sizeof(path), d.dir, "instr_metrics.json"), n);
	csim_out_abort(&out);
out:
	csim_metrics_plan_release(&plan);
	csim_metrics_release(&mt);
	tdir_remove(d.dir);
	return text;
}

static void expect_same(struct check_ctx *c, const char *payload, size_t len, int raw)
{
	size_t n_mem, n_file;
	char *mem = render(c, payload, len, 0, raw, &n_mem);
	char *file = render(c, payload, len, 1, raw, &n_file);

	if (!CHECK(c, mem != NULL) || !CHECK_BYTES(c, file, n_file, mem, n_mem))
		fprintf(stderr, "    payload: %.200s\n", payload);
	free(mem);
	free(file);
}

static void test_file_gives_the_bytes_memory_gives(struct check_ctx *c)
{
	static const char *const payloads[] = {
		"{\"Cores\":[\"a\",\"b\"],\"Instructions\":[{\"A\":[1,2],\"G S\":[{\"r\":1},[]]},"
		"{\"A\":[3,4]}],\"Instructions Dtype\":{\"Instructions\":{\"A\":1,\"G S\":5}}}",
		/* members in any order, and repeated: the last one counts */
		"{\"Instructions\":[{\"X\":[1]}],\"Cores\":[\"c\"],\"Instructions\":[{\"Y\":[2,3]}],"
		"\"Cores\":[\"c0\",\"c1\"]}",
		"{\"Cores\":[],\"Instructions\":[{\"A\":[]}],\"Instructions Dtype\":{}}",
		" {\"Cores\":[\"c0\"], \"Instructions\":[ ]}\n\t",
		"{\"Cores\":[\"c0\"],\"Instructions\":[{\"Q\\\"Z\":1,\"A\\u0042 C\":2}]}",
		/* rows left out where a core executed 0 (SPEC §7) */
		"{\"Cores\":[\"a\",\"b\",\"c\"],\"Instructions\":["
		"{\"Instructions Executed\":[0,1,0],\"A\":[1,2,3]},{\"Instructions Executed\":0},"
		"{\"A\":[4,5,6],\"Instructions Executed\":[2,0,-1]}]}",
	};

	for (size_t i = 0; i < sizeof(payloads) / sizeof(payloads[0]); i++) {
		expect_same(c, payloads[i], strlen(payloads[i]), 0);
		expect_same(c, payloads[i], strlen(payloads[i]), 1);
	}
}

/* "...":  a string value of n bytes of `fill`, quoted. */
static void add_string(struct tbuf *b, char fill, size_t n)
{
	tbuf_adds(b, "\"");
	tbuf_fill(b, fill, n);
	tbuf_adds(b, "\"");
}

static void test_row_larger_than_the_window(struct check_ctx *c)
{
	struct tbuf in = { NULL, 0, 0, 0 }, want = { NULL, 0, 0, 0 };
	size_t n = 0;
	char *got;

	tbuf_adds(&in, "{\"Cores\":[\"c0\",\"c1\"],\"Instructions\":[{\"A\":1,\"B\":[1,2]},\n"
		  "{\"Big\":[");
	add_string(&in, 'a', BIG);
	tbuf_adds(&in, ",\"b\"],\"N\":[3,4]},{\"A\":2}],\"Instructions Dtype\":{}}");
	/* By hand: core c takes element c of each two-element array. */
	tbuf_adds(&want, "{\"cores\":[\"c0\",\"c1\"],\n\"instructions\":{\n\"c0\":[\n"
		  "{\"a\":1,\"b\":1},\n{\"big\":");
	add_string(&want, 'a', BIG);
	tbuf_adds(&want, ",\"n\":3},\n{\"a\":2}\n],\n\"c1\":[\n{\"a\":1,\"b\":2},\n"
		  "{\"big\":\"b\",\"n\":4},\n{\"a\":2}\n]},\n\"column_types\":{}}\n");
	got = render(c, in.p, in.n, 1, 0, &n);
	CHECK_BYTES(c, got, n, want.p, want.n);
	free(got);
	got = render(c, in.p, in.n, 1, 1, &n);
	CHECK_BYTES(c, got, n, in.p, in.n);
	free(got);
	tbuf_free(&in);
	tbuf_free(&want);
}

/*
 * A row whose first core's record outgrows its buffer (written piece by
 * piece) while the others' fit (the second core's record is then the row's
 * template for the third's): the same bytes either way.
 */
static void test_records_built_whole_and_piece_by_piece(struct check_ctx *c)
{
	struct tbuf in = { NULL, 0, 0, 0 }, want = { NULL, 0, 0, 0 };
	size_t n = 0;
	char *got;

	tbuf_adds(&in, "{\"Cores\":[\"c0\",\"c1\",\"c2\"],\"Instructions\":["
		  "{\"K\":\"k\",\"Big\":[");
	add_string(&in, 'a', BIG);
	tbuf_adds(&in, ",\"b\",[3]],\"W\":[1,2],\"N\":[4,55,666]},"
		  "{\"N\":[7,8,9],\"K\":{\"x\":[]}}]}");
	tbuf_adds(&want, "{\"cores\":[\"c0\",\"c1\",\"c2\"],\n\"instructions\":{\n"
		  "\"c0\":[\n{\"k\":\"k\",\"big\":");
	add_string(&want, 'a', BIG);
	tbuf_adds(&want, ",\"w\":[1,2],\"n\":4},\n{\"n\":7,\"k\":{\"x\":[]}}\n],\n"
		  "\"c1\":[\n{\"k\":\"k\",\"big\":\"b\",\"w\":[1,2],\"n\":55},\n"
		  "{\"n\":8,\"k\":{\"x\":[]}}\n],\n"
		  "\"c2\":[\n{\"k\":\"k\",\"big\":[3],\"w\":[1,2],\"n\":666},\n"
		  "{\"n\":9,\"k\":{\"x\":[]}}\n]},\n\"column_types\":{}}\n");
	got = render(c, in.p, in.n, 1, 0, &n);
	CHECK_BYTES(c, got, n, want.p, want.n);
	free(got);
	tbuf_free(&in);
	tbuf_free(&want);
}

/*
 * A row larger than the window that its first core did not execute: the
 * second core's record is built whole and is the template of the third's;
 * the fourth's is larger than its buffer. The next row ran on the first
 * core only. Derived by hand: core c gets element c, rows of 0 executions
 * left out.
 */
static void test_left_out_records_around_a_large_row(struct check_ctx *c)
{
	struct tbuf in = { NULL, 0, 0, 0 }, want = { NULL, 0, 0, 0 };
	size_t n = 0;
	char *got;

	tbuf_adds(&in, "{\"Cores\":[\"c0\",\"c1\",\"c2\",\"c3\"],\"Instructions\":["
		  "{\"Instructions Executed\":[0,1,2,3],\"Big\":[");
	add_string(&in, 'a', BIG);
	tbuf_adds(&in, ",\"b\",\"c\",");
	add_string(&in, 'd', BIG);
	tbuf_adds(&in, "]},{\"N\":[4,5,6,7],\"Instructions Executed\":[9,0,0.0,-0]}]}");
	tbuf_adds(&want, "{\"cores\":[\"c0\",\"c1\",\"c2\",\"c3\"],\n\"instructions\":{\n"
		  "\"c0\":[\n{\"n\":4,\"instructions_executed\":9}\n],\n"
		  "\"c1\":[\n{\"instructions_executed\":1,\"big\":\"b\"}\n],\n"
		  "\"c2\":[\n{\"instructions_executed\":2,\"big\":\"c\"}\n],\n"
		  "\"c3\":[\n{\"instructions_executed\":3,\"big\":");
	add_string(&want, 'd', BIG);
	tbuf_adds(&want, "}\n]},\n\"column_types\":{}}\n");
	got = render(c, in.p, in.n, 1, 0, &n);
	CHECK_BYTES(c, got, n, want.p, want.n);
	free(got);
	got = render(c, in.p, in.n, 0, 0, &n);
	CHECK_BYTES(c, got, n, want.p, want.n);
	free(got);
	tbuf_free(&in);
	tbuf_free(&want);
}

/* The first scan's error, from the file and from memory. */
static void expect_error(struct check_ctx *c, const struct tbuf *payload, const char *part)
{
	struct dump d;
	struct csim_metrics mt;
	struct csim_error err_file, err_mem;
	char *copy = malloc(payload->n);

	memset(&mt, 0, sizeof(mt));
	if (!CHECK(c, copy != NULL) || !CHECK(c, tdir_make(d.dir, sizeof(d.dir)) == 0)) {
		free(copy);
		return;
	}
	memcpy(copy, payload->p, payload->n);
	if (dump_write(c, &d, payload->p, payload->n)) {
		CHECK_I64(c, csim_metrics_load_block(&mt, d.path, &d.blk, &d.id, &err_file),
			  CSIM_E_INPUT);
		csim_metrics_release(&mt);
		CHECK_I64(c, csim_metrics_load(&mt, d.path, d.blk.offset, copy, payload->n,
					       &err_mem), CSIM_E_INPUT);
		csim_metrics_release(&mt);
		CHECK_CONTAINS(c, err_mem.message, part);
		CHECK_STR(c, err_file.message, err_mem.message);
	} else {
		free(copy);
	}
	tdir_remove(d.dir);
}

static void test_errors_past_the_window_name_their_byte(struct check_ctx *c)
{
	struct tbuf b = { NULL, 0, 0, 0 };
	char part[96];
	size_t at;

	/* A trailing comma in the second row, 2 * BIG bytes in. */
	tbuf_adds(&b, "{\"Cores\":[\"c0\"],\"Instructions\":[{\"A\":");
	add_string(&b, 'x', 2 * BIG);
	tbuf_adds(&b, "},{\"A\":1,");
	at = b.n;
	tbuf_adds(&b, "}]}");
	snprintf(part, sizeof(part), "expected a string key at payload byte %zu", at);
	expect_error(c, &b, part);
	/* Cut short: the end of the payload is the byte. */
	b.n = at;
	snprintf(part, sizeof(part), "unexpected end of JSON text at payload byte %zu", at);
	expect_error(c, &b, part);
	/* Valid JSON; a row that is no object, after a large one. */
	b.n = at - 9;
	tbuf_adds(&b, "},7]}");
	snprintf(part, sizeof(part), "an Instructions entry is not an object at payload byte %zu",
		 at - 7);
	expect_error(c, &b, part);
	tbuf_free(&b);
}

/* The first scan done; the file is then rewritten before the next reading. */
static int load_then(struct check_ctx *c, struct dump *d, struct csim_metrics *mt,
		     struct csim_metrics_plan *plan, const char *payload)
{
	struct csim_error err;

	memset(mt, 0, sizeof(*mt));
	memset(plan, 0, sizeof(*plan));
	return CHECK(c, tdir_make(d->dir, sizeof(d->dir)) == 0) &&
	       dump_write(c, d, payload, strlen(payload)) &&
	       CHECK_I64(c, csim_metrics_load_block(mt, d->path, &d->blk, &d->id, &err),
			 CSIM_OK);
}

static const char before[] = "{\"Cores\":[\"c0\",\"c1\"],\"Instructions\":[{\"A\":[1,22]}]}";
static const char after[] = "{\"Cores\":[\"c0\",\"c1\"],\"Instructions\":[{\"A\":[11,2]}]}";

static void test_replaced_file_is_refused(struct check_ctx *c)
{
	struct dump d;
	struct csim_metrics mt;
	struct csim_metrics_plan plan;
	struct csim_error err;
	struct tbuf file = { NULL, 0, 0, 0 };
	char moved[200];

	if (load_then(c, &d, &mt, &plan, before)) {
		/* Same bytes, another file (inode) at the path. */
		tbuf_blocks(&file, CSIM_BLOCK_OP_BASIC_INFO, "{\"x\":1}");
		tbuf_blocks(&file, CSIM_BLOCK_API_INSTR, before);
		snprintf(moved, sizeof(moved), "%s.new", d.path);
		CHECK(c, tfile_write(moved, file.p, file.n) == 0 && rename(moved, d.path) == 0);
		CHECK_I64(c, csim_metrics_plan_make(&plan, &mt, &err), CSIM_E_INPUT);
		CHECK_CONTAINS(c, err.message, "the file changed while it was being converted");
		/* Gone altogether: the writer's reading fails too. */
		unlink(d.path);
		CHECK(c, csim_metrics_plan_make(&plan, &mt, &err) == CSIM_E_INPUT);
	}
	tbuf_free(&file);
	csim_metrics_plan_release(&plan);
	csim_metrics_release(&mt);
	tdir_remove(d.dir);
}

/* The dump rewritten in place with another payload of the same size, its
   time set back: nothing a file's identity shows. */
static int rewrite_in_place(struct check_ctx *c, const struct dump *d, const char *payload)
{
	struct tbuf file = { NULL, 0, 0, 0 };
	struct stat st;
	struct timespec times[2];
	int fd, ok;

	if (!CHECK(c, stat(d->path, &st) == 0))
		return 0;
	tbuf_blocks(&file, CSIM_BLOCK_OP_BASIC_INFO, "{\"x\":1}");
	tbuf_block(&file, CSIM_BLOCK_API_INSTR, payload, strlen(payload));
	fd = open(d->path, O_WRONLY);
	ok = CHECK(c, fd >= 0 && write(fd, file.p, file.n) == (ssize_t)file.n);
	if (fd >= 0)
		close(fd);
	times[0] = st.st_atim;
	times[1] = st.st_mtim;
	ok &= CHECK(c, utimensat(AT_FDCWD, d->path, times, 0) == 0);
	tbuf_free(&file);
	return ok;
}

/* The writer's reading after a plan of `was`, over `now`: refused, no file. */
static void expect_refused_after(struct check_ctx *c, const char *was, const char *now)
{
	struct dump d;
	struct csim_metrics mt;
	struct csim_metrics_plan plan;
	struct csim_error err;
	struct csim_out out;

	if (load_then(c, &d, &mt, &plan, was) &&
	    CHECK_I64(c, csim_metrics_plan_make(&plan, &mt, &err), CSIM_OK) &&
	    rewrite_in_place(c, &d, now) &&
	    CHECK_I64(c, csim_out_open(&out, d.dir, "instr_metrics.json", &err), CSIM_OK)) {
		if (!CHECK_I64(c, csim_metrics_write(&mt, &plan, 0, &out, &err), CSIM_E_INPUT))
			fprintf(stderr, "    now: %s\n", now);
		csim_out_abort(&out);
		CHECK_CONTAINS(c, err.message, "the file changed while it was being converted");
		CHECK_I64(c, tdir_count(d.dir), 1);   /* the dump alone */
	}
	csim_metrics_plan_release(&plan);
	csim_metrics_release(&mt);
	tdir_remove(d.dir);
}

static void expect_write_refused(struct check_ctx *c, const char *now)
{
	expect_refused_after(c, before, now);
}

/* Rewritten in place, same size and time: the parts no longer add up. */
static void test_rewritten_rows_are_refused_and_nothing_written(struct check_ctx *c)
{
	expect_write_refused(c, after);
	/* The row moved to the other core (SPEC §7 leaves out the core that
	   did not execute it): c1's part, planned empty, would overrun. */
	expect_refused_after(c,
		"{\"Cores\":[\"c0\",\"c1\"],\"Instructions\":[{\"A\":[1,2],\"Instructions Executed\":[3,0]}]}",
		"{\"Cores\":[\"c0\",\"c1\"],\"Instructions\":[{\"A\":[1,2],\"Instructions Executed\":[0,3]}]}");
}

/*
 * The same size, bytes that are no longer the validated JSON: the row
 * readings' skipper, which does not validate, refuses them in both
 * readings (ASan checks it reads them in bounds).
 */
static const char *const broken[] = {
	"{\"Cores\":[\"c0\",\"c1\"],\"Instructions\":[{\"A\":[1,22}}]}",   /* bracket kind */
	"{\"Cores\":[\"c0\",\"c1\"],\"Instructions\":[{\"A\":[1 22]}]}",   /* no comma */
	"{\"Cores\":[\"c0\",\"c1\"],\"Instructions\":[{\"A\":[1,2\x01]}]}", /* stray byte */
	"{\"Cores\":[\"c0\",\"c1\"],\"Instructions\":[{\"A\\\":[1,2]}]}",  /* unclosed key */
	"{\"Cores\":[\"c0\",\"c1\"],\"Instructions\":[{\"\\u0g\":[1]}]}",    /* bad escape */
	"{\"Cores\":[\"c0\",\"c1\"],\"Instructions\":[{\"A\":[1,22,[[[",    /* left open */
	"{\"Cores\":[\"c0\",\"c1\"],\"Instructions\":[{\"A\":\"1,22]}]}",  /* unclosed string */
};

static void test_broken_rows_are_refused_by_both_readings(struct check_ctx *c)
{
	for (size_t i = 0; i < sizeof(broken) / sizeof(broken[0]); i++) {
		struct dump d;
		struct csim_metrics mt;
		struct csim_metrics_plan plan;
		struct csim_instr_stats s;
		struct csim_error err;

		if (!CHECK_U64(c, strlen(broken[i]), strlen(before)))
			continue;
		csim_instr_stats_init(&s);
		if (load_then(c, &d, &mt, &plan, before) && rewrite_in_place(c, &d, broken[i])) {
			if (!CHECK_I64(c, plan_digested(&plan, &mt, &s, &err), CSIM_E_INPUT))
				fprintf(stderr, "    now: %s\n", broken[i]);
			CHECK_CONTAINS(c, err.message,
				       "the file changed while it was being converted");
		}
		csim_instr_stats_release(&s);
		csim_metrics_plan_release(&plan);
		csim_metrics_release(&mt);
		tdir_remove(d.dir);
		expect_write_refused(c, broken[i]);
	}
}

int main(void)
{
	struct check_ctx c = { 0, 0, NULL };

	CHECK_RUN(&c, test_file_gives_the_bytes_memory_gives);
	CHECK_RUN(&c, test_row_larger_than_the_window);
	CHECK_RUN(&c, test_records_built_whole_and_piece_by_piece);
	CHECK_RUN(&c, test_left_out_records_around_a_large_row);
	CHECK_RUN(&c, test_errors_past_the_window_name_their_byte);
	CHECK_RUN(&c, test_replaced_file_is_refused);
	CHECK_RUN(&c, test_rewritten_rows_are_refused_and_nothing_written);
	CHECK_RUN(&c, test_broken_rows_are_refused_by_both_readings);
	return check_done(&c);
}
