#include "write/trace_split.h"

#include <errno.h>
#include <stdlib.h>

#include "base/handoff.h"
#include "base/interrupt.h"

/* A stretch's output stays here; more waits for its turn to go out. */
#define STAGE_BYTES ((size_t)4 << 20)

/* The worker's read window: a longer row is main's (main_only()). */
#define WORKER_WINDOW ((size_t)4 << 20)

/* Nesting the worker walks in args (pc_addr); deeper goes back to main. */
#define WORKER_DEPTH 64

/*
 * The stretches' bytes go out in turns (base/handoff.h): turn c is stretch
 * c's. The worker's giving its rows back is its last post.
 */
struct split {
	struct csim_handoff *turns;
	size_t back_at;               /* rows from here on are main's, once handed back */
	const size_t *bounds;         /* stretch c: locs[bounds[c], bounds[c + 1]) */
	size_t nstretches;
	struct csim_out *trace;
	/* The worker's own: */
	size_t current;
	struct csim_slice_reader reader;
	struct csim_slice_writer writer;
	struct csim_out stage;
	char *stage_buf;
	/* Main's: */
	size_t main_current;
	char *main_buf;
};

/*
 * Rows the worker leaves to main: longer than its window (it would have to
 * grow), or with no recorded layout (parsed again, with a nesting stack).
 */
static int main_only(const struct csim_slice_loc *loc)
{
	return loc->layout.n[0] == 0 || loc->layout.len > WORKER_WINDOW;
}

/*
 * Stretch bounds over the kept text, a main-only row always opening or in
 * an even stretch (an odd one ends before it, empty if need be); *n < 2
 * when one thread will do.
 */
static size_t *plan_stretches(const struct csim_slice_store *store,
			      const struct csim_slice *rows, uint64_t chunk, size_t *n)
{
	struct csim_slice_loc_cursor cur;
	struct csim_error ignored;   /* a row not read back: the main thread's reader says so */
	const struct csim_slice_loc *loc;
	uint64_t total = 0, acc = 0;
	size_t count = 0, nmain = 0, *bounds = NULL;

	*n = 0;
	csim_slice_loc_cursor_init(&cur, store);
	for (size_t i = 0; i < store->nlocs; i++) {
		if (csim_slice_loc_cursor_get(&cur, i, &loc, &ignored) != CSIM_OK)
			goto fail;
		if (!rows[loc->row].kept)
			continue;
		total += loc->layout.len;
		nmain += (size_t)main_only(loc);
	}
	if (chunk == 0 || total / chunk < 4)
		goto fail;
	bounds = malloc(((size_t)(total / chunk) + nmain + 2) * sizeof(*bounds));
	if (bounds == NULL)
		goto fail;
	bounds[0] = 0;
	for (size_t i = 0; i < store->nlocs; i++) {
		if (csim_slice_loc_cursor_get(&cur, i, &loc, &ignored) != CSIM_OK)
			goto fail;
		if (!rows[loc->row].kept)
			continue;
		if (count % 2 == 1 && main_only(loc)) {
			bounds[++count] = i;
			acc = 0;
		}
		acc += loc->layout.len;
		if (acc >= chunk) {
			bounds[++count] = i + 1;
			acc = 0;
		}
	}
	if (bounds[count] < store->nlocs || count == 0)
		bounds[++count] = store->nlocs;
	*n = count;
	csim_slice_loc_cursor_release(&cur);
	return bounds;
fail:
	csim_slice_loc_cursor_release(&cur);
	free(bounds);
	return NULL;
}

static void hand_back(struct split *sp, size_t at)
{
	sp->back_at = at;
	csim_handoff_post(sp->turns, 0, 1);
}

/* The staging buffer is full or flushed: its bytes go out in their turn. */
static int stage_send(void *ctx, const char *p, size_t n)
{
	struct split *sp = ctx;

	if (!csim_handoff_await_turn(sp->turns, sp->current, 1))
		return ECANCELED;
	csim_out_bytes(sp->trace, p, n);
	return csim_out_failed(sp->trace) ? EIO : 0;
}

static void *split_run(void *arg)
{
	struct split *sp = arg;

	for (size_t c = 1; c < sp->nstretches; c += 2) {
		struct csim_error ignored;   /* main meets it again, and reports it */
		size_t done = sp->bounds[c];
		int rc = CSIM_E_INTERRUPTED;   /* unless the rows are written */

		sp->current = c;
		csim_out_stage(&sp->stage, sp->stage_buf, STAGE_BYTES, stage_send, sp);
		if (!csim_interrupt_pending()) {
			csim_slice_reader_range(&sp->reader, sp->bounds[c], sp->bounds[c + 1]);
			rc = csim_slice_writer_rows(&sp->writer, &sp->reader, &done, &ignored);
		}
		if (!csim_handoff_await_turn(sp->turns, c, 1))
			return NULL;
		csim_out_flush(&sp->stage);
		if (rc != CSIM_OK || csim_out_failed(&sp->stage)) {
			hand_back(sp, done);
			return NULL;
		}
		csim_handoff_pass_turn(sp->turns, c + 1);
	}
	return NULL;
}

static void split_free(struct split *sp)
{
	csim_handoff_free(sp->turns);   /* stops the worker first */
	csim_slice_reader_close(&sp->reader);
	csim_slice_writer_release(&sp->writer);
	free(sp->stage_buf);
	free(sp->main_buf);
	free(sp);
}

/*
 * Everything the worker uses, allocated here, then the thread; NULL when
 * any of it fails (the rows are then written in line, which reports any
 * error in its place).
 */
static struct split *split_start(const struct csim_slice_writer *w,
				 const struct csim_slice_store *store,
				 const size_t *bounds, size_t n)
{
	struct split *sp = calloc(1, sizeof(*sp));
	struct csim_error ignored;

	if (sp == NULL)
		return NULL;
	sp->bounds = bounds;
	sp->nstretches = n;
	sp->trace = w->out;
	csim_slice_writer_init(&sp->writer, w->m, &sp->stage);
	sp->writer.first = 0;
	sp->stage_buf = malloc(STAGE_BYTES);
	sp->main_buf = malloc(STAGE_BYTES);
	if (sp->stage_buf == NULL || sp->main_buf == NULL ||
	    csim_handoff_new(&sp->turns, 0) != 0 ||
	    csim_slice_reader_open(&sp->reader, store, w->m->table.slices, &ignored) != CSIM_OK ||
	    csim_slice_reader_detach(&sp->reader, WORKER_WINDOW, &ignored) != CSIM_OK ||
	    csim_json_stack_fix(&sp->writer.stack, WORKER_DEPTH) != 0)
		goto fail;
	if (csim_handoff_start(sp->turns, "csim_trace", split_run, sp) == 0)
		return sp;
fail:
	split_free(sp);
	return NULL;
}

/* Main's staging buffer is full or flushed: as stage_send, for main. */
static int main_send(void *ctx, const char *p, size_t n)
{
	struct split *sp = ctx;

	if (!csim_handoff_await_turn(sp->turns, sp->main_current, 0))
		return ECANCELED;   /* the rows from back_at are written again */
	csim_out_bytes(sp->trace, p, n);
	return csim_out_failed(sp->trace) ? EIO : 0;
}

/*
 * The even stretches, each formatted while the worker formats the next and
 * written in its turn; then, if the worker handed rows back, every row from
 * there on in line (the reader goes back to them: what main formatted past
 * them is dropped). The trace is touched only in main's turn.
 */
static int write_shared(struct split *sp, struct csim_slice_writer *w,
			struct csim_slice_reader *r, struct csim_error *err)
{
	struct csim_out *trace = w->out, stage;
	size_t done;
	int rc = CSIM_OK, ours = 1, failed = 0;

	w->out = &stage;
	for (size_t c = 0; c < sp->nstretches && !failed; c += 2) {
		sp->main_current = c;
		csim_out_stage(&stage, sp->main_buf, STAGE_BYTES, main_send, sp);
		csim_slice_reader_range(r, sp->bounds[c], sp->bounds[c + 1]);
		rc = csim_slice_writer_rows(w, r, &done, err);
		ours = csim_handoff_await_turn(sp->turns, c, 0);
		if (!ours || rc != CSIM_OK)
			break;   /* an error here: every row before it is written */
		csim_out_flush(&stage);
		failed = csim_out_failed(trace);   /* commit reports it */
		csim_handoff_pass_turn(sp->turns, c + 1);
	}
	if (ours && rc == CSIM_OK && !failed)
		ours = csim_handoff_await_turn(sp->turns, sp->nstretches, 0);
	w->out = trace;
	if (!ours) {
		csim_slice_reader_range(r, sp->back_at, SIZE_MAX);
		rc = csim_slice_writer_rows(w, r, &done, err);
	}
	return rc;
}

int csim_trace_split_write(struct csim_slice_writer *w, const struct csim_slice_store *store,
			   uint64_t chunk, struct csim_error *err)
{
	struct csim_slice_reader reader;
	struct split *sp = NULL;
	size_t n, done, *bounds = plan_stretches(store, w->m->table.slices, chunk, &n);
	int rc;

	if (n >= 2)
		sp = split_start(w, store, bounds, n);
	rc = csim_slice_reader_open(&reader, store, w->m->table.slices, err);
	if (rc == CSIM_OK && sp != NULL)
		rc = write_shared(sp, w, &reader, err);
	else if (rc == CSIM_OK)
		rc = csim_slice_writer_rows(w, &reader, &done, err);
	if (sp != NULL)
		split_free(sp);   /* the worker stopped and joined */
	csim_slice_reader_close(&reader);
	free(bounds);
	return rc;
}
