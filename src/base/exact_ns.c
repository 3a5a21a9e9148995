#include "base/exact_ns.h"

#ifdef __SIZEOF_INT128__
__extension__ typedef unsigned __int128 u128;

/* 10^k for k <= 38, the largest power a u128 holds. */
static u128 pow10_128(int k)
{
	u128 v = 1;

	while (k-- > 0)
		v *= 10;
	return v;
}


/*
 * neg * m * 10^-scale ns, rounded half away from zero, scale >= -38 and
 * m < 10^38; 0 when beyond ±limit.
 */
static int round_scaled(u128 m, int scale, int neg, int64_t limit, int64_t *ns)
{
	u128 q;

	if (scale <= 0) {
		if (scale < -18 && m != 0)
			return 0;
		q = m * pow10_128(-scale);   /* m < 10^38 and the check below */
		if (m != 0 && q / m != pow10_128(-scale))
			return 0;
	} else if (scale > 38) {
		q = 0;                       /* below 10^-0 / 10: rounds to 0 */
	} else if (scale <= 19 && (m >> 64) == 0) {
		/* the times of a trace: a 64-bit division, not a 128-bit one */
		uint64_t d = csim_pow10_u64[scale], m64 = (uint64_t)m, q64 = m64 / d, r = m64 - q64 * d;

		q = q64 + (r >= d - r);
	} else {
		u128 d = pow10_128(scale), r;

		q = m / d;
		r = m - q * d;
		q += r >= d - r;             /* 2r >= d, without overflow */
	}
	if (q > (u128)limit)
		return 0;
	*ns = neg ? -(int64_t)q : (int64_t)q;
	return 1;
}

int csim_exact_ns(const struct csim_decimal *d, int64_t limit, int64_t *ns)
{
	if (!d->exact)
		return 0;
	return round_scaled(d->m, d->scale - 3, d->neg, limit, ns);
}

int csim_exact_ns_sum(const struct csim_decimal *a, const struct csim_decimal *b,
		      int64_t limit, int64_t *ns)
{
	int scale = a->scale > b->scale ? a->scale : b->scale;
	u128 x, y, m;
	int neg;

	if (!a->exact || !b->exact || scale - a->scale > 19 || scale - b->scale > 19)
		return 0;
	x = (u128)a->m * pow10_128(scale - a->scale);   /* < 10^19 * 10^19 */
	y = (u128)b->m * pow10_128(scale - b->scale);
	if (a->neg == b->neg) {
		m = x + y;
		neg = a->neg;
	} else if (x >= y) {
		m = x - y;
		neg = a->neg;
	} else {
		m = y - x;
		neg = b->neg;
	}
	return round_scaled(m, scale - 3, neg && m != 0, limit, ns);
}
#else
int csim_exact_ns(const struct csim_decimal *d, int64_t limit, int64_t *ns)
{
	(void)d;
	(void)limit;
	(void)ns;
	return 0;
}

int csim_exact_ns_sum(const struct csim_decimal *a, const struct csim_decimal *b,
		      int64_t limit, int64_t *ns)
{
	(void)a;
	(void)b;
	(void)limit;
	(void)ns;
	return 0;
}
#endif
