/*
 * check_report: counts the violations of one --check run and formats the
 * first ones for the caller's sink. The rule modules report through it and
 * never print.
 */
#ifndef CSIM_CHECK_REPORT_H
#define CSIM_CHECK_REPORT_H

#include <stddef.h>

/*
 * Receives each violation: rule is one fixed keyword per rule (tests grep
 * for it), text the detail (event index, pid/tid, what is wrong). Only the
 * first max_lines violations are formatted and handed over; the rest are
 * counted, so a trace broken everywhere costs no formatting.
 */
struct csim_check_sink {
	void (*line)(void *ctx, const char *rule, const char *text);
	void *ctx;
	size_t max_lines;
};

struct csim_check_report {
	const struct csim_check_sink *sink;
	size_t count;           /* every violation, formatted or not */
};

void csim_check_violation(struct csim_check_report *rep, const char *rule,
			  const char *fmt, ...) __attribute__((format(printf, 3, 4)));

#endif
