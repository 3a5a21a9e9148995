/*
 * lane_label: a lane's name as both traces show it (SPEC §4's label, with
 * the pipe's number for numbered pipes: "SIMT warp 3"; a companion lane by
 * its own name: "MTE2 cache"). The sub-lane's " #k" and why it exists are
 * the writers' to add.
 */
#ifndef CSIM_LANE_LABEL_H
#define CSIM_LANE_LABEL_H

#include <stddef.h>

#include "model/model.h"

/* The label in two parts: head[0..*head_n), then tail[0..*tail_n) after a space (tail NULL: none). */
void csim_lane_label(const struct csim_model *m, const struct csim_lane *lane,
		     const char **head, size_t *head_n, const char **tail, size_t *tail_n);

#endif
