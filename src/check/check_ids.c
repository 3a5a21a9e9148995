#include "check/check_ids.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/array_grow.h"

static const char *const META_NAMES[CSIM_META_KINDS] = {
	"process_name", "process_sort_index", "thread_name", "thread_sort_index"
};

void csim_check_ids_init(struct csim_check_ids *ids)
{
	memset(ids, 0, sizeof(*ids));
	csim_strtab_init(&ids->keys, CSIM_STRTAB_GROUPED);
	csim_strtab_init(&ids->threads, CSIM_STRTAB_GROUPED);
	csim_strtab_init(&ids->names, CSIM_STRTAB_SCATTERED);
}

void csim_check_ids_release(struct csim_check_ids *ids)
{
	csim_strtab_release(&ids->keys);
	csim_strtab_release(&ids->threads);
	csim_strtab_release(&ids->names);
	free(ids->pid_of_key);
	free(ids->thread);
	memset(ids, 0, sizeof(*ids));
}

/* Owners are indexed by id and grow as ids appear; new ones start empty. */
static int owner_room(struct csim_check_owner **arr, size_t *cap, size_t count)
{
	size_t old = *cap;

	if (count <= old)
		return 0;
	if (csim_array_grow((void **)arr, cap, count, sizeof(**arr)) != 0)
		return -1;
	memset(*arr + old, 0, (*cap - old) * sizeof(**arr));
	return 0;
}

/*
 * Interns p[0..n) with one byte added, before it (head) or after it (tail):
 * on the stack, as pids and names rarely pass 127 bytes.
 */
static int intern_with(struct csim_strtab *tab, int head, char byte, const char *p,
		       size_t n, uint32_t *id)
{
	char small[128];
	char *buf = small;
	int rc;

	if (n + 1 > sizeof(small)) {
		buf = malloc(n + 1);
		if (buf == NULL)
			return -1;
	}
	buf[head ? 0 : n] = byte;
	if (n > 0)
		memcpy(buf + (head ? 1 : 0), p, n);
	rc = csim_strtab_intern(tab, buf, n + 1, id);
	if (buf != small)
		free(buf);
	return rc;
}

int csim_check_ids_key(struct csim_check_ids *ids, char kind, const char *p,
		       size_t n, uint32_t *key)
{
	/* The kind first: "1" the number and "1" the string differ. */
	if (intern_with(&ids->keys, 1, kind, p, n, key) != 0)
		return -1;
	return owner_room(&ids->pid_of_key, &ids->pid_cap, (size_t)*key + 1);
}

int csim_check_ids_number_key(struct csim_check_ids *ids, double v, uint32_t *key)
{
	char text[40];
	int n = snprintf(text, sizeof(text), "%.17g", v);

	return csim_check_ids_key(ids, 'n', text, (size_t)n, key);
}

int csim_check_ids_thread(struct csim_check_ids *ids, uint32_t pid, uint32_t tid,
			  uint32_t *thread)
{
	uint32_t pair[2] = { pid, tid };

	if (csim_strtab_intern(&ids->threads, (const char *)pair, sizeof(pair),
			       thread) != 0)
		return -1;
	return owner_room(&ids->thread, &ids->thread_cap, (size_t)*thread + 1);
}

int csim_check_ids_name(struct csim_check_ids *ids, const char *p, size_t n,
			uint32_t *name)
{
	/* Stored with its NUL so that messages can print it as is. */
	return intern_with(&ids->names, 0, '\0', p, n, name);
}

void csim_check_ids_thread_keys(const struct csim_check_ids *ids, uint32_t thread,
				uint32_t *pid, uint32_t *tid)
{
	size_t n;
	const char *p = csim_strtab_get(&ids->threads, thread, &n);
	uint32_t pair[2];

	memcpy(pair, p, sizeof(pair));
	*pid = pair[0];
	*tid = pair[1];
}

const char *csim_check_ids_key_text(const struct csim_check_ids *ids, uint32_t key,
				    char *buf, size_t n)
{
	size_t len;
	const char *p = csim_strtab_get(&ids->keys, key, &len);
	int shown = len - 1 > 80 ? 80 : (int)(len - 1);

	if (p[0] == 's')
		snprintf(buf, n, "\"%.*s\"", shown, p + 1);
	else
		snprintf(buf, n, "%.*s", shown, p + 1);
	return buf;
}

const char *csim_check_ids_name_text(const struct csim_check_ids *ids, uint32_t name)
{
	size_t n;

	return csim_strtab_get(&ids->names, name, &n);
}

void csim_check_ids_use_pid(struct csim_check_ids *ids, uint32_t pid)
{
	ids->pid_of_key[pid].used = 1;
}

void csim_check_ids_use_thread(struct csim_check_ids *ids, uint32_t thread)
{
	uint32_t pid, tid;

	ids->thread[thread].used = 1;
	csim_check_ids_thread_keys(ids, thread, &pid, &tid);
	csim_check_ids_use_pid(ids, pid);
}

static int meta_is_thread(enum csim_check_meta kind)
{
	return kind == CSIM_META_THREAD_NAME || kind == CSIM_META_THREAD_SORT_INDEX;
}

/* "pid "core0"" or "pid "core0" tid "MTE2"", for messages. */
static const char *owner_text(const struct csim_check_ids *ids, int is_thread,
			      uint32_t owner, char *buf, size_t n)
{
	char pb[CSIM_CHECK_KEY_TEXT], tb[CSIM_CHECK_KEY_TEXT];
	uint32_t pid = owner, tid = 0;

	if (!is_thread) {
		snprintf(buf, n, "pid %s", csim_check_ids_key_text(ids, pid, pb, sizeof(pb)));
		return buf;
	}
	csim_check_ids_thread_keys(ids, owner, &pid, &tid);
	snprintf(buf, n, "pid %s tid %s",
		 csim_check_ids_key_text(ids, pid, pb, sizeof(pb)),
		 csim_check_ids_key_text(ids, tid, tb, sizeof(tb)));
	return buf;
}

int csim_check_ids_meta(struct csim_check_ids *ids, enum csim_check_meta kind,
			uint32_t owner, uint64_t index, struct csim_check_report *rep)
{
	int is_thread = meta_is_thread(kind);
	struct csim_check_owner *o = is_thread ? &ids->thread[owner]
					       : &ids->pid_of_key[owner];
	uint64_t *first = &o->first[is_thread ? kind - CSIM_META_THREAD_NAME : kind];
	char who[2 * CSIM_CHECK_KEY_TEXT + 16];

	if (*first == 0) {
		*first = index + 1;
		return 0;
	}
	/* Perfetto and catapult both let the last one win, silently. */
	csim_check_violation(rep, "metadata-duplicate",
			     "events #%llu and #%llu are both %s for %s",
			     (unsigned long long)(*first - 1), (unsigned long long)index,
			     META_NAMES[kind],
			     owner_text(ids, is_thread, owner, who, sizeof(who)));
	return 0;
}

static void require(const struct csim_check_ids *ids, const struct csim_check_owner *o,
		    int is_thread, uint32_t owner, struct csim_check_report *rep)
{
	char who[2 * CSIM_CHECK_KEY_TEXT + 16];

	for (int k = 0; k < 2; k++) {
		if (o->first[k] != 0)
			continue;
		csim_check_violation(rep, "metadata", "%s has no %s",
				     owner_text(ids, is_thread, owner, who, sizeof(who)),
				     META_NAMES[(is_thread ? CSIM_META_THREAD_NAME : 0) + k]);
	}
}

void csim_check_ids_require_meta(const struct csim_check_ids *ids,
				 struct csim_check_report *rep, size_t *processes,
				 size_t *threads)
{
	*processes = *threads = 0;
	for (size_t i = 0; i < ids->keys.count; i++) {
		if (!ids->pid_of_key[i].used)
			continue;
		(*processes)++;
		require(ids, &ids->pid_of_key[i], 0, (uint32_t)i, rep);
	}
	for (size_t i = 0; i < ids->threads.count; i++) {
		if (!ids->thread[i].used)
			continue;
		(*threads)++;
		require(ids, &ids->thread[i], 1, (uint32_t)i, rep);
	}
}
