/*
 * number_grid: a JSON number of microseconds onto the integer-nanosecond
 * grid the viewers use, llround(strtod(text) * 1000.0), exactly; and the
 * bounded strtod() that both that grid and the scanner's numbers use.
 *
 * Timestamps are the converter's only numbers and there are millions of
 * them; strtod() was a tenth of the run. Most texts get strtod()'s exact
 * value from integer arithmetic on their decimal digits (Clinger's path or
 * Eisel-Lemire's), and the grid from that value by its definition; the rare
 * ones too long or too far out for that go through strtod().
 */
#ifndef CSIM_NUMBER_GRID_H
#define CSIM_NUMBER_GRID_H

#include <stddef.h>
#include <stdint.h>

/* Beyond this many ns (~104 days) a timestamp is treated as absurd. */
#define CSIM_GRID_LIMIT_NS 9.0e15

/*
 * p[0..n) is a validated JSON number followed by a non-digit (as the scanner
 * hands it out). Returns 1 and *ns, or 0 when |value * 1000| is not below
 * limit (or not finite).
 */
int csim_number_grid(const char *p, size_t n, double limit, int64_t *ns);

/*
 * csim_number_grid(), and also the value itself as strtod() reads it (the
 * float times of SPEC §4's occupancy intervals), parsing the text once.
 */
int csim_number_grid_value(const char *p, size_t n, double limit, int64_t *ns,
			   double *value);

/* 10^k for k <= 19: every power of ten a uint64_t holds. */
extern const uint64_t csim_pow10_u64[20];

/*
 * A number's decimal digits: value = (neg ? -1 : 1) * m * 10^-scale when
 * exact; not exact when it has more than 19 significant digits (the rest
 * are not in m).
 */
struct csim_decimal {
	uint64_t m;
	int scale;
	int neg;
	int exact;
};

/* csim_number_grid_value(), and the number's decimal digits in *d. */
int csim_number_grid_decimal(const char *p, size_t n, double limit, int64_t *ns,
			     double *value, struct csim_decimal *d);

/*
 * strtod() of exactly p[0..n), never reading past it: 1 and *value when the
 * whole text is one number, 0 otherwise.
 */
int csim_number_parse(const char *p, size_t n, double *value);

/*
 * An address as the producer writes it, "0x" and 1 to 16 hex digits
 * (either case), exactly p[0..n): 1 and *value, 0 otherwise.
 */
int csim_number_hex(const char *p, size_t n, uint64_t *value);

#endif
