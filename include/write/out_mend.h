/*
 * out_mend: what a run into an output folder finds of a dead run there,
 * and the steps a commit is made of (write/out_set.h).
 *
 * The commit record is text: a first line CSIM_OUT_MEND_MAGIC, then one
 * line per output, "final<TAB>tmp<TAB>aside" ("-" for none), then "end".
 * A record is trusted only as far as it names things of the folder's own:
 * final a plain name, tmp and aside names ".<final>." and a suffix, none
 * with a '/'; anything else is a warning and the record is ignored.
 *
 * Applying an entry depends only on what the folder holds, so a commit cut
 * at any step is completed by applying every entry again: a temporary
 * still there is renamed over its final name (an older folder moved aside
 * first); one gone was renamed already; a removal removes what is there.
 */
#ifndef CSIM_OUT_MEND_H
#define CSIM_OUT_MEND_H

#include "base/csim_error.h"
#include "base/log.h"

/* The commit record's name in an output folder. */
#define CSIM_OUT_SET_RECORD ".clean_sim_trace.commit"

/* One output of a set: a line of the record, a step of the commit. */
struct csim_out_set_entry {
	char *final;   /* a plain name in the folder */
	char *tmp;     /* its finished temporary; NULL: final is removed */
	char *aside;   /* where an older folder is moved before it goes; or NULL */
	int folder;    /* a removal: final is a folder output (raw_simulator) */
};

#define CSIM_OUT_MEND_MAGIC "clean_sim_trace commit 1"

/* Largest record read back: a record is a few lines. */
#define CSIM_OUT_MEND_RECORD_MAX 4096

/* Applies one entry in the folder dirfd; 0 or an errno value. */
int csim_out_mend_apply(int dirfd, const struct csim_out_set_entry *e);

/* Removes the tree `name` under parent, not following links; best effort. */
void csim_out_mend_remove_tree(int parent, const char *name);

/*
 * Rolls a commit record of dir forward and removes dead runs' temporaries,
 * with a note for each. Called with the folder locked.
 */
int csim_out_mend(int dirfd, const char *dir, struct csim_log *log, struct csim_error *err);

#endif
