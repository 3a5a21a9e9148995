/*
 * instr_files: the source lines of older files, from the first API_FILE
 * block (format-notes §5.4): each `Files[].Lines[]` entry's `Address Range`
 * pairs [start, end] (hex strings, both ends included) name the addresses
 * of `Source:Line`. They serve the addresses API_INSTR's AscendC Inner Code
 * leaves empty (SPEC §10). Only an enrichment: a malformed block is the
 * caller's warning, never a failed conversion.
 */
#ifndef CSIM_INSTR_FILES_H
#define CSIM_INSTR_FILES_H

#include <stddef.h>
#include <stdint.h>

#include "base/csim_error.h"
#include "model/instr_stats.h"

/*
 * Adds the ranges of payload[0..size) to s->ranges, sorted. Returns
 * CSIM_E_INPUT naming path and block_offset when the payload is not the
 * JSON described above (s keeps no range of it), or no memory.
 */
int csim_instr_files_load(struct csim_instr_stats *s, const char *path,
			  uint64_t block_offset, const char *payload, size_t size,
			  struct csim_error *err);

#endif
