#include "event_table.h"

#include <stdlib.h>
#include <string.h>

#include "array_grow.h"
#include "flag_detail.h"
#include "number_grid.h"
#include "pipe_table.h"

void csim_table_init(struct csim_table *t, int keep_counters)
{
	memset(t, 0, sizeof(*t));
	csim_strtab_init(&t->pids, CSIM_STRTAB_GROUPED);
	csim_strtab_init(&t->pipes, CSIM_STRTAB_GROUPED);
	csim_strtab_init(&t->ids, CSIM_STRTAB_SCATTERED);
	t->keep_counters = keep_counters;
}

void csim_table_release(struct csim_table *t)
{
	for (size_t i = 0; i < t->pids.count; i++)
		free(t->pid_names[i]);
	free(t->pid_names);
	free(t->slices);
	free(t->syncs);
	free(t->details);
	free(t->counter_text);
	free(t->counters);
	csim_strtab_release(&t->pids);
	csim_strtab_release(&t->pipes);
	csim_strtab_release(&t->ids);
	memset(t, 0, sizeof(*t));
}

const char *csim_skip_reason_text(enum csim_skip_reason r)
{
	static const char *const text[CSIM_SKIP_COUNT] = {
		"not a JSON object",
		"no \"ph\" string",
		"no \"name\" string",
		"no \"pid\"",
		"no \"tid\"",
		"no numeric \"ts\"",
		"\"dur\" not a non-negative number",
		"\"ts\"/\"dur\" out of range",
		"values nested deeper than 512 levels",
	};

	return text[r];
}

const char *csim_drop_reason_text(enum csim_drop_reason r)
{
	static const char *const text[CSIM_DROP_COUNT] = {
		"metadata (rebuilt)",
		"flow records (rebuilt)",
		"non-flag B/E records",
		"counters (--no-counters)",
		"other phases",
	};

	return text[r];
}



static int text_is(const struct csim_text *t, const char *s)
{
	return t->kind == CSIM_VALUE_STRING && csim_span_eq(csim_span_of(t->p, t->n), s);
}

static int has_id_text(const struct csim_text *t)
{
	return t->kind == CSIM_VALUE_STRING || t->kind == CSIM_VALUE_NUMBER;
}

/* A validated JSON value is a number exactly when it starts like one. */
static int span_is_number(struct csim_span v)
{
	return v.p != NULL && (*v.p == '-' || (*v.p >= '0' && *v.p <= '9'));
}

static int to_grid(struct csim_span v, int64_t *ns)
{
	return csim_number_grid(v.p, v.n, CSIM_GRID_LIMIT_NS, ns);
}

static int skip(enum csim_skip_reason *why, enum csim_skip_reason r)
{
	*why = r;
	return -1;
}

/* Common fields of X, B and E: pid, tid and a grid timestamp. */
static int placed_event(const struct csim_event *ev, int64_t *ts,
			enum csim_skip_reason *why)
{
	if (!has_id_text(&ev->pid))
		return skip(why, CSIM_SKIP_NO_PID);
	if (!has_id_text(&ev->tid))
		return skip(why, CSIM_SKIP_NO_TID);
	if (!span_is_number(ev->field[CSIM_F_TS]))
		return skip(why, CSIM_SKIP_NO_TS);
	if (!to_grid(ev->field[CSIM_F_TS], ts))
		return skip(why, CSIM_SKIP_RANGE);
	return 1;
}

int csim_table_slice_of(const struct csim_event *ev, int64_t *start,
			int64_t *end, enum csim_skip_reason *why)
{
	struct csim_span dur = ev->field[CSIM_F_DUR];
	int64_t len = 0;
	double v;

	if (!ev->is_object || !text_is(&ev->ph, "X"))
		return 0;
	if (ev->name.kind != CSIM_VALUE_STRING)
		return skip(why, CSIM_SKIP_NO_NAME);
	if (placed_event(ev, start, why) < 0)
		return -1;
	if (dur.p != NULL) {
		/* Negative is "-" and any non-zero value; "-0" is a zero. */
		if (!span_is_number(dur) ||
		    (*dur.p == '-' && csim_span_number(dur, &v) && v < 0))
			return skip(why, CSIM_SKIP_BAD_DUR);
		if (!to_grid(dur, &len))
			return skip(why, CSIM_SKIP_RANGE);
	}
	*end = *start + len;
	return 1;
}

/*
 * A slice event is rarely under 150 bytes of JSON and a flag record under
 * 110; real traces hold fewer of each (other events share the payload).
 */
#define SLICE_BYTES_MIN 150u
#define SYNC_BYTES_MIN 110u
#define RESERVE_MAX ((uint64_t)1 << 26)

void csim_table_reserve(struct csim_table *t, uint64_t bytes)
{
	uint64_t slices = bytes / SLICE_BYTES_MIN + 1;
	uint64_t syncs = bytes / SYNC_BYTES_MIN + 1;

	/*
	 * Best effort: a sparse or lying file must not turn the estimate into
	 * a refusal, so it is capped and a failure only means growth later.
	 */
	if (slices > RESERVE_MAX)
		slices = RESERVE_MAX;
	if (syncs > RESERVE_MAX)
		syncs = RESERVE_MAX;
	if (csim_array_grow((void **)&t->slices, &t->slices_cap,
			    t->nslices + (size_t)slices, sizeof(*t->slices)) != 0 ||
	    csim_array_grow((void **)&t->syncs, &t->syncs_cap,
			    t->nsyncs + (size_t)syncs, sizeof(*t->syncs)) != 0)
		return;
	(void)csim_array_grow((void **)&t->details, &t->details_cap,
			      t->ndetails + (size_t)syncs / 2 + 1, sizeof(*t->details));
}

static int intern_pid(struct csim_table *t, const struct csim_event *ev,
		      uint32_t *id)
{
	struct csim_span raw = ev->field[CSIM_F_PID];
	size_t before = t->pids.count;

	/* A name slot for every interned pid, made before the pid is interned:
	   release() frees pids.count names. */
	if (before + 1 > t->pid_names_cap &&
	    csim_array_grow((void **)&t->pid_names, &t->pid_names_cap, before + 1,
			    sizeof(*t->pid_names)) != 0)
		return -1;
	if (csim_strtab_intern(&t->pids, raw.p, raw.n, id) != 0)
		return -1;
	if (t->pids.count == before)
		return 0;
	/* New pid: keep its decoded text for sorting and process_name. */
	t->pid_names[*id] = malloc(ev->pid.n + 1);
	if (t->pid_names[*id] == NULL)
		return -1;
	memcpy(t->pid_names[*id], ev->pid.p, ev->pid.n);
	t->pid_names[*id][ev->pid.n] = '\0';
	return 0;
}

static int intern_pipe(struct csim_table *t, const char *p, size_t n,
		       uint32_t *id)
{
	size_t cn;
	const char *c = csim_pipe_canonical(p, n, &cn);

	return csim_strtab_intern(&t->pipes, c, cn, id);
}

static enum csim_slice_kind slice_kind(const struct csim_event *ev)
{
	if (text_is(&ev->name, "SET_FLAG") || text_is(&ev->name, "WAIT_FLAG") ||
	    text_is(&ev->name, "set_event") || text_is(&ev->name, "wait_event"))
		return CSIM_SLICE_SYNC;
	if (text_is(&ev->name, "BAR"))
		return CSIM_SLICE_BAR;
	if (text_is(&ev->name, "cache_time") || text_is(&ev->name, "ccu_time"))
		return CSIM_SLICE_CACHE_CCU;
	return CSIM_SLICE_INSTR;
}

static int add_slice(struct csim_table *t, const struct csim_event *ev,
		     int64_t start, int64_t end)
{
	struct csim_slice *s;

	if (csim_array_grow((void **)&t->slices, &t->slices_cap, t->nslices + 1,
		 sizeof(*t->slices)) != 0)
		return -1;
	s = &t->slices[t->nslices];
	memset(s, 0, sizeof(*s));
	s->start = start;
	s->end = end;
	s->kind = (uint8_t)slice_kind(ev);
	if (intern_pid(t, ev, &s->pid) != 0 ||
	    intern_pipe(t, ev->tid.p, ev->tid.n, &s->pipe) != 0)
		return -1;
	t->nslices++;
	return 0;
}

static int add_detail(struct csim_table *t, const struct csim_text *text,
		      uint32_t *index)
{
	struct csim_flag_key key;
	struct csim_sync_detail *d;

	*index = CSIM_NONE;
	if (!csim_flag_detail_parse(text->p, text->n, &key))
		return 0;
	if (csim_array_grow((void **)&t->details, &t->details_cap, t->ndetails + 1,
		 sizeof(*t->details)) != 0)
		return -1;
	d = &t->details[t->ndetails];
	d->producer = d->consumer = CSIM_NONE;
	d->flag_id = key.flag_id;
	d->has_flag_id = (uint8_t)key.has_flag_id;
	if (key.producer != NULL &&
	    csim_strtab_intern(&t->pipes, key.producer, key.producer_n, &d->producer) != 0)
		return -1;
	if (key.consumer != NULL &&
	    csim_strtab_intern(&t->pipes, key.consumer, key.consumer_n, &d->consumer) != 0)
		return -1;
	*index = (uint32_t)t->ndetails++;
	return 0;
}

static int add_sync(struct csim_table *t, struct csim_trace_scan *sc,
		    const struct csim_event *ev, int64_t ts)
{
	struct csim_sync_rec *r;
	struct csim_text detail;
	int found;

	if (csim_array_grow((void **)&t->syncs, &t->syncs_cap, t->nsyncs + 1,
		 sizeof(*t->syncs)) != 0)
		return -1;
	r = &t->syncs[t->nsyncs];
	memset(r, 0, sizeof(*r));
	r->ts = ts;
	r->is_begin = ev->ph.p[0] == 'B';
	r->kind = (uint8_t)(text_is(&ev->name, "SET_FLAG") ||
			    text_is(&ev->name, "set_event")
			    ? CSIM_SYNC_SET : CSIM_SYNC_WAIT);
	r->id = CSIM_NONE;
	r->detail = CSIM_NONE;
	if (intern_pid(t, ev, &r->pid) != 0 ||
	    intern_pipe(t, ev->tid.p, ev->tid.n, &r->pipe) != 0 ||
	    csim_strtab_intern(&t->pipes, ev->name.p, ev->name.n, &r->name) != 0)
		return -1;
	if (has_id_text(&ev->id) &&
	    csim_strtab_intern(&t->ids, ev->id.p, ev->id.n, &r->id) != 0)
		return -1;
	found = csim_event_detail(sc, ev, &detail);
	if (found < 0 || (found > 0 && add_detail(t, &detail, &r->detail) != 0))
		return -1;
	t->nsyncs++;
	return 0;
}

static int add_counter(struct csim_table *t, const struct csim_event *ev)
{
	uint32_t pid;

	if (intern_pid(t, ev, &pid) != 0 ||
	    csim_array_grow((void **)&t->counter_text, &t->counter_cap,
		 t->counter_len + ev->raw.n, 1) != 0 ||
	    csim_array_grow((void **)&t->counters, &t->counters_cap, t->ncounters + 1,
		 sizeof(*t->counters)) != 0)
		return -1;
	memcpy(t->counter_text + t->counter_len, ev->raw.p, ev->raw.n);
	t->counters[t->ncounters].off = t->counter_len;
	t->counters[t->ncounters].len = ev->raw.n;
	t->counters[t->ncounters].pid = pid;
	t->counter_len += ev->raw.n;
	t->ncounters++;
	return 0;
}

static int is_flag_name(const struct csim_text *name)
{
	return text_is(name, "SET_FLAG") || text_is(name, "WAIT_FLAG") ||
	       text_is(name, "set_event") || text_is(name, "wait_event");
}

/* B/E records: flags become sync records, anything else is dropped. */
static int add_begin_end(struct csim_table *t, struct csim_trace_scan *sc,
			 const struct csim_event *ev)
{
	enum csim_skip_reason why;
	int64_t ts;

	if (!is_flag_name(&ev->name)) {
		t->dropped[CSIM_DROP_OTHER_BE]++;
		return 0;
	}
	if (placed_event(ev, &ts, &why) < 0) {
		t->skipped[why]++;
		return 0;
	}
	return add_sync(t, sc, ev, ts);
}

static int add_counter_event(struct csim_table *t, const struct csim_event *ev)
{
	if (!t->keep_counters) {
		t->dropped[CSIM_DROP_COUNTER]++;
		return 0;
	}
	if (ev->name.kind != CSIM_VALUE_STRING) {
		t->skipped[CSIM_SKIP_NO_NAME]++;
		return 0;
	}
	if (!has_id_text(&ev->pid)) {
		t->skipped[CSIM_SKIP_NO_PID]++;
		return 0;
	}
	if (!span_is_number(ev->field[CSIM_F_TS])) {
		t->skipped[CSIM_SKIP_NO_TS]++;
		return 0;
	}
	return add_counter(t, ev);
}

int csim_table_add(struct csim_table *t, struct csim_trace_scan *sc,
		   const struct csim_event *ev, struct csim_error *err)
{
	enum csim_skip_reason why = CSIM_SKIP_NOT_OBJECT;
	int64_t start, end;
	int rc = 0;

	t->events++;
	if (!ev->is_object) {
		t->skipped[CSIM_SKIP_NOT_OBJECT]++;
		return CSIM_OK;
	}
	if (ev->depth > CSIM_MAX_NESTING) {
		t->skipped[CSIM_SKIP_DEEP]++;
		return CSIM_OK;
	}
	if (ev->ph.kind != CSIM_VALUE_STRING || ev->ph.n != 1) {
		if (ev->ph.kind == CSIM_VALUE_STRING)
			t->dropped[CSIM_DROP_OTHER_PH]++;
		else
			t->skipped[CSIM_SKIP_NO_PH]++;
		return CSIM_OK;
	}
	switch (ev->ph.p[0]) {
	case 'X':
		rc = csim_table_slice_of(ev, &start, &end, &why);
		if (rc > 0 && ev->raw.n > UINT32_MAX) {
			rc = -1;   /* its text location would not fit a row */
			why = CSIM_SKIP_RANGE;
		}
		if (rc < 0) {
			t->skipped[why]++;
			return CSIM_OK;
		}
		rc = add_slice(t, ev, start, end);
		break;
	case 'B':
	case 'E':
		rc = add_begin_end(t, sc, ev);
		break;
	case 'C':
		rc = add_counter_event(t, ev);
		break;
	case 'M':
		t->dropped[CSIM_DROP_METADATA]++;
		break;
	case 's':
	case 't':
	case 'f':
		t->dropped[CSIM_DROP_FLOW]++;
		break;
	default:
		t->dropped[CSIM_DROP_OTHER_PH]++;
		break;
	}
	return rc != 0 ? csim_error_nomem(err, CSIM_E_INPUT) : CSIM_OK;
}
