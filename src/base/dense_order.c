#include "base/dense_order.h"

#include <string.h>

void csim_dense_order(const uint32_t *keys, size_t n, size_t nkeys,
		      uint32_t *order, uint32_t *start)
{
	memset(start, 0, (nkeys + 1) * sizeof(*start));
	for (size_t i = 0; i < n; i++)
		start[keys[i] + 1]++;
	for (size_t k = 0; k < nkeys; k++)
		start[k + 1] += start[k];
	/* start[k] is now where key k begins; fill forwards, then shift back. */
	for (size_t i = 0; i < n; i++)
		order[start[keys[i]]++] = (uint32_t)i;
	memmove(start + 1, start, nkeys * sizeof(*start));
	start[0] = 0;
}

void csim_dense_group(const uint32_t *keys, const uint32_t *src, size_t n, size_t nkeys,
		      uint32_t *order, uint32_t *start)
{
	csim_dense_order(keys, n, nkeys, order, start);
	for (size_t i = 0; i < n; i++)
		order[i] = src[order[i]];
}

void csim_permute_in_place(void *base, size_t n, size_t size, uint32_t *dest, void *one)
{
	char *b = base;

	for (size_t i = 0; i < n; i++)
		while (dest[i] != i) {   /* what lies at i goes to j; j's comes to i */
			uint32_t j = dest[i];

			memcpy(one, b + (size_t)j * size, size);
			memcpy(b + (size_t)j * size, b + i * size, size);
			memcpy(b + i * size, one, size);
			dest[i] = dest[j];
			dest[j] = j;
		}
}
