/*
 * batch: batch mode (SPEC §11). Converts the dumps of a list (dump_find.h),
 * --shard's share of them, each in a worker process of its own, up to -j at
 * once, going on after a failure; prints a line per dump as it finishes and
 * "converted N/M dumps", and writes batch_summary.json / .csv
 * (batch_summary.h). docs/batch.md has the contract, docs/decisions.md why
 * workers are processes.
 *
 * SIGINT/SIGTERM/SIGHUP (base/interrupt.h) stop it: no new dump starts, the
 * running workers get the signal, each removes its temporary files, the
 * summaries are not written, and CSIM_E_INTERRUPTED comes back.
 */
#ifndef CSIM_BATCH_H
#define CSIM_BATCH_H

#include "base/csim_error.h"
#include "base/log.h"
#include "cli/cli.h"
#include "read/dump_find.h"

/*
 * Returns the exit status: 0 all converted, 1 a dump failed, 3 the
 * summaries could not be written, CSIM_E_INTERRUPTED; err holds the
 * batch's own error (not a dump's). In a worker process it returns with
 * *is_worker set once its dump is done: the caller then only frees and
 * returns from main.
 */
int csim_batch_run(const struct csim_options *opt, const struct csim_dump_list *list,
		   struct csim_log *log, int *is_worker, struct csim_error *err);

#endif
