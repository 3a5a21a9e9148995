/*
 * event_table: the in-memory result of reading every TRACE block, the base
 * of the model.
 *
 * It keeps only what the passes need: one compact row per complete ("X")
 * event, one small record per flag begin/end, the raw text of counter
 * events, and the counts of what was skipped or dropped. It knows nothing
 * of JSON or of the input: event_ingest classifies scanned events and adds
 * them here. Slice text (name, args, ...) is not held: the slice store
 * records where it lies, for the trace writer's second reading.
 *
 * Ownership: the table owns every array and string table in it;
 * csim_table_release() frees all of it.
 */
#ifndef CSIM_EVENT_TABLE_H
#define CSIM_EVENT_TABLE_H

#include <stddef.h>
#include <stdint.h>

#include "base/csim_error.h"
#include "model/flag_detail.h"
#include "model/lane_rule.h"
#include "base/span.h"
#include "base/strtab.h"

/* Runs beyond this share one scope for id-less flags and anchors (ids
   have no cap). */
#define CSIM_RUN_SCOPE_MAX UINT16_MAX

struct csim_slice {
	int64_t start;         /* integer ns: round(ts * 1000) */
	int64_t end;           /* start + round(dur * 1000) */
	double a, b;           /* float ns: ts * 1000, (ts + dur) * 1000 (SPEC §4) */
	uint32_t pid;          /* id in table->pids (raw pid text) */
	uint32_t pipe;         /* id in table->pipes (canonical tid) */
	uint32_t sublane;      /* set by the packing pass */
	uint8_t kind;
	uint8_t kept;          /* set by the lane pass */
	uint16_t run;          /* table->run, capped at CSIM_RUN_SCOPE_MAX:
				  flags anchor within their run (--run all) */
};

enum csim_sync_kind { CSIM_SYNC_SET, CSIM_SYNC_WAIT };

/* One B or E record of a sync flag: 32 bytes, 2.4 M of them held until
   the pair pass on the dense-heavy benchmark shape. */
struct csim_sync_rec {
	double a;              /* float ns (ts * 1000 as read; its grid time is
				  llround(a)): a SET's instant is judged against
				  its producer's completion (SPEC §5.3) */
	uint32_t pid, pipe;
	uint32_t id;           /* id in table->ids, or CSIM_NONE */
	uint32_t detail;       /* index in table->details, or CSIM_NONE */
	uint8_t name;          /* id in table->sync_names (a few: SET_FLAG,
				  set_event, ...), for LIFO keys */
	uint8_t kind;          /* enum csim_sync_kind */
	uint8_t is_begin;
	uint8_t intra;         /* a cross-core (INTRA_BLOCK) record, not a flag */
	uint16_t run;          /* table->run, capped at CSIM_RUN_SCOPE_MAX: keys
				  of id-less flags are scoped to their run too */
};

/*
 * Producer/consumer/flag id read from a B record's args.detail. A
 * cross-core record's detail names only its own pipe (producer) and its
 * sync_id, held in flag_id.
 */
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

/*
 * A counter event kept verbatim: its text in counter_text, its pid and where
 * the pid's text lies in it (so a run's label can replace it), and its time
 * on the ns grid for --window (placed 0: its ts is beyond the grid, so it
 * lies in no window).
 */
struct csim_counter {
	size_t off, len;
	size_t pid_at, pid_len;   /* its pid's JSON text, at off + pid_at (len 0: none) */
	int64_t ts;
	uint32_t pid;
	uint8_t placed;
};

/* Bytes an MTE instruction slice moved (its args.process_bytes). */
struct csim_slice_bytes {
	size_t slice;          /* row in slices[] */
	uint64_t bytes;
};

struct csim_table {
	struct csim_slice *slices;
	size_t nslices, slices_cap;
	struct csim_sync_rec *syncs;
	size_t nsyncs, syncs_cap;
	struct csim_sync_detail *details;   /* distinct values, one each */
	size_t ndetails, details_cap;
	struct csim_strtab detail_keys;     /* their bytes, for add_detail */
	struct csim_strtab pids;       /* raw pid JSON text */
	char **pid_names;              /* decoded pid per pid id */
	size_t pid_names_cap;
	struct csim_strtab pipes;      /* canonical pipe names */
	struct csim_strtab sync_names; /* the sync records' event names */
	struct csim_strtab ids;        /* flag ids, scoped to their run */
	uint32_t run;                  /* run (TRACE block) of the records being
					  added, 0-based: simulator ids restart
					  per run (SPEC §5.1) */
	char *id_key;                  /* scratch: run index + id, for interning */
	size_t id_key_cap;
	/* counters, copied through: raw event text */
	char *counter_text;
	size_t counter_len, counter_cap;
	struct csim_counter *counters;
	size_t ncounters, counters_cap;
	/* Which instruction each slice row is (SPEC §13's top instructions):
	   an id in instrs, CSIM_NONE for rows that are not instructions */
	uint32_t *slice_instr;
	size_t slice_instr_cap;
	struct csim_strtab instrs;     /* keys: csim_table_set_instr() */
	uint32_t *instr_names;         /* per id in instrs: its name and its
					  address (CSIM_NONE: none), ids in
					  names, two a row */
	size_t instr_names_cap;
	struct csim_strtab names;      /* their JSON text */
	/* MTE slices that say how many bytes they moved, in row order */
	struct csim_slice_bytes *bytes;
	size_t nbytes, bytes_cap;
	/* --format perfetto: each row's exact ns (SPEC §15) as its difference
	   from the grid's start and end, a few ns at most (csim_table_exact) */
	int want_exact;
	struct csim_exact_fix { int8_t start, end; } *exact;
	size_t exact_cap;
	uint64_t events;
	uint64_t skipped[CSIM_SKIP_COUNT];
	uint64_t dropped[CSIM_DROP_COUNT];
	/* X events that could not be placed (bad ts, dur, ...) but that the
	   lane rule drops anyway: counted with the dropped slices, not skipped */
	uint64_t unplaced_drops[CSIM_SDROP_COUNT];
};

/* Leaves t empty and safe to release. */
void csim_table_init(struct csim_table *t);
void csim_table_release(struct csim_table *t);

/*
 * Reserves room for the events of a payload of `bytes` bytes, estimated
 * from typical event sizes, so arrays are allocated once instead of being
 * copied as they double (untouched reserve costs no memory). Best effort:
 * capped, and a failed reservation only leaves growth to later.
 */
void csim_table_reserve(struct csim_table *t, uint64_t bytes);

/* Who an event belongs to, as the reading side found it. */
struct csim_owner {
	struct csim_span pid_json;   /* the pid's JSON text, written back as is */
	struct csim_span pid;        /* decoded: for sorting and process_name */
	struct csim_span tid;        /* the pipe as the input names it */
};

/* One B or E record of a sync flag, as the reading side found it. */
struct csim_sync_in {
	struct csim_owner owner;
	struct csim_span name;       /* SET_FLAG, WAIT_FLAG, set_event, wait_event,
					SET/WAIT_INTRA_BLOCK(I) */
	struct csim_span id;         /* decoded, when has_id */
	int has_id;
	enum csim_sync_kind kind;
	int is_begin;
	int intra;                   /* cross-core SET/WAIT_INTRA_BLOCK(I) */
	int64_t ts;                  /* integer ns */
	double a;                    /* float ns: ts * 1000 */
	const struct csim_flag_key *detail;   /* from args.detail, or NULL */
};

/* Where a slice lies: on Perfetto's grid, and as float ns (see csim_slice). */
struct csim_slice_time {
	int64_t start, end;
	double a, b;
	/* the exact ns of the decimal ts and ts + dur (base/exact_ns.h, SPEC
	   §15); kept only by a table that wants them */
	int64_t exact_start, exact_end;
};

/* Each adds one row, record or counter; out of memory is the only failure. */
int csim_table_add_slice(struct csim_table *t, const struct csim_owner *o,
			 const struct csim_slice_time *at, enum csim_slice_kind kind,
			 struct csim_error *err);
/*
 * A row's exact begin and end in ns (SPEC §15), for a table that wants
 * them; else its grid start and end.
 */
void csim_table_exact(const struct csim_table *t, size_t row, int64_t *start, int64_t *end);

/* Bytes moved by the slice added last. */
int csim_table_add_bytes(struct csim_table *t, uint64_t bytes, struct csim_error *err);

/*
 * An instruction: its address (args.pc_addr's JSON text as the input wrote
 * it, a string; p NULL: none) and its name's JSON text (quotes included).
 * Slices of one core with the same address are one instruction (a loop's
 * iterations are one), named as the first of them; slices without one,
 * by their name.
 */
struct csim_instr_key {
	struct csim_span pc_json;
	struct csim_span name_json;
};

/* The slice added last is instruction key. */
int csim_table_set_instr(struct csim_table *t, const struct csim_instr_key *key,
			 struct csim_error *err);

/* The address of an instruction that has one as a number ("0x" and hex
   digits): 1 and *addr, else 0. */
int csim_instr_key_address(const struct csim_instr_key *key, uint64_t *addr);

/* The instruction of an id in t->instrs. */
struct csim_instr_key csim_table_instr_key(const struct csim_table *t, uint32_t id);
int csim_table_add_sync(struct csim_table *t, const struct csim_sync_in *in,
			struct csim_error *err);
/*
 * A counter event kept verbatim: text is its whole JSON object, ts its
 * grid time, or NULL when its ts does not fit the grid.
 */
int csim_table_add_counter(struct csim_table *t, const struct csim_owner *o,
			   struct csim_span text, const int64_t *ts,
			   struct csim_error *err);

/* What the notes print for each reason. */
extern const char *const csim_skip_reason_texts[CSIM_SKIP_COUNT];
extern const char *const csim_drop_reason_texts[CSIM_DROP_COUNT];

#endif
