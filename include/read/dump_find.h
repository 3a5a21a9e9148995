/*
 * dump_find: turns the PATH arguments into the sorted list of dumps a run
 * converts (SPEC §1, §11).
 *
 * Each PATH resolves as in single mode (input_locate.h): a file, else
 * PATH/visualize_data.bin(.gz), else PATH/simulator/visualize_data.bin(.gz).
 * A folder that resolves to none of these is walked: every folder below it
 * that resolves the same way is a dump, and the walk does not go below a
 * dump. The walk does not follow symbolic links to folders (no loops), stops
 * CSIM_DUMP_FIND_DEPTH folders down, skips the tool's own outputs (the -o
 * folder when it lies inside, and a raw_simulator/ copy in an output folder:
 * one holding summary.json, trace.clean.json or trace.clean.json.gz beside
 * it), and warns about a folder it cannot read.
 *
 * A dump's folder is the folder holding simulator/ when the .bin sits in a
 * folder named simulator, else the .bin's folder (OPPROF_x for
 * OPPROF_x/simulator/visualize_data.bin). Its rel path, the folder relative
 * to the base, names its output folder under -o: the base is the PATH when
 * one PATH is walked, else the deepest folder holding every PATH's parent.
 * The list is sorted by rel path (bytewise), then .bin path; a dump reached
 * twice (the same file, or the same folder) is kept once.
 */
#ifndef CSIM_DUMP_FIND_H
#define CSIM_DUMP_FIND_H

#include <stddef.h>

#include "base/csim_error.h"
#include "base/log.h"

/* Folders below a walked PATH: deep enough for a multi-operator run
   inside kernel_insight_all_funcs_<ts>/funcs/<k>/collect/out/ (8). */
#define CSIM_DUMP_FIND_DEPTH 16

struct csim_dump {
	char *bin;      /* the .bin to read, spelled from its PATH; NULL: the
			   PATH holds no dump (error says why) */
	char *dir;      /* the dump's folder, spelled from its PATH */
	char *rel;      /* the dump's folder relative to the base */
	char *error;    /* bin == NULL: the message of single mode */
};

struct csim_dump_list {
	struct csim_dump *items;
	size_t n, cap;
	char *base;     /* absolute, normalized */
	int batch;      /* several PATHs, or a PATH above dumps */
	size_t unreadable;   /* folders the walk could not read (warned) */
};

/*
 * Fills list from paths[0..npaths). skip_dir (may be NULL) is the -o folder:
 * never walked into. A PATH that holds no dump is an item with bin NULL.
 * Returns CSIM_OK, or CSIM_E_INPUT when out of memory.
 */
int csim_dump_find(struct csim_dump_list *list, const char *const *paths,
		   size_t npaths, const char *skip_dir, struct csim_log *log,
		   struct csim_error *err);

void csim_dump_list_release(struct csim_dump_list *list);

/*
 * path as an absolute path without ".", ".." or repeated slashes (done on
 * the text: symbolic links are not resolved); NULL when out of memory or
 * the working folder is unknown.
 */
char *csim_dump_path_normalize(const char *path);

/*
 * path relative to base, both normalized; "." when path is not strictly
 * below base (only a PATH of "/" has no folder above it); NULL only when
 * out of memory.
 */
char *csim_dump_path_relative(const char *path, const char *base);

#endif
