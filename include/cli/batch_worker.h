/*
 * batch_worker: what a batch's worker process does (batch.h): converts one
 * dump quietly, its "wrote" lines and table going nowhere but, with
 * --summary-only, to the parent, its stderr into memory with only its
 * warnings kept, and sends the result down the parent's pipe
 * (batch_wire.h). Its progress tracker draws nothing: it relays how far
 * the dump has come through the slot's counter, which the parent reads.
 */
#ifndef CSIM_BATCH_WORKER_H
#define CSIM_BATCH_WORKER_H

#include <stdatomic.h>

#include "cli/cli.h"
#include "read/dump_find.h"

/*
 * Converts d with opt into opt->output_dir/d->rel (or beside d's .bin)
 * and writes the result to fd; a failed send shows in the parent as a
 * result cut short. relay_slot NULL: no progress is relayed.
 */
void csim_batch_worker_run(const struct csim_options *opt, const struct csim_dump *d,
			   atomic_ullong *relay_slot, int fd);

#endif
