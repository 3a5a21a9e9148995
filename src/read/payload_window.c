#include "read/payload_window.h"

#include <string.h>

#define WINDOW_SIZE (4u * 1024u * 1024u)

void csim_payload_window_release(struct csim_payload_window *w)
{
	csim_byte_window_release(&w->bytes);
	memset(w, 0, sizeof(*w));
}

int csim_payload_window_reserve(struct csim_payload_window *w, size_t cap,
				struct csim_error *err)
{
	if (cap < WINDOW_SIZE)
		cap = WINDOW_SIZE;   /* _begin() would grow a smaller one */
	return csim_byte_window_reserve(&w->bytes, cap) == 0
	       ? CSIM_OK : csim_error_nomem(err, CSIM_E_INPUT);
}

int csim_payload_window_begin(struct csim_payload_window *w,
			      struct csim_block_reader *reader,
			      const struct csim_block *block, struct csim_error *err)
{
	w->reader = reader;
	w->block = *block;
	w->source = csim_block_reader_source(reader);
	return csim_byte_window_start(&w->bytes, block->payload_size, WINDOW_SIZE, err);
}

int csim_payload_window_refill(struct csim_payload_window *w, struct csim_error *err)
{
	return csim_byte_window_refill(&w->bytes, &w->source, err);
}

int csim_payload_window_at(struct csim_payload_window *w, uint64_t offset,
			   size_t len, struct csim_error *err)
{
	struct csim_byte_window *b = &w->bytes;
	uint64_t have_end = b->base + b->len;
	int rc = CSIM_OK;

	if (offset < b->base)
		return csim_error_set(err, CSIM_E_INPUT, w->block.offset,
				      "%s: TRACE block at offset %llu: events out of order on re-reading",
				      w->reader->stream.path,
				      (unsigned long long)w->block.offset);
	if (offset >= have_end) {
		/* Not buffered: drop the window and skip ahead in the file. */
		rc = csim_block_reader_skip(w->reader, offset - have_end, err);
		csim_byte_window_drop(b, offset);
	} else {
		b->pos = (size_t)(offset - b->base);
	}
	while (rc == CSIM_OK && b->base + b->len < offset + len) {
		if (w->reader->payload_left == 0)
			return csim_error_set(err, CSIM_E_INPUT, w->block.offset,
					      "%s: TRACE block at offset %llu: shorter on re-reading",
					      w->reader->stream.path,
					      (unsigned long long)w->block.offset);
		rc = csim_payload_window_refill(w, err);
	}
	return rc;
}
