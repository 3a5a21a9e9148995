#include "base/progress.h"

#include <stdarg.h>
#include <string.h>
#include <time.h>

#define NS_PER_S 1000000000.0

void csim_progress_init(struct csim_progress *p, FILE *out,
			csim_progress_clock now, void *now_ctx)
{
	memset(p, 0, sizeof(*p));
	p->out = out;
	p->now = now;
	p->now_ctx = now_ctx;
	if (out != NULL) {
		p->start = now(now_ctx);
		p->phase_start = p->start;
	}
}

void csim_progress_init_relay(struct csim_progress *p, atomic_ullong *slot, int writes)
{
	memset(p, 0, sizeof(*p));
	p->relay = slot;
	p->relay_writes = writes;
}

uint64_t csim_progress_monotonic_ns(void *ctx)
{
	struct timespec ts;

	(void)ctx;
	if (clock_gettime(CLOCK_MONOTONIC, &ts) != 0)
		return 0;   /* cannot happen for CLOCK_MONOTONIC; 0 only delays drawing */
	return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
}

static uint64_t since(uint64_t now, uint64_t then)
{
	return now > then ? now - then : 0;
}

static double megabytes(uint64_t bytes)
{
	return (double)bytes / 1e6;
}

/* "ETA 5s", "ETA 2m05s", "ETA 1h20m", rounded up: never 0s while bytes are left. */
static int format_eta(char *buf, size_t size, double seconds)
{
	unsigned long s;

	if (seconds > 99.0 * 3600.0)
		seconds = 99.0 * 3600.0;
	s = (unsigned long)seconds;
	if ((double)s < seconds)
		s++;
	if (s < 60)
		return snprintf(buf, size, ", ETA %lus", s);
	if (s < 3600)
		return snprintf(buf, size, ", ETA %lum%02lus", s / 60, s % 60);
	return snprintf(buf, size, ", ETA %luh%02lum", s / 3600, s / 60 % 60);
}

/* ", 110.2 MB/s, ETA 1s" for `done` of `total` bytes in `ns`; nothing
   before the rate is known, no ETA without a total. */
static int format_rate(char *buf, size_t size, uint64_t done, uint64_t total,
		       uint64_t ns)
{
	double rate;
	int n;

	if (ns == 0 || done == 0)
		return 0;
	rate = (double)done / ((double)ns / NS_PER_S);
	n = snprintf(buf, size, ", %.1f MB/s", rate / 1e6);
	if (n < 0 || (size_t)n >= size || total == 0)
		return n;
	return n + format_eta(buf + n, size - (size_t)n,
			      (double)since(total, done) / rate);
}

static int format_batch(const struct csim_progress *p, uint64_t now, char *buf,
			size_t size)
{
	uint64_t done = p->bytes_done + p->bytes_moving;
	int n;

	if (p->phase == CSIM_PHASE_READING)
		done += p->pos;
	else if (p->phase != CSIM_PHASE_NONE)
		done += p->size;
	if (done > p->bytes_total)
		done = p->bytes_total;
	n = snprintf(buf, size, "%lu/%lu dumps, %.1f MB of %.1f MB", p->items_done,
		     p->items_total, megabytes(done), megabytes(p->bytes_total));
	if (n < 0 || (size_t)n >= size)
		return n;
	return n + format_rate(buf + n, size - (size_t)n, done, p->bytes_total,
			       since(now, p->start));
}

static int format_dump(const struct csim_progress *p, uint64_t now, char *buf,
		       size_t size)
{
	const char *verb = p->phase == CSIM_PHASE_READING ? "reading" : "writing";
	const char *file = p->phase == CSIM_PHASE_WRITING && p->file != NULL ? p->file : NULL;
	uint64_t pos = p->size != 0 && p->pos > p->size ? p->size : p->pos;
	int n;

	if (p->phase == CSIM_PHASE_NONE)
		return 0;
	if (p->phase == CSIM_PHASE_PASSES)
		return snprintf(buf, size, "passes, %.1f MB read, %lus elapsed",
				megabytes(p->size),
				(unsigned long)(since(now, p->start) / 1000000000u));
	if (p->size != 0)
		n = snprintf(buf, size, "%s%s%s %.1f of %.1f MB", verb, file ? " " : "",
			     file ? file : "", megabytes(pos), megabytes(p->size));
	else
		n = snprintf(buf, size, "%s%s%s %.1f MB", verb, file ? " " : "", file ? file : "",
			     megabytes(pos));
	if (n < 0 || (size_t)n >= size)
		return n;
	return n + format_rate(buf + n, size - (size_t)n, pos, p->size,
			       since(now, p->phase_start));
}

size_t csim_progress_format(const struct csim_progress *p, uint64_t now,
			    char *buf, size_t size)
{
	int n;

	if (size == 0)
		return 0;
	if (size > CSIM_PROGRESS_LINE + 1)
		size = CSIM_PROGRESS_LINE + 1;
	buf[0] = '\0';
	n = p->items_total > 0 ? format_batch(p, now, buf, size)
			       : format_dump(p, now, buf, size);
	if (n < 0) {
		buf[0] = '\0';
		return 0;
	}
	/* snprintf cut a line longer than the buffer. */
	return (size_t)n < size ? (size_t)n : size - 1;
}

/* "\r", the text, then blanks over the rest of the previous text. */
static void draw(struct csim_progress *p, uint64_t now)
{
	char line[1 + CSIM_PROGRESS_LINE + 1];   /* \r, text or blanks, NUL */
	size_t len = csim_progress_format(p, now, line + 1, CSIM_PROGRESS_LINE + 1);
	size_t total = 1 + len;

	if (len == 0) {
		csim_progress_clear(p);
		return;
	}
	if (len == p->shown && memcmp(p->text, line + 1, len) == 0)
		return;   /* the same text again: the interval counts from its draw */
	memcpy(p->text, line + 1, len);
	line[0] = '\r';
	while (total < 1 + p->shown)
		line[total++] = ' ';
	(void)fwrite(line, 1, total, p->out);
	(void)fflush(p->out);
	p->shown = len;
	p->last_draw = now;
	p->ever_drawn = 1;
}

static void maybe_draw(struct csim_progress *p, uint64_t now)
{
	if (since(now, p->start) < CSIM_PROGRESS_DELAY_NS)
		return;
	if (p->ever_drawn && since(now, p->last_draw) < CSIM_PROGRESS_INTERVAL_NS)
		return;
	draw(p, now);
}

/* A share (in percent) of n bytes. */
static uint64_t share_of(uint64_t n, unsigned percent)
{
	return n / 100 * percent + n % 100 * percent / 100;
}

/*
 * How far the relaying worker's dump has come, in its bytes: the reading's
 * position, then (when it is written) the writer's second reading's after
 * the reading's share; raised only, so the parent's line never goes back.
 */
static void relay_store(struct csim_progress *p)
{
	const unsigned read_share = p->relay_writes ? CSIM_PROGRESS_READ_SHARE : 100u;
	const uint64_t pos = p->size != 0 && p->pos > p->size ? p->size : p->pos;
	uint64_t v;

	switch (p->phase) {
	case CSIM_PHASE_READING: v = share_of(pos, read_share); break;
	case CSIM_PHASE_PASSES: v = share_of(p->size, read_share); break;
	case CSIM_PHASE_WRITING:
		v = share_of(p->size, read_share) + share_of(pos, 100u - read_share);
		break;
	default: return;
	}
	if (v > atomic_load_explicit(p->relay, memory_order_relaxed))
		atomic_store_explicit(p->relay, v, memory_order_relaxed);
}

void csim_progress_tick(struct csim_progress *p)
{
	if (p == NULL || p->out == NULL)
		return;
	maybe_draw(p, p->now(p->now_ctx));
}

void csim_progress_phase(struct csim_progress *p, enum csim_progress_phase phase,
			 uint64_t size)
{
	if (p == NULL || (p->out == NULL && p->relay == NULL))
		return;
	p->phase = phase;
	p->file = NULL;
	p->size = size;
	p->pos = 0;
	if (p->out == NULL) {
		relay_store(p);
		return;
	}
	p->phase_start = p->now(p->now_ctx);
	maybe_draw(p, p->phase_start);
}

void csim_progress_writing(struct csim_progress *p, const char *file)
{
	if (p == NULL || (p->out == NULL && p->relay == NULL) || p->phase != CSIM_PHASE_WRITING)
		return;
	p->file = file;
	p->pos = 0;
	if (p->out != NULL)
		p->phase_start = p->now(p->now_ctx);
}

void csim_progress_bytes(struct csim_progress *p, uint64_t pos, uint64_t got)
{
	if (p == NULL || (p->out == NULL && p->relay == NULL))
		return;
	p->pos = pos;
	p->work += got;
	if (p->work < p->next_check)
		return;
	p->next_check = p->work + CSIM_PROGRESS_STEP;
	if (p->out == NULL)
		relay_store(p);
	else
		maybe_draw(p, p->now(p->now_ctx));
}

void csim_progress_clear(struct csim_progress *p)
{
	char line[1 + CSIM_PROGRESS_LINE + 1];
	size_t n = 0;

	if (p == NULL || p->out == NULL || p->shown == 0)
		return;
	line[n++] = '\r';
	while (n < 1 + p->shown)
		line[n++] = ' ';
	line[n++] = '\r';
	(void)fwrite(line, 1, n, p->out);
	(void)fflush(p->out);
	p->shown = 0;
}

void csim_progress_end(struct csim_progress *p)
{
	if (p == NULL || p->out == NULL)
		return;
	csim_progress_clear(p);
	p->phase = CSIM_PHASE_NONE;
	p->pos = p->size = 0;
}

void csim_progress_set_batch(struct csim_progress *p, unsigned long items,
			     uint64_t bytes)
{
	if (p == NULL || p->out == NULL)
		return;
	p->items_total = items;
	p->bytes_total = bytes;
}

void csim_progress_item_done(struct csim_progress *p, uint64_t bytes)
{
	if (p == NULL || p->out == NULL)
		return;
	p->items_done++;
	p->bytes_done += bytes;
	p->phase = CSIM_PHASE_NONE;
	p->pos = p->size = 0;
}

void csim_progress_moving(struct csim_progress *p, uint64_t bytes)
{
	if (p == NULL || p->out == NULL)
		return;
	p->bytes_moving = bytes;
}

void csim_progress_print_line(struct csim_progress *p, const char *fmt, ...)
{
	va_list ap;

	if (p == NULL || p->out == NULL)
		return;
	csim_progress_clear(p);
	va_start(ap, fmt);
	(void)vfprintf(p->out, fmt, ap);
	va_end(ap);
	(void)fputc('\n', p->out);
	(void)fflush(p->out);
	maybe_draw(p, p->now(p->now_ctx));
}
