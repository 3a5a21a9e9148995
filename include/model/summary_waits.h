/*
 * summary_waits: the blocked intervals the summary counts (SPEC §8's wait
 * figures), as interval items grouped by (pid, pipe), and the pass that
 * takes them from the paired flags and the cross-core WAIT slices.
 *
 * Per WAIT flag one item, on its pipe, by its producer (the PIPE: of its
 * detail; none without one): the summary takes a pipe's wait time as the
 * union of its items over every producer, and the time by producer as
 * each producer's union. Per cross-core wait (a WAIT_INTRA_BLOCK flag or
 * slice) one item on the core's cross-core pseudo-pipe, after every pipe.
 * With --window each is clipped to the window, and one outside it is not
 * taken.
 *
 * A pass of its own, ahead of the summary, so that the flags (40 bytes
 * each, which no later pass reads) are freed before the summary groups its
 * instruction slices; one item a WAIT, not one for its pipe and one for
 * its producer, since the flags are still held while they are made: on
 * the dense-heavy benchmark shape the flags and two items a WAIT were
 * 86 MB at the run's peak, with one 67 MB.
 *
 * Requires CSIM_PART_FLAGS; provides CSIM_PART_WAITS: m->waits[], sorted
 * by (pid, pipe, what/producer, start, end) (csim_interval_group), replaced
 * on every run.
 */
#ifndef CSIM_SUMMARY_WAITS_H
#define CSIM_SUMMARY_WAITS_H

#include "model/interval_group.h"
#include "model/model.h"

/* What an item's interval counts towards, in the order a pipe's run holds them. */
enum csim_item_what { CSIM_ITEM_INSTR, CSIM_ITEM_WAIT_BY, CSIM_ITEM_CROSS };

/* The pseudo-pipe that holds a core's cross-core waits: after every pipe. */
#define CSIM_ITEM_CROSS_PIPE CSIM_INTERVAL_LAST_PIPE

static inline unsigned csim_item_what(const struct csim_interval *it)
{
	return (unsigned)(it->sub >> 32);
}

/* An item: a WAIT whose E comes before its B in time blocked for no time. */
struct csim_interval csim_item_make(uint32_t pid, uint32_t pipe, enum csim_item_what what,
				    uint32_t producer, int64_t start, int64_t end);

extern const struct csim_pass_def csim_pass_waits_def;

int csim_pass_waits(struct csim_model *m, struct csim_error *err);

#endif
