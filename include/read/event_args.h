/*
 * event_args: reads single members out of an event's args text, which the
 * scanner has validated (so a walk fails only for want of memory). st is
 * a nesting stack the caller owns (csim_trace_scan_stack(), or its own).
 */
#ifndef CSIM_EVENT_ARGS_H
#define CSIM_EVENT_ARGS_H

#include <stdint.h>

#include "base/span.h"

struct csim_json_stack;

/*
 * The value text of args.process_bytes and args.pc_addr into members[0]
 * and [1] (absent: p NULL) in one walk: the producer's plain spellings
 * (an escaped key is not one), the last of a repeated key. The one-pass
 * scanner reads the same while it scans (event_fields.h); this is the
 * general scanner's. 0, or -1 out of memory.
 */
int csim_event_args_members(struct csim_json_stack *st, struct csim_span args,
			    struct csim_span members[2]);

/*
 * process_bytes's value v (an event's CSIM_F_ARG_BYTES): a decimal string,
 * as the producer writes it, or a number. 1 and *bytes when it holds a
 * non-negative integer, else 0.
 */
int csim_event_bytes_value(struct csim_span v, uint64_t *bytes);

/*
 * The args of a slice whose pc_addr ("0x..." string) is a number: 1 and
 * *addr; *has_source tells whether args already has a "source" member.
 * 0 when there is no such pc_addr, -1 out of memory. st is the caller's
 * nesting stack (the args were validated when first read).
 */
int csim_event_pc_addr(struct csim_json_stack *st, struct csim_span args, uint64_t *addr,
		       int *has_source);

#endif
