#include "check/check_event.h"

#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "base/array_grow.h"
#include "base/number_grid.h"

/*
 * Largest |ts| or |dur| accepted, in microseconds: keeps ts*2000 and the
 * half-ns arithmetic of the binding rule inside int64. 1e15 us is ~31 years.
 */
static const double TIME_LIMIT_US = 1e15;

/* Largest integer a double holds exactly: bigger flow ids lose identity. */
static const double MAX_EXACT_INT = 9007199254740992.0;

/* catapult's tracing/base/color_scheme.html; anything else throws there. */
static const char *const RESERVED_CNAMES[] = {
	"thread_state_uninterruptible", "thread_state_iowait",
	"thread_state_running", "thread_state_runnable", "thread_state_sleeping",
	"thread_state_unknown", "background_memory_dump", "light_memory_dump",
	"detailed_memory_dump", "vsync_highlight_color", "generic_work", "good",
	"bad", "terrible", "black", "grey", "white", "yellow", "olive",
	"rail_response", "rail_animation", "rail_idle", "rail_load", "startup",
	"heap_dump_stack_frame", "heap_dump_object_type",
	"heap_dump_child_node_arrow", "cq_build_running", "cq_build_passed",
	"cq_build_failed", "cq_build_abandoned",
	"cq_build_attempt_runnig", /* sic: the misspelling is the real key */
	"cq_build_attempt_passed", "cq_build_attempt_failed",
};

static const char *const META_NAMES[CSIM_META_KINDS] = {
	"process_name", "process_sort_index", "thread_name", "thread_sort_index"
};

enum field { F_PH, F_NAME, F_PID, F_TID, F_TS, F_DUR, F_ARGS, F_CNAME, F_ID,
	     F_CAT, F_BP, F_COUNT };

static const char *const FIELD_KEYS[F_COUNT] = {
	"ph", "name", "pid", "tid", "ts", "dur", "args", "cname", "id", "cat", "bp"
};

/* One event being checked: its member values and where decoded text goes. */
struct ev {
	struct csim_check_state *st;
	struct csim_json_stack *stack;
	uint64_t index;
	struct csim_span f[F_COUNT];
	const char *ph;       /* decoded, NUL-terminated in scratch */
	char *out;            /* next free scratch byte */
};

static int is_string(struct csim_span v) { return v.p != NULL && *v.p == '"'; }
static int is_object(struct csim_span v) { return v.p != NULL && *v.p == '{'; }

static int is_number(struct csim_span v)
{
	return v.p != NULL && (*v.p == '-' || (*v.p >= '0' && *v.p <= '9'));
}

/* A validated string value's text, decoded into scratch when escaped and
   always NUL-terminated there, so messages can print it. */
static struct csim_span text_of(struct ev *e, struct csim_span v)
{
	struct csim_span t;
	size_t n = csim_json_unescape(v.p + 1, v.n - 2, e->out);

	t.p = e->out;
	t.n = n;
	e->out[n] = '\0';
	e->out += n + 1;
	return t;
}

/* Members of a validated object: the last of a repeated key wins. */
static void ev_fields(struct ev *e, struct csim_span obj)
{
	struct csim_json_iter it;
	struct csim_json_item m;
	struct csim_scan_result res;
	int has = 1;

	csim_json_iter_init(&it, e->stack, obj.p, obj.p + obj.n, 1);
	while (csim_json_iter_next(&it, &m, &has, &res) == CSIM_SCAN_OK && has) {
		if (m.key_escaped)
			continue;   /* none of the keys read here needs an escape */
		for (int k = 0; k < F_COUNT; k++)
			if (csim_span_eq(m.key, FIELD_KEYS[k]))
				e->f[k] = m.value;
	}
}

/* "X event", the noun of this event's messages. */
static const char *noun(const struct ev *e, char *buf, size_t n)
{
	snprintf(buf, n, "%.32s event", e->ph);
	return buf;
}

/* One kind of per-event problem, tallied (check_tally). */
static void problem(struct ev *e, const char *rule, int note, const char *fmt, ...)
	__attribute__((format(printf, 4, 5)));

static void problem(struct ev *e, const char *rule, int note, const char *fmt, ...)
{
	char text[CSIM_CHECK_TALLY_TEXT], who[CSIM_CHECK_TALLY_NOUN];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(text, sizeof(text), fmt, ap);
	va_end(ap);
	csim_check_tally_add(&e->st->tally, &e->st->rep, rule, note,
			     e->ph != NULL ? noun(e, who, sizeof(who)) : "event", e->index,
			     "%s", text);
}

static void bad_field(struct ev *e, const char *key, const char *what)
{
	problem(e, "fields", 0, "\"%s\" %s", key, what);
}

static int need_string(struct ev *e, enum field k, struct csim_span *out)
{
	if (!is_string(e->f[k])) {
		bad_field(e, FIELD_KEYS[k], e->f[k].p == NULL ? "is missing" : "is not a string");
		return 0;
	}
	if (out != NULL)
		*out = text_of(e, e->f[k]);
	return 1;
}

static int finite_number(struct csim_span v, double *out)
{
	return is_number(v) && csim_number_parse(v.p, v.n, out) && isfinite(*out);
}

/* pid or tid as a key id; *ok 0 when the field is unusable (reported). */
static int need_key(struct ev *e, enum field k, uint32_t *key, int *ok)
{
	struct csim_span v = e->f[k];
	double num;
	int rc;

	*ok = 1;
	if (is_string(v)) {
		struct csim_span t = text_of(e, v);

		rc = csim_check_ids_key(&e->st->ids, 's', t.p, t.n, key);
	} else if (finite_number(v, &num)) {
		rc = csim_check_ids_number_key(&e->st->ids, num, key);
	} else {
		bad_field(e, FIELD_KEYS[k], v.p == NULL ? "is missing"
						      : "is not a string or number");
		*ok = 0;
		rc = 0;
	}
	return rc;
}

static int need_time(struct ev *e, enum field k, double *out)
{
	struct csim_span v = e->f[k];

	if (!is_number(v)) {
		bad_field(e, FIELD_KEYS[k], v.p == NULL ? "is missing" : "is not a number");
		return 0;
	}
	if (!finite_number(v, out) || fabs(*out) > TIME_LIMIT_US) {
		bad_field(e, FIELD_KEYS[k], "is out of range");
		return 0;
	}
	return 1;
}

/* dur may be absent (then 0); present it must be a number >= 0. */
static int opt_dur(struct ev *e, double *out)
{
	*out = 0.0;
	if (e->f[F_DUR].p == NULL)
		return 1;
	if (!need_time(e, F_DUR, out))
		return 0;
	if (*out < 0.0) {
		bad_field(e, "dur", "is negative");
		return 0;
	}
	return 1;
}

static int need_object(struct ev *e, enum field k, int required)
{
	struct csim_span v = e->f[k];

	if (v.p == NULL && !required)
		return 1;
	if (!is_object(v)) {
		bad_field(e, FIELD_KEYS[k], v.p == NULL ? "is missing" : "is not an object");
		return 0;
	}
	return 1;
}

/* pid and tid, both reported when both are unusable. */
static int need_thread(struct ev *e, uint32_t *thread, int *ok)
{
	uint32_t pid = 0, tid = 0;
	int ok_pid, ok_tid;

	if (need_key(e, F_PID, &pid, &ok_pid) != 0 ||
	    need_key(e, F_TID, &tid, &ok_tid) != 0)
		return -1;
	*ok = ok_pid & ok_tid;
	if (!*ok)
		return 0;
	return csim_check_ids_thread(&e->st->ids, pid, tid, thread);
}

/* The converter's critical-path lane (SPEC §13): counted apart, so that
   the count line tells instructions from path segments. */
static int is_path_lane(struct csim_span tid)
{
	static const char lane[] = "\"critical path\"";

	return tid.n == sizeof(lane) - 1 && memcmp(tid.p, lane, tid.n) == 0;
}

static int check_x(struct ev *e)
{
	struct csim_check_state *st = e->st;
	struct csim_check_slice s;
	struct csim_span name = { NULL, 0 };
	double ts = 0.0, dur = 0.0;
	int ok, usable;

	st->n_x++;
	if (is_path_lane(e->f[F_TID]))
		st->n_path++;
	if (need_thread(e, &s.thread, &ok) != 0)
		return -1;
	usable = ok & need_string(e, F_NAME, &name) & need_time(e, F_TS, &ts) &
		 opt_dur(e, &dur) & need_object(e, F_ARGS, 0);
	if (!usable)
		return 0;
	/* Interned: instruction names repeat, and messages quote them. */
	if (csim_check_ids_name(&st->ids, name.p, name.n, &s.name) != 0)
		return -1;
	/* Start and duration rounded separately, exactly as Perfetto's
	   tokenizer does: that is what turns touching into overlapping. */
	s.start = (int64_t)llround(ts * 1000.0);
	s.end = s.start + (int64_t)llround(dur * 1000.0);
	s.ts = ts;
	s.dur = dur;
	s.index = e->index;
	if (csim_array_grow((void **)&st->slices, &st->slices_cap, st->nslices + 1,
			    sizeof(s)) != 0)
		return -1;
	st->slices[st->nslices++] = s;
	csim_check_ids_use_thread(&st->ids, s.thread);
	return 0;
}

/* args.name must be a string for *_name, args.sort_index a number for
   *_sort_index: the only keys the viewers read. */
static int check_meta_args(struct ev *e, int is_name)
{
	const char *key = is_name ? "name" : "sort_index";
	struct csim_span args = e->f[F_ARGS], v = { NULL, 0 };
	struct csim_json_iter it;
	struct csim_json_item m;
	struct csim_scan_result res;
	double num;
	int has = 1, ok;

	if (!is_object(args)) {
		bad_field(e, "args", args.p == NULL ? "is missing" : "is not an object");
		return 0;
	}
	csim_json_iter_init(&it, e->stack, args.p, args.p + args.n, 1);
	while (csim_json_iter_next(&it, &m, &has, &res) == CSIM_SCAN_OK && has)
		if (!m.key_escaped && csim_span_eq(m.key, key))
			v = m.value;
	ok = is_name ? is_string(v) : finite_number(v, &num);
	if (!ok)
		bad_field(e, is_name ? "args.name" : "args.sort_index",
			  v.p == NULL ? "is missing"
			  : is_name ? "is not a string" : "is not a number");
	return ok;
}

static int check_m(struct ev *e)
{
	struct csim_check_ids *ids = &e->st->ids;
	struct csim_span name;
	int kind = -1, ok;
	uint32_t pid = 0, owner = 0;

	if (!need_string(e, F_NAME, &name))
		return 0;
	for (int k = 0; k < CSIM_META_KINDS; k++)
		if (csim_span_eq(name, META_NAMES[k]))
			kind = k;
	if (kind < 0) {
		/* Neither viewer needs it to draw anything: a note. */
		problem(e, "metadata", 1,
			"\"%.40s\" is none of process_name, process_sort_index, thread_name, "
			"thread_sort_index: Perfetto ignores it (chrome://tracing also knows "
			"process_labels and num_cpus)", name.p);
		return 0;
	}
	if (kind >= CSIM_META_THREAD_NAME) {
		if (need_thread(e, &owner, &ok) != 0)
			return -1;
	} else {
		if (need_key(e, F_PID, &pid, &ok) != 0)
			return -1;
		owner = pid;
	}
	ok &= check_meta_args(e, kind == CSIM_META_PROCESS_NAME ||
				 kind == CSIM_META_THREAD_NAME);
	if (!ok)
		return 0;
	return csim_check_ids_meta(ids, (enum csim_check_meta)kind, owner, e->index);
}

static int check_c(struct ev *e)
{
	uint32_t pid = 0;
	double ts;
	int ok;

	e->st->n_c++;
	if (need_key(e, F_PID, &pid, &ok) != 0)
		return -1;
	ok &= need_string(e, F_NAME, NULL) & need_time(e, F_TS, &ts) &
	      need_object(e, F_ARGS, 1);
	if (ok)
		csim_check_ids_use_pid(&e->st->ids, pid);
	return 0;
}

/* Perfetto parses a string id as hex and rejects fractions; catapult
   compares JSON forms. Only a plain integer means the same in both. */
static int need_flow_id(struct ev *e, int64_t *out)
{
	struct csim_span v = e->f[F_ID];
	const char *why = NULL;
	double num = 0.0;

	if (v.p == NULL)
		why = "is missing: neither viewer can pair it";
	else if (is_string(v))
		why = "is a string: Perfetto reads a string id as hex (and drops the arrow when "
		      "it is not), chrome://tracing keeps it apart from the same number; "
		      "write a plain integer";
	else if (!is_number(v))
		why = "is not a number: neither viewer can pair it";
	else if (!finite_number(v, &num) || num != trunc(num) ||
		 fabs(num) > MAX_EXACT_INT)
		why = "is not an integer up to 2^53: Perfetto drops the arrow, and beyond "
		      "2^53 two ids can read as one";
	if (why != NULL) {
		problem(e, "flow-id", 0, "\"id\" %s", why);
		return 0;
	}
	*out = (int64_t)num;
	return 1;
}

static int check_flow(struct ev *e, int is_start)
{
	struct csim_check_state *st = e->st;
	struct csim_check_flows *to = is_start ? &st->starts : &st->ends;
	struct csim_check_flow fl;
	struct csim_span cat = { NULL, 0 }, name = { NULL, 0 };
	int ok, usable;

	memset(&fl, 0, sizeof(fl));
	if (is_start)
		st->n_s++;
	else
		st->n_f++;
	if (need_thread(e, &fl.thread, &ok) != 0)
		return -1;
	usable = ok & need_flow_id(e, &fl.id) & need_string(e, F_CAT, &cat) &
		 need_string(e, F_NAME, &name) & need_time(e, F_TS, &fl.ts);
	/* Without bp "e" both viewers bind an f to the next slice that begins
	   on the thread. Its own violation: the f still pairs with its s. */
	if (!is_start && !(is_string(e->f[F_BP]) && csim_span_eq(e->f[F_BP], "\"e\"")))
		problem(e, "flow-bp", 0,
			"no \"bp\":\"e\": both viewers then bind it to the next slice that begins "
			"on its thread, not to the one it lies in");
	if (!usable)
		return 0;
	if (csim_check_ids_name(&st->ids, cat.p, cat.n, &fl.cat) != 0 ||
	    csim_check_ids_name(&st->ids, name.p, name.n, &fl.name) != 0)
		return -1;
	fl.ns = (int64_t)llround(fl.ts * 1000.0);
	fl.t2 = (int64_t)llround(fl.ts * 2000.0);
	fl.index = e->index;
	if (csim_array_grow((void **)&to->v, &to->cap, to->n + 1, sizeof(fl)) != 0)
		return -1;
	to->v[to->n++] = fl;
	csim_check_ids_use_thread(&st->ids, fl.thread);
	return 0;
}

static void check_cname(struct ev *e)
{
	struct csim_span v = e->f[F_CNAME], t;

	if (v.p == NULL)
		return;
	if (!is_string(v)) {
		problem(e, "cname", 0, "cname is not a string: chrome://tracing stops loading "
			"the trace at it; Perfetto ignores cname");
		return;
	}
	t = text_of(e, v);
	for (size_t i = 0; i < sizeof(RESERVED_CNAMES) / sizeof(RESERVED_CNAMES[0]); i++)
		if (csim_span_eq(t, RESERVED_CNAMES[i]))
			return;
	problem(e, "cname", 0,
		"cname \"%.64s\" is not one of chrome://tracing's colour names, so it stops "
		"loading the trace (\"Unrecognized color\"); Perfetto ignores cname%s", t.p,
		csim_span_eq(t, "gray") ? " (the name is \"grey\")" : "");
}

static int dispatch(struct ev *e)
{
	const char *p = e->ph;

	if (strcmp(p, "X") == 0)
		return check_x(e);
	if (strcmp(p, "M") == 0)
		return check_m(e);
	if (strcmp(p, "C") == 0)
		return check_c(e);
	if (strcmp(p, "s") == 0 || strcmp(p, "f") == 0)
		return check_flow(e, p[0] == 's');
	problem(e, "phase", 0,
		"--check verifies only X, M, C, s and f events and cannot say how the "
		"viewers draw this phase");
	return 0;
}

int csim_check_event(struct csim_check_state *st, struct csim_json_stack *stack,
		     struct csim_span elem, uint64_t index, struct csim_error *err)
{
	struct ev e;
	struct csim_span ph;

	memset(&e, 0, sizeof(e));
	e.st = st;
	e.stack = stack;
	e.index = index;
	if (*elem.p != '{') {
		problem(&e, "fields", 0, "not an object");
		return CSIM_OK;
	}
	/* Decoded strings never outgrow their text; +F_COUNT for the NULs. */
	if (elem.n + F_COUNT > st->scratch_cap) {
		size_t cap = st->scratch_cap;

		if (csim_array_grow((void **)&st->scratch, &cap, elem.n + F_COUNT, 1) != 0)
			return csim_error_nomem(err, CSIM_E_INPUT);
		st->scratch_cap = cap;
	}
	e.out = st->scratch;
	ev_fields(&e, elem);
	if (!is_string(e.f[F_PH])) {
		problem(&e, "fields", 0, "\"ph\" %s",
			e.f[F_PH].p == NULL ? "is missing" : "is not a string");
		return CSIM_OK;
	}
	ph = text_of(&e, e.f[F_PH]);
	e.ph = ph.p;
	check_cname(&e);
	if (dispatch(&e) != 0)
		return csim_error_nomem(err, CSIM_E_INPUT);
	return CSIM_OK;
}
