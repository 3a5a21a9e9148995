/*
 * gz_inflate, whichever back end the build has (igzip or zlib; CI builds
 * both): a member comes back byte for byte however its input and output are
 * cut into steps, ends only after its trailer, leaves what follows it
 * untouched, and each fault (a cut, a flipped CRC or length, a bad header or
 * block) stops it with zlib's words after every byte before the fault.
 * Members are made by zlib's deflate, not by the code under test.
 */
#include "check.h"
#include "testutil.h"

#include "read/gz_inflate.h"

#define PLAIN (300u * 1000u)

/* Text that deflates to dynamic blocks with matches near and far back. */
static void make_plain(struct tbuf *b, size_t n)
{
	uint32_t x = 12345;

	while (b->n < n && !b->oom) {
		char line[96];
		int k;

		x = x * 1103515245u + 12345u;
		k = snprintf(line, sizeof(line), "{\"name\":\"V%u\",\"ts\":%u.%03u,\"pid\":\"core%u\"},\n",
			     x >> 28, x >> 12 & 0xfff, x & 0x3ff, x >> 30);
		tbuf_add(b, line, (size_t)k < n - b->n ? (size_t)k : n - b->n);
	}
}

/* Level 6, zlib's default: dynamic blocks, long matches. */
static int deflate_member(struct tbuf *out, const struct tbuf *in)
{
	return tbuf_gz_member(out, in->p, in->n, 6);
}

struct run {
	struct tbuf out;
	enum csim_gz_step last;
	const char *why;
	size_t used;          /* input bytes taken */
	unsigned long steps;
};

/*
 * Inflates in[0..n), offering in_step more input bytes and out_step output
 * bytes a step, until the member ends, it fails, or a step offered all the
 * input moves nothing (it needs input there is not).
 */
static void inflate_run(struct csim_gz_inflate *f, const unsigned char *in, size_t n,
			size_t in_step, size_t out_step, struct run *r)
{
	unsigned char *out = malloc(out_step);
	size_t given = 0;

	memset(r, 0, sizeof(*r));
	r->last = CSIM_GZ_STEP_MORE;
	if (out == NULL)
		return;
	for (;;) {
		struct csim_gz_io io;
		size_t made, before = r->used;

		given += n - given < in_step ? n - given : in_step;
		io.next_in = in + r->used;
		io.avail_in = given - r->used;
		io.next_out = out;
		io.avail_out = out_step;
		r->last = csim_gz_inflate_step(f, &io, &r->why);
		r->steps++;
		made = out_step - io.avail_out;
		tbuf_add(&r->out, out, made);
		r->used = (size_t)(io.next_in - in);
		if (io.next_in + io.avail_in != in + given)
			break;   /* pointer and count disagree: used is wrong, tests see it */
		if (r->last != CSIM_GZ_STEP_MORE || (given == n && made == 0 && r->used == before))
			break;
	}
	free(out);
}

/*
 * From a reset, in[0..n) in the given steps is one member that inflates to
 * plain and uses `member` bytes of the input.
 */
static void expect_member(struct check_ctx *c, struct csim_gz_inflate *f, const char *in,
			  size_t n, size_t in_step, size_t out_step, const struct tbuf *plain,
			  size_t member)
{
	struct run r;

	csim_gz_inflate_reset(f);
	inflate_run(f, (const unsigned char *)in, n, in_step, out_step, &r);
	CHECK_I64(c, r.last, CSIM_GZ_STEP_MEMBER_END);
	CHECK_U64(c, r.used, member);
	CHECK(c, r.out.n == plain->n && memcmp(r.out.p, plain->p, plain->n) == 0);
	tbuf_free(&r.out);
}

static void test_member_in_any_steps(struct check_ctx *c)
{
	static const size_t steps[][2] = {
		{ 1, 1 }, { 7, 4093 }, { 65536, 1 }, { (size_t)-1, 65536 }, { (size_t)-1, PLAIN }
	};
	struct tbuf plain = { 0 }, gz = { 0 };
	struct csim_gz_inflate *f = NULL;

	make_plain(&plain, PLAIN);
	if (!CHECK(c, !plain.oom && deflate_member(&gz, &plain) == 0) ||
	    !CHECK_I64(c, csim_gz_inflate_new(&f), 0))
		goto out;
	for (size_t i = 0; i < sizeof(steps) / sizeof(steps[0]); i++)
		expect_member(c, f, gz.p, gz.n, steps[i][0], steps[i][1], &plain, gz.n);
out:
	csim_gz_inflate_free(f);
	tbuf_free(&plain);
	tbuf_free(&gz);
}

/* What follows a member (another one, or anything) is left where it is. */
static void test_member_end_leaves_what_follows(struct check_ctx *c)
{
	struct tbuf plain = { 0 }, one = { 0 }, two = { 0 };
	struct csim_gz_inflate *f = NULL;

	make_plain(&plain, 5000);
	if (!CHECK(c, deflate_member(&one, &plain) == 0) ||
	    !CHECK_I64(c, csim_gz_inflate_new(&f), 0))
		goto out;
	tbuf_add(&two, one.p, one.n);
	tbuf_add(&two, one.p, one.n);
	tbuf_adds(&two, "trailing");
	/* Each member from a reset; what follows the first is still there. */
	for (size_t in_step = 1; in_step <= two.n; in_step = in_step * 3 + 1) {
		expect_member(c, f, two.p, two.n, in_step, 4096, &plain, one.n);
		expect_member(c, f, two.p + one.n, two.n - one.n, in_step, 4096, &plain, one.n);
	}
out:
	csim_gz_inflate_free(f);
	tbuf_free(&plain);
	tbuf_free(&one);
	tbuf_free(&two);
}

/* A cut anywhere: never a member end, and only bytes of the plain text. */
static void test_cut_member_never_ends(struct check_ctx *c)
{
	struct tbuf plain = { 0 }, gz = { 0 };
	struct csim_gz_inflate *f = NULL;
	size_t most = 0;

	make_plain(&plain, 20000);
	if (!CHECK(c, deflate_member(&gz, &plain) == 0) ||
	    !CHECK_I64(c, csim_gz_inflate_new(&f), 0))
		goto out;
	for (size_t cut = 0; cut < gz.n; cut++) {
		struct run r;

		csim_gz_inflate_reset(f);
		inflate_run(f, (const unsigned char *)gz.p, cut, 1000, 4096, &r);
		if (!CHECK_I64(c, r.last, CSIM_GZ_STEP_MORE) ||
		    !CHECK(c, r.out.n <= plain.n &&
			      (r.out.n == 0 || memcmp(r.out.p, plain.p, r.out.n) == 0))) {
			tbuf_free(&r.out);
			break;
		}
		CHECK(c, r.out.n >= most);   /* more input never gives less */
		most = r.out.n;
		tbuf_free(&r.out);
	}
	CHECK(c, most > plain.n / 2);   /* the bytes before the trailer do come out */
out:
	csim_gz_inflate_free(f);
	tbuf_free(&plain);
	tbuf_free(&gz);
}

/* Flips bits `flip` of byte `at` of the member and expects CORRUPT with `why`. */
static void expect_fault(struct check_ctx *c, struct csim_gz_inflate *f, const struct tbuf *gz,
			 size_t at, unsigned char flip, const char *why, const struct tbuf *plain)
{
	struct tbuf bad = { 0 };
	struct run r;

	tbuf_add(&bad, gz->p, gz->n);
	if (!CHECK(c, !bad.oom))
		return;
	bad.p[at] = (char)((unsigned char)bad.p[at] ^ flip);
	csim_gz_inflate_reset(f);
	inflate_run(f, (const unsigned char *)bad.p, bad.n, 4096, 65536, &r);
	CHECK_I64(c, r.last, CSIM_GZ_STEP_CORRUPT);
	if (CHECK(c, r.why != NULL))
		CHECK_MEM(c, r.why, strlen(r.why), why);
	if (plain != NULL)   /* a trailer fault: every byte came out first */
		CHECK(c, r.out.n == plain->n && memcmp(r.out.p, plain->p, plain->n) == 0);
	tbuf_free(&r.out);
	tbuf_free(&bad);
}

static void test_faults_in_zlibs_words(struct check_ctx *c)
{
	struct tbuf plain = { 0 }, gz = { 0 };
	struct csim_gz_inflate *f = NULL;
	int igzip = strcmp(csim_gz_inflate_backend(), "igzip") == 0;

	CHECK(c, igzip || strcmp(csim_gz_inflate_backend(), "zlib") == 0);
	make_plain(&plain, 50000);
	if (!CHECK(c, deflate_member(&gz, &plain) == 0) || !CHECK(c, gz.n > 18) ||
	    !CHECK_I64(c, csim_gz_inflate_new(&f), 0))
		goto out;
	/* The trailer: CRC-32 in the last 8 bytes' first half, then the length. */
	expect_fault(c, f, &gz, gz.n - 8, 0x01, "incorrect data check", &plain);
	expect_fault(c, f, &gz, gz.n - 5, 0x80, "incorrect data check", &plain);
	/* igzip checks both with one code, so it cannot tell them apart. */
	expect_fault(c, f, &gz, gz.n - 4, 0x01,
		     igzip ? "incorrect data check" : "incorrect length check", &plain);
	expect_fault(c, f, &gz, 0, 0x01, "incorrect header check", NULL);   /* 1f -> 1e */
	expect_fault(c, f, &gz, 2, 0x0f, "unknown compression method", NULL);   /* 8 -> 7 */
	/* The first block's type, bits 1-2 after the header: dynamic (2) -> 3. */
	CHECK_U64(c, ((unsigned char)gz.p[10] >> 1) & 3u, 2);
	expect_fault(c, f, &gz, 10, 0x02, "invalid block type", NULL);
	/* After a fault, a reset makes it whole again. */
	expect_member(c, f, gz.p, gz.n, 4096, 65536, &plain, gz.n);
out:
	csim_gz_inflate_free(f);
	tbuf_free(&plain);
	tbuf_free(&gz);
}

/* A step with no input moves nothing and asks for more; free(NULL) is fine. */
static void test_empty_step(struct check_ctx *c)
{
	struct csim_gz_inflate *f = NULL;
	unsigned char out[16];
	struct csim_gz_io io = { (const unsigned char *)"", 0, out, sizeof(out) };
	const char *why = NULL;

	csim_gz_inflate_free(NULL);
	if (!CHECK_I64(c, csim_gz_inflate_new(&f), 0))
		return;
	CHECK_I64(c, csim_gz_inflate_step(f, &io, &why), CSIM_GZ_STEP_MORE);
	CHECK_U64(c, io.avail_out, sizeof(out));
	CHECK(c, io.next_out == out);
	csim_gz_inflate_free(f);
}

int main(void)
{
	struct check_ctx c = { 0, 0, NULL };

	CHECK_RUN(&c, test_member_in_any_steps);
	CHECK_RUN(&c, test_member_end_leaves_what_follows);
	CHECK_RUN(&c, test_cut_member_never_ends);
	CHECK_RUN(&c, test_faults_in_zlibs_words);
	CHECK_RUN(&c, test_empty_step);
	return check_done(&c);
}
