/*
 * array_grow: the one growth policy for the converter's dynamic arrays.
 */
#ifndef CSIM_ARRAY_GROW_H
#define CSIM_ARRAY_GROW_H

#include <stddef.h>

/*
 * Makes *buf hold at least `need` elements of `elem` bytes, doubling the
 * capacity (*cap, in elements). Returns 0, or -1 when out of memory or when
 * the size would overflow, leaving *buf and *cap unchanged.
 */
int csim_array_grow(void **buf, size_t *cap, size_t need, size_t elem);

#endif
