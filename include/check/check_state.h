/*
 * check_state: what --check keeps of a trace while it streams through it,
 * a few dozen bytes per slice and per arrow end, and the counts it prints.
 * Filled by check_event, read by the rule modules.
 */
#ifndef CSIM_CHECK_STATE_H
#define CSIM_CHECK_STATE_H

#include <stddef.h>
#include <stdint.h>

#include "check/check_ids.h"
#include "check/check_report.h"

/* An X slice on both viewers' grids. */
struct csim_check_slice {
	uint32_t thread;
	int64_t start;    /* Perfetto's ns grid: llround(ts*1000) */
	int64_t end;      /* start + llround(dur*1000): rounded separately */
	double a;         /* float ns as catapult keeps them: ts*1000 */
	double b;         /* (ts + dur)*1000 */
	uint64_t index;   /* position in the event array */
};

/* An s or f flow event. */
struct csim_check_flow {
	uint32_t thread;
	uint32_t cat, name;   /* csim_check_ids names */
	int64_t id;
	double ts;
	int64_t ns;       /* llround(ts*1000): the order the viewers sort by */
	int64_t t2;       /* llround(ts*2000): half-ns grid for the binding rule */
	uint64_t index;
};

struct csim_check_flows {
	struct csim_check_flow *v;
	size_t n, cap;
};

struct csim_check_state {
	struct csim_check_report rep;
	struct csim_check_ids ids;
	struct csim_check_slice *slices;
	size_t nslices, slices_cap;
	struct csim_check_flows starts, ends;
	size_t n_x, n_s, n_f, n_c;   /* events by phase, usable or not */
	char *scratch;               /* decoded strings of the current event */
	size_t scratch_cap;
};

#endif
