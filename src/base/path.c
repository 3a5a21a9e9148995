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

int csim_path_make_dirs(const char *dir, struct csim_error *err)
{
	size_t n = strlen(dir);
	char *path = csim_span_dup(csim_span_of(dir, n));
	struct stat st;
	int rc = CSIM_OK;

	if (path == NULL)
		return csim_error_nomem(err, CSIM_E_OUTPUT);
	for (size_t i = 1; i <= n; i++) {
		if (path[i] != '/' && path[i] != '\0')
			continue;
		path[i] = '\0';
		if (mkdir(path, 0777) != 0 && errno != EEXIST) {
			rc = csim_error_set(err, CSIM_E_OUTPUT, CSIM_NO_OFFSET,
					    "cannot create output folder %s: %s", path,
					    strerror(errno));
			break;
		}
		if (i < n)
			path[i] = '/';
	}
	if (rc == CSIM_OK && (stat(dir, &st) != 0 || !S_ISDIR(st.st_mode)))
		rc = csim_error_set(err, CSIM_E_OUTPUT, CSIM_NO_OFFSET,
				    "cannot write to %s: %s", dir,
				    stat(dir, &st) != 0 ? strerror(errno) : "not a folder");
	free(path);
	return rc;
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
