/*
 * exact_ns: a time in µs, as its decimal text says, onto integer
 * nanoseconds with no binary float in between (SPEC §15): the value times
 * 1000 rounded half away from zero, for a timestamp and for the end of a
 * slice (ts + dur, added as decimals). The viewers' grid
 * (base/number_grid.h) rounds a double instead, and the start and the
 * duration apart; on ties the two differ by a nanosecond.
 */
#ifndef CSIM_EXACT_NS_H
#define CSIM_EXACT_NS_H

#include <stdint.h>

#include "base/number_grid.h"

/*
 * 1 and *ns when the decimal is exact and its ns within ±limit; 0 when it
 * is not (more than 19 significant digits), the caller then rounding the
 * double it has.
 */
int csim_exact_ns(const struct csim_decimal *d, int64_t limit, int64_t *ns);

/* The same for the sum a + b of two decimals (a slice's ts + dur). */
int csim_exact_ns_sum(const struct csim_decimal *a, const struct csim_decimal *b,
		      int64_t limit, int64_t *ns);

#endif
