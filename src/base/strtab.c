#include "base/strtab.h"

#include <stdlib.h>
#include <string.h>

#include "base/array_grow.h"

static uint32_t strtab_hash(const char *p, size_t n)
{
	uint32_t h = 2166136261u;   /* FNV-1a */

	for (size_t i = 0; i < n; i++) {
		h ^= (unsigned char)p[i];
		h *= 16777619u;
	}
	return h;
}

void csim_strtab_init(struct csim_strtab *t, enum csim_strtab_use use)
{
	memset(t, 0, sizeof(*t));
	t->grouped = use == CSIM_STRTAB_GROUPED;
	for (size_t i = 0; i < sizeof(t->recent) / sizeof(t->recent[0]); i++)
		t->recent[i] = CSIM_NONE;
}

static int strtab_recent(const struct csim_strtab *t, const char *p, size_t n,
			 uint32_t *id)
{
	for (size_t i = 0; i < sizeof(t->recent) / sizeof(t->recent[0]); i++) {
		uint32_t r = t->recent[i];

		if (r != CSIM_NONE && t->ents[r].len == n &&
		    (n == 0 || (t->bytes[t->ents[r].off] == p[0] &&
				memcmp(t->bytes + t->ents[r].off, p, n) == 0))) {
			*id = r;
			return 1;
		}
	}
	return 0;
}

static uint32_t strtab_remember(struct csim_strtab *t, uint32_t id)
{
	t->recent[t->next_recent] = id;
	t->next_recent = (t->next_recent + 1) % (sizeof(t->recent) / sizeof(t->recent[0]));
	return id;
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
		if (e->hash == h && e->len == n && memcmp(t->bytes + e->off, p, n) == 0)
			return i;
		i = (i + 1) & mask;
	}
}

static int strtab_grow_slots(struct csim_strtab *t)
{
	size_t n = t->nslots ? t->nslots * 2 : 64;
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
			*id = strtab_remember(t, t->slots[i] - 1);
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
	*id = strtab_remember(t, (uint32_t)t->count++);
	return 0;
}

const char *csim_strtab_get(const struct csim_strtab *t, uint32_t id, size_t *n)
{
	const struct csim_strtab_entry *e = &t->ents[id];

	if (n != NULL)
		*n = e->len;
	return t->bytes + e->off;
}
