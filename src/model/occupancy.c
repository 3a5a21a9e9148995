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

struct csim_occupancy csim_slice_true_interval(const struct csim_slice *s)
{
	struct csim_occupancy o = { s->a, s->a };

	if (!csim_slice_is_point(s))
		o.hi = fmax(s->a, s->b - noise_tol(s->a));
	return o;
}

/* Min-heap of the ends of the intervals in progress. */
static void heap_push(double *h, size_t *n, double v)
{
	size_t i = (*n)++;

	while (i > 0 && h[(i - 1) / 2] > v) {
		h[i] = h[(i - 1) / 2];
		i = (i - 1) / 2;
	}
	h[i] = v;
}

static void heap_pop(double *h, size_t *n)
{
	double last = h[--(*n)];
	size_t i = 0;

	for (;;) {
		size_t c = 2 * i + 1;

		if (c >= *n)
			break;
		if (c + 1 < *n && h[c + 1] < h[c])
			c++;
		if (h[c] >= last)
			break;
		h[i] = h[c];
		i = c;
	}
	if (*n > 0)
		h[i] = last;
}

uint32_t csim_occupancy_depth(const struct csim_occupancy *iv, size_t n, int any_slice,
			      double *heap)
{
	size_t live = 0, peak = 0;

	for (size_t i = 0; i < n; i++) {
		if (!(iv[i].hi > iv[i].lo))
			continue;
		/* half-open: an interval ending where this one starts is over */
		while (live > 0 && heap[0] <= iv[i].lo)
			heap_pop(heap, &live);
		heap_push(heap, &live, iv[i].hi);
		if (live > peak)
			peak = live;
	}
	if (peak == 0 && (any_slice || n > 0))
		peak = 1;
	return peak > UINT32_MAX ? UINT32_MAX : (uint32_t)peak;
}
