/*
 * csim_error: the one error record every fallible function fills.
 *
 * A function returns CSIM_OK (0) or one of the exit-status codes below and,
 * on failure, leaves a complete one-line message in err->message (without the
 * "error: " prefix, which only main adds). The code doubles as the process
 * exit status, so a failure deep in a module maps to the documented status
 * without translation tables.
 */
#ifndef CSIM_ERROR_H
#define CSIM_ERROR_H

#include <stdint.h>

enum csim_code {
	CSIM_OK = 0,
	CSIM_E_INPUT = 1,  /* input missing, unreadable, corrupt, no TRACE */
	CSIM_E_USAGE = 2,  /* bad command line */
	CSIM_E_OUTPUT = 3, /* an output could not be written */
	CSIM_E_SLOWER = 4, /* --compare --fail-if-slower: a span grew past it */
	CSIM_E_UNCOMPARED = 5, /* --compare --fail-if-slower over batches: no
				  dump in both, or one of BASE missing from or
				  failed in NEW, so not all was gated */
	/* SIGINT/SIGTERM/SIGHUP: main ends the process by that signal; this
	   status is seen only if it survives it (128 + SIGINT). */
	CSIM_E_INTERRUPTED = 130
};

#define CSIM_NO_OFFSET UINT64_MAX

struct csim_error {
	int code;
	uint64_t offset;       /* byte offset the error refers to, or CSIM_NO_OFFSET */
	char message[1024];
};

void csim_error_clear(struct csim_error *err);

/* Formats the message, records code and offset, and returns code. */
int csim_error_set(struct csim_error *err, int code, uint64_t offset,
		   const char *fmt, ...) __attribute__((format(printf, 4, 5)));

/*
 * Adds to the message of an error already set (a failed run's outputs say
 * what was kept of the output folder); the code and offset stay.
 */
void csim_error_append(struct csim_error *err, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

/*
 * The one out-of-memory error: every failed allocation ends up here, so every
 * such failure reads "out of memory" and exits with the status of the phase it
 * happened in (CSIM_E_INPUT while reading or processing, CSIM_E_OUTPUT while
 * writing). Returns code.
 */
int csim_error_nomem(struct csim_error *err, int code);

/*
 * Whether err holds that error. Lets a writer that reuses reading modules
 * (the second reading of the input) report their allocation failures with
 * its own status.
 */
int csim_error_is_nomem(const struct csim_error *err);

#endif
