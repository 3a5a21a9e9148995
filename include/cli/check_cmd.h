/*
 * check_cmd: clean_sim_trace --check FILE, the user's side of check/:
 * prints the violations and the count line, and gives the exit status.
 */
#ifndef CSIM_CHECK_CMD_H
#define CSIM_CHECK_CMD_H

#include "base/csim_error.h"
#include "base/log.h"
#include "cli/cli.h"

/* Violation lines printed before the rest are only counted. */
#define CSIM_CHECK_SHOWN 100

/*
 * CSIM_OK when the trace breaks no rule; CSIM_E_INPUT when it breaks one
 * (err empty: the lines said it) or cannot be read as JSON (err says why).
 */
int csim_check_cmd(const struct csim_options *opt, struct csim_log *log,
		   struct csim_error *err);

#endif
