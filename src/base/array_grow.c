#define _DEFAULT_SOURCE   /* madvise */
#include "base/array_grow.h"

#include <stdint.h>
#include <stdlib.h>
#include <sys/mman.h>

#define HUGE_PAGE ((size_t)2 << 20)

/* Advice only: where the kernel cannot or will not, nothing changes. */
static void advise_huge(void *p, size_t bytes)
{
#ifdef MADV_HUGEPAGE
	uintptr_t start = ((uintptr_t)p + HUGE_PAGE - 1) & ~(uintptr_t)(HUGE_PAGE - 1);
	uintptr_t end = ((uintptr_t)p + bytes) & ~(uintptr_t)(HUGE_PAGE - 1);

	if (bytes >= 4 * HUGE_PAGE && end > start)
		(void)madvise((void *)start, end - start, MADV_HUGEPAGE);
#else
	(void)p;
	(void)bytes;
#endif
}

int csim_array_grow(void **buf, size_t *cap, size_t need, size_t elem)
{
	size_t c = *cap ? *cap : 8;   /* small: a dump may hold thousands of runs of a few events */
	void *b;

	if (need <= *cap)
		return 0;
	while (c < need) {
		if (c > SIZE_MAX / 2)
			return -1;
		c *= 2;
	}
	if (elem != 0 && c > SIZE_MAX / elem)
		return -1;
	b = realloc(*buf, c * elem);
	if (b == NULL)
		return -1;
	advise_huge(b, c * elem);
	*buf = b;
	*cap = c;
	return 0;
}

void *csim_array_alloc(size_t n, size_t elem)
{
	void *p;

	if (elem != 0 && n > SIZE_MAX / elem)
		return NULL;
	p = malloc(n != 0 && elem != 0 ? n * elem : 1);
	if (p != NULL)
		advise_huge(p, n * elem);
	return p;
}
