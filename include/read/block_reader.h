/*
 * block_reader: walks the blocks of a visualize_data.bin as a stream.
 *
 * Every header is checked before its payload is touched (reserve byte,
 * padding, overflow-checked size, fits in the file), and every failure names
 * the file and the block's offset. SOURCE blocks are framed as the producer
 * writes them (4096-byte path outside contentSize); the older "inclusive"
 * framing is accepted when only it lands on a valid next header.
 */
#ifndef CSIM_BLOCK_READER_H
#define CSIM_BLOCK_READER_H

#include <stddef.h>
#include <stdint.h>

#include "base/csim_error.h"
#include "read/byte_window.h"
#include "read/input_stream.h"

enum csim_block_type {
	CSIM_BLOCK_SOURCE = 1,
	CSIM_BLOCK_TRACE = 2,
	CSIM_BLOCK_API_FILE = 3,
	CSIM_BLOCK_API_INSTR = 4,
	CSIM_BLOCK_OP_BASIC_INFO = 5
};

#define CSIM_BLOCK_HEADER_SIZE 12u
#define CSIM_SOURCE_PATH_SIZE 4096u
#define CSIM_BLOCK_RESERVE 0x5Au

struct csim_block {
	uint64_t offset;         /* of the header */
	uint64_t content_size;   /* as stored: payload + padding */
	uint64_t payload_offset; /* first payload byte (after a SOURCE path) */
	uint64_t payload_size;   /* content_size - padding (SOURCE: text only) */
	uint64_t end;            /* where the next header starts */
	uint8_t type;
	uint8_t padding;
	uint8_t version;
	uint8_t reserve;
	int source_inclusive;    /* SOURCE read in the older inclusive framing */
};

struct csim_block_reader {
	struct csim_stream stream;
	uint64_t block_offset;   /* header of the current block */
	uint64_t block_end;      /* where the next header starts */
	uint64_t payload_left;   /* unread payload bytes of the current block */
	uint64_t trailing_bytes; /* bytes after the last block, too short for a header */
	uint64_t trailing_offset;
};

/* Leaves r safe to release; open() does it first, and a failed open() leaves
   r released. */
void csim_block_reader_init(struct csim_block_reader *r);
int csim_block_reader_open(struct csim_block_reader *r, const char *path,
			   struct csim_error *err);
void csim_block_reader_release(struct csim_block_reader *r);

/* Steps to the next block; *has_block is 0 at the end of the file. */
int csim_block_reader_next(struct csim_block_reader *r, struct csim_block *blk,
			   int *has_block, struct csim_error *err);

/*
 * Reads up to n payload bytes of the current block; *got is 0 at its end.
 * SOURCE text is never read (the converter has no use for it): for a SOURCE
 * block *got is always 0, although payload_size gives the text's length.
 */
int csim_block_reader_read(struct csim_block_reader *r, void *dst, size_t n,
			   size_t *got, struct csim_error *err);

/*
 * Reads the whole payload of the current block (blk, just returned by next)
 * into a malloc'd *out of blk->payload_size bytes. A size checked against
 * the file is allocated at once; an unverified one (gzip input) only as its
 * bytes arrive, so a header claiming 256 GiB fails as a truncated block, not
 * as an allocation of the claimed size.
 */
int csim_block_reader_read_payload(struct csim_block_reader *r,
				   const struct csim_block *blk, char **out,
				   struct csim_error *err);

/* Skips up to n payload bytes of the current block. */
int csim_block_reader_skip(struct csim_block_reader *r, uint64_t n,
			   struct csim_error *err);

/*
 * Whether block sizes were checked against the file's size (plain files); a
 * gzip block's size is unverified until its bytes run out.
 */
int csim_block_reader_sizes_checked(const struct csim_block_reader *r);

const struct csim_file_id *csim_block_reader_file_id(const struct csim_block_reader *r);

/* Ticks p (base/progress.h) with the file's bytes as they are read; NULL: none. */
void csim_block_reader_set_progress(struct csim_block_reader *r, struct csim_progress *p);

/* Once next() found the end: the bytes after the last block, too short
   for a header (0: none), and where they start. */
uint64_t csim_block_reader_trailing(const struct csim_block_reader *r, uint64_t *offset);

/* Bytes of the file read so far (0: the file is empty). */
uint64_t csim_block_reader_tell(const struct csim_block_reader *r);

/* The current block's payload as a window's source (read/byte_window.h). */
struct csim_byte_source csim_block_reader_source(struct csim_block_reader *r);

/* Positions the reader at the payload of a block seen on an earlier pass. */
int csim_block_reader_seek(struct csim_block_reader *r,
			   const struct csim_block *blk, struct csim_error *err);

#endif
