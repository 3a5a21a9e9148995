/*
 * pb_write against encodings worked out by hand from the protobuf wire
 * format (protobuf.dev/programming-guides/encoding): varints, tags,
 * fixed64 and doubles little-endian, negative int32/int64 as ten bytes,
 * strings, and nested messages whose length needs one byte or more (the
 * encoder moves a long body to make room for its length).
 */
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "base/pb_write.h"

static int bytes_are(struct check_ctx *c, const struct csim_pb *pb, const unsigned char *want,
		     size_t n)
{
	return CHECK_BYTES(c, (const char *)pb->buf, pb->len, (const char *)want, n);
}

static void test_varints(struct check_ctx *c)
{
	struct csim_pb pb;
	/* field 1 = 150: the guide's own example */
	static const unsigned char a[] = { 0x08, 0x96, 0x01 };
	/* field 60 = 0 (tag 60<<3 = 480 = 0xe0 0x03), field 16 = 1 (tag 128: 0x80 0x01) */
	static const unsigned char b[] = { 0xe0, 0x03, 0x00, 0x80, 0x01, 0x01 };
	/* field 12 = -1 as int32: ten bytes */
	static const unsigned char d[] = { 0x60, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff,
					   0xff, 0xff, 0x01 };
	/* field 1 = 2^64 - 1 */
	static const unsigned char e[] = { 0x08, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff,
					   0xff, 0xff, 0x01 };

	csim_pb_init(&pb);
	csim_pb_uint(&pb, 1, 150);
	bytes_are(c, &pb, a, sizeof(a));
	csim_pb_reset(&pb);
	csim_pb_uint(&pb, 60, 0);
	csim_pb_uint(&pb, 16, 1);
	bytes_are(c, &pb, b, sizeof(b));
	csim_pb_reset(&pb);
	csim_pb_int(&pb, 12, -1);
	bytes_are(c, &pb, d, sizeof(d));
	csim_pb_reset(&pb);
	csim_pb_uint(&pb, 1, UINT64_MAX);
	bytes_are(c, &pb, e, sizeof(e));
	CHECK(c, !csim_pb_failed(&pb));
	csim_pb_release(&pb);
}

static void test_fixed(struct check_ctx *c)
{
	struct csim_pb pb;
	/* field 47 fixed64 = 0x0102030405060708: tag (47<<3)|1 = 377 = 0xf9 0x02 */
	static const unsigned char a[] = { 0xf9, 0x02, 0x08, 0x07, 0x06, 0x05, 0x04, 0x03,
					   0x02, 0x01 };
	/* field 44 double 1.0 = 0x3ff0000000000000: tag (44<<3)|1 = 353 = 0xe1 0x02 */
	static const unsigned char b[] = { 0xe1, 0x02, 0, 0, 0, 0, 0, 0, 0xf0, 0x3f };

	csim_pb_init(&pb);
	csim_pb_fixed64(&pb, 47, 0x0102030405060708ull);
	bytes_are(c, &pb, a, sizeof(a));
	csim_pb_reset(&pb);
	csim_pb_double(&pb, 44, 1.0);
	bytes_are(c, &pb, b, sizeof(b));
	csim_pb_release(&pb);
}

static void test_strings_and_nesting(struct check_ctx *c)
{
	struct csim_pb pb;
	/* field 2 = "testing": the guide's example */
	static const unsigned char a[] = { 0x12, 0x07, 't', 'e', 's', 't', 'i', 'n', 'g' };
	/* field 3 = { field 1 = 150 }: the guide's example */
	static const unsigned char b[] = { 0x1a, 0x03, 0x08, 0x96, 0x01 };
	/* field 1 = { field 11 = { } , field 2 = "" } */
	static const unsigned char d[] = { 0x0a, 0x04, 0x5a, 0x00, 0x12, 0x00 };

	csim_pb_init(&pb);
	csim_pb_bytes(&pb, 2, "testing", 7);
	bytes_are(c, &pb, a, sizeof(a));
	csim_pb_reset(&pb);
	csim_pb_begin(&pb, 3);
	csim_pb_uint(&pb, 1, 150);
	csim_pb_end(&pb);
	bytes_are(c, &pb, b, sizeof(b));
	csim_pb_reset(&pb);
	csim_pb_begin(&pb, 1);
	csim_pb_begin(&pb, 11);
	csim_pb_end(&pb);
	csim_pb_begin(&pb, 2);   /* a string written in pieces: none */
	csim_pb_end(&pb);
	csim_pb_end(&pb);
	bytes_are(c, &pb, d, sizeof(d));
	csim_pb_release(&pb);
}

/* Bodies of 127, 128 and 20000 bytes: lengths of 1, 2 and 3 bytes, inner and outer. */
static void test_long_bodies(struct check_ctx *c)
{
	static const size_t sizes[] = { 127, 128, 20000 };

	for (size_t k = 0; k < sizeof(sizes) / sizeof(sizes[0]); k++) {
		const size_t n = sizes[k];
		char *text = malloc(n);
		unsigned char *want = malloc(n + 16);
		struct csim_pb pb;
		size_t w = 0, inner = n + 1 + (n < 128 ? 1 : n < 16384 ? 2 : 3);

		if (!CHECK(c, text != NULL && want != NULL))
			return;
		for (size_t i = 0; i < n; i++)
			text[i] = (char)('a' + i % 26);
		/* field 4 = { field 5 = text (in two pieces) } */
		want[w++] = 0x22;
		for (size_t len = inner; ; len >>= 7) {
			want[w++] = (unsigned char)(len >= 0x80 ? (len & 0x7f) | 0x80 : len);
			if (len < 0x80)
				break;
		}
		want[w++] = 0x2a;
		for (size_t len = n; ; len >>= 7) {
			want[w++] = (unsigned char)(len >= 0x80 ? (len & 0x7f) | 0x80 : len);
			if (len < 0x80)
				break;
		}
		memcpy(want + w, text, n);
		w += n;
		csim_pb_init(&pb);
		csim_pb_begin(&pb, 4);
		csim_pb_begin(&pb, 5);
		csim_pb_raw(&pb, text, n / 2);
		csim_pb_raw(&pb, text + n / 2, n - n / 2);
		csim_pb_end(&pb);
		csim_pb_end(&pb);
		bytes_are(c, &pb, want, w);
		CHECK(c, pb.depth == 0);
		csim_pb_release(&pb);
		free(text);
		free(want);
	}
}

int main(void)
{
	struct check_ctx c = { 0, 0, NULL };

	CHECK_RUN(&c, test_varints);
	CHECK_RUN(&c, test_fixed);
	CHECK_RUN(&c, test_strings_and_nesting);
	CHECK_RUN(&c, test_long_bodies);
	return check_done(&c);
}
