#include "model/sort_nearly.h"

#include <assert.h>
#include <stdlib.h>
#include <string.h>

/*
 * An element already at or after its left neighbour stays put without a
 * copy, so sorted input costs n - 1 comparisons and no moves; one out of
 * place is held aside while the larger ones shift right (one memmove).
 */
int csim_sort_nearly(void *base, size_t n, size_t size,
		     int (*cmp)(const void *, const void *))
{
	unsigned char *a = base;
	unsigned char x[CSIM_SORT_NEARLY_MAX_SIZE];
	size_t moves = 0, budget = 8 * n + 64;

	assert(size <= sizeof(x));
	for (size_t i = 1; i < n; i++) {
		size_t j = i - 1;

		if (cmp(a + j * size, a + i * size) <= 0)
			continue;
		memcpy(x, a + i * size, size);
		while (j > 0 && cmp(a + (j - 1) * size, x) > 0)
			j--;
		moves += i - j;
		if (moves > budget) {
			qsort(a, n, size, cmp);
			return 0;
		}
		memmove(a + (j + 1) * size, a + j * size, (i - j) * size);
		memcpy(a + j * size, x, size);
	}
	return 1;
}

int csim_is_sorted(const void *base, size_t n, size_t size,
		   int (*cmp)(const void *, const void *))
{
	const char *p = base;

	for (size_t i = 1; i < n; i++)
		if (cmp(p + (i - 1) * size, p + i * size) > 0)
			return 0;
	return 1;
}
