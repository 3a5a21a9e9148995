#include "check/check.h"

#include <stdlib.h>
#include <string.h>

#include "check/check_event.h"
#include "check/check_flat.h"
#include "check/check_flows.h"
#include "check/check_lanes.h"
#include "check/check_pairs.h"
#include "check/check_scan.h"
#include "check/check_state.h"

static void state_init(struct csim_check_state *st, const struct csim_check_sink *sink)
{
	memset(st, 0, sizeof(*st));
	st->rep.sink = sink;
	csim_check_ids_init(&st->ids);
}

static void state_release(struct csim_check_state *st)
{
	csim_check_ids_release(&st->ids);
	free(st->slices);
	free(st->starts.v);
	free(st->ends.v);
	free(st->pairs.v);
	free(st->scratch);
}

/* catapult throws on any displayTimeUnit but "ms" and "ns". */
static void check_time_unit(struct csim_check_state *st, const char *raw)
{
	if (raw == NULL || strcmp(raw, "\"ms\"") == 0 || strcmp(raw, "\"ns\"") == 0)
		return;
	if (raw[0] != '"')
		csim_check_violation(&st->rep, "display-time-unit",
				     "displayTimeUnit is not a string: chrome://tracing accepts only "
				     "\"ms\" or \"ns\" and stops loading the trace; Perfetto ignores it");
	else
		csim_check_violation(&st->rep, "display-time-unit",
				     "displayTimeUnit is %.40s: chrome://tracing accepts only \"ms\" or "
				     "\"ns\" and stops loading the trace; Perfetto ignores it", raw);
}

/*
 * The rules that need the whole trace, once every event is in. The lane
 * rules only record pairs of slices; the pairs are reported once each when
 * all are in, and the depth rule then says only what no pair has said.
 */
static int check_trace(struct csim_check_state *st, const struct csim_check_options *opt)
{
	unsigned char *flagged = NULL;
	int rc = -1;

	if (opt->flat && csim_check_flat_pairs(st) != 0)
		return -1;
	if (csim_check_lanes_overlap(st, opt->flat) != 0 ||
	    csim_check_lanes_binding(st) != 0)
		return -1;
	csim_check_flows(st);
	if (!opt->flat)
		return 0;
	if (csim_check_pairs_report(st, &flagged) == 0)
		rc = csim_check_flat_depth(st, flagged);
	free(flagged);
	return rc;
}

int csim_check_file(const char *path, const struct csim_check_options *opt,
		    const struct csim_check_sink *sink, struct csim_check_result *res,
		    struct csim_error *err)
{
	struct csim_check_scan sc;
	struct csim_check_state st;
	struct csim_span elem;
	uint64_t index = 0;
	int has = 1, rc;

	memset(res, 0, sizeof(*res));
	csim_check_scan_init(&sc);
	state_init(&st, sink);
	rc = csim_check_scan_open(&sc, path, err);
	while (rc == CSIM_OK) {
		rc = csim_check_scan_next(&sc, &elem, &has, err);
		if (rc != CSIM_OK || !has)
			break;
		rc = csim_check_event(&st, csim_check_scan_stack(&sc), elem, index++, err);
	}
	if (rc != CSIM_OK)
		goto out;
	csim_check_tally_flush(&st.tally, &st.rep, 0);
	check_time_unit(&st, sc.time_unit);
	if (check_trace(&st, opt) != 0) {
		rc = csim_error_nomem(err, CSIM_E_INPUT);
		goto out;
	}
	csim_check_violations_done(&st.rep);
	csim_check_ids_notes(&st.ids, &st.rep, &res->processes, &res->threads);
	csim_check_tally_flush(&st.tally, &st.rep, 1);
	csim_check_flat_note(&st);
	res->violations = st.rep.count;
	res->notes = st.rep.notes;
	res->slices = st.n_x;
	res->path_slices = st.n_path;
	res->arrows = st.n_s;
	res->counters = st.n_c;
out:
	state_release(&st);
	csim_check_scan_release(&sc);
	return rc;
}
