/* Fuzz target: the block reader walks arbitrary bytes as a container. */
#define _GNU_SOURCE
#include "fuzz_util.h"

#include "read/block_reader.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct fuzz_file f;
	struct csim_block_reader r;
	struct csim_error err;
	char buf[4096];

	if (fuzz_file_open(&f, data, size) != 0)
		return 0;
	if (csim_block_reader_open(&r, f.path, &err) == CSIM_OK) {
		struct csim_block blk;
		int has = 1;

		while (csim_block_reader_next(&r, &blk, &has, &err) == CSIM_OK && has) {
			size_t got = 1;

			/* Read some payloads whole, skip others, as the converter does. */
			while (blk.type != 1 && (blk.offset & 4) == 0 && got > 0 &&
			       csim_block_reader_read(&r, buf, sizeof(buf), &got, &err) == CSIM_OK)
				;
		}
		csim_block_reader_release(&r);
	}
	fuzz_file_close(&f);
	return 0;
}
