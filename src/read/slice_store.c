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
/* Recorded rows read back from theirs at once (192 KiB). */
#define LOCS_WINDOW ((size_t)4096)

#include "base/array_grow.h"
#include "base/number_grid.h"

void csim_slice_store_init(struct csim_slice_store *store, const char *path,
			   const struct csim_file_id *file_id)
{
	memset(store, 0, sizeof(*store));
	store->spill_fd = -1;
	store->locs_fd = -1;
	store->locs_step = CSIM_SLICE_LOCS_STEP;
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
	if (store->locs_fd >= 0)
		close(store->locs_fd);
	csim_slice_store_init(store, NULL, NULL);
}

void csim_slice_store_clear(struct csim_slice_store *store)
{
	store->nblocks = 0;
	store->nlocs = 0;
	store->locs_spilled = 0;
	store->text_len = 0;
	store->spilled = 0;   /* the file's bytes are written over */
}

void csim_slice_store_keep_text(struct csim_slice_store *store)
{
	store->keep_text = 1;
	store->text_limit = CSIM_SLICE_TEXT_MEM;
}

/*
 * A temporary file with no name, so nothing is left behind whatever ends
 * the run: made on first use (*fd < 0); 0, or -1 when it cannot be.
 */
static int tmp_open(int *fd)
{
	const char *dir = getenv("TMPDIR");

	if (*fd < 0)
		*fd = open(dir != NULL && *dir != '\0' ? dir : "/tmp",
			   O_TMPFILE | O_RDWR | O_CLOEXEC, 0600);
	return *fd < 0 ? -1 : 0;
}

/* All of p[0, len) at offset off of fd: 0, or -1. */
static int write_all_at(int fd, const void *p, size_t len, uint64_t off)
{
	size_t done = 0;

	while (done < len) {
		ssize_t n = pwrite(fd, (const char *)p + done, len - done, (off_t)(off + done));

		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0)
			return -1;
		done += (size_t)n;
	}
	return 0;
}

/* All of p[0, len) from offset off of fd: 0, or -1 (errno 0: it is shorter). */
static int read_all_at(int fd, void *p, size_t len, uint64_t off)
{
	size_t got = 0;

	while (got < len) {
		ssize_t n = pread(fd, (char *)p + got, len - got, (off_t)(off + got));

		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0) {
			if (n == 0)
				errno = 0;
			return -1;
		}
		got += (size_t)n;
	}
	return 0;
}

/* What the store wrote to one of its temporary files, read back: what names it. */
static int read_back(const struct csim_slice_store *st, int fd, void *p, size_t len,
		     uint64_t off, const char *what, struct csim_error *err)
{
	if (read_all_at(fd, p, len, off) == 0)
		return CSIM_OK;
	return csim_error_set(err, CSIM_E_INPUT, CSIM_NO_OFFSET,
			      "%s: cannot read back the slice %s kept in a temporary file: %s",
			      st->path, what, errno != 0 ? strerror(errno) : "it is shorter than written");
}

/*
 * Moves the arena's text to the temporary file. A file that cannot be made
 * or written turns spilling off: the text then stays in memory, as it
 * would without the limit.
 */
static void spill(struct csim_slice_store *store)
{
	if (tmp_open(&store->spill_fd) != 0 ||
	    write_all_at(store->spill_fd, store->text, store->text_len, store->spilled) != 0) {
		store->spill_off = 1;
		return;
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

/*
 * Appends the rows held in memory to their temporary file; one that cannot
 * be made or written leaves them, and the rows after, in memory.
 */
static void spill_locs(struct csim_slice_store *store)
{
	size_t held = store->nlocs - store->locs_spilled;

	if (tmp_open(&store->locs_fd) != 0 ||
	    write_all_at(store->locs_fd, store->locs, held * sizeof(*store->locs),
			 (uint64_t)store->locs_spilled * sizeof(*store->locs)) != 0) {
		store->locs_spill_off = 1;
		return;
	}
	store->locs_spilled = store->nlocs;
}

int csim_slice_store_add(struct csim_slice_store *store, const struct csim_event *ev,
			 size_t row, struct csim_error *err)
{
	struct csim_slice_loc *loc;

	if (store->nlocs - store->locs_spilled >= store->locs_step && !store->locs_spill_off)
		spill_locs(store);
	if (store->nblocks == 0 ||
	    csim_array_grow((void **)&store->locs, &store->locs_cap,
			    store->nlocs - store->locs_spilled + 1, sizeof(*store->locs)) != 0)
		return csim_error_nomem(err, CSIM_E_INPUT);
	loc = &store->locs[store->nlocs - store->locs_spilled];
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
	(void)csim_array_grow((void **)&store->locs, &store->locs_cap,
			      rows < store->locs_step ? rows : store->locs_step + 1,
			      sizeof(*store->locs));
}

void csim_slice_loc_cursor_init(struct csim_slice_loc_cursor *c,
				const struct csim_slice_store *store)
{
	memset(c, 0, sizeof(*c));
	c->store = store;
}

int csim_slice_loc_cursor_reserve(struct csim_slice_loc_cursor *c, struct csim_error *err)
{
	if (c->store->locs_spilled > 0 &&
	    csim_array_grow((void **)&c->buf, &c->cap, LOCS_WINDOW, sizeof(*c->buf)) != 0)
		return csim_error_nomem(err, CSIM_E_INPUT);
	return CSIM_OK;
}

int csim_slice_loc_cursor_get(struct csim_slice_loc_cursor *c, size_t i,
			      const struct csim_slice_loc **loc, struct csim_error *err)
{
	const struct csim_slice_store *st = c->store;
	size_t n;

	if (i >= st->locs_spilled) {
		*loc = &st->locs[i - st->locs_spilled];
		return CSIM_OK;
	}
	if (i < c->base || i >= c->base + c->n) {
		n = st->locs_spilled - i < LOCS_WINDOW ? st->locs_spilled - i : LOCS_WINDOW;
		if (csim_slice_loc_cursor_reserve(c, err) != CSIM_OK)
			return err->code;
		c->n = 0;
		if (read_back(st, st->locs_fd, c->buf, n * sizeof(*c->buf),
			      (uint64_t)i * sizeof(*c->buf), "locations", err) != CSIM_OK)
			return err->code;
		c->base = i;
		c->n = n;
	}
	*loc = &c->buf[i - c->base];
	return CSIM_OK;
}

void csim_slice_loc_cursor_release(struct csim_slice_loc_cursor *c)
{
	free(c->buf);
	csim_slice_loc_cursor_init(c, c->store);
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
	csim_slice_loc_cursor_init(&r->locs, store);
	rc = csim_slice_loc_cursor_reserve(&r->locs, err);
	if (rc == CSIM_OK)
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
	csim_slice_loc_cursor_release(&r->locs);
	r->spill_buf = NULL;
	r->spill_cap = r->spill_len = 0;
	r->scan = NULL;
	r->opened = 0;
}

/*
 * Recorded row i, copied: the cursor's window is left where the reading
 * goes on.
 */
static int loc_copy(struct csim_slice_reader *r, size_t i, struct csim_slice_loc *out,
		    struct csim_error *err)
{
	const struct csim_slice_store *st = r->store;
	const struct csim_slice_loc *loc;
	int rc;

	if (i >= st->locs_spilled || (i >= r->locs.base && i < r->locs.base + r->locs.n)) {
		rc = csim_slice_loc_cursor_get(&r->locs, i, &loc, err);
		if (rc == CSIM_OK)
			*out = *loc;
		return rc;
	}
	return read_back(st, st->locs_fd, out, sizeof(*out), (uint64_t)i * sizeof(*out),
			 "locations", err);
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
	struct csim_slice_loc last;
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
		rc = loc_copy(r, (st->locs_end[b] < r->loc_end ? st->locs_end[b] : r->loc_end) - 1,
			      &last, err);
		r->win.bytes.stop = last.offset + last.layout.len;
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

	if (want > st->spilled - off)
		want = (size_t)(st->spilled - off);
	if (csim_array_grow((void **)&r->spill_buf, &r->spill_cap, want, 1) != 0)
		return csim_error_nomem(err, CSIM_E_INPUT);
	if (read_back(st, st->spill_fd, r->spill_buf, want, off, "text", err) != CSIM_OK)
		return err->code;
	r->spill_base = off;
	r->spill_len = want;
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
	const struct csim_slice_loc *loc = NULL;
	int rc;

	*has = 0;
	for (; r->loc < r->loc_end; r->loc++) {
		rc = csim_slice_loc_cursor_get(&r->locs, r->loc, &loc, err);
		if (rc != CSIM_OK)
			return rc;
		if (r->rows[loc->row].kept)
			break;
	}
	if (r->loc >= r->loc_end)
		return CSIM_OK;
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
