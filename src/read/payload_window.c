#include "read/payload_window.h"

#include <stdlib.h>
#include <string.h>

#define WINDOW_SIZE (4u * 1024u * 1024u)

void csim_payload_window_release(struct csim_payload_window *w)
{
	free(w->buf);
	memset(w, 0, sizeof(*w));
}

int csim_payload_window_reserve(struct csim_payload_window *w, size_t cap,
				struct csim_error *err)
{
	char *b;

	if (cap < WINDOW_SIZE)
		cap = WINDOW_SIZE;   /* _begin() would grow a smaller one */
	if (w->cap >= cap)
		return CSIM_OK;
	b = realloc(w->buf, cap);
	if (b == NULL)
		return csim_error_nomem(err, CSIM_E_INPUT);
	w->buf = b;
	w->cap = cap;
	return CSIM_OK;
}

int csim_payload_window_begin(struct csim_payload_window *w,
			      struct csim_block_reader *reader,
			      const struct csim_block *block, struct csim_error *err)
{
	w->reader = reader;
	w->block = *block;
	w->len = w->pos = 0;
	w->base = 0;
	w->final = block->payload_size == 0;
	w->stop = 0;
	if (w->buf == NULL || (w->cap < WINDOW_SIZE && w->cap < block->payload_size)) {
		/* Small payloads get a small window: a dump of a few KB (and
		   every fuzz input) should not pay for 4 MiB. */
		size_t cap = block->payload_size < WINDOW_SIZE
			     ? (size_t)block->payload_size + 64 : WINDOW_SIZE;
		char *b = realloc(w->buf, cap);

		if (b == NULL)
			return csim_error_nomem(err, CSIM_E_INPUT);
		w->buf = b;
		w->cap = cap;
	}
	return CSIM_OK;
}

int csim_payload_window_refill(struct csim_payload_window *w, struct csim_error *err)
{
	size_t keep = w->len - w->pos;
	size_t got, room;
	int rc;

	if (w->pos > 0) {
		memmove(w->buf, w->buf + w->pos, keep);
		w->base += w->pos;
		w->len = keep;
		w->pos = 0;
	}
	if (w->len == w->cap) {
		/* One element larger than the window: grow to hold it. */
		size_t cap = w->cap * 2;
		char *b = cap > w->cap ? realloc(w->buf, cap) : NULL;

		if (b == NULL)
			return csim_error_nomem(err, CSIM_E_INPUT);
		w->buf = b;
		w->cap = cap;
	}
	room = w->cap - w->len;
	/* Reading on past the stop would only be thrown away; a stop already
	   reached no longer limits (the caller wants more after all). */
	if (w->stop > w->base + w->len && w->stop - (w->base + w->len) < room)
		room = (size_t)(w->stop - (w->base + w->len));
	rc = csim_block_reader_read(w->reader, w->buf + w->len, room, &got, err);
	if (rc != CSIM_OK)
		return rc;
	w->len += got;
	if (w->reader->payload_left == 0)
		w->final = 1;
	return CSIM_OK;
}

int csim_payload_window_at(struct csim_payload_window *w, uint64_t offset,
			   size_t len, struct csim_error *err)
{
	uint64_t have_end = w->base + w->len;
	int rc = CSIM_OK;

	if (offset < w->base)
		return csim_error_set(err, CSIM_E_INPUT, w->block.offset,
				      "%s: TRACE block at offset %llu: events out of order on re-reading",
				      w->reader->stream.path,
				      (unsigned long long)w->block.offset);
	if (offset >= have_end) {
		/* Not buffered: drop the window and skip ahead in the file. */
		rc = csim_block_reader_skip(w->reader, offset - have_end, err);
		w->base = offset;
		w->len = w->pos = 0;
	} else {
		w->pos = (size_t)(offset - w->base);
	}
	while (rc == CSIM_OK && w->base + w->len < offset + len) {
		if (w->reader->payload_left == 0)
			return csim_error_set(err, CSIM_E_INPUT, w->block.offset,
					      "%s: TRACE block at offset %llu: shorter on re-reading",
					      w->reader->stream.path,
					      (unsigned long long)w->block.offset);
		rc = csim_payload_window_refill(w, err);
	}
	return rc;
}
