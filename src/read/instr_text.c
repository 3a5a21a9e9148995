#include "read/instr_text.h"

#include <stdlib.h>
#include <string.h>

#include "base/array_grow.h"

/* Rows are a few hundred bytes to a few KB: 1 MiB holds thousands. */
#define TEXT_WINDOW (1u << 20)

int csim_instr_text_changed(const struct csim_instr_text *t, struct csim_error *err)
{
	return csim_error_set(err, CSIM_E_INPUT, CSIM_NO_OFFSET,
			      "%s: the file changed while it was being converted",
			      t->src->path);
}

int csim_instr_text_bad(const struct csim_instr_text *t, uint64_t at, const char *why,
			struct csim_error *err)
{
	const struct csim_instr_source *src = t->src;

	return csim_error_set(err, CSIM_E_INPUT, src->block.offset,
			      "%s: API_INSTR block at offset %llu: %s at payload byte %llu",
			      src->path, (unsigned long long)src->block.offset, why,
			      (unsigned long long)at);
}

uint64_t csim_instr_text_offset(const struct csim_instr_text *t, const char *p)
{
	return t->base + (uint64_t)(p - t->data);
}

int csim_instr_text_open(struct csim_instr_text *t, const struct csim_instr_source *src,
			 struct csim_error *err)
{
	uint64_t size = src->block.payload_size;
	int rc;

	memset(t, 0, sizeof(*t));
	t->src = src;
	if (src->payload != NULL) {
		t->data = src->payload;
		t->len = t->cap = (size_t)size;
		t->final = 1;
		return CSIM_OK;
	}
	rc = csim_block_reader_open(&t->reader, src->path, err);
	if (rc != CSIM_OK)
		return rc;
	t->opened = 1;
	if (!csim_file_id_same(csim_block_reader_file_id(&t->reader), &src->file_id))
		return csim_instr_text_changed(t, err);
	rc = csim_block_reader_seek(&t->reader, &src->block, err);
	if (rc != CSIM_OK)
		return rc;
	/* Small payloads get a small window (a fuzz input, a test dump). */
	t->cap = size < TEXT_WINDOW ? (size_t)size + 64 : TEXT_WINDOW;
	t->buf = malloc(t->cap);
	if (t->buf == NULL)
		return csim_error_nomem(err, CSIM_E_INPUT);
	t->data = t->buf;
	t->final = size == 0;
	return CSIM_OK;
}

void csim_instr_text_close(struct csim_instr_text *t)
{
	if (t->opened)
		csim_block_reader_release(&t->reader);
	free(t->buf);
	csim_json_stack_release(&t->stack);
	t->opened = 0;
	t->buf = NULL;
	t->data = NULL;
}

int csim_instr_text_more(struct csim_instr_text *t, struct csim_error *err)
{
	size_t got;
	int rc;

	if (t->pos > 0) {
		memmove(t->buf, t->buf + t->pos, t->len - t->pos);
		t->base += t->pos;
		t->len -= t->pos;
		t->pos = 0;
	}
	if (t->len == t->cap) {
		size_t cap = t->cap * 2;
		char *b = cap > t->cap ? realloc(t->buf, cap) : NULL;

		if (b == NULL)
			return csim_error_nomem(err, CSIM_E_INPUT);
		t->buf = b;
		t->cap = cap;
	}
	rc = csim_block_reader_read(&t->reader, t->buf + t->len, t->cap - t->len, &got, err);
	if (rc != CSIM_OK)
		return rc;
	t->data = t->buf;
	t->len += got;
	if (t->reader.payload_left == 0)
		t->final = 1;
	return CSIM_OK;
}

int csim_instr_text_seek(struct csim_instr_text *t, uint64_t offset,
			 struct csim_error *err)
{
	uint64_t have_end = t->base + t->len;
	int rc;

	if (offset < have_end) {
		t->pos = (size_t)(offset - t->base);
		return CSIM_OK;
	}
	rc = csim_block_reader_skip(&t->reader, offset - have_end, err);
	if (rc != CSIM_OK)
		return rc;
	t->base = offset;
	t->len = t->pos = 0;
	t->final = t->reader.payload_left == 0;
	return CSIM_OK;
}

/* A failed scan as the caller's error; MORE is not one. */
static int scan_error(struct csim_instr_text *t, int rc, const struct csim_scan_result *res,
		      struct csim_error *err)
{
	if (rc == CSIM_SCAN_NOMEM)
		return csim_error_nomem(err, CSIM_E_INPUT);
	return csim_instr_text_bad(t, csim_instr_text_offset(t, res->where), res->why, err);
}

int csim_instr_text_peek(struct csim_instr_text *t, int *c, struct csim_error *err)
{
	for (;;) {
		const char *p = csim_json_skip_ws(t->data + t->pos, t->data + t->len);
		int rc;

		t->pos = (size_t)(p - t->data);
		if (t->pos < t->len) {
			*c = (unsigned char)*p;
			return CSIM_OK;
		}
		if (t->final) {
			*c = -1;
			return CSIM_OK;
		}
		rc = csim_instr_text_more(t, err);
		if (rc != CSIM_OK)
			return rc;
	}
}

void csim_instr_text_enter(struct csim_instr_text *t, struct csim_instr_walk *w)
{
	w->close = t->data[t->pos] == '{' ? '}' : ']';
	w->started = 0;
	t->pos++;
}

int csim_instr_text_head(struct csim_instr_text *t, struct csim_instr_walk *w,
			 struct csim_json_item *item, int *has, struct csim_error *err)
{
	for (;;) {
		struct csim_json_iter it = { &t->stack, t->data + t->pos, t->data + t->len,
					     t->final, w->close, w->started };
		struct csim_scan_result res;
		int rc = csim_json_iter_head(&it, item, has, &res);

		if (rc == CSIM_SCAN_OK) {
			w->started = it.started;
			t->pos = (size_t)(it.p - t->data);
			return CSIM_OK;
		}
		if (rc != CSIM_SCAN_MORE)
			return scan_error(t, rc, &res, err);
		rc = csim_instr_text_more(t, err);
		if (rc != CSIM_OK)
			return rc;
	}
}

int csim_instr_text_value(struct csim_instr_text *t, struct csim_span *value,
			  struct csim_error *err)
{
	for (;;) {
		const char *p = t->data + t->pos;
		struct csim_scan_result res;
		int rc = csim_json_scan_value(&t->stack, p, t->data + t->len, t->final, &res);

		if (rc == CSIM_SCAN_OK) {
			*value = csim_span_of(p, (size_t)(res.end - p));
			t->pos = (size_t)(res.end - t->data);
			return CSIM_OK;
		}
		if (rc != CSIM_SCAN_MORE)
			return scan_error(t, rc, &res, err);
		rc = csim_instr_text_more(t, err);
		if (rc != CSIM_OK)
			return rc;
	}
}

int csim_instr_text_chunk(struct csim_instr_text *t, const char **p, size_t *n,
			  struct csim_error *err)
{
	if (t->pos == t->len && !t->final) {
		int rc = csim_instr_text_more(t, err);

		if (rc != CSIM_OK)
			return rc;
	}
	*p = t->data + t->pos;
	*n = t->len - t->pos;
	t->pos = t->len;
	return CSIM_OK;
}

int csim_instr_text_reserve(struct csim_instr_text *t, size_t window, size_t stack)
{
	if (t->buf != NULL && window > t->cap) {
		char *b = realloc(t->buf, window);

		if (b == NULL)
			return -1;
		t->buf = b;
		t->data = b;
		t->cap = window;
	}
	return csim_array_grow((void **)&t->stack.kinds, &t->stack.cap, stack, 1);
}
