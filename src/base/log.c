#include "base/log.h"

#include <stdarg.h>

/* Longest line text kept; a longer one is cut (names from a dump can be long). */
#define LINE_MAX_TEXT 8192

void csim_log_text(FILE *f, const char *s)
{
	static const char hex[] = "0123456789abcdef";
	const char *run = s;

	for (; *s != '\0'; s++) {
		const unsigned char c = (unsigned char)*s;
		/* C1 controls (U+0080..U+009F, as UTF-8 C2 80..C2 9F): CSI
		   (U+009B) starts an escape sequence as ESC [ does. */
		const int c1 = c == 0xc2 && (unsigned char)s[1] >= 0x80 &&
			       (unsigned char)s[1] <= 0x9f;

		if (c >= 0x20 && c != 0x7f && !c1)
			continue;
		fwrite(run, 1, (size_t)(s - run), f);
		for (int k = 0; k <= c1; k++) {
			const unsigned char b = (unsigned char)s[k];

			fputc('\\', f);
			fputc('x', f);
			fputc(hex[b >> 4], f);
			fputc(hex[b & 15], f);
		}
		s += c1;
		run = s + 1;
	}
	fputs(run, f);
}

void csim_log_error(FILE *f, const char *message)
{
	fputs("error: ", f);
	csim_log_text(f, message);
	fputc('\n', f);
}

void csim_log_wrote(struct csim_log *log, const char *dir, const char *name)
{
	if (log->quiet)
		return;
	/* stdout may be the terminal the progress line is on. */
	csim_progress_clear(log->progress);
	fputs("wrote ", log->out);
	csim_log_text(log->out, dir);
	fputc('/', log->out);
	csim_log_text(log->out, name);
	fputc('\n', log->out);
}

__attribute__((format(printf, 3, 0)))
static void log_line(struct csim_log *log, const char *prefix, const char *fmt,
		     va_list ap)
{
	char text[LINE_MAX_TEXT];

	(void)vsnprintf(text, sizeof(text), fmt, ap);
	csim_progress_clear(log->progress);
	fputs(prefix, log->err);
	csim_log_text(log->err, text);
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
