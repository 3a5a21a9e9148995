/* Fuzz target: one TRACE payload through the event scanner, ingest and the table. */
#define _GNU_SOURCE
#include <stdlib.h>

#include "fuzz_util.h"

#include "read/block_reader.h"
#include "read/event_ingest.h"
#include "read/event_scan.h"
#include "model/event_table.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	unsigned char *bin = malloc(size + 16);
	struct fuzz_file f;
	struct csim_block_reader r;
	struct csim_trace_scan *sc;
	struct csim_table t;
	const struct csim_ingest in = { &t, 1, { 0, 0 } };
	struct csim_error err;
	struct csim_block blk;
	int has = 0;

	if (bin == NULL)
		return 0;
	if (fuzz_file_open(&f, bin, fuzz_block(bin, 2, data, size)) != 0) {
		free(bin);
		return 0;
	}
	csim_table_init(&t);
	if (csim_trace_scan_new(&sc, &err) == CSIM_OK &&
	    csim_block_reader_open(&r, f.path, &err) == CSIM_OK) {
		if (csim_block_reader_next(&r, &blk, &has, &err) == CSIM_OK && has &&
		    csim_trace_scan_begin(sc, &r, &blk, &err) == CSIM_OK) {
			struct csim_event ev;

			while (csim_trace_scan_next(sc, &ev, &has, &err) == CSIM_OK && has &&
			       csim_ingest_event(&in, sc, &ev, &err) == CSIM_OK)
				;
		}
		csim_block_reader_release(&r);
	}
	csim_table_release(&t);
	csim_trace_scan_free(sc);
	fuzz_file_close(&f);
	free(bin);
	return 0;
}
