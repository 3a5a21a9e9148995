#include "write/trace_split.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "base/handoff.h"
#include "base/interrupt.h"

/*
 * The worker's text leaves in slots of this size (a stretch's ~2.3 MB
 * mostly fits one); two let it format a stretch ahead while main writes
 * the one before. (CI's sanitizer builds lower it, so that every test
 * overflows slots.)
 */
#ifndef CSIM_TRACE_SPLIT_SLOT
#define CSIM_TRACE_SPLIT_SLOT ((size_t)4 << 20)
#endif
#define SLOTS 2u

/* The worker's read window: a longer row is main's (main_only()). */
#define WORKER_WINDOW ((size_t)4 << 20)

/* Nesting the worker walks in args (pc_addr); deeper goes back to main. */
#define WORKER_DEPTH 64

/* A slot of the worker's text: bytes of one stretch, in order. */
struct slot {
	char *buf;
	size_t len;
	int end;                      /* its stretch ends after these bytes */
	int back;                     /* the worker stopped: rows from back_at are main's */
};

struct split {
	struct csim_handoff *ring;    /* the slots, from the worker to main */
	struct slot slots[SLOTS];
	const size_t *bounds;         /* stretch c: locs[bounds[c], bounds[c + 1]) */
	size_t nstretches;
	size_t back_at;               /* with a slot's back */
	/* The worker's own: */
	unsigned cur;                 /* the slot being filled */
	struct csim_slice_reader reader;
	struct csim_slice_writer writer;
	struct csim_out stage;        /* into slot cur */
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
	uint64_t total = 0, acc = 0;
	size_t count = 0, nmain = 0, *bounds;

	*n = 0;
	for (size_t i = 0; i < store->nlocs; i++) {
		if (!rows[store->locs[i].row].kept)
			continue;
		total += store->locs[i].layout.len;
		nmain += (size_t)main_only(&store->locs[i]);
	}
	if (chunk == 0 || total / chunk < 4)
		return NULL;
	bounds = malloc(((size_t)(total / chunk) + nmain + 2) * sizeof(*bounds));
	if (bounds == NULL)
		return NULL;
	bounds[0] = 0;
	for (size_t i = 0; i < store->nlocs; i++) {
		const struct csim_slice_loc *loc = &store->locs[i];

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
	return bounds;
}

/* Posts slot cur (not its stretch's end) and takes the next; 0 once main stopped. */
static int next_slot(struct split *sp)
{
	sp->slots[sp->cur].end = sp->slots[sp->cur].back = 0;
	csim_handoff_post(sp->ring, 1, 0);
	return csim_handoff_fill(sp->ring, &sp->cur);
}

/*
 * The stage's bytes leave: its slot is full (p is the slot's buffer), or a
 * piece larger than a slot goes on through as many slots as it takes.
 */
static int stage_send(void *ctx, const char *p, size_t n)
{
	struct split *sp = ctx;
	struct slot *s = &sp->slots[sp->cur];

	if (p == s->buf) {
		s->len = n;
		if (!next_slot(sp))
			return ECANCELED;
	}
	while (p != s->buf && n > 0) {
		size_t k = n < CSIM_TRACE_SPLIT_SLOT ? n : CSIM_TRACE_SPLIT_SLOT;

		memcpy(s->buf, p, k);
		s->len = k;
		p += k;
		n -= k;
		if (!next_slot(sp))
			return ECANCELED;
		s = &sp->slots[sp->cur];
	}
	csim_out_stage_move(&sp->stage, sp->slots[sp->cur].buf);
	return 0;
}

/* Ends the stretch in slot cur, or hands the rows from `done` back to main. */
static void post_stretch(struct split *sp, int back, size_t done, int last)
{
	struct slot *s = &sp->slots[sp->cur];

	s->len = csim_out_pending(&sp->stage);
	s->end = !back;
	s->back = back;
	if (back)
		sp->back_at = done;
	csim_handoff_post(sp->ring, 1, back || last);
}

static void *split_run(void *arg)
{
	struct split *sp = arg;

	for (size_t c = 1; c < sp->nstretches; c += 2) {
		struct csim_error ignored;   /* main meets it again, and reports it */
		size_t done = sp->bounds[c];
		int rc = CSIM_E_INTERRUPTED;   /* unless the rows are written */

		if (!csim_handoff_fill(sp->ring, &sp->cur))
			return NULL;
		csim_out_stage(&sp->stage, sp->slots[sp->cur].buf, CSIM_TRACE_SPLIT_SLOT,
			       stage_send, sp);
		if (!csim_interrupt_pending()) {
			csim_slice_reader_range(&sp->reader, sp->bounds[c], sp->bounds[c + 1]);
			rc = csim_slice_writer_rows(&sp->writer, &sp->reader, &done, &ignored);
		}
		if (csim_out_failed(&sp->stage))
			return NULL;   /* main stopped the ring */
		post_stretch(sp, rc != CSIM_OK, done, c + 2 >= sp->nstretches);
		if (rc != CSIM_OK)
			return NULL;
	}
	return NULL;
}

static void split_free(struct split *sp)
{
	csim_handoff_free(sp->ring);   /* stops the worker first */
	csim_slice_reader_close(&sp->reader);
	csim_slice_writer_release(&sp->writer);
	for (unsigned i = 0; i < SLOTS; i++)
		free(sp->slots[i].buf);
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
	int ok;

	if (sp == NULL)
		return NULL;
	sp->bounds = bounds;
	sp->nstretches = n;
	csim_slice_writer_init(&sp->writer, w->m, &sp->stage);
	sp->writer.first = 0;
	ok = csim_handoff_new(&sp->ring, SLOTS) == 0;
	for (unsigned i = 0; i < SLOTS && ok; i++)
		ok = (sp->slots[i].buf = malloc(CSIM_TRACE_SPLIT_SLOT)) != NULL;
	if (ok && csim_slice_reader_open(&sp->reader, store, w->m->table.slices, &ignored) == CSIM_OK &&
	    csim_slice_reader_detach(&sp->reader, WORKER_WINDOW, &ignored) == CSIM_OK &&
	    csim_json_stack_fix(&sp->writer.stack, WORKER_DEPTH) == 0 &&
	    csim_handoff_start(sp->ring, "csim_trace", split_run, sp) == 0)
		return sp;
	split_free(sp);
	return NULL;
}

/*
 * The worker's stretch, slot by slot into the trace; 1 when it handed its
 * rows back from sp->back_at (or ended before this stretch).
 */
static int write_theirs(struct split *sp, size_t c, struct csim_out *trace)
{
	unsigned k;

	for (;;) {
		struct slot s;

		if (!csim_handoff_take(sp->ring, &k)) {
			sp->back_at = sp->bounds[c];
			return 1;
		}
		s = sp->slots[k];
		csim_out_bytes(trace, s.buf, s.len);
		csim_handoff_give_back(sp->ring);
		if (s.back || s.end)
			return s.back;
	}
}

/*
 * The even stretches straight into the trace, each while the worker formats
 * the next, whose slots follow it; then, if the worker handed rows back,
 * every row from there on in line. Only main touches the trace.
 */
static int write_shared(struct split *sp, struct csim_slice_writer *w,
			struct csim_slice_reader *r, struct csim_error *err)
{
	size_t done;
	int rc = CSIM_OK;

	for (size_t c = 0; c < sp->nstretches; c += 2) {
		csim_slice_reader_range(r, sp->bounds[c], sp->bounds[c + 1]);
		rc = csim_slice_writer_rows(w, r, &done, err);
		if (rc != CSIM_OK || c + 1 >= sp->nstretches)
			break;   /* an error here: every row before it is written */
		if (write_theirs(sp, c + 1, w->out)) {
			csim_slice_reader_range(r, sp->back_at, SIZE_MAX);
			return csim_slice_writer_rows(w, r, &done, err);
		}
		if (csim_out_failed(w->out))
			break;   /* commit reports it */
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
		split_free(sp);
	csim_slice_reader_close(&reader);
	free(bounds);
	return rc;
}
