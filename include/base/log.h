/*
 * log: how a run talks to its user. Output files are announced on
 * stdout ("wrote <path>"); warnings and notes go to stderr; --quiet keeps
 * only errors, which main prints. A progress line on the terminal, if
 * any, is erased before each of them (base/progress.h).
 */
#ifndef CSIM_LOG_H
#define CSIM_LOG_H

#include <stdio.h>

#include "base/progress.h"

struct csim_log {
	FILE *out;
	FILE *err;
	int quiet;
	struct csim_progress *progress;   /* NULL: none */
};

/*
 * s with every control written as \xHH: C0 (0x00-0x1f), DEL (0x7f) and the
 * C1 controls U+0080-U+009F (UTF-8 c2 80 to c2 9f, each byte escaped): a
 * folder or event name from the input cannot move the cursor, colour the
 * terminal or split a line a script reads. Every line the tool prints,
 * --check's violations included, goes through it.
 */
void csim_log_text(FILE *f, const char *s);

/* "error: <message>" on f, escaped as above (main prints errors). */
void csim_log_error(FILE *f, const char *message);

/* "wrote <dir>/<name>" on stdout. */
void csim_log_wrote(struct csim_log *log, const char *dir, const char *name);
void csim_log_warn(struct csim_log *log, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));
void csim_log_note(struct csim_log *log, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

#endif
