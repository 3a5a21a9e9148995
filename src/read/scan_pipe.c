#include "read/scan_pipe.h"
#include "base/handoff.h"

#include <stdlib.h>
#include <string.h>

/* Four batches of 1 MiB: the thread runs ahead by at most ~3 MiB of events. */
#define PIPE_BATCHES 4
#define BATCH_TEXT (1u << 20)
#define BATCH_EVENTS 8192

struct batch {
	struct csim_event *evs;
	size_t nev;
	char *text;               /* the events' bytes, copied */
	size_t len, cap;
	int last;                 /* the block's end or error follows the events */
	int rc;                   /* with last: CSIM_OK at the end, else the error */
	struct csim_error err;
};

/*
 * The batches are the slots of a ring (base/handoff.h): the thread fills
 * them in order, the caller reads each and gives it back when it wants the
 * next.
 */
struct csim_scan_pipe {
	struct csim_trace_scan *sc;   /* the thread's */
	struct csim_trace_scan *isc;  /* the caller's: decodes the texts */
	struct csim_handoff *ring;
	struct batch batches[PIPE_BATCHES];
	struct batch *cur;        /* the caller's batch, or NULL */
	size_t at;                /* its next event */
};

/*
 * Copies a raw event's text (its texts not decoded yet: the caller's thread
 * decodes them) into b and the event into its next slot, where pipe_run()
 * usually scanned it already; 0 when it does not fit (a batch takes at
 * least one).
 */
static int batch_add(struct batch *b, const struct csim_event *ev)
{
	struct csim_event *e;
	const char *from = ev->raw.p;
	char *base;

	if (b->nev == BATCH_EVENTS || ev->raw.n > b->cap - b->len)
		return 0;
	base = b->text + b->len;
	if (ev->raw.n > 0)
		memcpy(base, from, ev->raw.n);
	e = &b->evs[b->nev++];
	if (e != ev)
		*e = *ev;
	e->raw.p = base;
	for (int i = 0; i < CSIM_F_COUNT; i++) {
		const char *q = e->field[i].p;

		e->field[i].p = q != NULL ? base + (q - from) : NULL;
	}
	b->len += ev->raw.n;
	return 1;
}

/* An empty batch made big enough for one event larger than its text. */
static int batch_fit(struct batch *b, size_t need)
{
	char *text = realloc(b->text, need);

	if (text == NULL)
		return -1;
	b->text = text;
	b->cap = need;
	return 0;
}

/* The next batch to fill, or NULL once the caller has stopped the pipe. */
static struct batch *take_free(struct csim_scan_pipe *p)
{
	struct batch *b;
	unsigned slot;

	if (!csim_handoff_fill(p->ring, &slot))
		return NULL;
	b = &p->batches[slot];
	b->nev = 0;
	b->len = 0;
	b->last = 0;
	b->rc = CSIM_OK;
	return b;
}

/* Ends the block in b (its events stay before it) and hands b over. */
static void post_last(struct csim_scan_pipe *p, struct batch *b, int rc)
{
	b->last = 1;
	b->rc = rc;
	csim_handoff_post(p->ring, 1, 1);
}

static void *pipe_run(void *arg)
{
	struct csim_scan_pipe *p = arg;
	struct batch *b = NULL;
	struct csim_event spill;   /* an event the last batch had no room for */
	int pending = 0;

	for (;;) {
		struct csim_event *ev = &spill;
		int has, rc;

		if (b == NULL && (b = take_free(p)) == NULL)
			return NULL;
		if (!pending) {
			/* Scanned into its slot: only its text moves then. */
			if (b->nev < BATCH_EVENTS)
				ev = &b->evs[b->nev];
			rc = csim_trace_scan_next_raw(p->sc, ev, &has, &b->err);
			if (rc != CSIM_OK || !has) {
				post_last(p, b, rc);
				return NULL;
			}
		}
		if (batch_add(b, ev)) {
			pending = 0;
			continue;
		}
		if (ev != &spill)
			spill = *ev;
		pending = 1;
		if (b->nev == 0) {
			if (batch_fit(b, spill.raw.n) != 0) {
				post_last(p, b, csim_error_nomem(&b->err, CSIM_E_INPUT));
				return NULL;
			}
			continue;
		}
		csim_handoff_post(p->ring, 1, 0);
		b = NULL;
	}
}

static void pipe_free(struct csim_scan_pipe *p)
{
	csim_handoff_free(p->ring);
	for (int i = 0; i < PIPE_BATCHES; i++) {
		free(p->batches[i].evs);
		free(p->batches[i].text);
	}
	free(p);
}

int csim_scan_pipe_start(struct csim_scan_pipe **pipe, struct csim_trace_scan *sc,
			 struct csim_trace_scan *isc, struct csim_error *err)
{
	struct csim_scan_pipe *p = calloc(1, sizeof(*p));

	*pipe = NULL;
	if (p == NULL)
		return csim_error_nomem(err, CSIM_E_INPUT);
	p->sc = sc;
	p->isc = isc;
	for (int i = 0; i < PIPE_BATCHES; i++) {
		struct batch *b = &p->batches[i];

		b->evs = malloc(BATCH_EVENTS * sizeof(*b->evs));
		b->text = malloc(BATCH_TEXT);
		b->cap = BATCH_TEXT;
		if (b->evs == NULL || b->text == NULL)
			goto nomem;
	}
	if (csim_handoff_new(&p->ring, PIPE_BATCHES) != 0)
		goto nomem;
	if (csim_handoff_start(p->ring, "csim_scan", pipe_run, p) != 0) {
		/* No thread (a process or cgroup at its limit): the caller scans
		   in line, the same events in the same order. */
		pipe_free(p);
		return CSIM_OK;
	}
	*pipe = p;
	return CSIM_OK;
nomem:
	pipe_free(p);
	return csim_error_nomem(err, CSIM_E_INPUT);
}

/* The caller's next batch, waiting for the thread to fill it: the thread
   ends with a batch marked last, which the caller never reads past. */
static struct batch *take_full(struct csim_scan_pipe *p)
{
	unsigned slot = 0;

	(void)csim_handoff_take(p->ring, &slot);
	return &p->batches[slot];
}

int csim_scan_pipe_next(struct csim_scan_pipe *p, struct csim_event *ev,
			int *has, struct csim_error *err)
{
	*has = 0;
	for (;;) {
		if (p->cur != NULL && p->at < p->cur->nev) {
			*ev = p->cur->evs[p->at++];
			*has = 1;
			return csim_trace_scan_texts(p->isc, ev, err);
		}
		if (p->cur != NULL && p->cur->last) {
			if (p->cur->rc != CSIM_OK)
				*err = p->cur->err;
			return p->cur->rc;
		}
		if (p->cur != NULL)
			csim_handoff_give_back(p->ring);
		p->cur = take_full(p);
		p->at = 0;
	}
}

void csim_scan_pipe_finish(struct csim_scan_pipe *p)
{
	if (p == NULL)
		return;
	pipe_free(p);   /* stops the thread first */
}
