/*
 * summary_heat: one core's WAIT-stall matrix for summary.html (SPEC §10) as
 * an HTML table: one row per pipe that waited in WAIT_FLAG, one column per
 * producing pipe it waited on (lane order, "unknown" last), each cell the
 * union of those waits in µs and as a share of the core's span, its
 * background darker as the share grows (a heat map). Per core, not summed
 * over cores: a wait means something against its own core's span.
 */
#ifndef CSIM_SUMMARY_HEAT_H
#define CSIM_SUMMARY_HEAT_H

#include "base/csim_error.h"
#include "model/model.h"
#include "write/out_file.h"

/*
 * Writes the matrix of core c (or a line saying it never waited) into o.
 * Out of memory is CSIM_E_OUTPUT; a write error is left for commit().
 */
int csim_heat_write(const struct csim_model *m, const struct csim_summary_core *c,
		    struct csim_out *o, struct csim_error *err);

#endif
