/*
 * check_tally: per-event problems of one kind, reported once. A generator
 * that writes every B event, every string flow id or every bad cname the
 * same way has one defect, not one per event: each kind (rule, noun, text)
 * becomes one violation or note naming how many events have it and the
 * first and last of them.
 *
 * The table is fixed (no allocation while streaming); kinds beyond it are
 * reported per event as they come.
 */
#ifndef CSIM_CHECK_TALLY_H
#define CSIM_CHECK_TALLY_H

#include <stdint.h>

#include "check/check_report.h"

#define CSIM_CHECK_TALLY_KINDS 32
#define CSIM_CHECK_TALLY_NOUN 48
#define CSIM_CHECK_TALLY_TEXT 320

struct csim_check_tally_kind {
	const char *rule;       /* a static keyword */
	int note;               /* 1: a note, 0: a violation */
	char noun[CSIM_CHECK_TALLY_NOUN];   /* "X event": its plural adds "s" */
	char text[CSIM_CHECK_TALLY_TEXT];   /* what is wrong and what it does */
	uint64_t first, last, count;
};

struct csim_check_tally {
	struct csim_check_tally_kind kind[CSIM_CHECK_TALLY_KINDS];
	size_t n;
};

/*
 * One event (index) with a problem of rule's kind: noun names the event
 * ("X event"), fmt the problem. Reported at once only when the table is
 * full.
 */
void csim_check_tally_add(struct csim_check_tally *t, struct csim_check_report *rep,
			  const char *rule, int note, const char *noun, uint64_t index,
			  const char *fmt, ...) __attribute__((format(printf, 7, 8)));

/* The violations (notes 0) or the notes (1), each kind in the order of its
   first event: "X event #6: …" for one, "3 X events (first #6, last #9): …"
   for more. */
void csim_check_tally_flush(const struct csim_check_tally *t, struct csim_check_report *rep,
			    int notes);

#endif
