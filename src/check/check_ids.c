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
			uint32_t owner, uint64_t index)
{
	int is_thread = meta_is_thread(kind);
	struct csim_check_owner *o = is_thread ? &ids->thread[owner]
					       : &ids->pid_of_key[owner];
	size_t k = is_thread ? (size_t)kind - CSIM_META_THREAD_NAME : (size_t)kind;
	struct csim_check_repeats *r = &ids->repeats[kind];

	if (o->first[k] == 0) {
		o->first[k] = index + 1;
		return 0;
	}
	if (o->repeated[k])
		return 0;
	o->repeated[k] = 1;
	if (r->owners++ == 0) {
		r->owner = owner;
		r->a = o->first[k] - 1;
		r->b = index;
	}
	return 0;
}

/* What a viewer does without each kind (viewer notes §1.6). */
static const char *const WITHOUT[CSIM_META_KINDS] = {
	"the viewers label a process without it by its pid",
	"Perfetto then orders processes by slice count, chrome://tracing by name",
	"the viewers label a thread without it by its tid",
	"Perfetto then orders threads by tid or first appearance, chrome://tracing by name",
};

/* Owners without a kind: how many, and the first. */
struct missing {
	size_t owners;
	uint32_t owner;
};

static void note_missing(const struct csim_check_ids *ids, struct csim_check_report *rep,
			 enum csim_check_meta kind, const struct missing *m)
{
	int is_thread = meta_is_thread(kind);
	char who[2 * CSIM_CHECK_KEY_TEXT + 16];

	if (m->owners == 0)
		return;
	owner_text(ids, is_thread, m->owner, who, sizeof(who));
	if (m->owners == 1)
		csim_check_note(rep, "metadata", "%s has no %s: %s", who, META_NAMES[kind],
				WITHOUT[kind]);
	else
		csim_check_note(rep, "metadata", "%zu %s have no %s (the first: %s): %s",
				m->owners, is_thread ? "threads" : "processes", META_NAMES[kind],
				who, WITHOUT[kind]);
}

static void note_repeats(const struct csim_check_ids *ids, struct csim_check_report *rep,
			 enum csim_check_meta kind)
{
	const struct csim_check_repeats *r = &ids->repeats[kind];
	int is_thread = meta_is_thread(kind);
	char who[2 * CSIM_CHECK_KEY_TEXT + 16];

	if (r->owners == 0)
		return;
	owner_text(ids, is_thread, r->owner, who, sizeof(who));
	if (r->owners == 1)
		csim_check_note(rep, "metadata-duplicate",
				"%s has more than one %s (events #%llu and #%llu): both viewers use the last",
				who, META_NAMES[kind], (unsigned long long)r->a,
				(unsigned long long)r->b);
	else
		csim_check_note(rep, "metadata-duplicate",
				"%zu %s have more than one %s (the first: %s, events #%llu and #%llu): "
				"both viewers use the last of each",
				r->owners, is_thread ? "threads" : "processes", META_NAMES[kind], who,
				(unsigned long long)r->a, (unsigned long long)r->b);
}

/* Used owners of one side (processes or threads) without each of its kinds. */
static size_t scan_missing(const struct csim_check_owner *o, size_t n, struct missing m[2])
{
	size_t used = 0;

	memset(m, 0, 2 * sizeof(*m));
	for (size_t i = 0; i < n; i++) {
		if (!o[i].used)
			continue;
		used++;
		for (int k = 0; k < 2; k++)
			if (o[i].first[k] == 0 && m[k].owners++ == 0)
				m[k].owner = (uint32_t)i;
	}
	return used;
}

void csim_check_ids_notes(const struct csim_check_ids *ids, struct csim_check_report *rep,
			  size_t *processes, size_t *threads)
{
	struct missing m[2];

	*processes = scan_missing(ids->pid_of_key, ids->keys.count, m);
	note_missing(ids, rep, CSIM_META_PROCESS_NAME, &m[0]);
	note_missing(ids, rep, CSIM_META_PROCESS_SORT_INDEX, &m[1]);
	*threads = scan_missing(ids->thread, ids->threads.count, m);
	note_missing(ids, rep, CSIM_META_THREAD_NAME, &m[0]);
	note_missing(ids, rep, CSIM_META_THREAD_SORT_INDEX, &m[1]);
	for (int k = 0; k < CSIM_META_KINDS; k++)
		note_repeats(ids, rep, (enum csim_check_meta)k);
}
