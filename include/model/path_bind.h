/*
 * path_bind: each node of a core's dependency view (path_graph.h) gets one
 * binding predecessor, the constraint that released it last (SPEC §13,
 * docs/critical-path.md "The binding predecessor"), and its edges in the
 * what-if replay (path_replay.h).
 *
 * For a node X starting at s:
 *   - PIPE: the node on X's pipe with the latest end at or before
 *     s + CSIM_PATH_TOL_NS, when that end is at or after s - TOL (the pipe
 *     was busy, or full: its depth limit: a slot freed), or the pipe's
 *     previous node when X started at its issue rate (or 1 ns more) after
 *     that one's start while it still ran (the later of the two; the slot
 *     on a tie), and later than every flag into X;
 *   - else FLAG, when a flag released X (a dependency whose consumer is X
 *     and whose WAIT blocked, csim_flag_blocked(): a WAIT reached after its
 *     flag was set held nothing): the one whose WAIT ended last; CROSS when
 *     its producer is on another core. The trace cannot tell the pipe's
 *     dispatch delay after a release from a late issue, so the whole gap
 *     from the producer's end is the flag's. A CROSS binding holds X only
 *     for its excess over X's best local release: the latest of its
 *     in-core WAITs' ends (a late one begun before the cross-core release
 *     included; for one begun as it came, queued behind it, its flag's
 *     producer's end), what its pipe allowed (the end of such a WAIT taken from
 *     the queue after the pipe's latest-ending node began; else the issue
 *     rate behind a pipelined instruction still running; else that node's
 *     end) and the cross-core WAIT's begin (X's issue at the latest); the
 *     predecessor is what gave that release;
 *   - else, for a micro-op of Ascend950's vector functions (an RVEC*
 *     lane), PIPE from the VF (of the PUSHQ nodes so far, the one ending
 *     last) when X started while it ran: the VF launched it, no flag
 *     records that;
 *   - else ISSUE: the scalar unit had not yet issued X; the predecessor is
 *     the node of any lane with the latest end at or before s + TOL, or
 *     none (HEAD: the start of the core's span).
 * Twins (nodes of one pipe with the same start, none a cross-core WAIT:
 * MOV_SPR_XN starts with its transfer) are released as the first of them,
 * which holds their flags: arrows bind a consumer to the earliest twin.
 * Every candidate starts strictly before s, so walking back terminates.
 * "Latest end" ties go to the later start, then to the later slice index.
 *
 * For the replay, each node also gets edges: the binding one with the lag
 * that reproduces s exactly, and the looser ones the trace shows (every
 * flag into X, the pipe's latest end or, on a pipe seen running two or
 * more at once, the slot X took: the end of the instruction that many
 * back; the pipe's previous start: a pipe starts its instructions in
 * order) with lags that never exceed s. A
 * constraint from another core's producer is its release's fixed time,
 * linked to that producer when its core is replayed too. A dependency
 * whose WAIT did not block was released by the WAIT's begin, not its
 * producer: it gets an edge from its producer's end and one from the node
 * ending last at or before the WAIT's begin (docs/critical-path.md,
 * "What-if").
 */
#ifndef CSIM_PATH_BIND_H
#define CSIM_PATH_BIND_H

#include "model/path_graph.h"

/* Prepares g for the core (csim_path_graph_prepare()) and binds its nodes;
   their replay part goes into r. 0, or -1 (out of memory). */
int csim_path_bind_core(struct csim_path_graph *g, const struct csim_model *m,
			const struct csim_path_core_in *in, struct csim_path_replay *r);

#endif
