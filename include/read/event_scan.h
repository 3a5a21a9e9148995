/*
 * event_scan: pulls Chrome-trace events one at a time out of a TRACE payload.
 *
 * The payload ({"traceEvents":[...]} or a bare array) is read through a
 * bounded window; no JSON tree is ever built. Each event comes back as spans
 * of its raw value text (so numbers and strings can be written out with
 * exactly the input's bytes) plus decoded copies of the few strings the
 * converter classifies by. Pointers in an event stay valid until the next
 * call on the scanner.
 *
 * The scanner is opaque (csim_trace_scan_new): its window and buffers are
 * reached only through the functions below.
 */
#ifndef CSIM_EVENT_SCAN_H
#define CSIM_EVENT_SCAN_H

#include <stddef.h>
#include <stdint.h>

#include "read/block_reader.h"
#include "base/csim_error.h"
#include "base/span.h"
#include "read/event_fields.h"

struct csim_json_stack;

enum csim_value_kind {
	CSIM_VALUE_ABSENT = 0,
	CSIM_VALUE_STRING,
	CSIM_VALUE_NUMBER,
	CSIM_VALUE_OTHER
};

/* One decoded text field: string contents, or a number's digits. */
struct csim_text {
	const char *p;
	size_t n;
	enum csim_value_kind kind;
};

struct csim_event {
	uint64_t offset;                      /* payload offset of the event */
	int is_object;
	struct csim_span raw;                 /* the whole event */
	struct csim_span field[CSIM_F_COUNT]; /* raw value text per field */
	struct csim_text ph, name, pid, tid, id;
	size_t depth;                         /* deepest nesting in its values */
	/* bit f: field f's string may hold an escape (all set: not known) */
	unsigned escaped;
};

/* The scanner; its state is its own. One per reading, reused block to block. */
struct csim_trace_scan;

/* *sc is NULL when it fails (out of memory). */
int csim_trace_scan_new(struct csim_trace_scan **sc, struct csim_error *err);
/* Accepts NULL. */
void csim_trace_scan_free(struct csim_trace_scan *sc);

/* Starts on a TRACE block whose payload the reader is positioned at. */
int csim_trace_scan_begin(struct csim_trace_scan *sc,
			  struct csim_block_reader *reader,
			  const struct csim_block *block, struct csim_error *err);

/* Next event; *has_event is 0 once the payload is fully and validly read. */
int csim_trace_scan_next(struct csim_trace_scan *sc, struct csim_event *ev,
			 int *has_event, struct csim_error *err);

/*
 * The two halves of csim_trace_scan_next(), for a reading split over two
 * threads (scan_pipe.h): next_raw() scans the next event (its texts left
 * absent); texts() decodes an event's ph, name, pid, tid and id into the
 * given scanner's buffers (valid until its next call), any scanner's, so
 * the decoding can run on the other thread.
 */
int csim_trace_scan_next_raw(struct csim_trace_scan *sc, struct csim_event *ev,
			     int *has_event, struct csim_error *err);
int csim_trace_scan_texts(struct csim_trace_scan *sc, struct csim_event *ev,
			  struct csim_error *err);

/*
 * Hands over the raw JSON text of the payload object's profilingType and
 * schemaVersion read so far (NULL when absent, as in the bare-array form);
 * the caller frees them. begin() forgets values not taken.
 */
void csim_trace_scan_take_top_level(struct csim_trace_scan *sc,
				    char **profiling_type, char **schema_version);

/*
 * The second reading: the len-byte event the first reading found at payload
 * offset (offsets must not decrease within a block; begin() on the block
 * first). Fills ev->offset and ev->raw only; an input error when the bytes
 * there are no longer an object. Valid until the next scanner call.
 */
int csim_trace_scan_event_at(struct csim_trace_scan *sc, uint64_t offset,
			     size_t len, struct csim_event *ev, struct csim_error *err);

/*
 * Fills the field spans of an event csim_trace_scan_event_at() returned by
 * parsing it again (for a caller with no record of where they lie); an input
 * error when it no longer parses to the same length.
 */
int csim_trace_scan_event_fields(struct csim_trace_scan *sc, struct csim_event *ev,
				 struct csim_error *err);

/* Parses a number value; 0 when the span is absent or not a number. */
int csim_span_number(struct csim_span span, double *value);

/*
 * Finds args.detail of an event as decoded text; returns 1 when found, 0 when
 * args is not an object or has no string "detail", -1 when out of memory.
 * Valid until the next scanner call.
 */
/* The scanner's nesting stack, for walking an event's validated values. */
struct csim_json_stack *csim_trace_scan_stack(struct csim_trace_scan *sc);

int csim_event_detail(struct csim_trace_scan *sc, const struct csim_event *ev,
		      struct csim_text *detail);

#endif
