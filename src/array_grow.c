#include "array_grow.h"

#include <stdint.h>
#include <stdlib.h>

int csim_array_grow(void **buf, size_t *cap, size_t need, size_t elem)
{
	size_t c = *cap ? *cap : 64;
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
	*buf = b;
	*cap = c;
	return 0;
}
