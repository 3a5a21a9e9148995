/*
 * trace_split: the kept rows written on two threads are the in-line write's
 * bytes, for every stretch size (one row per stretch up to the in-line
 * case), across TRACE blocks, with rows dropped by the lane rule and by a
 * cut, source lines added, rows longer than the worker's window and rows
 * with no recorded layout (both main's), and rows nested deeper than the
 * worker's stack (handed back to main). A thread is started and allocates
 * nothing (this executable wraps the allocator and counts what the thread
 * named csim_trace allocates). A row rewritten between the readings fails
 * with the in-line message, wherever it lies.
 */
#define _GNU_SOURCE   /* prctl's PR_GET_NAME */
#include <pthread.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/stat.h>
#include <unistd.h>

#include "check.h"
#include "modelutil.h"
#include "testutil.h"

#include "read/block_reader.h"
#include "read/event_ingest.h"
#include "read/event_scan.h"
#include "read/slice_store.h"
#include "write/out_file.h"
#include "write/slice_writer.h"
#include "write/trace_split.h"

/* ---- the allocator (threadalloc.h) and pthread_create, counted ---- */

#define THREADALLOC_NAME "csim_trace"
#include "threadalloc.h"

int __real_pthread_create(pthread_t *t, const pthread_attr_t *a, void *(*run)(void *),
			  void *arg);
int __wrap_pthread_create(pthread_t *t, const pthread_attr_t *a, void *(*run)(void *),
			  void *arg);

/* The count of threads started: the wrapper can reach nothing else. */
static atomic_ulong threads_started;

int __wrap_pthread_create(pthread_t *t, const pthread_attr_t *a, void *(*run)(void *),
			  void *arg)
{
	atomic_fetch_add(&threads_started, 1);
	return __real_pthread_create(t, a, run, arg);
}

/* ---- the dump ---- */

enum { NROWS = 600 };

#define LONG_ROW 300          /* longer than the worker's 4 MiB window */
#define NO_LAYOUT_ROW 301     /* its name 70 KB into it: no recorded layout */

struct shape {
	int deep;        /* rows nested deeper than the worker's stack */
	int big;         /* the long row and the no-layout row */
};

static void repeat(struct tbuf *b, char ch, size_t n)
{
	tbuf_fill(b, ch, n);
}

/* Row i's args: none, compact, with a source, spaced, or nested deep. */
static void add_args(struct tbuf *b, size_t i, const struct shape *sh)
{
	char s[96];

	switch (i % 6) {
	case 0:
		return;
	case 1:
		snprintf(s, sizeof(s), ",\"args\":{\"pc_addr\":\"0x%zx\",\"k\":%zu}", 16 + i, i);
		break;
	case 2:
		snprintf(s, sizeof(s), ",\"args\":{\"pc_addr\":\"0x10\",\"source\":\"own.cpp:%zu\"}", i);
		break;
	case 3:
		snprintf(s, sizeof(s), ",\"args\":{ \"pc_addr\" : \"0x20\" , \"n\" : [ %zu ] }", i);
		break;
	case 4:
		if (sh->deep && i % 4 == 0) {
			tbuf_adds(b, ",\"args\":{\"a\":");
			repeat(b, '[', 80);
			repeat(b, ']', 80);
			tbuf_adds(b, ",\"pc_addr\":\"0x30\"}");
			return;
		}
		snprintf(s, sizeof(s), ",\"args\":{\"detail\":\"d%zu\"}", i);
		break;
	default:
		snprintf(s, sizeof(s), ",\"args\":{}");
		break;
	}
	tbuf_adds(b, s);
}

static void add_row(struct tbuf *b, size_t i, const char *ts, const struct shape *sh)
{
	static const char *const pipes[] = { "MTE2", "VECTOR", "MTE3", "CUBE", "MTE1" };
	char s[160];

	if (sh->big && i == NO_LAYOUT_ROW) {
		tbuf_adds(b, "{\"args\":{\"code\":\"");
		repeat(b, 'c', 70000);
		tbuf_adds(b, "\"},");
	} else {
		tbuf_adds(b, "{");
	}
	snprintf(s, sizeof(s), "\"name\":\"I%zu\",\"ph\":\"X\",\"pid\":\"core%zu\",\"tid\":\"%s\",\"ts\":%s,\"dur\":1",
		 i, i % 2, pipes[i % 5], ts);
	tbuf_adds(b, s);
	if (sh->big && i == LONG_ROW) {
		tbuf_adds(b, ",\"args\":{\"code\":\"");
		repeat(b, 'x', (4u << 20) + 4096);
		tbuf_adds(b, "\"}");
	} else if (!(sh->big && i == NO_LAYOUT_ROW)) {
		add_args(b, i, sh);
	}
	tbuf_adds(b, "}");
}

/* Two TRACE blocks (an API_INSTR between), rows 0..NROWS; row `odd`'s ts 9. */
static void make_dump(struct tbuf *file, const struct shape *sh, size_t odd)
{
	struct tbuf t = { NULL, 0, 0, 0 };
	char ts[32];

	for (int blk = 0; blk < 2; blk++) {
		t.n = 0;
		tbuf_adds(&t, "{\"traceEvents\":[");
		for (size_t i = (size_t)blk * NROWS / 2; i < (size_t)(blk + 1) * NROWS / 2; i++) {
			/* Same length whatever the digit: a rewrite keeps offsets. */
			snprintf(ts, sizeof(ts), "%zu%zu", 1000 + i, i == odd ? (size_t)9 : (size_t)1);
			if (i % (NROWS / 2) != 0)
				tbuf_adds(&t, ",");
			add_row(&t, i, ts, sh);
		}
		tbuf_adds(&t, "]}");
		tbuf_add(&t, "", 1);
		tbuf_blocks(file, 2, t.p);
		if (blk == 0)
			tbuf_blocks(file, 5, "{\"Cores\":[],\"Instructions\":[]}");
	}
	tbuf_free(&t);
}

/* ---- the model: the first reading, kept rows, a cut, a source line ---- */

struct fixture {
	char dir[64], path[128];
	struct csim_model m;
	struct csim_slice_store store;
	unsigned char *slice_in;
};

static int first_reading(struct check_ctx *c, struct fixture *f)
{
	struct csim_block_reader r;
	struct csim_trace_scan *sc;
	struct csim_error err;
	struct csim_block blk;
	const struct csim_ingest in = { &f->m.table, 1, { 0, 0 } };
	int has = 1, rc = csim_trace_scan_new(&sc, &err);

	if (!CHECK_I64(c, rc, CSIM_OK))
		return rc;
	rc = csim_block_reader_open(&r, f->path, &err);
	if (CHECK_I64(c, rc, CSIM_OK))
		csim_slice_store_init(&f->store, f->path, csim_block_reader_file_id(&r));
	while (rc == CSIM_OK && (rc = csim_block_reader_next(&r, &blk, &has, &err)) == CSIM_OK &&
	       has) {
		if (blk.type != CSIM_BLOCK_TRACE)
			continue;
		rc = csim_slice_store_begin_block(&f->store, &blk, &err);
		if (rc == CSIM_OK)
			rc = csim_trace_scan_begin(sc, &r, &blk, &err);
		while (rc == CSIM_OK) {
			struct csim_event ev;
			size_t rows = f->m.table.nslices;

			rc = csim_trace_scan_next(sc, &ev, &has, &err);
			if (rc != CSIM_OK || !has)
				break;
			rc = csim_ingest_event(&in, sc, &ev, &err);
			if (rc == CSIM_OK && f->m.table.nslices > rows)
				rc = csim_slice_store_add(&f->store, &ev, f->m.table.nslices - 1, &err);
		}
		has = 1;
	}
	CHECK_I64(c, rc, CSIM_OK);
	csim_block_reader_release(&r);
	csim_trace_scan_free(sc);
	return rc;
}

/* Every 7th row dropped by the lanes, every 11th by a cut; "k.cpp:7" for all. */
static void shape_model(struct fixture *f)
{
	struct csim_model *m = &f->m;
	struct csim_instr_line *line = malloc(sizeof(*line));
	uint32_t id = 0;

	mu_classify(m);
	f->slice_in = malloc(m->table.nslices);
	if (line == NULL || f->slice_in == NULL ||
	    csim_strtab_intern(&m->instr.text, "k.cpp:7", 7, &id) != 0)
		abort();
	for (size_t i = 0; i < m->table.nslices; i++) {
		m->table.slices[i].kept = i % 7 != 3;
		f->slice_in[i] = i % 11 != 5;
	}
	m->cut.slice_in = f->slice_in;
	*line = (struct csim_instr_line){ 0, UINT64_MAX, id };
	m->instr.lines = line;
	m->instr.nlines = m->instr.lines_cap = 1;
}

static int fixture_make(struct check_ctx *c, struct fixture *f, const struct shape *sh)
{
	struct tbuf file = { NULL, 0, 0, 0 };
	int ok;

	memset(f, 0, sizeof(*f));
	csim_model_init(&f->m);
	csim_slice_store_init(&f->store, NULL, NULL);
	make_dump(&file, sh, SIZE_MAX);
	ok = CHECK(c, tdir_make(f->dir, sizeof(f->dir)) == 0) &&
	     CHECK(c, tfile_write(tpath(f->path, sizeof(f->path), f->dir, "v.bin"),
				  file.p, file.n) == 0) &&
	     first_reading(c, f) == CSIM_OK && CHECK_U64(c, f->m.table.nslices, NROWS) &&
	     CHECK_U64(c, f->store.nlocs, NROWS);
	tbuf_free(&file);
	if (ok)
		shape_model(f);
	return ok;
}

static void fixture_free(struct fixture *f)
{
	f->m.cut.slice_in = NULL;
	free(f->slice_in);
	csim_slice_store_release(&f->store);
	csim_model_release(&f->m);
	tdir_remove(f->dir);
}

/*
 * Writes the kept rows into dir/name, split in stretches of `chunk` bytes
 * (0: in line, as the trace writer does with -j 2); the file's bytes, or
 * NULL with the error in err.
 */
static char *write_rows(struct fixture *f, const char *name, uint64_t chunk, size_t *n,
			struct csim_error *err)
{
	struct csim_out out;
	struct csim_slice_writer w;
	struct csim_slice_reader r;
	char path[160];
	size_t done;
	int rc;

	csim_error_clear(err);
	if (csim_out_open(&out, f->dir, name, err) != CSIM_OK)
		return NULL;
	csim_slice_writer_init(&w, &f->m, &out);
	w.first = 0;   /* as after the metadata */
	if (chunk != 0) {
		rc = csim_trace_split_write(&w, &f->store, chunk, err);
	} else {
		rc = csim_slice_reader_open(&r, &f->store, f->m.table.slices, err);
		if (rc == CSIM_OK)
			rc = csim_slice_writer_rows(&w, &r, &done, err);
		csim_slice_reader_close(&r);
	}
	csim_slice_writer_release(&w);
	if (rc != CSIM_OK) {
		csim_out_abort(&out);
		return NULL;
	}
	if (csim_out_commit(&out, err) != CSIM_OK)
		return NULL;
	return tfile_read(tpath(path, sizeof(path), f->dir, name), n);
}

/* The kept text the split cuts into stretches. */
static uint64_t kept_text(const struct fixture *f)
{
	uint64_t total = 0;

	for (size_t i = 0; i < f->store.nlocs; i++)
		if (f->m.table.slices[f->store.locs[i].row].kept)
			total += f->store.locs[i].layout.len;
	return total;
}

/* Every stretch size gives the in-line bytes; threads start and allocate nothing. */
static void same_bytes_every_stretch(struct check_ctx *c, const struct shape *sh)
{
	static const uint64_t chunks[] = { 1, 16, 100, 700, 5000, 40000, (uint64_t)1 << 40 };
	struct fixture f;
	struct csim_error err;
	size_t ln = 0;
	char *line = NULL;

	if (!fixture_make(c, &f, sh))
		goto out;
	line = write_rows(&f, "line.json", 0, &ln, &err);
	if (!CHECK(c, line != NULL) || !CHECK(c, strstr(line, "k.cpp:7") != NULL))
		goto out;
	for (size_t i = 0; i < sizeof(chunks) / sizeof(chunks[0]); i++) {
		unsigned long started = atomic_load(&threads_started);
		size_t sn = 0;
		char *split;

		atomic_store(&thread_allocs, 0);
		split = write_rows(&f, "split.json", chunks[i], &sn, &err);
		if (CHECK(c, split != NULL))
			CHECK_BYTES(c, split, sn, line, ln);
		free(split);
		CHECK_U64(c, atomic_load(&thread_allocs), 0);
		/* Under four stretches' worth of text: in line, no thread. */
		CHECK_U64(c, atomic_load(&threads_started) - started,
			  kept_text(&f) / chunks[i] >= 4 ? 1 : 0);
	}
out:
	free(line);
	fixture_free(&f);
}

static void test_rows_as_in_line(struct check_ctx *c)
{
	const struct shape sh = { 0, 0 };

	same_bytes_every_stretch(c, &sh);
}

/* Rows nested deeper than the worker's stack: it hands them back to main. */
static void test_deep_rows_handed_back(struct check_ctx *c)
{
	const struct shape sh = { 1, 0 };

	same_bytes_every_stretch(c, &sh);
}

/* A row longer than the worker's window and one with no recorded layout. */
static void test_long_and_unrecorded_rows_stay_main(struct check_ctx *c)
{
	const struct shape sh = { 0, 1 };

	same_bytes_every_stretch(c, &sh);
}

/* Row `odd` rewritten in place (its mtime kept): the in-line error, split or not. */
static void rewritten_row(struct check_ctx *c, size_t odd)
{
	const struct shape sh = { 0, 0 };
	struct fixture f;
	struct csim_error line_err, split_err;
	struct tbuf file = { NULL, 0, 0, 0 };
	char path[160];
	size_t n;

	if (!fixture_make(c, &f, &sh))
		goto out;
	make_dump(&file, &sh, odd);
	CHECK(c, tfile_rewrite_unseen(f.path, file.p, file.n) == 0);
	CHECK(c, write_rows(&f, "line.json", 0, &n, &line_err) == NULL);
	CHECK_CONTAINS(c, line_err.message, "the file changed while it was being converted");
	for (uint64_t chunk = 1; chunk <= 4096; chunk *= 8) {
		CHECK(c, write_rows(&f, "split.json", chunk, &n, &split_err) == NULL);
		CHECK_I64(c, split_err.code, line_err.code);
		CHECK_STR(c, split_err.message, line_err.message);
	}
	CHECK(c, !tfile_exists(tpath(path, sizeof(path), f.dir, "split.json")));
out:
	tbuf_free(&file);
	fixture_free(&f);
}

static void test_rewritten_row_is_the_in_line_error(struct check_ctx *c)
{
	rewritten_row(c, 1);          /* the worker's first stretch at 1 byte a stretch */
	rewritten_row(c, 2);          /* main's */
	rewritten_row(c, NROWS - 3);  /* in the second block, near the end */
}

int main(void)
{
	struct check_ctx c = { 0, 0, NULL };

	CHECK_RUN(&c, test_rows_as_in_line);
	CHECK_RUN(&c, test_deep_rows_handed_back);
	CHECK_RUN(&c, test_long_and_unrecorded_rows_stay_main);
	CHECK_RUN(&c, test_rewritten_row_is_the_in_line_error);
	return check_done(&c);
}
