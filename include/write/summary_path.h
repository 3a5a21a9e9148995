/*
 * summary_path: a core's critical path (model/critical_path.h) as the
 * "critical_path" member of its summary.json entry, and the kernel's
 * what-if in load_balance (SPEC §13, docs/summary.md).
 */
#ifndef CSIM_SUMMARY_PATH_H
#define CSIM_SUMMARY_PATH_H

#include <stddef.h>

#include "model/model.h"
#include "write/out_file.h"

/* ,\n  "critical_path":{...} of summary core `core` (after its pipes); nothing
   when the model has no path. */
void csim_summary_path_write(const struct csim_model *m, struct csim_out *o, size_t core);

/* ,"what_if":[...] of load_balance: the kernel's estimates, the slowest
   core's span with each pipe twice as fast on every core. */
void csim_summary_path_kernel_write(const struct csim_model *m, struct csim_out *o);

#endif
