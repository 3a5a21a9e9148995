/*
 * metrics_thread: instr_metrics.json written on the second thread is the
 * file written in line, byte for byte (reshaped and raw, payload in the
 * file or in memory, rows larger than the read window, many rows), and
 * the thread allocates nothing on the way (the failalloc sweeps count
 * allocations in order: this executable wraps the allocator and counts
 * those made on the thread named csim_metrics). A file rewritten between
 * the plan's reading and the thread's is refused with the in-line message
 * and nothing written; a write failure comes out at commit as in line;
 * the join keeps the in-line order of errors; SIGINT stops the thread.
 */
#define _GNU_SOURCE   /* prctl's PR_GET_NAME */
#include <fcntl.h>
#include <signal.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <unistd.h>

#include "base/interrupt.h"
#include "check.h"
#include "read/block_reader.h"
#include "write/metrics_thread.h"
#include "write/out_file.h"
#include "testutil.h"

#define THREADALLOC_NAME "csim_metrics"
#include "threadalloc.h"

#define BIG (1536u * 1024u)   /* larger than the 1 MiB read window */

/* ---- the allocator, counted on the metrics thread (threadalloc.h) ---- */

/* ---- a loaded and planned API_INSTR ---- */

struct src {
	char dir[64], path[160];
	struct csim_metrics mt;
	struct csim_metrics_plan plan;
};

/* A dump whose API_INSTR block holds payload; its block and file id. */
static int dump_write(struct check_ctx *c, struct src *s, const char *payload, size_t n,
		      struct csim_block *blk, struct csim_file_id *id)
{
	struct tbuf file = { NULL, 0, 0, 0 };
	struct csim_block_reader rd;
	struct csim_error err;
	int has = 1, found = 0;

	tbuf_blocks(&file, CSIM_BLOCK_OP_BASIC_INFO, "{\"x\":1}");
	tbuf_block(&file, CSIM_BLOCK_API_INSTR, payload, n);
	tpath(s->path, sizeof(s->path), s->dir, "v.bin");
	found = tfile_write(s->path, file.p, file.n) == 0;
	tbuf_free(&file);
	if (!CHECK(c, found) || !CHECK_I64(c, csim_block_reader_open(&rd, s->path, &err), CSIM_OK))
		return 0;
	found = 0;
	while (!found && csim_block_reader_next(&rd, blk, &has, &err) == CSIM_OK && has)
		found = blk->type == CSIM_BLOCK_API_INSTR;
	*id = *csim_block_reader_file_id(&rd);
	csim_block_reader_release(&rd);
	return CHECK(c, found);
}

/* Loads payload (from a dump, or a copy in memory) and plans it. */
static int src_open(struct check_ctx *c, struct src *s, const char *payload, size_t n,
		    int in_file)
{
	struct csim_block blk;
	struct csim_file_id id;
	struct csim_error err;
	int rc = -1;

	memset(s, 0, sizeof(*s));
	if (!CHECK(c, tdir_make(s->dir, sizeof(s->dir)) == 0))
		return 0;
	if (in_file) {
		if (dump_write(c, s, payload, n, &blk, &id))
			rc = csim_metrics_load_block(&s->mt, s->path, &blk, &id, &err);
	} else {
		char *copy = malloc(n ? n : 1);

		if (!CHECK(c, copy != NULL))
			return 0;
		memcpy(copy, payload, n);
		rc = csim_metrics_load(&s->mt, "m", 40, copy, n, &err);
	}
	if (rc == CSIM_OK)
		rc = csim_metrics_plan_make(&s->plan, &s->mt, &err);
	return CHECK_I64(c, rc, CSIM_OK);
}

static void src_close(struct src *s)
{
	csim_metrics_plan_release(&s->plan);
	csim_metrics_release(&s->mt);
	tdir_remove(s->dir);
}

/*
 * Writes NAME in s's folder in line or on the thread, then commits it;
 * returns the write's code (the commit's when that fails), err its error.
 */
static int write_file(struct src *s, int threaded, int raw, const char *name,
		      struct csim_error *err)
{
	struct csim_metrics_thread *th;
	struct csim_out out = { .fd = -1 };
	int rc;

	if (threaded) {
		rc = csim_metrics_thread_start(&th, &s->mt, &s->plan, raw, s->dir, name, err);
		if (rc == CSIM_OK)
			rc = csim_metrics_thread_join(&th, CSIM_OK, CSIM_OK, &out, err);
	} else {
		rc = csim_out_open(&out, s->dir, name, err);
		if (rc == CSIM_OK)
			rc = csim_metrics_write(&s->mt, &s->plan, raw, &out, err);
	}
	if (rc == CSIM_OK)
		rc = csim_out_commit(&out, err);
	csim_out_abort(&out);
	return rc;
}

/* Both ways, from the file and from memory: the same bytes, no allocation on the thread. */
static void expect_same(struct check_ctx *c, const char *payload, size_t len, int raw)
{
	for (int in_file = 0; in_file <= 1; in_file++) {
		struct src s;
		struct csim_error err;
		char path[200];
		size_t n_line = 0, n_thread = 0;
		char *line = NULL, *thread = NULL;

		if (src_open(c, &s, payload, len, in_file)) {
			atomic_store(&thread_allocs, 0);
			if (CHECK_I64(c, write_file(&s, 0, raw, "line.json", &err), CSIM_OK) &&
			    CHECK_I64(c, write_file(&s, 1, raw, "thread.json", &err), CSIM_OK)) {
				line = tfile_read(tpath(path, sizeof(path), s.dir, "line.json"), &n_line);
				thread = tfile_read(tpath(path, sizeof(path), s.dir, "thread.json"),
						    &n_thread);
			}
			CHECK(c, line != NULL && n_line > 0);
			CHECK_BYTES(c, thread, n_thread, line, n_line);
			CHECK_U64(c, atomic_load(&thread_allocs), 0);
		}
		free(line);
		free(thread);
		src_close(&s);
	}
}

/* "...": a string value of n bytes of `fill`, quoted. */
static void add_string(struct tbuf *b, char fill, size_t n)
{
	tbuf_adds(b, "\"");
	tbuf_fill(b, fill, n);
	tbuf_adds(b, "\"");
}

/*
 * Rows of every kind: split and whole arrays, nesting, escapes, a row
 * larger than the window, rows left out on some cores (0 executions).
 */
static void big_payload(struct tbuf *b, size_t rows)
{
	char row[256];

	tbuf_adds(b, "{\"Cores\":[\"c0\",\"c1\",\"c2\"],\"Instructions\":[");
	for (size_t i = 0; i < rows; i++) {
		snprintf(row, sizeof(row),
			 "%s{\"Address\":\"0x%zx\",\"Cycles\":[%zu,%zu,%zu],\"Pipe\":\"MTE2\","
			 "\"Det ails\":[{\"a\":[[%zu]]},[],\"x\"],\"Q\\\"Z\":[1,2],"
			 "\"Instructions Executed\":[%zu,%zu,1]}",
			 i ? ",\n" : "", i, i, i + 1, i + 2, i, i % 2, i % 3);
		tbuf_adds(b, row);
		if (i == rows / 2) {
			tbuf_adds(b, ",{\"Source\":");
			add_string(b, 's', BIG);
			tbuf_adds(b, ",\"Cycles\":[7,8,9]}");
		}
	}
	tbuf_adds(b, "],\"Instructions Dtype\":{\"Instructions\":{\"Det ails\":5,\"Cycles\":1}}}");
}

static void test_thread_writes_the_in_line_bytes(struct check_ctx *c)
{
	static const char *const small[] = {
		"{\"Cores\":[\"a\",\"b\"],\"Instructions\":[{\"A\":[1,2],\"G S\":[{\"r\":1},[]]},"
		"{\"A\":[3,4]}],\"Instructions Dtype\":{\"Instructions\":{\"A\":1,\"G S\":5}}}",
		"{\"Cores\":[],\"Instructions\":[{\"A\":[]}],\"Instructions Dtype\":{}}",
		" {\"Cores\":[\"c0\"], \"Instructions\":[ ]}\n\t",
		"{\"Cores\":[\"a\",\"b\"],\"Instructions\":[{\"Instructions Executed\":[0,1]},"
		"{\"Instructions Executed\":0},{\"Instructions Executed\":[2,0]}]}",
	};
	struct tbuf b = { NULL, 0, 0, 0 };

	for (size_t i = 0; i < sizeof(small) / sizeof(small[0]); i++)
		for (int raw = 0; raw <= 1; raw++)
			expect_same(c, small[i], strlen(small[i]), raw);
	big_payload(&b, 40000);
	CHECK(c, !b.oom);
	for (int raw = 0; raw <= 1; raw++)
		expect_same(c, b.p, b.n, raw);
	tbuf_free(&b);
}

static const char before[] = "{\"Cores\":[\"c0\",\"c1\"],\"Instructions\":[{\"A\":[1,22]}]}";
static const char after[] = "{\"Cores\":[\"c0\",\"c1\"],\"Instructions\":[{\"A\":[11,2]}]}";

/* Rewrites s's dump in place with `after`, keeping its size and times. */
static void rewrite_rows(struct check_ctx *c, const struct src *s)
{
	struct tbuf file = { NULL, 0, 0, 0 };
	struct timespec times[2];
	struct stat st;
	int fd;

	if (!CHECK(c, stat(s->path, &st) == 0))
		return;
	tbuf_blocks(&file, CSIM_BLOCK_OP_BASIC_INFO, "{\"x\":1}");
	tbuf_blocks(&file, CSIM_BLOCK_API_INSTR, after);
	fd = open(s->path, O_WRONLY);
	CHECK(c, fd >= 0 && write(fd, file.p, file.n) == (ssize_t)file.n);
	if (fd >= 0)
		close(fd);
	times[0] = st.st_atim;
	times[1] = st.st_mtim;
	CHECK(c, utimensat(AT_FDCWD, s->path, times, 0) == 0);
	tbuf_free(&file);
}

/* The file changed between the plan's reading and the write's. */
static void test_changed_file_is_refused_as_in_line(struct check_ctx *c)
{
	struct csim_error in_line, threaded;
	struct src s;

	if (src_open(c, &s, before, strlen(before), 1)) {
		rewrite_rows(c, &s);
		CHECK_I64(c, write_file(&s, 0, 0, "instr_metrics.json", &in_line), CSIM_E_INPUT);
		CHECK_I64(c, write_file(&s, 1, 0, "instr_metrics.json", &threaded), CSIM_E_INPUT);
		CHECK_CONTAINS(c, in_line.message, "the file changed while it was being converted");
		CHECK_STR(c, threaded.message, in_line.message);
		CHECK_I64(c, tdir_count(s.dir), 1);   /* the dump alone: nothing written */
	}
	src_close(&s);
}

/* A write failure (a file-size limit) stays in the file until its commit. */
static void test_write_failure_reported_at_commit(struct check_ctx *c)
{
	struct csim_error in_line, threaded;
	struct tbuf b = { NULL, 0, 0, 0 };
	struct rlimit old, lim;
	struct src s;

	big_payload(&b, 20000);
	if (src_open(c, &s, b.p, b.n, 1) && CHECK(c, getrlimit(RLIMIT_FSIZE, &old) == 0)) {
		signal(SIGXFSZ, SIG_IGN);
		lim = old;
		lim.rlim_cur = 1u << 20;
		CHECK(c, setrlimit(RLIMIT_FSIZE, &lim) == 0);
		CHECK_I64(c, write_file(&s, 0, 0, "instr_metrics.json", &in_line), CSIM_E_OUTPUT);
		CHECK_I64(c, write_file(&s, 1, 0, "instr_metrics.json", &threaded), CSIM_E_OUTPUT);
		CHECK(c, setrlimit(RLIMIT_FSIZE, &old) == 0);
		CHECK_CONTAINS(c, in_line.message, "File too large");
		CHECK_STR(c, threaded.message, in_line.message);
		CHECK_I64(c, tdir_count(s.dir), 1);
	}
	src_close(&s);
	tbuf_free(&b);
}

/*
 * The join keeps the in-line order: after a failed earlier step the
 * thread's error is dropped; it replaces a later step's.
 */
static void test_join_keeps_the_order_of_errors(struct check_ctx *c)
{
	struct csim_metrics_thread *th = NULL;
	struct csim_out out = { .fd = -1 };
	struct csim_error err;
	struct src s;

	if (src_open(c, &s, before, strlen(before), 1)) {
		rewrite_rows(c, &s);
		csim_error_set(&err, CSIM_E_OUTPUT, CSIM_NO_OFFSET, "an earlier step");
		if (CHECK_I64(c, csim_metrics_thread_start(&th, &s.mt, &s.plan, 0, s.dir, "m.json",
							   &err), CSIM_OK)) {
			CHECK_I64(c, csim_metrics_thread_join(&th, CSIM_E_OUTPUT, CSIM_E_OUTPUT, &out,
							      &err), CSIM_E_OUTPUT);
			CHECK_STR(c, err.message, "an earlier step");
			CHECK(c, th == NULL);
			csim_out_abort(&out);
		}
		csim_error_set(&err, CSIM_E_OUTPUT, CSIM_NO_OFFSET, "a later step");
		if (CHECK_I64(c, csim_metrics_thread_start(&th, &s.mt, &s.plan, 0, s.dir, "m.json",
							   &err), CSIM_OK)) {
			CHECK_I64(c, csim_metrics_thread_join(&th, CSIM_OK, CSIM_E_OUTPUT, &out, &err),
				  CSIM_E_INPUT);
			CHECK_CONTAINS(c, err.message, "the file changed while it was being converted");
			csim_out_abort(&out);
		}
		CHECK_I64(c, tdir_count(s.dir), 1);
	}
	src_close(&s);
}

/* A start that cannot open its file leaves nothing and no thread. */
static void test_failed_start_leaves_nothing(struct check_ctx *c)
{
	struct csim_metrics_thread *th = NULL;
	struct csim_error err;
	char missing[200];
	struct src s;

	if (src_open(c, &s, before, strlen(before), 1)) {
		tpath(missing, sizeof(missing), s.dir, "no/such/folder");
		CHECK_I64(c, csim_metrics_thread_start(&th, &s.mt, &s.plan, 0, missing, "m.json",
						       &err), CSIM_E_OUTPUT);
		CHECK(c, th == NULL);
		CHECK_I64(c, tdir_count(s.dir), 1);
	}
	src_close(&s);
}

/* SIGINT (the main thread's, as the thread blocks signals) stops the write. Last: the flag stays set. */
static void test_sigint_stops_the_thread(struct check_ctx *c)
{
	struct csim_metrics_thread *th = NULL;
	struct csim_out out = { .fd = -1 };
	struct tbuf b = { NULL, 0, 0, 0 };
	struct csim_error err;
	struct src s;
	int rc;

	big_payload(&b, 400000);
	if (src_open(c, &s, b.p, b.n, 0) && CHECK_I64(c, csim_interrupt_install(), 0) &&
	    CHECK_I64(c, csim_metrics_thread_start(&th, &s.mt, &s.plan, 0, s.dir, "m.json", &err),
		      CSIM_OK)) {
		raise(SIGINT);
		rc = csim_metrics_thread_join(&th, CSIM_OK, CSIM_OK, &out, &err);
		/* A write that ended first is caught at its commit. */
		if (rc == CSIM_OK)
			rc = csim_out_commit(&out, &err);
		CHECK_I64(c, rc, CSIM_E_INTERRUPTED);
		CHECK_STR(c, err.message, "interrupted by SIGINT");
		csim_out_abort(&out);
		CHECK_I64(c, tdir_count(s.dir), 0);
	}
	src_close(&s);
	tbuf_free(&b);
}

int main(void)
{
	struct check_ctx c = { 0, 0, NULL };

	CHECK_RUN(&c, test_thread_writes_the_in_line_bytes);
	CHECK_RUN(&c, test_changed_file_is_refused_as_in_line);
	CHECK_RUN(&c, test_write_failure_reported_at_commit);
	CHECK_RUN(&c, test_join_keeps_the_order_of_errors);
	CHECK_RUN(&c, test_failed_start_leaves_nothing);
	CHECK_RUN(&c, test_sigint_stops_the_thread);
	return check_done(&c);
}
