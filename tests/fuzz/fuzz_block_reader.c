/*
 * Fuzz target: the block reader walks arbitrary bytes as a container.
 *
 * Asserted of every input (fuzz_assert.h):
 * - Every call returns CSIM_OK or CSIM_E_INPUT with a message, never "out
 *   of memory".
 * - Blocks follow each other: each header starts where the one before
 *   said the next would, and a read never hands more than was asked or
 *   more than the payload holds.
 * - A second walk of the same file gives the same codes, messages, blocks
 *   and payload bytes.
 */
#define _GNU_SOURCE
#include "fuzz_assert.h"
#include "fuzz_util.h"

#include "read/block_reader.h"

static void take_block(struct fuzz_trail *t, const struct csim_block *blk)
{
	fuzz_trail_u64(t, blk->offset);
	fuzz_trail_u64(t, blk->content_size);
	fuzz_trail_u64(t, blk->payload_offset);
	fuzz_trail_u64(t, blk->payload_size);
	fuzz_trail_u64(t, blk->end);
	fuzz_trail_u64(t, (uint64_t)blk->type << 24 | (uint64_t)blk->padding << 16 |
			  (uint64_t)blk->version << 8 | blk->reserve);
	fuzz_trail_u64(t, (uint64_t)blk->source_inclusive);
}

/*
 * Some payloads read whole, others skipped, as the converter does. A
 * failed read ends only this payload: the walk goes on, so next() after a
 * failed read is fuzzed too.
 */
static void read_payload(struct csim_block_reader *r, const struct csim_block *blk,
			size_t size, struct fuzz_trail *t, struct csim_error *err)
{
	char buf[4096];
	uint64_t total = 0;
	size_t got = 1;

	while (blk->type != 1 && (blk->offset & 4) == 0 && got > 0) {
		const int rc = csim_block_reader_read(r, buf, sizeof(buf), &got, err);

		fuzz_expect(size, "csim_block_reader_read", rc, err, FUZZ_CODE(CSIM_E_INPUT));
		fuzz_trail_result(t, rc, err);
		if (rc != CSIM_OK)
			break;
		total += got;
		if (got > sizeof(buf) || total > blk->payload_size)
			fuzz_fail(size, "the block at offset %llu handed %llu bytes of its %llu",
				  (unsigned long long)blk->offset, (unsigned long long)total,
				  (unsigned long long)blk->payload_size);
		fuzz_trail_bytes(t, buf, got);
	}
}

/* The file walked once, everything observable into t. */
static void walk_once(const char *path, size_t size, struct fuzz_trail *t)
{
	struct csim_block_reader r;
	struct csim_error err;
	struct csim_block blk;
	uint64_t next = 0;
	int has = 1, rc;

	rc = csim_block_reader_open(&r, path, &err);
	fuzz_expect(size, "csim_block_reader_open", rc, &err, FUZZ_CODE(CSIM_E_INPUT));
	fuzz_trail_result(t, rc, &err);
	if (rc != CSIM_OK)
		return;
	while (rc == CSIM_OK && has) {
		rc = csim_block_reader_next(&r, &blk, &has, &err);
		fuzz_expect(size, "csim_block_reader_next", rc, &err, FUZZ_CODE(CSIM_E_INPUT));
		fuzz_trail_result(t, rc, &err);
		if (rc != CSIM_OK || !has)
			break;
		if (blk.offset != next || blk.end < blk.offset + CSIM_BLOCK_HEADER_SIZE)
			fuzz_fail(size, "a block at offset %llu ending at %llu, after a block that "
				  "ended at %llu", (unsigned long long)blk.offset,
				  (unsigned long long)blk.end, (unsigned long long)next);
		next = blk.end;
		take_block(t, &blk);
		read_payload(&r, &blk, size, t, &err);
	}
	csim_block_reader_release(&r);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	fuzz_twice_on(data, size, "the walk", walk_once);
	return 0;
}
