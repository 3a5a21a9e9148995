/*
 * summary_mte: the MTE pipes' figures of the summary pass beyond their busy
 * time (SPEC §10).
 *
 * Bytes under --window: a slice's process_bytes count in proportion to the
 * part of its grid interval inside the window, so a narrow window never
 * inflates a bandwidth.
 *
 * Overlap: how much of each MTE pipe's busy time a compute pipe of the
 * same core is busy too, what double buffering buys: the
 * length of (union of the MTE pipe's intervals) ∩ (union of the intervals
 * of every compute pipe: CUBE, the vector family VECTOR/PUSHQ/RVEC*, FIXP),
 * on the grid intervals the busy figures use (clipped to a --window like
 * them). Part of the summary pass: as it sweeps a core's pipes it hands
 * each MTE or compute pipe's sorted intervals here, then asks for the
 * core's figures before the next core.
 */
#ifndef CSIM_SUMMARY_MTE_H
#define CSIM_SUMMARY_MTE_H

#include <stddef.h>
#include <stdint.h>

#include "model/cut.h"
#include "model/interval_group.h"
#include "model/model.h"

/*
 * The bytes of slice sl (moving `bytes`) inside w: bytes x (its grid
 * interval's ns inside w) / (its ns), rounded half up to whole bytes; all
 * of them for a zero-length slice (it meets w only inside it).
 */
uint64_t csim_mte_window_bytes(const struct csim_window *w, const struct csim_slice *sl,
			       uint64_t bytes);

enum csim_overlap_role { CSIM_OVERLAP_NONE, CSIM_OVERLAP_MTE, CSIM_OVERLAP_COMPUTE };

/* Busy runs of one core: each MTE pipe's (tagged with its record), and the
   compute pipes' merged into one sorted, disjoint list (tmp: for merging). */
struct csim_overlap {
	struct csim_interval *mte, *compute, *tmp;
	size_t nmte, mte_cap, ncompute, compute_cap, tmp_cap;
};

/* What a pipe is to the overlap: MTE1/2/3, a compute pipe, or neither. */
enum csim_overlap_role csim_overlap_role(const struct csim_model *m, uint32_t pipe);

/*
 * Adds the busy runs (the union) of intervals it[0..n), sorted by start,
 * of a pipe with `role`; rec: the pipe's record for an MTE pipe. Returns 0,
 * or -1 out of memory.
 */
int csim_overlap_add(struct csim_overlap *o, enum csim_overlap_role role, size_t rec,
		     const struct csim_interval *it, size_t n);

/*
 * Sets has_overlap and overlap_ns of every MTE record added since the last
 * call (recs[rec]) and starts the next core.
 */
void csim_overlap_finish_core(struct csim_overlap *o, struct csim_summary_pipe *recs);

void csim_overlap_release(struct csim_overlap *o);

#endif
