/*
 * event_table: the in-memory result of reading every TRACE block.
 *
 * It keeps only what the passes need: one compact row per complete ("X")
 * event, one small record per flag begin/end, and the raw text of counter
 * events. Slice text (name, args, ...) is not held: the slice store
 * records where it lies, for the trace writer's second reading.
 *
 * Ownership: the table owns every array and string table in it;
 * csim_table_release() frees all of it.
 */
#ifndef CSIM_EVENT_TABLE_H
#define CSIM_EVENT_TABLE_H

#include <stddef.h>
#include <stdint.h>

#include "csim_error.h"
#include "event_scan.h"
#include "strtab.h"

enum csim_slice_kind {
	CSIM_SLICE_INSTR,      /* an instruction on a pipe */
	CSIM_SLICE_SYNC,       /* SET_FLAG/WAIT_FLAG/set_event/wait_event as X */
	CSIM_SLICE_BAR,
	CSIM_SLICE_CACHE_CCU   /* cache_time / ccu_time scalar-head companions */
};

struct csim_slice {
	int64_t start;         /* integer ns: round(ts * 1000) */
	int64_t end;           /* start + round(dur * 1000) */
	uint32_t pid;          /* id in table->pids (raw pid text) */
	uint32_t pipe;         /* id in table->pipes (canonical tid) */
	uint32_t sublane;      /* set by the packing pass */
	uint8_t kind;
	uint8_t kept;          /* set by the lane pass */
};

enum csim_sync_kind { CSIM_SYNC_SET, CSIM_SYNC_WAIT };

/* One B or E record of a sync flag. */
struct csim_sync_rec {
	int64_t ts;            /* integer ns */
	uint32_t pid, pipe;
	uint32_t id;           /* id in table->ids, or CSIM_NONE */
	uint32_t name;         /* id in table->pipes of the event name, for LIFO keys */
	uint32_t detail;       /* index in table->details, or CSIM_NONE */
	uint8_t kind;          /* enum csim_sync_kind */
	uint8_t is_begin;
};

/* Producer/consumer/flag id read from a B record's args.detail. */
struct csim_sync_detail {
	uint32_t producer;     /* id in table->pipes, or CSIM_NONE */
	uint32_t consumer;
	uint64_t flag_id;
	uint8_t has_flag_id;
};

/*
 * Events whose values nest deeper than this are skipped: the viewers' JSON
 * parsers (and cJSON) refuse or overflow on them, so one such event would
 * make the whole output unloadable.
 */
#define CSIM_MAX_NESTING 512

enum csim_skip_reason {
	CSIM_SKIP_NOT_OBJECT,
	CSIM_SKIP_NO_PH,
	CSIM_SKIP_NO_NAME,
	CSIM_SKIP_NO_PID,
	CSIM_SKIP_NO_TID,
	CSIM_SKIP_NO_TS,
	CSIM_SKIP_BAD_DUR,
	CSIM_SKIP_RANGE,
	CSIM_SKIP_DEEP,
	CSIM_SKIP_COUNT
};

enum csim_drop_reason {
	CSIM_DROP_METADATA,    /* ph M: rebuilt */
	CSIM_DROP_FLOW,        /* ph s/t/f: rebuilt */
	CSIM_DROP_OTHER_BE,    /* B/E that are not flags (e.g. intra-block sync) */
	CSIM_DROP_COUNTER,     /* ph C with --no-counters */
	CSIM_DROP_OTHER_PH,
	CSIM_DROP_COUNT
};

/* A counter event kept verbatim: its text in counter_text, and its pid. */
struct csim_counter {
	size_t off, len;
	uint32_t pid;
};

struct csim_table {
	struct csim_slice *slices;
	size_t nslices, slices_cap;
	struct csim_sync_rec *syncs;
	size_t nsyncs, syncs_cap;
	struct csim_sync_detail *details;
	size_t ndetails, details_cap;
	struct csim_strtab pids;       /* raw pid JSON text */
	char **pid_names;              /* decoded pid per pid id */
	size_t pid_names_cap;
	struct csim_strtab pipes;      /* canonical pipe names (and flag names) */
	struct csim_strtab ids;        /* flag ids */
	/* counters, copied through: raw event text */
	char *counter_text;
	size_t counter_len, counter_cap;
	struct csim_counter *counters;
	size_t ncounters, counters_cap;
	int keep_counters;
	uint64_t events;
	uint64_t skipped[CSIM_SKIP_COUNT];
	uint64_t dropped[CSIM_DROP_COUNT];
};

void csim_table_init(struct csim_table *t, int keep_counters);
void csim_table_release(struct csim_table *t);

/*
 * Reserves room for the events of a payload of `bytes` bytes, estimated
 * from typical event sizes, so arrays are allocated once instead of being
 * copied as they double (untouched reserve costs no memory). Best effort:
 * capped, and a failed reservation only leaves growth to later.
 */
void csim_table_reserve(struct csim_table *t, uint64_t bytes);

/* Records one scanned event (or counts why it was skipped or dropped). */
int csim_table_add(struct csim_table *t, struct csim_trace_scan *sc,
		   const struct csim_event *ev, struct csim_error *err);

/*
 * Whether an event becomes a slice row, and its grid position: 1 a slice,
 * 0 not an X event, -1 an X event skipped for *why.
 */
int csim_table_slice_of(const struct csim_event *ev, int64_t *start,
			int64_t *end, enum csim_skip_reason *why);

const char *csim_skip_reason_text(enum csim_skip_reason r);
const char *csim_drop_reason_text(enum csim_drop_reason r);

#endif
