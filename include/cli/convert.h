/*
 * convert: the pipeline driver. One call converts one dump:
 * locate input -> read blocks into the event table -> passes -> write both
 * outputs atomically -> copy the raw folder. The run context inside owns
 * every allocation of the run and frees it before returning.
 */
#ifndef CSIM_CONVERT_H
#define CSIM_CONVERT_H

#include "cli/cli.h"
#include "base/csim_error.h"
#include "base/log.h"

int csim_convert(const struct csim_options *opt, struct csim_log *log,
		 struct csim_error *err);

#endif
