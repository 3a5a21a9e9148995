/*
 * input_locate: turns the PATH argument into the visualize_data.bin to read.
 *
 * PATH itself if it is a file; else PATH/visualize_data.bin (or .bin.gz);
 * else PATH/simulator/visualize_data.bin (or .bin.gz). When none exists the error says what was
 * looked for and, if dumps sit deeper below PATH (multi-operator runs nest
 * them as <op>/<launch>/simulator/), how many and where the first one is.
 */
#ifndef CSIM_INPUT_LOCATE_H
#define CSIM_INPUT_LOCATE_H

#include "base/csim_error.h"

/* On success *bin_path and *bin_dir are malloc'd strings the caller frees. */
int csim_input_locate(const char *path, char **bin_path, char **bin_dir,
		      struct csim_error *err);

#endif
