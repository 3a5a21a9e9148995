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
#define CSIM_STRTAB_RECENT 4

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
	uint32_t recent[CSIM_STRTAB_RECENT];   /* GROUPED: recent results, newest first */
	int grouped;
};

/*
 * GROUPED: strings come in runs (events are grouped by core and cycle through
 * a few pipes), so recent results are checked before hashing. SCATTERED:
 * strings rarely repeat soon (each flag id about twice, far apart), where that
 * check would only cost.
 */
enum csim_strtab_use { CSIM_STRTAB_GROUPED, CSIM_STRTAB_SCATTERED };

/* Leaves t empty and safe to release. */
void csim_strtab_init(struct csim_strtab *t, enum csim_strtab_use use);
void csim_strtab_release(struct csim_strtab *t);

/* Returns 0 and the id of the string, adding it when new; -1 out of memory. */
int csim_strtab_intern(struct csim_strtab *t, const char *p, size_t n,
		       uint32_t *id);

/* 1 and the id of the string when it is in the table, else 0; adds nothing. */
int csim_strtab_find(const struct csim_strtab *t, const char *p, size_t n, uint32_t *id);

const char *csim_strtab_get(const struct csim_strtab *t, uint32_t id, size_t *n);

#endif
