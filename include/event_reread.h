/*
 * event_reread: re-reading kept slices without parsing them again.
 *
 * The first pass records, per slice, where its name, pid, ts, dur and args
 * lie inside the event's text; the trace writer then fetches just those
 * bytes. Events whose fields lie too deep for the compact layout are parsed
 * again instead.
 */
#ifndef CSIM_EVENT_REREAD_H
#define CSIM_EVENT_REREAD_H

#include <stdint.h>

#include "csim_error.h"
#include "event_scan.h"

/* name_n (n[0]) == 0 means "not recorded: parse again". */
struct csim_event_layout {
	uint32_t len;                 /* the whole event */
	uint16_t off[4], n[4];        /* name, pid, ts, dur (n 0: absent) */
	uint32_t args_off, args_n;    /* args_n 0: absent */
};

/* Records where ev's fields lie (first pass). */
void csim_event_layout_make(const struct csim_event *ev,
			    struct csim_event_layout *layout);

/*
 * Re-reads one event whose payload offset and layout the first pass
 * recorded, skipping the bytes before it. Offsets must increase from call
 * to call within a block. Only the raw spans of name, pid, ts, dur and args
 * are filled in: from the layout when it has them, else by parsing again.
 */
int csim_trace_scan_event_at(struct csim_trace_scan *sc, uint64_t offset,
			     const struct csim_event_layout *layout,
			     struct csim_event *ev, struct csim_error *err);

#endif
