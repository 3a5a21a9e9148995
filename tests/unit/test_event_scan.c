/*
 * event_scan: TRACE payloads (SPEC §3) fed through real block files: both
 * payload forms, raw spans and decoded texts, top-level values, errors that
 * name the payload byte, window refills and events larger than the window.
 */
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "read/event_scan.h"
#include "testutil.h"

/* A file holding a small type-9 block, then the TRACE block under test. */
#define TRACE_AT 16u

struct fx {
	char dir[64], path[128];
	struct csim_block_reader r;
	struct csim_block blk;
	struct csim_trace_scan *sc;
	char *profiling_type, *schema_version;   /* handed over by take_top() */
	struct csim_error err;
};

static int fx_open(struct fx *f, const char *payload, size_t n)
{
	struct tbuf b = { NULL, 0, 0, 0 };
	int has = 0, rc = -1;

	f->sc = NULL;
	f->profiling_type = f->schema_version = NULL;
	csim_error_clear(&f->err);
	memset(&f->r, 0, sizeof(f->r));
	f->r.stream.fd = -1;
	f->dir[0] = '\0';
	tbuf_blocks(&b, 9, "zz");
	tbuf_block(&b, 2, payload, n);
	if (tdir_make(f->dir, sizeof(f->dir)) != 0)
		goto out;
	tpath(f->path, sizeof(f->path), f->dir, "visualize_data.bin");
	if (b.oom || tfile_write(f->path, b.p, b.n) != 0 ||
	    csim_trace_scan_new(&f->sc, &f->err) != CSIM_OK ||
	    csim_block_reader_open(&f->r, f->path, &f->err) != CSIM_OK ||
	    csim_block_reader_next(&f->r, &f->blk, &has, &f->err) != CSIM_OK ||
	    csim_block_reader_next(&f->r, &f->blk, &has, &f->err) != CSIM_OK ||
	    !has || f->blk.offset != TRACE_AT ||
	    csim_trace_scan_begin(f->sc, &f->r, &f->blk, &f->err) != CSIM_OK)
		goto out;
	rc = 0;
out:
	tbuf_free(&b);
	return rc;
}

static int fx_opens(struct fx *f, const char *payload)
{
	return fx_open(f, payload, strlen(payload));
}

static void fx_close(struct fx *f)
{
	csim_trace_scan_free(f->sc);
	free(f->profiling_type);
	free(f->schema_version);
	csim_block_reader_release(&f->r);
	if (f->dir[0] != '\0')
		tdir_remove(f->dir);
}

/* Takes the top-level values the scanner has read so far into f. */
static void take_top(struct fx *f)
{
	free(f->profiling_type);
	free(f->schema_version);
	csim_trace_scan_take_top_level(f->sc, &f->profiling_type, &f->schema_version);
}

/* 1: an event came, 0: the payload is done, -1: an error (in f->err). */
static int next_event(struct fx *f, struct csim_event *ev)
{
	int has = 0;

	if (csim_trace_scan_next(f->sc, ev, &has, &f->err) != CSIM_OK)
		return -1;
	return has;
}

/* Counts the events to the end; returns the final status. */
static int drain(struct fx *f, size_t *count)
{
	struct csim_event ev;
	int r;

	*count = 0;
	while ((r = next_event(f, &ev)) == 1)
		++*count;
	return r < 0 ? f->err.code : CSIM_OK;
}

#define CHECK_SPAN(c, span, s) CHECK_MEM((c), (span).p, (span).n, (s))
#define CHECK_TEXT(c, t, s) CHECK_MEM((c), (t).p, (t).n, (s))

static void test_object_form_yields_events_with_raw_spans(struct check_ctx *c)
{
	const char *p =
		"{\"displayTimeUnit\":\"ns\",\"profilingType\":\"op\",\"schemaVersion\":2,"
		"\"traceEvents\":[{\"args\":{\"detail\":\"d\"},\"dur\":2,\"name\":\"A\","
		"\"ph\":\"X\",\"pid\":\"core0.veccore0\",\"tid\":\"VECTOR\",\"ts\":1.5},\n"
		" {\"name\":\"B\",\"ph\":\"B\",\"id\":\"core0_1\"}]}";
	struct fx f;
	struct csim_event ev;

	if (!CHECK(c, fx_opens(&f, p) == 0))
		goto out;
	CHECK_I64(c, next_event(&f, &ev), 1);
	CHECK_I64(c, ev.is_object, 1);
	CHECK_U64(c, ev.offset, (size_t)(strstr(p, "{\"args\"") - p));
	CHECK(c, ev.raw.p != NULL && ev.raw.p[0] == '{' && ev.raw.p[ev.raw.n - 1] == '}');
	CHECK_U64(c, ev.raw.n, (size_t)(strstr(p, ",\n") - strstr(p, "{\"args\"")));
	CHECK_SPAN(c, ev.field[CSIM_F_ARGS], "{\"detail\":\"d\"}");
	CHECK_SPAN(c, ev.field[CSIM_F_DUR], "2");
	CHECK_SPAN(c, ev.field[CSIM_F_NAME], "\"A\"");
	CHECK_SPAN(c, ev.field[CSIM_F_TS], "1.5");
	CHECK(c, ev.field[CSIM_F_ID].p == NULL);
	CHECK_TEXT(c, ev.ph, "X");
	CHECK_TEXT(c, ev.name, "A");
	CHECK_TEXT(c, ev.pid, "core0.veccore0");
	CHECK_TEXT(c, ev.tid, "VECTOR");
	CHECK_I64(c, ev.ph.kind, CSIM_VALUE_STRING);
	CHECK_I64(c, ev.id.kind, CSIM_VALUE_ABSENT);
	CHECK_I64(c, next_event(&f, &ev), 1);
	CHECK_U64(c, ev.offset, (size_t)(strstr(p, "{\"name\":\"B\"") - p));
	CHECK_TEXT(c, ev.ph, "B");
	CHECK_TEXT(c, ev.id, "core0_1");
	CHECK(c, ev.field[CSIM_F_TS].p == NULL);
	CHECK_I64(c, next_event(&f, &ev), 0);
	take_top(&f);
	CHECK_STR(c, f.profiling_type, "\"op\"");
	CHECK_STR(c, f.schema_version, "2");
	/* Done stays done. */
	CHECK_I64(c, next_event(&f, &ev), 0);
out:
	fx_close(&f);
}

static void test_bare_array_form(struct check_ctx *c)
{
	const char *p = " [ {\"ph\":\"M\"} , {\"ph\":\"X\",\"ts\":0} ] \n";
	struct fx f;
	struct csim_event ev;
	size_t n;

	if (!CHECK(c, fx_opens(&f, p) == 0))
		goto out;
	CHECK_I64(c, next_event(&f, &ev), 1);
	CHECK_TEXT(c, ev.ph, "M");
	CHECK_U64(c, ev.offset, 3);
	CHECK_I64(c, next_event(&f, &ev), 1);
	CHECK_TEXT(c, ev.ph, "X");
	CHECK_U64(c, ev.offset, 16);
	CHECK_I64(c, drain(&f, &n), CSIM_OK);
	CHECK_U64(c, n, 0);
	take_top(&f);
	CHECK(c, f.profiling_type == NULL);
	CHECK(c, f.schema_version == NULL);
out:
	fx_close(&f);
}

static void test_fields_in_any_order_and_duplicates_last_wins(struct check_ctx *c)
{
	const char *p =
		"{\"traceEvents\":["
		"{\"ts\":3,\"tid\":\"MTE2\",\"ph\":\"X\",\"pid\":\"p\",\"name\":\"n\",\"dur\":1},"
		"{\"extra\":[1,{\"ph\":\"no\"}],\"ph\":\"X\",\"ph\":\"B\",\"ts\":1,\"ts\":2}]}";
	struct fx f;
	struct csim_event ev;

	if (!CHECK(c, fx_opens(&f, p) == 0))
		goto out;
	CHECK_I64(c, next_event(&f, &ev), 1);
	CHECK_TEXT(c, ev.ph, "X");
	CHECK_TEXT(c, ev.name, "n");
	CHECK_TEXT(c, ev.pid, "p");
	CHECK_TEXT(c, ev.tid, "MTE2");
	CHECK_SPAN(c, ev.field[CSIM_F_TS], "3");
	CHECK_SPAN(c, ev.field[CSIM_F_DUR], "1");
	CHECK_I64(c, next_event(&f, &ev), 1);
	CHECK_TEXT(c, ev.ph, "B");
	CHECK_SPAN(c, ev.field[CSIM_F_TS], "2");
out:
	fx_close(&f);
}

static void test_non_object_elements_are_events_without_fields(struct check_ctx *c)
{
	static const char *const raws[] = {
		"1", "\"s\"", "[{\"ph\":\"X\"}]", "null", "{\"ph\":\"C\"}"
	};
	const char *p = "{\"traceEvents\":[1,\"s\",[{\"ph\":\"X\"}],null,{\"ph\":\"C\"}]}";
	struct fx f;
	struct csim_event ev;

	if (!CHECK(c, fx_opens(&f, p) == 0))
		goto out;
	for (size_t i = 0; i < 5; i++) {
		if (!CHECK_I64(c, next_event(&f, &ev), 1))
			break;
		CHECK_I64(c, ev.is_object, i == 4);
		CHECK_SPAN(c, ev.raw, raws[i]);
		CHECK_I64(c, ev.ph.kind, i == 4 ? CSIM_VALUE_STRING : CSIM_VALUE_ABSENT);
	}
	CHECK_I64(c, next_event(&f, &ev), 0);
out:
	fx_close(&f);
}

static void test_escaped_strings_are_decoded(struct check_ctx *c)
{
	const char *p =
		"[{\"n\\u0061me\":\"SET\\u005fFLAG\",\"pid\":\"c\\\"0\",\"tid\":\"V\\\\E\","
		"\"ph\":\"\\u0042\",\"id\":\"a\\/b\"}]";
	struct fx f;
	struct csim_event ev;

	if (!CHECK(c, fx_opens(&f, p) == 0))
		goto out;
	CHECK_I64(c, next_event(&f, &ev), 1);
	CHECK_TEXT(c, ev.name, "SET_FLAG");
	CHECK_TEXT(c, ev.pid, "c\"0");
	CHECK_TEXT(c, ev.tid, "V\\E");
	CHECK_TEXT(c, ev.ph, "B");
	CHECK_TEXT(c, ev.id, "a/b");
	/* The raw span keeps the input's escapes for writing out. */
	CHECK_SPAN(c, ev.field[CSIM_F_NAME], "\"SET\\u005fFLAG\"");
out:
	fx_close(&f);
}

static void test_numbers_are_kept_as_raw_text(struct check_ctx *c)
{
	const char *p =
		"[{\"ts\":4.0289998054504395,\"dur\":1.0E-3,\"pid\":7,\"tid\":-0,"
		"\"id\":5,\"name\":true}]";
	struct fx f;
	struct csim_event ev;

	if (!CHECK(c, fx_opens(&f, p) == 0))
		goto out;
	CHECK_I64(c, next_event(&f, &ev), 1);
	CHECK_SPAN(c, ev.field[CSIM_F_TS], "4.0289998054504395");
	CHECK_SPAN(c, ev.field[CSIM_F_DUR], "1.0E-3");
	CHECK_TEXT(c, ev.pid, "7");
	CHECK_I64(c, ev.pid.kind, CSIM_VALUE_NUMBER);
	CHECK_TEXT(c, ev.tid, "-0");
	CHECK_TEXT(c, ev.id, "5");
	CHECK_I64(c, ev.id.kind, CSIM_VALUE_NUMBER);
	CHECK_I64(c, ev.name.kind, CSIM_VALUE_OTHER);
	CHECK(c, ev.name.p == NULL);
out:
	fx_close(&f);
}

static void test_top_level_values_are_raw_text_in_any_position(struct check_ctx *c)
{
	const char *p =
		"{\"traceEvents\":[],\"schemaVersion\":1.0,\"x\":{\"profilingType\":1},"
		"\"profil\\u0069ngType\":\"o\\u0070\"}";
	struct fx f;
	size_t n;

	if (!CHECK(c, fx_opens(&f, p) == 0))
		goto out;
	CHECK_I64(c, drain(&f, &n), CSIM_OK);
	CHECK_U64(c, n, 0);
	take_top(&f);
	CHECK_STR(c, f.schema_version, "1.0");
	CHECK_STR(c, f.profiling_type, "\"o\\u0070\"");
out:
	fx_close(&f);
}

/* Runs a payload that must fail with a message holding `part`. */
static void expect_error(struct check_ctx *c, const char *payload, const char *part)
{
	struct fx f;
	size_t n;

	if (!CHECK(c, fx_opens(&f, payload) == 0)) {
		fx_close(&f);
		return;
	}
	if (!CHECK_I64(c, drain(&f, &n), CSIM_E_INPUT) ||
	    !CHECK_CONTAINS(c, f.err.message, "TRACE block at offset 16") ||
	    !CHECK_CONTAINS(c, f.err.message, f.path) ||
	    !CHECK_CONTAINS(c, f.err.message, part) ||
	    !CHECK_U64(c, f.err.offset, TRACE_AT))
		fprintf(stderr, "    payload: %s\n", payload);
	fx_close(&f);
}

static void test_payload_without_trace_events_is_an_error(struct check_ctx *c)
{
	expect_error(c, "{\"profilingType\":\"op\"}", "no traceEvents");
	expect_error(c, "{}", "no traceEvents");
	expect_error(c, "{\"x\":{\"traceEvents\":[]}}", "no traceEvents");
}

static void test_trace_events_not_an_array_is_an_error(struct check_ctx *c)
{
	expect_error(c, "{\"traceEvents\":{\"ph\":\"X\"}}", "traceEvents is not an array");
	expect_error(c, "{\"traceEvents\":null}", "traceEvents is not an array");
}

static void test_malformed_json_names_the_payload_byte(struct check_ctx *c)
{
	const char *cut = "{\"traceEvents\":[{\"ph\":\"X\"},{\"ph\":\"X\",\"ts\":1";
	char want[64];
	struct fx f;
	struct csim_event ev;

	snprintf(want, sizeof(want), "payload byte %zu: ", strlen(cut));
	if (CHECK(c, fx_opens(&f, cut) == 0)) {
		/* The complete first event still comes out. */
		CHECK_I64(c, next_event(&f, &ev), 1);
		CHECK_I64(c, next_event(&f, &ev), -1);
		CHECK_I64(c, f.err.code, CSIM_E_INPUT);
		CHECK_CONTAINS(c, f.err.message, want);
		CHECK_CONTAINS(c, f.err.message, "unexpected end");
	}
	fx_close(&f);
	expect_error(c, "hello, not json", "payload byte 0: ");
	expect_error(c, "[{\"ph\":\"X\"} {\"ph\":\"X\"}]", "payload byte 12: ");
	expect_error(c, "[{\"ph\":\"X\",}]", "payload byte 11: ");
	expect_error(c, "[{\"ph\":01}]", "payload byte 8: ");
	expect_error(c, "[] x", "payload byte 3: ");
	expect_error(c, "{\"traceEvents\":[]} []", "payload byte 19: ");
	expect_error(c, "", "payload byte 0: ");
}

static void test_event_larger_than_the_scan_window(struct check_ctx *c)
{
	enum { BIG = 5 * 1024 * 1024 };
	struct tbuf b = { NULL, 0, 0, 0 };
	struct fx f;
	struct csim_event ev;
	struct csim_text detail;
	size_t second;

	tbuf_adds(&b, "{\"traceEvents\":[{\"ph\":\"X\",\"args\":{\"detail\":\"");
	tbuf_fill(&b, 'a', BIG);
	tbuf_adds(&b, "\\n\"},\"ts\":7},");
	second = b.n;
	tbuf_adds(&b, "{\"ph\":\"E\"}]}");
	if (!CHECK(c, !b.oom) || !CHECK(c, fx_open(&f, b.p, b.n) == 0))
		goto out;
	CHECK_I64(c, next_event(&f, &ev), 1);
	CHECK_U64(c, ev.offset, 16);
	CHECK_U64(c, ev.raw.n, second - 1 - 16);
	CHECK_U64(c, ev.field[CSIM_F_ARGS].n, BIG + 15);
	CHECK_SPAN(c, ev.field[CSIM_F_TS], "7");
	if (CHECK(c, csim_event_detail(f.sc, &ev, &detail) == 1)) {
		CHECK_U64(c, detail.n, BIG + 1);
		CHECK(c, detail.p[0] == 'a' && detail.p[BIG - 1] == 'a' &&
			 detail.p[BIG] == '\n');
	}
	CHECK_I64(c, next_event(&f, &ev), 1);
	CHECK_U64(c, ev.offset, second);
	CHECK_TEXT(c, ev.ph, "E");
	CHECK_I64(c, next_event(&f, &ev), 0);
out:
	fx_close(&f);
	tbuf_free(&b);
}

static void test_many_events_across_window_refills(struct check_ctx *c)
{
	enum { N = 200000 };
	struct tbuf b = { NULL, 0, 0, 0 };
	size_t *at = malloc(N * sizeof(*at));
	struct fx f;
	size_t i = 0;

	if (!CHECK(c, at != NULL))
		return;
	tbuf_adds(&b, "{\"traceEvents\":[\n");
	for (i = 0; i < N; i++) {
		char ev[128];

		at[i] = b.n;
		snprintf(ev, sizeof(ev),
			 "{\"name\":\"e%zu\",\"ph\":\"X\",\"ts\":%zu.%03zu,\"pid\":\"core%zu\"}%s",
			 i, i / 7, i % 1000, i % 3, i + 1 < N ? (i % 5 ? "," : ",\n  ") : "");
		tbuf_adds(&b, ev);
	}
	tbuf_adds(&b, "\n]}");
	if (!CHECK(c, !b.oom) || !CHECK(c, b.n > 2 * 4 * 1024 * 1024) ||
	    !CHECK(c, fx_open(&f, b.p, b.n) == 0))
		goto out;
	for (i = 0; i < N + 1; i++) {
		struct csim_event ev;
		char name[32], ts[32];

		if (next_event(&f, &ev) != 1)
			break;
		snprintf(name, sizeof(name), "e%zu", i);
		snprintf(ts, sizeof(ts), "%zu.%03zu", i / 7, i % 1000);
		if (i < N && ev.offset == at[i] && ev.name.n == strlen(name) &&
		    memcmp(ev.name.p, name, ev.name.n) == 0 &&
		    ev.field[CSIM_F_TS].n == strlen(ts) &&
		    memcmp(ev.field[CSIM_F_TS].p, ts, strlen(ts)) == 0)
			continue;
		/* Report the first wrong event in detail. */
		fprintf(stderr, "    event %zu\n", i);
		CHECK(c, i < N);
		if (i < N) {
			CHECK_U64(c, ev.offset, at[i]);
			CHECK_TEXT(c, ev.name, name);
			CHECK_SPAN(c, ev.field[CSIM_F_TS], ts);
		}
		break;
	}
	CHECK_I64(c, f.err.code, CSIM_OK);
	CHECK_U64(c, i, N);
out:
	fx_close(&f);
	free(at);
	tbuf_free(&b);
}

/*
 * The first window holds 4 MiB of payload: put that boundary at every byte
 * of one event (strings with escapes, numbers, nested args) and after it.
 */
static void test_window_boundary_at_every_byte_of_an_event(struct check_ctx *c)
{
	const char *head = "{\"traceEvents\":[{\"ph\":\"F\",\"args\":\"";
	const char *probe =
		"{\"name\":\"S\\u0045T\",\"ts\":12.5e-1,\"id\":-3,"
		"\"args\":{\"detail\":\"a\\\"b\"}}";
	const size_t window = 4u * 1024u * 1024u;
	size_t plen = strlen(probe);

	for (size_t k = 0; k <= plen + 1; k++) {
		struct tbuf b = { NULL, 0, 0, 0 };
		struct fx f;
		struct csim_event ev;
		struct csim_text d = { NULL, 0, CSIM_VALUE_ABSENT };
		size_t at;
		int ok;

		/* filler event, then the probe so that it starts k bytes before the cut */
		tbuf_adds(&b, head);
		tbuf_fill(&b, 'f', window - k - strlen(head) - 3);
		tbuf_adds(&b, "\"},");
		at = b.n;
		tbuf_adds(&b, probe);
		tbuf_adds(&b, "]}");
		if (!CHECK(c, at == window - k) || !CHECK(c, fx_open(&f, b.p, b.n) == 0)) {
			fx_close(&f);
			tbuf_free(&b);
			break;
		}
		ok = CHECK_I64(c, next_event(&f, &ev), 1) &&
		     CHECK_I64(c, next_event(&f, &ev), 1) && CHECK_U64(c, ev.offset, at) &&
		     CHECK_TEXT(c, ev.name, "SET") &&
		     CHECK_SPAN(c, ev.field[CSIM_F_TS], "12.5e-1") &&
		     CHECK_TEXT(c, ev.id, "-3") && CHECK_SPAN(c, ev.raw, probe) &&
		     CHECK(c, csim_event_detail(f.sc, &ev, &d) == 1) &&
		     CHECK_TEXT(c, d, "a\"b") &&
		     CHECK_I64(c, next_event(&f, &ev), 0);
		fx_close(&f);
		tbuf_free(&b);
		if (!ok) {
			fprintf(stderr, "    probe starts %zu bytes before the window end\n", k);
			break;
		}
	}
}

/* The scanner is reused for a second TRACE block, as convert.c does. */
static void test_scanner_restarts_on_another_block(struct check_ctx *c)
{
	struct fx f;
	struct csim_event ev;
	size_t n;

	if (!CHECK(c, fx_opens(&f, "{\"profilingType\":\"a\",\"traceEvents\":[{}]") == 0))
		goto out;
	CHECK_I64(c, drain(&f, &n), CSIM_E_INPUT);
	/* Same reader, rewound to the same block: a clean second pass. */
	CHECK_I64(c, csim_block_reader_seek(&f.r, &f.blk, &f.err), CSIM_OK);
	CHECK_I64(c, csim_trace_scan_begin(f.sc, &f.r, &f.blk, &f.err), CSIM_OK);
	take_top(&f);
	CHECK(c, f.profiling_type == NULL);
	CHECK_I64(c, next_event(&f, &ev), 1);
	CHECK_U64(c, ev.offset, 36);
	take_top(&f);
	CHECK_STR(c, f.profiling_type, "\"a\"");
out:
	fx_close(&f);
}

static int detail_of(struct check_ctx *c, const char *event, struct fx *f,
		     struct csim_text *d)
{
	struct csim_event ev;
	char payload[512];

	snprintf(payload, sizeof(payload), "[%s]", event);
	if (!CHECK(c, fx_opens(f, payload) == 0) ||
	    !CHECK_I64(c, next_event(f, &ev), 1))
		return -1;
	return csim_event_detail(f->sc, &ev, d);
}

static void test_event_detail_reads_args_detail_only(struct check_ctx *c)
{
	static const struct { const char *event; int found; const char *text; } cases[] = {
		{ "{\"args\":{\"x\":{\"detail\":\"nested\"},\"detail\":\"PIPE:MTE2,FLAGID:0,\"}}",
		  1, "PIPE:MTE2,FLAGID:0," },
		{ "{\"args\":{\"detail\":\"first\",\"pc\":\"0x1\"},\"ph\":\"B\"}", 1, "first" },
		{ "{\"args\": { \"code\" : [\"detail\"] , \"detail\" : \"a\\u002cb\\n\" } }",
		  1, "a,b\n" },
		{ "{\"args\":{\"det\\u0061il\":\"esc-key\"}}", 1, "esc-key" },
		{ "{\"args\":{\"detail\":\"\"}}", 1, "" },
		{ "{\"args\":{\"x\":{\"detail\":\"nested\"}}}", 0, NULL },
		{ "{\"args\":{\"detail\":5}}", 0, NULL },
		{ "{\"args\":\"detail\"}", 0, NULL },
		{ "{\"args\":{}}", 0, NULL },
		{ "{\"detail\":\"top\"}", 0, NULL },
	};

	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		struct fx f;
		struct csim_text d = { NULL, 0, CSIM_VALUE_ABSENT };
		int found = detail_of(c, cases[i].event, &f, &d);

		if (!CHECK_I64(c, found, cases[i].found) ||
		    (found == 1 && !CHECK_TEXT(c, d, cases[i].text)))
			fprintf(stderr, "    event %s\n", cases[i].event);
		fx_close(&f);
	}
}

/*
 * args.process_bytes and args.pc_addr come with the fields, from the
 * one-pass scan (the first event) and from the general one (whitespace
 * makes the second take it), alike; a third without them has none.
 */
static void test_args_members_by_either_scan(struct check_ctx *c)
{
	const char *p =
		"{\"traceEvents\":["
		"{\"args\":{\"code\":\"\",\"pc_addr\":\"0x1130a064\",\"process_bytes\":\"32\"},"
		"\"name\":\"A\",\"ph\":\"X\"},"
		"{ \"args\" : { \"process_bytes\" : \"64\" , \"pc_addr\" : \"0x20\" } , "
		"\"name\" : \"B\" },"
		"{\"args\":{\"detail\":\"d\"},\"name\":\"C\"}]}";
	struct fx f;
	struct csim_event ev;

	if (!CHECK(c, fx_opens(&f, p) == 0))
		goto out;
	CHECK_I64(c, next_event(&f, &ev), 1);
	CHECK_SPAN(c, ev.field[CSIM_F_ARG_PC], "\"0x1130a064\"");
	CHECK_SPAN(c, ev.field[CSIM_F_ARG_BYTES], "\"32\"");
	CHECK_I64(c, next_event(&f, &ev), 1);
	CHECK_SPAN(c, ev.field[CSIM_F_ARG_PC], "\"0x20\"");
	CHECK_SPAN(c, ev.field[CSIM_F_ARG_BYTES], "\"64\"");
	CHECK_I64(c, next_event(&f, &ev), 1);
	CHECK(c, ev.field[CSIM_F_ARG_PC].p == NULL && ev.field[CSIM_F_ARG_BYTES].p == NULL);
out:
	fx_close(&f);
}

static void test_span_number(struct check_ctx *c)
{
	static const struct { const char *text; size_t n; int ok; double v; } cases[] = {
		{ "1.5,", 3, 1, 1.5 }, { "-2e3}", 4, 1, -2000.0 }, { "0]", 1, 1, 0.0 },
		{ "4.0289998054504395,", 18, 1, 4.0289998054504395 },
		{ "\"1\",", 3, 0, 0.0 }, { "true,", 4, 0, 0.0 }, { "null,", 4, 0, 0.0 },
	};
	struct csim_span absent = { NULL, 0 };
	double v = -1.0;

	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		struct csim_span s = { cases[i].text, cases[i].n };

		v = -1.0;
		if (!CHECK_I64(c, csim_span_number(s, &v), cases[i].ok) ||
		    (cases[i].ok && !CHECK(c, v == cases[i].v)))
			fprintf(stderr, "    span %s\n", cases[i].text);
	}
	CHECK_I64(c, csim_span_number(absent, &v), 0);
}

int main(void)
{
	struct check_ctx c = { 0, 0, NULL };

	CHECK_RUN(&c, test_object_form_yields_events_with_raw_spans);
	CHECK_RUN(&c, test_bare_array_form);
	CHECK_RUN(&c, test_args_members_by_either_scan);
	CHECK_RUN(&c, test_fields_in_any_order_and_duplicates_last_wins);
	CHECK_RUN(&c, test_non_object_elements_are_events_without_fields);
	CHECK_RUN(&c, test_escaped_strings_are_decoded);
	CHECK_RUN(&c, test_numbers_are_kept_as_raw_text);
	CHECK_RUN(&c, test_top_level_values_are_raw_text_in_any_position);
	CHECK_RUN(&c, test_payload_without_trace_events_is_an_error);
	CHECK_RUN(&c, test_trace_events_not_an_array_is_an_error);
	CHECK_RUN(&c, test_malformed_json_names_the_payload_byte);
	CHECK_RUN(&c, test_event_larger_than_the_scan_window);
	CHECK_RUN(&c, test_many_events_across_window_refills);
	CHECK_RUN(&c, test_window_boundary_at_every_byte_of_an_event);
	CHECK_RUN(&c, test_scanner_restarts_on_another_block);
	CHECK_RUN(&c, test_event_detail_reads_args_detail_only);
	CHECK_RUN(&c, test_span_number);
	return check_done(&c);
}
