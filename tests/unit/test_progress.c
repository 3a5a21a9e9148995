/*
 * progress: the status line's text, its one-second delay, its ten redraws a
 * second, the ETA arithmetic, and the erase before any other output, all
 * driven by a hand-set clock into a memory stream.
 */
#define _POSIX_C_SOURCE 200809L
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/log.h"
#include "base/progress.h"
#include "check.h"

#define MS 1000000u
#define S 1000000000u

struct fake_clock {
	uint64_t ns;
	unsigned long reads;
};

static uint64_t fake_now(void *ctx)
{
	struct fake_clock *c = ctx;

	c->reads++;
	return c->ns;
}

/* A tracker writing into memory; text() gives what it wrote so far. */
struct screen {
	FILE *f;
	char *buf;
	size_t len;
	struct fake_clock clock;
	struct csim_progress p;
};

static int screen_open(struct screen *s)
{
	memset(s, 0, sizeof(*s));
	s->f = open_memstream(&s->buf, &s->len);
	if (s->f == NULL)
		return -1;
	csim_progress_init(&s->p, s->f, fake_now, &s->clock);
	return 0;
}

static const char *text(struct screen *s)
{
	fflush(s->f);
	return s->buf;
}

static void screen_close(struct screen *s)
{
	fclose(s->f);
	free(s->buf);
}

/* Redraws: "\r" followed by text; an erase is "\r", blanks, "\r", so the
   text after its second "\r" is other output. */
static unsigned count_redraws(const char *t)
{
	unsigned n = 0;

	for (; *t != '\0'; t++) {
		if (t[0] != '\r')
			continue;
		if (t[1] != '\0' && t[1] != ' ' && t[1] != '\r')
			n++;
		else if (t[1] == ' ')
			t += strspn(t + 1, " ") + 1;   /* to an erase's second "\r" */
	}
	return n;
}

static void format_at(struct screen *s, uint64_t now, char *buf, size_t size)
{
	csim_progress_format(&s->p, now, buf, size);
}

static void test_reading_line(struct check_ctx *c)
{
	struct screen s;
	char line[CSIM_PROGRESS_LINE + 1];

	if (!CHECK(c, screen_open(&s) == 0))
		return;
	csim_progress_phase(&s.p, CSIM_PHASE_READING, 200000000u);
	s.clock.ns = 2 * (uint64_t)S;
	csim_progress_bytes(&s.p, 100000000u, 100000000u);
	/* 100 MB in 2 s: 50 MB/s; the other 100 MB take 2 s more. */
	format_at(&s, s.clock.ns, line, sizeof(line));
	CHECK_STR(c, line, "reading 100.0 of 200.0 MB, 50.0 MB/s, ETA 2s");
	CHECK_STR(c, text(&s), "\rreading 100.0 of 200.0 MB, 50.0 MB/s, ETA 2s");
	screen_close(&s);
}

static void test_eta_forms(struct check_ctx *c)
{
	struct screen s;
	char line[CSIM_PROGRESS_LINE + 1];

	if (!CHECK(c, screen_open(&s) == 0))
		return;
	/* 1 MB/s over 10 s: 61 MB left is 61 s, 3700 MB left 1 h 1 m 40 s. */
	csim_progress_phase(&s.p, CSIM_PHASE_READING, 71000000u);
	s.p.pos = 10000000u;
	format_at(&s, 10 * (uint64_t)S, line, sizeof(line));
	CHECK_STR(c, line, "reading 10.0 of 71.0 MB, 1.0 MB/s, ETA 1m01s");
	s.p.size = 3710000000u;
	format_at(&s, 10 * (uint64_t)S, line, sizeof(line));
	CHECK_STR(c, line, "reading 10.0 of 3710.0 MB, 1.0 MB/s, ETA 1h01m");
	/* Half a second left shows as 1 s, never 0 s while bytes are left. */
	s.p.size = 10500000u;
	format_at(&s, 10 * (uint64_t)S, line, sizeof(line));
	CHECK_STR(c, line, "reading 10.0 of 10.5 MB, 1.0 MB/s, ETA 1s");
	/* Done: 0 s. */
	s.p.size = 10000000u;
	format_at(&s, 10 * (uint64_t)S, line, sizeof(line));
	CHECK_STR(c, line, "reading 10.0 of 10.0 MB, 1.0 MB/s, ETA 0s");
	/* Days away: capped at 99 h. */
	s.p.size = UINT64_MAX / 2;
	format_at(&s, 10 * (uint64_t)S, line, sizeof(line));
	CHECK_CONTAINS(c, line, "ETA 99h00m");
	/* No total (a pipe): no ETA. Nothing read yet: no rate either. */
	s.p.size = 0;
	format_at(&s, 10 * (uint64_t)S, line, sizeof(line));
	CHECK_STR(c, line, "reading 10.0 MB, 1.0 MB/s");
	s.p.pos = 0;
	s.p.size = 5000000u;
	format_at(&s, 10 * (uint64_t)S, line, sizeof(line));
	CHECK_STR(c, line, "reading 0.0 of 5.0 MB");
	screen_close(&s);
}

static void test_passes_and_writing_lines(struct check_ctx *c)
{
	struct screen s;
	char line[CSIM_PROGRESS_LINE + 1];

	if (!CHECK(c, screen_open(&s) == 0))
		return;
	s.clock.ns = 3 * (uint64_t)S;
	csim_progress_phase(&s.p, CSIM_PHASE_PASSES, 254000000u);
	format_at(&s, 5 * (uint64_t)S + 900 * (uint64_t)MS, line, sizeof(line));
	CHECK_STR(c, line, "passes, 254.0 MB read, 5s elapsed");
	/* The writing rate counts from the phase's start, not the run's. */
	csim_progress_phase(&s.p, CSIM_PHASE_WRITING, 254000000u);
	s.p.pos = 127000000u;
	format_at(&s, 4 * (uint64_t)S, line, sizeof(line));
	CHECK_STR(c, line, "writing 127.0 of 254.0 MB, 127.0 MB/s, ETA 1s");
	/* Past the size (a gzip offset read ahead): shown as the size. */
	s.p.pos = 300000000u;
	format_at(&s, 4 * (uint64_t)S, line, sizeof(line));
	CHECK_CONTAINS(c, line, "writing 254.0 of 254.0 MB");
	csim_progress_end(&s.p);
	CHECK_U64(c, csim_progress_format(&s.p, 4 * (uint64_t)S, line, sizeof(line)), 0);
	screen_close(&s);
}

/*
 * Each output that reads the input again names itself: the second reading
 * starting over reads as the next file, not a step back; its rate counts
 * from its own start.
 */
static void test_writing_names_the_file(struct check_ctx *c)
{
	struct screen s;
	char line[CSIM_PROGRESS_LINE + 1];

	if (!CHECK(c, screen_open(&s) == 0))
		return;
	s.clock.ns = 2 * (uint64_t)S;
	csim_progress_phase(&s.p, CSIM_PHASE_WRITING, 130700000u);
	csim_progress_writing(&s.p, "trace.clean.json");
	s.p.pos = 125700000u;
	format_at(&s, 3 * (uint64_t)S, line, sizeof(line));
	CHECK_STR(c, line, "writing trace.clean.json 125.7 of 130.7 MB, 125.7 MB/s, ETA 1s");
	s.clock.ns = 4 * (uint64_t)S;
	csim_progress_writing(&s.p, "trace.pftrace");
	CHECK_U64(c, s.p.pos, 0);
	s.p.pos = 4200000u;
	format_at(&s, 5 * (uint64_t)S, line, sizeof(line));
	CHECK_STR(c, line, "writing trace.pftrace 4.2 of 130.7 MB, 4.2 MB/s, ETA 31s");
	/* (ETA rounds up: 5.0 MB at 125.7 MB/s is 1s, 126.5 at 4.2 is 31s.)
	   A new phase names no file. */
	csim_progress_phase(&s.p, CSIM_PHASE_WRITING, 130700000u);
	s.p.pos = 0;
	format_at(&s, 5 * (uint64_t)S, line, sizeof(line));
	CHECK_CONTAINS(c, line, "writing 0.0 of 130.7 MB");
	/* Outside the writing phase it is ignored. */
	csim_progress_phase(&s.p, CSIM_PHASE_READING, 130700000u);
	csim_progress_writing(&s.p, "trace.pftrace");
	CHECK(c, s.p.file == NULL);
	screen_close(&s);
}

/*
 * Every line the tool prints escapes C0, DEL and the C1 controls (UTF-8
 * c2 80..c2 9f): ESC, BEL and CSI from a name cannot reach the terminal;
 * other UTF-8 (c2 a0, é) passes as it is.
 */
static void test_log_text_escapes_controls(struct check_ctx *c)
{
	char *buf = NULL;
	size_t n = 0;
	FILE *f = open_memstream(&buf, &n);

	if (!CHECK(c, f != NULL))
		return;
	csim_log_text(f, "a\x1b]0;x\x07" "b\xc2\x9b" "2J\x7f\xc2\x80\xc2\x9f\xc2\xa0\xc3\xa9\xc2");
	fclose(f);
	CHECK_STR(c, buf, "a\\x1b]0;x\\x07b\\xc2\\x9b2J\\x7f\\xc2\\x80\\xc2\\x9f\xc2\xa0\xc3\xa9\xc2");
	free(buf);
}

static void test_batch_line(struct check_ctx *c)
{
	struct screen s;
	char line[CSIM_PROGRESS_LINE + 1];

	if (!CHECK(c, screen_open(&s) == 0))
		return;
	csim_progress_set_batch(&s.p, 20, 900000000u);
	csim_progress_item_done(&s.p, 50000000u);
	csim_progress_item_done(&s.p, 50000000u);
	csim_progress_item_done(&s.p, 20000000u);
	/* 120 MB in 4 s: 30 MB/s; 780 MB left: 26 s. */
	format_at(&s, 4 * (uint64_t)S, line, sizeof(line));
	CHECK_STR(c, line, "3/20 dumps, 120.0 MB of 900.0 MB, 30.0 MB/s, ETA 26s");
	/* A dump converted in this process counts as it is read ... */
	csim_progress_phase(&s.p, CSIM_PHASE_READING, 100000000u);
	s.p.pos = 40000000u;
	format_at(&s, 4 * (uint64_t)S, line, sizeof(line));
	CHECK_STR(c, line, "3/20 dumps, 160.0 MB of 900.0 MB, 40.0 MB/s, ETA 19s");
	/* ... and whole once read. */
	csim_progress_phase(&s.p, CSIM_PHASE_WRITING, 100000000u);
	format_at(&s, 4 * (uint64_t)S, line, sizeof(line));
	CHECK_CONTAINS(c, line, "3/20 dumps, 220.0 MB of 900.0 MB");
	csim_progress_item_done(&s.p, 100000000u);
	format_at(&s, 4 * (uint64_t)S, line, sizeof(line));
	CHECK_CONTAINS(c, line, "4/20 dumps, 220.0 MB of 900.0 MB");
	screen_close(&s);
}

/* A batch worker's relay: its dump's bytes done, by phase, raised only. */
static void test_relay(struct check_ctx *c)
{
	atomic_ullong slot = 0, sumonly = 0;
	struct csim_progress w, q;

	csim_progress_init_relay(&w, &slot, 1);
	csim_progress_phase(&w, CSIM_PHASE_READING, 100000000u);
	CHECK_U64(c, atomic_load(&slot), 0);
	csim_progress_bytes(&w, 40000000u, 40000000u);
	/* Read 40 of 100 MB, the reading half the dump's time: 20 MB. */
	CHECK_U64(c, atomic_load(&slot), 40000000u / 100 * CSIM_PROGRESS_READ_SHARE);
	csim_progress_phase(&w, CSIM_PHASE_PASSES, 100000000u);
	CHECK_U64(c, atomic_load(&slot), 100000000u / 100 * CSIM_PROGRESS_READ_SHARE);
	csim_progress_phase(&w, CSIM_PHASE_WRITING, 100000000u);
	csim_progress_bytes(&w, 50000000u, 50000000u);
	CHECK_U64(c, atomic_load(&slot), 100000000u / 100 * CSIM_PROGRESS_READ_SHARE +
					 50000000u / 100 * (100 - CSIM_PROGRESS_READ_SHARE));
	/* An end, or a later phase of less, never takes it back. */
	csim_progress_end(&w);
	csim_progress_phase(&w, CSIM_PHASE_READING, 100000000u);
	CHECK_U64(c, atomic_load(&slot), 100000000u / 100 * CSIM_PROGRESS_READ_SHARE +
					 50000000u / 100 * (100 - CSIM_PROGRESS_READ_SHARE));
	/* Nothing written (--summary-only): the reading is the whole dump. */
	csim_progress_init_relay(&q, &sumonly, 0);
	csim_progress_phase(&q, CSIM_PHASE_READING, 100000000u);
	csim_progress_bytes(&q, 40000000u, 40000000u);
	CHECK_U64(c, atomic_load(&sumonly), 40000000u);
	/* No slot: nothing at all. */
	csim_progress_init_relay(&q, NULL, 1);
	csim_progress_phase(&q, CSIM_PHASE_READING, 100000000u);
	csim_progress_bytes(&q, 40000000u, 40000000u);
	csim_progress_tick(&q);
}

/* The whole ETA in seconds of a status line; -1 when it has none. */
static long eta_of(const char *line)
{
	const char *e = strstr(line, "ETA ");
	long h = 0, m = 0, sec = 0;

	if (e == NULL)
		return -1;
	if (sscanf(e, "ETA %ldh%ldm", &h, &m) == 2)
		return h * 3600 + m * 60;
	if (sscanf(e, "ETA %ldm%lds", &m, &sec) == 2)
		return m * 60 + sec;
	return sscanf(e, "ETA %lds", &sec) == 1 ? sec : -1;
}

/*
 * The line moves while the first dump is under way, and while the last
 * (large) dump is converted its ETA only falls: the workers' relays count
 * with the finished dumps' bytes. A small dump done in 1 s, then a 1000 MB
 * one relayed at a steady 100 MB/s.
 */
static void test_batch_moving(struct check_ctx *c)
{
	struct screen s;
	char line[CSIM_PROGRESS_LINE + 1];
	atomic_ullong slot = 0;
	struct csim_progress w;
	long last = -1;

	if (!CHECK(c, screen_open(&s) == 0))
		return;
	csim_progress_set_batch(&s.p, 2, 1010000000u);
	csim_progress_init_relay(&w, &slot, 0);
	csim_progress_phase(&w, CSIM_PHASE_READING, 10000000u);
	csim_progress_bytes(&w, 4000000u, 4000000u);
	csim_progress_moving(&s.p, atomic_load(&slot));
	format_at(&s, 1 * (uint64_t)S / 2, line, sizeof(line));
	CHECK_STR(c, line, "0/2 dumps, 4.0 MB of 1010.0 MB, 8.0 MB/s, ETA 2m06s");
	csim_progress_item_done(&s.p, 10000000u);
	csim_progress_moving(&s.p, 0);   /* its worker is gone */
	format_at(&s, 1 * (uint64_t)S, line, sizeof(line));
	CHECK_STR(c, line, "1/2 dumps, 10.0 MB of 1010.0 MB, 10.0 MB/s, ETA 1m40s");
	slot = 0;
	csim_progress_init_relay(&w, &slot, 0);
	csim_progress_phase(&w, CSIM_PHASE_READING, 1000000000u);
	for (unsigned t = 2; t <= 20; t++) {   /* half-seconds after the first second */
		long eta;

		csim_progress_bytes(&w, (uint64_t)(t - 2 + 1) * 50000000u, 50000000u);
		csim_progress_moving(&s.p, atomic_load(&slot));
		format_at(&s, (uint64_t)S + (uint64_t)(t - 1) * (S / 2), line, sizeof(line));
		eta = eta_of(line);
		if (!CHECK(c, eta >= 0) || !CHECK(c, last < 0 || eta <= last))
			fprintf(stderr, "  at half-second %u: %s (before: ETA %lds)\n", t, line, last);
		last = eta;
	}
	CHECK_STR(c, line, "1/2 dumps, 960.0 MB of 1010.0 MB, 91.4 MB/s, ETA 1s");
	screen_close(&s);
}

static void test_line_never_wraps(struct check_ctx *c)
{
	struct screen s;
	char line[200];
	size_t n;

	if (!CHECK(c, screen_open(&s) == 0))
		return;
	csim_progress_set_batch(&s.p, 4000000000ul, UINT64_MAX);
	s.p.items_done = 3999999999ul;
	s.p.bytes_done = UINT64_MAX / 3;
	n = csim_progress_format(&s.p, 1, line, sizeof(line));
	CHECK(c, n <= CSIM_PROGRESS_LINE);
	CHECK_U64(c, strlen(line), n);
	screen_close(&s);
}

static void test_nothing_within_a_second(struct check_ctx *c)
{
	struct screen s;

	if (!CHECK(c, screen_open(&s) == 0))
		return;
	/* A run that ends before its first second prints nothing at all. */
	csim_progress_phase(&s.p, CSIM_PHASE_READING, 100000000u);
	for (uint64_t mb = 1; mb <= 100; mb++) {
		s.clock.ns = mb * 9 * (uint64_t)MS;   /* 0.9 s for 100 MB */
		csim_progress_bytes(&s.p, mb * 1000000u, 1000000u);
	}
	csim_progress_phase(&s.p, CSIM_PHASE_PASSES, 100000000u);
	csim_progress_tick(&s.p);
	s.clock.ns = 999 * (uint64_t)MS;
	csim_progress_phase(&s.p, CSIM_PHASE_WRITING, 100000000u);
	csim_progress_bytes(&s.p, 50000000u, 50000000u);
	csim_progress_clear(&s.p);
	csim_progress_end(&s.p);
	CHECK_U64(c, strlen(text(&s)), 0);
	/* At one second, the next tick draws. */
	s.clock.ns = S;
	csim_progress_phase(&s.p, CSIM_PHASE_WRITING, 100000000u);
	CHECK_STR(c, text(&s), "\rwriting 0.0 of 100.0 MB");
	screen_close(&s);
}

/* Any one-second window of the redraw times holds at most `most`. */
static int at_most_per_second(const uint64_t *t, size_t n, size_t most)
{
	size_t lo = 0;

	for (size_t hi = 0; hi < n; hi++) {
		while (t[hi] - t[lo] >= S)
			lo++;
		if (hi - lo + 1 > most)
			return 0;
	}
	return 1;
}

static void test_ten_redraws_a_second(struct check_ctx *c)
{
	static uint64_t when[20000];
	struct screen s;
	size_t n = 0;
	unsigned seen = 0;

	if (!CHECK(c, screen_open(&s) == 0))
		return;
	/* 10 s of reading at 1 GB/s, the clock moving 1 ms per MB; a redraw
	   is noted by the count of redraws written so far growing. */
	csim_progress_phase(&s.p, CSIM_PHASE_READING, 10000000000u);
	for (uint64_t mb = 1; mb <= 10000; mb++) {
		unsigned now_seen;

		s.clock.ns = mb * MS;
		csim_progress_bytes(&s.p, mb * 1000000u, 1000000u);
		now_seen = count_redraws(text(&s));
		if (now_seen > seen && n < sizeof(when) / sizeof(when[0]))
			when[n++] = s.clock.ns;
		seen = now_seen;
	}
	CHECK(c, at_most_per_second(when, n, 10));
	/* The step is a MiB, so the clock is read at every other MB (odd ms):
	   redraws at 1.001 s, 1.101 s, ... 9.901 s, 90 of them. */
	CHECK_U64(c, n, 90);
	CHECK_U64(c, when[0], 1001 * (uint64_t)MS);
	CHECK_U64(c, when[89], 9901 * (uint64_t)MS);
	CHECK_U64(c, count_redraws(text(&s)), n);
	screen_close(&s);
}

static void test_clock_read_once_a_megabyte(struct check_ctx *c)
{
	struct screen s;
	unsigned long before;

	if (!CHECK(c, screen_open(&s) == 0))
		return;
	csim_progress_phase(&s.p, CSIM_PHASE_READING, 0);
	before = s.clock.reads;
	/* 100 MiB delivered in reads of 64 KiB: the clock is read once per MiB,
	   also when the file offset moves a tenth as fast (gzip input). */
	for (uint64_t k = 1; k <= 1600; k++)
		csim_progress_bytes(&s.p, k * 6554u, 65536u);
	CHECK_U64(c, s.clock.reads - before, 100);
	CHECK_U64(c, s.p.pos, 1600u * 6554u);
	/* A seek back (the writer's second reading) is shown; the count goes on:
	   this read completes the 101st MiB. */
	csim_progress_bytes(&s.p, 4096, 65536);
	CHECK_U64(c, s.p.pos, 4096);
	CHECK_U64(c, s.clock.reads - before, 101);
	screen_close(&s);
}

static void test_disabled_does_nothing(struct check_ctx *c)
{
	struct fake_clock clock = { 5 * (uint64_t)S, 0 };
	struct csim_progress p;

	csim_progress_init(&p, NULL, fake_now, &clock);
	csim_progress_phase(&p, CSIM_PHASE_READING, 100);
	for (uint64_t pos = 0; pos < 100u * 1048576u; pos += 65536)
		csim_progress_bytes(&p, pos, 65536);
	csim_progress_tick(&p);
	csim_progress_set_batch(&p, 3, 100);
	csim_progress_item_done(&p, 50);
	csim_progress_print_line(&p, "dump %d", 1);
	csim_progress_clear(&p);
	csim_progress_end(&p);
	/* Never asked the time, so never drew (it had nowhere to draw). */
	CHECK_U64(c, clock.reads, 0);
	/* A NULL tracker is accepted too (a log without progress). */
	csim_progress_bytes(NULL, 1u << 30, 1u << 30);
	csim_progress_tick(NULL);
	csim_progress_clear(NULL);
	CHECK_U64(c, clock.reads, 0);
}

static void test_erase_before_log_output(struct check_ctx *c)
{
	struct screen s;
	struct csim_log log;
	const char *t;

	if (!CHECK(c, screen_open(&s) == 0))
		return;
	log.out = s.f;
	log.err = s.f;
	log.quiet = 0;
	log.progress = &s.p;
	s.clock.ns = 2 * (uint64_t)S;
	csim_progress_phase(&s.p, CSIM_PHASE_READING, 0);   /* "reading 0.0 MB" */
	csim_log_warn(&log, "%s", "w1");
	csim_log_note(&log, "%s", "n1");   /* no line on screen: nothing to erase */
	s.clock.ns += 50 * MS;
	csim_progress_tick(&s.p);          /* within 100 ms of the last draw */
	s.clock.ns += 50 * MS;
	csim_progress_tick(&s.p);
	csim_log_wrote(&log, "out", "trace.clean.json");
	t = text(&s);
	CHECK_STR(c, t, "\rreading 0.0 MB"
			"\r              \rwarning: w1\n"
			"note: n1\n"
			"\rreading 0.0 MB"
			"\r              \rwrote out/trace.clean.json\n");
	CHECK_U64(c, count_redraws(t), 2);   /* the messages are not redraws */
	screen_close(&s);
}

static void test_shorter_text_blanks_the_rest(struct check_ctx *c)
{
	struct screen s;

	if (!CHECK(c, screen_open(&s) == 0))
		return;
	s.clock.ns = 2 * (uint64_t)S;
	csim_progress_phase(&s.p, CSIM_PHASE_READING, 0);
	s.clock.ns += 200 * MS;
	csim_progress_phase(&s.p, CSIM_PHASE_PASSES, 0);
	/* The same text again is not written again. */
	s.clock.ns += 200 * MS;
	csim_progress_tick(&s.p);
	s.clock.ns += 200 * MS;
	csim_progress_phase(&s.p, CSIM_PHASE_READING, 0);
	CHECK_STR(c, text(&s), "\rreading 0.0 MB"
			       "\rpasses, 0.0 MB read, 2s elapsed"
			       "\rreading 0.0 MB                 ");
	csim_progress_end(&s.p);
	CHECK_CONTAINS(c, text(&s), "\rreading 0.0 MB                 "
				    "\r              \r");
	screen_close(&s);
}

static void test_permanent_lines(struct check_ctx *c)
{
	struct screen s;

	if (!CHECK(c, screen_open(&s) == 0))
		return;
	csim_progress_set_batch(&s.p, 2, 3000000u);
	/* Before the first second: the line alone, no status line. */
	csim_progress_item_done(&s.p, 1000000u);
	csim_progress_print_line(&s.p, "converted %s", "a");
	CHECK_STR(c, text(&s), "converted a\n");
	s.clock.ns = 2 * (uint64_t)S;
	csim_progress_tick(&s.p);
	csim_progress_item_done(&s.p, 2000000u);
	csim_progress_print_line(&s.p, "converted %s", "b");   /* within 100 ms */
	s.clock.ns += 100 * MS;
	csim_progress_tick(&s.p);
	csim_progress_end(&s.p);
	CHECK_STR(c, text(&s), "converted a\n"
			       "\r1/2 dumps, 1.0 MB of 3.0 MB, 0.5 MB/s, ETA 4s"
			       "\r                                             \rconverted b\n"
			       "\r2/2 dumps, 3.0 MB of 3.0 MB, 1.4 MB/s, ETA 0s"
			       "\r                                             \r");
	screen_close(&s);
}

int main(void)
{
	struct check_ctx c = { 0, 0, NULL };

	CHECK_RUN(&c, test_reading_line);
	CHECK_RUN(&c, test_eta_forms);
	CHECK_RUN(&c, test_passes_and_writing_lines);
	CHECK_RUN(&c, test_batch_line);
	CHECK_RUN(&c, test_relay);
	CHECK_RUN(&c, test_batch_moving);
	CHECK_RUN(&c, test_line_never_wraps);
	CHECK_RUN(&c, test_nothing_within_a_second);
	CHECK_RUN(&c, test_ten_redraws_a_second);
	CHECK_RUN(&c, test_clock_read_once_a_megabyte);
	CHECK_RUN(&c, test_disabled_does_nothing);
	CHECK_RUN(&c, test_erase_before_log_output);
	CHECK_RUN(&c, test_shorter_text_blanks_the_rest);
	CHECK_RUN(&c, test_permanent_lines);
	CHECK_RUN(&c, test_writing_names_the_file);
	CHECK_RUN(&c, test_log_text_escapes_controls);
	return check_done(&c);
}
