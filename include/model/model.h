/*
 * model: the event table plus everything the passes derive from it, in the
 * form the writers consume. One model per run; csim_model_release() frees it.
 *
 * The model is built in two steps: reading the input fills the table, then
 * csim_model_classify_pipes() classifies every interned pipe once. The
 * passes (pass_*.h, run by passes.h) derive the other parts. Each pass has
 * the same signature (csim_pass_fn), reads and writes only the model, does
 * no I/O, declares the parts it requires and provides (struct
 * csim_pass_def), and gives the same result when run again; so each can be
 * tested alone on a hand-built model.
 */
#ifndef CSIM_MODEL_H
#define CSIM_MODEL_H

#include <math.h>
#include <stddef.h>
#include <stdint.h>

#include "base/csim_error.h"
#include "model/critical_path.h"
#include "model/cut.h"
#include "model/exact_tracks.h"
#include "model/event_table.h"
#include "model/instr_stats.h"
#include "model/pipe_table.h"
#include "model/run_info.h"
#include "model/summary.h"

struct csim_progress;   /* base/progress.h */

/*
 * Kept slices of one (pid, pipe), packed into nsub sub-lanes; depth is the
 * pipeline depth of SPEC §4 (model/occupancy.h), at most nsub: sub-lanes
 * depth..nsub-1 exist for the viewers' rounding only.
 */
struct csim_lane {
	uint32_t pid, pipe;
	uint32_t nsub;
	uint32_t depth;
};

/* A sync flag: its B and E records joined by the pair pass. */
struct csim_flag {
	double begin_a;           /* its B in float ns (SPEC §5.3's SET instant);
				     on the grid: csim_flag_begin() */
	int64_t end;              /* its E on the grid */
	uint32_t order;           /* record index of its first record */
	uint32_t pid, pipe;
	uint32_t id;              /* id in table->ids, or CSIM_NONE */
	uint32_t detail;          /* index in table->details, or CSIM_NONE */
	uint8_t kind;             /* enum csim_sync_kind */
	uint8_t intra;            /* cross-core: matched by pass_intra, not pass_flags */
	uint16_t run;             /* of its B record (struct csim_sync_rec) */
};

/* A flag's B on the grid: llround(ts * 1000), as every grid time. */
static inline int64_t csim_flag_begin(const struct csim_flag *f)
{
	return llround(f->begin_a);
}

/* A WAIT's length on the grid, E minus B, in [0, UINT32_MAX]. */
static inline uint32_t csim_flag_wait_ns(const struct csim_flag *f)
{
	int64_t ns = f->end - csim_flag_begin(f);

	return ns <= 0 ? 0 : ns >= (int64_t)UINT32_MAX ? UINT32_MAX : (uint32_t)ns;
}

/*
 * Whether an in-core WAIT blocked (SPEC §13, docs/critical-path.md "The
 * binding predecessor"): its SET ended after the WAIT began, the WAIT
 * lasted CSIM_FLAG_BLOCKED_NS or more (one begun a cycle before its SET
 * rounds to 1 ns), or the SET ended in the ns the WAIT began and the WAIT
 * lasted that 1 ns (the SET fired as it began). A WAIT reached after its flag was set still lasts a
 * cycle on the simulator (0 or 1 ns on the grid) and held nothing. A
 * cross-core WAIT's is decided by its releasing SET (pass_intra.c).
 */
#define CSIM_FLAG_BLOCKED_NS 2

static inline uint8_t csim_flag_blocked(const struct csim_flag *set, const struct csim_flag *wait)
{
	return set->end > csim_flag_begin(wait) || csim_flag_wait_ns(wait) >= CSIM_FLAG_BLOCKED_NS ||
	       (set->end == csim_flag_begin(wait) && csim_flag_wait_ns(wait) == 1);
}

/*
 * One SET -> WAIT arrow, bound to its two anchor slices: a flag's, or a
 * cross-core sync's (flag_id then holds its sync_id).
 */
struct csim_arrow {
	uint32_t producer, consumer;  /* slice indices */
	int64_t s_half_ns;            /* arrow ends in half-ns units (2 * ns) */
	int64_t f_half_ns;
	uint32_t producer_pipe, consumer_pipe;
	uint64_t flag_id;
	int64_t set_begin;            /* ordering key: SET begin, then input order */
	uint32_t set_order;           /* the SET flag's order */
	uint8_t has_flag_id;
	uint8_t running;              /* anchored on a producer still running at
					 the SET: no slice had completed (§5.3) */
};

/*
 * One SET -> WAIT dependency of the critical path (SPEC §13): the two
 * slices an arrow binds, for every pair the flag and cross-core passes
 * match and anchor, also where the trace draws no arrow because a lane is
 * dropped (the scalar lanes).
 */
/*
 * A cross-core dependency's SET as the what-if replays it (pass_intra.c):
 * its [begin, end] on the grid, and the dependency whose SET released the
 * WAIT (docs/critical-path.md "What-if"): the SET of the same sync flag
 * between the same cores that fired last by the WAIT's end, its own or a
 * later one (the flag counts: the producer pairs ids by count, not by
 * release).
 */
struct csim_intra_set {
	int64_t begin, end;
	uint64_t key;        /* the SET's sync_id, or UINT64_MAX: none */
	uint32_t release;    /* index in intra_deps[] */
};

struct csim_dep {
	uint32_t producer, consumer;  /* slice indices */
	int64_t release;              /* the WAIT's end on the grid */
	uint32_t producer_pipe, consumer_pipe;   /* the pipes the flag names */
	uint8_t running;              /* as csim_arrow's */
	uint8_t blocked;              /* the WAIT held its consumer:
					 csim_flag_blocked() */
	uint32_t wait_ns;             /* the WAIT's length on the grid (its begin:
					 release - wait_ns); 0: it ended as it
					 began, the flag was set already
					 (csim_flag_wait_ns()) */
};

enum csim_flag_skip {
	CSIM_FSKIP_INCOMPLETE,        /* a B without its E, or an E without its B */
	CSIM_FSKIP_NO_WAIT,
	CSIM_FSKIP_NO_SET,
	CSIM_FSKIP_NO_KEY,            /* no id and no detail to match by */
	CSIM_FSKIP_PRODUCER_DROPPED,
	CSIM_FSKIP_CONSUMER_DROPPED,
	CSIM_FSKIP_NO_PRODUCER,
	CSIM_FSKIP_NO_CONSUMER,
	CSIM_FSKIP_BACKWARDS,         /* consumer slice starts before the producer's */
	CSIM_FSKIP_COUNT
};

/*
 * The WAITs of one core that no SET released (the flag pass's NO_SET
 * count, per core): the diagnosis reads a core still blocked when its
 * trace stops as a sign of a run cut by the simulator's timeout.
 */
struct csim_unreleased {
	uint64_t n;            /* such WAITs on the core */
	int64_t last_end;      /* the latest of their ends; meaningful when n > 0 */
};

/* One output thread: sub-lane `sub` of a lane. */
struct csim_thread {
	uint32_t lane;
	uint32_t sub;
	int sort_index;
};

/*
 * What the passes and the writer need to know about one interned pipe name,
 * looked up once per run instead of once per slice, lane or arrow.
 */
struct csim_model_pipe {
	const struct csim_pipe_info *info;   /* order, label, cname, class */
	int drop;     /* enum csim_slice_drop for every slice on it, or -1: kept */
	uint32_t anchor_lane;   /* the lane a flag on this pipe anchors on: its
				   own id, or one shared by the vector family */
};

/* The parts of a model that passes require and provide (bit set). */
enum csim_model_part {
	CSIM_PART_SYNCS = 1u << 0,    /* table.syncs[]: from reading the input */
	CSIM_PART_PIPES = 1u << 1,    /* pipes[]: csim_model_classify_pipes() */
	CSIM_PART_FLAGS = 1u << 2,    /* flags[], flag_skips[CSIM_FSKIP_INCOMPLETE] */
	CSIM_PART_KEPT = 1u << 3,     /* kept on every row, kept_slices, slice_drops[] */
	CSIM_PART_LANES = 1u << 4,    /* sublane on every kept row, lanes[] (nsub, depth), extra_sublanes */
	CSIM_PART_ARROWS = 1u << 5,   /* arrows[], the other flag_skips[], unreleased */
	CSIM_PART_ORDER = 1u << 6,    /* processes[], threads[] */
	CSIM_PART_INTRA = 1u << 7,    /* intra_arrows[], intra_skips[], intra_unreleased */
	CSIM_PART_SUMMARY = 1u << 8,  /* summary */
	CSIM_PART_DIAGNOSIS = 1u << 9,/* diagnosis */
	CSIM_PART_CUT = 1u << 10,     /* cut's in-flags (--core, --window) */
	CSIM_PART_DEPS = 1u << 11,    /* deps[] */
	CSIM_PART_PATH = 1u << 12,    /* path */
	CSIM_PART_TRACKS = 1u << 13,  /* tracks (when wanted) */
	CSIM_PART_WAITS = 1u << 14    /* waits[] (summary_waits.h) */
};

/* Parts no writer reads: csim_model_drop() may free them after the passes. */
#define CSIM_PARTS_TRANSIENT (CSIM_PART_SYNCS | CSIM_PART_FLAGS | CSIM_PART_DEPS | \
			      CSIM_PART_WAITS)

struct csim_interval;

struct csim_model {
	struct csim_table table;
	/* the lane rule's choices (--keep-scalar, --keep-cache-ccu): part of the
	   model, so that passes need no options; zero drops both */
	struct csim_lane_rule rule;
	/* the run's API_INSTR, boiled down (empty when it has none): from
	   reading, like the table */
	struct csim_instr_stats instr;
	/* pipe classes, one per pipe id */
	struct csim_model_pipe *pipes;
	size_t npipes;
	/* lane pass */
	uint64_t kept_slices;
	uint64_t slice_drops[CSIM_SDROP_COUNT];
	/* packing pass: lanes sorted by (pid, pipe) */
	struct csim_lane *lanes;
	size_t nlanes;
	uint64_t extra_sublanes;      /* sub-lanes beyond the first, over all lanes */
	/* tracks pass: trace.pftrace's tracks; `wanted` is a choice, like rule */
	struct csim_exact_tracks tracks;
	/* pair pass: flags in input order of their first record */
	struct csim_flag *flags;
	size_t nflags;
	/* flag pass */
	struct csim_arrow *arrows;    /* in output order, ids 1..narrows */
	size_t narrows;
	uint64_t flag_skips[CSIM_FSKIP_COUNT];
	uint64_t flag_running;        /* arrows[] anchored on a running producer */
	struct csim_unreleased *unreleased;   /* per pid id; NULL: no flags */
	struct csim_dep *deps;        /* in match order */
	size_t ndeps;
	/* cross-core pass: written after the flags' arrows, ids going on */
	struct csim_arrow *intra_arrows;   /* in SET-begin order */
	size_t nintra_arrows;
	uint64_t intra_skips[CSIM_FSKIP_COUNT];   /* but for incomplete B/E,
						     counted by the pair pass */
	uint64_t intra_running;       /* intra_arrows[] on a running producer */
	struct csim_dep *intra_deps;  /* every anchored pair, in match order */
	size_t nintra_deps;
	struct csim_intra_set *intra_sets;   /* per intra_deps[] */
	struct csim_unreleased *intra_unreleased;   /* per pid id (the waiting
						       core); NULL: no keyed flags */
	/* order pass */
	uint32_t *processes;          /* pid ids in output order */
	size_t nprocesses;
	struct csim_thread *threads;  /* grouped by process, in output order */
	size_t nthreads;
	/* waits pass: the summary's blocked intervals, grouped */
	struct csim_interval *waits;
	size_t nwaits, waits_cap;
	/* summary pass */
	struct csim_summary summary;
	/* path pass: the critical path of every summary core */
	struct csim_path path;
	/* diagnosis pass */
	struct csim_diagnosis diagnosis;
	/* --core / --window: the choices, like rule; the cut pass fills the
	   rest. The summary pass clips to the window too (docs/decisions.md) */
	struct csim_cut cut;
	/* the run's progress line (base/progress.h), ticked by the runner
	   between passes, the passes themselves doing no I/O; NULL: none */
	struct csim_progress *progress;
	/* --run all of a file of several runs: the run this model holds, which
	   every pid then names (table.pid_names "core0.cubecore0 run 2", and
	   the writers' pid texts); 0: the pids as the dump names them */
	uint64_t run_label;
	/* which run of its file this is, and its OP_BASIC_INFO: from reading */
	struct csim_run_info run;
};

typedef int (*csim_pass_fn)(struct csim_model *m, struct csim_error *err);

/*
 * A pass and its contract: it may run once every part in `requires` is in
 * the model, and afterwards the parts in `provides` are. It writes nothing
 * else, and leaves the parts it requires as it found them.
 */
struct csim_pass_def {
	csim_pass_fn run;
	unsigned requires;    /* enum csim_model_part bits */
	unsigned provides;
};

void csim_model_init(struct csim_model *m);
void csim_model_release(struct csim_model *m);

/*
 * Completes the model once the table is filled (CSIM_PART_PIPES): every
 * interned pipe gets its pipe_table entry and whether the lane rule drops
 * all of its slices (noise lanes always, scalar lanes unless the rule
 * keeps them).
 * Running it again recomputes the same classes.
 */
int csim_model_classify_pipes(struct csim_model *m, struct csim_error *err);

/*
 * Frees the parts in `parts` (CSIM_PARTS_TRANSIENT bits), to lower peak
 * memory once no pass that is still to run requires them.
 */
void csim_model_drop(struct csim_model *m, unsigned parts);

/*
 * Names the model's processes after its run (SPEC §2.1): every pid name
 * gains " run <k>" and run_label is set. Out of memory is the only failure
 * (CSIM_E_INPUT); the names are then unchanged.
 */
int csim_model_label_run(struct csim_model *m, uint64_t run, struct csim_error *err);

/* The lane of (pid, pipe) in lanes[] (sorted by pid, then pipe), or nlanes. */
size_t csim_model_find_lane(const struct csim_model *m, uint32_t pid, uint32_t pipe);

/* Counts the WAIT f, which no SET released, on its core in per_pid. */
void csim_unreleased_add(struct csim_unreleased *per_pid, const struct csim_flag *f);

/* What the notes print for each reason. */
extern const char *const csim_flag_skip_texts[CSIM_FSKIP_COUNT];

#endif
