/*
 * check_scan: the elements of a trace file's event array, one at a time,
 * through a bounded window: {"traceEvents":[...], ...} or a bare array,
 * plain or gzip (by content; csim_stream). The window grows only to hold
 * the largest single event, so a trace of any size is checked in a few MB
 * plus what the rules keep per slice.
 *
 * The whole file is validated as one JSON value: a syntax error, or
 * anything after the value, is an input error naming the file and the
 * byte offset (in the decompressed text for gzip input).
 */
#ifndef CSIM_CHECK_SCAN_H
#define CSIM_CHECK_SCAN_H

#include <stddef.h>
#include <stdint.h>

#include "base/csim_error.h"
#include "base/span.h"
#include "read/byte_window.h"
#include "read/input_stream.h"
#include "read/json_scan.h"

struct csim_check_scan {
	struct csim_stream stream;
	struct csim_byte_window w;      /* offsets are the file's (inflated for gzip) */
	struct csim_byte_source source; /* the stream */
	int state;
	int bare;               /* the top level is the array itself */
	int saw_events;
	int not_trace;          /* the error is the shape, not the syntax */
	struct csim_json_stack stack;
	char *time_unit;        /* raw text of displayTimeUnit, or NULL */
};

/* Leaves sc safe to release. */
void csim_check_scan_init(struct csim_check_scan *sc);
int csim_check_scan_open(struct csim_check_scan *sc, const char *path,
			 struct csim_error *err);
void csim_check_scan_release(struct csim_check_scan *sc);

/*
 * The next element (valid JSON, any type) of the event array in *elem,
 * valid until the next call; *has is 0 once the whole file has been read
 * and found to be one valid JSON value with an event array.
 */
int csim_check_scan_next(struct csim_check_scan *sc, struct csim_span *elem,
			 int *has, struct csim_error *err);

/* The nesting stack, for walking the members of an element. */
struct csim_json_stack *csim_check_scan_stack(struct csim_check_scan *sc);

#endif
