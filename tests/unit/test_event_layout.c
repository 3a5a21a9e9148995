/*
 * The slice store re-reads kept slices from the layout recorded on the first
 * reading; an event whose fields lie too deep for the compact layout (args
 * of more than 64 KiB before its name, as keys come sorted) is parsed again.
 * Either way the spans must be the event's own bytes.
 */
#include "check.h"
#include "testutil.h"

#include "read/block_reader.h"
#include "read/event_scan.h"
#include "base/number_grid.h"
#include "read/slice_store.h"

/* First reading of the one TRACE block at path: the X event's place in store. */
static int record(struct check_ctx *c, const char *path, struct csim_slice_store *store,
		  struct csim_slice *row)
{
	struct csim_block_reader r;
	struct csim_trace_scan *sc;
	struct csim_block blk;
	struct csim_event ev;
	struct csim_error err;
	int has = 0, rc;

	if (!CHECK_U64(c, csim_trace_scan_new(&sc, &err), CSIM_OK))
		return -1;
	rc = csim_block_reader_open(&r, path, &err);
	if (rc == CSIM_OK) {
		csim_slice_store_init(store, path, csim_block_reader_file_id(&r));
		rc = csim_block_reader_next(&r, &blk, &has, &err);
	}
	if (rc == CSIM_OK)
		rc = csim_slice_store_begin_block(store, &blk, &err);
	if (rc == CSIM_OK)
		rc = csim_trace_scan_begin(sc, &r, &blk, &err);
	if (rc == CSIM_OK)
		rc = csim_trace_scan_next(sc, &ev, &has, &err);   /* the M event */
	if (rc == CSIM_OK)
		rc = csim_trace_scan_next(sc, &ev, &has, &err);
	if (rc == CSIM_OK && CHECK(c, has) &&
	    CHECK(c, csim_number_grid(ev.field[CSIM_F_TS].p, ev.field[CSIM_F_TS].n,
				      CSIM_GRID_LIMIT_NS, &row->start)))
		rc = csim_slice_store_add(store, &ev, 0, &err);
	csim_block_reader_release(&r);
	csim_trace_scan_free(sc);
	return CHECK_U64(c, rc, CSIM_OK) ? 0 : -1;
}

static void check_reread(struct check_ctx *c, size_t args_len)
{
	struct tbuf payload = { NULL, 0, 0, 0 }, file = { NULL, 0, 0, 0 };
	struct csim_slice_store store;
	struct csim_slice_reader rd;
	struct csim_slice row = { .kept = 1 };
	struct csim_event again;
	struct csim_error err;
	char dir[64], path[128];
	size_t at = 99;
	int has = 0;

	csim_slice_store_init(&store, NULL, NULL);
	tbuf_adds(&payload, "{\"traceEvents\":[{\"ph\":\"M\"},{\"args\":{\"code\":\"");
	tbuf_fill(&payload, 'x', args_len);
	tbuf_adds(&payload, "\"},\"dur\":0.5,\"name\":\"MMAD\",\"ph\":\"X\",\"pid\":\"p\","
		  "\"tid\":\"CUBE\",\"ts\":4.0289998054504395}]}");
	tbuf_block(&file, 2, payload.p, payload.n);
	if (!CHECK(c, tdir_make(dir, sizeof(dir)) == 0))
		goto out;
	tfile_write(tpath(path, sizeof(path), dir, "v.bin"), file.p, file.n);
	if (record(c, path, &store, &row) != 0 || !CHECK_U64(c, store.nlocs, 1))
		goto out_dir;
	CHECK_U64(c, store.locs[0].layout.n[0] != 0, args_len < 60000);
	/* Second reading, from the recorded offset and layout. */
	if (CHECK_U64(c, csim_slice_reader_open(&rd, &store, &row, &err), CSIM_OK) &&
	    CHECK_U64(c, csim_slice_reader_next(&rd, &at, &again, &has, &err), CSIM_OK) &&
	    CHECK(c, has)) {
		CHECK_U64(c, at, 0);
		CHECK_MEM(c, again.field[CSIM_F_NAME].p, again.field[CSIM_F_NAME].n, "\"MMAD\"");
		CHECK_MEM(c, again.field[CSIM_F_PID].p, again.field[CSIM_F_PID].n, "\"p\"");
		CHECK_MEM(c, again.field[CSIM_F_TS].p, again.field[CSIM_F_TS].n,
			  "4.0289998054504395");
		CHECK_MEM(c, again.field[CSIM_F_DUR].p, again.field[CSIM_F_DUR].n, "0.5");
		CHECK_U64(c, again.field[CSIM_F_ARGS].n, args_len + 11);   /* {"code":"…"} */
		CHECK(c, again.field[CSIM_F_ARGS].p != NULL &&
		      memcmp(again.field[CSIM_F_ARGS].p, "{\"code\":\"xx", 11) == 0);
	}
	csim_slice_reader_close(&rd);
out_dir:
	tdir_remove(dir);
out:
	csim_slice_store_release(&store);
	tbuf_free(&payload);
	tbuf_free(&file);
}

static void test_reread_from_layout(struct check_ctx *c)
{
	check_reread(c, 10);
}

static void test_reread_parses_when_fields_lie_deep(struct check_ctx *c)
{
	check_reread(c, 70000);
}

static void test_layout_records_absent_fields(struct check_ctx *c)
{
	struct csim_event ev;
	struct csim_slice_layout layout;
	static const char text[] = "{\"name\":\"a\",\"ph\":\"X\",\"pid\":1,\"tid\":2,\"ts\":3}";

	memset(&ev, 0, sizeof(ev));
	ev.raw.p = text;
	ev.raw.n = sizeof(text) - 1;
	ev.field[CSIM_F_NAME] = (struct csim_span){ text + 8, 3 };
	ev.field[CSIM_F_PID] = (struct csim_span){ text + 26, 1 };
	ev.field[CSIM_F_TS] = (struct csim_span){ text + 40, 1 };
	csim_slice_layout_make(&ev, &layout);
	CHECK_U64(c, layout.len, sizeof(text) - 1);
	CHECK_U64(c, layout.n[0], 3);
	CHECK_U64(c, layout.off[0], 8);
	CHECK_U64(c, layout.n[3], 0);      /* no dur */
	CHECK_U64(c, layout.args_n, 0);    /* no args */
}

int main(void)
{
	struct check_ctx c = { 0, 0, NULL };

	CHECK_RUN(&c, test_reread_from_layout);
	CHECK_RUN(&c, test_reread_parses_when_fields_lie_deep);
	CHECK_RUN(&c, test_layout_records_absent_fields);
	return check_done(&c);
}
