/*
 * failalloc: allocation-failure injection for clean_sim_trace_failalloc
 * (the SQLite approach: fail the k-th allocation, for every k).
 *
 * The test executable is linked from the same csim_core objects as the
 * product with -Wl,--wrap=malloc,--wrap=calloc,--wrap=realloc,--wrap=strdup,
 * so every allocation the project's code makes comes here first, and with
 * --wrap=fdopendir,--wrap=opendir libc's allocation of a DIR; zlib is
 * linked statically into it, so gzdopen's and inflate's allocations do too,
 * and metrics_writer routes cJSON's through malloc and free.
 *
 *   CSIM_FAIL_ALLOC=k         the k-th allocation (from 1) returns NULL with
 *                             errno ENOMEM; every other one succeeds
 *   CSIM_FAIL_ALLOC=0/unset   count only
 *   CSIM_FAIL_ALLOC_REPORT=1  print "failalloc: N allocation(s)" to stderr
 *                             at exit (and the failed one's caller)
 *   CSIM_FAIL_ALLOC_SITES=F   in a counting run, "k chain" in F for each
 *                             allocation: chain hashes its call chain, so
 *                             a sweep can fail each code path rather than
 *                             each k (tests/cli/t_failalloc.sh)
 *
 * The counters are this tool's only state: mutable globals, the documented
 * exception for a test-only build helper (the product has none).
 */
#define _GNU_SOURCE   /* dladdr */
#include <dirent.h>
#include <dlfcn.h>
#include <errno.h>
#include <execinfo.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

void *__real_malloc(size_t n);
void *__real_calloc(size_t n, size_t size);
void *__real_realloc(void *p, size_t n);
char *__real_strdup(const char *s);
DIR *__real_fdopendir(int fd);
DIR *__real_opendir(const char *path);

void *__wrap_malloc(size_t n);
void *__wrap_calloc(size_t n, size_t size);
void *__wrap_realloc(void *p, size_t n);
char *__wrap_strdup(const char *s);
DIR *__wrap_fdopendir(int fd);
DIR *__wrap_opendir(const char *path);

/* Frames of a call chain that tell two allocation paths apart. */
#define SITE_DEPTH 8

static unsigned long long alloc_count;
static unsigned long long fail_at;
static int configured;
static int report;
static FILE *sites;          /* CSIM_FAIL_ALLOC_SITES: one line per allocation */
static _Thread_local int in_backtrace;   /* backtrace() may allocate (its unwinder's first load) */

static void failalloc_report(void)
{
	fprintf(stderr, "failalloc: %llu allocation(s)\n", alloc_count);
}

/* Names the failing caller as an offset in its object (for addr2line -e);
   printed at once, so a crash that follows cannot lose it. */
static void failalloc_report_caller(const void *caller)
{
	Dl_info info;

	if (dladdr(caller, &info) != 0)
		fprintf(stderr, "failalloc: allocation %llu failed, called from %s+0x%lx\n",
			fail_at, info.dli_fname,
			(unsigned long)((const char *)caller - (const char *)info.dli_fbase));
}

static void failalloc_configure(void)
{
	const char *k = getenv("CSIM_FAIL_ALLOC");
	const char *r = getenv("CSIM_FAIL_ALLOC_REPORT");

	configured = 1;
	fail_at = k != NULL ? strtoull(k, NULL, 10) : 0;
	report = r != NULL && strcmp(r, "1") == 0;
	if (report)
		atexit(failalloc_report);
	if (getenv("CSIM_FAIL_ALLOC_SITES") != NULL && fail_at == 0) {
		in_backtrace = 1;
		sites = fopen(getenv("CSIM_FAIL_ALLOC_SITES"), "w");
		in_backtrace = 0;
	}
}

/*
 * The call chain of allocation k, as a hash of its return addresses (the
 * wrappers' frames left out), each as an offset in its object: two
 * allocations made by the same code path hash alike, in this run and in
 * the next (address-space randomisation moves the objects, not the
 * offsets), so a sweep can try each path once across its dumps.
 */
static void failalloc_site(void)
{
	void *frames[SITE_DEPTH + 2];
	uint64_t h = 1469598103934665603u;
	int n;

	in_backtrace = 1;
	n = backtrace(frames, SITE_DEPTH + 2);
	for (int i = 2; i < n; i++) {
		Dl_info info;
		uintptr_t at = (uintptr_t)frames[i];

		if (dladdr(frames[i], &info) != 0)
			at -= (uintptr_t)info.dli_fbase;
		h ^= (uint64_t)at;
		h *= 1099511628211u;
	}
	fprintf(sites, "%llu %016llx\n", alloc_count, (unsigned long long)h);
	in_backtrace = 0;
}

/* Counts one allocation; whether it is the one to fail. */
static int failalloc_fails(const void *caller)
{
	if (in_backtrace)
		return 0;
	if (!configured)
		failalloc_configure();
	alloc_count++;
	if (sites != NULL)
		failalloc_site();
	if (fail_at == 0 || alloc_count != fail_at)
		return 0;
	if (report)
		failalloc_report_caller(caller);
	errno = ENOMEM;
	return 1;
}

void *__wrap_malloc(size_t n)
{
	return failalloc_fails(__builtin_return_address(0)) ? NULL : __real_malloc(n);
}

void *__wrap_calloc(size_t n, size_t size)
{
	return failalloc_fails(__builtin_return_address(0)) ? NULL
							    : __real_calloc(n, size);
}

void *__wrap_realloc(void *p, size_t n)
{
	return failalloc_fails(__builtin_return_address(0)) ? NULL
							    : __real_realloc(p, n);
}

char *__wrap_strdup(const char *s)
{
	return failalloc_fails(__builtin_return_address(0)) ? NULL : __real_strdup(s);
}

/* libc allocates a DIR (and its buffer) in these: counted like malloc. */
DIR *__wrap_fdopendir(int fd)
{
	return failalloc_fails(__builtin_return_address(0)) ? NULL : __real_fdopendir(fd);
}

DIR *__wrap_opendir(const char *path)
{
	return failalloc_fails(__builtin_return_address(0)) ? NULL : __real_opendir(path);
}
