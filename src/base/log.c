#include "base/log.h"

#include <stdarg.h>

void csim_log_wrote(struct csim_log *log, const char *dir, const char *name)
{
	if (log->quiet)
		return;
	/* stdout may be the terminal the progress line is on. */
	csim_progress_clear(log->progress);
	fprintf(log->out, "wrote %s/%s\n", dir, name);
}

__attribute__((format(printf, 3, 0)))
static void log_line(struct csim_log *log, const char *prefix, const char *fmt,
		     va_list ap)
{
	csim_progress_clear(log->progress);
	fputs(prefix, log->err);
	vfprintf(log->err, fmt, ap);
	fputc('\n', log->err);
}

void csim_log_warn(struct csim_log *log, const char *fmt, ...)
{
	va_list ap;

	if (log->quiet)
		return;
	va_start(ap, fmt);
	log_line(log, "warning: ", fmt, ap);
	va_end(ap);
}

void csim_log_note(struct csim_log *log, const char *fmt, ...)
{
	va_list ap;

	if (log->quiet)
		return;
	va_start(ap, fmt);
	log_line(log, "note: ", fmt, ap);
	va_end(ap);
}
