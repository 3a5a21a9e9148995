#include "base/pb_write.h"

#include <assert.h>
#include <stdlib.h>
#include <string.h>

#include "base/array_grow.h"

enum wire { WIRE_VARINT = 0, WIRE_I64 = 1, WIRE_LEN = 2 };

void csim_pb_init(struct csim_pb *pb)
{
	memset(pb, 0, sizeof(*pb));
}

void csim_pb_release(struct csim_pb *pb)
{
	free(pb->buf);
	csim_pb_init(pb);
}

void csim_pb_reset(struct csim_pb *pb)
{
	pb->len = 0;
	pb->depth = 0;
	pb->failed = 0;
}

int csim_pb_failed(const struct csim_pb *pb)
{
	return pb->failed;
}

/* Room for n more bytes; 0, or -1 (and failed) out of memory. */
static int room(struct csim_pb *pb, size_t n)
{
	if (pb->failed)
		return -1;
	if (pb->len + n <= pb->cap)
		return 0;
	if (csim_array_grow((void **)&pb->buf, &pb->cap, pb->len + n, 1) != 0) {
		pb->failed = 1;
		return -1;
	}
	return 0;
}

static size_t varint_size(uint64_t v)
{
	size_t n = 1;

	while (v >= 0x80) {
		v >>= 7;
		n++;
	}
	return n;
}

/* The caller made room: at most 10 bytes. */
static void put_varint(uint8_t *p, uint64_t v)
{
	while (v >= 0x80) {
		*p++ = (uint8_t)(v | 0x80);
		v >>= 7;
	}
	*p = (uint8_t)v;
}

static void put_raw_varint(struct csim_pb *pb, uint64_t v)
{
	if (room(pb, 10) != 0)
		return;
	put_varint(pb->buf + pb->len, v);
	pb->len += varint_size(v);
}

static void put_tag(struct csim_pb *pb, uint32_t field, enum wire w)
{
	put_raw_varint(pb, (uint64_t)field << 3 | (uint64_t)w);
}

void csim_pb_uint(struct csim_pb *pb, uint32_t field, uint64_t v)
{
	put_tag(pb, field, WIRE_VARINT);
	put_raw_varint(pb, v);
}

void csim_pb_int(struct csim_pb *pb, uint32_t field, int64_t v)
{
	csim_pb_uint(pb, field, (uint64_t)v);
}

void csim_pb_fixed64(struct csim_pb *pb, uint32_t field, uint64_t v)
{
	put_tag(pb, field, WIRE_I64);
	if (room(pb, 8) != 0)
		return;
	for (int i = 0; i < 8; i++)
		pb->buf[pb->len++] = (uint8_t)(v >> (8 * i));
}

void csim_pb_double(struct csim_pb *pb, uint32_t field, double v)
{
	uint64_t bits;

	memcpy(&bits, &v, sizeof(bits));
	csim_pb_fixed64(pb, field, bits);
}

void csim_pb_raw(struct csim_pb *pb, const void *p, size_t n)
{
	if (n == 0 || room(pb, n) != 0)
		return;
	memcpy(pb->buf + pb->len, p, n);
	pb->len += n;
}

void csim_pb_bytes(struct csim_pb *pb, uint32_t field, const void *p, size_t n)
{
	put_tag(pb, field, WIRE_LEN);
	put_raw_varint(pb, n);
	csim_pb_raw(pb, p, n);
}

/*
 * One byte is kept for the length, which is all that a message under 128
 * bytes (most of a trace's) needs; a longer one moves its body on closing.
 */
void csim_pb_begin(struct csim_pb *pb, uint32_t field)
{
	assert(pb->depth < CSIM_PB_DEPTH);
	put_tag(pb, field, WIRE_LEN);
	if (room(pb, 1) != 0)
		return;
	pb->len++;
	pb->open[pb->depth++] = pb->len;
}

void csim_pb_end(struct csim_pb *pb)
{
	size_t start, body, k;

	if (pb->failed)
		return;
	assert(pb->depth > 0);
	start = pb->open[--pb->depth];
	body = pb->len - start;
	k = varint_size(body);
	if (k > 1) {
		if (room(pb, k - 1) != 0)
			return;
		memmove(pb->buf + start + k - 1, pb->buf + start, body);
		pb->len += k - 1;
	}
	put_varint(pb->buf + start - 1, body);
}
