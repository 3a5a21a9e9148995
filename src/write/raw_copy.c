#define _DEFAULT_SOURCE   /* mkdtemp, fdopendir and friends */
#include "write/raw_copy.h"
#include "base/interrupt.h"
#include "base/path.h"
#include "write/out_set.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <linux/fs.h>   /* FICLONE */

#define RAW_NAME "raw_simulator"

struct copier {
	struct csim_log *log;
	size_t src_len;        /* strlen of the source root, to name destinations */
	const char *dst_root;  /* <out>/raw_simulator, for messages */
	struct csim_raw_copy_stats *stats;
	struct csim_error *err;
	dev_t skip_dev;        /* the output folder, never copied into itself */
	ino_t skip_ino;
	int own_outputs;       /* the source folder holds this tool's outputs */
	int no_reflink;        /* the destination refused a reflink: not asked again */
	char buf[1 << 16];
};

/* Names the destination that failed: <out>/raw_simulator/<relative path>. */
static int copy_write_error(struct copier *c, const char *where, const char *name)
{
	if (errno == EINTR && csim_interrupt_pending())
		return csim_interrupt_fail(c->err);
	return csim_error_set(c->err, CSIM_E_OUTPUT, CSIM_NO_OFFSET,
			      "cannot write %s%s/%s: %s", c->dst_root,
			      where + c->src_len, name, strerror(errno));
}

static int copy_dir(struct copier *c, int src, int dst, const char *where);

/* The bytes of in into out, by read and write. */
static int copy_bytes(struct copier *c, int in, int out, const char *name, const char *where)
{
	for (;;) {
		ssize_t n, done = 0;

		if (csim_interrupt_pending())
			return csim_interrupt_fail(c->err);
		n = read(in, c->buf, sizeof(c->buf));
		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0) {
			csim_log_warn(c->log, "cannot copy %s/%s: %s", where, name,
				      strerror(errno));
			c->stats->skipped++;
			return CSIM_OK;
		}
		if (n == 0) {
			c->stats->files++;
			return CSIM_OK;
		}
		while (done < n) {
			ssize_t w = write(out, c->buf + done, (size_t)(n - done));

			if (w < 0 && errno == EINTR && !csim_interrupt_pending())
				continue;   /* with a signal pending: reported below */
			if (w <= 0) {
				if (w == 0)
					errno = EIO;
				return copy_write_error(c, where, name);
			}
			done += w;
		}
		c->stats->bytes += (unsigned long long)n;
	}
}

/*
 * A reflink of in into the new empty file out (a copy that shares its
 * blocks until either is written): 1 when made. A file system that
 * refuses one is not asked again; the file stays, for the bytes.
 */
static int share_by_reflink(struct copier *c, int in, int out, const struct stat *st)
{
	if (c->no_reflink)
		return 0;
	if (ioctl(out, FICLONE, in) != 0) {
		c->no_reflink = 1;
		return 0;
	}
	c->stats->files++;
	c->stats->reflinked++;
	c->stats->shared_bytes += (unsigned long long)st->st_size;
	return 1;
}

/*
 * A regular file: a reflink where the file system makes one, else a copy
 * of its bytes; never a hard link, which the simulator's next run into the
 * folder would change (docs/decisions.md, "Output folder and raw copy").
 */
static int copy_file(struct copier *c, int src_dir, int dst_dir,
		     const char *name, const struct stat *st, const char *where)
{
	int in, out = -1;
	int rc = CSIM_OK;

	/* A signal stops the copy at the next file, as it stops a long one
	   between its reads (copy_bytes). */
	if (csim_interrupt_pending())
		return csim_interrupt_fail(c->err);
	in = openat(src_dir, name, O_RDONLY | O_NOFOLLOW | O_CLOEXEC);
	if (in < 0) {
		csim_log_warn(c->log, "cannot copy %s/%s: %s", where, name, strerror(errno));
		c->stats->skipped++;
		return CSIM_OK;
	}
	out = openat(dst_dir, name, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC,
		     st->st_mode & 07777);
	if (out < 0) {
		rc = copy_write_error(c, where, name);
		goto out;
	}
	if (!share_by_reflink(c, in, out, st))
		rc = copy_bytes(c, in, out, name, where);
out:
	close(in);
	/* Durable before the commit renames it into place (write/out_set.h). */
	if (out >= 0 && rc == CSIM_OK && fsync(out) != 0 && errno != EINVAL)
		rc = copy_write_error(c, where, name);
	if (out >= 0 && close(out) != 0 && rc == CSIM_OK)
		rc = copy_write_error(c, where, name);
	return rc;
}

static int copy_link(struct copier *c, int src_dir, int dst_dir,
		     const char *name, const char *where)
{
	char target[PATH_MAX];
	ssize_t n = readlinkat(src_dir, name, target, sizeof(target) - 1);

	if (n < 0) {
		csim_log_warn(c->log, "cannot copy link %s/%s: %s", where, name,
			      strerror(errno));
		c->stats->skipped++;
		return CSIM_OK;
	}
	target[n] = '\0';
	if (symlinkat(target, dst_dir, name) != 0)
		return copy_write_error(c, where, name);
	c->stats->links++;
	return CSIM_OK;
}

static int copy_subdir(struct copier *c, int src_dir, int dst_dir,
		       const char *name, const struct stat *st, const char *where)
{
	char sub[PATH_MAX];
	int in, out;
	int rc;

	if (st->st_dev == c->skip_dev && st->st_ino == c->skip_ino)
		return CSIM_OK;   /* the output folder itself */
	snprintf(sub, sizeof(sub), "%s/%s", where, name);
	/* Another -o of this tool made in the simulator folder: copying it
	   would nest every earlier copy in the next (SPEC §8). */
	if (csim_path_is_output_dir(src_dir, name)) {
		c->stats->outputs++;
		return CSIM_OK;
	}
	in = openat(src_dir, name, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
	if (in < 0) {
		csim_log_warn(c->log, "cannot copy %s: %s", sub, strerror(errno));
		c->stats->skipped++;
		return CSIM_OK;
	}
	if (mkdirat(dst_dir, name, 0777) != 0) {
		close(in);
		return copy_write_error(c, where, name);
	}
	out = openat(dst_dir, name, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
	if (out < 0) {
		close(in);
		return copy_write_error(c, where, name);
	}
	c->stats->dirs++;
	rc = copy_dir(c, in, out, sub);   /* closes both */
	if (rc == CSIM_OK && fchmodat(dst_dir, name, st->st_mode & 07777, 0) != 0) {
		/* the copy is complete; only the folder's mode is the umask's */
		csim_log_warn(c->log, "copied %s but not its mode %04o: %s", sub,
			      (unsigned)(st->st_mode & 07777), strerror(errno));
	}
	return rc;
}

/*
 * Is name, at the top of a simulator folder that holds this tool's
 * outputs (converted there without -o), one of them? They describe a run
 * of the converter, not the simulator's dump.
 */
static int own_output(const struct copier *c, const char *name, const char *where)
{
	static const char *const outputs[] = {
		"trace.clean.json", "trace.clean.json.gz", "trace.pftrace", "trace.pftrace.gz",
		"instr_metrics.json", "summary.json", "summary.html"
	};

	if (!c->own_outputs || strlen(where) != c->src_len)
		return 0;
	for (size_t i = 0; i < sizeof(outputs) / sizeof(outputs[0]); i++)
		if (strcmp(name, outputs[i]) == 0)
			return 1;
	return 0;
}

static int copy_entry(struct copier *c, int src, int dst, const char *name,
		      const char *where)
{
	struct stat st;

	if (own_output(c, name, where)) {
		c->stats->outputs++;
		return CSIM_OK;
	}
	if (fstatat(src, name, &st, AT_SYMLINK_NOFOLLOW) != 0) {
		csim_log_warn(c->log, "cannot copy %s/%s: %s", where, name, strerror(errno));
		c->stats->skipped++;
		return CSIM_OK;
	}
	if (S_ISLNK(st.st_mode))
		return copy_link(c, src, dst, name, where);
	if (S_ISDIR(st.st_mode))
		return copy_subdir(c, src, dst, name, &st, where);
	if (S_ISREG(st.st_mode))
		return copy_file(c, src, dst, name, &st, where);
	csim_log_warn(c->log, "not copying %s/%s: not a regular file, folder or link",
		      where, name);
	c->stats->skipped++;
	return CSIM_OK;
}

/*
 * Copies the entries of src into dst, then fsyncs dst; takes ownership of
 * both descriptors. Failing to list a folder that opened is this run's
 * failure (out of memory, an I/O error), not the source's: an error.
 */
static int copy_dir(struct copier *c, int src, int dst, const char *where)
{
	DIR *d = fdopendir(src);
	struct dirent *e;
	int rc = CSIM_OK;

	if (d == NULL) {
		rc = errno == ENOMEM ? csim_error_nomem(c->err, CSIM_E_OUTPUT)
		     : csim_error_set(c->err, CSIM_E_OUTPUT, CSIM_NO_OFFSET, "cannot copy %s: %s",
				      where, strerror(errno));
		close(src);
		close(dst);
		return rc;
	}
	for (errno = 0; rc == CSIM_OK && (e = readdir(d)) != NULL; errno = 0) {
		if (strcmp(e->d_name, ".") == 0 || strcmp(e->d_name, "..") == 0)
			continue;
		rc = copy_entry(c, dirfd(d), dst, e->d_name, where);
	}
	if (rc == CSIM_OK && errno != 0)
		rc = csim_error_set(c->err, CSIM_E_OUTPUT, CSIM_NO_OFFSET, "cannot copy %s: %s",
				    where, strerror(errno));
	closedir(d);
	if (rc == CSIM_OK && fsync(dst) != 0 && errno != EINVAL)
		rc = copy_write_error(c, where, ".");
	close(dst);
	return rc;
}

/* Is the folder dir's last name `name`, as written or once resolved ("." of a
   simulator folder)? No allocation: realpath into a buffer. */
static int folder_named(const char *dir, const char *name)
{
	char real[PATH_MAX];
	size_t n = strlen(dir), k = strlen(name);
	const char *leaf;

	while (n > 1 && dir[n - 1] == '/')
		n--;
	if (n >= k && memcmp(dir + n - k, name, k) == 0 && (n == k || dir[n - k - 1] == '/'))
		return 1;
	if (realpath(dir, real) == NULL)
		return 0;
	leaf = strrchr(real, '/');
	return strcmp(leaf != NULL ? leaf + 1 : real, name) == 0;
}

int csim_raw_copy_is_simulator_dir(const char *src_dir)
{
	DIR *d;
	struct dirent *e;
	int is = 0;

	if (folder_named(src_dir, "simulator"))
		return 1;
	d = opendir(src_dir);
	if (d == NULL)
		return errno == ENOMEM ? -1 : 0;   /* unreadable: the .bin alone */
	while (!is && (e = readdir(d)) != NULL) {
		struct stat st;

		if (strcmp(e->d_name, "trace.json") == 0)
			is = 1;
		else if (strncmp(e->d_name, "core", 4) == 0 && e->d_name[4] >= '0' &&
			 e->d_name[4] <= '9')   /* core0, core3.veccore1: not coreutils-9.4 */
			is = fstatat(dirfd(d), e->d_name, &st, AT_SYMLINK_NOFOLLOW) == 0 &&
			     S_ISDIR(st.st_mode);
	}
	closedir(d);
	return is;
}

int csim_raw_copy(const char *src_dir, const char *bin_name, struct csim_out_set *set,
		  struct csim_log *log, struct csim_raw_copy_stats *stats, struct csim_error *err)
{
	struct copier *c = calloc(1, sizeof(*c));
	char *raw_path = NULL;
	int src = -1, dst = -1;
	struct stat st, src_st;
	int rc = CSIM_OK, whole;

	memset(stats, 0, sizeof(*stats));
	raw_path = csim_path_join(set->dir, RAW_NAME);
	if (c == NULL || raw_path == NULL) {
		rc = csim_error_nomem(err, CSIM_E_OUTPUT);
		goto out;
	}
	if (csim_path_within(src_dir, raw_path)) {
		csim_log_warn(log, "not copying %s into %s: it already is that copy",
			      src_dir, raw_path);
		goto out;
	}
	c->log = log;
	c->stats = stats;
	c->err = err;
	c->src_len = strlen(src_dir);
	c->dst_root = raw_path;
	if (fstat(set->dirfd, &st) != 0) {
		rc = csim_error_set(err, CSIM_E_OUTPUT, CSIM_NO_OFFSET,
				    "cannot write %s: %s", set->dir, strerror(errno));
		goto out;
	}
	c->skip_dev = st.st_dev;
	c->skip_ino = st.st_ino;
	src = open(src_dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	if (src < 0 || fstat(src, &src_st) != 0) {
		csim_log_warn(log, "cannot copy %s: %s", src_dir, strerror(errno));
		goto out;
	}
	whole = csim_raw_copy_is_simulator_dir(src_dir);
	if (whole < 0) {
		rc = csim_error_nomem(err, CSIM_E_OUTPUT);
		goto out;
	}
	rc = csim_out_set_add_dir(set, RAW_NAME, &dst, err);
	if (rc != CSIM_OK)
		goto out;
	/* mkdtemp made it private; give it the source folder's mode. */
	if (fchmod(dst, src_st.st_mode & 07777) != 0) {
		rc = copy_write_error(c, src_dir, ".");
		goto out;
	}
	stats->alone = !whole;
	stats->made = 1;
	if (stats->alone) {
		rc = copy_entry(c, src, dst, bin_name, src_dir);
		if (rc == CSIM_OK && fsync(dst) != 0 && errno != EINVAL)
			rc = copy_write_error(c, src_dir, ".");
	} else {
		c->own_outputs = csim_path_is_output_dir(AT_FDCWD, src_dir);
		rc = copy_dir(c, src, dst, src_dir);   /* closes both */
		src = dst = -1;
	}
out:
	if (src >= 0)
		close(src);
	if (dst >= 0)
		close(dst);
	free(raw_path);
	free(c);
	return rc;
}

/* ", 4 file(s) reflinked: 28047 bytes not copied": what sharing saved. */
static void shared_text(char *dst, size_t cap, const struct csim_raw_copy_stats *st)
{
	dst[0] = '\0';
	if (st->reflinked > 0)
		snprintf(dst, cap, ", %lu file(s) reflinked: %llu bytes not copied",
			 st->reflinked, st->shared_bytes);
}

void csim_raw_copy_report(struct csim_log *log, const char *out_dir,
			  const struct csim_raw_copy_stats *st, const char *bin_name,
			  const char *src_dir)
{
	const unsigned long long total = st->bytes + st->shared_bytes;
	char shared[96], outputs[96];

	if (!st->made)
		return;
	csim_log_wrote(log, out_dir, RAW_NAME "/");
	shared_text(shared, sizeof(shared), st);
	if (st->alone) {
		csim_log_note(log, "copied %s alone into %s/%s (%llu bytes%s%s): %s is no simulator folder",
			      bin_name, out_dir, RAW_NAME, total,
			      st->reflinked ? ", reflinked" : "",
			      st->skipped ? ", skipped: see warnings" : "", src_dir);
		return;
	}
	outputs[0] = '\0';
	if (st->outputs > 0)
		snprintf(outputs, sizeof(outputs), ", %lu output(s) of clean_sim_trace left out",
			 st->outputs);
	csim_log_note(log, "copied %lu file(s), %lu link(s), %lu folder(s), %llu bytes into %s/%s%s%s%s",
		      st->files, st->links, st->dirs, total, out_dir, RAW_NAME, shared, outputs,
		      st->skipped ? " (some entries skipped, see warnings)" : "");
}
