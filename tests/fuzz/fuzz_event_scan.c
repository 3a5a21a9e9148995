/*
 * Fuzz target: one TRACE payload through the event scanner, ingest and the
 * table.
 *
 * Asserted of every input (fuzz_assert.h):
 * - Every call returns CSIM_OK or CSIM_E_INPUT with a message, never "out
 *   of memory" (making the scanner cannot fail at all).
 * - A second scan of the same block gives the same codes, messages, events
 *   (offset, bytes, depth, decoded texts) and table counts.
 */
#define _GNU_SOURCE
#include <stdlib.h>

#include "fuzz_assert.h"
#include "fuzz_util.h"

#include "read/block_reader.h"
#include "read/event_ingest.h"
#include "read/event_scan.h"
#include "model/event_table.h"

static void take_text(struct fuzz_trail *t, const struct csim_text *x)
{
	fuzz_trail_u64(t, (uint64_t)x->kind);
	fuzz_trail_text(t, x->p != NULL ? x->p : "", x->p != NULL ? x->n : 0);
}

static void take_event(struct fuzz_trail *t, const struct csim_event *ev)
{
	fuzz_trail_u64(t, ev->offset);
	fuzz_trail_u64(t, (uint64_t)ev->is_object);
	fuzz_trail_text(t, ev->raw.p != NULL ? ev->raw.p : "", ev->raw.p != NULL ? ev->raw.n : 0);
	fuzz_trail_u64(t, ev->depth);
	take_text(t, &ev->ph);
	take_text(t, &ev->name);
	take_text(t, &ev->pid);
	take_text(t, &ev->tid);
	take_text(t, &ev->id);
}

static void take_table(struct fuzz_trail *t, const struct csim_table *tab)
{
	fuzz_trail_u64(t, tab->nslices);
	fuzz_trail_u64(t, tab->nsyncs);
	fuzz_trail_u64(t, tab->ndetails);
	fuzz_trail_u64(t, tab->ncounters);
	fuzz_trail_text(t, tab->counter_text != NULL ? tab->counter_text : "",
			tab->counter_text != NULL ? tab->counter_len : 0);
	fuzz_trail_u64(t, tab->nbytes);
}

/* Checks a call's code and takes it into t; whether it succeeded. */
static int took(struct fuzz_trail *t, size_t size, const char *call, int rc,
		const struct csim_error *err)
{
	fuzz_expect(size, call, rc, err, FUZZ_CODE(CSIM_E_INPUT));
	fuzz_trail_result(t, rc, err);
	return rc == CSIM_OK;
}

/* The block scanned and its events ingested once, everything observable into t. */
static void scan_once(const char *path, size_t size, struct fuzz_trail *t)
{
	struct csim_block_reader r;
	struct csim_trace_scan *sc = NULL;
	struct csim_table tab;
	const struct csim_ingest in = { &tab, 1, { 0, 0 } };
	struct csim_error err;
	struct csim_block blk;
	int has = 0, rc;

	csim_table_init(&tab);
	rc = csim_trace_scan_new(&sc, &err);
	fuzz_expect(size, "csim_trace_scan_new", rc, &err, 0);
	if (took(t, size, "csim_block_reader_open",
		 csim_block_reader_open(&r, path, &err), &err)) {
		if (took(t, size, "csim_block_reader_next",
			 csim_block_reader_next(&r, &blk, &has, &err), &err) && has &&
		    took(t, size, "csim_trace_scan_begin",
			 csim_trace_scan_begin(sc, &r, &blk, &err), &err)) {
			struct csim_event ev;

			while (took(t, size, "csim_trace_scan_next",
				    csim_trace_scan_next(sc, &ev, &has, &err), &err) && has) {
				take_event(t, &ev);
				if (!took(t, size, "csim_ingest_event",
					  csim_ingest_event(&in, sc, &ev, &err), &err))
					break;
			}
		}
		csim_block_reader_release(&r);
	}
	take_table(t, &tab);
	csim_table_release(&tab);
	csim_trace_scan_free(sc);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	unsigned char *bin = malloc(size + 16);
	struct fuzz_file f;

	if (bin == NULL || fuzz_file_open(&f, bin, fuzz_block(bin, 2, data, size)) != 0)
		fuzz_fail(size, "cannot make the memory file");
	fuzz_twice(f.path, size, "the scan", scan_once);
	fuzz_file_close(&f);
	free(bin);
	return 0;
}
