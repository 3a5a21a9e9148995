/*
 * array_grow: allocation of the converter's big arrays.
 *
 * One growth policy (doubling) for every dynamic array, and huge-page advice
 * for arrays of many megabytes: on a multi-gigabyte dump the table and pass
 * arrays reach hundreds of MB, and first-touch page faults at 4 KiB each cost
 * a fifth of the run; backed by 2 MiB pages where the kernel allows, they
 * fault 512 times less often.
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

/* malloc(n * elem) with an overflow check and the same huge-page advice. */
void *csim_array_alloc(size_t n, size_t elem);

#endif
