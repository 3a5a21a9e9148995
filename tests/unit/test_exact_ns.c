/*
 * exact_ns: the exact ns of a decimal (and of a sum of two) against a
 * reference that works on the digits as text, long-hand: align the two
 * numbers' digits at their points, add or subtract digit by digit, move the
 * point three places, and round half away from zero on the first dropped
 * digit. The fixed cases sit on the traps (ties the binary grid rounds the
 * other way, float32 values printed as doubles, exponents, signs, more than
 * 19 digits); the random ones sweep the shapes real traces print.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "base/exact_ns.h"
#include "base/number_grid.h"

#define LIMIT 9000000000000000LL
#define W 120        /* digit positions; the point sits between P-1 and P */
#define P 60

/* A number as digits d[0..W), d[P-1] the units, d[P] the first decimal. */
struct longhand {
	int neg;
	int d[W];
};

static void longhand_of(const char *s, struct longhand *x)
{
	int exp = 0, pos, point = -1, n = 0;
	char digits[64];
	const char *e;

	memset(x, 0, sizeof(*x));
	x->neg = *s == '-';
	s += x->neg;
	for (; *s != '\0' && *s != 'e' && *s != 'E'; s++) {
		if (*s == '.')
			point = n;
		else
			digits[n++] = *s;
	}
	if (point < 0)
		point = n;
	e = s;
	if (*e == 'e' || *e == 'E')
		exp = atoi(e + 1);
	for (int i = 0; i < n; i++) {
		pos = P - 1 - ((point - 1 - i) + exp);   /* 10^k sits at P - 1 - k */
		if (pos >= 0 && pos < W)
			x->d[pos] = digits[i] - '0';
	}
}

static int compare_mag(const struct longhand *a, const struct longhand *b)
{
	for (int i = 0; i < W; i++)
		if (a->d[i] != b->d[i])
			return a->d[i] < b->d[i] ? -1 : 1;
	return 0;
}

static void add(const struct longhand *a, const struct longhand *b, struct longhand *r)
{
	const struct longhand *big = a, *small = b;
	int carry = 0;

	memset(r, 0, sizeof(*r));
	if (a->neg == b->neg) {
		r->neg = a->neg;
		for (int i = W - 1; i >= 0; i--) {
			int v = a->d[i] + b->d[i] + carry;

			r->d[i] = v % 10;
			carry = v / 10;
		}
		return;
	}
	if (compare_mag(a, b) < 0) {
		big = b;
		small = a;
	}
	r->neg = big->neg;
	for (int i = W - 1; i >= 0; i--) {
		int v = big->d[i] - small->d[i] - carry;

		carry = v < 0;
		r->d[i] = v + 10 * carry;
	}
}

/* x * 1000 rounded half away from zero: the digits down to P + 2, then the next. */
static long long ns_of(const struct longhand *x)
{
	long long v = 0;

	for (int i = 0; i <= P + 2; i++)
		v = v * 10 + x->d[i];
	if (x->d[P + 3] >= 5)
		v++;
	return x->neg ? -v : v;
}

static int decimal_of(const char *s, struct csim_decimal *d)
{
	int64_t ns;
	double v;
	char buf[96];

	snprintf(buf, sizeof(buf), "%s,", s);
	return csim_number_grid_decimal(buf, strlen(s), 9.0e15, &ns, &v, d);
}

static int one(struct check_ctx *c, const char *ts, const char *dur)
{
	struct longhand a, b, sum;
	struct csim_decimal da, db;
	int64_t got_s = 0, got_e = 0;
	long long want_s, want_e;

	longhand_of(ts, &a);
	longhand_of(dur, &b);
	add(&a, &b, &sum);
	want_s = ns_of(&a);
	want_e = ns_of(&sum);
	if (!CHECK(c, decimal_of(ts, &da) && decimal_of(dur, &db)))
		return 0;
	if (!CHECK(c, csim_exact_ns(&da, LIMIT, &got_s)) ||
	    !CHECK(c, csim_exact_ns_sum(&da, &db, LIMIT, &got_e)))
		return 0;
	if (got_s != want_s || got_e != want_e) {
		fprintf(stderr, "    ts %s dur %s: got %lld %lld, want %lld %lld\n", ts, dur,
			(long long)got_s, (long long)got_e, want_s, want_e);
		return CHECK(c, 0);
	}
	return CHECK(c, 1);
}

static void test_fixed_cases(struct check_ctx *c)
{
	static const char *const pairs[][2] = {
		{ "0.0005", "0.0005" },        /* ties: 1 and 1; the grid ends at 2 */
		{ "0.0015", "0.001" },         /* 1.5 -> 2, 2.5 -> 3 */
		{ "12.3455", "0.0010" },       /* 12345.5 -> 12346 */
		{ "-0.0005", "0" },            /* half away from zero: -1 */
		{ "-0.0015", "0.001" },        /* -1.5 -> -2, -0.5 -> -1 */
		{ "0.44600000977516174", "0.0020000000949949026" },   /* float32s printed */
		{ "36.67166519165039", "0.5405405163764954" },
		{ "16384.123", "0.4560001" },
		{ "1e-3", "1.5e-3" },          /* 1, 2.5 -> 3 */
		{ "1E2", "2.5e-4" },           /* 100000, 100000.25 -> 100000 */
		{ "0", "0" },
		{ "-0", "0.0004" },
		{ "7", "-0" },
		{ "8999999999.9994", "0.0001" },
		{ "0.000000000000000000001", "0.0004999" },
	};

	for (size_t i = 0; i < sizeof(pairs) / sizeof(pairs[0]); i++)
		one(c, pairs[i][0], pairs[i][1]);
}

/* Past 19 significant digits the decimal is not exact: the caller falls back. */
static void test_too_many_digits(struct check_ctx *c)
{
	struct csim_decimal d, z;
	int64_t ns;

	CHECK(c, decimal_of("1.23456789012345678901", &d));
	CHECK(c, decimal_of("0", &z));
	CHECK(c, !csim_exact_ns(&d, LIMIT, &ns));
	CHECK(c, !csim_exact_ns_sum(&d, &z, LIMIT, &ns));
	CHECK(c, !csim_exact_ns_sum(&z, &d, LIMIT, &ns));
	/* and beyond the limit, either way */
	CHECK(c, decimal_of("1.001", &d));
	CHECK(c, !csim_exact_ns(&d, 1000, &ns));
	CHECK(c, csim_exact_ns(&d, 1001, &ns) && ns == 1001);
	CHECK(c, !csim_exact_ns_sum(&d, &d, 2001, &ns));
	CHECK(c, decimal_of("-1.001", &d));
	CHECK(c, !csim_exact_ns(&d, 1000, &ns));
}

/* ts with 1..7 integer digits and up to 12 decimals, dur likewise smaller. */
static void test_random(struct check_ctx *c)
{
	char ts[64], dur[64];
	unsigned seed = 12345;
	int bad = 0;

	for (int i = 0; i < 200000 && !bad; i++) {
		int ip, fp, dfp;
		unsigned long long a, b, fa, fb;

		seed = seed * 1103515245u + 12345u;
		ip = (int)(seed >> 16) % 8;
		seed = seed * 1103515245u + 12345u;
		fp = (int)(seed >> 16) % 13;
		seed = seed * 1103515245u + 12345u;
		dfp = (int)(seed >> 16) % 13;
		a = ((unsigned long long)seed * 2654435761u) % 10000000ull;
		for (int k = ip; k < 7; k++)
			a /= 10;
		seed = seed * 1103515245u + 12345u;
		fa = ((unsigned long long)seed << 20 ^ seed) % 1000000000000ull;
		seed = seed * 1103515245u + 12345u;
		b = seed % 1000ull;
		seed = seed * 1103515245u + 12345u;
		fb = ((unsigned long long)seed << 20 ^ seed) % 1000000000000ull;
		snprintf(ts, sizeof(ts), "%llu.%012llu", a, fa);
		ts[strlen(ts) - (size_t)(12 - fp)] = '\0';
		if (fp == 0)
			ts[strlen(ts) - 1] = '\0';
		snprintf(dur, sizeof(dur), "%llu.%012llu", b, fb);
		dur[strlen(dur) - (size_t)(12 - dfp)] = '\0';
		if (dfp == 0)
			dur[strlen(dur) - 1] = '\0';
		if (i % 2 == 1 && seed % 5 == 0)   /* ties: a 5 where the rounding looks */
			snprintf(ts, sizeof(ts), "%llu.%03llu5", a, fa % 1000);
		bad = !one(c, ts, dur);
	}
}

int main(void)
{
	struct check_ctx c = { 0, 0, NULL };

	CHECK_RUN(&c, test_fixed_cases);
	CHECK_RUN(&c, test_too_many_digits);
	CHECK_RUN(&c, test_random);
	return check_done(&c);
}
