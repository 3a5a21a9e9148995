/*
 * scan_pipe: a TRACE block scanned on the second thread gives the caller
 * what the in-line scanner gives: the same events in the same order, with
 * the same offsets, bytes, field places and decoded texts, then the same
 * end or the same error (message and offset). Batches roll over by count
 * and by bytes, an event larger than a batch still passes, escaped names
 * are decoded on the caller's side as in line, and a caller that stops
 * early stops the thread (ASan/LSan see no leak, nothing hangs).
 */
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "read/scan_pipe.h"
#include "testutil.h"

struct reading {
	struct csim_block_reader r;
	struct csim_block blk;
	struct csim_trace_scan *sc;
	struct csim_error err;
};

static int reading_open(struct reading *rd, const char *path)
{
	int has = 0;

	rd->sc = NULL;
	csim_error_clear(&rd->err);
	return csim_trace_scan_new(&rd->sc, &rd->err) == CSIM_OK &&
	       csim_block_reader_open(&rd->r, path, &rd->err) == CSIM_OK &&
	       csim_block_reader_next(&rd->r, &rd->blk, &has, &rd->err) == CSIM_OK && has &&
	       csim_trace_scan_begin(rd->sc, &rd->r, &rd->blk, &rd->err) == CSIM_OK ? 0 : -1;
}

static void reading_close(struct reading *rd)
{
	csim_trace_scan_free(rd->sc);
	csim_block_reader_release(&rd->r);
}

static int same_span_place(struct csim_span a, const char *abase, struct csim_span b,
			   const char *bbase)
{
	if (a.p == NULL || b.p == NULL)
		return a.p == b.p;
	return a.n == b.n && a.p - abase == b.p - bbase && memcmp(a.p, b.p, a.n) == 0;
}

static int same_text(struct csim_text a, struct csim_text b)
{
	if (a.p == NULL || b.p == NULL)
		return a.p == b.p && a.kind == b.kind;
	return a.kind == b.kind && a.n == b.n && memcmp(a.p, b.p, a.n) == 0;
}

static int same_event(const struct csim_event *a, const struct csim_event *b)
{
	int same = a->offset == b->offset && a->is_object == b->is_object &&
		   a->depth == b->depth && a->raw.n == b->raw.n &&
		   memcmp(a->raw.p, b->raw.p, a->raw.n) == 0 &&
		   same_text(a->ph, b->ph) && same_text(a->name, b->name) &&
		   same_text(a->pid, b->pid) && same_text(a->tid, b->tid) &&
		   same_text(a->id, b->id);

	for (int i = 0; i < CSIM_F_COUNT; i++)
		same &= same_span_place(a->field[i], a->raw.p, b->field[i], b->raw.p);
	return same;
}

/*
 * Reads the payload in `path` both ways, side by side; returns the events
 * compared, and the end status of both in *rc_line / *rc_pipe. With
 * stop_after, the pipe's caller stops after that many events.
 */
static size_t compare(struct check_ctx *c, const char *path, size_t stop_after,
		      int *rc_line, int *rc_pipe, struct csim_error *err_line,
		      struct csim_error *err_pipe)
{
	struct reading a, b;
	struct csim_trace_scan *isc = NULL;
	struct csim_scan_pipe *pipe = NULL;
	size_t n = 0;
	int ha = 1, hb = 1;

	*rc_line = *rc_pipe = -1;
	if (!CHECK(c, reading_open(&a, path) == 0) || !CHECK(c, reading_open(&b, path) == 0) ||
	    !CHECK_I64(c, csim_trace_scan_new(&isc, &b.err), CSIM_OK) ||
	    !CHECK_I64(c, csim_scan_pipe_start(&pipe, b.sc, isc, &b.err), CSIM_OK))
		goto out;
	for (;;) {
		struct csim_event ea, eb;

		*rc_line = csim_trace_scan_next(a.sc, &ea, &ha, err_line);
		*rc_pipe = csim_scan_pipe_next(pipe, &eb, &hb, err_pipe);
		if (*rc_line != CSIM_OK || *rc_pipe != CSIM_OK || !ha || !hb)
			break;
		if (!CHECK(c, same_event(&ea, &eb))) {
			fprintf(stderr, "    event %zu at offset %llu differs\n", n,
				(unsigned long long)ea.offset);
			break;
		}
		if (++n == stop_after)
			break;
	}
	if (stop_after == 0)
		CHECK_I64(c, ha, hb);
out:
	csim_scan_pipe_finish(pipe);
	csim_trace_scan_free(isc);
	reading_close(&a);
	reading_close(&b);
	return n;
}

static void event(struct tbuf *p, size_t i, size_t args_len)
{
	char head[256];

	snprintf(head, sizeof(head),
		 "%s{\"name\":\"%s\",\"ph\":\"X\",\"pid\":\"core%zu.veccore0\",\"tid\":\"%s\","
		 "\"ts\":%zu.0290000438690186,\"dur\":0.5,\"args\":{\"detail\":\"",
		 i ? ",\n" : "", i % 3 ? "VADD" : "V\\u0041DD\\n", i % 7,
		 i % 5 ? "VECTOR" : "MTE\\u0032", i);
	tbuf_adds(p, head);
	tbuf_fill(p, 'x', args_len);
	tbuf_adds(p, "\"}}");
}

/* n events of ~120 bytes; every 1000th carries `big` bytes of args; then `tail`. */
static int write_dump(const char *path, size_t n, size_t big, const char *tail)
{
	struct tbuf payload = { NULL, 0, 0, 0 }, file = { NULL, 0, 0, 0 };
	int rc;

	tbuf_adds(&payload, "{\"traceEvents\":[");
	for (size_t i = 0; i < n; i++)
		event(&payload, i, i % 1000 == 999 ? big : 1);
	tbuf_adds(&payload, tail);
	tbuf_block(&file, 2, payload.p, payload.n);
	rc = payload.oom || file.oom ? -1 : tfile_write(path, file.p, file.n);
	tbuf_free(&payload);
	tbuf_free(&file);
	return rc;
}

/*
 * A dump of n events (every 1000th with `big` bytes of args) then `tail`:
 * both readings give its n events, then the status `want` with the same
 * message and offset.
 */
static void expect_same(struct check_ctx *c, size_t n, size_t big, const char *tail,
			int want)
{
	char dir[64], path[128];
	struct csim_error el, ep;
	int rl, rp;

	if (!CHECK(c, tdir_make(dir, sizeof(dir)) == 0))
		return;
	tpath(path, sizeof(path), dir, "v.bin");
	csim_error_clear(&el);
	csim_error_clear(&ep);
	if (CHECK(c, write_dump(path, n, big, tail) == 0)) {
		CHECK_U64(c, compare(c, path, 0, &rl, &rp, &el, &ep), n);
		CHECK_I64(c, rl, want);
		CHECK_I64(c, rp, want);
		CHECK_U64(c, ep.offset, el.offset);
		CHECK_STR(c, ep.message, el.message);
	}
	tdir_remove(dir);
}

static void test_same_events_as_in_line(struct check_ctx *c)
{
	/* 30000 events: batches end by count (8192 small events take less
	   than a batch's 1 MiB); 3 MiB events: a batch each, grown. */
	expect_same(c, 30000, 3u << 20, "]}", CSIM_OK);
}

static void test_same_error_as_in_line(struct check_ctx *c)
{
	/* A broken event after 20000 good ones; a payload cut after 5000. */
	expect_same(c, 20000, 100, ",{\"name\":\"A\",\"ph\":X}]}", CSIM_E_INPUT);
	expect_same(c, 5000, 100, ",{\"name\":\"A\"", CSIM_E_INPUT);
}

/* The caller stops early, with batches full and the thread waiting. */
static void test_early_stop(struct check_ctx *c)
{
	char dir[64], path[128];
	struct csim_error el, ep;
	int rl, rp;

	if (!CHECK(c, tdir_make(dir, sizeof(dir)) == 0))
		return;
	tpath(path, sizeof(path), dir, "v.bin");
	if (CHECK(c, write_dump(path, 60000, 100, "]}") == 0)) {
		CHECK_U64(c, compare(c, path, 10, &rl, &rp, &el, &ep), 10);
		CHECK_U64(c, compare(c, path, 1, &rl, &rp, &el, &ep), 1);
	}
	tdir_remove(dir);
}

int main(void)
{
	struct check_ctx c = { 0, 0, NULL };

	CHECK_RUN(&c, test_same_events_as_in_line);
	CHECK_RUN(&c, test_same_error_as_in_line);
	CHECK_RUN(&c, test_early_stop);
	return check_done(&c);
}
