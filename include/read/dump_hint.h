/*
 * dump_hint: what a folder without a dump holds that the user may have
 * meant (SPEC §1: nothing found, the message says what was looked for, and
 * a demanding user wants to know why nothing was there).
 *
 * Looked at: the folder and its simulator/ folder, one level each, after
 * input_locate found no visualize_data.bin(.gz) there or below:
 *   - trace.json: the simulator's Chrome trace, not its dump (a run that
 *     stopped early writes the trace but no visualize_data.bin);
 *   - files that may be a dump under another name (*.bin, *.bin.gz,
 *     visualize_data*: a renamed or compressed copy);
 *   - OPPROF_* folders, which hold no dump either (one that did would
 *     have been found below).
 * Best effort: a folder that cannot be read adds nothing.
 */
#ifndef CSIM_DUMP_HINT_H
#define CSIM_DUMP_HINT_H

#include "base/csim_error.h"

/* Appends the hints for dir (none: nothing) to err's message. */
void csim_dump_hint_append(const char *dir, struct csim_error *err);

#endif
