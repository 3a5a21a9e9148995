#include "read/event_ingest.h"

#include <math.h>

#include "model/flag_detail.h"
#include "model/lane_rule.h"
#include "model/pipe_table.h"
#include "base/exact_ns.h"
#include "base/number_grid.h"
#include "read/event_args.h"

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

/* The grid and, for the occupancy intervals of SPEC §4, the value itself. */
static int to_grid_value(struct csim_span v, int64_t *ns, double *value)
{
	return csim_number_grid_value(v.p, v.n, CSIM_GRID_LIMIT_NS, ns, value);
}

static int skip(enum csim_skip_reason *why, enum csim_skip_reason r)
{
	*why = r;
	return -1;
}

static struct csim_owner owner_of(const struct csim_event *ev)
{
	struct csim_owner o;

	o.pid_json = ev->field[CSIM_F_PID];
	o.pid = csim_span_of(ev->pid.p, ev->pid.n);
	o.tid = csim_span_of(ev->tid.p, ev->tid.n);
	return o;
}

/*
 * Common fields of X, B and E: pid, tid and a grid timestamp; and the
 * timestamp's value when ts_value is not NULL.
 */
/*
 * placed_event(), and with dec the timestamp's decimal digits too (SPEC
 * §15's exact times), from the same parse.
 */
static int placed_decimal(const struct csim_event *ev, int64_t *ts, double *ts_value,
			  struct csim_decimal *dec, enum csim_skip_reason *why)
{
	struct csim_span t = ev->field[CSIM_F_TS];
	double unused;
	int ok;

	if (!has_id_text(&ev->pid))
		return skip(why, CSIM_SKIP_NO_PID);
	if (!has_id_text(&ev->tid))
		return skip(why, CSIM_SKIP_NO_TID);
	if (!span_is_number(t))
		return skip(why, CSIM_SKIP_NO_TS);
	if (dec != NULL)
		ok = csim_number_grid_decimal(t.p, t.n, CSIM_GRID_LIMIT_NS, ts,
					      ts_value != NULL ? ts_value : &unused, dec);
	else
		ok = ts_value != NULL ? to_grid_value(t, ts, ts_value) : to_grid(t, ts);
	if (!ok)
		return skip(why, CSIM_SKIP_RANGE);
	return 1;
}

static int placed_event(const struct csim_event *ev, int64_t *ts, double *ts_value,
			enum csim_skip_reason *why)
{
	return placed_decimal(ev, ts, ts_value, NULL, why);
}

/*
 * SPEC §15's exact times, from the decimals of ts and dur; where a text
 * has too many digits for that, the doubles' (the grid of a and b).
 */
static void exact_times(struct csim_slice_time *at, const struct csim_decimal *ts,
			const struct csim_decimal *dur)
{
	const int64_t limit = (int64_t)CSIM_GRID_LIMIT_NS;

	if (!csim_exact_ns(ts, limit, &at->exact_start))
		at->exact_start = llround(at->a);
	if (!csim_exact_ns_sum(ts, dur, limit, &at->exact_end))
		at->exact_end = llround(at->b);
}

int csim_ingest_slice_of(const struct csim_event *ev, int exact, struct csim_slice_time *at,
			 enum csim_skip_reason *why)
{
	struct csim_span dur = ev->field[CSIM_F_DUR];
	struct csim_decimal ts_dec, dur_dec = { 0, 0, 0, 1 };
	int64_t len = 0;
	double ts, v = 0.0;

	if (!ev->is_object || !text_is(&ev->ph, "X"))
		return 0;
	if (ev->name.kind != CSIM_VALUE_STRING)
		return skip(why, CSIM_SKIP_NO_NAME);
	if (placed_decimal(ev, &at->start, &ts, exact ? &ts_dec : NULL, why) < 0)
		return -1;
	if (dur.p != NULL) {
		/* Negative is "-" and any non-zero value; "-0" is a zero. */
		if (!span_is_number(dur) ||
		    (*dur.p == '-' && csim_span_number(dur, &v) && v < 0))
			return skip(why, CSIM_SKIP_BAD_DUR);
		if (!(exact ? csim_number_grid_decimal(dur.p, dur.n, CSIM_GRID_LIMIT_NS, &len, &v,
						      &dur_dec)
			    : to_grid_value(dur, &len, &v)))
			return skip(why, CSIM_SKIP_RANGE);
	}
	at->end = at->start + len;
	/* As SPEC §4 writes them: the end is (ts + dur) * 1000, not a + dur * 1000. */
	at->a = ts * 1000.0;
	at->b = (ts + v) * 1000.0;
	if (exact)
		exact_times(at, &ts_dec, &dur_dec);
	return 1;
}

static int is_set_name(const struct csim_text *name)
{
	return text_is(name, "SET_FLAG") || text_is(name, "set_event");
}

static int is_flag_name(const struct csim_text *name)
{
	return is_set_name(name) || text_is(name, "WAIT_FLAG") ||
	       text_is(name, "wait_event");
}

static enum csim_slice_kind slice_kind(const struct csim_event *ev)
{
	if (is_flag_name(&ev->name))
		return CSIM_SLICE_SYNC;
	if (text_is(&ev->name, "BAR"))
		return CSIM_SLICE_BAR;
	if (text_is(&ev->name, "cache_time") || text_is(&ev->name, "ccu_time"))
		return CSIM_SLICE_CACHE_CCU;
	if (text_is(&ev->name, "WAIT_INTRA_BLOCK") || text_is(&ev->name, "WAIT_INTRA_BLOCKI"))
		return CSIM_SLICE_INTRA_WAIT;
	return CSIM_SLICE_INSTR;
}

/* Cross-core sync (SPEC §3): SET_INTRA_BLOCK or SET_INTRA_BLOCKI. */
static int is_intra_set_name(const struct csim_text *name)
{
	return text_is(name, "SET_INTRA_BLOCK") || text_is(name, "SET_INTRA_BLOCKI");
}

static int is_intra_block_name(const struct csim_text *name)
{
	return is_intra_set_name(name) || text_is(name, "WAIT_INTRA_BLOCK") ||
	       text_is(name, "WAIT_INTRA_BLOCKI");
}

/*
 * The lane an X event goes on: its tid, except that older producers write
 * cross-core sync as long X slices on FLOWCTRL (a dropped noise lane); those
 * keep a lane INTRA_BLOCK of their core, so cross-core waiting stays
 * visible (SPEC §3).
 */
static struct csim_span lane_of(const struct csim_event *ev)
{
	struct csim_span tid = csim_span_of(ev->tid.p, ev->tid.n);

	if (ev->tid.kind == CSIM_VALUE_STRING && csim_span_eq(tid, "FLOWCTRL") &&
	    is_intra_block_name(&ev->name))
		return csim_span_of("INTRA_BLOCK", 11);
	return tid;
}

/*
 * Why the lane rule would drop an X event that could not be placed, or -1.
 * Its kind comes from its name and its pipe from its tid, where they are
 * strings; a missing one tells nothing.
 */
static int dropped_anyway(const struct csim_lane_rule *rule, const struct csim_event *ev)
{
	enum csim_slice_kind kind = ev->name.kind == CSIM_VALUE_STRING
				    ? slice_kind(ev) : CSIM_SLICE_INSTR;
	struct csim_span lane = lane_of(ev);
	enum csim_pipe_class cls = has_id_text(&ev->tid)
				   ? csim_pipe_lookup(lane.p, lane.n)->cls
				   : CSIM_PIPE_OTHER;

	return csim_lane_rule_drop(rule, kind, cls);
}

/*
 * An instruction's identity (its address and name: the critical path's top
 * instructions) and, on MTE lanes, the bytes it moved (the summary's
 * bandwidth), from the args members the scan read (event_fields.h).
 */
static int ingest_instr(struct csim_table *t, const struct csim_event *ev,
			struct csim_span lane, struct csim_error *err)
{
	const struct csim_span pc = ev->field[CSIM_F_ARG_PC];
	struct csim_instr_key key;
	uint64_t bytes;
	int rc;

	key.pc_json = pc.p != NULL && *pc.p == '"' ? pc : csim_span_of(NULL, 0);
	key.name_json = ev->field[CSIM_F_NAME];
	rc = csim_table_set_instr(t, &key, err);
	if (rc == CSIM_OK && lane.n >= 3 && memcmp(lane.p, "MTE", 3) == 0 &&
	    csim_event_bytes_value(ev->field[CSIM_F_ARG_BYTES], &bytes))
		rc = csim_table_add_bytes(t, bytes, err);
	return rc;
}

static int ingest_slice(const struct csim_ingest *in,
			const struct csim_event *ev, struct csim_error *err)
{
	enum csim_slice_kind kind;
	struct csim_table *t = in->table;
	enum csim_skip_reason why = CSIM_SKIP_NOT_OBJECT;
	struct csim_owner o;
	struct csim_slice_time at;
	int rc = csim_ingest_slice_of(ev, t->want_exact, &at, &why);

	if (rc > 0 && ev->raw.n > UINT32_MAX) {
		rc = -1;   /* its text location would not fit a row */
		why = CSIM_SKIP_RANGE;
	}
	if (rc < 0) {
		int drop = dropped_anyway(&in->rule, ev);

		if (drop >= 0)
			t->unplaced_drops[drop]++;
		else
			t->skipped[why]++;
		return CSIM_OK;
	}
	o = owner_of(ev);
	o.tid = lane_of(ev);
	kind = slice_kind(ev);
	rc = csim_table_add_slice(t, &o, &at, kind, err);
	if (rc != CSIM_OK || kind != CSIM_SLICE_INSTR)
		return rc;
	return ingest_instr(t, ev, o.tid, err);
}

/*
 * B/E records: flags and newer producers' cross-core sync (SPEC §5.6)
 * become sync records, anything else is dropped.
 */
static int ingest_begin_end(struct csim_table *t, struct csim_trace_scan *sc,
			    const struct csim_event *ev, struct csim_error *err)
{
	enum csim_skip_reason why;
	struct csim_sync_in in;
	struct csim_text detail;
	struct csim_flag_key key;
	int found;
	int intra = is_intra_block_name(&ev->name);
	double ts;

	if (!is_flag_name(&ev->name) && !intra) {
		t->dropped[CSIM_DROP_OTHER_BE]++;
		return CSIM_OK;
	}
	if (placed_event(ev, &in.ts, &ts, &why) < 0) {
		t->skipped[why]++;
		return CSIM_OK;
	}
	in.a = ts * 1000.0;
	in.owner = owner_of(ev);
	in.name = csim_span_of(ev->name.p, ev->name.n);
	in.has_id = has_id_text(&ev->id);
	in.id = csim_span_of(ev->id.p, ev->id.n);
	in.kind = is_set_name(&ev->name) || is_intra_set_name(&ev->name)
		  ? CSIM_SYNC_SET : CSIM_SYNC_WAIT;
	in.is_begin = ev->ph.p[0] == 'B';
	in.intra = intra;
	found = csim_event_detail(sc, ev, &detail);
	if (found < 0)
		return csim_error_nomem(err, CSIM_E_INPUT);
	in.detail = found > 0 && csim_flag_detail_parse(detail.p, detail.n, &key) ? &key : NULL;
	return csim_table_add_sync(t, &in, err);
}

static int ingest_counter(const struct csim_ingest *in, const struct csim_event *ev,
			  struct csim_error *err)
{
	struct csim_table *t = in->table;
	struct csim_owner o;
	int64_t ts;

	if (!in->keep_counters) {
		t->dropped[CSIM_DROP_COUNTER]++;
		return CSIM_OK;
	}
	if (ev->name.kind != CSIM_VALUE_STRING) {
		t->skipped[CSIM_SKIP_NO_NAME]++;
		return CSIM_OK;
	}
	if (!has_id_text(&ev->pid)) {
		t->skipped[CSIM_SKIP_NO_PID]++;
		return CSIM_OK;
	}
	if (!span_is_number(ev->field[CSIM_F_TS])) {
		t->skipped[CSIM_SKIP_NO_TS]++;
		return CSIM_OK;
	}
	/* Out of range (1e400, 1e20 µs) as for a slice: copied, it would make
	   the trace fail the viewer rules (SPEC §6) and --check. */
	if (!to_grid(ev->field[CSIM_F_TS], &ts)) {
		t->skipped[CSIM_SKIP_RANGE]++;
		return CSIM_OK;
	}
	o = owner_of(ev);
	return csim_table_add_counter(t, &o, ev->raw, &ts, err);
}

int csim_ingest_event(const struct csim_ingest *in, struct csim_trace_scan *sc,
		      const struct csim_event *ev, struct csim_error *err)
{
	struct csim_table *t = in->table;

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
		return ingest_slice(in, ev, err);
	case 'B':
	case 'E':
		return ingest_begin_end(t, sc, ev, err);
	case 'C':
		return ingest_counter(in, ev, err);
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
	return CSIM_OK;
}
