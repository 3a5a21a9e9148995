/*
 * check_flows: the arrows. Both viewers key a v1 flow by (id, cat, name).
 *
 *   flow-duplicate  no two s events share an id: Perfetto never frees a v1
 *                   id, ignores the second s and draws its f from the first
 *   flow-pair       each (id, cat, name) has exactly one s and one f
 *   flow-order      the s comes first: after it on the ns grid, or at the
 *                   same ts and later in the file (both viewers drop an f
 *                   whose s they have not seen)
 */
#ifndef CSIM_CHECK_FLOWS_H
#define CSIM_CHECK_FLOWS_H

#include "check/check_state.h"

/* Reorders st->starts and st->ends. */
void csim_check_flows(struct csim_check_state *st);

#endif
