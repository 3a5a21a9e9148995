/*
 * check_ids: the pids, threads and flow names of a checked trace as dense
 * ids, with what each one needs for the metadata rule.
 *
 * pid and tid are compared by their JSON form, as both viewers key them:
 * "0" and 0 are different threads, 1 and 1.0 the same. A key is interned
 * as its kind byte ('s' string, 'n' number) and its text (decoded string,
 * or the number printed with %.17g); a thread as its two key ids.
 */
#ifndef CSIM_CHECK_IDS_H
#define CSIM_CHECK_IDS_H

#include <stddef.h>
#include <stdint.h>

#include "base/strtab.h"
#include "check/check_report.h"

enum csim_check_meta {
	CSIM_META_PROCESS_NAME,
	CSIM_META_PROCESS_SORT_INDEX,
	CSIM_META_THREAD_NAME,
	CSIM_META_THREAD_SORT_INDEX,
	CSIM_META_KINDS
};

/* Per pid key and per thread: index + 1 of its first metadata event of
   each kind (0: none yet), whether a kind came twice, and whether an
   event uses it. */
struct csim_check_owner {
	uint64_t first[2];
	unsigned char repeated[2];
	int used;
};

/* The owners with a metadata kind more than once, and the first of them. */
struct csim_check_repeats {
	size_t owners;
	uint32_t owner;
	uint64_t a, b;   /* its first two events of that kind */
};

struct csim_check_ids {
	struct csim_strtab keys;     /* pid and tid values */
	struct csim_strtab threads;  /* (pid key, tid key) */
	struct csim_strtab names;    /* flow cat and name strings */
	struct csim_check_owner *pid_of_key;   /* by key id */
	size_t pid_cap;
	struct csim_check_owner *thread;       /* by thread id */
	size_t thread_cap;
	struct csim_check_repeats repeats[CSIM_META_KINDS];
};

/* Room for a key rendered in a message (longer ones are cut). */
#define CSIM_CHECK_KEY_TEXT 96

void csim_check_ids_init(struct csim_check_ids *ids);
void csim_check_ids_release(struct csim_check_ids *ids);

/* kind 's' (text is the decoded string) or 'n' (the number's value). -1 out of memory. */
int csim_check_ids_key(struct csim_check_ids *ids, char kind, const char *p,
		       size_t n, uint32_t *key);
int csim_check_ids_number_key(struct csim_check_ids *ids, double v, uint32_t *key);
int csim_check_ids_thread(struct csim_check_ids *ids, uint32_t pid, uint32_t tid,
			  uint32_t *thread);
int csim_check_ids_name(struct csim_check_ids *ids, const char *p, size_t n,
			uint32_t *name);

/* The pid and tid keys of a thread. */
void csim_check_ids_thread_keys(const struct csim_check_ids *ids, uint32_t thread,
				uint32_t *pid, uint32_t *tid);

/* A key as JSON-ish text for messages: "core0" with quotes, or 12. */
const char *csim_check_ids_key_text(const struct csim_check_ids *ids, uint32_t key,
				    char *buf, size_t n);
const char *csim_check_ids_name_text(const struct csim_check_ids *ids, uint32_t name);

/* An event of a pid (X, C, s, f) or a thread (X, s, f, and its pid). */
void csim_check_ids_use_pid(struct csim_check_ids *ids, uint32_t pid);
void csim_check_ids_use_thread(struct csim_check_ids *ids, uint32_t thread);

/*
 * A metadata event: kind for pid (process kinds) or thread (thread kinds).
 * A second one of a kind for its owner is counted for csim_check_ids_notes.
 */
int csim_check_ids_meta(struct csim_check_ids *ids, enum csim_check_meta kind,
			uint32_t owner, uint64_t index);

/*
 * Notes, one per metadata kind: used pids and threads without it
 * ("metadata"), owners with it more than once ("metadata-duplicate").
 * Names and sort indices are labels and order only: both viewers draw
 * every slice and arrow right without them, so neither is a violation.
 * Counts the used processes and threads.
 */
void csim_check_ids_notes(const struct csim_check_ids *ids, struct csim_check_report *rep,
			  size_t *processes, size_t *threads);

#endif
