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
	return t->w.base + (uint64_t)(p - t->w.buf);
}

int csim_instr_text_open(struct csim_instr_text *t, const struct csim_instr_source *src,
			 struct csim_error *err)
{
	int rc;

	memset(t, 0, sizeof(*t));
	t->src = src;
	if (src->payload != NULL) {
		csim_byte_window_lend(&t->w, src->payload, (size_t)src->block.payload_size);
		return CSIM_OK;
	}
	rc = csim_block_reader_open(&t->reader, src->path, err);
	if (rc != CSIM_OK)
		return rc;
	t->opened = 1;
	t->source = csim_block_reader_source(&t->reader);
	if (!csim_file_id_same(csim_block_reader_file_id(&t->reader), &src->file_id))
		return csim_instr_text_changed(t, err);
	rc = csim_block_reader_seek(&t->reader, &src->block, err);
	if (rc != CSIM_OK)
		return rc;
	return csim_byte_window_start(&t->w, src->block.payload_size, TEXT_WINDOW, err);
}

void csim_instr_text_close(struct csim_instr_text *t)
{
	if (t->opened)
		csim_block_reader_release(&t->reader);
	csim_byte_window_release(&t->w);
	csim_json_stack_release(&t->stack);
	t->opened = 0;
}

int csim_instr_text_more(struct csim_instr_text *t, struct csim_error *err)
{
	return csim_byte_window_refill(&t->w, &t->source, err);
}

int csim_instr_text_seek(struct csim_instr_text *t, uint64_t offset,
			 struct csim_error *err)
{
	uint64_t have_end = t->w.base + t->w.len;
	int rc;

	if (offset < have_end) {
		t->w.pos = (size_t)(offset - t->w.base);
		return CSIM_OK;
	}
	rc = csim_block_reader_skip(&t->reader, offset - have_end, err);
	if (rc != CSIM_OK)
		return rc;
	csim_byte_window_drop(&t->w, offset);
	t->w.final = t->reader.payload_left == 0;
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
		const char *p = csim_json_skip_ws(t->w.buf + t->w.pos, t->w.buf + t->w.len);
		int rc;

		t->w.pos = (size_t)(p - t->w.buf);
		if (t->w.pos < t->w.len) {
			*c = (unsigned char)*p;
			return CSIM_OK;
		}
		if (t->w.final) {
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
	w->close = t->w.buf[t->w.pos] == '{' ? '}' : ']';
	w->started = 0;
	t->w.pos++;
}

/* A container's next item, as the window's pull loop scans it. */
struct head_call {
	struct csim_instr_text *t;
	const struct csim_instr_walk *walk;
	struct csim_json_iter it;
	struct csim_json_item *item;
	int *has;
};

static int head_pulled(void *ctx, struct csim_scan_result *res)
{
	struct head_call *c = ctx;
	struct csim_byte_window *w = &c->t->w;

	/* Scanned again from the item's start after a refill. */
	c->it = (struct csim_json_iter){ &c->t->stack, w->buf + w->pos, w->buf + w->len,
					 w->final, c->walk->close, c->walk->started };
	return csim_json_iter_head(&c->it, c->item, c->has, res);
}

int csim_instr_text_head(struct csim_instr_text *t, struct csim_instr_walk *w,
			 struct csim_json_item *item, int *has, struct csim_error *err)
{
	struct head_call c = { t, w, { NULL, NULL, NULL, 0, 0, 0 }, item, has };
	struct csim_scan_result res;
	int src, rc = csim_byte_window_pull(&t->w, &t->source, head_pulled, &c, &src, &res, err);

	if (rc != CSIM_OK)
		return rc;
	if (src != CSIM_SCAN_OK)
		return scan_error(t, src, &res, err);
	w->started = c.it.started;
	t->w.pos = (size_t)(c.it.p - t->w.buf);
	return CSIM_OK;
}

/* A value, as the window's pull loop scans it. */
struct value_call {
	struct csim_instr_text *t;
};

static int value_pulled(void *ctx, struct csim_scan_result *res)
{
	struct csim_instr_text *t = ((struct value_call *)ctx)->t;

	return csim_json_scan_value(&t->stack, t->w.buf + t->w.pos, t->w.buf + t->w.len,
				    t->w.final, res);
}

int csim_instr_text_value(struct csim_instr_text *t, struct csim_span *value,
			  struct csim_error *err)
{
	struct value_call c = { t };
	struct csim_scan_result res;
	int src, rc = csim_byte_window_pull(&t->w, &t->source, value_pulled, &c, &src, &res, err);
	const char *p = t->w.buf + t->w.pos;

	if (rc != CSIM_OK)
		return rc;
	if (src != CSIM_SCAN_OK)
		return scan_error(t, src, &res, err);
	*value = csim_span_of(p, (size_t)(res.end - p));
	t->w.pos = (size_t)(res.end - t->w.buf);
	return CSIM_OK;
}

int csim_instr_text_chunk(struct csim_instr_text *t, const char **p, size_t *n,
			  struct csim_error *err)
{
	if (t->w.pos == t->w.len && !t->w.final) {
		int rc = csim_instr_text_more(t, err);

		if (rc != CSIM_OK)
			return rc;
	}
	*p = t->w.buf + t->w.pos;
	*n = t->w.len - t->w.pos;
	t->w.pos = t->w.len;
	return CSIM_OK;
}

int csim_instr_text_reserve(struct csim_instr_text *t, size_t window, size_t stack)
{
	if (window > 0 && csim_byte_window_reserve(&t->w, window) != 0)
		return -1;
	return csim_array_grow((void **)&t->stack.kinds, &t->stack.cap, stack, 1);
}
