/*
 * options_text: the options that change what a trace holds (--keep-scalar,
 * --keep-cache-ccu, --no-counters, --core, --window), spelled as the
 * command line takes them, for the traces' metadata (docs/output.md). The
 * same choices give the same text whatever their order or spelling; a
 * window without a bound is none. The run converted is a fact of its own,
 * and the options that change only where or how a trace is written
 * (--format, -z, -o, --no-copy-raw, --raw-metrics, -j, -q) are left out:
 * the same trace, written as JSON and as .pftrace, gzip or not, is the
 * same bytes.
 */
#ifndef CSIM_OPTIONS_TEXT_H
#define CSIM_OPTIONS_TEXT_H

#include "base/csim_error.h"
#include "cli/cli.h"

/*
 * *text: a malloc'd NUL-terminated text ("" when every option has its
 * default), the caller's to free. Out of memory: CSIM_E_INPUT.
 */
int csim_options_text(const struct csim_options *opt, char **text, struct csim_error *err);

#endif
