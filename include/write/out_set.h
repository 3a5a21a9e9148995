/*
 * out_set: one run's outputs, committed into their folder as one set, the
 * way a database commits (SPEC §8).
 *
 * begin() takes the folder's lock, an flock on the folder itself (nothing
 * to leave behind), waiting while another run holds it, then mends what a
 * dead run left: a commit record is rolled forward; temporaries without one
 * are removed (their run died before its commit point, so the older set is
 * whole). While the lock is held no other run writes temporaries here, so
 * every temporary found is a dead run's.
 *
 * Each output reaches the set finished (written, flushed, fsynced, closed);
 * a folder output (the raw copy) is built in a temporary folder the set
 * made; drop() names an older output this run does not produce. commit()
 * writes the record, fsyncs it and renames it into place (the commit
 * point), then, with SIGINT, SIGTERM and SIGHUP held off, does every rename
 * and removal, fsyncs the folder and removes the record. A failure before
 * the commit point leaves the older set byte for byte; one after it leaves
 * the record, and the next run into the folder completes the commit.
 */
#ifndef CSIM_OUT_SET_H
#define CSIM_OUT_SET_H

#include <stddef.h>

#include "base/csim_error.h"
#include "base/log.h"
#include "write/out_file.h"
#include "write/out_mend.h"   /* struct csim_out_set_entry */

struct csim_out_set {
	char *dir;     /* the folder, for messages */
	int dirfd;     /* -1: not begun */
	struct csim_log *log;
	struct csim_out_set_entry *e;
	size_t n, cap;
	int committed;      /* past the commit point: the temporaries are the record's */
};

/* A zeroed set that owns nothing (release() is then a no-op). */
void csim_out_set_init(struct csim_out_set *s);

/*
 * Locks dir and mends it (above). A folder that does not exist yet is no
 * error: the set is then not begun (csim_out_set_begun() is 0), and
 * begin() may be called again once it exists; so is one removed while
 * this run waited for its lock.
 */
int csim_out_set_begin(struct csim_out_set *s, const char *dir, struct csim_log *log,
		       struct csim_error *err);

int csim_out_set_begun(const struct csim_out_set *s);

/* Finishes o (csim_out_finish) and takes its temporary into the set. */
int csim_out_set_add(struct csim_out_set *s, struct csim_out *o, struct csim_error *err);

/*
 * Makes the temporary folder for the output folder `final` (mode 0700) and
 * opens it; the set owns it from here: removed unless committed.
 */
int csim_out_set_add_dir(struct csim_out_set *s, const char *final, int *fd,
			 struct csim_error *err);

/*
 * The older output `final` goes in the commit, if there is one: a file or
 * link, or a folder when `folder` says the output is one (a folder of a
 * file output's name is left, with a warning).
 */
int csim_out_set_drop(struct csim_out_set *s, const char *final, int folder,
		      struct csim_error *err);

/* Puts the set in place (above). */
int csim_out_set_commit(struct csim_out_set *s, struct csim_error *err);

/* Whether the commit point was passed: the folder holds the new set (or its record). */
int csim_out_set_committed(const struct csim_out_set *s);

/* Removes every temporary not committed and unlocks the folder. */
void csim_out_set_release(struct csim_out_set *s);

/*
 * The same for a folder this run made: uncommitted, it is removed too if
 * that leaves it empty, before the lock goes, so a run waiting for the lock
 * finds it gone (begin() then takes it for a missing folder) and never
 * writes into a folder about to vanish. Returns 1 if it removed the folder.
 */
int csim_out_set_release_made(struct csim_out_set *s);

#endif
