/*
 * event_fast: the common shape of an event object, scanned in one pass.
 *
 * The producer writes every event as compact JSON: no whitespace, keys
 * without escapes, values that are scalars or one flat object (args). This
 * scanner accepts exactly that shape and nothing it does not fully
 * validate; anything else (whitespace, an escaped key, a nested container,
 * a value cut by the window's end, any malformed byte) makes it decline, and
 * the caller scans the event again with the general scanner, which then
 * gives the error, the wait for more bytes or the result. So accepting is
 * a fast path only: a declined event costs one extra partial scan.
 */
#ifndef CSIM_EVENT_FAST_H
#define CSIM_EVENT_FAST_H

#include <stddef.h>

#include "base/span.h"
#include "read/event_fields.h"

/* The event field a key names (csim_event_field), or -1. */
int csim_event_key_field(const char *key, size_t n);

/*
 * The event object at p ('{'), within [p, end). Returns 1 with the field
 * spans (absent ones left as they were), *depth (0, or 1 when a value is
 * an object), *escaped (bit f set when field f's value is a string with
 * an escape) and *stop (the byte after the closing '}'); 0 when it
 * declines, with field and *depth possibly changed.
 */
int csim_event_fast_scan(const char *p, const char *end,
			 struct csim_span field[CSIM_F_COUNT], size_t *depth,
			 unsigned *escaped, const char **stop);

/*
 * The values of keys[0..nkeys) in the flat object obj (an args value the
 * scanner accepted): values[i] is the span of keys[i]'s value, or absent.
 * Returns 1, or 0 when it declines (whitespace, an escaped key, a nested
 * container, a key found twice): the caller then walks obj in general.
 */
int csim_event_fast_find(struct csim_span obj, const char *const *keys,
			 size_t nkeys, struct csim_span *values);

#endif
