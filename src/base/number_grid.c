#include "base/number_grid.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Digits that always fit a uint64 mantissa. */
#define MAX_DIGITS 19

const uint64_t csim_pow10_u64[20] = {
	1ull, 10ull, 100ull, 1000ull, 10000ull, 100000ull, 1000000ull,
	10000000ull, 100000000ull, 1000000000ull, 10000000000ull,
	100000000000ull, 1000000000000ull, 10000000000000ull,
	100000000000000ull, 1000000000000000ull, 10000000000000000ull,
	100000000000000000ull, 1000000000000000000ull,
	10000000000000000000ull,
};

static void take_digit(struct csim_decimal *d, int *sig, char c, int fraction)
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

/* Every digit, one at a time: the general path of parse_decimal(). */
static void parse_digits(const char *p, const char *end, struct csim_decimal *d)
{
	int sig = 0, e = 0, eneg = 0;

	d->m = 0;
	d->scale = 0;
	d->exact = 1;
	d->neg = *p == '-';
	p += d->neg;
	for (; p < end && *p >= '0' && *p <= '9'; p++)
		take_digit(d, &sig, *p, 0);   /* past 19 digits: inexact */
	if (p < end && *p == '.')
		for (p++; p < end && *p >= '0' && *p <= '9'; p++)
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

#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
#define ONES 0x0101010101010101ull

/* The bytes of x = word ^ '0's that are no digit's value (not below 10): 0x80 each. */
static uint64_t non_digits(uint64_t x)
{
	return (((x & (ONES * 0x7f)) + ONES * 0x76) | x) & (ONES * 0x80);
}

/* Eight digit values, the first in the lowest byte, as a number: three folds. */
static uint64_t fold8(uint64_t x)
{
	x = (x & 0x0F0F0F0F0F0F0F0Full) * 2561 >> 8;
	x = (x & 0x00FF00FF00FF00FFull) * 6553601 >> 16;
	return (x & 0x0000FFFF0000FFFFull) * 42949672960001ull >> 32;
}

/*
 * The fraction digits p[0..end), all of them, as an integer in *f and
 * their count in *nf: eight a step, the last 1 to 7 through the text's last
 * eight bytes (the caller's text has eight) with the bytes before them made
 * '0's. 0 when a byte is not a digit (an exponent follows) or the
 * digits are more than 19.
 */
static int fraction_digits(const char *p, const char *end, uint64_t *f, int *nf)
{
	uint64_t w, x, acc = 0;
	size_t rest;

	for (*nf = 0; end - p >= 8 && *nf < MAX_DIGITS; p += 8, *nf += 8) {
		memcpy(&w, p, sizeof(w));
		x = w ^ (ONES * '0');
		if (non_digits(x) != 0)
			return 0;
		acc = acc * 100000000ull + fold8(x);
	}
	rest = (size_t)(end - p);
	if (*nf + (int)rest > MAX_DIGITS)   /* also: the loop stopped early */
		return 0;
	if (rest > 0) {
		memcpy(&w, end - 8, sizeof(w));
		x = (w ^ (ONES * '0')) & ~(~0ull >> 8 * rest);
		if (non_digits(x) != 0)
			return 0;
		acc = acc * csim_pow10_u64[rest] + fold8(x);
		*nf += (int)rest;
	}
	*f = acc;
	return 1;
}

/*
 * A text of at most seven characters after the sign (so at most seven
 * digits, exact), digits and at most one point, one digit at a time; 0 for
 * any other (an exponent).
 */
static int parse_short(const char *p, const char *end, struct csim_decimal *d)
{
	const char *q = p + (*p == '-');
	uint64_t m = 0;
	int scale = 0;

	for (; q < end && (unsigned)(*q - '0') < 10u; q++)
		m = m * 10 + (uint64_t)(*q - '0');
	if (q < end && *q == '.')
		for (q++; q < end && (unsigned)(*q - '0') < 10u; q++, scale++)
			m = m * 10 + (uint64_t)(*q - '0');
	if (q != end)
		return 0;
	d->m = m;
	d->scale = scale;
	d->neg = *p == '-';
	d->exact = 1;
	return 1;
}

/*
 * The producer's shapes: 1 to 7 integer digits, a point, at most 19
 * significant digits after it and no exponent, a word at a time; or a
 * short text. 0 for any other. The decimal is parse_digits()'s: m all the
 * digits, scale the fraction's length, exact.
 */
static int parse_fast(const char *p, const char *end, struct csim_decimal *d)
{
	const char *q = p + (*p == '-'), *f;
	uint64_t w, x, nd, ip, fr;
	int k, nf, zeros = 0;

	if (end - q < 8)
		return parse_short(p, end, d);
	memcpy(&w, q, sizeof(w));
	x = w ^ (ONES * '0');
	nd = non_digits(x);
	if (nd == 0)
		return 0;
	k = __builtin_ctzll(nd) >> 3;   /* the first non-digit */
	if (k == 0 || q[k] != '.')
		return 0;
	ip = fold8(x << 8 * (8 - k));
	f = q + k + 1;
	if (ip == 0)                    /* 0.000ddd: the zeros only scale */
		for (; f < end && *f == '0'; f++)
			zeros++;
	if (!fraction_digits(f, end, &fr, &nf) || (ip != 0 && k + nf > MAX_DIGITS))
		return 0;
	d->m = ip * csim_pow10_u64[nf] + fr;
	d->scale = zeros + nf;
	d->neg = *p == '-';
	d->exact = 1;
	return 1;
}
#else
static int parse_fast(const char *p, const char *end, struct csim_decimal *d)
{
	(void)p;
	(void)end;
	(void)d;
	return 0;
}
#endif

static void parse_decimal(const char *p, const char *end, struct csim_decimal *d)
{
	if (!parse_fast(p, end, d))
		parse_digits(p, end, d);
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

static int value_fast(const struct csim_decimal *d, double *v);
static int value_wide(const struct csim_decimal *d, double *v);

int csim_number_parse(const char *p, size_t n, double *value)
{
	struct number_text t;
	struct csim_decimal d;
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
static int value_fast(const struct csim_decimal *d, double *v)
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
 * 5^-k as a 128-bit fraction (hi, lo): floor(2^b / 5^k) + 1 for the b that
 * puts its top bit at bit 127, and e2, the binary exponent of its high
 * word: (((152170 + 65536) * -k) >> 16) + 63. Generated with Python's
 * integers; the Eisel-Lemire tables (fast_float) hold the same words.
 */
static const struct { uint64_t hi, lo; int e2; } inv5[DIV_MAX_K + 1] = {
	{ 0, 0, 0 },
	{ 0xcccccccccccccccc, 0xcccccccccccccccd, 59 },
	{ 0xa3d70a3d70a3d70a, 0x3d70a3d70a3d70a4, 56 },
	{ 0x83126e978d4fdf3b, 0x645a1cac083126ea, 53 },
	{ 0xd1b71758e219652b, 0xd3c36113404ea4a9, 49 },
	{ 0xa7c5ac471b478423, 0x0fcf80dc33721d54, 46 },
	{ 0x8637bd05af6c69b5, 0xa63f9a49c2c1b110, 43 },
	{ 0xd6bf94d5e57a42bc, 0x3d32907604691b4d, 39 },
	{ 0xabcc77118461cefc, 0xfdc20d2b36ba7c3e, 36 },
	{ 0x89705f4136b4a597, 0x31680a88f8953031, 33 },
	{ 0xdbe6fecebdedd5be, 0xb573440e5a884d1c, 29 },
	{ 0xafebff0bcb24aafe, 0xf78f69a51539d749, 26 },
	{ 0x8cbccc096f5088cb, 0xf93f87b7442e45d4, 23 },
	{ 0xe12e13424bb40e13, 0x2865a5f206b06fba, 19 },
	{ 0xb424dc35095cd80f, 0x538484c19ef38c95, 16 },
	{ 0x901d7cf73ab0acd9, 0x0f9d37014bf60a11, 13 },
	{ 0xe69594bec44de15b, 0x4c2ebe687989a9b4, 9 },
	{ 0xb877aa3236a4b449, 0x09befeb9fad487c3, 6 },
	{ 0x9392ee8e921d5d07, 0x3aff322e62439fd0, 3 },
	{ 0xec1e4a7db69561a5, 0x2b31e9e3d06c32e6, -1 },
	{ 0xbce5086492111aea, 0x88f4bb1ca6bcf585, -4 },
	{ 0x971da05074da7bee, 0xd3f6fc16ebca5e04, -7 },
};

/*
 * m * 10^-k correctly rounded (to nearest, ties to even), 0 < m < 2^64,
 * 1 <= k <= 21: the 17-digit mantissas of float32 values printed as
 * doubles that Clinger's path cannot take. Eisel and Lemire's algorithm
 * (Lemire, "Number parsing at a gigabyte per second", 2021; proven without
 * a fallback for these k by Mushtak and Lemire, 2023): m, normalised, times
 * the truncated 5^-k; the second word only when the first product's low
 * bits could carry into the 55 kept; a tie is possible only where 5^k fits
 * in 64 bits (k <= 4) and shows as a product with nothing below the kept
 * bits. Results lie far above the subnormal range (>= 1e-21), so the
 * double is assembled from its fields.
 */
static double value_div(uint64_t m, int k)
{
	int lz = __builtin_clzll(m), upper, shift, e;
	uint64_t w = m << lz, hi, lo, mant, bits;
	u128 prod = (u128)w * inv5[k].hi;
	double v;

	hi = (uint64_t)(prod >> 64);
	lo = (uint64_t)prod;
	if ((hi & 0x1ff) == 0x1ff) {
		uint64_t next = (uint64_t)(((u128)w * inv5[k].lo) >> 64);

		lo += next;
		hi += lo < next;
	}
	upper = (int)(hi >> 63);
	shift = upper + 9;            /* 64 - 52 - 3 bits below the kept 55 */
	mant = hi >> shift;
	e = inv5[k].e2 + upper - lz + 1023;
	if (lo <= 1 && k <= 4 && (mant & 3) == 1 && (mant << shift) == hi)
		mant &= ~UINT64_C(1);     /* exactly half way: to even, down */
	mant += mant & 1;
	mant >>= 1;
	if (mant >> 53) {             /* the carry made 2^53 */
		mant = UINT64_C(1) << 52;
		e++;
	}
	bits = (uint64_t)e << 52 | (mant & ((UINT64_C(1) << 52) - 1));
	memcpy(&v, &bits, sizeof(v));
	return v;
}
#endif

/*
 * The value beyond Clinger's path: exact integers below 2^64, and (where
 * the compiler has 128-bit integers) any 19-digit mantissa over 10^k.
 * Returns 0 to ask for strtod().
 */
static int value_wide(const struct csim_decimal *d, double *v)
{
	if (!d->exact || d->m == 0)
		return 0;
	if (d->scale <= 0) {
		if (d->scale < -19 || d->m > UINT64_MAX / csim_pow10_u64[-d->scale])
			return 0;
		*v = (double)(d->m * csim_pow10_u64[-d->scale]);   /* rounds once */
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

/* llround() for |x| < 2^53 (limit): x - (double)t is exact, t being x truncated. */
static int64_t round_half_away(double x)
{
	int64_t t = (int64_t)x;
	double f = x - (double)t;

	return t + (f >= 0.5) - (f <= -0.5);
}

/*
 * The grid straight from its definition, llround(strtod(text) * 1000.0),
 * with strtod()'s value from the exact paths where they answer.
 */
static int grid_of(const struct csim_decimal *d, const char *p, size_t n,
		   double limit, int64_t *ns, double *value)
{
	double x;

	if (!value_fast(d, value) && !value_wide(d, value) &&
	    !csim_number_parse(p, n, value))
		return 0;
	x = *value * 1000.0;
	if (!(x > -limit && x < limit))
		return 0;
	*ns = round_half_away(x);
	return 1;
}

int csim_number_grid(const char *p, size_t n, double limit, int64_t *ns)
{
	struct csim_decimal d;
	double value;

	parse_decimal(p, p + n, &d);
	return grid_of(&d, p, n, limit, ns, &value);
}

int csim_number_grid_value(const char *p, size_t n, double limit, int64_t *ns,
			   double *value)
{
	struct csim_decimal d;

	parse_decimal(p, p + n, &d);
	return grid_of(&d, p, n, limit, ns, value);
}

int csim_number_grid_decimal(const char *p, size_t n, double limit, int64_t *ns,
			     double *value, struct csim_decimal *d)
{
	parse_decimal(p, p + n, d);
	return grid_of(d, p, n, limit, ns, value);
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
