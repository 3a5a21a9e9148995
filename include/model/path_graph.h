/*
 * path_graph: one core's dependency view (SPEC §13), what both the
 * critical-path walk and the what-if replay read; path_bind.h gives each
 * node its binding predecessor and its replay edges.
 *
 * Nodes are the core's instructions: slices counted as instructions by the
 * summary (not SET/WAIT, BAR, cache/ccu) that are not points, on any lane
 * but the noise ones (CACHEMISS, FLOWCTRL, ALL), plus WAIT_INTRA_BLOCK
 * slices wherever they lie (older producers put them on FLOWCTRL). They are
 * sorted by (start, end, slice index), with two end-ordered views (the
 * core's, each pipe's), each pipe's issue rate, the core's dependencies
 * grouped by consumer node and its cross-core releases by time.
 */
#ifndef CSIM_PATH_GRAPH_H
#define CSIM_PATH_GRAPH_H

#include <stddef.h>
#include <stdint.h>

#include "model/model.h"
#include "model/path_replay.h"

/* The slack of "at the same time", in ns: about three cycles of the
 * simulator's clock (1650-1850 MHz). */
#define CSIM_PATH_TOL_NS 2

/* The deepest pipe the graph reads from a trace (the simulator's are 1 to
 * 8 deep). */
#define CSIM_PATH_DEPTH_MAX 8

enum csim_path_bind {
	CSIM_BIND_HEAD,    /* nothing before it: the span's head */
	CSIM_BIND_FLAG,
	CSIM_BIND_CROSS,
	CSIM_BIND_PIPE,
	CSIM_BIND_ISSUE
};

struct csim_path_node {
	int64_t start, end;
	uint32_t slice, pipe;
	uint32_t from;       /* the binding predecessor (node index), or CSIM_NONE */
	uint32_t dep;        /* FLAG, CROSS: the binding dependency (index in
				the caller's deps), else CSIM_NONE */
	uint32_t input;      /* its place in the core's node_slices */
	uint8_t bind;        /* enum csim_path_bind */
	uint8_t cross;       /* a WAIT_INTRA_BLOCK slice: waiting on another core */
	/* CROSS: X's best local release (at or before its start) and, when an
	   in-core flag gave it, that dependency (else CSIM_NONE); `from` is
	   then the node that released it locally */
	uint32_t local_dep;
	int64_t local;
};

/* A node in an end-ordered view: its end inline, so a sweep reads it in order. */
struct csim_path_end_key {
	int64_t end;
	uint32_t pipe, node;
};

/* A cross-core release on the core: its time, its dependency, the node it
   released and that node's pipe. */
struct csim_path_release {
	int64_t at;
	uint32_t dep, node, pipe;
};

/* Where one pipe's nodes lie in by_pipe_end, and the sweep's place in them. */
struct csim_path_pipe_sweep {
	size_t lo, hi, at;
	uint32_t last_start;   /* the pipe's latest node so far in start order */
	uint32_t last_instr;   /* the same, not a cross-core WAIT */
	int64_t rate;          /* its issue rate: the least start-to-start gap
				  of a node started while the one before it
				  ran (INT64_MAX: it never overlapped) */
	/* its depth: the most of its instructions seen running at once (a
	   twin, starting with the one before it, counted once; at most
	   CSIM_PATH_DEPTH_MAX), and its latest instructions in start order,
	   recent[k % CSIM_PATH_DEPTH_MAX] the k-th (nrecent of them so far) */
	uint32_t depth, nrecent;
	uint32_t recent[CSIM_PATH_DEPTH_MAX];
};

/*
 * A graph with its scratch, reused core after core: build sizes it for the
 * largest core it has seen.
 */
struct csim_path_graph {
	struct csim_path_node *nodes;
	size_t n;
	struct csim_path_replay *replay;   /* where the replay's part goes */
	size_t base;                       /* node 0's index in it */
	int64_t first_ns, last_ns;   /* the core's whole span, every slice of it */
	struct csim_path_end_key *by_end;   /* by (end, node) */
	size_t end_hint;                     /* latest_end_by's last answer */
	/* scratch */
	struct csim_path_end_key *by_pipe_end;   /* by (pipe, end, node) */
	uint32_t *rank;                   /* node of the core's k-th slice */
	uint32_t *dep_of;                 /* dependencies by consumer (path_graph.c) */
	struct csim_path_release *releases;   /* the core's cross-core releases by time */
	size_t nreleases, cap_releases;
	size_t *dep0;
	struct csim_path_pipe_sweep *per_pipe;   /* by pipe id */
	size_t cap, cap_deps, cap_pipes;
};

/*
 * The deps of one core, given as indices into deps[] whose consumer slice
 * is one of the core's: the core's nodes are the slices node_slices[0..n)
 * (ascending indices, all of one pid, each a node by the rule above),
 * node_pos[slice] a node's place in its own core's list (CSIM_NONE: not a
 * node), its span [first_ns, last_ns]. Returns 0, or -1 when out of memory.
 */
struct csim_path_core_in {
	const uint32_t *node_slices;
	size_t n;
	const uint32_t *node_pos;
	const struct csim_dep *deps;
	const uint32_t *core_deps;
	size_t ndeps;
	int64_t first_ns, last_ns;
};

/* Fills g with the core's nodes, views and dependencies; its replay part
   goes into r after the cores already there. 0, or -1 (out of memory). */
int csim_path_graph_prepare(struct csim_path_graph *g, const struct csim_model *m,
			    const struct csim_path_core_in *in, struct csim_path_replay *r);
void csim_path_graph_release(struct csim_path_graph *g);

/* The twin before node i (path_bind.h), or CSIM_NONE. */
uint32_t csim_path_graph_twin(const struct csim_path_graph *g, uint32_t i);

/* Node i passed on its pipe's sweep: a pipe's instruction, unless a twin,
   becomes its latest (ps->recent). */
void csim_path_graph_pass(struct csim_path_graph *g, struct csim_path_pipe_sweep *ps, uint32_t i);

/* The node whose end freed the slot node i started in on a pipe of depth
   2 or more (the instruction ps->depth back, in start order), or
   CSIM_NONE. Called before csim_path_graph_pass(g, ps, i). */
uint32_t csim_path_graph_slot(const struct csim_path_pipe_sweep *ps);

/*
 * One end-ordered view swept up to instant t (rising call after call: *at
 * keeps the place): the latest node ending by t and starting before s, or
 * CSIM_NONE.
 */
uint32_t csim_path_graph_sweep(const struct csim_path_graph *g, const struct csim_path_end_key *v,
			       size_t lo, size_t hi, size_t *at, int64_t t, int64_t s);

/* The node ending last at or before t (ties: the later in start order), on
   any lane or on one pipe, or CSIM_NONE. */
uint32_t csim_path_graph_latest_end(struct csim_path_graph *g, int64_t t);
uint32_t csim_path_graph_pipe_end(const struct csim_path_graph *g, uint32_t pipe, int64_t t);

/* The latest cross-core release at or before t into a node of `pipe`, but
   dependency dep's own, or NULL. */
const struct csim_path_release *csim_path_graph_cross_release(const struct csim_path_graph *g,
							      int64_t t, uint32_t pipe, uint32_t dep);

/* Whether slice s is a node of the path's graph (the rule above). */
int csim_path_is_node(const struct csim_model *m, const struct csim_slice *s);

#endif
