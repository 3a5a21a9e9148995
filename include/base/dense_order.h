/*
 * dense_order: stable counting sort of positions by a small dense key.
 *
 * Interned ids are dense (0..count-1), so grouping millions of flag records
 * by id needs no comparison sort: one counting pass is O(n + nkeys) and
 * touches memory in order.
 */
#ifndef CSIM_DENSE_ORDER_H
#define CSIM_DENSE_ORDER_H

#include <stddef.h>
#include <stdint.h>

/*
 * keys[i] < nkeys for i < n. Fills order[0..n) with 0..n-1 sorted by key,
 * equal keys keeping their relative order, and start[0..nkeys] with the
 * group bounds: key k occupies order[start[k] .. start[k + 1]). start must
 * have room for nkeys + 1 entries.
 */
void csim_dense_order(const uint32_t *keys, size_t n, size_t nkeys,
		      uint32_t *order, uint32_t *start);

/*
 * The same grouping of the positions' sources: order[i] gets src[j] for
 * the i-th position j in key order (src[0..n) are what the positions
 * stand for, a record or flag index).
 */
void csim_dense_group(const uint32_t *keys, const uint32_t *src, size_t n, size_t nkeys,
		      uint32_t *order, uint32_t *start);

/*
 * Moves base[i] (n elements of `size` bytes) to position dest[i], dest a
 * permutation of 0..n-1, in place along the permutation's cycles: an
 * order applied to big records costs n 4-byte slots, not a copy of the
 * records (a comparison sort's scratch would be one). `one` has room for
 * an element. dest ends as the identity.
 */
void csim_permute_in_place(void *base, size_t n, size_t size, uint32_t *dest, void *one);

#endif
