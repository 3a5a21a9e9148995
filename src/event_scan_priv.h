/*
 * event_scan_priv.h: scanner internals shared with event_reread.c (the
 * second reading reuses the event-object parser).
 * Not part of any public interface.
 */
#ifndef CSIM_EVENT_SCAN_PRIV_H
#define CSIM_EVENT_SCAN_PRIV_H

#include "event_scan.h"

/* Parses the event object at p (validated) into ev's field spans. */
int csim_scan_event_object(struct csim_trace_scan *sc, const char *p,
			   const char *end, struct csim_event *ev,
			   struct csim_scan_result *res);

#endif
