#include "base/number_grid.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Digits that always fit a uint64 mantissa. */
#define MAX_DIGITS 19

struct decimal {
	uint64_t m;        /* significant digits */
	int scale;         /* value = m * 10^-scale */
	int neg;
	int exact;         /* every digit made it into m */
};

static const uint64_t pow10_u64[20] = {
	1ull, 10ull, 100ull, 1000ull, 10000ull, 100000ull, 1000000ull,
	10000000ull, 100000000ull, 1000000000ull, 10000000000ull,
	100000000000ull, 1000000000000ull, 10000000000000ull,
	100000000000000ull, 1000000000000000ull, 10000000000000000ull,
	100000000000000000ull, 1000000000000000000ull,
	10000000000000000000ull,
};

static void take_digit(struct decimal *d, int *sig, char c, int fraction)
{
	if (*sig >= MAX_DIGITS) {
		d->exact &= c == '0' && fraction;   /* trailing zeros lose nothing */
		return;
	}
	d->m = d->m * 10 + (uint64_t)(c - '0');
	if (d->m != 0)
		(*sig)++;
	if (fraction)
		d->scale++;
}

#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
/*
 * Timestamps are float32 values printed with 17 digits, most of them after
 * the point: eight digits at a time (the SWAR digit tests and the three
 * multiply-shift folds), when all eight are digits.
 */
static int eight_digits(const char *p, uint64_t *v)
{
	uint64_t w;

	memcpy(&w, p, sizeof(w));
	if ((((w & 0xF0F0F0F0F0F0F0F0ull) |
	      (((w + 0x0606060606060606ull) & 0xF0F0F0F0F0F0F0F0ull) >> 4))) !=
	    0x3333333333333333ull)
		return 0;
	w = (w & 0x0F0F0F0F0F0F0F0Full) * 2561 >> 8;
	w = (w & 0x00FF00FF00FF00FFull) * 6553601 >> 16;
	*v = (w & 0x0000FFFF0000FFFFull) * 42949672960001ull >> 32;
	return 1;
}

/* Digits of m, m > 0. */
static int digits_of(uint64_t m)
{
	int n = 0;

	for (; m != 0; m /= 10)
		n++;
	return n;
}

/* take_digit() over eight fraction digits at once, while nothing is lost. */
static const char *take_fraction8(struct decimal *d, int *sig, const char *p,
				  const char *end)
{
	uint64_t v;

	while (end - p >= 8 && *sig + 8 <= MAX_DIGITS && eight_digits(p, &v)) {
		int was_zero = d->m == 0;

		d->m = d->m * 100000000ull + v;
		if (d->m != 0)
			*sig = was_zero ? digits_of(d->m) : *sig + 8;
		d->scale += 8;
		p += 8;
	}
	return p;
}
#else
static const char *take_fraction8(struct decimal *d, int *sig, const char *p,
				  const char *end)
{
	(void)d;
	(void)sig;
	(void)end;
	return p;
}
#endif

static void parse_decimal(const char *p, const char *end, struct decimal *d)
{
	int sig = 0, e = 0, eneg = 0;

	d->m = 0;
	d->scale = 0;
	d->exact = 1;
	d->neg = *p == '-';
	p += d->neg;
	for (; p < end && *p >= '0' && *p <= '9'; p++) {
		if (sig >= MAX_DIGITS) {
			d->exact = 0;   /* an integer part beyond 19 digits */
			continue;
		}
		take_digit(d, &sig, *p, 0);
	}
	if (p < end && *p == '.')
		for (p = take_fraction8(d, &sig, p + 1, end);
		     p < end && *p >= '0' && *p <= '9'; p++)
			take_digit(d, &sig, *p, 1);
	if (p < end && (*p == 'e' || *p == 'E')) {
		p++;
		eneg = *p == '-';
		p += *p == '-' || *p == '+';
		for (; p < end && *p >= '0' && *p <= '9'; p++)
			e = e < 10000 ? e * 10 + (*p - '0') : e;
	}
	d->scale -= eneg ? -e : e;
}

/*
 * The fast answer, when it is certainly the one strtod() and a double
 * multiplication would give: returns 0 to ask for the slow path.
 */
static int grid_fast(const struct decimal *d, int64_t *ns)
{
	int k = d->scale - 3;   /* value * 1000 = m * 10^-k */
	uint64_t q, a, b;

	if (!d->exact || d->scale > 400 || d->scale < -400)
		return 0;
	if (k <= 0) {
		if (k < -18 || d->m > (UINT64_C(1) << 50) / pow10_u64[-k])
			return 0;
		q = d->m * pow10_u64[-k];   /* whole nanoseconds, exact */
	} else if (k > MAX_DIGITS) {
		q = 0;                      /* below 0.1 ns */
	} else {
		uint64_t pow = pow10_u64[k];
		double margin;

		q = d->m / pow;
		a = d->m % pow;             /* fraction = a / pow */
		b = pow - a;
		if (a == b || q >= (UINT64_C(1) << 50))
			return 0;
		/*
		 * The double path errs by at most ~2^-52 of the value; its
		 * rounding agrees with the exact one unless the fraction lies
		 * that close to one half. Keep a wide margin.
		 */
		margin = (double)(a > b ? a - b : b - a) / (double)pow;
		if (margin <= ((double)q + 1.0) * 1e-13)
			return 0;
		q += a > b;
	}
	*ns = d->neg ? -(int64_t)q : (int64_t)q;
	return 1;
}

/*
 * A double is decided by its first 768 significant decimal digits and by
 * whether any digit after them is non-zero, so a longer number keeps those
 * digits, a sticky 1 for the rest, and its exponent.
 */
#define KEEP_DIGITS 768
#define EXP_CLAMP 100000   /* far beyond any finite non-zero double */

struct number_text {
	char buf[KEEP_DIGITS + 40];
	size_t len;
};

static void text_put(struct number_text *t, char c)
{
	t->buf[t->len++] = c;
}

static int64_t clamp_exp(int64_t e)
{
	return e > EXP_CLAMP ? EXP_CLAMP : e < -EXP_CLAMP ? -EXP_CLAMP : e;
}

/* "-DDDD…e<exp>" of a validated JSON number that is too long to copy. */
static void shorten_number(const char *p, const char *end, struct number_text *t)
{
	int64_t point = 0, e = 0;   /* value = 0.DIGITS * 10^(point + e) */
	size_t kept = 0;
	int sticky = 0, seen = 0, fraction = 0, eneg;

	t->len = 0;
	if (*p == '-')
		text_put(t, *p++);
	text_put(t, '0');
	text_put(t, '.');
	for (; p < end && *p != 'e' && *p != 'E'; p++) {
		if (*p == '.') {
			fraction = 1;
			continue;
		}
		seen |= *p != '0';
		if (!seen) {            /* leading zeros move the point only */
			point -= fraction;
			continue;
		}
		point += !fraction;
		if (kept < KEEP_DIGITS) {
			text_put(t, *p);
			kept++;
		} else {
			sticky |= *p != '0';
		}
	}
	if (kept == 0)
		text_put(t, '0');
	if (sticky)
		text_put(t, '1');
	if (p < end) {
		p++;
		eneg = *p == '-';
		p += *p == '-' || *p == '+';
		for (; p < end; p++)
			e = clamp_exp(e * 10 + (*p - '0'));
		e = eneg ? -e : e;
	}
	t->len += (size_t)snprintf(t->buf + t->len, sizeof(t->buf) - t->len, "e%lld",
				   (long long)clamp_exp(point + e));
}

static const char *digits_end(const char *p, const char *end)
{
	while (p < end && *p >= '0' && *p <= '9')
		p++;
	return p;
}

/* Whether p[0..end) is exactly one number of the JSON grammar. */
static int is_json_number(const char *p, const char *end)
{
	const char *q;

	p += p < end && *p == '-';
	q = digits_end(p, end);
	if (q == p || (*p == '0' && q - p > 1))
		return 0;
	if (q < end && *q == '.') {
		p = q + 1;
		q = digits_end(p, end);
		if (q == p)
			return 0;
	}
	if (q < end && (*q == 'e' || *q == 'E')) {
		p = q + 1;
		p += p < end && (*p == '+' || *p == '-');
		q = digits_end(p, end);
		if (q == p)
			return 0;
	}
	return q == end;
}

static int value_fast(const struct decimal *d, double *v);
static int value_wide(const struct decimal *d, double *v);

int csim_number_parse(const char *p, size_t n, double *value)
{
	struct number_text t;
	struct decimal d;
	char *endp;

	/* Metrics columns are millions of short JSON numbers: most need no
	   strtod(), whose answer the exact paths give bit for bit. */
	if (is_json_number(p, p + n)) {
		parse_decimal(p, p + n, &d);
		if (value_fast(&d, value) || value_wide(&d, value))
			return 1;
	}
	if (n < sizeof(t.buf)) {
		memcpy(t.buf, p, n);
		t.len = n;
	} else {
		shorten_number(p, p + n, &t);
	}
	t.buf[t.len] = '\0';
	*value = strtod(t.buf, &endp);
	return t.len > 0 && endp == t.buf + t.len;
}

/*
 * strtod()'s answer when it certainly is one IEEE operation on exact
 * operands (Clinger's fast path): a mantissa below 2^53 and a power of ten
 * that a double holds exactly. Returns 0 to ask for strtod().
 */
static int value_fast(const struct decimal *d, double *v)
{
	static const double pow10_dbl[23] = {
		1e0, 1e1, 1e2, 1e3, 1e4, 1e5, 1e6, 1e7, 1e8, 1e9, 1e10, 1e11,
		1e12, 1e13, 1e14, 1e15, 1e16, 1e17, 1e18, 1e19, 1e20, 1e21, 1e22,
	};

	if (!d->exact || d->m > (UINT64_C(1) << 53) || d->scale > 22 || d->scale < -22)
		return 0;
	*v = d->scale >= 0 ? (double)d->m / pow10_dbl[d->scale]
			   : (double)d->m * pow10_dbl[-d->scale];
	if (d->neg)
		*v = -*v;
	return 1;
}

#ifdef __SIZEOF_INT128__
__extension__ typedef unsigned __int128 u128;

/* Deepest 10^k that value_div() takes: see there. */
#define DIV_MAX_K 21

/*
 * m * 10^-k correctly rounded (to nearest, ties to even), for the 17-digit
 * mantissas of float32 values printed as doubles that Clinger's path
 * cannot take: m (< 2^64) shifted to the top of 128 bits and divided by
 * 10^k (k <= 21, so 10^k < 2^70) leaves a quotient of at least 57 bits and
 * an exact remainder, so the 53 kept bits, the rounding bit and the sticky
 * rest are all known. Results are far above the subnormal range (>= 1e-21),
 * so the double is assembled from its fields rather than by ldexp().
 */
static double value_div(uint64_t m, int k)
{
	int lz = __builtin_clzll(m), drop, bits, e;
	u128 pow = k <= 19 ? (u128)pow10_u64[k] : (u128)pow10_u64[19] * pow10_u64[k - 19];
	u128 num = (u128)m << (64 + lz), q = num / pow;
	int sticky = num % pow != 0;
	uint64_t hi = (uint64_t)(q >> 64), mant, bits64;
	u128 rest, half;
	double v;

	bits = hi != 0 ? 128 - __builtin_clzll(hi) : 64 - __builtin_clzll((uint64_t)q);
	drop = bits - 53;
	mant = (uint64_t)(q >> drop);
	rest = q & (((u128)1 << drop) - 1);
	half = (u128)1 << (drop - 1);
	e = drop - 64 - lz;   /* value = mant * 2^e */
	if (rest > half || (rest == half && (sticky || (mant & 1))))
		mant++;
	if (mant >> 53) {     /* the carry made 2^53 */
		mant >>= 1;
		e++;
	}
	bits64 = (uint64_t)(e + 52 + 1023) << 52 | (mant & ((UINT64_C(1) << 52) - 1));
	memcpy(&v, &bits64, sizeof(v));
	return v;
}
#endif

/*
 * The value beyond Clinger's path: exact integers below 2^64, and (where
 * the compiler has 128-bit integers) any 19-digit mantissa over 10^k.
 * Returns 0 to ask for strtod().
 */
static int value_wide(const struct decimal *d, double *v)
{
	if (!d->exact || d->m == 0)
		return 0;
	if (d->scale <= 0) {
		if (d->scale < -19 || d->m > UINT64_MAX / pow10_u64[-d->scale])
			return 0;
		*v = (double)(d->m * pow10_u64[-d->scale]);   /* rounds once */
	} else {
#ifdef __SIZEOF_INT128__
		if (d->scale > DIV_MAX_K)
			return 0;
		*v = value_div(d->m, d->scale);
#else
		return 0;
#endif
	}
	if (d->neg)
		*v = -*v;
	return 1;
}

static int grid_of(const struct decimal *d, const char *p, size_t n,
		   double limit, int64_t *ns)
{
	double v;

	if (grid_fast(d, ns))
		return (double)*ns > -limit && (double)*ns < limit;
	if (!csim_number_parse(p, n, &v))
		return 0;
	v *= 1000.0;
	if (!(v > -limit && v < limit))
		return 0;
	*ns = llround(v);
	return 1;
}

int csim_number_grid(const char *p, size_t n, double limit, int64_t *ns)
{
	struct decimal d;

	parse_decimal(p, p + n, &d);
	return grid_of(&d, p, n, limit, ns);
}

int csim_number_grid_value(const char *p, size_t n, double limit, int64_t *ns,
			   double *value)
{
	struct decimal d;

	parse_decimal(p, p + n, &d);
	if (!grid_of(&d, p, n, limit, ns))
		return 0;
	return value_fast(&d, value) || value_wide(&d, value) ||
	       csim_number_parse(p, n, value);
}

int csim_number_hex(const char *p, size_t n, uint64_t *value)
{
	uint64_t a = 0;

	if (n < 3 || n > 18 || p[0] != '0' || (p[1] != 'x' && p[1] != 'X'))
		return 0;
	for (size_t i = 2; i < n; i++) {
		char ch = p[i];
		unsigned dig = ch >= '0' && ch <= '9' ? (unsigned)(ch - '0')
			       : ch >= 'a' && ch <= 'f' ? (unsigned)(ch - 'a' + 10)
			       : ch >= 'A' && ch <= 'F' ? (unsigned)(ch - 'A' + 10) : 16u;

		if (dig == 16)
			return 0;
		a = a << 4 | dig;
	}
	*value = a;
	return 1;
}
