#define _DEFAULT_SOURCE   /* realpath */
#include "base/path.h"
#include "base/span.h"

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

char *csim_path_join(const char *dir, const char *name)
{
	size_t dn = strlen(dir), nn = strlen(name);
	char *p = malloc(dn + nn + 2);

	if (p == NULL)
		return NULL;
	memcpy(p, dir, dn);
	if (dn == 0 || dir[dn - 1] != '/')
		p[dn++] = '/';
	memcpy(p + dn, name, nn + 1);
	return p;
}

int csim_path_ends_with(const char *path, const char *suffix)
{
	const size_t n = strlen(path), k = strlen(suffix);

	return n > k && strcmp(path + n - k, suffix) == 0;
}

char *csim_path_dir(const char *path)
{
	const char *slash = strrchr(path, '/');

	if (slash == NULL)
		return csim_span_dup(csim_span_of(".", 1));
	return csim_span_dup(csim_span_of(path, slash == path ? 1
						      : (size_t)(slash - path)));
}

char *csim_path_trim(const char *dir)
{
	size_t n = strlen(dir);

	while (n > 1 && dir[n - 1] == '/')
		n--;
	return csim_span_dup(csim_span_of(dir, n));
}

/* Is the last part of path[0..n) "." (removing it would remove nothing)? */
static int is_dot(const char *path, size_t n)
{
	return n > 0 && path[n - 1] == '.' && (n == 1 || path[n - 2] == '/');
}

/* n cut back to path[0..n)'s folder part; 0 when it has none. */
static size_t parent_len(const char *path, size_t n)
{
	while (n > 0 && path[n - 1] != '/')
		n--;
	if (n == 0)
		return 0;
	while (n > 1 && path[n - 1] == '/')
		n--;
	return n;
}

/* How often a chain is made again when a part of it vanishes meanwhile. */
#define MAKE_TRIES 8

/*
 * One pass of mkdir -p over path (a copy of dir, n bytes): 0, or the errno
 * of the part that failed, path cut after that part. *made is lowered to
 * each part this pass created.
 */
static int make_chain(char *path, size_t n, size_t *made)
{
	for (size_t i = 1; i <= n; i++) {
		if (path[i] != '/' && path[i] != '\0')
			continue;
		path[i] = '\0';
		if (mkdir(path, 0777) == 0) {
			if (*made == 0 || i < *made)
				*made = i;
		} else if (errno != EEXIST) {
			return errno;
		}
		if (i < n)
			path[i] = '/';
	}
	return 0;
}

/* Is the folder above path's last component an existing folder? */
static int parent_is_dir(const char *path)
{
	char *parent = csim_path_dir(path);
	struct stat st;
	int is = parent != NULL && stat(parent, &st) == 0 && S_ISDIR(st.st_mode);

	free(parent);
	return is;
}

int csim_path_make_dirs(const char *dir, size_t *made, struct csim_error *err)
{
	size_t n = strlen(dir), removed = 0;
	char *path = csim_span_dup(csim_span_of(dir, n));
	struct stat st;
	int rc = CSIM_OK, e = 0;

	*made = 0;
	if (path == NULL)
		return csim_error_nomem(err, CSIM_E_OUTPUT);
	/* ENOENT: a part made (by another run, or a batch worker) was removed
	   again as this one went below it; it is made again. */
	for (int tries = 0; tries < MAKE_TRIES; tries++) {
		memcpy(path, dir, n + 1);
		e = make_chain(path, n, made);
		if (e != ENOENT)
			break;
	}
	if (e != 0 && e == ENOENT && parent_is_dir(path))
		/* The folder above is there: the file system itself refuses
		   (/proc, /sys), which "No such file or directory" hides. */
		rc = csim_error_set(err, CSIM_E_OUTPUT, CSIM_NO_OFFSET,
				    "cannot create output folder %s: its parent folder exists but "
				    "takes no new folder (a virtual file system such as /proc or "
				    "/sys?): %s", path, strerror(e));
	else if (e != 0)
		rc = csim_error_set(err, CSIM_E_OUTPUT, CSIM_NO_OFFSET,
				    "cannot create output folder %s: %s", path, strerror(e));
	else if (stat(dir, &st) != 0 || !S_ISDIR(st.st_mode))
		rc = csim_error_set(err, CSIM_E_OUTPUT, CSIM_NO_OFFSET,
				    "cannot write to %s: %s", dir,
				    stat(dir, &st) != 0 ? strerror(errno) : "not a folder");
	/* A chain made only in part is no output folder: it goes again, from
	   the part above the one that failed. */
	if (rc != CSIM_OK && *made > 0) {
		path[parent_len(path, strlen(path))] = '\0';
		(void)csim_path_unmake_dirs(path, *made, &removed);
		if (removed > 0)
			csim_error_append(err, "; removed %.*s (created by this run)", (int)removed,
					  dir);
	}
	if (rc != CSIM_OK)
		*made = 0;
	free(path);
	return rc;
}

int csim_path_unmake_dirs(const char *dir, size_t made, size_t *removed)
{
	char path[PATH_MAX];
	const size_t len = strlen(dir);
	size_t n = len;

	*removed = 0;
	if (made == 0)
		return 0;
	if (n >= sizeof(path))
		return ENAMETOOLONG;
	memcpy(path, dir, n + 1);
	while (n >= made && n > 0) {
		path[n] = '\0';
		if (!is_dot(path, n)) {
			if (rmdir(path) == 0)
				*removed = n;
			else if (errno != ENOENT)
				return n == len ? errno : 0;
		}
		n = parent_len(path, n);
	}
	return 0;
}

/*
 * The nearest folder of dir that exists: dir itself, or the ancestor
 * mkdir -p would create dir's first missing part in. A part that exists
 * but is not a folder, or cannot be looked at, is an output error.
 */
static int nearest_existing(char **probe, const char *dir, struct csim_error *err)
{
	char *p = csim_span_dup(csim_span_of(dir, strlen(dir)));
	struct stat st;

	while (p != NULL && stat(p, &st) != 0 && errno == ENOENT) {
		char *up = csim_path_dir(p);

		free(p);
		p = up;
	}
	if (p == NULL)
		return csim_error_nomem(err, CSIM_E_OUTPUT);
	*probe = p;
	if (stat(p, &st) != 0)
		return csim_error_set(err, CSIM_E_OUTPUT, CSIM_NO_OFFSET,
				      "cannot create output folder %s: %s", dir, strerror(errno));
	if (!S_ISDIR(st.st_mode) && strcmp(p, dir) == 0)
		return csim_error_set(err, CSIM_E_OUTPUT, CSIM_NO_OFFSET,
				      "cannot write to %s: not a folder", dir);
	if (!S_ISDIR(st.st_mode))
		return csim_error_set(err, CSIM_E_OUTPUT, CSIM_NO_OFFSET,
				      "cannot create output folder %s: %s is not a folder", dir, p);
	return CSIM_OK;
}

/*
 * A missing dir is asked about, not tried: anything made in its nearest
 * existing folder would be outside dir, and a folder made and removed
 * again races with a batch worker making the same parent.
 */
static int probe_missing(const char *near, const char *dir, struct csim_error *err)
{
	if (faccessat(AT_FDCWD, near, W_OK | X_OK, AT_EACCESS) != 0)
		return csim_error_set(err, CSIM_E_OUTPUT, CSIM_NO_OFFSET,
				      "cannot create output folder %s: %s", dir, strerror(errno));
	return CSIM_OK;
}

/* An existing dir is tried: the one test right for ACLs, read-only mounts
   and root alike, and the temporary is inside the folder being written. */
static int probe_existing(const char *dir, struct csim_error *err)
{
	char *tmp = csim_path_join(dir, ".csim-probe-XXXXXX");
	int fd, rc = CSIM_OK;

	if (tmp == NULL)
		return csim_error_nomem(err, CSIM_E_OUTPUT);
	fd = mkstemp(tmp);
	if (fd < 0) {
		rc = csim_error_set(err, CSIM_E_OUTPUT, CSIM_NO_OFFSET, "cannot write to %s: %s",
				    dir, strerror(errno));
	} else {
		if (unlink(tmp) != 0)
			rc = csim_error_set(err, CSIM_E_OUTPUT, CSIM_NO_OFFSET,
					    "cannot remove %s: %s", tmp, strerror(errno));
		close(fd);
	}
	free(tmp);
	return rc;
}

int csim_path_probe_dirs(const char *dir, struct csim_error *err)
{
	char *near = NULL;
	int rc = nearest_existing(&near, dir, err);

	if (rc == CSIM_OK)
		rc = strcmp(near, dir) == 0 ? probe_existing(dir, err)
					    : probe_missing(near, dir, err);
	free(near);
	return rc;
}

int csim_path_same_folder(const char *a, const char *b)
{
	struct stat sa, sb;

	return stat(a, &sa) == 0 && stat(b, &sb) == 0 && sa.st_dev == sb.st_dev &&
	       sa.st_ino == sb.st_ino;
}

int csim_path_within(const char *path, const char *inside)
{
	char a[PATH_MAX], b[PATH_MAX];
	size_t n;

	if (realpath(path, a) == NULL || realpath(inside, b) == NULL)
		return 0;
	n = strlen(b);
	return strncmp(a, b, n) == 0 && (a[n] == '\0' || a[n] == '/');
}

int csim_path_is_output_dir(int dirfd, const char *name)
{
	static const char *const outputs[] = {
		"summary.json", "trace.clean.json", "trace.clean.json.gz",
		"trace.pftrace", "trace.pftrace.gz"
	};
	const int fd = openat(dirfd, name, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
	int is = 0;

	if (fd < 0)
		return 0;
	for (size_t i = 0; !is && i < sizeof(outputs) / sizeof(outputs[0]); i++) {
		struct stat st;

		is = fstatat(fd, outputs[i], &st, AT_SYMLINK_NOFOLLOW) == 0 && S_ISREG(st.st_mode);
	}
	close(fd);
	return is;
}
