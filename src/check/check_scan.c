#include "check/check_scan.h"

#include <stdlib.h>
#include <string.h>


/* Large enough that refills are rare, small next to any trace worth checking. */
#define WINDOW_SIZE ((size_t)1 << 20)

/* The longest key compared here ("displayTimeUnit"), decoded when escaped. */
#define KEY_SMALL 32

enum scan_state {
	ST_START,      /* before the top-level value */
	ST_KEY_FIRST,  /* after '{' of the top-level object */
	ST_KEY,        /* after ',' in the top-level object */
	ST_OBJ_NEXT,   /* after a member of the top-level object */
	ST_EV_FIRST,   /* after '[' of the event array */
	ST_EV_NEXT,    /* after an element */
	ST_END,        /* after the top-level value */
	ST_DONE
};

void csim_check_scan_init(struct csim_check_scan *sc)
{
	memset(sc, 0, sizeof(*sc));
	csim_stream_init(&sc->stream);
}

void csim_check_scan_release(struct csim_check_scan *sc)
{
	csim_stream_release(&sc->stream);
	csim_byte_window_release(&sc->w);
	free(sc->time_unit);
	csim_json_stack_release(&sc->stack);
	csim_check_scan_init(sc);
}

/* The trace file, as the window's source: it ends at a read of nothing. */
static int read_stream(void *ctx, char *dst, size_t n, size_t *got, int *more,
		       struct csim_error *err)
{
	int rc = csim_stream_read(ctx, dst, n, got, err);

	*more = *got > 0;
	return rc;
}

int csim_check_scan_open(struct csim_check_scan *sc, const char *path,
			 struct csim_error *err)
{
	int rc = csim_stream_open(&sc->stream, path, err);

	if (rc != CSIM_OK)
		return rc;
	sc->source = (struct csim_byte_source){ read_stream, &sc->stream };
	/* A small plain file gets a small window (a unit test, a fuzz input);
	   the end is found by reading it, as for gzip. */
	rc = csim_byte_window_start(&sc->w, sc->stream.size_known ? sc->stream.size : UINT64_MAX,
				    WINDOW_SIZE, err);
	sc->w.final = 0;
	return rc;
}

struct csim_json_stack *csim_check_scan_stack(struct csim_check_scan *sc)
{
	return &sc->stack;
}

static int syntax(const struct csim_check_scan *sc, const struct csim_scan_result *res,
		  struct csim_error *err)
{
	uint64_t at = sc->w.base + (uint64_t)(res->where - sc->w.buf);

	return csim_error_set(err, CSIM_E_INPUT, at, "%s: byte %llu: %s: %s",
			      sc->stream.path, (unsigned long long)at,
			      sc->not_trace ? "not a trace" : "not valid JSON", res->why);
}

static int short_or_bad(const struct csim_check_scan *sc, const char *q,
			struct csim_scan_result *res)
{
	res->where = q;
	if (!sc->w.final)
		return CSIM_SCAN_MORE;
	res->why = "unexpected end of JSON text";
	return CSIM_SCAN_BAD;
}

static int bad(struct csim_scan_result *res, const char *q, const char *why)
{
	res->where = q;
	res->why = why;
	return CSIM_SCAN_BAD;
}

/* Valid JSON, but not the shape of a trace: said as such, not as bad JSON. */
static int not_trace(struct csim_check_scan *sc, struct csim_scan_result *res,
		     const char *q, const char *why)
{
	sc->not_trace = 1;
	return bad(res, q, why);
}

static int step_to(struct csim_check_scan *sc, const char *p,
		   struct csim_scan_result *res, int state)
{
	sc->state = state;
	res->end = p + 1;
	return CSIM_SCAN_OK;
}

/* One member of the top-level object; traceEvents opens the event array. */
static int step_member(struct csim_check_scan *sc, const char *p, const char *end,
		       struct csim_scan_result *res)
{
	char small[KEY_SMALL];
	struct csim_span key;
	const char *q = p;
	int escaped, rc;

	rc = csim_json_scan_member_head(&q, end, sc->w.final, res, &key, &escaped);
	if (rc != CSIM_SCAN_OK)
		return rc;
	if (escaped)
		key = key.n <= sizeof(small)
		      ? csim_span_of(small, csim_json_unescape(key.p, key.n, small))
		      : csim_span_of("", 0);
	q = csim_json_skip_ws(q, end);
	if (q >= end)
		return short_or_bad(sc, q, res);
	if (csim_span_eq(key, "traceEvents")) {
		if (*q != '[')
			return not_trace(sc, res, q, "\"traceEvents\" is not an array");
		sc->saw_events = 1;
		return step_to(sc, q, res, ST_EV_FIRST);
	}
	rc = csim_json_scan_value(&sc->stack, q, end, sc->w.final, res);
	if (rc != CSIM_SCAN_OK)
		return rc;
	if (csim_span_eq(key, "displayTimeUnit")) {
		free(sc->time_unit);
		sc->time_unit = csim_span_dup(csim_span_of(q, (size_t)(res->end - q)));
		if (sc->time_unit == NULL)
			return CSIM_SCAN_NOMEM;
	}
	sc->state = ST_OBJ_NEXT;
	return CSIM_SCAN_OK;
}

static int step_element(struct csim_check_scan *sc, const char *p, const char *end,
			struct csim_span *elem, struct csim_scan_result *res)
{
	int rc = csim_json_scan_value(&sc->stack, p, end, sc->w.final, res);

	if (rc == CSIM_SCAN_OK) {
		*elem = csim_span_of(p, (size_t)(res->end - p));
		sc->state = ST_EV_NEXT;
	}
	return rc;
}

/* Consumes one token or value from the window; elem->p set for an element. */
static int step(struct csim_check_scan *sc, struct csim_span *elem,
		struct csim_scan_result *res)
{
	const char *end = sc->w.buf + sc->w.len;
	const char *p = csim_json_skip_ws(sc->w.buf + sc->w.pos, end);
	int after = sc->bare ? ST_END : ST_OBJ_NEXT;

	res->end = p;
	if (p >= end)
		return sc->state == ST_END && sc->w.final ? CSIM_SCAN_OK
							: short_or_bad(sc, p, res);
	switch (sc->state) {
	case ST_START:
		if (*p == '[') {
			sc->bare = sc->saw_events = 1;
			return step_to(sc, p, res, ST_EV_FIRST);
		}
		if (*p == '{')
			return step_to(sc, p, res, ST_KEY_FIRST);
		return not_trace(sc, res, p, "the top level is neither an object nor an array");
	case ST_KEY_FIRST:
		if (*p == '}')
			return step_to(sc, p, res, ST_END);
		return step_member(sc, p, end, res);
	case ST_KEY:
		return step_member(sc, p, end, res);
	case ST_OBJ_NEXT:
		if (*p == ',')
			return step_to(sc, p, res, ST_KEY);
		if (*p == '}')
			return step_to(sc, p, res, ST_END);
		return bad(res, p, "expected ',' or '}' in the top-level object");
	case ST_EV_FIRST:
		if (*p == ']')
			return step_to(sc, p, res, after);
		return step_element(sc, p, end, elem, res);
	case ST_EV_NEXT:
		if (*p == ']')
			return step_to(sc, p, res, after);
		if (*p != ',')
			return bad(res, p, "expected ',' or ']' in the event array");
		p = csim_json_skip_ws(p + 1, end);
		if (p >= end)
			return short_or_bad(sc, p, res);
		return step_element(sc, p, end, elem, res);
	default:
		return bad(res, p, "trailing data after the JSON value");
	}
}

/* One step, as the window's pull loop calls it. */
struct step_call {
	struct csim_check_scan *sc;
	struct csim_span *elem;
};

static int step_pulled(void *ctx, struct csim_scan_result *res)
{
	struct step_call *call = ctx;

	call->elem->p = NULL;
	return step(call->sc, call->elem, res);
}

int csim_check_scan_next(struct csim_check_scan *sc, struct csim_span *elem,
			 int *has, struct csim_error *err)
{
	struct csim_scan_result res;
	int src;

	*has = 0;
	while (sc->state != ST_DONE) {
		struct step_call call = { sc, elem };
		int rc = csim_byte_window_pull(&sc->w, &sc->source, step_pulled, &call, &src, &res,
					       err);

		if (rc != CSIM_OK)
			return rc;
		rc = src;
		if (rc == CSIM_SCAN_NOMEM)
			return csim_error_nomem(err, CSIM_E_INPUT);
		if (rc == CSIM_SCAN_BAD)
			return syntax(sc, &res, err);
		sc->w.pos = (size_t)(res.end - sc->w.buf);
		if (elem->p != NULL) {
			*has = 1;
			return CSIM_OK;
		}
		if (sc->state == ST_END && sc->w.pos == sc->w.len && sc->w.final)
			sc->state = ST_DONE;
	}
	if (!sc->saw_events)
		return csim_error_set(err, CSIM_E_INPUT, CSIM_NO_OFFSET,
				      "%s: not a trace: the top-level object has no \"traceEvents\" array",
				      sc->stream.path);
	return CSIM_OK;
}
