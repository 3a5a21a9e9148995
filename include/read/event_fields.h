/*
 * event_fields: the members of an event object the converter reads, by
 * index (the general scanner's and the one-pass scanner's field spans).
 * A header of its own so that event_fast, which event_scan calls, needs
 * nothing of event_scan: the dependency runs one way.
 */
#ifndef CSIM_EVENT_FIELDS_H
#define CSIM_EVENT_FIELDS_H

enum csim_event_field {
	CSIM_F_PH, CSIM_F_NAME, CSIM_F_PID, CSIM_F_TID, CSIM_F_TS, CSIM_F_DUR,
	CSIM_F_ARGS, CSIM_F_ID, CSIM_F_COUNT
};

#endif
