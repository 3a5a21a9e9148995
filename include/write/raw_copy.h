/*
 * raw_copy: copies the simulator folder into <out>/raw_simulator/ so an
 * output folder stands alone (SPEC §8).
 *
 * The .bin's folder is copied whole only when it is a simulator folder:
 * named simulator, or holding trace.json or a core<N>* folder beside the
 * .bin.
 * A .bin lying anywhere else (a download folder, a home directory) is
 * copied alone, never the unrelated files around it.
 *
 * The copy is built in a temporary folder of the run's output set
 * (write/out_set.h), which puts it in place with the other outputs or
 * removes it. Symbolic links are copied as links and never followed; the
 * output folder, and any other output folder of this tool, is skipped if
 * it lies inside the source (no copy of a copy); a regular file is a
 * reflink where the file system makes one, else a copy (never a hard link);
 * a source file that cannot be read is a warning. Failing to write,
 * or to list a folder that opened, is an error (exit status 3). Every
 * file and folder is fsynced before the commit.
 */
#ifndef CSIM_RAW_COPY_H
#define CSIM_RAW_COPY_H

#include "base/csim_error.h"
#include "base/log.h"
#include "write/out_set.h"

struct csim_raw_copy_stats {
	unsigned long files, links, dirs, skipped;
	unsigned long reflinked;           /* files shared, not copied (of files) */
	unsigned long outputs;             /* output folders of this tool not copied */
	unsigned long long bytes;          /* bytes copied */
	unsigned long long shared_bytes;   /* bytes of the files shared */
	int alone;             /* the .bin alone: src_dir is no simulator folder */
	int made;              /* a copy was made */
};

/*
 * Is src_dir a simulator folder (named simulator, or holding trace.json or
 * a core folder: a folder named core and a digit, then anything, as
 * core0.cubecore0; links are not followed)? 1 or 0;
 * -1 out of memory. A folder that cannot be listed is none.
 */
int csim_raw_copy_is_simulator_dir(const char *src_dir);

/*
 * Copies src_dir, the folder of the .bin named bin_name, or that .bin
 * alone (above), into a temporary folder of set for "raw_simulator";
 * stats->made says whether one was made.
 */
int csim_raw_copy(const char *src_dir, const char *bin_name, struct csim_out_set *set,
		  struct csim_log *log, struct csim_raw_copy_stats *stats, struct csim_error *err);

/* Once committed: the "wrote" line and a note of what was copied. */
void csim_raw_copy_report(struct csim_log *log, const char *out_dir,
			  const struct csim_raw_copy_stats *st, const char *bin_name,
			  const char *src_dir);

#endif
