/*
 * strtab: interns byte strings (pids, pipe names, flag ids) as dense ids.
 *
 * The table owns copies of every string; ids are stable for its lifetime and
 * a string's bytes are reachable through csim_strtab_get() until release.
 */
#ifndef CSIM_STRTAB_H
#define CSIM_STRTAB_H

#include <stddef.h>
#include <stdint.h>

#define CSIM_NONE UINT32_MAX

struct csim_strtab_entry {
	size_t off;
	size_t len;
	uint32_t hash;
};

struct csim_strtab {
	uint32_t *slots;      /* open addressing: entry index + 1, 0 = empty */
	size_t nslots;
	struct csim_strtab_entry *ents;
	size_t count, ents_cap;
	char *bytes;
	size_t bytes_len, bytes_cap;
	uint32_t recent[4];   /* recent results, checked before hashing: events */
	unsigned next_recent; /* come grouped by core and cycle through few pipes */
	int mostly_new;       /* strings rarely repeat soon (flag ids): skip recent[] */
};

void csim_strtab_init(struct csim_strtab *t);
void csim_strtab_release(struct csim_strtab *t);

/* Returns 0 and the id of the string, adding it when new; -1 out of memory. */
int csim_strtab_intern(struct csim_strtab *t, const char *p, size_t n,
		       uint32_t *id);

/* Returns CSIM_NONE when the string was never interned. */
uint32_t csim_strtab_find(const struct csim_strtab *t, const char *p, size_t n);

const char *csim_strtab_get(const struct csim_strtab *t, uint32_t id, size_t *n);

#endif
