#define _GNU_SOURCE   /* syscall */
#include "write/out_mend.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <unistd.h>

/*
 * The outputs this tool writes into a folder: a temporary of one of these
 * (".<name>.XXXXXX", or ".<name>.tmp.XXXXXX" / ".<name>.old.XXXXXX" for a
 * folder) is a dead run's when the lock is ours. Nothing else is touched.
 */
static const char *const outputs[] = {
	"trace.clean.json", "trace.clean.json.gz", "trace.pftrace", "instr_metrics.json",
	"summary.json", "summary.html", "raw_simulator", "batch_summary.json",
	"batch_summary.csv", CSIM_OUT_SET_RECORD + 1,
};

#define SUFFIX_LEN 6   /* mkstemp's and mkdtemp's XXXXXX */

static int is_suffix(const char *s)
{
	size_t i;

	for (i = 0; s[i] != '\0'; i++)
		if (!((s[i] >= 'a' && s[i] <= 'z') || (s[i] >= 'A' && s[i] <= 'Z') ||
		      (s[i] >= '0' && s[i] <= '9')))
			return 0;
	return i == SUFFIX_LEN;
}

/* Is name ".<output>.<suffix>" of one output (a temporary of ours)? */
static int is_temporary(const char *name)
{
	if (name[0] != '.')
		return 0;
	for (size_t i = 0; i < sizeof(outputs) / sizeof(outputs[0]); i++) {
		const size_t n = strlen(outputs[i]);
		const char *rest = name + 1 + n;

		if (strncmp(name + 1, outputs[i], n) != 0 || *rest != '.')
			continue;
		rest++;
		if (strncmp(rest, "tmp.", 4) == 0 || strncmp(rest, "old.", 4) == 0)
			rest += 4;
		if (is_suffix(rest))
			return 1;
	}
	return 0;
}

#ifdef SYS_getdents64
/* What getdents64 fills (linux_dirent64). */
struct raw_dirent {
	uint64_t ino;
	int64_t off;
	unsigned short reclen;
	unsigned char type;
	char name[];
};

/*
 * The entries of a folder without an allocation: a run out of memory (or
 * one whose DIR libc cannot allocate) must still remove what it made.
 */
static void remove_entries(int fd)
{
	char buf[4096] __attribute__((aligned(8)));
	long n;

	while ((n = syscall(SYS_getdents64, fd, buf, sizeof(buf))) > 0) {
		for (long at = 0; at < n;) {
			const struct raw_dirent *e = (const struct raw_dirent *)(void *)(buf + at);

			at += e->reclen;
			if (strcmp(e->name, ".") == 0 || strcmp(e->name, "..") == 0)
				continue;
			if (unlinkat(fd, e->name, 0) != 0)
				csim_out_mend_remove_tree(fd, e->name);
		}
	}
}
#else
static void remove_entries(int fd)
{
	int dup_fd = dup(fd);
	DIR *d = dup_fd >= 0 ? fdopendir(dup_fd) : NULL;
	struct dirent *e;

	if (d == NULL) {
		if (dup_fd >= 0)
			close(dup_fd);
		return;
	}
	while ((e = readdir(d)) != NULL) {
		if (strcmp(e->d_name, ".") == 0 || strcmp(e->d_name, "..") == 0)
			continue;
		if (unlinkat(fd, e->d_name, 0) != 0)
			csim_out_mend_remove_tree(fd, e->d_name);
	}
	closedir(d);
}
#endif

void csim_out_mend_remove_tree(int parent, const char *name)
{
	const int fd = openat(parent, name, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);

	if (fd < 0) {
		(void)unlinkat(parent, name, 0);
		return;
	}
	remove_entries(fd);
	close(fd);
	(void)unlinkat(parent, name, AT_REMOVEDIR);
}

/* 1 a folder (not followed), 0 something else, -1 nothing (errno set). */
static int kind_of(int dirfd, const char *name)
{
	struct stat st;

	if (fstatat(dirfd, name, &st, AT_SYMLINK_NOFOLLOW) != 0)
		return -1;
	return S_ISDIR(st.st_mode) ? 1 : 0;
}

/* final goes: a folder is moved aside (removed once the commit is done). */
static int remove_final(int dirfd, const struct csim_out_set_entry *e)
{
	const int kind = kind_of(dirfd, e->final);

	if (kind < 0)
		return errno == ENOENT ? 0 : errno;
	if (kind == 1 && e->aside != NULL)
		return renameat(dirfd, e->final, dirfd, e->aside) == 0 ? 0 : errno;
	if (kind == 1)
		return EISDIR;
	return unlinkat(dirfd, e->final, 0) == 0 || errno == ENOENT ? 0 : errno;
}

int csim_out_mend_apply(int dirfd, const struct csim_out_set_entry *e)
{
	int kind, rc;

	if (e->tmp == NULL)
		return remove_final(dirfd, e);
	kind = kind_of(dirfd, e->tmp);
	if (kind < 0)
		return errno == ENOENT ? 0 : errno;   /* gone: renamed already */
	/* A file replaces its older self in one rename; a folder cannot. */
	if (kind == 1 && (rc = remove_final(dirfd, e)) != 0)
		return rc;
	return renameat(dirfd, e->tmp, dirfd, e->final) == 0 ? 0 : errno;
}

/* Does name lie in the folder and belong to final (".<final>.")? */
static int owned_name(const char *name, const char *final)
{
	const size_t n = strlen(final);

	return name[0] == '.' && strncmp(name + 1, final, n) == 0 && name[1 + n] == '.' &&
	       strchr(name, '/') == NULL;
}

/* "-" for none; else the field must be final's own. */
static int take_field(char *field, const char *final, char **out)
{
	if (strcmp(field, "-") == 0) {
		*out = NULL;
		return 1;
	}
	*out = field;
	return owned_name(field, final);
}

/* One record line, cut in place; 0 when it is not one. */
static int parse_line(char *line, struct csim_out_set_entry *e)
{
	char *tab1 = strchr(line, '\t');
	char *tab2 = tab1 != NULL ? strchr(tab1 + 1, '\t') : NULL;

	if (tab2 == NULL || strchr(tab2 + 1, '\t') != NULL)
		return 0;
	*tab1 = *tab2 = '\0';
	e->final = line;
	if (line[0] == '\0' || line[0] == '.' || strchr(line, '/') != NULL)
		return 0;
	return take_field(tab1 + 1, line, &e->tmp) && take_field(tab2 + 1, line, &e->aside);
}

/* Reads the record into buf (NUL-ended); 1 read, 0 none, -1 errno set. */
static int read_record(int dirfd, char *buf, size_t cap)
{
	int fd = openat(dirfd, CSIM_OUT_SET_RECORD, O_RDONLY | O_NOFOLLOW | O_CLOEXEC);
	size_t len = 0;
	int rc = 1;

	if (fd < 0)
		return errno == ENOENT ? 0 : -1;
	while (len < cap - 1) {
		ssize_t k = read(fd, buf + len, cap - 1 - len);

		if (k < 0 && errno == EINTR)
			continue;
		if (k < 0) {
			rc = -1;
			break;
		}
		if (k == 0)
			break;
		len += (size_t)k;
	}
	buf[len] = '\0';
	if (close(fd) != 0 && rc == 1)
		rc = -1;
	return rc;
}

/*
 * Applies every entry of a well-formed record; the entries applied and
 * the asides to remove are counted. Returns the line that is not a
 * record's (1-based), 0 when all were, or -1 when an entry cannot be
 * applied (errno set).
 */
static long roll_forward(int dirfd, char *text, size_t *applied)
{
	struct csim_out_set_entry e[16];
	size_t n = 0;
	long line_no = 1;
	char *line = text, *nl = strchr(text, '\n');

	if (nl == NULL)
		return 1;
	*nl = '\0';
	if (strcmp(line, CSIM_OUT_MEND_MAGIC) != 0)
		return 1;
	for (;;) {
		line = nl + 1;
		line_no++;
		nl = strchr(line, '\n');
		if (nl == NULL)
			return line_no;   /* no "end": cut short */
		*nl = '\0';
		if (strcmp(line, "end") == 0)
			break;
		if (n == sizeof(e) / sizeof(e[0]) || !parse_line(line, &e[n]))
			return line_no;
		n++;
	}
	for (size_t i = 0; i < n; i++) {
		const int was = e[i].tmp != NULL ? kind_of(dirfd, e[i].tmp) : kind_of(dirfd, e[i].final);
		const int rc = csim_out_mend_apply(dirfd, &e[i]);

		if (rc != 0) {
			errno = rc;
			return -1;
		}
		*applied += was >= 0;
	}
	for (size_t i = 0; i < n; i++)
		if (e[i].aside != NULL)
			csim_out_mend_remove_tree(dirfd, e[i].aside);
	return 0;
}

static int mend_record(int dirfd, const char *dir, struct csim_log *log, struct csim_error *err)
{
	char buf[CSIM_OUT_MEND_RECORD_MAX];
	const int got = read_record(dirfd, buf, sizeof(buf));
	size_t applied = 0;
	long bad;

	if (got == 0)
		return CSIM_OK;
	if (got < 0)
		return csim_error_set(err, CSIM_E_OUTPUT, CSIM_NO_OFFSET, "cannot read %s/%s: %s",
				      dir, CSIM_OUT_SET_RECORD, strerror(errno));
	bad = roll_forward(dirfd, buf, &applied);
	if (bad < 0)
		return csim_error_set(err, CSIM_E_OUTPUT, CSIM_NO_OFFSET,
				      "cannot complete the commit an interrupted run left in %s: %s",
				      dir, strerror(errno));
	if (bad > 0)
		csim_log_warn(log, "ignoring %s/%s: line %ld is not a commit record's", dir,
			      CSIM_OUT_SET_RECORD, bad);
	if (fsync(dirfd) != 0 && errno != EINVAL)
		return csim_error_set(err, CSIM_E_OUTPUT, CSIM_NO_OFFSET, "cannot write %s: %s",
				      dir, strerror(errno));
	if (unlinkat(dirfd, CSIM_OUT_SET_RECORD, 0) != 0 && errno != ENOENT)
		return csim_error_set(err, CSIM_E_OUTPUT, CSIM_NO_OFFSET, "cannot remove %s/%s: %s",
				      dir, CSIM_OUT_SET_RECORD, strerror(errno));
	if (applied > 0)
		csim_log_note(log, "completed the commit an interrupted run left in %s (%zu output(s))",
			      dir, applied);
	return CSIM_OK;
}

/* Removes the temporaries of dead runs; a folder that cannot be listed is an error. */
static int remove_leftovers(int dirfd, const char *dir, struct csim_log *log,
			    struct csim_error *err)
{
	const int fd = openat(dirfd, ".", O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	DIR *d = fd >= 0 ? fdopendir(fd) : NULL;
	size_t removed = 0;
	struct dirent *e;

	if (d == NULL) {
		const int saved = errno;

		if (fd >= 0)
			close(fd);
		if (saved == ENOMEM)
			return csim_error_nomem(err, CSIM_E_OUTPUT);
		return csim_error_set(err, CSIM_E_OUTPUT, CSIM_NO_OFFSET, "cannot list %s: %s",
				      dir, strerror(saved));
	}
	for (errno = 0; (e = readdir(d)) != NULL; errno = 0) {
		if (!is_temporary(e->d_name))
			continue;
		csim_out_mend_remove_tree(dirfd, e->d_name);
		removed++;
	}
	if (errno != 0) {
		const int saved = errno;

		closedir(d);
		return csim_error_set(err, CSIM_E_OUTPUT, CSIM_NO_OFFSET, "cannot list %s: %s",
				      dir, strerror(saved));
	}
	closedir(d);
	if (removed > 0)
		csim_log_note(log, "removed %zu temporary file(s) an interrupted run left in %s",
			      removed, dir);
	return CSIM_OK;
}

int csim_out_mend(int dirfd, const char *dir, struct csim_log *log, struct csim_error *err)
{
	int rc = mend_record(dirfd, dir, log, err);

	if (rc == CSIM_OK)
		rc = remove_leftovers(dirfd, dir, log, err);
	return rc;
}
