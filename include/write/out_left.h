/*
 * out_left: what a failed or interrupted run leaves in its output folder,
 * said in its error message (SPEC §8: a failed run leaves the older set
 * and nothing else).
 *
 * Called once the run's temporaries are removed and the folders it made
 * removed again; it only looks. The message then ends in one of:
 *   "no older outputs in DIR; removed DIR (created by this run)"
 *   "older outputs in DIR kept: trace.clean.json, …, raw_simulator/"
 *   "no older outputs in DIR"             (a folder there before the run)
 *   "DIR not created"                     (a signal before the writing)
 * A signal's message ("interrupted by SIGTERM") continues with ": ", and
 * says "temporary files removed" where the folder was there to hold them;
 * an error's with "; ".
 */
#ifndef CSIM_OUT_LEFT_H
#define CSIM_OUT_LEFT_H

#include <stddef.h>

#include "base/csim_error.h"

/* The output folder after a failed run, as the removal left it. */
struct csim_out_left {
	const char *dir;
	size_t made;        /* csim_path_make_dirs's record: what this run made (0: none) */
	int kept;           /* csim_path_unmake_dirs's result: 0, dir is gone */
	size_t removed;     /* and the outermost folder it removed */
	int interrupted;    /* err is a signal's */
};

/* Appends to err's message what the folder holds now. */
void csim_out_left_tell(const struct csim_out_left *left, struct csim_error *err);

#endif
