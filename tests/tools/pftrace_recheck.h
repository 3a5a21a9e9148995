/*
 * pftrace_recheck: the shared model of its modules. The tool checks a
 * trace.pftrace against the trace.clean.json of the same run
 * (docs/perfetto.md, SPEC §15); it shares no code with the converter.
 *
 *   pftrace_recheck.c         command line, problem lines, summary
 *   pftrace_recheck_util.c    arena, hash maps, strings
 *   pftrace_recheck_wire.c    the protobuf wire format, packets, interning
 *   pftrace_recheck_json.c    trace.clean.json, exact decimal nanoseconds
 *   pftrace_recheck_tracks.c  tracks, process and lane order
 *   pftrace_recheck_slices.c  slices per track, flatness, depth
 *   pftrace_recheck_match.c   slices and their args vs the JSON
 *   pftrace_recheck_flows.c   flows and counters vs the JSON
 *   pftrace_recheck_facts.c   --facts: the file's facts for scenario facts
 */
#ifndef PFTRACE_RECHECK_H
#define PFTRACE_RECHECK_H

#include <stddef.h>
#include <stdint.h>

#define NONE ((size_t)-1)

/* ---- reporting (pftrace_recheck.c) ---- */

/* One problem line "pftrace_recheck: KIND: ...": the first 20 are printed,
 * all are counted; any makes the exit status 1. */
void problem(const char *kind, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
/* A "depth differs" line (a lane's SPEC §4 depth is not its depth on the
 * pftrace's integer intervals): a problem with --strict-depth, else a
 * counted note on stderr (printed under the same cap). */
void depth_note(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
/* Whether problem lines are still printed (costly hints only then). */
int reporting(void);

/* ---- memory and maps (pftrace_recheck_util.c) ---- */

/* Arena allocation, zeroed, freed all at once by arena_free(); an
 * allocation that fails ends the tool (exit 2). */
void *xalloc(size_t size);
/* *items grown to hold at least need elements of size bytes. */
void grow(void **items, size_t *cap, size_t need, size_t size);
void arena_free(void);
char *xstrndup(const char *s, size_t n);
/* A NUL-terminated concatenation of its string arguments, NULL-ended. */
char *xcat(const char *first, ...);

/* String -> index map (the first index stored wins; see map_put). */
struct smap {
	const char **keys;
	size_t *vals;
	size_t cap, n;
};
size_t smap_get(const struct smap *m, const char *key);
/* Stores key -> val unless key is there; returns the value now stored. */
size_t smap_put(struct smap *m, const char *key, size_t val);
/* Stores key -> val, replacing any value. */
void smap_set(struct smap *m, const char *key, size_t val);

/* uint64 -> string map, for interned ids. */
struct umap {
	uint64_t *keys;
	const char **vals;
	size_t cap, n;
};
const char *umap_get(const struct umap *m, uint64_t key);
void umap_put(struct umap *m, uint64_t key, const char *val);
void umap_clear(struct umap *m);

/* ---- the decoded pftrace (pftrace_recheck_wire.c) ---- */

enum { TK_OTHER, TK_ROOT, TK_PROCESS, TK_THREAD, TK_COUNTER };
enum { EV_UNSPECIFIED, EV_BEGIN, EV_END, EV_INSTANT, EV_COUNTER };
enum { AN_NONE, AN_BOOL, AN_INT, AN_DOUBLE, AN_STRING, AN_JSON };

struct ptrack {
	uint64_t uuid, parent;
	int has_parent, has_rank, has_pid, has_tid, kind;
	int32_t rank, pid;
	int64_t tid;
	long porder, torder; /* -1 when absent */
	const char *name;    /* TrackDescriptor.name, or NULL */
	const char *pname;   /* ProcessDescriptor.process_name, or NULL */
	const char *tname;   /* ThreadDescriptor.thread_name, or NULL */
	size_t packet;
	/* set by tracks_check */
	size_t proc;       /* the process track of a thread or counter track */
	const char *label; /* a thread track's lane label */
	size_t lane;       /* a thread track's lane (index into ctx.lanes) */
	int points;        /* a thread track named "... (points)" */
};

struct pannot {
	const char *name;
	int kind;
	int64_t i;
	double d;
	const char *s;
	unsigned mark;
};

struct pevent {
	uint64_t track_uuid;
	int has_track, type, has_ts, has_value;
	int64_t ts;
	size_t packet, track;
	const char *name;
	struct pannot *ann;
	size_t nann;
	uint64_t *flows, *terms;
	size_t nflows, nterms;
	double value;
};

/* ---- trace.clean.json (pftrace_recheck_json.c) ---- */

struct jproc {
	const char *pid, *name;
	double sort;
	size_t order;
};

struct jthread {
	const char *pid, *tid, *name, *label;
	double sort;
	size_t order, proc;
};

struct jslice {
	size_t line, thread, match;
	const char *key; /* "pid\x1ftid", until resolved into thread */
	const char *name, *args; /* args: the raw JSON text, or NULL */
	size_t args_len;
	int64_t b, e;     /* exact ns of ts and of ts + dur */
	double a_f, b_f;  /* ts*1000 and (ts+dur)*1000 as doubles (SPEC §4) */
	double ts, dur;   /* in µs, as doubles */
};

struct jarrow {
	size_t line, thread;
	const char *key; /* "pid\x1ftid" */
	uint64_t id;
	char ph;
	double ts;
};

enum { CV_NUMBER, CV_NUMSTR, CV_OTHER };

struct jcounter {
	size_t line;
	const char *proc, *track; /* process name, "<name> <key>" */
	int64_t ts;
	int kind;
	double v;
};

/* One fact of the trace's metadata: an integer's text is its decimal. */
struct meta_item {
	const char *name, *text;
	int is_int;
};

struct meta_list {
	struct meta_item *items;
	size_t n, cap;
};

/* ---- the whole check ---- */

struct pslice {
	size_t track, json, pos;
	int64_t begin, end;
	int instant;
	struct pevent *ev; /* BEGIN or INSTANT: name, args, flows */
};

struct lane {
	size_t proc; /* process track */
	const char *label;
	size_t regular, points_tracks, slices; /* regular: not "(points)" */
	int64_t depth; /* peak of integer intervals, >= 1 with a slice */
};

struct ctx {
	struct ptrack *tracks;
	struct pevent *events;
	size_t ntracks, nevents, npackets, tcap, ecap;
	size_t *by_uuid;         /* track indices sorted by uuid */
	struct smap proc_by_pid; /* "pid" (decimal) -> process track */

	struct jproc *procs;
	struct jthread *threads;
	struct jslice *jslices;
	struct jarrow *arrows;
	struct jcounter *counters;
	size_t nprocs, nthreads, njslices, narrows, ncounters;
	size_t pcap, thcap, jscap, acap, ccap;
	struct smap jproc_map, jthread_map;

	struct pslice *slices; /* sorted by track, begin, file position */
	size_t nslices, *track_first, *track_count;
	struct lane *lanes;
	size_t nlanes, lcap;
	struct smap lane_map;
	size_t instants, annotations, flows, samples;
	struct meta_list pmeta, jmeta; /* the pftrace's, the JSON's */
	int jmeta_present;
	size_t metadata;               /* facts matched */
};

/* Decodes PATH into c->tracks and c->events, checking the wire format,
 * the packets' sequence and the interning. 0 when the file is unreadable. */
int wire_read(const char *path, struct ctx *c);
/* --facts: prints the file's facts (pftrace_recheck_facts.c). */
int facts_print(struct ctx *c);
/* Reads trace.clean.json. 0 when the file is unreadable. */
int json_read(const char *path, struct ctx *c);
void tracks_check(struct ctx *c);
/* The track described with uuid, or NONE (after tracks_check). */
size_t track_by_uuid(const struct ctx *c, uint64_t uuid);
void order_check(struct ctx *c);
void slices_build(struct ctx *c);
void depth_check(struct ctx *c);
void match_slices(struct ctx *c);
void match_flows(struct ctx *c);
void match_counters(struct ctx *c);
/* The metadata (pftrace_recheck_meta.c): a ChromeMetadata entry of the
 * pftrace, the JSON's "metadata" object s[0..n), and their comparison. */
void meta_add_pftrace(struct ctx *c, const char *name, const char *text, int is_int);
void meta_read_json(struct ctx *c, const char *s, size_t n);
void match_metadata(struct ctx *c);

/* ---- shared JSON helpers (pftrace_recheck_json.c) ---- */

struct jmem {
	const char *key, *val; /* raw text: key without its quotes */
	size_t keylen, vallen;
};
struct jiter {
	const char *s;
	size_t i, n;
};
/* Iterates the members of the JSON object text s[0..n) (valid JSON). */
int jiter_start(struct jiter *it, const char *s, size_t n);
int jiter_next(struct jiter *it, struct jmem *m);
/* The unescaped string of a raw JSON string (with its quotes), or NULL. */
char *json_unescape(const char *raw, size_t n);
/* Is the raw number text an integer (no fraction, no exponent)? */
int json_is_integer(const char *raw, size_t n);
/* Exact nanoseconds of µs decimal text a (+ b when b is not NULL), rounded
 * half away from zero. 0 when out of range. */
int dec_ns(const char *a, size_t an, const char *b, size_t bn, int64_t *out);

/* The lane label of a thread name: without a trailing " #k..." suffix. */
const char *lane_label(const char *thread_name);
/* max(0.25, |a| * 2^-22), SPEC §4's float-noise tolerance in ns. */
double noise_tol(double a_ns);

#endif
