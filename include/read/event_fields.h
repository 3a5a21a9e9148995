/*
 * event_fields: the members of an event object the converter reads, by
 * index (the general scanner's and the one-pass scanner's field spans).
 * A header of its own so that event_fast, which event_scan calls, needs
 * nothing of event_scan: the dependency runs one way.
 */
#ifndef CSIM_EVENT_FIELDS_H
#define CSIM_EVENT_FIELDS_H

/*
 * The last two are members of args, read in the same scan (an instruction's
 * address and the bytes it moved are wanted of nearly every event): their
 * value text when args is an object that has them, as the general member
 * walk finds them (read/event_args.h: plain keys, the last of a repeated one).
 */
enum csim_event_field {
	CSIM_F_PH, CSIM_F_NAME, CSIM_F_PID, CSIM_F_TID, CSIM_F_TS, CSIM_F_DUR,
	CSIM_F_ARGS, CSIM_F_ID, CSIM_F_ARG_BYTES, CSIM_F_ARG_PC, CSIM_F_COUNT
};

/* The scanners fill the two args members as one pair, from &field[CSIM_F_ARG_BYTES]. */
_Static_assert(CSIM_F_ARG_PC == CSIM_F_ARG_BYTES + 1, "the args members are one pair");

#endif
