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

/* What the ingest reads of an instruction slice's args. */
struct csim_slice_args {
	int has_bytes;      /* args.process_bytes (a decimal string, as the
			       producer writes it, or a number) held a
			       non-negative integer: *bytes */
	uint64_t bytes;
	int has_pc;         /* args.pc_addr ("0x...") is an address: pc */
	uint64_t pc;
};

/*
 * process_bytes and pc_addr of a slice's args in one walk (an instruction
 * pays for one, the MTE ones asked for both). Keys are the producer's plain
 * spellings: an escaped one is not it. 0, or -1 out of memory.
 */
int csim_event_slice_args(struct csim_json_stack *st, struct csim_span args,
			  struct csim_slice_args *out);

/*
 * The args of a slice whose pc_addr ("0x..." string) is a number: 1 and
 * *addr; *has_source tells whether args already has a "source" member.
 * 0 when there is no such pc_addr, -1 out of memory. st is the caller's
 * nesting stack (the args were validated when first read).
 */
int csim_event_pc_addr(struct csim_json_stack *st, struct csim_span args, uint64_t *addr,
		       int *has_source);

#endif
