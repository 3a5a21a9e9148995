/*
 * pb_write: the protobuf wire format, written into a growing buffer
 * (trace.pftrace, SPEC §15). Varints, 64-bit fields, length-delimited
 * fields, and nested messages: a message is opened, its fields written,
 * and on closing its length is put before it, so every message is sized
 * before anything is written out. The caller copies the finished bytes
 * where they go; the buffer is then reset and reused.
 *
 * Out of memory makes the buffer failed: every later call does nothing and
 * csim_pb_failed() says so; the caller checks once, at the end of a
 * message it would write out.
 */
#ifndef CSIM_PB_WRITE_H
#define CSIM_PB_WRITE_H

#include <stddef.h>
#include <stdint.h>

/* Deeper than any message of the trace nests (packet, event, annotation). */
#define CSIM_PB_DEPTH 8

struct csim_pb {
	uint8_t *buf;
	size_t len, cap;
	size_t open[CSIM_PB_DEPTH];   /* where each open message's body starts */
	int depth;
	int failed;
};

void csim_pb_init(struct csim_pb *pb);
void csim_pb_release(struct csim_pb *pb);
/* Empties the buffer (and clears a failure), keeping its memory. */
void csim_pb_reset(struct csim_pb *pb);
int csim_pb_failed(const struct csim_pb *pb);

/* A varint field: uint64, and int32/int64/enum/bool as their two's complement. */
void csim_pb_uint(struct csim_pb *pb, uint32_t field, uint64_t v);
void csim_pb_int(struct csim_pb *pb, uint32_t field, int64_t v);
void csim_pb_fixed64(struct csim_pb *pb, uint32_t field, uint64_t v);
void csim_pb_double(struct csim_pb *pb, uint32_t field, double v);
/* A string, bytes, or an already encoded message. */
void csim_pb_bytes(struct csim_pb *pb, uint32_t field, const void *p, size_t n);

/* Bytes appended as they are: a string written in pieces between begin and end. */
void csim_pb_raw(struct csim_pb *pb, const void *p, size_t n);

/* A nested message (or a string in pieces): its fields go between begin and end. */
void csim_pb_begin(struct csim_pb *pb, uint32_t field);
void csim_pb_end(struct csim_pb *pb);

#endif
