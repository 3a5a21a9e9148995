#define _GNU_SOURCE   /* O_TMPFILE */
#include "read/slice_store.h"

#include <errno.h>
#include <fcntl.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

/* Read back from the temporary file at once (more for a longer row). */
#define SPILL_WINDOW ((size_t)1 << 20)

#include "base/array_grow.h"
#include "base/number_grid.h"

void csim_slice_store_init(struct csim_slice_store *store, const char *path,
			   const struct csim_file_id *file_id)
{
	memset(store, 0, sizeof(*store));
	store->spill_fd = -1;
	store->path = path;
	if (file_id != NULL)
		store->file_id = *file_id;
}

void csim_slice_store_release(struct csim_slice_store *store)
{
	free(store->blocks);
	free(store->locs_end);
	free(store->locs);
	free(store->text);
	if (store->spill_fd >= 0)
		close(store->spill_fd);
	csim_slice_store_init(store, NULL, NULL);
}

void csim_slice_store_clear(struct csim_slice_store *store)
{
	store->nblocks = 0;
	store->nlocs = 0;
	store->text_len = 0;
	store->spilled = 0;   /* the file's bytes are written over */
}

void csim_slice_store_keep_text(struct csim_slice_store *store)
{
	store->keep_text = 1;
	store->text_limit = CSIM_SLICE_TEXT_MEM;
}

/*
 * Moves the arena's text to the temporary file (made on first use, with no
 * name, so nothing is left behind whatever ends the run). A file that
 * cannot be made or written turns spilling off: the text then stays in
 * memory, as it would without the limit.
 */
static void spill(struct csim_slice_store *store)
{
	size_t done = 0;

	if (store->spill_fd < 0) {
		const char *dir = getenv("TMPDIR");

		store->spill_fd = open(dir != NULL && *dir != '\0' ? dir : "/tmp",
				       O_TMPFILE | O_RDWR | O_CLOEXEC, 0600);
		if (store->spill_fd < 0) {
			store->spill_off = 1;
			return;
		}
	}
	while (done < store->text_len) {
		ssize_t n = pwrite(store->spill_fd, store->text + done, store->text_len - done,
				   (off_t)(store->spilled + done));

		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0) {
			store->spill_off = 1;
			return;
		}
		done += (size_t)n;
	}
	store->spilled += store->text_len;
	store->text_len = 0;
}

/* Appends the event's text to the arena; its place there becomes the offset. */
static int keep_text(struct csim_slice_store *store, const struct csim_event *ev,
		     struct csim_slice_loc *loc, struct csim_error *err)
{
	if (store->text_len > 0 && !store->spill_off &&
	    store->text_len + ev->raw.n > store->text_limit)
		spill(store);
	if (ev->raw.n > SIZE_MAX - store->text_len ||
	    csim_array_grow((void **)&store->text, &store->text_cap,
			    store->text_len + ev->raw.n, 1) != 0)
		return csim_error_nomem(err, CSIM_E_INPUT);
	memcpy(store->text + store->text_len, ev->raw.p, ev->raw.n);
	loc->offset = store->spilled + store->text_len;
	store->text_len += ev->raw.n;
	return CSIM_OK;
}

int csim_slice_store_begin_block(struct csim_slice_store *store,
				 const struct csim_block *blk, struct csim_error *err)
{
	if (csim_array_grow((void **)&store->blocks, &store->blocks_cap,
			    store->nblocks + 1, sizeof(*store->blocks)) != 0 ||
	    csim_array_grow((void **)&store->locs_end, &store->locs_end_cap,
			    store->nblocks + 1, sizeof(*store->locs_end)) != 0)
		return csim_error_nomem(err, CSIM_E_INPUT);
	store->blocks[store->nblocks] = *blk;
	store->locs_end[store->nblocks] = store->nlocs;
	store->nblocks++;
	return CSIM_OK;
}

static const int layout_fields[4] = { CSIM_F_NAME, CSIM_F_PID, CSIM_F_TS,
				     CSIM_F_DUR };

void csim_slice_layout_make(const struct csim_event *ev, struct csim_slice_layout *layout)
{
	struct csim_span args = ev->field[CSIM_F_ARGS];

	memset(layout, 0, sizeof(*layout));
	if (ev->raw.n > UINT32_MAX)
		return;   /* n[0] stays 0: parse again */
	layout->len = (uint32_t)ev->raw.n;
	for (int i = 0; i < 4; i++) {
		struct csim_span f = ev->field[layout_fields[i]];
		size_t off = f.p != NULL ? (size_t)(f.p - ev->raw.p) : 0;

		if (off + f.n > UINT16_MAX) {
			layout->n[0] = 0;
			return;
		}
		layout->off[i] = (uint16_t)off;
		layout->n[i] = (uint16_t)f.n;
	}
	if (args.p != NULL) {
		layout->args_off = (uint32_t)(args.p - ev->raw.p);
		layout->args_n = (uint32_t)args.n;
	}
}

/* The field spans of a re-read event, from where the first reading saw them. */
static void layout_apply(const struct csim_slice_layout *layout, struct csim_event *ev)
{
	const char *p = ev->raw.p;

	for (int i = 0; i < 4; i++)
		if (layout->n[i] != 0)
			ev->field[layout_fields[i]] =
				(struct csim_span){ p + layout->off[i], layout->n[i] };
	if (layout->args_n != 0)
		ev->field[CSIM_F_ARGS] =
			(struct csim_span){ p + layout->args_off, layout->args_n };
}

int csim_slice_store_add(struct csim_slice_store *store, const struct csim_event *ev,
			 size_t row, struct csim_error *err)
{
	struct csim_slice_loc *loc;

	if (store->nblocks == 0 ||
	    csim_array_grow((void **)&store->locs, &store->locs_cap, store->nlocs + 1,
			    sizeof(*store->locs)) != 0)
		return csim_error_nomem(err, CSIM_E_INPUT);
	loc = &store->locs[store->nlocs];
	loc->offset = ev->offset;
	loc->row = row;
	csim_slice_layout_make(ev, &loc->layout);
	if (store->keep_text && keep_text(store, ev, loc, err) != CSIM_OK)
		return err->code;
	store->nlocs++;
	store->locs_end[store->nblocks - 1] = store->nlocs;
	return CSIM_OK;
}

void csim_slice_store_reserve(struct csim_slice_store *store, size_t rows)
{
	(void)csim_array_grow((void **)&store->locs, &store->locs_cap, rows,
			      sizeof(*store->locs));
}

static int input_changed(const struct csim_slice_store *store, struct csim_error *err)
{
	return csim_error_set(err, CSIM_E_INPUT, CSIM_NO_OFFSET,
			      "%s: the file changed while it was being converted",
			      store->path);
}

int csim_slice_reader_open(struct csim_slice_reader *r,
			   const struct csim_slice_store *store,
			   const struct csim_slice *rows, struct csim_error *err)
{
	int rc;

	memset(r, 0, sizeof(*r));
	r->store = store;
	r->rows = rows;
	r->block = SIZE_MAX;
	rc = csim_trace_scan_new(&r->scan, err);
	if (rc == CSIM_OK && store->keep_text)
		return CSIM_OK;   /* the text is in memory: the file is not read again */
	if (rc == CSIM_OK)
		rc = csim_block_reader_open(&r->reader, store->path, err);
	if (rc != CSIM_OK)
		return rc;
	r->opened = 1;
	csim_stream_set_progress(&r->reader.stream, store->progress);
	if (!csim_file_id_same(csim_block_reader_file_id(&r->reader), &store->file_id))
		return input_changed(store, err);
	return CSIM_OK;
}

void csim_slice_reader_close(struct csim_slice_reader *r)
{
	if (r->opened)
		csim_block_reader_release(&r->reader);
	csim_trace_scan_free(r->scan);
	free(r->spill_buf);
	r->spill_buf = NULL;
	r->spill_cap = r->spill_len = 0;
	r->scan = NULL;
	r->opened = 0;
}

/* Positions the scanner at the payload of the block holding loc r->loc. */
static int enter_block_of_loc(struct csim_slice_reader *r, struct csim_error *err)
{
	const struct csim_slice_store *st = r->store;
	size_t b = r->block == SIZE_MAX ? 0 : r->block;
	int rc;

	while (st->locs_end[b] <= r->loc)
		b++;
	if (b == r->block)
		return CSIM_OK;
	r->block = b;
	rc = csim_block_reader_seek(&r->reader, &st->blocks[b], err);
	if (rc == CSIM_OK)
		rc = csim_trace_scan_begin(r->scan, &r->reader, &st->blocks[b], err);
	return rc;
}

/* Reads the temporary file from off on, at least len bytes, into the window. */
static int spill_window(struct csim_slice_reader *r, uint64_t off, size_t len,
			struct csim_error *err)
{
	const struct csim_slice_store *st = r->store;
	size_t want = len > SPILL_WINDOW ? len : SPILL_WINDOW;
	size_t got = 0;

	if (want > st->spilled - off)
		want = (size_t)(st->spilled - off);
	if (csim_array_grow((void **)&r->spill_buf, &r->spill_cap, want, 1) != 0)
		return csim_error_nomem(err, CSIM_E_INPUT);
	while (got < want) {
		ssize_t n = pread(st->spill_fd, r->spill_buf + got, want - got,
				  (off_t)(off + got));

		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0)
			return csim_error_set(err, CSIM_E_INPUT, CSIM_NO_OFFSET,
					      "%s: cannot read back the slice text kept in a temporary file: %s",
					      st->path, n < 0 ? strerror(errno) : "it is shorter than written");
		got += (size_t)n;
	}
	r->spill_base = off;
	r->spill_len = got;
	return CSIM_OK;
}

/*
 * A row of the kept text, as event_at() would have read it from the file;
 * progress moves through the file's size as the text is handed out.
 */
static int kept_event(struct csim_slice_reader *r, const struct csim_slice_loc *loc,
		      struct csim_event *ev, struct csim_error *err)
{
	const struct csim_slice_store *st = r->store;
	uint64_t off = loc->offset;
	size_t len = loc->layout.len;
	const char *p;

	if (off >= st->spilled) {
		p = st->text + (off - st->spilled);
	} else {
		if (off < r->spill_base || off + len > r->spill_base + r->spill_len) {
			int rc = spill_window(r, off, len, err);

			if (rc != CSIM_OK)
				return rc;
		}
		p = r->spill_buf + (off - r->spill_base);
	}
	memset(ev, 0, sizeof(*ev));
	ev->offset = off;
	ev->raw.p = p;
	ev->raw.n = len;
	ev->is_object = 1;
	csim_progress_bytes(st->progress,
			    (uint64_t)((double)st->file_id.size * (double)(off + len) /
				       (double)(st->spilled + st->text_len)),
			    len);
	return CSIM_OK;
}

/* The grid start of a re-read event must be the row's: else the file changed. */
static int same_start(const struct csim_event *ev, const struct csim_slice *s)
{
	struct csim_span ts = ev->field[CSIM_F_TS];
	int64_t start;

	return ts.p != NULL && csim_number_grid(ts.p, ts.n, CSIM_GRID_LIMIT_NS, &start) &&
	       start == s->start;
}

int csim_slice_reader_next(struct csim_slice_reader *r, size_t *row,
			   struct csim_event *ev, int *has, struct csim_error *err)
{
	const struct csim_slice_store *st = r->store;
	const struct csim_slice_loc *loc;
	int rc;

	*has = 0;
	while (r->loc < st->nlocs && !r->rows[st->locs[r->loc].row].kept)
		r->loc++;
	if (r->loc >= st->nlocs)
		return CSIM_OK;
	loc = &st->locs[r->loc];
	if (st->keep_text) {
		rc = kept_event(r, loc, ev, err);
	} else {
		rc = enter_block_of_loc(r, err);
		if (rc == CSIM_OK)
			rc = csim_trace_scan_event_at(r->scan, loc->offset, loc->layout.len,
						      ev, err);
	}
	if (rc == CSIM_OK && loc->layout.n[0] != 0)
		layout_apply(&loc->layout, ev);
	else if (rc == CSIM_OK)
		rc = csim_trace_scan_event_fields(r->scan, ev, err);
	if (rc != CSIM_OK)
		return rc;
	if (!same_start(ev, &r->rows[loc->row]))
		return input_changed(st, err);
	*row = loc->row;
	r->loc++;
	*has = 1;
	return CSIM_OK;
}
