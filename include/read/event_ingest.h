/*
 * event_ingest: the reading side's door into the model. Classifies each
 * scanned event — a slice row, a sync flag record, a counter, or something
 * dropped or skipped, and why — and adds it to the event table.
 */
#ifndef CSIM_EVENT_INGEST_H
#define CSIM_EVENT_INGEST_H

#include <stdint.h>

#include "base/csim_error.h"
#include "read/event_scan.h"
#include "model/event_table.h"

struct csim_ingest {
	struct csim_table *table;
	int keep_counters;           /* cleared by --no-counters */
	struct csim_lane_rule rule;  /* to tell which unplaceable events were
					dropped anyway (SPEC §3: a warning names
					only events that would have been kept) */
};

/* Records one scanned event, or counts why it was skipped or dropped. */
int csim_ingest_event(const struct csim_ingest *in, struct csim_trace_scan *sc,
		      const struct csim_event *ev, struct csim_error *err);

/*
 * Whether an event becomes a slice row, and where it lies (grid and float
 * ns, and with exact SPEC §15's exact ns): 1 a slice, 0 not an X event, -1
 * an X event skipped for *why.
 */
int csim_ingest_slice_of(const struct csim_event *ev, int exact, struct csim_slice_time *at,
			 enum csim_skip_reason *why);

#endif
