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
	if (store->text_limit > CSIM_SLICE_SPILL_STEP)
		store->text_limit = CSIM_SLICE_SPILL_STEP;
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

/* An event whose text is not what the first reading recorded there. */
static int event_changed(const struct csim_slice_reader *r, uint64_t offset,
			 struct csim_error *err)
{
	const struct csim_slice_store *st = r->store;
	uint64_t blk = st->keep_text || r->block == SIZE_MAX ? 0 : st->blocks[r->block].offset;

	return csim_error_set(err, CSIM_E_INPUT, blk,
			      "%s: TRACE block at offset %llu: event at payload byte %llu changed on re-reading",
			      st->path, (unsigned long long)blk, (unsigned long long)offset);
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
	r->stop_block = SIZE_MAX;
	r->loc_end = store->nlocs;
	r->progress = store->progress;
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

void csim_slice_reader_range(struct csim_slice_reader *r, size_t begin, size_t end)
{
	if (begin < r->loc)
		r->block = SIZE_MAX;   /* back: the block is sought again */
	r->loc = begin;
	r->loc_end = end < r->store->nlocs ? end : r->store->nlocs;
	r->stop_block = SIZE_MAX;   /* the window's stop follows the range */
}

int csim_slice_reader_detach(struct csim_slice_reader *r, size_t longest,
			     struct csim_error *err)
{
	const struct csim_slice_store *st = r->store;
	int rc = CSIM_OK;

	r->progress = NULL;
	r->fixed = longest;
	if (r->opened) {
		csim_stream_set_progress(&r->reader.stream, NULL);
		rc = csim_payload_window_reserve(&r->win, longest, err);
	} else if (st->spilled > 0 &&
		   csim_array_grow((void **)&r->spill_buf, &r->spill_cap,
				   longest > SPILL_WINDOW ? longest : SPILL_WINDOW, 1) != 0) {
		rc = csim_error_nomem(err, CSIM_E_INPUT);
	}
	return rc;
}

void csim_slice_reader_close(struct csim_slice_reader *r)
{
	if (r->opened)
		csim_block_reader_release(&r->reader);
	csim_payload_window_release(&r->win);
	csim_trace_scan_free(r->scan);
	free(r->spill_buf);
	r->spill_buf = NULL;
	r->spill_cap = r->spill_len = 0;
	r->scan = NULL;
	r->opened = 0;
}

/*
 * Positions the window at the payload of the block holding loc r->loc, and
 * stops its reads at the range's last row in that block: a reader that
 * writes every other stretch of rows (trace_split.h) reads only its own.
 */
static int enter_block_of_loc(struct csim_slice_reader *r, struct csim_error *err)
{
	const struct csim_slice_store *st = r->store;
	size_t b = r->block == SIZE_MAX ? 0 : r->block;
	const struct csim_slice_loc *last;
	int rc = CSIM_OK;

	while (st->locs_end[b] <= r->loc)
		b++;
	if (b != r->block) {
		r->block = b;
		rc = csim_block_reader_seek(&r->reader, &st->blocks[b], err);
		if (rc == CSIM_OK)
			rc = csim_payload_window_begin(&r->win, &r->reader, &st->blocks[b], err);
		r->stop_block = SIZE_MAX;
	}
	if (rc == CSIM_OK && r->stop_block != b) {
		last = &st->locs[(st->locs_end[b] < r->loc_end ? st->locs_end[b] : r->loc_end) - 1];
		r->win.bytes.stop = last->offset + last->layout.len;
		r->stop_block = b;
	}
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

static void event_set(struct csim_event *ev, uint64_t off, const char *p, size_t len)
{
	memset(ev, 0, sizeof(*ev));
	ev->offset = off;
	ev->raw.p = p;
	ev->raw.n = len;
	ev->is_object = 1;
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
	event_set(ev, off, p, len);
	csim_progress_bytes(r->progress,
			    (uint64_t)((double)st->file_id.size * (double)(off + len) /
				       (double)(st->spilled + st->text_len)),
			    len);
	return CSIM_OK;
}

/* A row read again from the file, at the offset the first reading saw. */
static int event_at(struct csim_slice_reader *r, const struct csim_slice_loc *loc,
		    struct csim_event *ev, struct csim_error *err)
{
	size_t len = loc->layout.len;
	const char *p;
	int rc = enter_block_of_loc(r, err);

	if (rc == CSIM_OK)
		rc = csim_payload_window_at(&r->win, loc->offset, len, err);
	if (rc != CSIM_OK)
		return rc;
	p = r->win.bytes.buf + r->win.bytes.pos;
	event_set(ev, loc->offset, p, len);
	if (len < 2 || p[0] != '{' || p[len - 1] != '}')
		return event_changed(r, loc->offset, err);
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

/*
 * The fields of a row whose layout was not recorded: parsed again, with the
 * scanner's nesting stack (which a detached reader must not grow).
 */
static int parse_fields(struct csim_slice_reader *r, struct csim_event *ev,
			struct csim_error *err)
{
	int rc;

	if (r->fixed != 0)
		return csim_error_nomem(err, CSIM_E_INPUT);
	rc = csim_trace_scan_event_fields(r->scan, ev, err);
	if (rc != CSIM_OK && !csim_error_is_nomem(err))
		rc = event_changed(r, ev->offset, err);
	return rc;
}

int csim_slice_reader_next(struct csim_slice_reader *r, size_t *row,
			   struct csim_event *ev, int *has, struct csim_error *err)
{
	const struct csim_slice_store *st = r->store;
	const struct csim_slice_loc *loc;
	int rc;

	*has = 0;
	while (r->loc < r->loc_end && !r->rows[st->locs[r->loc].row].kept)
		r->loc++;
	if (r->loc >= r->loc_end)
		return CSIM_OK;
	loc = &st->locs[r->loc];
	if (r->fixed != 0 && loc->layout.len > r->fixed)
		return csim_error_nomem(err, CSIM_E_INPUT);
	rc = st->keep_text ? kept_event(r, loc, ev, err) : event_at(r, loc, ev, err);
	if (rc == CSIM_OK && loc->layout.n[0] != 0)
		layout_apply(&loc->layout, ev);
	else if (rc == CSIM_OK)
		rc = parse_fields(r, ev, err);
	if (rc != CSIM_OK)
		return rc;
	if (!same_start(ev, &r->rows[loc->row]))
		return input_changed(st, err);
	*row = loc->row;
	r->loc++;
	*has = 1;
	return CSIM_OK;
}
