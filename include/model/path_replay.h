/*
 * path_replay: the what-if's replay (SPEC §13): the dependency graphs of
 * the cores of a run that sync with one another, held as one, so that a
 * faster pipe on one core moves the cores that wait on it. path_bind
 * builds each core's part into it (csim_path_bind_core()); the path
 * pass links the cross-core edges between the parts and replays the
 * whole once per pipe (docs/critical-path.md, "What-if").
 */
#ifndef CSIM_PATH_REPLAY_H
#define CSIM_PATH_REPLAY_H

#include <stddef.h>
#include <stdint.h>

/*
 * A replay constraint on a node's start: times[at] + lag, where times[0]
 * is 0 (lag is then a fixed time) and times[1 + 2i], times[2 + 2i] are
 * node i's replayed start and end.
 */
struct csim_path_edge {
	int64_t lag;
	uint32_t at;
};

/* A node's place in times[]: its start, its end. */
#define CSIM_REPLAY_START(i) ((uint32_t)(1 + 2 * (size_t)(i)))
#define CSIM_REPLAY_END(i) ((uint32_t)(2 + 2 * (size_t)(i)))

/* A node as the trace has it; pipe CSIM_NONE: never halved (a cross-core wait). */
struct csim_path_replay_node {
	int64_t start, end;
	uint32_t pipe;
};

/*
 * An edge held at a fixed time because its cause is on another core (a
 * cross-core dependency): linked to the node that released it there when
 * that core is replayed too, so that it moves with it.
 */
struct csim_path_xedge {
	size_t edge;
	uint32_t node;       /* the node whose constraint it is */
	uint32_t dep;        /* the dependency (the graph input's deps[]) */
};

/* One core's part: its nodes [node0, node0 + n) and its whole span. */
struct csim_path_replay_core {
	size_t node0, n;
	int64_t first_ns, last_ns;
};

struct csim_path_replay {
	struct csim_path_replay_node *nodes;
	size_t n, cap;
	size_t *edge0;        /* node i's edges: edges[edge0[i], edge0[i + 1]) */
	size_t cap_edge0;
	struct csim_path_edge *edges;
	size_t nedges, cap_edges;
	struct csim_path_xedge *xedges;
	size_t nxedges, cap_xedges;
	struct csim_path_replay_core *cores;
	size_t ncores, cap_cores;
	uint32_t *order;      /* the nodes by start, when there are several cores */
	size_t cap_order;
	uint32_t *by_end;     /* each core's nodes by end (csim_path_replay_index_ends()) */
	size_t cap_by_end;
	int64_t *times;
	size_t cap_times;
};

/* Empties r for the next set of cores, keeping its memory. */
void csim_path_replay_clear(struct csim_path_replay *r);
void csim_path_replay_release(struct csim_path_replay *r);

/* Room for n more nodes and nedges, nxedges more edges; 0 or -1 (out of memory). */
int csim_path_replay_reserve(struct csim_path_replay *r, size_t n, size_t nedges,
			     size_t nxedges);

/* Ends a core's part: the nodes added since the last one; 0 or -1. */
int csim_path_replay_end_core(struct csim_path_replay *r, int64_t first_ns, int64_t last_ns);

/*
 * Xedge k now follows node `producer` (when it started before the edge's
 * node, so that the replay meets it first): the end it had in the trace
 * gives the same start as the fixed time did.
 */
void csim_path_replay_link(struct csim_path_replay *r, size_t k, uint32_t producer);

/* Sorts each core's nodes by end, for csim_path_replay_latest_end(). 0 or -1. */
int csim_path_replay_index_ends(struct csim_path_replay *r);

/* The node of core c ending last at or before t (ties: the later added), or CSIM_NONE. */
uint32_t csim_path_replay_latest_end(const struct csim_path_replay *r, size_t c, int64_t t);

/* The order the replay visits the nodes in; call once every core is in. 0 or -1. */
int csim_path_replay_prepare(struct csim_path_replay *r);

/*
 * Each core's span (last end minus its first_ns) when every node on `pipe`
 * takes half as long (rounded up; CSIM_NONE: none does) and each node
 * starts as its edges allow; what follows a core's last node (the tail of
 * its span) keeps its length. spans: one per core, in the order added.
 * With no pipe changed these are the spans.
 */
void csim_path_replay_run(struct csim_path_replay *r, uint32_t pipe, int64_t *spans);

#endif
