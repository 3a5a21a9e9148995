/*
 * slice_store: the second reading hands out exactly the kept rows, in input
 * order across TRACE blocks, with their own bytes; a file replaced or
 * rewritten between the two readings is an input error, never a wrong trace.
 */
#define _DEFAULT_SOURCE   /* mkdtemp */
#include <fcntl.h>
#include <sys/stat.h>

#include "check.h"
#include "testutil.h"

#include "read/block_reader.h"
#include "read/event_ingest.h"
#include "read/event_scan.h"
#include "model/event_table.h"
#include "read/slice_store.h"

/* Two TRACE blocks (an API_INSTR between them), five slices in all. */
static void make_dump(struct tbuf *file, const char *first_ts)
{
	char ev[512];

	snprintf(ev, sizeof(ev),
		 "{\"traceEvents\":[{\"name\":\"A\",\"ph\":\"X\",\"pid\":\"p\",\"tid\":\"MTE2\",\"ts\":%s,\"dur\":1},"
		 "{\"name\":\"M\",\"ph\":\"M\",\"pid\":\"p\"},"
		 "{\"name\":\"B\",\"ph\":\"X\",\"pid\":\"p\",\"tid\":\"CUBE\",\"ts\":2,\"dur\":1,\"args\":{\"k\":[1,2]}},"
		 "{\"name\":\"C\",\"ph\":\"X\",\"pid\":\"p\",\"tid\":\"MTE1\",\"ts\":3,\"dur\":1}]}",
		 first_ts);
	tbuf_blocks(file, 2, ev);
	tbuf_blocks(file, 5, "{\"Cores\":[],\"Instructions\":[]}");
	tbuf_blocks(file, 2,
		    "{\"traceEvents\":[{\"name\":\"D\",\"ph\":\"X\",\"pid\":\"q\",\"tid\":\"FIXP\",\"ts\":4,\"dur\":1},"
		    "{\"name\":\"E\",\"ph\":\"X\",\"pid\":\"q\",\"tid\":\"MTE3\",\"ts\":5,\"dur\":2}]}");
}

/*
 * The first reading as the converter does it: table rows plus their places.
 * With discard, each TRACE block after the first discards the rows before it,
 * as the converter does for every run but the last (SPEC §2.1).
 */
/*
 * keep: the text kept, in memory up to keep bytes (then a temporary file);
 * step: recorded rows held in memory before they go to theirs (0: the
 * store's own).
 */
static int first_reading_step(struct check_ctx *c, const char *path, struct csim_table *t,
			      struct csim_slice_store *store, int discard, unsigned record,
			      size_t keep, size_t step)
{
	struct csim_block_reader r;
	struct csim_trace_scan *sc;
	struct csim_error err;
	struct csim_block blk;
	const struct csim_ingest in = { t, 1, { 0, 0 } };
	int has = 1, rc;

	rc = csim_trace_scan_new(&sc, &err);
	if (!CHECK_I64(c, rc, CSIM_OK))
		return rc;
	rc = csim_block_reader_open(&r, path, &err);
	if (!CHECK_I64(c, rc, CSIM_OK))
		goto out;
	csim_slice_store_init(store, path, csim_block_reader_file_id(&r));
	if (step != 0)
		store->locs_step = step;
	if (keep != 0) {
		csim_slice_store_keep_text(store);
		store->text_limit = keep;
	}
	while (rc == CSIM_OK && (rc = csim_block_reader_next(&r, &blk, &has, &err)) == CSIM_OK &&
	       has) {
		if (blk.type != CSIM_BLOCK_TRACE)
			continue;
		if (discard && store->nblocks > 0) {
			csim_table_release(t);
			csim_table_init(t);
			csim_slice_store_clear(store);
		}
		rc = csim_slice_store_begin_block(store, &blk, &err);
		if (rc == CSIM_OK)
			rc = csim_trace_scan_begin(sc, &r, &blk, &err);
		while (rc == CSIM_OK) {
			struct csim_event ev;
			size_t rows = t->nslices;

			rc = csim_trace_scan_next(sc, &ev, &has, &err);
			if (rc != CSIM_OK || !has)
				break;
			rc = csim_ingest_event(&in, sc, &ev, &err);
			/* record: bit r for row r < 32; ~0u records every row. */
			if (rc == CSIM_OK && t->nslices > rows &&
			    (record == ~0u || (t->nslices - 1 < 32 && (record >> (t->nslices - 1) & 1u))))
				rc = csim_slice_store_add(store, &ev, t->nslices - 1, &err);
		}
		has = 1;
	}
	CHECK_I64(c, rc, CSIM_OK);
	csim_block_reader_release(&r);
out:
	csim_trace_scan_free(sc);
	return rc;
}

static int first_reading_kept(struct check_ctx *c, const char *path, struct csim_table *t,
			      struct csim_slice_store *store, int discard, unsigned record,
			      size_t keep)
{
	return first_reading_step(c, path, t, store, discard, record, keep, 0);
}

static int first_reading(struct check_ctx *c, const char *path, struct csim_table *t,
			 struct csim_slice_store *store, int discard, unsigned record)
{
	return first_reading_kept(c, path, t, store, discard, record, 0);
}

struct fixture {
	char dir[64], path[128];
	struct csim_table t;
	struct csim_slice_store store;
};

static int fixture_make(struct check_ctx *c, struct fixture *f)
{
	struct tbuf file = { NULL, 0, 0, 0 };
	int ok;

	csim_table_init(&f->t);
	csim_slice_store_init(&f->store, NULL, NULL);
	make_dump(&file, "1");
	ok = CHECK(c, tdir_make(f->dir, sizeof(f->dir)) == 0) &&
	     CHECK(c, tfile_write(tpath(f->path, sizeof(f->path), f->dir, "v.bin"),
				  file.p, file.n) == 0) &&
	     first_reading(c, f->path, &f->t, &f->store, 0, ~0u) == CSIM_OK &&
	     CHECK_U64(c, f->t.nslices, 5) && CHECK_U64(c, f->store.nlocs, 5) &&
	     CHECK_U64(c, f->store.nblocks, 2);
	tbuf_free(&file);
	return ok;
}

static void fixture_free(struct fixture *f)
{
	csim_slice_store_release(&f->store);
	csim_table_release(&f->t);
	tdir_remove(f->dir);
}

/*
 * Reads the kept rows back: their numbers must be want[0..n), in order,
 * each row's name names[row], and B (make_dump's) all of its bytes.
 */
static void expect_rows(struct check_ctx *c, struct fixture *f, const size_t *want,
			size_t n, const char *const *names)
{
	struct csim_slice_reader rd;
	struct csim_error err;
	size_t got = 0;
	int has = 1, rc = csim_slice_reader_open(&rd, &f->store, f->t.slices, &err);

	CHECK_I64(c, rc, CSIM_OK);
	while (rc == CSIM_OK) {
		struct csim_event ev;
		size_t row = 99;

		rc = csim_slice_reader_next(&rd, &row, &ev, &has, &err);
		if (!CHECK_I64(c, rc, CSIM_OK) || !has)
			break;
		if (!CHECK(c, got < n) || !CHECK_U64(c, row, want[got]))
			break;
		CHECK_MEM(c, ev.field[CSIM_F_NAME].p, ev.field[CSIM_F_NAME].n, names[row]);
		if (strcmp(names[row], "\"B\"") == 0) {   /* all of B's bytes, args too */
			CHECK_MEM(c, ev.field[CSIM_F_ARGS].p, ev.field[CSIM_F_ARGS].n, "{\"k\":[1,2]}");
			CHECK_MEM(c, ev.raw.p, ev.raw.n,
				  "{\"name\":\"B\",\"ph\":\"X\",\"pid\":\"p\",\"tid\":\"CUBE\",\"ts\":2,\"dur\":1,\"args\":{\"k\":[1,2]}}");
		}
		got++;
	}
	CHECK_U64(c, got, n);
	csim_slice_reader_close(&rd);
}

/* make_dump's five rows: every one kept, then B, D and E, each read back. */
static void expect_all_then_bde(struct check_ctx *c, struct fixture *f)
{
	static const char *const abcde[] = { "\"A\"", "\"B\"", "\"C\"", "\"D\"", "\"E\"" };
	static const size_t all[] = { 0, 1, 2, 3, 4 }, bde[] = { 1, 3, 4 };

	for (size_t i = 0; i < f->t.nslices; i++)
		f->t.slices[i].kept = 1;
	expect_rows(c, f, all, 5, abcde);
	for (size_t i = 0; i < f->t.nslices; i++)
		f->t.slices[i].kept = i == 1 || i == 3 || i == 4;
	expect_rows(c, f, bde, 3, abcde);
}

static void test_kept_rows_come_back_in_order(struct check_ctx *c)
{
	static const char *const names[] = { "\"A\"", "\"B\"", "\"C\"", "\"D\"", "\"E\"" };
	struct fixture f;
	struct csim_slice_reader rd;
	struct csim_error err;
	size_t want[] = { 1, 3, 4 }, got = 0;
	int has = 1;

	if (!fixture_make(c, &f))
		goto out;
	for (size_t i = 0; i < f.t.nslices; i++)
		f.t.slices[i].kept = i == 1 || i == 3 || i == 4;   /* B, D, E */
	expect_rows(c, &f, want, 3, names);
	/* None kept: the reading ends at once. */
	for (size_t i = 0; i < f.t.nslices; i++)
		f.t.slices[i].kept = 0;
	CHECK_I64(c, csim_slice_reader_open(&rd, &f.store, f.t.slices, &err), CSIM_OK);
	CHECK_I64(c, csim_slice_reader_next(&rd, &got, NULL, &has, &err), CSIM_OK);
	CHECK_I64(c, has, 0);
	csim_slice_reader_close(&rd);
out:
	fixture_free(&f);
}

/*
 * A cleared store forgets the first block's rows: the second reading walks
 * only the block read after it (the converted run), its rows numbered from
 * 0 like the table's.
 */
static void test_cleared_store_reads_only_the_last_block(struct check_ctx *c)
{
	static const char *const names[] = { "\"D\"", "\"E\"" };
	struct fixture f;
	struct tbuf file = { NULL, 0, 0, 0 };

	csim_table_init(&f.t);
	csim_slice_store_init(&f.store, NULL, NULL);
	make_dump(&file, "1");
	if (!CHECK(c, tdir_make(f.dir, sizeof(f.dir)) == 0) ||
	    !CHECK(c, tfile_write(tpath(f.path, sizeof(f.path), f.dir, "v.bin"),
				  file.p, file.n) == 0) ||
	    first_reading(c, f.path, &f.t, &f.store, 1, ~0u) != CSIM_OK ||
	    !CHECK_U64(c, f.t.nslices, 2) || !CHECK_U64(c, f.store.nlocs, 2) ||
	    !CHECK_U64(c, f.store.nblocks, 1) ||
	    !CHECK_U64(c, f.store.locs_end[0], 2))
		goto out;
	for (size_t i = 0; i < f.t.nslices; i++)
		f.t.slices[i].kept = 1;
	expect_rows(c, &f, (const size_t[]){ 0, 1 }, 2, names);   /* D, E */
out:
	tbuf_free(&file);
	fixture_free(&f);
}

/*
 * The converter records only the rows the lane rule keeps (lane_verdict.h);
 * a later cut (--core, --window) can unkeep recorded rows too. The reading
 * hands out recorded kept rows under their own row numbers, across blocks.
 */
static void test_rows_not_recorded_are_skipped(struct check_ctx *c)
{
	static const char *const names[] = { "\"A\"", "\"B\"", "\"C\"", "\"D\"", "\"E\"" };
	struct fixture f;
	struct tbuf file = { NULL, 0, 0, 0 };
	size_t want[] = { 1, 4 };

	csim_table_init(&f.t);
	csim_slice_store_init(&f.store, NULL, NULL);
	make_dump(&file, "1");
	/* B, D and E recorded; D's block boundary lies between B and E. */
	if (!CHECK(c, tdir_make(f.dir, sizeof(f.dir)) == 0) ||
	    !CHECK(c, tfile_write(tpath(f.path, sizeof(f.path), f.dir, "v.bin"),
				  file.p, file.n) == 0) ||
	    first_reading(c, f.path, &f.t, &f.store, 0, 1u << 1 | 1u << 3 | 1u << 4) != CSIM_OK ||
	    !CHECK_U64(c, f.t.nslices, 5) || !CHECK_U64(c, f.store.nlocs, 3) ||
	    !CHECK_U64(c, f.store.locs_end[0], 1) || !CHECK_U64(c, f.store.locs_end[1], 3))
		goto out;
	for (size_t i = 0; i < f.t.nslices; i++)
		f.t.slices[i].kept = i == 1 || i == 4;   /* D recorded, then cut */
	expect_rows(c, &f, want, 2, names);
out:
	tbuf_free(&file);
	fixture_free(&f);
}

static void test_replaced_file_is_refused_on_open(struct check_ctx *c)
{
	struct fixture f;
	struct csim_slice_reader rd;
	struct csim_error err;
	struct tbuf file = { NULL, 0, 0, 0 };
	char moved[160];

	if (!fixture_make(c, &f))
		goto out;
	/* Same bytes, another file (inode) at the path. */
	make_dump(&file, "1");
	snprintf(moved, sizeof(moved), "%s.new", f.path);
	CHECK(c, tfile_write(moved, file.p, file.n) == 0 && rename(moved, f.path) == 0);
	CHECK_I64(c, csim_slice_reader_open(&rd, &f.store, f.t.slices, &err), CSIM_E_INPUT);
	CHECK(c, strstr(err.message, "the file changed while it was being converted") != NULL);
	csim_slice_reader_close(&rd);
	/* Gone altogether. */
	unlink(f.path);
	CHECK_I64(c, csim_slice_reader_open(&rd, &f.store, f.t.slices, &err), CSIM_E_INPUT);
	csim_slice_reader_close(&rd);
out:
	tbuf_free(&file);
	fixture_free(&f);
}

/* Rewritten in place with the old size and time: caught by the row's start. */
static void test_rewritten_row_is_an_error(struct check_ctx *c)
{
	struct fixture f;
	struct csim_slice_reader rd;
	struct csim_error err;
	struct tbuf file = { NULL, 0, 0, 0 };
	int has = 0;
	size_t row;
	struct csim_event ev;

	if (!fixture_make(c, &f))
		goto out;
	make_dump(&file, "9");   /* A's ts 1 → 9, same length */
	CHECK(c, tfile_rewrite_unseen(f.path, file.p, file.n) == 0);
	for (size_t i = 0; i < f.t.nslices; i++)
		f.t.slices[i].kept = 1;
	CHECK_I64(c, csim_slice_reader_open(&rd, &f.store, f.t.slices, &err), CSIM_OK);
	CHECK_I64(c, csim_slice_reader_next(&rd, &row, &ev, &has, &err), CSIM_E_INPUT);
	CHECK(c, strstr(err.message, "the file changed while it was being converted") != NULL);
	csim_slice_reader_close(&rd);
out:
	tbuf_free(&file);
	fixture_free(&f);
}

/*
 * With the text kept (gzip input), the second reading never opens the file:
 * the rows come back with their own bytes after it is gone, also after a
 * clear (the run discarded) and for a row whose fields lie too far in to be
 * recorded (parsed again from the kept text, with no file behind it); with
 * a limit of `limit` bytes in memory, from the temporary file (`spills`: it
 * was made) or, where none can be made, from memory all the same.
 */
static void kept_text_case(struct check_ctx *c, size_t limit, int spills)
{
	static const char *const de[] = { "\"D\"", "\"E\"" };
	static const char *const far[] = { "\"A\"", "\"F\"" };
	static const size_t all[] = { 0, 1, 2, 3, 4 };
	struct fixture f;
	struct tbuf file = { NULL, 0, 0, 0 }, big = { NULL, 0, 0, 0 };

	csim_table_init(&f.t);
	csim_slice_store_init(&f.store, NULL, NULL);
	make_dump(&file, "1");
	if (!CHECK(c, tdir_make(f.dir, sizeof(f.dir)) == 0) ||
	    !CHECK(c, tfile_write_gz(tpath(f.path, sizeof(f.path), f.dir, "v.bin"),
				     file.p, file.n) == 0) ||
	    first_reading_kept(c, f.path, &f.t, &f.store, 0, ~0u, limit) != CSIM_OK ||
	    !CHECK_U64(c, f.store.nlocs, 5))
		goto out;
	CHECK_I64(c, f.store.spill_fd >= 0, spills);
	CHECK_I64(c, f.store.spilled > 0, spills);
	unlink(f.path);
	expect_all_then_bde(c, &f);

	/* The run discarded at the second TRACE block: its text goes too. */
	csim_slice_store_release(&f.store);
	csim_table_release(&f.t);
	csim_table_init(&f.t);
	if (!CHECK(c, tfile_write_gz(f.path, file.p, file.n) == 0) ||
	    first_reading_kept(c, f.path, &f.t, &f.store, 1, ~0u, limit) != CSIM_OK ||
	    !CHECK_U64(c, f.store.nlocs, 2))
		goto out;
	unlink(f.path);
	for (size_t i = 0; i < f.t.nslices; i++)
		f.t.slices[i].kept = 1;
	expect_rows(c, &f, all, 2, de);

	/* F's name lies past 64 KiB into it: no layout recorded. */
	csim_slice_store_release(&f.store);
	csim_table_release(&f.t);
	csim_table_init(&f.t);
	tbuf_adds(&big, "{\"traceEvents\":[{\"name\":\"A\",\"ph\":\"X\",\"pid\":\"p\",\"tid\":\"MTE2\",\"ts\":1,\"dur\":1},"
		  "{\"args\":{\"s\":\"");
	tbuf_fill(&big, 'x', 70000);
	tbuf_adds(&big, "\"},\"name\":\"F\",\"ph\":\"X\",\"pid\":\"p\",\"tid\":\"MTE2\",\"ts\":7,\"dur\":1}]}");
	tbuf_free(&file);
	tbuf_block(&file, 2, big.p, big.n);
	if (!CHECK(c, !big.oom && !file.oom) || !CHECK(c, tfile_write_gz(f.path, file.p, file.n) == 0) ||
	    first_reading_kept(c, f.path, &f.t, &f.store, 0, ~0u, limit) != CSIM_OK ||
	    !CHECK_U64(c, f.store.nlocs, 2) || !CHECK_U64(c, f.store.locs[1].layout.n[0], 0))
		goto out;
	unlink(f.path);
	for (size_t i = 0; i < f.t.nslices; i++)
		f.t.slices[i].kept = 1;
	expect_rows(c, &f, all, 2, far);
out:
	tbuf_free(&big);
	tbuf_free(&file);
	fixture_free(&f);
}

static void test_kept_text_needs_no_second_reading(struct check_ctx *c)
{
	const char *tmpdir = getenv("TMPDIR");
	char *saved = tmpdir != NULL ? strdup(tmpdir) : NULL;

	kept_text_case(c, CSIM_SLICE_TEXT_MEM, 0);
	/* Past one row: every row after the first goes to the file. */
	kept_text_case(c, 1, 1);
	/* No temporary file can be made: the text stays in memory. */
	setenv("TMPDIR", "/nonexistent/csim-no-such-dir", 1);
	kept_text_case(c, 1, 0);
	if (saved != NULL)
		setenv("TMPDIR", saved, 1);
	else
		unsetenv("TMPDIR");
	free(saved);
}

/*
 * Past the first spill the arena goes to the file a step at a time, not
 * each time it fills to the first limit again: a write of the whole limit
 * stalled the main thread while both queues ahead of it filled. 1600 rows
 * of ~4 KiB (6.5 MB) against a first limit of two steps: the file takes
 * all but the last step's worth, and every row comes back whole.
 */
static void test_kept_text_spills_in_steps(struct check_ctx *c)
{
	enum { ROWS = 1600, PAD = 4000 };
	struct fixture f;
	struct tbuf json = { NULL, 0, 0, 0 }, file = { NULL, 0, 0, 0 };
	struct csim_slice_reader rd;
	struct csim_error err;
	size_t got = 0;
	int has = 1, rc;

	csim_table_init(&f.t);
	csim_slice_store_init(&f.store, NULL, NULL);
	tbuf_adds(&json, "{\"traceEvents\":[");
	for (int i = 0; i < ROWS; i++) {
		char head[128];

		snprintf(head, sizeof(head),
			 "%s{\"name\":\"R%d\",\"ph\":\"X\",\"pid\":\"p\",\"tid\":\"MTE2\",\"ts\":%d,"
			 "\"dur\":1,\"args\":{\"detail\":\"", i ? "," : "", i, i);
		tbuf_adds(&json, head);
		tbuf_fill(&json, (char)('a' + i % 26), PAD);
		tbuf_adds(&json, "\"}}");
	}
	tbuf_adds(&json, "]}");
	tbuf_block(&file, 2, json.p, json.n);
	if (!CHECK(c, !json.oom && !file.oom) || !CHECK(c, tdir_make(f.dir, sizeof(f.dir)) == 0) ||
	    !CHECK(c, tfile_write_gz(tpath(f.path, sizeof(f.path), f.dir, "v.bin"),
				     file.p, file.n) == 0) ||
	    first_reading_kept(c, f.path, &f.t, &f.store, 0, ~0u, 2 * CSIM_SLICE_SPILL_STEP) != CSIM_OK ||
	    !CHECK_U64(c, f.store.nlocs, ROWS))
		goto out;
	CHECK_U64(c, f.store.text_limit, CSIM_SLICE_SPILL_STEP);
	CHECK(c, f.store.text_len <= CSIM_SLICE_SPILL_STEP);
	CHECK(c, f.store.spilled >= json.n - CSIM_SLICE_SPILL_STEP - 2 * PAD);
	unlink(f.path);
	for (size_t i = 0; i < f.t.nslices; i++)
		f.t.slices[i].kept = 1;
	rc = csim_slice_reader_open(&rd, &f.store, f.t.slices, &err);
	CHECK_I64(c, rc, CSIM_OK);
	while (rc == CSIM_OK) {
		struct csim_event ev;
		char name[16];
		size_t row = 0;

		rc = csim_slice_reader_next(&rd, &row, &ev, &has, &err);
		if (!CHECK_I64(c, rc, CSIM_OK) || !has)
			break;
		snprintf(name, sizeof(name), "\"R%zu\"", row);
		if (!CHECK_U64(c, row, got) ||
		    !CHECK_MEM(c, ev.field[CSIM_F_NAME].p, ev.field[CSIM_F_NAME].n, name) ||
		    !CHECK_U64(c, ev.field[CSIM_F_ARGS].n, PAD + 13) ||
		    !CHECK(c, ev.field[CSIM_F_ARGS].p[11 + PAD - 1] == (char)('a' + row % 26)))
			break;
		got++;
	}
	CHECK_U64(c, got, ROWS);
	csim_slice_reader_close(&rd);
out:
	tbuf_free(&json);
	tbuf_free(&file);
	fixture_free(&f);
}

/* docs/design.md ("Memory: what is held and why") counts 48 bytes a slice
 * row, 48 a kept row's location (its layout 28) and 32 a sync record; peak
 * RSS per shape follows from them. */
static void test_record_sizes_are_the_documented_ones(struct check_ctx *c)
{
	CHECK_I64(c, (int64_t)sizeof(struct csim_slice), 48);
	CHECK_I64(c, (int64_t)sizeof(struct csim_slice_loc), 48);
	CHECK_I64(c, (int64_t)sizeof(struct csim_slice_layout), 28);
	CHECK_I64(c, (int64_t)sizeof(struct csim_sync_rec), 32);
}

/*
 * Recorded rows past the store's step go to a temporary file of their own
 * and come back from it, in order, across blocks (the second block's first
 * row is in the file), after a clear (the run discarded), and with the
 * text kept too.
 */
static void test_recorded_rows_spill_to_a_file(struct check_ctx *c)
{
	static const char *const de[] = { "\"D\"", "\"E\"" };
	struct fixture f;
	struct tbuf file = { NULL, 0, 0, 0 };

	for (int kept_text = 0; kept_text < 2; kept_text++) {
		csim_table_init(&f.t);
		csim_slice_store_init(&f.store, NULL, NULL);
		make_dump(&file, "1");
		if (!CHECK(c, tdir_make(f.dir, sizeof(f.dir)) == 0) ||
		    !CHECK(c, (kept_text ? tfile_write_gz : tfile_write)(
				      tpath(f.path, sizeof(f.path), f.dir, "v.bin"), file.p, file.n) == 0) ||
		    first_reading_step(c, f.path, &f.t, &f.store, 0, ~0u, kept_text ? 1u << 20 : 0,
				       2) != CSIM_OK ||
		    !CHECK_U64(c, f.store.nlocs, 5))
			goto next;
		/* the third and the fifth row each found two held: four in the file */
		CHECK(c, f.store.locs_fd >= 0);
		CHECK_U64(c, f.store.locs_spilled, 4);
		expect_all_then_bde(c, &f);
		/* the run discarded at the second block: the file is written over */
		csim_slice_store_release(&f.store);
		csim_table_release(&f.t);
		csim_table_init(&f.t);
		if (first_reading_step(c, f.path, &f.t, &f.store, 1, ~0u, kept_text ? 1u << 20 : 0,
				       1) != CSIM_OK || !CHECK_U64(c, f.store.nlocs, 2))
			goto next;
		CHECK_U64(c, f.store.locs_spilled, 1);
		for (size_t i = 0; i < f.t.nslices; i++)
			f.t.slices[i].kept = 1;
		expect_rows(c, &f, (const size_t[]){ 0, 1 }, 2, de);
next:
		tbuf_free(&file);
		fixture_free(&f);
	}
}

int main(void)
{
	struct check_ctx c = { 0, 0, NULL };

	CHECK_RUN(&c, test_record_sizes_are_the_documented_ones);
	CHECK_RUN(&c, test_kept_text_spills_in_steps);

	CHECK_RUN(&c, test_kept_rows_come_back_in_order);
	CHECK_RUN(&c, test_cleared_store_reads_only_the_last_block);
	CHECK_RUN(&c, test_rows_not_recorded_are_skipped);
	CHECK_RUN(&c, test_replaced_file_is_refused_on_open);
	CHECK_RUN(&c, test_rewritten_row_is_an_error);
	CHECK_RUN(&c, test_kept_text_needs_no_second_reading);
	CHECK_RUN(&c, test_recorded_rows_spill_to_a_file);
	return check_done(&c);
}
