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
#include "model/dump_figures.h"

/* Converts opt->input into opt->output_dir (single mode). */
int csim_convert(const struct csim_options *opt, struct csim_log *log,
		 struct csim_error *err);

/*
 * The same for one dump of a batch: input instead of opt->input, output_dir
 * (NULL: beside the .bin) instead of opt->output_dir. With figures non-NULL,
 * they are filled once the passes have run, before any output is committed;
 * the caller releases them whatever the result.
 */
int csim_convert_dump(const struct csim_options *opt, const char *input,
		      const char *output_dir, struct csim_log *log,
		      struct csim_dump_figures *figures, struct csim_error *err);

#endif
