#include "model/occupancy.h"

#include <math.h>

/*
 * A float32 time near a is off by up to |a| * 2^-24; tol allows a few such
 * errors between two neighbours, and never less than a quarter ns. The
 * product by 2^-22 is exact (or rounds as ldexp would, far below 0.25),
 * and spares a libm call per slice.
 */
static double noise_tol(double a)
{
	return fmax(0.25, fabs(a) * 0x1p-22);
}

int csim_slice_is_point(const struct csim_slice *s)
{
	return s->end == s->start || s->b - s->a < 1.0;
}

struct csim_occupancy csim_slice_occupancy(const struct csim_slice *s)
{
	const double tol = noise_tol(s->a);
	const double grid_end = (double)s->end - 0.5;
	struct csim_occupancy o;

	if (csim_slice_is_point(s)) {
		o.lo = s->a - 1.0 - tol;
		o.hi = fmax(fmax((double)s->start + 0.5, s->b - tol), grid_end);
	} else {
		o.lo = s->a;
		o.hi = fmax(s->b - tol, grid_end);
	}
	return o;
}

double csim_slice_completion(const struct csim_slice *s)
{
	return s->b - noise_tol(s->a);
}
