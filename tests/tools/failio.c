/*
 * failio: I/O-fault injection for clean_sim_trace_failio
 * (tests/cli/t_commit.sh).
 *
 * The test executable is linked from the same csim_core objects as the
 * product with -Wl,--wrap for write, fsync, rename, renameat, unlinkat,
 * ioctl, pread and pwrite (on a file with no name, O_TMPFILE, they count as the
 * ops pread-unlinked and pwrite-unlinked: the reading's temporary files),
 * so each call the project's code makes comes here first (libc's own calls,
 * as printf's, do not); pthread_create too, for the helper threads'
 * fallbacks, and sync_file_range, the write-out hint. Each operation's
 * calls are counted from 1:
 *
 *   CSIM_FAIL_IO=op:k        the k-th call of op fails: -1 with errno ENOSPC
 *                            (write, fsync, pwrite), EOPNOTSUPP (ioctl: the
 *                            raw copy's reflink, as ext4 refuses it) or EIO
 *                            (the others); for pthread_create EAGAIN;
 *                            k "*": every call
 *   CSIM_KILL_AT=op:k        SIGKILL just before the k-th call of op (power
 *                            loss as the folder sees it: what was done stays)
 *   CSIM_SIGNAL_AT=op:k      SIGTERM just before the k-th call of op, which
 *                            then goes ahead (a CI timeout at that moment)
 *   CSIM_PAUSE_AT=op:k       a pause of CSIM_PAUSE_MS (default 1000) ms just
 *                            before the k-th call of op (a slow disk: another
 *                            run meets this one holding its folder's lock)
 *   CSIM_FAIL_IO_REPORT=1    "failio: write N fsync N rename N renameat N
 *                            unlinkat N rmdir N pthread_create N
 *                            sync_file_range N pread N pwrite N
 *                            pread-unlinked N pwrite-unlinked N ioctl N"
 *                            on stderr at exit
 *
 * The counters are this tool's only state: mutable globals, the documented
 * exception for a test-only build helper (the product has none). They are
 * counted atomically and the triggers read once (pthread_once): the
 * trace's two threads make their calls at the same time.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <pthread.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <sys/stat.h>
#include <unistd.h>

enum op { OP_WRITE, OP_FSYNC, OP_RENAME, OP_RENAMEAT, OP_UNLINKAT, OP_RMDIR, OP_THREAD,
	  OP_SYNC_RANGE, OP_PREAD, OP_PWRITE, OP_PREAD_TMP, OP_PWRITE_TMP, OP_IOCTL, OP_COUNT };

static const char *const op_names[OP_COUNT] = {
	"write", "fsync", "rename", "renameat", "unlinkat", "rmdir", "pthread_create",
	"sync_file_range", "pread", "pwrite", "pread-unlinked", "pwrite-unlinked", "ioctl",
};

struct trigger {
	int op;                    /* -1: none */
	unsigned long k;           /* 0: every call */
};

static unsigned long counts[OP_COUNT];
static struct trigger fail_at = { -1, 0 }, kill_at = { -1, 0 }, signal_at = { -1, 0 },
		      pause_at = { -1, 0 };
static unsigned long pause_ms = 1000;
static pthread_once_t configured = PTHREAD_ONCE_INIT;

ssize_t __real_write(int fd, const void *p, size_t n);
int __real_fsync(int fd);
int __real_rename(const char *a, const char *b);
int __real_renameat(int da, const char *a, int db, const char *b);
int __real_unlinkat(int d, const char *name, int flags);
int __real_ioctl(int fd, unsigned long request, ...);
int __real_rmdir(const char *path);
int __real_pthread_create(pthread_t *t, const pthread_attr_t *a, void *(*run)(void *), void *arg);
int __real_sync_file_range(int fd, off_t at, off_t n, unsigned int flags);
ssize_t __real_pread(int fd, void *p, size_t n, off_t at);
ssize_t __real_pwrite(int fd, const void *p, size_t n, off_t at);

ssize_t __wrap_write(int fd, const void *p, size_t n);
int __wrap_fsync(int fd);
int __wrap_rename(const char *a, const char *b);
int __wrap_renameat(int da, const char *a, int db, const char *b);
int __wrap_unlinkat(int d, const char *name, int flags);
int __wrap_ioctl(int fd, unsigned long request, ...);
int __wrap_rmdir(const char *path);
int __wrap_pthread_create(pthread_t *t, const pthread_attr_t *a, void *(*run)(void *), void *arg);
int __wrap_sync_file_range(int fd, off_t at, off_t n, unsigned int flags);
ssize_t __wrap_pread(int fd, void *p, size_t n, off_t at);
ssize_t __wrap_pwrite(int fd, const void *p, size_t n, off_t at);

static struct trigger parse(const char *var)
{
	struct trigger t = { -1, 0 };
	const char *v = getenv(var);
	const char *colon = v != NULL ? strchr(v, ':') : NULL;

	if (colon == NULL)
		return t;
	for (int i = 0; i < OP_COUNT; i++)
		if (strlen(op_names[i]) == (size_t)(colon - v) &&
		    strncmp(v, op_names[i], (size_t)(colon - v)) == 0)
			t.op = i;
	t.k = strcmp(colon + 1, "*") == 0 ? 0 : strtoul(colon + 1, NULL, 10);
	return t;
}

static unsigned long count(int op)
{
	return __atomic_load_n(&counts[op], __ATOMIC_RELAXED);
}

static void report(void)
{
	fprintf(stderr, "failio: write %lu fsync %lu rename %lu renameat %lu unlinkat %lu "
		"rmdir %lu pthread_create %lu sync_file_range %lu pread %lu pwrite %lu "
		"pread-unlinked %lu pwrite-unlinked %lu ioctl %lu\n",
		count(OP_WRITE), count(OP_FSYNC), count(OP_RENAME), count(OP_RENAMEAT),
		count(OP_UNLINKAT), count(OP_RMDIR), count(OP_THREAD), count(OP_SYNC_RANGE),
		count(OP_PREAD), count(OP_PWRITE), count(OP_PREAD_TMP), count(OP_PWRITE_TMP),
		count(OP_IOCTL));
}

static void configure(void)
{
	const char *r = getenv("CSIM_FAIL_IO_REPORT");

	fail_at = parse("CSIM_FAIL_IO");
	kill_at = parse("CSIM_KILL_AT");
	signal_at = parse("CSIM_SIGNAL_AT");
	pause_at = parse("CSIM_PAUSE_AT");
	if (getenv("CSIM_PAUSE_MS") != NULL)
		pause_ms = strtoul(getenv("CSIM_PAUSE_MS"), NULL, 10);
	if (r != NULL && strcmp(r, "1") == 0)
		atexit(report);
}

/* Whether the trigger is for this call, the n-th of its op. */
static int hit(const struct trigger *t, int op, unsigned long n)
{
	return t->op == op && (t->k == 0 || t->k == n);
}

/* Counts the call; 1 when it is to fail (errno set). */
static int step(int op)
{
	unsigned long n;

	pthread_once(&configured, configure);
	n = __atomic_add_fetch(&counts[op], 1, __ATOMIC_RELAXED);
	if (hit(&kill_at, op, n))
		raise(SIGKILL);
	if (hit(&signal_at, op, n))
		raise(SIGTERM);
	if (hit(&pause_at, op, n)) {
		struct timespec t = { (time_t)(pause_ms / 1000), (long)(pause_ms % 1000) * 1000000 };

		while (nanosleep(&t, &t) != 0 && errno == EINTR)
			;
	}
	if (hit(&fail_at, op, n)) {
		errno = op == OP_WRITE || op == OP_FSYNC || op == OP_PWRITE ||
			 op == OP_PWRITE_TMP ? ENOSPC : op == OP_THREAD ? EAGAIN
			 : op == OP_IOCTL ? EOPNOTSUPP : EIO;
		return 1;
	}
	return 0;
}

ssize_t __wrap_write(int fd, const void *p, size_t n)
{
	return step(OP_WRITE) ? -1 : __real_write(fd, p, n);
}

int __wrap_fsync(int fd)
{
	return step(OP_FSYNC) ? -1 : __real_fsync(fd);
}

int __wrap_rename(const char *a, const char *b)
{
	return step(OP_RENAME) ? -1 : __real_rename(a, b);
}

int __wrap_renameat(int da, const char *a, int db, const char *b)
{
	return step(OP_RENAMEAT) ? -1 : __real_renameat(da, a, db, b);
}

int __wrap_unlinkat(int d, const char *name, int flags)
{
	return step(OP_UNLINKAT) ? -1 : __real_unlinkat(d, name, flags);
}

/* The project's one ioctl takes one argument (FICLONE's source fd), passed
   on as glibc's own wrapper reads it. */
int __wrap_ioctl(int fd, unsigned long request, ...)
{
	unsigned long arg;
	va_list ap;

	va_start(ap, request);
	arg = va_arg(ap, unsigned long);
	va_end(ap);
	return step(OP_IOCTL) ? -1 : __real_ioctl(fd, request, arg);
}

int __wrap_rmdir(const char *path)
{
	return step(OP_RMDIR) ? -1 : __real_rmdir(path);
}

int __wrap_pthread_create(pthread_t *t, const pthread_attr_t *a, void *(*run)(void *), void *arg)
{
	return step(OP_THREAD) ? EAGAIN : __real_pthread_create(t, a, run, arg);
}

int __wrap_sync_file_range(int fd, off_t at, off_t n, unsigned int flags)
{
	return step(OP_SYNC_RANGE) ? -1 : __real_sync_file_range(fd, at, n, flags);
}

/* A regular file with no name: what O_TMPFILE makes (outputs have theirs). */
static int unlinked(int fd)
{
	struct stat st;

	return fstat(fd, &st) == 0 && S_ISREG(st.st_mode) && st.st_nlink == 0;
}

ssize_t __wrap_pread(int fd, void *p, size_t n, off_t at)
{
	return step(unlinked(fd) ? OP_PREAD_TMP : OP_PREAD) ? -1 : __real_pread(fd, p, n, at);
}

ssize_t __wrap_pwrite(int fd, const void *p, size_t n, off_t at)
{
	return step(unlinked(fd) ? OP_PWRITE_TMP : OP_PWRITE) ? -1 : __real_pwrite(fd, p, n, at);
}
