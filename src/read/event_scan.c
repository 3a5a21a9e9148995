#include "read/event_scan.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "read/event_args.h"
#include "read/event_fast.h"
#include "read/json_scan.h"
#include "base/number_grid.h"
#include "read/payload_window.h"

/* Keys longer than this cannot be ones the converter reads. */
#define KEY_SMALL 64

enum scan_state {
	ST_START,      /* before the top-level value */
	ST_KEY_FIRST,  /* after '{' of the payload object */
	ST_KEY,        /* after ',' in the payload object */
	ST_OBJ_NEXT,   /* after a member of the payload object */
	ST_EV_FIRST,   /* after '[' of the events array */
	ST_EV_NEXT,    /* after an event */
	ST_END,        /* after the top-level value */
	ST_DONE
};

enum step_result { STEP_PROGRESS, STEP_EVENT, STEP_MORE, STEP_BAD, STEP_DONE };

struct csim_trace_scan {
	struct csim_payload_window win;
	int state;
	int bare;
	struct csim_json_stack stack;
	char *scratch;          /* decoded copies of escaped strings */
	size_t scratch_cap;
	char *detail_buf;       /* decoded args.detail */
	size_t detail_cap;
	/* top-level values of the payload object, copied out */
	char *profiling_type;   /* raw JSON text, or NULL */
	char *schema_version;
	int saw_events;
};

int csim_trace_scan_new(struct csim_trace_scan **sc, struct csim_error *err)
{
	*sc = calloc(1, sizeof(**sc));
	return *sc != NULL ? CSIM_OK : csim_error_nomem(err, CSIM_E_INPUT);
}

void csim_trace_scan_free(struct csim_trace_scan *sc)
{
	if (sc == NULL)
		return;
	csim_payload_window_release(&sc->win);
	free(sc->scratch);
	free(sc->detail_buf);
	free(sc->profiling_type);
	free(sc->schema_version);
	csim_json_stack_release(&sc->stack);
	free(sc);
}

int csim_trace_scan_begin(struct csim_trace_scan *sc,
			  struct csim_block_reader *reader,
			  const struct csim_block *block, struct csim_error *err)
{
	sc->state = ST_START;
	sc->bare = 0;
	sc->saw_events = 0;
	free(sc->profiling_type);
	free(sc->schema_version);
	sc->profiling_type = sc->schema_version = NULL;
	return csim_payload_window_begin(&sc->win, reader, block, err);
}

void csim_trace_scan_take_top_level(struct csim_trace_scan *sc,
				    char **profiling_type, char **schema_version)
{
	*profiling_type = sc->profiling_type;
	*schema_version = sc->schema_version;
	sc->profiling_type = sc->schema_version = NULL;
}

static int scan_syntax(struct csim_trace_scan *sc, const struct csim_scan_result *res,
		       struct csim_error *err)
{
	uint64_t at = sc->win.bytes.base + (uint64_t)(res->where - sc->win.bytes.buf);

	return csim_error_set(err, CSIM_E_INPUT, sc->win.block.offset,
			      "%s: TRACE block at offset %llu: payload byte %llu: %s",
			      sc->win.reader->stream.path,
			      (unsigned long long)sc->win.block.offset,
			      (unsigned long long)at, res->why);
}

/* The window ended inside an event: wait for more bytes, or fail at the end. */
static int window_short(const struct csim_trace_scan *sc, const char *q,
			struct csim_scan_result *res)
{
	res->where = q;
	if (!sc->win.bytes.final)
		return CSIM_SCAN_MORE;
	res->why = "unexpected end of JSON text";
	return CSIM_SCAN_BAD;
}

static int expect_bad(struct csim_scan_result *res, const char *q,
		      const char *why)
{
	res->where = q;
	res->why = why;
	return CSIM_SCAN_BAD;
}

#define KEY_IS(key, n, lit) csim_span_eq(csim_span_of((key), (n)), (lit))

/* The key text between quotes, decoded into small when it has escapes. */
static void key_text(const char *q, const char *qend, int escaped, char *small,
		     size_t small_size, const char **key, size_t *n)
{
	size_t raw = (size_t)(qend - q);

	*key = q;
	*n = raw;
	if (escaped) {
		if (raw > small_size) {
			*n = 0;   /* too long to be a key the converter reads */
			return;
		}
		*n = csim_json_unescape(q, raw, small);
		*key = small;
	}
}

/*
 * A member's head at p: the key string, ':' and the space before the value.
 * *key is the key text (decoded into small when escaped), *value the value.
 */
static int scan_key(const struct csim_trace_scan *sc, const char *p,
		    const char *end, struct csim_scan_result *res, char *small,
		    const char **key, size_t *klen, const char **value)
{
	struct csim_span raw;
	const char *q = p;
	int escaped, rc;

	rc = csim_json_scan_member_head(&q, end, sc->win.bytes.final, res, &raw, &escaped);
	if (rc != CSIM_SCAN_OK)
		return rc;
	key_text(raw.p, raw.p + raw.n, escaped, small, KEY_SMALL, key, klen);
	q = csim_json_skip_ws(q, end);
	if (q >= end)
		return window_short(sc, q, res);
	*value = q;
	return CSIM_SCAN_OK;
}

/*
 * The hottest code of the converter: once per event, twice for a kept one.
 * The producer's compact events take the one-pass scanner (event_fast.h);
 * the rest, and every malformed one, the general member iterator. flatten
 * inlines the scanners into it (with LTO, across files); measured on a
 * 20 MB dump: 548 M instructions against 631 M without.
 */
__attribute__((flatten))
static int scan_event_object(struct csim_trace_scan *sc, const char *p,
			     const char *end, int final, struct csim_event *ev,
			     struct csim_scan_result *res)
{
	struct csim_json_iter it;
	struct csim_json_item m;
	char small[KEY_SMALL];
	int has = 1, rc = CSIM_SCAN_OK;

	if (csim_event_fast_scan(p, end, ev->field, &ev->depth, &ev->escaped, &res->end))
		return CSIM_SCAN_OK;
	memset(ev->field, 0, sizeof(ev->field));
	ev->depth = 0;
	ev->escaped = ~0u;   /* the general walk does not tell: decode_texts() looks */
	csim_json_iter_init(&it, &sc->stack, p, end, final);
	while (rc == CSIM_SCAN_OK && has) {
		const char *key;
		size_t klen;
		int field;

		rc = csim_json_iter_next(&it, &m, &has, res);
		if (rc != CSIM_SCAN_OK || !has)
			break;
		key_text(m.key.p, m.key.p + m.key.n, m.key_escaped, small, KEY_SMALL,
			 &key, &klen);
		field = csim_event_key_field(key, klen);
		if (m.depth > ev->depth)
			ev->depth = m.depth;
		/* Duplicate keys: the last one wins, as in Python's json. */
		if (field >= 0)
			ev->field[field] = m.value;
	}
	if (rc == CSIM_SCAN_OK &&
	    csim_event_args_members(&sc->stack, ev->field[CSIM_F_ARGS],
				    &ev->field[CSIM_F_ARG_BYTES]) != 0)
		rc = CSIM_SCAN_NOMEM;
	return rc;
}

static enum csim_value_kind span_kind(struct csim_span s)
{
	if (s.p == NULL)
		return CSIM_VALUE_ABSENT;
	if (*s.p == '"')
		return CSIM_VALUE_STRING;
	if (*s.p == '-' || (*s.p >= '0' && *s.p <= '9'))
		return CSIM_VALUE_NUMBER;
	return CSIM_VALUE_OTHER;
}

/*
 * Decoded text of a string or number value; a string that may hold escapes
 * (plain 0) is looked at and, when it has one, decoded into *scratch.
 */
static void span_text(struct csim_span s, int plain, struct csim_text *t, char **scratch)
{
	t->kind = span_kind(s);
	t->p = NULL;
	t->n = 0;
	if (t->kind == CSIM_VALUE_NUMBER) {
		t->p = s.p;
		t->n = s.n;
	} else if (t->kind == CSIM_VALUE_STRING) {
		const char *q = s.p + 1;
		size_t n = s.n - 2;

		if (plain || memchr(q, '\\', n) == NULL) {
			t->p = q;
			t->n = n;
		} else {
			t->p = *scratch;
			t->n = csim_json_unescape(q, n, *scratch);
			*scratch += t->n;
		}
	}
}

static int decode_texts(struct csim_trace_scan *sc, struct csim_event *ev,
			struct csim_error *err)
{
	static const int fields[] = { CSIM_F_PH, CSIM_F_NAME, CSIM_F_PID,
				      CSIM_F_TID, CSIM_F_ID };
	struct csim_text *texts[] = { &ev->ph, &ev->name, &ev->pid, &ev->tid,
				      &ev->id };
	size_t need = 0;
	char *out;

	/* Scratch only for strings that may hold escapes. */
	for (size_t i = 0; i < sizeof(fields) / sizeof(fields[0]); i++)
		if (ev->escaped >> fields[i] & 1u)
			need += ev->field[fields[i]].n;
	if (need > sc->scratch_cap) {
		char *b = realloc(sc->scratch, need);

		if (b == NULL)
			return csim_error_nomem(err, CSIM_E_INPUT);
		sc->scratch = b;
		sc->scratch_cap = need;
	}
	out = sc->scratch;
	for (size_t i = 0; i < sizeof(fields) / sizeof(fields[0]); i++)
		span_text(ev->field[fields[i]], !(ev->escaped >> fields[i] & 1u), texts[i], &out);
	return CSIM_OK;
}

/* One array element at p: an event object, or any other value to count. */
static int scan_element(struct csim_trace_scan *sc, const char *p,
			const char *end, struct csim_event *ev,
			struct csim_scan_result *res)
{
	memset(ev, 0, sizeof(*ev));
	ev->offset = sc->win.bytes.base + (uint64_t)(p - sc->win.bytes.buf);
	ev->raw.p = p;
	if (*p != '{') {
		int rc = csim_json_scan_value(&sc->stack, p, end, sc->win.bytes.final, res);

		ev->raw.n = rc == CSIM_SCAN_OK ? (size_t)(res->end - p) : 0;
		return rc;
	}
	ev->is_object = 1;
	{
		int rc = scan_event_object(sc, p, end, sc->win.bytes.final, ev, res);

		ev->raw.n = rc == CSIM_SCAN_OK ? (size_t)(res->end - p) : 0;
		return rc;
	}
}

/* Where the text of a payload-object member is kept, or NULL: not kept. */
static char **top_level_slot(struct csim_trace_scan *sc, const char *key, size_t n)
{
	if (KEY_IS(key, n, "profilingType"))
		return &sc->profiling_type;
	if (KEY_IS(key, n, "schemaVersion"))
		return &sc->schema_version;
	return NULL;
}

/* One member of the payload object: traceEvents opens the array. */
static int step_member(struct csim_trace_scan *sc, const char *p,
		       const char *end, struct csim_scan_result *res)
{
	const char *key;
	size_t klen;
	char small[KEY_SMALL];
	char **slot;
	const char *q;
	int rc;

	rc = scan_key(sc, p, end, res, small, &key, &klen, &q);
	if (rc != CSIM_SCAN_OK)
		return rc;
	if (KEY_IS(key, klen, "traceEvents")) {
		if (*q != '[')
			return expect_bad(res, q, "traceEvents is not an array");
		sc->saw_events = 1;
		sc->state = ST_EV_FIRST;
		res->end = q + 1;
		return CSIM_SCAN_OK;
	}
	rc = csim_json_scan_value(&sc->stack, q, end, sc->win.bytes.final, res);
	if (rc != CSIM_SCAN_OK)
		return rc;
	slot = top_level_slot(sc, key, klen);
	if (slot != NULL) {
		free(*slot);
		*slot = csim_span_dup(csim_span_of(q, (size_t)(res->end - q)));
		if (*slot == NULL)
			return CSIM_SCAN_NOMEM;
	}
	sc->state = ST_OBJ_NEXT;
	return CSIM_SCAN_OK;
}

/* Moves to state after consuming the one character at p. */
static int step_to(struct csim_trace_scan *sc, const char *p,
		   struct csim_scan_result *res, int state)
{
	sc->state = state;
	res->end = p + 1;
	return CSIM_SCAN_OK;
}

/* Expects one of two closing/continuing characters at p. */
static int step_punct(struct csim_trace_scan *sc, const char *p,
		      struct csim_scan_result *res, char more, int more_state,
		      char close, int close_state, const char *why)
{
	if (*p == more)
		return step_to(sc, p, res, more_state);
	if (*p == close)
		return step_to(sc, p, res, close_state);
	return expect_bad(res, p, why);
}

static int step(struct csim_trace_scan *sc, struct csim_event *ev,
		struct csim_scan_result *res)
{
	const char *end = sc->win.bytes.buf + sc->win.bytes.len;
	const char *p = csim_json_skip_ws(sc->win.bytes.buf + sc->win.bytes.pos, end);
	int after_events = sc->bare ? ST_END : ST_OBJ_NEXT;
	int rc;

	res->end = p;
	if (p >= end)
		return sc->state == ST_END && sc->win.bytes.final ? CSIM_SCAN_OK
						       : window_short(sc, p, res);
	switch (sc->state) {
	case ST_START:
		if (*p == '[') {
			sc->bare = 1;
			sc->saw_events = 1;
		}
		return step_punct(sc, p, res, '{', ST_KEY_FIRST, '[', ST_EV_FIRST,
				  "TRACE payload is neither an object nor an array");
	case ST_KEY_FIRST:
		if (*p == '}')
			return step_to(sc, p, res, ST_END);
		return step_member(sc, p, end, res);
	case ST_KEY:
		return step_member(sc, p, end, res);
	case ST_OBJ_NEXT:
		return step_punct(sc, p, res, ',', ST_KEY, '}', ST_END,
				  "expected ',' or '}' in the payload object");
	case ST_EV_FIRST:
		if (*p == ']')
			return step_to(sc, p, res, after_events);
		rc = scan_element(sc, p, end, ev, res);
		if (rc == CSIM_SCAN_OK)
			sc->state = ST_EV_NEXT;
		return rc;
	case ST_EV_NEXT:
		if (*p == ',') {
			const char *q = csim_json_skip_ws(p + 1, end);

			if (q >= end)
				return window_short(sc, q, res);
			return scan_element(sc, q, end, ev, res);
		}
		return step_punct(sc, p, res, ']', after_events, ']', after_events,
				  "expected ',' or ']' in traceEvents");
	default:
		return expect_bad(res, p, "unexpected data after the JSON value");
	}
}

int csim_trace_scan_texts(struct csim_trace_scan *sc, struct csim_event *ev,
			  struct csim_error *err)
{
	return ev->is_object ? decode_texts(sc, ev, err) : CSIM_OK;
}

int csim_trace_scan_next(struct csim_trace_scan *sc, struct csim_event *ev,
			 int *has_event, struct csim_error *err)
{
	int rc = csim_trace_scan_next_raw(sc, ev, has_event, err);

	return rc == CSIM_OK && *has_event ? csim_trace_scan_texts(sc, ev, err) : rc;
}

/* One step of the state machine, as the window's pull loop calls it. */
struct step_call {
	struct csim_trace_scan *sc;
	struct csim_event *ev;
};

static int step_pulled(void *ctx, struct csim_scan_result *res)
{
	struct step_call *call = ctx;

	call->ev->raw.p = NULL;
	return step(call->sc, call->ev, res);
}

int csim_trace_scan_next_raw(struct csim_trace_scan *sc, struct csim_event *ev,
			     int *has_event, struct csim_error *err)
{
	struct csim_byte_window *w = &sc->win.bytes;
	struct csim_scan_result res;

	*has_event = 0;
	/* The common step, ",{" after an event and the whole next one in the
	   window, without the state machine; anything else takes it. */
	if (sc->state == ST_EV_NEXT && w->len - w->pos >= 2 &&
	    w->buf[w->pos] == ',' && w->buf[w->pos + 1] == '{' &&
	    scan_element(sc, w->buf + w->pos + 1, w->buf + w->len, ev, &res) == CSIM_SCAN_OK) {
		w->pos = (size_t)(res.end - w->buf);
		*has_event = 1;
		return CSIM_OK;
	}
	for (;;) {
		int was_event_state = sc->state == ST_EV_FIRST || sc->state == ST_EV_NEXT;
		struct step_call call = { sc, ev };
		int rc, src;

		if (sc->state == ST_DONE)
			return CSIM_OK;
		rc = csim_byte_window_pull(w, &sc->win.source, step_pulled, &call, &src, &res, err);
		if (rc != CSIM_OK)
			return rc;
		rc = src;
		if (rc == CSIM_SCAN_NOMEM)
			return csim_error_nomem(err, CSIM_E_INPUT);
		if (rc == CSIM_SCAN_BAD)
			return scan_syntax(sc, &res, err);
		w->pos = (size_t)(res.end - w->buf);
		if (sc->state == ST_END && w->pos == w->len && w->final) {
			sc->state = ST_DONE;
			if (!sc->saw_events)
				return csim_error_set(err, CSIM_E_INPUT, sc->win.block.offset,
						      "%s: TRACE block at offset %llu: payload has no traceEvents array",
						      sc->win.reader->stream.path,
						      (unsigned long long)sc->win.block.offset);
			return CSIM_OK;
		}
		if (was_event_state && ev->raw.p != NULL) {
			*has_event = 1;
			return CSIM_OK;
		}
	}
}

static int changed(const struct csim_trace_scan *sc, uint64_t offset,
		   struct csim_error *err)
{
	/* A slice store's kept text is parsed with no reader behind the scanner. */
	return csim_error_set(err, CSIM_E_INPUT, sc->win.block.offset,
			      "%s: TRACE block at offset %llu: event at payload byte %llu changed on re-reading",
			      sc->win.reader != NULL ? sc->win.reader->stream.path : "?",
			      (unsigned long long)sc->win.block.offset,
			      (unsigned long long)offset);
}

int csim_trace_scan_event_at(struct csim_trace_scan *sc, uint64_t offset,
			     size_t len, struct csim_event *ev, struct csim_error *err)
{
	const char *p;
	int rc = csim_payload_window_at(&sc->win, offset, len, err);

	if (rc != CSIM_OK)
		return rc;
	p = sc->win.bytes.buf + sc->win.bytes.pos;
	memset(ev, 0, sizeof(*ev));
	ev->offset = offset;
	ev->raw.p = p;
	ev->raw.n = len;
	ev->is_object = 1;
	ev->escaped = ~0u;   /* not scanned yet */
	if (len < 2 || p[0] != '{' || p[len - 1] != '}')
		return changed(sc, offset, err);
	return CSIM_OK;
}

int csim_trace_scan_event_fields(struct csim_trace_scan *sc, struct csim_event *ev,
				 struct csim_error *err)
{
	const char *end = ev->raw.p + ev->raw.n;
	struct csim_scan_result res;
	int rc;

	/* The event was validated on the first pass: it ends exactly at end,
	   so no more bytes are awaited (final). */
	rc = scan_event_object(sc, ev->raw.p, end, 1, ev, &res);
	if (rc == CSIM_SCAN_NOMEM)
		return csim_error_nomem(err, CSIM_E_INPUT);
	if (rc != CSIM_SCAN_OK || res.end != end)
		return changed(sc, ev->offset, err);
	return CSIM_OK;
}

int csim_span_number(struct csim_span span, double *value)
{
	if (span.p == NULL || !(*span.p == '-' || (*span.p >= '0' && *span.p <= '9')))
		return 0;
	return csim_number_parse(span.p, span.n, value);
}

struct csim_json_stack *csim_trace_scan_stack(struct csim_trace_scan *sc)
{
	return &sc->stack;
}

/* The general walk of args for csim_event_detail(): the last string "detail". */
static int detail_walk(struct csim_trace_scan *sc, struct csim_span args,
		       struct csim_span *found)
{
	struct csim_json_iter it;
	struct csim_json_item m;
	struct csim_scan_result res;
	char small[KEY_SMALL];
	int has = 1, rc = CSIM_SCAN_OK;

	csim_json_iter_init(&it, &sc->stack, args.p, args.p + args.n, 1);
	while (rc == CSIM_SCAN_OK && has) {
		const char *key;
		size_t klen;

		rc = csim_json_iter_next(&it, &m, &has, &res);
		if (rc != CSIM_SCAN_OK || !has)
			break;
		key_text(m.key.p, m.key.p + m.key.n, m.key_escaped, small, sizeof(small),
			 &key, &klen);
		if (KEY_IS(key, klen, "detail") && *m.value.p == '"')
			*found = m.value;
	}
	return rc;
}

int csim_event_detail(struct csim_trace_scan *sc, const struct csim_event *ev,
		      struct csim_text *detail)
{
	static const char *const detail_key[] = { "detail" };
	struct csim_span args = ev->field[CSIM_F_ARGS];
	struct csim_span found = { NULL, 0 };

	if (args.p == NULL || *args.p != '{')
		return 0;
	if (csim_event_fast_find(args, detail_key, 1, &found)) {
		if (found.p != NULL && *found.p != '"')
			found.p = NULL;
	} else {
		int rc = detail_walk(sc, args, &found);

		if (rc != CSIM_SCAN_OK)
			return rc == CSIM_SCAN_NOMEM ? -1 : 0;
	}
	if (found.p == NULL)
		return 0;
	if (found.n > sc->detail_cap) {
		char *b = realloc(sc->detail_buf, found.n);

		if (b == NULL)
			return -1;
		sc->detail_buf = b;
		sc->detail_cap = found.n;
	}
	{
		char *out = sc->detail_buf;

		span_text(found, 0, detail, &out);
	}
	return 1;
}
