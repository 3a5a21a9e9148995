/*
 * check_report: counts the violations of one --check run and formats the
 * first ones for the caller's sink. The rule modules report through it and
 * never print.
 */
#ifndef CSIM_CHECK_REPORT_H
#define CSIM_CHECK_REPORT_H

#include <stddef.h>

#include "check/check.h"

struct csim_check_report {
	const struct csim_check_sink *sink;
	size_t count;           /* every violation, formatted or not */
};

void csim_check_violation(struct csim_check_report *rep, const char *rule,
			  const char *fmt, ...) __attribute__((format(printf, 3, 4)));

#endif
