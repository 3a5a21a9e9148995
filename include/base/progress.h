/*
 * progress: the status line a long run draws on a terminal (SPEC §1).
 *
 * One line on stderr, redrawn in place ("\r", the text, blanks over what is
 * left of the previous text), never before the run is a second old, at most
 * ten times a second, and erased before anything else is printed, so the
 * "wrote" lines, warnings and errors always start on a clean line. Nothing
 * is printed when the tracker is disabled (out NULL: -q, or stderr is not a
 * terminal); every call is then a no-op, so callers never test for it.
 *
 * Costs: csim_progress_bytes() is called for every read of the input (a
 * read is up to 256 KiB) and reads the clock only once per
 * CSIM_PROGRESS_STEP bytes delivered; the line is formatted only when it is
 * drawn.
 *
 * Time comes from the clock function given to init(), in nanoseconds from
 * any fixed origin: csim_progress_monotonic_ns in the product, a hand-driven
 * one in the unit tests.
 *
 * One dump (the converter, through log->progress): phase(READING, file
 * size), bytes() as the input is read (the stream does it), phase(PASSES,
 * file size) with tick() between passes, phase(WRITING, file size) while the
 * writer re-reads the input, end() before the "wrote" lines. The line reads
 *   reading 120.3 of 254.0 MB, 110.2 MB/s, ETA 1s
 * where the ETA is the current phase's. For a .gz input the byte counts are
 * those of the compressed file (its size is the only total known ahead).
 *
 * Several dumps (batch mode): set_batch(M, Y) once with the number of dumps
 * and the sum of their file sizes as stored; after each dump, item_done(its
 * file size) and then print_line() with its one-line result (a permanent
 * line, drawn above the status line). The status line then reads
 *   3/20 dumps, 120.3 MB of 900.0 MB, 50.1 MB/s, ETA 15s
 * with X = the finished dumps' bytes plus the bytes done of the dumps under
 * way: of one converted in this process, its phase's; of those converted
 * in forked workers, what moving() was last given. Each worker draws
 * nothing (two processes cannot share one line) but relays how far its
 * dump has come through a counter in shared memory (init_relay()); the
 * parent sums them into moving() and calls tick() whenever it wakes (e.g.
 * a wait with a 100 ms timeout), so the line moves during the first dump
 * and the ETA, (Y - X) at the mean rate so far, falls while the last one
 * is converted. A worker's own warnings on
 * the same terminal would start in the middle of the parent's status line:
 * send them to the parent (a pipe) and print them there after clear() or
 * through print_line(). Call end() once at the end of the batch; a
 * converted dump's own end() only erases the line until the next tick.
 */
#ifndef CSIM_PROGRESS_H
#define CSIM_PROGRESS_H

#include <stdatomic.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

/* Bytes delivered (decompressed, for gzip) between two reads of the clock
   (or two stores of a worker's relay). */
#define CSIM_PROGRESS_STEP (1024u * 1024u)
/* A relayed dump that is written: the first reading's share of its time,
   in percent (the passes and the writer's second reading have the rest). */
#define CSIM_PROGRESS_READ_SHARE 50u
/* Nothing is drawn before the run is this old ... */
#define CSIM_PROGRESS_DELAY_NS 1000000000u
/* ... nor twice within this (ten lines a second at most). */
#define CSIM_PROGRESS_INTERVAL_NS 100000000u
/* Longest status line in columns: under 80, so it never wraps. */
#define CSIM_PROGRESS_LINE 79u

enum csim_progress_phase {
	CSIM_PHASE_NONE,
	CSIM_PHASE_READING,
	CSIM_PHASE_PASSES,
	CSIM_PHASE_WRITING
};

typedef uint64_t (*csim_progress_clock)(void *ctx);

struct csim_progress {
	FILE *out;                /* NULL: disabled */
	csim_progress_clock now;
	void *now_ctx;
	uint64_t start;           /* ns: the run's start */
	uint64_t last_draw;       /* ns: the last redraw (an erase does not count) */
	int ever_drawn;
	size_t shown;             /* columns of the line on screen; 0: none */
	char text[CSIM_PROGRESS_LINE + 1];   /* the line on screen */
	enum csim_progress_phase phase;
	const char *file;         /* the output being written (a literal); NULL: none named */
	uint64_t phase_start;     /* ns */
	uint64_t pos, size;       /* input bytes of the phase; size 0: unknown */
	uint64_t work;            /* bytes delivered by reads so far */
	uint64_t next_check;      /* work at which bytes() reads the clock next */
	/* batch mode (items_total > 0) */
	unsigned long items_done, items_total;
	uint64_t bytes_done, bytes_total;
	uint64_t bytes_moving;    /* of the dumps under way, as their workers relay */
	/* a worker's relay (out NULL): its dump's bytes done, for the parent */
	atomic_ullong *relay;
	int relay_writes;         /* the dump is written after it is read */
};

/* out NULL disables the tracker. The run's clock starts now. */
void csim_progress_init(struct csim_progress *p, FILE *out,
			csim_progress_clock now, void *now_ctx);

/*
 * A batch worker's tracker: draws nothing, and relays how far its dump has
 * come to the parent through *slot (shared memory; only ever raised), in
 * the dump's bytes as stored: the reading's position, and with `writes`
 * (the outputs are written, not --summary-only) the reading and the
 * writer's second reading each as their share of the dump's time
 * (CSIM_PROGRESS_READ_SHARE). slot NULL: every call is a no-op.
 */
void csim_progress_init_relay(struct csim_progress *p, atomic_ullong *slot, int writes);

/* CLOCK_MONOTONIC in ns (ctx unused). */
uint64_t csim_progress_monotonic_ns(void *ctx);

/* A new phase over `size` input bytes (0: none or unknown); may redraw. */
void csim_progress_phase(struct csim_progress *p, enum csim_progress_phase phase,
			 uint64_t size);

/*
 * In the writing phase: the output named `file` (a string that outlives
 * the phase) is written next, reading the input again from its start. The
 * line names it ("writing trace.pftrace 4.2 of 130.7 MB"), so a second
 * reading that starts over does not look like a step back.
 */
void csim_progress_writing(struct csim_progress *p, const char *file);

/*
 * A read delivered `got` bytes and the file is read up to offset `pos` (its
 * own bytes: compressed ones for gzip). Reads the clock once per STEP bytes
 * delivered, so a small but highly compressed file still ticks.
 */
void csim_progress_bytes(struct csim_progress *p, uint64_t pos, uint64_t got);

/* Reads the clock and redraws if the delay and the interval allow. */
void csim_progress_tick(struct csim_progress *p);

/* Erases the line (if one is drawn) before other output to the terminal;
   the next tick draws it again. */
void csim_progress_clear(struct csim_progress *p);

/* Erases the line and leaves the phase; the tracker stays usable. */
void csim_progress_end(struct csim_progress *p);

/* Batch mode: the number of dumps and the sum of their sizes. */
void csim_progress_set_batch(struct csim_progress *p, unsigned long items,
			     uint64_t bytes);

/* Batch mode: one more dump of `bytes` input bytes is finished. */
void csim_progress_item_done(struct csim_progress *p, uint64_t bytes);

/*
 * Batch mode: the bytes done of the dumps under way (the sum of their
 * workers' relays), counted with the finished ones' until the next call;
 * set it again after item_done(), which also ends one of them.
 */
void csim_progress_moving(struct csim_progress *p, uint64_t bytes);

/* Prints one permanent line (a newline is added) above the status line,
   which is redrawn below it when the interval allows. */
void csim_progress_print_line(struct csim_progress *p, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

/*
 * The status line as it would be drawn at time `now` (ns), NUL-terminated
 * in buf (size >= CSIM_PROGRESS_LINE + 1 holds any); returns its length.
 */
size_t csim_progress_format(const struct csim_progress *p, uint64_t now,
			    char *buf, size_t size);

#endif
