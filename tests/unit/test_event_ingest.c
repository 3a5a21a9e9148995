/* Event classification into the table (SPEC §3): the real scanner, ingest, table. */
#include <string.h>

#include <math.h>

#include "check.h"
#include "testutil.h"

#include "read/block_reader.h"
#include "read/event_ingest.h"
#include "read/event_scan.h"
#include "model/event_table.h"

static const char payload[] =
	"{\"traceEvents\":["
	/* 0 */ "{\"name\":\"MOV\",\"ph\":\"X\",\"pid\":\"core0.cubecore0\",\"tid\":\"MTE2\","
		"\"ts\":4.0289998054504395,\"dur\":0.5370000004768372,\"args\":{}},"
	/* 1 */ "{\"name\":\"SET_FLAG\",\"ph\":\"X\",\"pid\":\"core0.cubecore0\",\"tid\":\"MTE2\",\"ts\":1,\"dur\":0.001},"
	/* 2 */ "{\"name\":\"BAR\",\"ph\":\"X\",\"pid\":\"core0.cubecore0\",\"tid\":\"VECTOR\",\"ts\":1},"
	/* 3 */ "{\"name\":\"cache_time\",\"ph\":\"X\",\"pid\":\"core0.cubecore0\",\"tid\":\"FIXPIPE\",\"ts\":2,\"dur\":0}," 
	/* 4 */ "{\"name\":\"NOTS\",\"ph\":\"X\",\"pid\":\"p\",\"tid\":\"MTE2\"},"
	/* 5 */ "{\"name\":\"D\",\"ph\":\"X\",\"pid\":\"p\",\"tid\":\"MTE2\",\"ts\":1,\"dur\":\"5\"},"
	/* 6 */ "{\"name\":\"D\",\"ph\":\"X\",\"pid\":\"p\",\"tid\":\"MTE2\",\"ts\":1,\"dur\":-1},"
	/* 7 */ "{\"name\":\"R\",\"ph\":\"X\",\"pid\":\"p\",\"tid\":\"MTE2\",\"ts\":1e300},"
	/* 8 */ "{\"name\":7,\"ph\":\"X\",\"pid\":\"p\",\"tid\":\"MTE2\",\"ts\":1},"
	/* 9 */ "{\"name\":\"N\",\"ph\":\"X\",\"tid\":\"MTE2\",\"ts\":1},"
	/* 10 */ "{\"name\":\"N\",\"ph\":\"X\",\"pid\":\"p\",\"ts\":1},"
	/* 11 */ "{\"name\":\"NUM\",\"ph\":\"X\",\"pid\":0,\"tid\":\"MTE2\",\"ts\":1},"
	/* 12 */ "{\"name\":\"STR\",\"ph\":\"X\",\"pid\":\"0\",\"tid\":\"MTE2\",\"ts\":1},"
	/* 13 */ "{\"args\":{\"detail\":\"PIPE:VEC,TRIGGERPIPE:MTE3,FLAGID:0x2,\"},\"id\":\"c_1\","
		"\"name\":\"SET_FLAG\",\"ph\":\"B\",\"pid\":\"core0.veccore0\",\"tid\":\"VECTOR\",\"ts\":3.0004},"
	/* 14 */ "{\"args\":{},\"id\":\"c_1\",\"name\":\"SET_FLAG\",\"ph\":\"E\",\"pid\":\"core0.veccore0\",\"tid\":\"VECTOR\",\"ts\":3.001},"
	/* 15 */ "{\"name\":\"wait_event\",\"ph\":\"B\",\"pid\":\"core0.veccore0\",\"tid\":\"MTE3\",\"ts\":3},"
	/* 16 */ "{\"name\":\"SET_INTRA\",\"ph\":\"B\",\"pid\":\"p\",\"tid\":\"FIXP\",\"ts\":3},"
	/* 17 */ "{\"args\":{\"throughput(MB/s)\":1.50},\"name\":\"GM_TO_UB\",\"ph\":\"C\",\"pid\":\"MTE Throughput\",\"tid\":0,\"ts\":11},"
	/* 18 */ "{\"name\":\"process_sort_index\",\"ph\":\"M\",\"pid\":\"p\"},"
	/* 19 */ "{\"cat\":\"x\",\"id\":\"1\",\"name\":\"flow\",\"ph\":\"s\",\"pid\":\"p\",\"tid\":\"MTE2\",\"ts\":1},"
	/* 20 */ "{\"name\":\"i\",\"ph\":\"I\",\"pid\":\"p\",\"ts\":1},"
	/* 21 */ "{\"name\":\"noph\",\"pid\":\"p\",\"ts\":1},"
	/* 22 */ "42"
	"]}";

struct loaded {
	char dir[64];
	struct csim_table table;
};

/* Reads one TRACE payload through the scanner and ingest into l->table. */
static int load_text(struct check_ctx *c, struct loaded *l, const char *text,
		     const struct csim_ingest *how)
{
	struct tbuf b = { NULL, 0, 0, 0 };
	struct csim_block_reader r;
	struct csim_trace_scan *sc;
	struct csim_block blk;
	struct csim_error err;
	struct csim_ingest in = *how;
	char path[128];
	int has = 0, rc;

	in.table = &l->table;
	csim_table_init(&l->table);
	if (!CHECK(c, tdir_make(l->dir, sizeof(l->dir)) == 0))
		return -1;
	tbuf_blocks(&b, 2, text);
	tfile_write(tpath(path, sizeof(path), l->dir, "v.bin"), b.p, b.n);
	tbuf_free(&b);
	if (!CHECK_U64(c, csim_trace_scan_new(&sc, &err), CSIM_OK))
		return -1;
	rc = csim_block_reader_open(&r, path, &err);
	if (rc == CSIM_OK)
		rc = csim_block_reader_next(&r, &blk, &has, &err);
	if (rc == CSIM_OK)
		rc = csim_trace_scan_begin(sc, &r, &blk, &err);
	while (rc == CSIM_OK) {
		struct csim_event ev;

		rc = csim_trace_scan_next(sc, &ev, &has, &err);
		if (rc != CSIM_OK || !has)
			break;
		rc = csim_ingest_event(&in, sc, &ev, &err);
	}
	csim_trace_scan_free(sc);
	csim_block_reader_release(&r);
	return CHECK_U64(c, rc, CSIM_OK) ? 0 : -1;
}

static int load(struct check_ctx *c, struct loaded *l, int keep_counters)
{
	const struct csim_ingest how = { NULL, keep_counters, { 0, 0 } };

	return load_text(c, l, payload, &how);
}

static void unload(struct loaded *l)
{
	csim_table_release(&l->table);
	tdir_remove(l->dir);
}

static const char *pipe_of(const struct csim_table *t, uint32_t id)
{
	return csim_strtab_get(&t->pipes, id, NULL);
}

static void test_slices_and_their_kinds(struct check_ctx *c)
{
	struct loaded l;
	const struct csim_table *t = &l.table;

	if (load(c, &l, 1) != 0)
		goto out;
	if (!CHECK_U64(c, t->nslices, 6))
		goto out;
	CHECK_I64(c, t->slices[0].start, 4029);   /* llround(4028.99980...) */
	CHECK_I64(c, t->slices[0].end, 4566);     /* + llround(537.0000004...) */
	/* float ns as SPEC §4 writes them: ts*1000 and (ts + dur)*1000 */
	CHECK(c, t->slices[0].a == 4.0289998054504395 * 1000.0);
	CHECK(c, t->slices[0].b == (4.0289998054504395 + 0.5370000004768372) * 1000.0);
	CHECK(c, t->slices[2].b == t->slices[2].a);   /* no dur */
	CHECK_U64(c, t->slices[0].kind, CSIM_SLICE_INSTR);
	CHECK_U64(c, t->slices[1].kind, CSIM_SLICE_SYNC);
	CHECK_U64(c, t->slices[2].kind, CSIM_SLICE_BAR);
	CHECK_I64(c, t->slices[2].end - t->slices[2].start, 0);   /* no dur */
	CHECK_U64(c, t->slices[3].kind, CSIM_SLICE_CACHE_CCU);
	/* FIXPIPE, and a companion sits on its pipe's cache lane (SPEC §4). */
	CHECK_STR(c, pipe_of(t, t->slices[3].pipe), "FIXP cache");
	/* pid 0 and pid "0" are different processes. */
	CHECK(c, t->slices[4].pid != t->slices[5].pid);
	CHECK_STR(c, t->pid_names[t->slices[4].pid], "0");
	CHECK_STR(c, t->pid_names[t->slices[5].pid], "0");
out:
	unload(&l);
}

static void test_skip_reasons(struct check_ctx *c)
{
	struct loaded l;
	const struct csim_table *t = &l.table;

	if (load(c, &l, 1) != 0)
		goto out;
	CHECK_U64(c, t->events, 23);
	CHECK_U64(c, t->skipped[CSIM_SKIP_NO_TS], 1);
	CHECK_U64(c, t->skipped[CSIM_SKIP_BAD_DUR], 2);
	CHECK_U64(c, t->skipped[CSIM_SKIP_RANGE], 1);
	CHECK_U64(c, t->skipped[CSIM_SKIP_NO_NAME], 1);
	CHECK_U64(c, t->skipped[CSIM_SKIP_NO_PID], 1);
	CHECK_U64(c, t->skipped[CSIM_SKIP_NO_TID], 1);
	CHECK_U64(c, t->skipped[CSIM_SKIP_NO_PH], 1);
	CHECK_U64(c, t->skipped[CSIM_SKIP_NOT_OBJECT], 1);
	CHECK_U64(c, t->dropped[CSIM_DROP_OTHER_BE], 1);
	CHECK_U64(c, t->dropped[CSIM_DROP_METADATA], 1);
	CHECK_U64(c, t->dropped[CSIM_DROP_FLOW], 1);
	CHECK_U64(c, t->dropped[CSIM_DROP_OTHER_PH], 1);
out:
	unload(&l);
}

static void test_sync_records(struct check_ctx *c)
{
	struct loaded l;
	const struct csim_table *t = &l.table;
	const struct csim_sync_detail *d;
	const uint32_t run0 = 0;
	const char *id;
	size_t n;

	if (load(c, &l, 1) != 0 || !CHECK_U64(c, t->nsyncs, 3))
		goto out;
	CHECK_U64(c, t->syncs[0].kind, CSIM_SYNC_SET);
	CHECK_U64(c, t->syncs[0].is_begin, 1);
	CHECK_I64(c, llround(t->syncs[0].a), 3000);   /* 3.0004 us -> 3000 ns */
	CHECK(c, fabs(t->syncs[0].a - 3000.4) < 1e-6);   /* the float instant kept */
	/* Interned behind the run's index (run 0 here). */
	id = csim_strtab_get(&t->ids, t->syncs[0].id, &n);
	if (CHECK_U64(c, n, sizeof(run0) + 3)) {
		CHECK_BYTES(c, id, sizeof(run0), (const char *)&run0, sizeof(run0));
		CHECK_MEM(c, id + sizeof(run0), 3, "c_1");
	}
	if (CHECK(c, t->syncs[0].detail != CSIM_NONE)) {
		d = &t->details[t->syncs[0].detail];
		CHECK_STR(c, pipe_of(t, d->producer), "VECTOR");   /* VEC */
		CHECK_STR(c, pipe_of(t, d->consumer), "MTE3");
		CHECK_U64(c, d->flag_id, 2);
	}
	CHECK_U64(c, t->syncs[1].is_begin, 0);
	CHECK_U64(c, t->syncs[1].detail, CSIM_NONE);
	CHECK_U64(c, t->syncs[2].kind, CSIM_SYNC_WAIT);      /* wait_event */
	CHECK_U64(c, t->syncs[2].id, CSIM_NONE);
out:
	unload(&l);
}

/*
 * SPEC §3/§5.6: newer producers' cross-core sync is B/E records named
 * SET/WAIT_INTRA_BLOCK(I) with ids intra_<n> and a detail naming the pipe
 * and the sync_id; they become sync records marked intra.
 */
static const char intra_records[] =
	"{\"traceEvents\":["
	"{\"args\":{\"detail\":\"PIPE:FIXP,sync_id:3,\"},\"id\":\"intra_0\",\"name\":\"SET_INTRA_BLOCK\","
	"\"ph\":\"B\",\"pid\":\"core0.cubecore0\",\"tid\":\"FIXP\",\"ts\":1},"
	"{\"args\":{},\"id\":\"intra_0\",\"name\":\"SET_INTRA_BLOCK\",\"ph\":\"E\","
	"\"pid\":\"core0.cubecore0\",\"tid\":\"FIXP\",\"ts\":1.001},"
	"{\"args\":{\"detail\":\"sync_id:0x13,PIPE:VEC,\"},\"id\":\"intra_0\",\"name\":\"WAIT_INTRA_BLOCKI\","
	"\"ph\":\"B\",\"pid\":\"core0.veccore1\",\"tid\":\"VECTOR\",\"ts\":1},"
	"{\"name\":\"SET_INTRA_BLOCKI\",\"ph\":\"E\",\"pid\":\"core0.veccore0\",\"tid\":\"MTE3\",\"ts\":2},"
	"{\"name\":\"SET_FLAG\",\"ph\":\"E\",\"pid\":\"core0.veccore0\",\"tid\":\"MTE3\",\"ts\":2},"
	"{\"name\":\"WAIT_INTRA_BLOCK\",\"ph\":\"E\",\"pid\":\"core0.veccore0\",\"ts\":2}"
	"]}";

static void test_intra_block_records(struct check_ctx *c)
{
	const struct csim_ingest how = { NULL, 1, { 0, 0 } };
	static const uint8_t want_kind[] = { CSIM_SYNC_SET, CSIM_SYNC_SET, CSIM_SYNC_WAIT,
					     CSIM_SYNC_SET, CSIM_SYNC_SET };
	static const uint8_t want_intra[] = { 1, 1, 1, 1, 0 };
	struct loaded l;
	const struct csim_table *t = &l.table;
	const struct csim_sync_detail *d;

	if (load_text(c, &l, intra_records, &how) != 0 || !CHECK_U64(c, t->nsyncs, 5))
		goto out;
	for (size_t i = 0; i < 5; i++) {
		CHECK_U64(c, t->syncs[i].kind, want_kind[i]);
		CHECK_U64(c, t->syncs[i].intra, want_intra[i]);
	}
	/* ids are interned behind their run number (scoped to their run) */
	CHECK_STR(c, csim_strtab_get(&t->ids, t->syncs[0].id, NULL) + sizeof(t->run),
		  "intra_0");
	CHECK_U64(c, t->syncs[2].id, t->syncs[0].id);
	if (CHECK(c, t->syncs[0].detail != CSIM_NONE)) {
		d = &t->details[t->syncs[0].detail];
		CHECK_STR(c, pipe_of(t, d->producer), "FIXP");
		CHECK_U64(c, d->consumer, CSIM_NONE);
		CHECK(c, d->has_flag_id);
		CHECK_U64(c, d->flag_id, 3);        /* the sync_id */
	}
	if (CHECK(c, t->syncs[2].detail != CSIM_NONE)) {
		d = &t->details[t->syncs[2].detail];
		CHECK_STR(c, pipe_of(t, d->producer), "VECTOR");   /* VEC */
		CHECK_U64(c, d->flag_id, 19);       /* 0x13 */
	}
	CHECK_U64(c, t->syncs[3].id, CSIM_NONE);
	/* Without a tid it is skipped like a flag record, not dropped. */
	CHECK_U64(c, t->skipped[CSIM_SKIP_NO_TID], 1);
	CHECK_U64(c, t->dropped[CSIM_DROP_OTHER_BE], 0);
out:
	unload(&l);
}

/* Adds a SET begin record with id id[0..n) to t in the table's current run. */
static int add_set(struct csim_table *t, const char *id, size_t n, uint32_t *out)
{
	struct csim_sync_in in;
	struct csim_error err;

	memset(&in, 0, sizeof(in));
	in.owner.pid_json = csim_span_of("\"core0\"", 7);
	in.owner.pid = csim_span_of("core0", 5);
	in.owner.tid = csim_span_of("MTE2", 4);
	in.name = csim_span_of("SET_FLAG", 8);
	in.id = csim_span_of(id, n);
	in.has_id = 1;
	in.kind = CSIM_SYNC_SET;
	in.is_begin = 1;
	if (csim_table_add_sync(t, &in, &err) != CSIM_OK)
		return -1;
	*out = t->syncs[t->nsyncs - 1].id;
	return 0;
}

/*
 * Simulator ids restart per run (SPEC §5.1): the same id text in two runs
 * held together (--run all) is two ids, so nothing pairs or matches across
 * runs; within a run it stays one id. An id that looks like another run's
 * prefixed key does not collide with it.
 */
static void test_ids_are_scoped_to_their_run(struct check_ctx *c)
{
	struct csim_table t;
	uint32_t a0, b0, a1, a1again, tricky;
	/* run 1's key for "_1" on a little-endian machine, as run 0's id text */
	static const char tricky_id[] = "\x01\x00\x00\x00_1";

	csim_table_init(&t);
	if (!CHECK(c, add_set(&t, "_1", 2, &a0) == 0 && add_set(&t, "_2", 2, &b0) == 0))
		goto out;
	t.run = 1;
	if (!CHECK(c, add_set(&t, "_1", 2, &a1) == 0 && add_set(&t, "_1", 2, &a1again) == 0))
		goto out;
	CHECK(c, a0 != b0);
	CHECK(c, a1 != a0);
	CHECK_U64(c, a1again, a1);
	t.run = 0;
	if (!CHECK(c, add_set(&t, tricky_id, sizeof(tricky_id) - 1, &tricky) == 0))
		goto out;
	CHECK(c, tricky != a1 && tricky != a0);
	CHECK_U64(c, t.ids.count, 4);
out:
	csim_table_release(&t);
}

static void test_counters_copied_or_dropped(struct check_ctx *c)
{
	static const char want[] = "{\"args\":{\"throughput(MB/s)\":1.50},\"name\":\"GM_TO_UB\","
				   "\"ph\":\"C\",\"pid\":\"MTE Throughput\",\"tid\":0,\"ts\":11}";
	struct loaded l;

	if (load(c, &l, 1) == 0 && CHECK_U64(c, l.table.ncounters, 1))
		CHECK_MEM(c, l.table.counter_text + l.table.counters[0].off,
			  l.table.counters[0].len, want);
	unload(&l);
	if (load(c, &l, 0) == 0) {
		CHECK_U64(c, l.table.ncounters, 0);
		CHECK_U64(c, l.table.dropped[CSIM_DROP_COUNTER], 1);
	}
	unload(&l);
}

/*
 * SPEC §3: a warning names only events that would have been kept. An X
 * event that cannot be placed but that the lane rule drops anyway (a
 * ccu_time whose float32 dur rounds to -0.00054 µs, a flag slice without ts)
 * is counted with the dropped slices; with the option that would keep it,
 * it is skipped, and warned about, like any other.
 */
static const char unplaced[] =
	"{\"traceEvents\":["
	"{\"name\":\"ccu_time\",\"ph\":\"X\",\"pid\":\"p\",\"tid\":\"FIXP\",\"ts\":1,\"dur\":-0.00054},"
	"{\"name\":\"SET_FLAG\",\"ph\":\"X\",\"pid\":\"p\",\"tid\":\"MTE2\"},"
	"{\"name\":\"BAR\",\"ph\":\"X\",\"pid\":\"p\",\"ts\":1},"
	"{\"name\":\"MOV\",\"ph\":\"X\",\"pid\":\"p\",\"tid\":\"SCALAR\",\"ts\":1,\"dur\":\"x\"},"
	"{\"name\":7,\"ph\":\"X\",\"pid\":\"p\",\"tid\":\"FLOWCTRL\",\"ts\":1},"
	"{\"name\":\"MOV\",\"ph\":\"X\",\"pid\":\"p\",\"tid\":\"MTE2\",\"ts\":1,\"dur\":-1},"
	"{\"name\":\"MOV\",\"ph\":\"X\",\"tid\":\"VECTOR\",\"ts\":1}"
	"]}";

/*
 * SPEC §3: older producers write cross-core sync as long X slices on
 * FLOWCTRL; they are kept on a lane INTRA_BLOCK of their core. Other
 * FLOWCTRL slices, and those names on other lanes, stay where they are.
 */
static const char intra_block[] =
	"{\"traceEvents\":["
	"{\"name\":\"WAIT_INTRA_BLOCK\",\"ph\":\"X\",\"pid\":\"core0.cubecore0\",\"tid\":\"FLOWCTRL\",\"ts\":1,\"dur\":2.687,"
	"\"args\":{\"detail\":\"PIPE:FIXP,XT:X16=0x1,\"}},"
	"{\"name\":\"SET_INTRA_BLOCKI\",\"ph\":\"X\",\"pid\":\"core0.veccore0\",\"tid\":\"FLOWCTRL\",\"ts\":1,\"dur\":1},"
	"{\"name\":\"JUMP\",\"ph\":\"X\",\"pid\":\"core0.veccore0\",\"tid\":\"FLOWCTRL\",\"ts\":2,\"dur\":0},"
	"{\"name\":\"WAIT_INTRA_BLOCK\",\"ph\":\"X\",\"pid\":\"core0.veccore0\",\"tid\":\"MTE2\",\"ts\":3,\"dur\":1},"
	"{\"name\":\"WAIT_INTRA_BLOCK\",\"ph\":\"X\",\"pid\":\"core0.veccore0\",\"tid\":\"FLOWCTRL\",\"ts\":4,\"dur\":-1}"
	"]}";

static void test_intra_block_slices_keep_their_lane(struct check_ctx *c)
{
	const struct csim_ingest how = { NULL, 1, { 0, 0 } };
	struct loaded l;
	const struct csim_table *t = &l.table;

	if (load_text(c, &l, intra_block, &how) == 0 && CHECK_U64(c, t->nslices, 4)) {
		CHECK_STR(c, pipe_of(t, t->slices[0].pipe), "INTRA_BLOCK");
		CHECK_STR(c, pipe_of(t, t->slices[1].pipe), "INTRA_BLOCK");
		CHECK_STR(c, pipe_of(t, t->slices[2].pipe), "FLOWCTRL");
		CHECK_STR(c, pipe_of(t, t->slices[3].pipe), "MTE2");
		/* Kept like instructions; the WAITs marked for the summary's
		   cross-core waiting, wherever they sit. */
		CHECK_U64(c, t->slices[0].kind, CSIM_SLICE_INTRA_WAIT);
		CHECK_U64(c, t->slices[1].kind, CSIM_SLICE_INSTR);
		CHECK_U64(c, t->slices[3].kind, CSIM_SLICE_INTRA_WAIT);
		CHECK_U64(c, csim_lane_rule_kind_drop(&how.rule, CSIM_SLICE_INTRA_WAIT), (uint64_t)-1);
		CHECK_U64(c, csim_pipe_lookup("INTRA_BLOCK", 11)->cls, CSIM_PIPE_OTHER);
		/* One that cannot be placed would have been kept: a skip. */
		CHECK_U64(c, t->skipped[CSIM_SKIP_BAD_DUR], 1);
	}
	unload(&l);
}

static void test_unplaced_events_dropped_anyway(struct check_ctx *c)
{
	for (int keep = 0; keep < 2; keep++) {
		const struct csim_ingest how = { NULL, 1, { keep, keep } };
		struct loaded l;
		const struct csim_table *t = &l.table;

		if (load_text(c, &l, unplaced, &how) == 0) {
			CHECK_U64(c, t->nslices, 0);
			CHECK_U64(c, t->unplaced_drops[CSIM_SDROP_SYNC], 1);
			CHECK_U64(c, t->unplaced_drops[CSIM_SDROP_BAR], 1);
			CHECK_U64(c, t->unplaced_drops[CSIM_SDROP_NOISE_LANE], 1);
			/* Kept by the options: skipped for their fields instead. */
			CHECK_U64(c, t->unplaced_drops[CSIM_SDROP_CACHE_CCU], !keep);
			CHECK_U64(c, t->unplaced_drops[CSIM_SDROP_SCALAR_LANE], !keep);
			CHECK_U64(c, t->skipped[CSIM_SKIP_BAD_DUR], 1 + 2 * (uint64_t)keep);
			/* Would have been kept either way: always a skip. */
			CHECK_U64(c, t->skipped[CSIM_SKIP_NO_PID], 1);
			CHECK_U64(c, t->skipped[CSIM_SKIP_NO_TS], 0);
			CHECK_U64(c, t->skipped[CSIM_SKIP_NO_NAME], 0);
		}
		unload(&l);
	}
}

int main(void)
{
	struct check_ctx c = { 0, 0, NULL };

	CHECK_RUN(&c, test_slices_and_their_kinds);
	CHECK_RUN(&c, test_skip_reasons);
	CHECK_RUN(&c, test_sync_records);
	CHECK_RUN(&c, test_ids_are_scoped_to_their_run);
	CHECK_RUN(&c, test_counters_copied_or_dropped);
	CHECK_RUN(&c, test_unplaced_events_dropped_anyway);
	CHECK_RUN(&c, test_intra_block_slices_keep_their_lane);
	CHECK_RUN(&c, test_intra_block_records);
	return check_done(&c);
}
