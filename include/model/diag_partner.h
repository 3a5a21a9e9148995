/*
 * diag_partner: whom a core waits on across cores (SPEC §10's cross-core
 * line names "the core and pipe waited on"). Each cross-core arrow of the
 * intra pass joins a WAIT on one core to the SET of another core's pipe;
 * per waiting core, the (core, pipe) that set the most of its WAITs is its
 * partner. Older producers' FLOWCTRL WAIT_INTRA_BLOCK slices have no SET
 * to join: their cores get no partner (the text says "another core").
 */
#ifndef CSIM_DIAG_PARTNER_H
#define CSIM_DIAG_PARTNER_H

#include <stdint.h>

#include "model/model.h"

/* Per pid id (the waiting core). */
struct csim_diag_partner {
	uint32_t pid, pipe;   /* the setting core and pipe; CSIM_NONE: no arrow */
	uint64_t count;       /* its arrows ending on this core */
	uint64_t waits;       /* all cross-core arrows ending on this core */
};

/*
 * Fills *out with one entry per pid id (NULL when the run has no cross-core
 * arrow). Ties go to the lower (pid, pipe) ids, so a run gives one answer.
 * The --core and --window cuts are not applied: the partner is whom the
 * core waits on in the run. Returns CSIM_OK, or out of memory CSIM_E_INPUT.
 */
int csim_diag_partner_find(const struct csim_model *m, struct csim_diag_partner **out,
			   struct csim_error *err);

#endif
