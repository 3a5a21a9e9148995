#define _GNU_SOURCE   /* mkostemp, mkdtemp, flock */
#include "write/out_set.h"
#include "write/out_mend.h"
#include "base/array_grow.h"
#include "base/interrupt.h"
#include "base/path.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <unistd.h>

void csim_out_set_init(struct csim_out_set *s)
{
	memset(s, 0, sizeof(*s));
	s->dirfd = -1;
}

int csim_out_set_begun(const struct csim_out_set *s)
{
	return s->dirfd >= 0;
}

static int set_error(const struct csim_out_set *s, const char *what, int e,
		     struct csim_error *err)
{
	if (e == EINTR && csim_interrupt_pending())
		return csim_interrupt_fail(err);
	return csim_error_set(err, CSIM_E_OUTPUT, CSIM_NO_OFFSET, "cannot %s %s: %s", what,
			      s->dir, strerror(e));
}

/*
 * The folder's lock. Another run holding it is waited for (its write is
 * short: the lock is taken once the input has been read); a signal ends
 * the wait. A folder that cannot be locked at all (a file system without
 * flock) is a warning: the run goes on uncoordinated.
 */
static int lock_folder(struct csim_out_set *s, struct csim_error *err)
{
	if (flock(s->dirfd, LOCK_EX | LOCK_NB) == 0)
		return CSIM_OK;
	if (errno != EWOULDBLOCK) {
		csim_log_warn(s->log, "cannot lock %s (%s): runs into it at once are not kept apart",
			      s->dir, strerror(errno));
		return CSIM_OK;
	}
	csim_log_note(s->log, "waiting for another run writing into %s", s->dir);
	while (flock(s->dirfd, LOCK_EX) != 0) {
		if (errno != EINTR || csim_interrupt_pending())
			return set_error(s, "lock", errno, err);
	}
	return CSIM_OK;
}

/*
 * Was the folder removed while this run waited for its lock? A failed run
 * removes the folder it made before it lets the lock go
 * (csim_out_set_release_made), so the waiter sees no link left to it.
 */
static int folder_removed(const struct csim_out_set *s)
{
	struct stat st;

	return fstat(s->dirfd, &st) == 0 && st.st_nlink == 0;
}

int csim_out_set_begin(struct csim_out_set *s, const char *dir, struct csim_log *log,
		       struct csim_error *err)
{
	int rc;

	if (s->dirfd >= 0)
		return CSIM_OK;
	s->log = log;
	s->dirfd = open(dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	if (s->dirfd < 0)
		return errno == ENOENT ? CSIM_OK
		       : csim_error_set(err, CSIM_E_OUTPUT, CSIM_NO_OFFSET, "cannot write %s: %s",
					dir, strerror(errno));
	s->dir = strdup(dir);
	if (s->dir == NULL) {
		/* not begun: the caller removes a folder it made itself */
		close(s->dirfd);
		csim_out_set_init(s);
		return csim_error_nomem(err, CSIM_E_OUTPUT);
	}
	rc = lock_folder(s, err);
	if (rc == CSIM_OK && folder_removed(s)) {
		/* The run that held it made it, failed and removed it. */
		free(s->dir);
		close(s->dirfd);
		csim_out_set_init(s);
		return CSIM_OK;
	}
	if (rc == CSIM_OK)
		rc = csim_out_mend(s->dirfd, s->dir, s->log, err);
	return rc;
}

static const char *base_name(const char *path)
{
	const char *slash = strrchr(path, '/');

	return slash != NULL ? slash + 1 : path;
}

/* A new entry, its names copied; the set owns them from here. */
static int add_entry(struct csim_out_set *s, const char *final, const char *tmp,
		     const char *aside, struct csim_error *err)
{
	struct csim_out_set_entry *e;

	if (csim_array_grow((void **)&s->e, &s->cap, s->n + 1, sizeof(*s->e)) != 0)
		return csim_error_nomem(err, CSIM_E_OUTPUT);
	e = &s->e[s->n];
	memset(e, 0, sizeof(*e));
	e->final = strdup(final);
	e->tmp = tmp != NULL ? strdup(tmp) : NULL;
	e->aside = aside != NULL ? strdup(aside) : NULL;
	s->n++;   /* counted first: release() frees what was copied */
	if (e->final == NULL || (tmp != NULL && e->tmp == NULL) ||
	    (aside != NULL && e->aside == NULL))
		return csim_error_nomem(err, CSIM_E_OUTPUT);
	return CSIM_OK;
}

int csim_out_set_add(struct csim_out_set *s, struct csim_out *o, struct csim_error *err)
{
	int rc = csim_out_finish(o, err);

	if (rc == CSIM_OK)
		rc = add_entry(s, base_name(o->final_path), base_name(o->tmp_path), NULL, err);
	if (rc == CSIM_OK) {
		free(o->tmp_path);   /* the set's now */
		o->tmp_path = NULL;
	}
	csim_out_abort(o);
	return rc;
}

/* ".<final>.<tag>.XXXXXX" made by mkdtemp in the folder; NULL with errno. */
static char *make_temp_dir(const struct csim_out_set *s, const char *final, const char *tag)
{
	char name[96];
	char *path;

	if ((size_t)snprintf(name, sizeof(name), ".%s.%s.XXXXXX", final, tag) >= sizeof(name)) {
		errno = ENAMETOOLONG;
		return NULL;
	}
	path = csim_path_join(s->dir, name);
	if (path != NULL && mkdtemp(path) == NULL) {
		const int e = errno;

		free(path);
		errno = e;
		return NULL;
	}
	return path;
}

int csim_out_set_add_dir(struct csim_out_set *s, const char *final, int *fd,
			 struct csim_error *err)
{
	char *tmp = make_temp_dir(s, final, "tmp");
	int rc;

	*fd = -1;
	if (tmp == NULL)
		return errno == ENOMEM ? csim_error_nomem(err, CSIM_E_OUTPUT)
		       : set_error(s, "write", errno, err);
	rc = add_entry(s, final, base_name(tmp), NULL, err);
	if (rc != CSIM_OK)
		(void)rmdir(tmp);   /* the entry may hold its name: removal is idempotent */
	if (rc == CSIM_OK) {
		*fd = openat(s->dirfd, base_name(tmp), O_RDONLY | O_DIRECTORY | O_CLOEXEC);
		if (*fd < 0)
			rc = set_error(s, "write", errno, err);
	}
	free(tmp);
	return rc;
}

int csim_out_set_drop(struct csim_out_set *s, const char *final, int folder,
		      struct csim_error *err)
{
	int rc = add_entry(s, final, NULL, NULL, err);

	if (rc == CSIM_OK)
		s->e[s->n - 1].folder = folder;
	return rc;
}

static void entry_free(struct csim_out_set_entry *e)
{
	free(e->final);
	free(e->tmp);
	free(e->aside);
}

/*
 * What the folder holds where an output goes, checked before the commit
 * point so that no rename after it can fail on it: a file output cannot
 * replace a folder of that name (an error), a file's removal leaves a
 * folder of its name alone (a warning), a folder moved aside gets a fresh
 * empty folder to be renamed onto.
 */
static int check_entry(struct csim_out_set *s, size_t i, int *keep, struct csim_error *err)
{
	struct csim_out_set_entry *e = &s->e[i];
	struct stat st;
	int tmp_dir = 0;
	char *aside;

	*keep = 1;
	if (e->tmp != NULL) {
		if (fstatat(s->dirfd, e->tmp, &st, AT_SYMLINK_NOFOLLOW) != 0)
			return set_error(s, "write", errno, err);
		tmp_dir = S_ISDIR(st.st_mode);
	}
	if (fstatat(s->dirfd, e->final, &st, AT_SYMLINK_NOFOLLOW) != 0 || !S_ISDIR(st.st_mode))
		return CSIM_OK;
	if (e->tmp != NULL && !tmp_dir)
		return csim_error_set(err, CSIM_E_OUTPUT, CSIM_NO_OFFSET, "cannot write %s/%s: %s",
				      s->dir, e->final, strerror(EISDIR));
	if (e->tmp == NULL && !e->folder) {
		csim_log_warn(s->log, "cannot remove the older %s/%s: %s", s->dir, e->final,
			      strerror(EISDIR));
		*keep = 0;
		return CSIM_OK;
	}
	aside = make_temp_dir(s, e->final, "old");
	if (aside == NULL)
		return errno == ENOMEM ? csim_error_nomem(err, CSIM_E_OUTPUT)
		       : set_error(s, "write", errno, err);
	e->aside = strdup(base_name(aside));
	if (e->aside == NULL)
		(void)rmdir(aside);
	free(aside);
	return e->aside == NULL ? csim_error_nomem(err, CSIM_E_OUTPUT) : CSIM_OK;
}

static int prepare_entries(struct csim_out_set *s, struct csim_error *err)
{
	size_t kept = 0;
	int rc = CSIM_OK;

	for (size_t i = 0; i < s->n; i++) {
		int keep = 1;

		if (rc == CSIM_OK)
			rc = check_entry(s, i, &keep, err);
		if (keep)
			s->e[kept++] = s->e[i];
		else
			entry_free(&s->e[i]);
	}
	s->n = kept;
	return rc;
}

static void record_line(char *buf, size_t cap, size_t *len, const char *a, const char *b,
			const char *c)
{
	const int k = snprintf(buf + *len, cap - *len, "%s\t%s\t%s\n", a, b != NULL ? b : "-",
			       c != NULL ? c : "-");

	*len += k > 0 ? (size_t)k : 0;
}

/*
 * The record, written, fsynced and closed under a temporary name; *tmp is
 * its malloc'd path.
 */
static int write_record(struct csim_out_set *s, char **tmp, struct csim_error *err)
{
	char buf[CSIM_OUT_MEND_RECORD_MAX];
	size_t len, done = 0;
	int fd, e = 0;

	len = (size_t)snprintf(buf, sizeof(buf), "%s\n", CSIM_OUT_MEND_MAGIC);
	for (size_t i = 0; i < s->n && len < sizeof(buf); i++)
		record_line(buf, sizeof(buf), &len, s->e[i].final, s->e[i].tmp, s->e[i].aside);
	if (len + 4 >= sizeof(buf))
		return csim_error_set(err, CSIM_E_OUTPUT, CSIM_NO_OFFSET,
				      "too many outputs to commit into %s", s->dir);
	memcpy(buf + len, "end\n", 4);
	len += 4;
	*tmp = csim_path_join(s->dir, CSIM_OUT_SET_RECORD ".XXXXXX");
	if (*tmp == NULL)
		return csim_error_nomem(err, CSIM_E_OUTPUT);
	fd = mkostemp(*tmp, O_CLOEXEC);
	if (fd < 0) {
		e = errno;
		free(*tmp);
		*tmp = NULL;
		return set_error(s, "write", e, err);
	}
	while (done < len && e == 0) {
		const ssize_t k = write(fd, buf + done, len - done);

		if (k > 0)
			done += (size_t)k;
		else if (k == 0 || errno != EINTR)
			e = k == 0 ? EIO : errno;
	}
	if (e == 0 && fsync(fd) != 0)
		e = errno;
	if (close(fd) != 0 && e == 0)
		e = errno;
	if (e != 0) {
		(void)unlink(*tmp);
		free(*tmp);
		*tmp = NULL;
		return set_error(s, "write", e, err);
	}
	return CSIM_OK;
}

/* fsync of the folder: EINVAL is a file system that has none to do. */
static int sync_folder(const struct csim_out_set *s)
{
	return fsync(s->dirfd) == 0 || errno == EINVAL ? 0 : errno;
}

/*
 * From the commit point on, with the signals that end a run held off:
 * a signal arriving now is taken when they are let through again, and the
 * run then ends by it with the new set in place.
 */
static int apply_all(struct csim_out_set *s, const char *record_tmp, struct csim_error *err)
{
	struct csim_interrupt_held held;
	int e = 0, placed = 0;

	if (csim_interrupt_hold(&held) != 0)
		return set_error(s, "commit into", errno, err);
	/* The last moment a signal still means the older set. */
	if (csim_interrupt_pending()) {
		csim_interrupt_let_through(&held);
		(void)unlink(record_tmp);
		return csim_interrupt_fail(err);
	}
	if (renameat(AT_FDCWD, record_tmp, s->dirfd, CSIM_OUT_SET_RECORD) != 0)
		e = errno;
	else
		placed = 1;
	if (e == 0)
		e = sync_folder(s);
	for (size_t i = 0; i < s->n && e == 0; i++)
		e = csim_out_mend_apply(s->dirfd, &s->e[i]);
	if (e == 0)
		e = sync_folder(s);
	if (e == 0 && unlinkat(s->dirfd, CSIM_OUT_SET_RECORD, 0) != 0)
		e = errno;
	if (e == 0)
		e = sync_folder(s);
	if (placed)
		s->committed = 1;   /* the record's now, or the next run's */
	csim_interrupt_let_through(&held);
	if (!placed) {
		(void)unlink(record_tmp);
		return set_error(s, "commit into", e, err);
	}
	if (e != 0)
		return csim_error_set(err, CSIM_E_OUTPUT, CSIM_NO_OFFSET,
				      "cannot finish the commit into %s: %s (the next run into it "
				      "completes it)", s->dir, strerror(e));
	return CSIM_OK;
}

int csim_out_set_commit(struct csim_out_set *s, struct csim_error *err)
{
	char *record_tmp = NULL;
	int rc;

	/* A signal that came while the outputs were written ends the run here. */
	if (csim_interrupt_pending())
		return csim_interrupt_fail(err);
	rc = prepare_entries(s, err);

	if (rc == CSIM_OK)
		rc = write_record(s, &record_tmp, err);
	if (rc == CSIM_OK)
		rc = apply_all(s, record_tmp, err);
	for (size_t i = 0; i < s->n && rc == CSIM_OK; i++)
		if (s->e[i].aside != NULL)
			csim_out_mend_remove_tree(s->dirfd, s->e[i].aside);
	free(record_tmp);
	return rc;
}

int csim_out_set_committed(const struct csim_out_set *s)
{
	return s->committed;
}

static int release(struct csim_out_set *s, int remove_dir)
{
	int removed = 0;

	for (size_t i = 0; i < s->n; i++) {
		struct csim_out_set_entry *e = &s->e[i];

		/* Uncommitted: the temporary goes; an aside made for it too. */
		if (!s->committed && e->tmp != NULL && s->dirfd >= 0)
			csim_out_mend_remove_tree(s->dirfd, e->tmp);
		if (!s->committed && e->aside != NULL && s->dirfd >= 0)
			(void)unlinkat(s->dirfd, e->aside, AT_REMOVEDIR);
		entry_free(e);
	}
	free(s->e);
	/* Empty by now unless another writer put something in it. */
	if (remove_dir && !s->committed && s->dirfd >= 0 && s->dir != NULL)
		removed = rmdir(s->dir) == 0;
	free(s->dir);
	if (s->dirfd >= 0)
		close(s->dirfd);   /* the lock goes with it */
	csim_out_set_init(s);
	return removed;
}

void csim_out_set_release(struct csim_out_set *s)
{
	(void)release(s, 0);
}

int csim_out_set_release_made(struct csim_out_set *s)
{
	return release(s, 1);
}
