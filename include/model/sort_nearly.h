/*
 * sort_nearly: a comparison sort for arrays the input leaves nearly in
 * order (the producer writes each core's instructions by end tick, so one
 * (pid, pipe) group of slices is sorted but for a few local swaps).
 *
 * An insertion sort costs one comparison per element on sorted input and
 * touches the array once, in order; after 8n + 64 moves it gives up and
 * calls qsort, so an adversarial input still costs O(n log n). The result
 * is the same as qsort's whenever cmp is a total order (ties broken by a
 * unique key), which every caller's is: outputs do not depend on which
 * of the two sorted.
 *
 * Used by the pack pass (its lanes), the summary pass (its groups) and the
 * anchor index (its lanes), which share it rather than keep one copy each.
 */
#ifndef CSIM_SORT_NEARLY_H
#define CSIM_SORT_NEARLY_H

#include <stddef.h>

/* The largest element csim_sort_nearly() takes (it holds one on its stack). */
#define CSIM_SORT_NEARLY_MAX_SIZE 64

/*
 * Sorts base[0..n) (elements of `size` bytes, at most
 * CSIM_SORT_NEARLY_MAX_SIZE) by cmp. Returns 1 when the insertion sort
 * finished, 0 when it fell back to qsort (for tests; both sort).
 */
int csim_sort_nearly(void *base, size_t n, size_t size,
		     int (*cmp)(const void *, const void *));

/*
 * 1 when base[0..n) is in cmp order. Flags and arrows usually come out of
 * grouping already in order (ids are interned in input order); checking
 * is O(n), sorting anyway is not.
 */
int csim_is_sorted(const void *base, size_t n, size_t size,
		   int (*cmp)(const void *, const void *));

#endif
