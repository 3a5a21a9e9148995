/*
 * cli: the command line, parsed once into read-only options.
 */
#ifndef CSIM_CLI_H
#define CSIM_CLI_H

#include "base/csim_error.h"
#include "model/cut.h"

#include <stddef.h>

/* -j caps the worker count: more would only thrash a machine's page cache. */
#define CSIM_MAX_JOBS 256

/* --core may be given this many times (a glob matches many cores at once). */
#define CSIM_MAX_CORE_PATTERNS 64

/* --format: which traces are written (SPEC §15). */
enum { CSIM_FORMAT_JSON = 1u << 0, CSIM_FORMAT_PERFETTO = 1u << 1 };

struct csim_options {
	const char *input;        /* the first PATH: a .bin, an OPPROF_* or simulator/ dir */
	const char *const *inputs; /* every PATH, in argv order (points into argv) */
	size_t ninputs;
	const char *output_dir;   /* -o; NULL: the directory of the .bin */
	int keep_scalar;
	int raw_metrics;
	int copy_raw;             /* cleared by --no-copy-raw */
	int keep_cache_ccu;
	int counters;             /* cleared by --no-counters */
	unsigned run;             /* --run K (1-based); 0: the last run */
	int run_all;              /* --run all: every run side by side */
	const char *cores[CSIM_MAX_CORE_PATTERNS];   /* --core PATTERN, in order */
	size_t ncores;
	struct csim_window window; /* --window A:B on the ns grid; ":" cuts nothing */
	int window_given;
	int gzip;                 /* -z: trace.clean.json.gz */
	unsigned formats;         /* --format: CSIM_FORMAT_* bits; JSON by default */
	unsigned jobs;            /* -j N: dumps converted at once (batch); 1.. */
	unsigned shard_k;         /* --shard K/N: dumps whose sorted index % N == K */
	unsigned shard_n;         /* 0: no --shard */
	const char *check_file;   /* --check FILE: validate a trace, convert nothing */
	int check;                /* --check without =FILE: the file is the one PATH */
	const char *compare_base; /* --compare BASE NEW: BASE; NEW is the one PATH */
	double fail_if_slower;    /* --fail-if-slower PCT; < 0: not given */
	int summary_only;         /* --summary-only: no file written, the summary on stdout */
	int json;                 /* --json (with --summary-only): summary.json's document */
	int quiet;
	int show_help;
	int show_version;
};

/*
 * Fills opt from argv. Returns CSIM_OK, or CSIM_E_USAGE with the problem in
 * err. --help and --version set show_help / show_version and succeed.
 * Reorders argv so that the PATHs come first, in their order (opt->inputs
 * points at them): argv must outlive opt.
 */
int csim_cli_parse(struct csim_options *opt, int argc, char **argv,
		   struct csim_error *err);

/* The --help text: its lines, each ending in a newline, then NULL. */
const char *const *csim_cli_usage_lines(void);

#endif
