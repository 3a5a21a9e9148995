#include "read/byte_window.h"

#include <stdlib.h>
#include <string.h>

int csim_byte_window_start(struct csim_byte_window *w, uint64_t size, size_t standard,
			   struct csim_error *err)
{
	w->len = w->pos = 0;
	w->base = 0;
	w->final = size == 0;
	w->stop = 0;
	if (w->buf == NULL || (w->cap < standard && w->cap < size)) {
		size_t cap = size < standard ? (size_t)size + 64 : standard;
		char *b = realloc(w->buf, cap);

		if (b == NULL)
			return csim_error_nomem(err, CSIM_E_INPUT);
		w->buf = b;
		w->cap = cap;
	}
	return CSIM_OK;
}

void csim_byte_window_lend(struct csim_byte_window *w, const char *data, size_t n)
{
	csim_byte_window_release(w);
	w->buf = (char *)data;   /* never written: a lent window never refills */
	w->len = w->cap = n;
	w->final = 1;
	w->lent = 1;
}

int csim_byte_window_reserve(struct csim_byte_window *w, size_t cap)
{
	char *b;

	if (w->lent || w->cap >= cap)
		return 0;
	b = realloc(w->buf, cap);
	if (b == NULL)
		return -1;
	w->buf = b;
	w->cap = cap;
	return 0;
}

int csim_byte_window_refill(struct csim_byte_window *w, const struct csim_byte_source *src,
			    struct csim_error *err)
{
	size_t got = 0, room;
	int more = 1, rc;

	if (w->lent || w->final)
		return CSIM_OK;
	if (w->pos > 0) {
		memmove(w->buf, w->buf + w->pos, w->len - w->pos);
		w->base += w->pos;
		w->len -= w->pos;
		w->pos = 0;
	}
	if (w->len == w->cap) {
		/* One item larger than the window: grow to hold it. */
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
	rc = src->read(src->ctx, w->buf + w->len, room, &got, &more, err);
	if (rc != CSIM_OK)
		return rc;
	w->len += got;
	w->final = !more;
	return CSIM_OK;
}

int csim_byte_window_pull(struct csim_byte_window *w, const struct csim_byte_source *src,
			  int (*scan)(void *ctx, struct csim_scan_result *res), void *ctx,
			  int *scan_rc, struct csim_scan_result *res, struct csim_error *err)
{
	for (;;) {
		int rc;

		*scan_rc = scan(ctx, res);
		if (*scan_rc != CSIM_SCAN_MORE)
			return CSIM_OK;
		rc = csim_byte_window_refill(w, src, err);
		if (rc != CSIM_OK)
			return rc;
	}
}

void csim_byte_window_drop(struct csim_byte_window *w, uint64_t offset)
{
	w->base = offset;
	w->len = w->pos = 0;
}

void csim_byte_window_release(struct csim_byte_window *w)
{
	if (!w->lent)
		free(w->buf);
	memset(w, 0, sizeof(*w));
}
