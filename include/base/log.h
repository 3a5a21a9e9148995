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

/* "wrote <dir>/<name>" on stdout. */
void csim_log_wrote(struct csim_log *log, const char *dir, const char *name);
void csim_log_warn(struct csim_log *log, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));
void csim_log_note(struct csim_log *log, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

#endif
