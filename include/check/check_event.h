/*
 * check_event: the per-event rules of --check (fields each phase needs,
 * phase, cname, flow id and bp, metadata form) and the records the
 * whole-trace rules need later (slices, flow ends, metadata, used ids).
 */
#ifndef CSIM_CHECK_EVENT_H
#define CSIM_CHECK_EVENT_H

#include <stdint.h>

#include "base/csim_error.h"
#include "base/span.h"
#include "check/check_state.h"
#include "read/json_scan.h"

/*
 * One element of the event array, text already validated as JSON. Rule
 * breaks are reported to st->rep; the return is CSIM_OK or, out of
 * memory, CSIM_E_INPUT.
 */
int csim_check_event(struct csim_check_state *st, struct csim_json_stack *stack,
		     struct csim_span elem, uint64_t index, struct csim_error *err);

#endif
