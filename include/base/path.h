/*
 * path: file-system path text, and the output folder's creation.
 *
 * Every function that returns a string returns a malloc'd one the caller
 * frees, or NULL when out of memory.
 */
#ifndef CSIM_PATH_H
#define CSIM_PATH_H

#include "base/csim_error.h"

/* "dir/name"; no second slash when dir already ends in one. */
char *csim_path_join(const char *dir, const char *name);

/* The folder part of path: "a/b" → "a", "b" → ".", "/b" → "/". */
char *csim_path_dir(const char *path);

/* dir without trailing slashes ("out/" and "out" name the same folder). */
char *csim_path_trim(const char *dir);

/* mkdir -p; an existing non-folder is an output error. */
int csim_path_make_dirs(const char *dir, struct csim_error *err);

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

#endif
