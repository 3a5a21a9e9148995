#include "check/check_report.h"

#include <stdarg.h>
#include <stdio.h>

void csim_check_violation(struct csim_check_report *rep, const char *rule,
			  const char *fmt, ...)
{
	char text[512];
	va_list ap;

	rep->count++;
	if (rep->sink == NULL || rep->count > rep->sink->max_lines)
		return;
	va_start(ap, fmt);
	vsnprintf(text, sizeof(text), fmt, ap);
	va_end(ap);
	rep->sink->line(rep->sink->ctx, rule, text);
}
