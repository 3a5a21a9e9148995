#include "check/check_report.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

void csim_check_violation(struct csim_check_report *rep, const char *rule,
			  const char *fmt, ...)
{
	char text[CSIM_CHECK_LINE];
	va_list ap;

	rep->count++;
	if (rep->sink == NULL || rep->count > rep->sink->max_lines)
		return;
	va_start(ap, fmt);
	vsnprintf(text, sizeof(text), fmt, ap);
	va_end(ap);
	rep->sink->line(rep->sink->ctx, rule, text);
}

void csim_check_note(struct csim_check_report *rep, const char *rule,
		     const char *fmt, ...)
{
	char text[CSIM_CHECK_LINE];
	va_list ap;

	rep->notes++;
	if (rep->sink == NULL || rep->sink->note == NULL || rep->sink->max_lines == 0)
		return;
	va_start(ap, fmt);
	vsnprintf(text, sizeof(text), fmt, ap);
	va_end(ap);
	rep->sink->note(rep->sink->ctx, rule, text);
}

int csim_check_shown(const struct csim_check_report *rep)
{
	return rep->sink != NULL && rep->count < rep->sink->max_lines;
}

void csim_check_violations_done(const struct csim_check_report *rep)
{
	const struct csim_check_sink *k = rep->sink;

	if (k != NULL && k->more != NULL && k->max_lines > 0 && rep->count > k->max_lines)
		k->more(k->ctx, rep->count - k->max_lines);
}

const char *csim_check_us_text(double us, char *buf, size_t n)
{
	/* Fixed notation with as few decimals as read back the same double:
	   "4.029", "4.0289998054504395", never "1e+06". */
	for (int d = 0; d <= 20; d++) {
		snprintf(buf, n, "%.*f", d, us);
		if (strtod(buf, NULL) == us)
			return buf;
	}
	snprintf(buf, n, "%.17g", us);
	return buf;
}

const char *csim_check_ns_text(double ns, char *buf, size_t n)
{
	char *end;

	snprintf(buf, n, "%.3f", ns);
	end = buf + strlen(buf);
	while (end > buf && end[-1] == '0')
		*--end = '\0';
	if (end > buf && end[-1] == '.')
		*--end = '\0';
	if (strcmp(buf, "-0") == 0)
		snprintf(buf, n, "0");
	return buf;
}
