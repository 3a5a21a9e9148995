/*
 * number_grid must agree with llround(strtod(text) * 1000.0) on every text,
 * and its value with strtod(text):
 * the fixed cases sit on the traps (ties, 17-digit float32 values, long
 * mantissas, exponents, limits); the random ones sweep the shapes real
 * traces print.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "base/number_grid.h"

#define LIMIT 9.0e15

/* The reference, with the same range rule. */
static int reference(const char *s, int64_t *ns)
{
	double v = strtod(s, NULL) * 1000.0;

	if (!(v > -LIMIT && v < LIMIT))
		return 0;
	*ns = llround(v);
	return 1;
}

/*
 * Both entry points: the grid of csim_number_grid_value() too, and its value
 * bit for bit strtod()'s (the §4 occupancy intervals are computed from it).
 */
static int agrees(struct check_ctx *c, const char *s)
{
	int64_t got = 0, want = 0, got2 = 0;
	double value = -1.0, want_value = strtod(s, NULL), parsed = -1.0;
	char buf[80];
	int ok_got, ok_want, ok_got2;

	/* csim_number_parse() too: its exact paths must be strtod()'s. */
	snprintf(buf, sizeof(buf), "%s7", s);
	if (!csim_number_parse(buf, strlen(s), &parsed) ||
	    memcmp(&parsed, &want_value, sizeof(parsed)) != 0) {
		fprintf(stderr, "    %s: csim_number_parse %.17g, strtod %.17g\n", s, parsed,
			want_value);
		return CHECK(c, 0);
	}

	/* The converter hands out spans followed by a delimiter. */
	snprintf(buf, sizeof(buf), "%s,", s);
	ok_got = csim_number_grid(buf, strlen(s), LIMIT, &got);
	ok_got2 = csim_number_grid_value(buf, strlen(s), LIMIT, &got2, &value);
	ok_want = reference(s, &want);
	if (ok_got != ok_want || (ok_got && got != want) || ok_got2 != ok_want ||
	    (ok_got2 && (got2 != want || memcmp(&value, &want_value, sizeof(value)) != 0))) {
		fprintf(stderr, "    %s: got %d/%lld, %d/%lld/%.17g, strtod says %d/%lld/%.17g\n",
			s, ok_got, (long long)got, ok_got2, (long long)got2, value, ok_want,
			(long long)want, want_value);
		return CHECK(c, 0);
	}
	c->passed++;
	return 1;
}

static void test_fixed_cases(struct check_ctx *c)
{
	static const char *const cases[] = {
		"0", "-0", "1", "-1", "0.0", "4.0289998054504395", "0.5370000004768372",
		"0.0010000000474974513", "0.0005", "0.0015", "-0.0005", "0.0004999999999",
		"0.00050000000000001", "2.5e-3", "2.5E-3", "1e2", "1E+2", "-1.0E0",
		"10.5125", "36.67166519165039", "12345678901234567890",
		"1234567.8901234567890123", "0.000000000000000000000001", "9e12",
		"9.1e12", "-9.1e12", "1e300", "1e-300", "8999999999999.999",
		"3.9440000057220459", "0.15399999916553497", "100.00000000000001",
		"0.12345678901234567890123456789", "5e-4", "15e-4", "1.5e-3",
		/* value: a rounding bit with nothing after it in the 128-bit
		   quotient but a non-zero remainder: above the midpoint, so up.
		   (Exact ties need more than 19 digits below the grid's limit.) */
		"0.8197631747112424372", "0.3727531358400151540", "7.644982464306083525",
		"6.927862721206755392", "84.21013233651169827", "80.24613639103878171",
		/* eight fraction digits at a time: a leading zero block, a block
		   that starts the mantissa, 19 digits reached inside a block */
		"0.000000001234567891234", "0.00000000000000000012", "123.00000000000000001",
		"0.1234567812345678123", "1234567890.123456789012", "7.0000000000000000",
		"0.99999999999999999999", "5.00000000500000005",
		/* one and four cycles at 1850 MHz: 17 digits over 10^20 and 10^19 */
		"0.00054054055362939835", "0.0021621622145175934",
		/* rounding up carries into the next power of two */
		"1.9999999999999999", "0.99999999999999999", "0.000999999999999999999",
	};

	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++)
		agrees(c, cases[i]);
}

static uint64_t next(uint64_t *s)
{
	*s ^= *s << 13;
	*s ^= *s >> 7;
	*s ^= *s << 17;
	return *s;
}

static void test_float32_timestamps(struct check_ctx *c)
{
	uint64_t s = 0x9E3779B97F4A7C15ull;
	char buf[64];

	/* cycles / 1850 MHz as float32, printed as its double: the producer's way. */
	for (int i = 0; i < 200000; i++) {
		double us = (double)(next(&s) % 200000000) / 1850.0;

		if (i % 2)
			us = floor(us * 1000.0 + 0.5) / 1000.0;
		snprintf(buf, sizeof(buf), "%.17g", (double)(float)us);
		if (!agrees(c, buf))
			return;
		snprintf(buf, sizeof(buf), "%.16g", (double)(float)us);
		if (!agrees(c, buf))
			return;
	}
	/* durations of a few cycles: below 0.01 us, the mantissa over 10^20 */
	for (int cycles = 1; cycles < 40000; cycles++) {
		snprintf(buf, sizeof(buf), "%.17g", (double)(float)(cycles / 1850.0));
		if (!agrees(c, buf))
			return;
		snprintf(buf, sizeof(buf), "%.17g", (double)(float)(cycles / 1850.0 / 64.0));
		if (!agrees(c, buf))
			return;
	}
}

static void test_random_decimals(struct check_ctx *c)
{
	uint64_t s = 12345;
	char buf[80];

	for (int i = 0; i < 200000; i++) {
		int ndig = 1 + (int)(next(&s) % 24), dot = (int)(next(&s) % (unsigned)(ndig + 1));
		size_t n = 0;

		if (next(&s) % 4 == 0)
			buf[n++] = '-';
		for (int d = 0; d < ndig; d++) {
			if (d == dot && d > 0)
				buf[n++] = '.';
			/* Many fives and zeros: they make ties and near-ties. */
			buf[n++] = "0123456789555000"[next(&s) % 16];
		}
		if (n > 1 && buf[n - 1] == '.')
			n--;
		if (next(&s) % 5 == 0)
			n += (size_t)snprintf(buf + n, sizeof(buf) - n, "e%d",
					      (int)(next(&s) % 40) - 25);
		buf[n] = '\0';
		/* Keep to JSON: no leading zeros in the integer part. */
		if ((buf[0] == '0' && buf[1] >= '0' && buf[1] <= '9') ||
		    (buf[0] == '-' && buf[1] == '0' && buf[2] >= '0' && buf[2] <= '9'))
			continue;
		if (!agrees(c, buf))
			return;
	}
}

/*
 * The value paths beyond Clinger's: 17- to 19-digit mantissas over 10^k
 * and texts within a digit of the midpoint between two doubles, where a
 * rounding slip would show.
 */
static void test_wide_values(struct check_ctx *c)
{
	uint64_t s = 0xC0FFEE;
	char buf[80];

	for (int i = 0; i < 200000; i++) {
		uint64_t m = next(&s) % 10000000000000000000ull;
		int k = 1 + (int)(next(&s) % 24);   /* up to 21 exact, then strtod */
		double x = 1.0 + (double)(next(&s) % 100000000) / 7.0;

		snprintf(buf, sizeof(buf), "%llue-%d", (unsigned long long)m, k);
		if (!agrees(c, buf))
			return;
		/* the midpoint of x and the next double (exact in x87's long
		   double; elsewhere x itself), rounded to 19 digits either way */
		long double mid = (long double)x + ((long double)nextafter(x, 2.0 * x) - x) / 2;
		snprintf(buf, sizeof(buf), "%.18Le", mid);
		if (!agrees(c, buf))
			return;
		snprintf(buf, sizeof(buf), "%.18Le", nextafterl(mid, 0.0L));
		if (!agrees(c, buf))
			return;
		/* the same below 0.01: 18 digits over 10^20 and 10^21 */
		for (int shift = 3; shift <= 4; shift++) {
			double y = x / (shift == 3 ? 1e3 : 1e4);
			long double ymid = (long double)y + ((long double)nextafter(y, 2.0 * y) - y) / 2;

			snprintf(buf, sizeof(buf), "%.17Le", ymid);
			if (!agrees(c, buf))
				return;
		}
	}
}

/*
 * Eight digits are read as one word, the last ones through the text's last
 * eight bytes: in a buffer of exactly the number's length (the sanitizer
 * build catches a byte read outside it), at every length and every place
 * of the point, the answers are strtod()'s.
 */
static void test_exact_length(struct check_ctx *c)
{
	static const char digits[] = "3977297306060791534211";
	char text[40];

	for (size_t ndig = 1; ndig + 1 < sizeof(digits); ndig++) {
		for (size_t dot = 0; dot <= ndig; dot++) {
			size_t n = 0;
			char *b;
			double want, value = -1.0;
			int64_t ns = 0, want_ns = 0;
			int ok_want;

			if (dot >= 1 && dot < ndig) {
				memcpy(text, digits, dot);
				n = dot;
				text[n++] = '.';
				memcpy(text + n, digits + dot, ndig - dot);
				n += ndig - dot;
			} else if (dot == 0) {
				memcpy(text, "0.", 2);
				memcpy(text + 2, digits, ndig);
				n = ndig + 2;
			} else {
				memcpy(text, digits, ndig);
				n = ndig;
			}
			text[n] = '\0';
			b = malloc(n);
			if (!CHECK(c, b != NULL))
				return;
			memcpy(b, text, n);
			want = strtod(text, NULL);
			ok_want = reference(text, &want_ns);
			if (!CHECK_I64(c, csim_number_grid_value(b, n, LIMIT, &ns, &value), ok_want) ||
			    !CHECK_I64(c, ns, want_ns) ||
			    !CHECK(c, memcmp(&value, &want, sizeof(value)) == 0) ||
			    !CHECK_I64(c, csim_number_parse(b, n, &value), 1) ||
			    !CHECK(c, memcmp(&value, &want, sizeof(value)) == 0))
				fprintf(stderr, "    %s: got %lld/%.17g\n", text, (long long)ns, value);
			free(b);
		}
	}
}

/* Builds head + n copies of fill + tail into a fresh buffer. */
static char *long_number(const char *head, char fill, size_t n, const char *tail)
{
	size_t h = strlen(head), t = strlen(tail);
	char *s = malloc(h + n + t + 2);

	if (s == NULL)
		return NULL;
	memcpy(s, head, h);
	memset(s + h, fill, n);
	memcpy(s + h + n, tail, t + 1);
	return s;
}

/*
 * csim_number_parse reads only its span: a digit right after it must not
 * count, and numbers too long to copy whole must still round like strtod()
 * on the whole text (ties broken by a non-zero digit far away).
 */
static void test_parse_bounded(struct check_ctx *c)
{
	static const struct { const char *head; char fill; size_t n; const char *tail; } cases[] = {
		{ "9007199254740993", '0', 1000, "1" },        /* tie, broken far away */
		{ "9007199254740993", '0', 1000, "" },         /* exact tie: even */
		{ "9007199254740993.", '0', 2000, "1" },
		{ "-9007199254740993.", '0', 2000, "1e-5" },
		{ "0.", '0', 1500, "123e1400" },                /* leading zeros */
		{ "0.", '0', 1500, "123e1600" },
		{ "1", '3', 3000, "e-2990" },                   /* many digits */
		{ "2.", '9', 5000, "E+300" },
		{ "1", '0', 900, "e99999999999999999999" },    /* exponent overflow */
		{ "1.", '0', 900, "e-99999999999999999999" },
		{ "", '0', 900, "" },                            /* zeros only */
		{ "-0.", '0', 900, "" },
	};
	double v;

	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		char *s = long_number(cases[i].head, cases[i].fill, cases[i].n, cases[i].tail);
		double want;

		if (!CHECK(c, s != NULL))
			return;
		want = strtod(s, NULL);
		v = -1.0;
		if (!CHECK_I64(c, csim_number_parse(s, strlen(s), &v), 1) ||
		    !CHECK(c, memcmp(&v, &want, sizeof(v)) == 0))
			fprintf(stderr, "    case %zu: got %.17g, strtod %.17g\n", i, v, want);
		free(s);
	}
	/* "12" of "123": the digit after the span is not read. */
	CHECK_I64(c, csim_number_parse("123", 2, &v), 1);
	CHECK(c, v == 12.0);
	CHECK_I64(c, csim_number_parse("1.5x", 4, &v), 0);
	CHECK_I64(c, csim_number_parse("", 0, &v), 0);
}

/*
 * Texts outside the JSON grammar skip the exact paths and get strtod()'s
 * own answer: accepted or refused as it does, with its value.
 */
static void test_parse_non_json(struct check_ctx *c)
{
	static const char *const cases[] = {
		"1.", ".5", "+1", "0x10", "01", "-", "1e", "1e+", "-.5", "inf", "nan",
		" 1", "1 ", "00.5", "1.e3", "-0", "0e500", "1e-400", "4e-320",
	};

	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		const char *s = cases[i];
		char *endp;
		double want = strtod(s, &endp), v = -1.0;
		int whole = *s != '\0' && *endp == '\0';

		if (!CHECK_I64(c, csim_number_parse(s, strlen(s), &v), whole) ||
		    (whole && !CHECK(c, memcmp(&v, &want, sizeof(v)) == 0)))
			fprintf(stderr, "    %s: got %.17g, strtod %.17g\n", s, v, want);
	}
}

int main(void)
{
	struct check_ctx c = { 0, 0, NULL };

	CHECK_RUN(&c, test_fixed_cases);
	CHECK_RUN(&c, test_float32_timestamps);
	CHECK_RUN(&c, test_random_decimals);
	CHECK_RUN(&c, test_wide_values);
	CHECK_RUN(&c, test_exact_length);
	CHECK_RUN(&c, test_parse_bounded);
	CHECK_RUN(&c, test_parse_non_json);
	return check_done(&c);
}
