/*
 * compare_cmd: --compare BASE NEW (SPEC §14): both results read, the
 * comparison printed, compare.json written with -o, the gate of
 * --fail-if-slower applied.
 */
#ifndef CSIM_COMPARE_CMD_H
#define CSIM_COMPARE_CMD_H

#include "base/csim_error.h"
#include "base/log.h"
#include "cli/cli.h"

/* CSIM_OK; CSIM_E_SLOWER past the threshold (each span listed on stderr);
   CSIM_E_UNCOMPARED when a gate over batches has nothing to compare (no
   dump in both) or a dump of BASE is missing from NEW or failed there
   (each listed on stderr); else the error of the side that could not be
   read or the file not written. */
int csim_compare_cmd(const struct csim_options *opt, struct csim_log *log,
		     struct csim_error *err);

#endif
