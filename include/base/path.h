/*
 * path: file-system path text, and the output folder's creation.
 *
 * Every function that returns a string returns a malloc'd one the caller
 * frees, or NULL when out of memory.
 */
#ifndef CSIM_PATH_H
#define CSIM_PATH_H

#include <stddef.h>

#include "base/csim_error.h"

/* "dir/name"; no second slash when dir already ends in one. */
char *csim_path_join(const char *dir, const char *name);

/* path ends in suffix and is longer than it ("x.xz" ends in ".xz"; ".xz" does not). */
int csim_path_ends_with(const char *path, const char *suffix);

/* The folder part of path: "a/b" → "a", "b" → ".", "/b" → "/". */
char *csim_path_dir(const char *path);

/* dir without trailing slashes ("out/" and "out" name the same folder). */
char *csim_path_trim(const char *dir);

/*
 * mkdir -p; an existing non-folder is an output error. *made: the length of
 * the outermost folder of dir it created (dir's own length when only dir
 * was missing), 0 when dir was there: the folders csim_path_unmake_dirs()
 * removes again. A part removed by another process while the chain is made
 * (a batch worker removing the empty folder it made) is made again. On
 * failure what it made is removed (the message says so) and *made is 0.
 */
int csim_path_make_dirs(const char *dir, size_t *made, struct csim_error *err);

/*
 * Removes the folders csim_path_make_dirs(dir) made (made: its record),
 * innermost first, each only if empty (rmdir), never one above them; stops
 * at the first it cannot remove (a folder a sibling's outputs fill). A
 * missing one counts as removed. *removed: the length of the outermost one
 * removed (0: none). Returns 0 when dir itself is gone, else the errno of
 * its removal.
 */
int csim_path_unmake_dirs(const char *dir, size_t made, size_t *removed);

/*
 * Could csim_path_make_dirs(dir) succeed and could files be written in dir,
 * leaving nothing behind and creating nothing outside dir? An existing dir
 * by creating and removing an empty temporary file in it; a missing one by
 * asking faccessat(2) about its nearest existing folder (a file system
 * that grants access yet refuses the folder, as /proc does to root, is
 * then reported when the folder is made).
 */
int csim_path_probe_dirs(const char *dir, struct csim_error *err);

/* Do a and b name the same existing folder (device and inode)? */
int csim_path_same_folder(const char *a, const char *b);

/* Does path resolve to inside (or to) the folder `inside`? */
int csim_path_within(const char *path, const char *inside);

/*
 * Is the folder `name` of the folder dirfd (AT_FDCWD: name is a path) an
 * output folder of this tool: one holding summary.json or a trace the tool
 * writes (trace.clean.json, trace.pftrace, either gzip'd) as a file? Links
 * are not followed; a folder that cannot be read is none.
 */
int csim_path_is_output_dir(int dirfd, const char *name);

#endif
