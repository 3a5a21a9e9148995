/*
 * threadalloc.h: counts the allocations made on one named worker thread,
 * for tests that prove a worker allocates nothing (the allocation-failure
 * sweeps count allocations in order: one made on a thread would make the
 * count depend on timing). Define THREADALLOC_NAME (the thread's
 * pthread_setname_np name) before including it, once per executable, and
 * link with -Wl,--wrap=malloc,--wrap=calloc,--wrap=realloc,--wrap=strdup.
 */
#ifndef CSIM_TEST_THREADALLOC_H
#define CSIM_TEST_THREADALLOC_H

#include <stdatomic.h>
#include <string.h>
#include <sys/prctl.h>

void *__real_malloc(size_t n);
void *__real_calloc(size_t n, size_t size);
void *__real_realloc(void *p, size_t n);
char *__real_strdup(const char *s);
void *__wrap_malloc(size_t n);
void *__wrap_calloc(size_t n, size_t size);
void *__wrap_realloc(void *p, size_t n);
char *__wrap_strdup(const char *s);

/* The test's mutable global: a wrapper of malloc can reach nothing else. */
static atomic_ulong thread_allocs;

static void count_if_on_thread(void)
{
	char name[17] = "";

	if (prctl(PR_GET_NAME, name) == 0 && strcmp(name, THREADALLOC_NAME) == 0)
		atomic_fetch_add(&thread_allocs, 1);
}

void *__wrap_malloc(size_t n)
{
	count_if_on_thread();
	return __real_malloc(n);
}

void *__wrap_calloc(size_t n, size_t size)
{
	count_if_on_thread();
	return __real_calloc(n, size);
}

void *__wrap_realloc(void *p, size_t n)
{
	count_if_on_thread();
	return __real_realloc(p, n);
}

char *__wrap_strdup(const char *s)
{
	count_if_on_thread();
	return __real_strdup(s);
}

#endif
