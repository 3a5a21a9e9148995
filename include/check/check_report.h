/*
 * check_report: counts the violations and notes of one --check run and
 * formats them for the caller's sink. The rule modules report through it
 * and never print.
 *
 * A violation is something a viewer gets wrong: it refuses the file, drops
 * or moves an event, draws a slice or arrow where it does not belong, or
 * the check cannot read what the viewers would need. A note is about
 * labels and order only (metadata missing or repeated, more lanes than
 * needed): both viewers draw every slice and arrow right either way.
 */
#ifndef CSIM_CHECK_REPORT_H
#define CSIM_CHECK_REPORT_H

#include <stddef.h>

/*
 * Receives each violation (line) and note (note, may be NULL): rule is one
 * fixed keyword per rule (tests grep for it), text the detail (event index,
 * pid/tid, what is wrong, what the viewers do). Only the first max_lines
 * violations are formatted and handed over; the rest are counted, so a
 * trace broken everywhere costs no formatting. Notes are few (one per kind)
 * and handed over whenever max_lines is not 0.
 */
struct csim_check_sink {
	void (*line)(void *ctx, const char *rule, const char *text);
	void *ctx;
	size_t max_lines;
	void (*note)(void *ctx, const char *rule, const char *text);
	/* Once every violation is in, before the notes, when some were not
	   handed over (may be NULL). */
	void (*more)(void *ctx, size_t unshown);
};

struct csim_check_report {
	const struct csim_check_sink *sink;
	size_t count;           /* every violation, formatted or not */
	size_t notes;
};

/* Room for one formatted line: a lane's pair names two events in full. */
#define CSIM_CHECK_LINE 1024

void csim_check_violation(struct csim_check_report *rep, const char *rule,
			  const char *fmt, ...) __attribute__((format(printf, 3, 4)));
void csim_check_note(struct csim_check_report *rep, const char *rule,
		     const char *fmt, ...) __attribute__((format(printf, 3, 4)));

/* Whether the next violation will be handed over (else only counted): a
   rule whose text is costly to build skips it. */
int csim_check_shown(const struct csim_check_report *rep);

/* Every violation is in: tells the sink how many it was not handed. */
void csim_check_violations_done(const struct csim_check_report *rep);

/* A time in us as the file wrote it: the shortest text that reads back. */
const char *csim_check_us_text(double us, char *buf, size_t n);

/* A length in ns with up to 3 decimals, trailing zeros dropped. */
const char *csim_check_ns_text(double ns, char *buf, size_t n);

#endif
