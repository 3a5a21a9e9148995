#include "read/gz_source.h"
#include "base/handoff.h"
#include "base/interrupt.h"
#include "read/gz_inflate.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

/* Compressed bytes read at once: a big file's, and a small one's (a fuzz
   input or a unit test's file must not pay for mapping a large buffer). */
#define GZ_IN_BIG (256u * 1024u)
#define GZ_IN_SMALL (16u * 1024u)
/* Inflated bytes dropped at once by a source without chunks. */
#define GZ_SCRATCH (16u * 1024u)

enum gz_state { GZ_MORE, GZ_END, GZ_FAIL };

struct csim_gz_source {
	/* The inflation: the worker's while it runs, else the caller's. */
	struct csim_gz_inflate *inf;
	struct csim_gz_io io;
	int starved;                 /* the last step took and gave nothing: refill */
	int fd;
	unsigned char *in;
	size_t in_cap;
	uint64_t raw_read;           /* compressed bytes read from fd */
	uint64_t inflated;           /* inflated bytes made before this call's */
	int in_eof;
	int member_done;             /* between members: look for another */
	enum gz_state state;
	struct csim_gz_failure failure;
	int primed;                  /* the first bytes were inflated here */

	/* The second thread and its ring of chunks (base/handoff.h). */
	int threaded;                /* big enough for it */
	int running;
	struct csim_handoff *ring;
	unsigned char *chunks;
	size_t len[CSIM_GZ_CHUNKS];  /* a posted chunk's bytes */
	uint64_t raw[CSIM_GZ_CHUNKS];   /* compressed bytes used up to its end */
	size_t at;                   /* bytes of the oldest chunk handed out (caller's) */
};

static enum gz_state gz_fail(struct csim_gz_source *g, enum csim_gz_fail_kind kind,
			     const char *msg, int sys_errno)
{
	g->failure.kind = kind;
	g->failure.msg = msg;
	g->failure.sys_errno = sys_errno;
	g->failure.raw_at = kind == CSIM_GZ_FAIL_CUT ? g->raw_read : g->raw_read - g->io.avail_in;
	g->failure.inflated_at = g->inflated;   /* gz_inflate adds its call's bytes */
	g->state = GZ_FAIL;
	return GZ_FAIL;
}

static uint64_t gz_raw_used(const struct csim_gz_source *g)
{
	return g->raw_read - g->io.avail_in;
}

/* Keeps the unread input, reads more after it. */
static enum gz_state gz_refill(struct csim_gz_source *g)
{
	struct csim_gz_io *io = &g->io;
	ssize_t got;

	if (io->avail_in > 0 && io->next_in != g->in)
		memmove(g->in, io->next_in, io->avail_in);
	io->next_in = g->in;
	if (io->avail_in == g->in_cap)   /* a step that used none of a full buffer */
		return gz_fail(g, CSIM_GZ_FAIL_DATA, "internal error: inflate made no progress", 0);
	/* The worker blocks every signal, so only the caller's thread sees
	   EINTR (and reads the interrupt flag). */
	do {
		got = read(g->fd, g->in + io->avail_in, g->in_cap - io->avail_in);
	} while (got < 0 && errno == EINTR && !csim_interrupt_pending());
	if (got < 0)
		return gz_fail(g, CSIM_GZ_FAIL_ERRNO, "read failed", errno);
	if (got == 0)
		g->in_eof = 1;
	io->avail_in += (size_t)got;
	g->raw_read += (uint64_t)got;
	g->starved = 0;
	return GZ_MORE;
}

/*
 * After a member: another starts only where its magic is; anything else
 * (nothing, or trailing bytes) ends the input, as gzread() has it.
 */
static void gz_next_member(struct csim_gz_source *g)
{
	const struct csim_gz_io *io = &g->io;

	if (io->avail_in < 2 && !g->in_eof) {
		(void)gz_refill(g);
		return;
	}
	if (io->avail_in >= 2 && io->next_in[0] == 0x1f && io->next_in[1] == 0x8b) {
		csim_gz_inflate_reset(g->inf);   /* keeps the window: no allocation */
		g->member_done = 0;
		return;
	}
	g->state = GZ_END;
}

static void gz_inflate_step(struct csim_gz_source *g)
{
	const unsigned char *in = g->io.next_in;
	const unsigned char *out = g->io.next_out;
	const char *why = NULL;

	switch (csim_gz_inflate_step(g->inf, &g->io, &why)) {
	case CSIM_GZ_STEP_MORE:
		/* Nothing taken and nothing given: its input is too short to go on. */
		g->starved = g->io.next_in == in && g->io.next_out == out;
		break;
	case CSIM_GZ_STEP_MEMBER_END:
		g->member_done = 1;
		break;
	case CSIM_GZ_STEP_NOMEM:
		(void)gz_fail(g, CSIM_GZ_FAIL_NOMEM, "out of memory", 0);
		break;
	case CSIM_GZ_STEP_CORRUPT:
		(void)gz_fail(g, CSIM_GZ_FAIL_DATA, why, 0);
		break;
	}
}

/* Inflates into out until it is full, the input ends or fails; *len: how many. */
static enum gz_state gz_inflate(struct csim_gz_source *g, unsigned char *out,
				size_t cap, size_t *len)
{
	struct csim_gz_io *io = &g->io;

	io->next_out = out;
	io->avail_out = cap;
	while (g->state == GZ_MORE && io->avail_out > 0) {
		if (g->member_done)
			gz_next_member(g);
		else if (io->avail_in > 0 && !g->starved)
			gz_inflate_step(g);
		else if (g->in_eof)
			(void)gz_fail(g, CSIM_GZ_FAIL_CUT, "unexpected end of file", 0);
		else
			(void)gz_refill(g);
	}
	*len = cap - io->avail_out;
	if (g->state == GZ_FAIL)
		g->failure.inflated_at += *len;
	g->inflated += *len;
	return g->state;
}

static unsigned char *gz_chunk(const struct csim_gz_source *g, unsigned slot)
{
	return g->chunks + (size_t)slot * CSIM_GZ_CHUNK;
}

/* The worker's end is posted with its last chunk: state then says why. */
static void *gz_worker(void *arg)
{
	struct csim_gz_source *g = arg;
	enum gz_state st = GZ_MORE;
	unsigned slot;

	while (st == GZ_MORE && csim_handoff_fill(g->ring, &slot)) {
		size_t len;

		st = gz_inflate(g, gz_chunk(g, slot), CSIM_GZ_CHUNK, &len);
		g->len[slot] = len;
		g->raw[slot] = gz_raw_used(g);
		csim_handoff_post(g->ring, len > 0, st != GZ_MORE);
	}
	return NULL;
}

/* Starts the worker (signals blocked in it); 0 or pthread's error. */
static int gz_start(struct csim_gz_source *g)
{
	int rc = csim_handoff_start(g->ring, "csim_inflate", gz_worker, g);

	if (rc == 0)
		g->running = 1;
	return rc;
}

static void gz_stop(struct csim_gz_source *g)
{
	if (!g->running)
		return;
	csim_handoff_stop(g->ring);
	g->running = 0;
	g->at = 0;
}

/* Hands out bytes of the oldest chunk, waiting for the worker if none. */
static ssize_t gz_take(struct csim_gz_source *g, unsigned char *dst, size_t n,
		       uint64_t *raw)
{
	unsigned slot;
	size_t k;

	if (!csim_handoff_take(g->ring, &slot))
		return g->state == GZ_END ? 0 : -1;
	k = g->len[slot] - g->at;
	if (k > n)
		k = n;
	if (dst != NULL)
		memcpy(dst, gz_chunk(g, slot) + g->at, k);
	*raw = g->raw[slot];
	g->at += k;
	if (g->at == g->len[slot]) {
		g->at = 0;
		csim_handoff_give_back(g->ring);
	}
	return (ssize_t)k;
}

/* Inflates on the caller's thread, straight into dst. */
static ssize_t gz_read_here(struct csim_gz_source *g, unsigned char *dst, size_t n,
			    uint64_t *raw)
{
	unsigned char scratch[GZ_SCRATCH];
	enum gz_state st;
	size_t len;

	if (dst == NULL) {
		dst = scratch;
		if (n > sizeof(scratch))
			n = sizeof(scratch);
	}
	st = gz_inflate(g, dst, n, &len);
	g->primed = 1;
	*raw = gz_raw_used(g);
	if (len > 0)
		return (ssize_t)len;
	return st == GZ_FAIL ? -1 : 0;
}

ssize_t csim_gz_source_read(struct csim_gz_source *g, void *dst, size_t n,
			    uint64_t *raw)
{
	*raw = 0;
	if (n == 0)
		return 0;
	if (n > CSIM_GZ_CHUNK)
		n = CSIM_GZ_CHUNK;
	if (g->running)
		return gz_take(g, dst, n, raw);
	/* The first bytes come from here, so zlib allocates its window on this
	   thread (igzip has none to allocate); a thread that cannot start leaves
	   the source as a small one. */
	if (g->threaded && g->primed && g->state == GZ_MORE) {
		if (gz_start(g) == 0)
			return gz_take(g, dst, n, raw);
		g->threaded = 0;
	}
	return gz_read_here(g, dst, n, raw);
}

const struct csim_gz_failure *csim_gz_source_failure(const struct csim_gz_source *g)
{
	return &g->failure;
}

int csim_gz_source_open(struct csim_gz_source **out, int fd, int threaded,
			const unsigned char *head, size_t nhead)
{
	struct csim_gz_source *g = calloc(1, sizeof(*g));

	*out = NULL;
	if (g == NULL)
		return -1;
	g->fd = fd;
	g->in_cap = threaded ? GZ_IN_BIG : GZ_IN_SMALL;
	g->in = malloc(g->in_cap);
	if (g->in == NULL)
		goto fail;
	if (threaded) {
		g->chunks = malloc((size_t)CSIM_GZ_CHUNKS * CSIM_GZ_CHUNK);
		if (g->chunks == NULL || csim_handoff_new(&g->ring, CSIM_GZ_CHUNKS) != 0)
			goto fail;
		g->threaded = 1;
	}
	if (nhead > 0)
		memcpy(g->in, head, nhead);   /* in_cap is far above 2 */
	g->io.next_in = g->in;
	g->io.avail_in = nhead;
	g->raw_read = nhead;
	if (csim_gz_inflate_new(&g->inf) != 0)
		goto fail;
	*out = g;
	return 0;
fail:
	csim_gz_source_release(g);
	return -1;
}

void csim_gz_source_release(struct csim_gz_source *g)
{
	if (g == NULL)
		return;
	gz_stop(g);
	csim_handoff_free(g->ring);
	csim_gz_inflate_free(g->inf);
	free(g->chunks);
	free(g->in);
	free(g);
}

int csim_gz_source_rewind(struct csim_gz_source *g)
{
	gz_stop(g);
	if (lseek(g->fd, 0, SEEK_SET) < 0) {
		(void)gz_fail(g, CSIM_GZ_FAIL_ERRNO, "seek failed", errno);
		return -1;
	}
	csim_gz_inflate_reset(g->inf);
	g->io.next_in = g->in;
	g->io.avail_in = 0;
	g->starved = 0;
	g->raw_read = 0;
	g->inflated = 0;
	g->in_eof = 0;
	g->member_done = 0;
	g->state = GZ_MORE;
	memset(&g->failure, 0, sizeof(g->failure));
	return 0;
}
