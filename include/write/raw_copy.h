/*
 * raw_copy: copies the simulator folder into <out>/raw_simulator/ so an
 * output folder stands alone.
 *
 * The copy is built in a temporary folder and swapped in at the end, so a
 * failed run leaves any earlier raw_simulator/ as it was. Symbolic links are
 * copied as links and never followed; the output folder is skipped if it lies
 * inside the source (no copy of the copy); a source file that cannot be read
 * is a warning. Failing to write is an error (exit status 3).
 */
#ifndef CSIM_RAW_COPY_H
#define CSIM_RAW_COPY_H

#include "base/csim_error.h"
#include "base/log.h"

struct csim_raw_copy_stats {
	unsigned long files, links, dirs, skipped;
	unsigned long long bytes;
};

/* On success *dest is the malloc'd path of the finished copy. */
int csim_raw_copy(const char *src_dir, const char *out_dir, struct csim_log *log,
		  struct csim_raw_copy_stats *stats, char **dest,
		  struct csim_error *err);

/* csim_raw_copy(), then its "wrote" line and a note of what it copied. */
int csim_raw_copy_reported(const char *src_dir, const char *out_dir,
			   struct csim_log *log, struct csim_error *err);

#endif
