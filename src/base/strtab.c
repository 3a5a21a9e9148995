#include "base/strtab.h"

#include <stdlib.h>
#include <string.h>

#include "base/array_grow.h"

/*
 * The words hashed: eight bytes a step and the last eight (overlapping),
 * or for a short string its first and last four, or bytes; each step one
 * multiply (pids and pipe names are 4 to 20 bytes: a byte-wise hash cost
 * four instructions a byte), then MurmurHash3's finaliser, so that the low
 * bits the slots use are mixed.
 */
static uint32_t strtab_hash(const char *p, size_t n)
{
	const uint64_t k = 0xff51afd7ed558ccdull;
	uint64_t h = 0x9E3779B97F4A7C15ull ^ n, w;

	if (n >= 8) {
		for (size_t i = 0; i + 8 < n; i += 8) {
			memcpy(&w, p + i, sizeof(w));
			h = (h ^ w) * k;
			h ^= h >> 32;
		}
		memcpy(&w, p + n - 8, sizeof(w));
		h = (h ^ w) * k;
	} else if (n >= 4) {
		uint32_t a, b;

		memcpy(&a, p, sizeof(a));
		memcpy(&b, p + n - 4, sizeof(b));
		h = (h ^ ((uint64_t)a << 32 | b)) * k;
	} else if (n > 0) {
		h = (h ^ ((uint64_t)(unsigned char)p[0] << 16 |
			  (uint64_t)(unsigned char)p[n / 2] << 8 | (unsigned char)p[n - 1])) * k;
	}
	h ^= h >> 33;
	h *= 0xc4ceb9fe1a85ec53ull;
	h ^= h >> 33;
	return (uint32_t)h;
}

/*
 * Whether a[0..n) and b[0..n) are equal: up to 16 bytes as two words from
 * either end (overlapping), never a byte past n; longer ones by memcmp().
 */
static int same_bytes(const char *a, const char *b, size_t n)
{
	uint64_t a0, a1, b0, b1;
	uint32_t c0, c1, d0, d1;

	if (n >= 8) {
		if (n > 16)
			return memcmp(a, b, n) == 0;
		memcpy(&a0, a, 8);
		memcpy(&b0, b, 8);
		memcpy(&a1, a + n - 8, 8);
		memcpy(&b1, b + n - 8, 8);
		return ((a0 ^ b0) | (a1 ^ b1)) == 0;
	}
	if (n >= 4) {
		memcpy(&c0, a, 4);
		memcpy(&d0, b, 4);
		memcpy(&c1, a + n - 4, 4);
		memcpy(&d1, b + n - 4, 4);
		return ((c0 ^ d0) | (c1 ^ d1)) == 0;
	}
	/* 0 to 3 bytes: the first, middle and last cover them all */
	return n == 0 || (a[0] == b[0] && a[n / 2] == b[n / 2] && a[n - 1] == b[n - 1]);
}

void csim_strtab_init(struct csim_strtab *t, enum csim_strtab_use use)
{
	memset(t, 0, sizeof(*t));
	t->grouped = use == CSIM_STRTAB_GROUPED;
	for (size_t i = 0; i < sizeof(t->recent) / sizeof(t->recent[0]); i++)
		t->recent[i] = CSIM_NONE;
}

/*
 * Makes id the most recent result, recent[0..from) one place older (the
 * one at from drops out or is id): a rotation, not a memmove() call.
 */
static uint32_t strtab_remember(struct csim_strtab *t, uint32_t id, size_t from)
{
	uint32_t carry = id;

	for (size_t i = 0; i <= from; i++) {
		uint32_t r = t->recent[i];

		t->recent[i] = carry;
		carry = r;
	}
	return id;
}

/* Recent results, the newest first: a run of one string hits at once. */
static int strtab_recent(struct csim_strtab *t, const char *p, size_t n, uint32_t *id)
{
	for (size_t i = 0; i < CSIM_STRTAB_RECENT; i++) {
		uint32_t r = t->recent[i];

		if (r == CSIM_NONE)
			return 0;
		if (t->ents[r].len == n && same_bytes(t->bytes + t->ents[r].off, p, n)) {
			*id = i == 0 ? r : strtab_remember(t, r, i);
			return 1;
		}
	}
	return 0;
}

void csim_strtab_release(struct csim_strtab *t)
{
	free(t->slots);
	free(t->ents);
	free(t->bytes);
	csim_strtab_init(t, t->grouped ? CSIM_STRTAB_GROUPED : CSIM_STRTAB_SCATTERED);
}

static size_t strtab_probe(const struct csim_strtab *t, const char *p, size_t n,
			   uint32_t h)
{
	size_t mask = t->nslots - 1;
	size_t i = h & mask;

	for (;;) {
		uint32_t s = t->slots[i];
		const struct csim_strtab_entry *e;

		if (s == 0)
			return i;
		e = &t->ents[s - 1];
		if (e->hash == h && e->len == n && same_bytes(t->bytes + e->off, p, n))
			return i;
		i = (i + 1) & mask;
	}
}

static int strtab_grow_slots(struct csim_strtab *t)
{
	size_t n = t->nslots ? t->nslots * 2 : 8;
	uint32_t *slots = calloc(n, sizeof(*slots));

	if (slots == NULL)
		return -1;
	free(t->slots);
	t->slots = slots;
	t->nslots = n;
	for (size_t k = 0; k < t->count; k++) {
		const struct csim_strtab_entry *e = &t->ents[k];
		size_t i = strtab_probe(t, t->bytes + e->off, e->len, e->hash);

		t->slots[i] = (uint32_t)(k + 1);
	}
	return 0;
}


int csim_strtab_intern(struct csim_strtab *t, const char *p, size_t n,
		       uint32_t *id)
{
	uint32_t h;
	size_t i;
	struct csim_strtab_entry *e;

	if (t->grouped && strtab_recent(t, p, n, id))
		return 0;
	h = strtab_hash(p, n);
	if (t->nslots != 0) {
		i = strtab_probe(t, p, n, h);
		if (t->slots[i] != 0) {
			*id = t->slots[i] - 1;
			if (t->grouped)
				strtab_remember(t, *id, CSIM_STRTAB_RECENT - 1);
			return 0;
		}
	}
	if (t->count >= CSIM_NONE - 1)
		return -1;
	/* Keep the load factor under one half so probes stay short. */
	if ((t->count + 1) * 2 > t->nslots && strtab_grow_slots(t) != 0)
		return -1;
	if (csim_array_grow((void **)&t->ents, &t->ents_cap, t->count + 1,
			   sizeof(*t->ents)) != 0 ||
	    csim_array_grow((void **)&t->bytes, &t->bytes_cap, t->bytes_len + n + 1,
			   1) != 0)
		return -1;
	e = &t->ents[t->count];
	e->off = t->bytes_len;
	e->len = n;
	e->hash = h;
	if (n > 0)
		memcpy(t->bytes + t->bytes_len, p, n);
	t->bytes[t->bytes_len + n] = '\0';
	t->bytes_len += n + 1;
	i = strtab_probe(t, p, n, h);
	t->slots[i] = (uint32_t)(t->count + 1);
	*id = (uint32_t)t->count++;
	if (t->grouped)
		strtab_remember(t, *id, CSIM_STRTAB_RECENT - 1);
	return 0;
}

int csim_strtab_find(const struct csim_strtab *t, const char *p, size_t n, uint32_t *id)
{
	size_t i;

	if (t->nslots == 0)
		return 0;
	i = strtab_probe(t, p, n, strtab_hash(p, n));
	if (t->slots[i] == 0)
		return 0;
	*id = t->slots[i] - 1;
	return 1;
}

const char *csim_strtab_get(const struct csim_strtab *t, uint32_t id, size_t *n)
{
	const struct csim_strtab_entry *e = &t->ents[id];

	if (n != NULL)
		*n = e->len;
	return t->bytes + e->off;
}
