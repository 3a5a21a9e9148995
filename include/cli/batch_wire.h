/*
 * batch_wire: one dump's result as bytes, from a batch worker process to the
 * parent over a pipe. Numbers are 8-byte little-endian, texts a length then
 * their bytes; the record ends in a marker, so a worker that died half-way
 * is told from one that finished.
 */
#ifndef CSIM_BATCH_WIRE_H
#define CSIM_BATCH_WIRE_H

#include <stddef.h>
#include <stdint.h>

#include "model/dump_figures.h"

/* Longest warnings text sent: the rest is cut (a dump warns a few lines). */
#define CSIM_WIRE_MAX_WARNINGS 65536

/* Longest summary sent (--summary-only): a longer one is not sent at all
   (a cut JSON document would not parse), and the worker says so. */
#define CSIM_WIRE_MAX_SUMMARY ((size_t)1 << 28)

struct csim_wire_result {
	int status;           /* CSIM_OK or the conversion's exit status */
	int64_t micros;
	char *message;        /* "" when ok */
	char *warnings;       /* the worker's warning lines, "" for none */
	char *summary;        /* --summary-only: its table or JSON, "" for none */
	struct csim_dump_figures fig;
};

/* Writes r to fd without allocating; 0, or -1 with errno set. */
int csim_wire_result_send(int fd, const struct csim_wire_result *r);

/*
 * Reads a record from buf[0..n) into r (zeroed first). Returns 0, 1 when the
 * bytes are not one whole record, or -1 when out of memory (r is then empty).
 */
int csim_wire_result_parse(struct csim_wire_result *r, const char *buf, size_t n);

void csim_wire_result_release(struct csim_wire_result *r);

#endif
