/*
 * path_lane: the critical path (SPEC §13) as a lane of the trace. Every
 * core with a path gets a thread "critical path", sorted above its pipes
 * (sort index -1: the pipes' indices start at 0), holding one X event per
 * segment. The segments tile the core's span on the ns grid, so the lane
 * is flat in both viewers by construction: its events touch and never
 * overlap, and each lasts at least a ns.
 */
#ifndef CSIM_PATH_LANE_H
#define CSIM_PATH_LANE_H

#include <stddef.h>
#include <stdint.h>

#include "model/model.h"
#include "write/slice_writer.h"

/* The lane's tid and thread_sort_index. */
#define CSIM_PATH_LANE_TID "critical path"
#define CSIM_PATH_LANE_SORT_INDEX (-1)

/*
 * The path of the trace process pid, or NULL when it has none (no
 * instruction, or an empty path). *next walks the summary's cores along
 * the processes: pass 0 for the first process and each process in turn.
 */
const struct csim_path_core *csim_path_lane_core(const struct csim_model *m, size_t *next,
						 uint32_t pid);

/*
 * A segment's name, in the words of the summary table's path line ("MTE2",
 * "wait MTE2->VECTOR", "cross-core wait", "issue"): its length, of which
 * the first cap bytes are in buf.
 */
#define CSIM_PATH_LANE_NAME_MAX 256
size_t csim_path_lane_name(const struct csim_model *m, const struct csim_path_seg *g,
			   char *buf, size_t cap);

/*
 * A segment's name as put_segment_name writes it into the JSON, as text
 * ("MTE2", "wait MTE2->VECTOR", "cross-core wait", "issue"): its length,
 * of which the first cap bytes are in buf.
 */
size_t csim_path_lane_name(const struct csim_model *m, const struct csim_path_seg *g,
			   char *buf, size_t cap);

/* The lane's thread_name and thread_sort_index events for process pid. */
void csim_path_lane_meta(struct csim_slice_writer *w, uint32_t pid);

/*
 * One X event per segment of every path whose process the cut keeps, in
 * process order, each core's segments in time order.
 */
void csim_path_lane_write(struct csim_slice_writer *w);

#endif
