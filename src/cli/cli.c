#include "cli/cli.h"

#include <stdint.h>
#include <string.h>

#include "base/number_grid.h"
#include "cli/usage_text.h"

/* Generated at build time from docs/clean_sim_trace.1 (NAME, SYNOPSIS,
 * OPTIONS, EXIT STATUS), so --help and the man page say the same. */
static const char usage_text[] = CSIM_USAGE_TEXT;

const char *csim_cli_usage(void)
{
	return usage_text;
}

static int is(const char *arg, const char *name)
{
	return strcmp(arg, name) == 0;
}

/* The options that take no value; returns 0 for anything else. */
static int set_flag(struct csim_options *opt, const char *arg)
{
	if (is(arg, "--keep-scalar"))
		opt->keep_scalar = 1;
	else if (is(arg, "--raw-metrics"))
		opt->raw_metrics = 1;
	else if (is(arg, "--no-copy-raw"))
		opt->copy_raw = 0;
	else if (is(arg, "--keep-cache-ccu"))
		opt->keep_cache_ccu = 1;
	else if (is(arg, "--no-counters"))
		opt->counters = 0;
	else if (is(arg, "--gzip") || is(arg, "-z"))
		opt->gzip = 1;
	else if (is(arg, "--quiet") || is(arg, "-q"))
		opt->quiet = 1;
	else if (is(arg, "--help") || is(arg, "-h"))
		opt->show_help = 1;
	else if (is(arg, "--version"))
		opt->show_version = 1;
	else
		return 0;
	return 1;
}

/* Messages read "<head><arg><tail>", e.g. "unknown option --x (see --help)". */
static int usage_error(struct csim_error *err, const char *head, const char *arg,
		       const char *tail)
{
	return csim_error_set(err, CSIM_E_USAGE, CSIM_NO_OFFSET, "%s%s%s", head,
			      arg, tail);
}

/* -o DIR, -oDIR, --output-dir DIR, --output-dir=DIR */
static int take_output(struct csim_options *opt, int argc, char **argv, int *i,
		       struct csim_error *err)
{
	const char *arg = argv[*i];
	const char *value = NULL;

	if (strncmp(arg, "--output-dir=", 13) == 0)
		value = arg + 13;
	else if (strncmp(arg, "-o", 2) == 0 && arg[2] != '\0')
		value = arg + 2;
	else if (*i + 1 < argc)
		value = argv[++*i];
	if (value == NULL || value[0] == '\0')
		return usage_error(err, "option ", arg, " needs a directory");
	if (opt->output_dir != NULL)
		return usage_error(err, "option ", arg, " given twice");
	opt->output_dir = value;
	return CSIM_OK;
}

/* "all", or a run number 1..UINT32_MAX in decimal digits only. */
static int parse_run(struct csim_options *opt, const char *value)
{
	unsigned long long k = 0;

	if (strcmp(value, "all") == 0) {
		opt->run_all = 1;
		return 1;
	}
	if (value[0] == '\0')
		return 0;
	for (const char *p = value; *p != '\0'; p++) {
		if (*p < '0' || *p > '9')
			return 0;
		k = k * 10 + (unsigned long long)(*p - '0');
		if (k > UINT32_MAX)
			return 0;
	}
	if (k == 0)
		return 0;
	opt->run = (unsigned)k;
	return 1;
}

/* --run N|all, --run=N|all */
static int take_run(struct csim_options *opt, int argc, char **argv, int *i,
		    struct csim_error *err)
{
	const char *arg = argv[*i];
	const char *value = NULL;

	if (strncmp(arg, "--run=", 6) == 0)
		value = arg + 6;
	else if (*i + 1 < argc)
		value = argv[++*i];
	if (value == NULL)
		return usage_error(err, "option ", arg, " needs a run number or all");
	if (opt->run != 0 || opt->run_all)
		return usage_error(err, "option ", arg, " given twice");
	if (!parse_run(opt, value))
		return csim_error_set(err, CSIM_E_USAGE, CSIM_NO_OFFSET,
				      "option --run: '%s' is not a run number (1, 2, ...) or all",
				      value);
	return CSIM_OK;
}

/* --core PATTERN, --core=PATTERN */
static int take_core(struct csim_options *opt, int argc, char **argv, int *i,
		     struct csim_error *err)
{
	const char *arg = argv[*i];
	const char *value = NULL;

	if (strncmp(arg, "--core=", 7) == 0)
		value = arg + 7;
	else if (*i + 1 < argc)
		value = argv[++*i];
	if (value == NULL || value[0] == '\0')
		return usage_error(err, "option ", arg, " needs a core name pattern");
	if (opt->ncores == CSIM_MAX_CORE_PATTERNS)
		return csim_error_set(err, CSIM_E_USAGE, CSIM_NO_OFFSET,
				      "option --core: more than %d patterns (one glob such as 'core[0-3].*' matches many cores)",
				      CSIM_MAX_CORE_PATTERNS);
	opt->cores[opt->ncores++] = value;
	return CSIM_OK;
}

static int is_digit(char c)
{
	return c >= '0' && c <= '9';
}

/* Digits from p[*i], at least one. */
static int digits(const char *p, size_t n, size_t *i)
{
	size_t start = *i;

	while (*i < n && is_digit(p[*i]))
		(*i)++;
	return *i > start;
}

/* A plain decimal number as JSON writes one, without a sign: 3, 3.5, 2e3. */
static int is_plain_number(const char *p, size_t n)
{
	size_t i = 0;

	if (!digits(p, n, &i))
		return 0;
	if (i < n && p[i] == '.') {
		i++;
		if (!digits(p, n, &i))
			return 0;
	}
	if (i < n && (p[i] == 'e' || p[i] == 'E')) {
		i++;
		if (i < n && (p[i] == '+' || p[i] == '-'))
			i++;
		if (!digits(p, n, &i))
			return 0;
	}
	return i == n;
}

/*
 * One bound of --window, p[0..n) followed by ':' or the string's end: empty
 * (open), or µs onto the ns grid of the timestamps (number_grid.h).
 */
static int parse_bound(const char *p, size_t n, int *has, int64_t *ns, double *us,
		       struct csim_error *err)
{
	if (n == 0)
		return CSIM_OK;
	if (p[0] == '-' && is_plain_number(p + 1, n - 1))
		return csim_error_set(err, CSIM_E_USAGE, CSIM_NO_OFFSET,
				      "option --window: '%.*s' is negative (times are us from the run's start)",
				      (int)n, p);
	if (!is_plain_number(p, n))
		return csim_error_set(err, CSIM_E_USAGE, CSIM_NO_OFFSET,
				      "option --window: '%.*s' is not a number of us (e.g. 3, 2.5, 1e3)",
				      (int)n, p);
	if (!csim_number_grid_value(p, n, CSIM_GRID_LIMIT_NS, ns, us))
		return csim_error_set(err, CSIM_E_USAGE, CSIM_NO_OFFSET,
				      "option --window: '%.*s' us is beyond any trace's time",
				      (int)n, p);
	*has = 1;
	return CSIM_OK;
}

/* "A:B", "A:", ":B" or ":" (which cuts nothing). */
static int parse_window(struct csim_window *w, const char *value, struct csim_error *err)
{
	const char *colon = strchr(value, ':');
	double from = 0.0, to = 0.0;
	int rc;

	if (colon == NULL || strchr(colon + 1, ':') != NULL)
		return csim_error_set(err, CSIM_E_USAGE, CSIM_NO_OFFSET,
				      "option --window: '%s' is not A:B in us (either side may be empty: 3:5, 3:, :5)",
				      value);
	rc = parse_bound(value, (size_t)(colon - value), &w->has_from, &w->from_ns, &from, err);
	if (rc == CSIM_OK)
		rc = parse_bound(colon + 1, strlen(colon + 1), &w->has_to, &w->to_ns, &to, err);
	if (rc == CSIM_OK && w->has_from && w->has_to && (from > to || w->from_ns > w->to_ns))
		rc = csim_error_set(err, CSIM_E_USAGE, CSIM_NO_OFFSET,
				    "option --window %s: the start is after the end", value);
	return rc;
}

/* --window A:B, --window=A:B */
static int take_window(struct csim_options *opt, int argc, char **argv, int *i,
		       struct csim_error *err)
{
	const char *arg = argv[*i];
	const char *value = NULL;

	if (strncmp(arg, "--window=", 9) == 0)
		value = arg + 9;
	else if (*i + 1 < argc)
		value = argv[++*i];
	if (value == NULL)
		return usage_error(err, "option ", arg, " needs A:B (us)");
	if (opt->window_given)
		return usage_error(err, "option ", arg, " given twice");
	opt->window_given = 1;
	return parse_window(&opt->window, value, err);
}

/* A whole decimal number lo..hi in p[0..n), digits only. */
static int parse_count(const char *p, size_t n, unsigned lo, unsigned hi, unsigned *out)
{
	unsigned long long v = 0;

	if (n == 0)
		return 0;
	for (size_t i = 0; i < n; i++) {
		if (!is_digit(p[i]))
			return 0;
		v = v * 10 + (unsigned long long)(p[i] - '0');
		if (v > hi)
			return 0;
	}
	if (v < lo)
		return 0;
	*out = (unsigned)v;
	return 1;
}

/*
 * The value of an option spelled NAME VALUE, NAME=VALUE or, for a short
 * option, -xVALUE; NULL when it is missing.
 */
static const char *option_value(int argc, char **argv, int *i, const char *name,
				const char *short_name)
{
	const char *arg = argv[*i];
	size_t n = strlen(name);

	if (strncmp(arg, name, n) == 0 && arg[n] == '=')
		return arg + n + 1;
	if (short_name != NULL && strncmp(arg, short_name, 2) == 0 && arg[2] != '\0')
		return arg + 2;
	if (*i + 1 < argc)
		return argv[++*i];
	return NULL;
}

/* -j N, -jN, --jobs N, --jobs=N */
static int take_jobs(struct csim_options *opt, int argc, char **argv, int *i,
		     struct csim_error *err)
{
	const char *arg = argv[*i];
	const char *value = option_value(argc, argv, i, "--jobs", "-j");

	if (value == NULL)
		return usage_error(err, "option ", arg, " needs a number of jobs");
	if (opt->jobs != 0)
		return usage_error(err, "option ", arg, " given twice");
	if (!parse_count(value, strlen(value), 1, CSIM_MAX_JOBS, &opt->jobs))
		return csim_error_set(err, CSIM_E_USAGE, CSIM_NO_OFFSET,
				      "option --jobs: '%s' is not a number of jobs (1..%d)",
				      value, CSIM_MAX_JOBS);
	return CSIM_OK;
}

/* --shard K/N, --shard=K/N with 0 <= K < N */
static int take_shard(struct csim_options *opt, int argc, char **argv, int *i,
		      struct csim_error *err)
{
	const char *arg = argv[*i];
	const char *value = option_value(argc, argv, i, "--shard", NULL);
	const char *slash;

	if (value == NULL)
		return usage_error(err, "option ", arg, " needs K/N");
	if (opt->shard_n != 0)
		return usage_error(err, "option ", arg, " given twice");
	slash = strchr(value, '/');
	if (slash == NULL ||
	    !parse_count(value, (size_t)(slash - value), 0, UINT32_MAX - 1, &opt->shard_k) ||
	    !parse_count(slash + 1, strlen(slash + 1), 1, UINT32_MAX, &opt->shard_n) ||
	    opt->shard_k >= opt->shard_n)
		return csim_error_set(err, CSIM_E_USAGE, CSIM_NO_OFFSET,
				      "option --shard: '%s' is not K/N with 0 <= K < N (e.g. 0/4 .. 3/4)",
				      value);
	return CSIM_OK;
}

/* --check FILE, --check=FILE */
static int take_check(struct csim_options *opt, int argc, char **argv, int *i,
		      struct csim_error *err)
{
	const char *arg = argv[*i];
	const char *value = option_value(argc, argv, i, "--check", NULL);

	if (value == NULL || value[0] == '\0')
		return usage_error(err, "option ", arg, " needs a trace file");
	if (opt->check_file != NULL)
		return usage_error(err, "option ", arg, " given twice");
	opt->check_file = value;
	return CSIM_OK;
}

/* An option that takes a value: its parser, or NULL. */
typedef int (*take_fn)(struct csim_options *opt, int argc, char **argv, int *i,
		       struct csim_error *err);

static int is_valued(const char *arg, const char *name)
{
	size_t n = strlen(name);

	return strncmp(arg, name, n) == 0 && (arg[n] == '\0' || arg[n] == '=');
}

static int is_run_opt(const char *arg)
{
	return strcmp(arg, "--run") == 0 || strncmp(arg, "--run=", 6) == 0;
}

static int is_output_opt(const char *arg)
{
	return strcmp(arg, "--output-dir") == 0 ||
	       strncmp(arg, "--output-dir=", 13) == 0 || strncmp(arg, "-o", 2) == 0;
}

static take_fn value_option(const char *arg)
{
	if (is_output_opt(arg))
		return take_output;
	if (is_run_opt(arg))
		return take_run;
	if (is_valued(arg, "--core"))
		return take_core;
	if (is_valued(arg, "--window"))
		return take_window;
	if (is_valued(arg, "--jobs") || strncmp(arg, "-j", 2) == 0)
		return take_jobs;
	if (is_valued(arg, "--shard"))
		return take_shard;
	if (is_valued(arg, "--check"))
		return take_check;
	return NULL;
}

/*
 * Moves the PATH at argv[i] to argv[1 + npaths], shifting the options
 * between one place right, so that the PATHs end up first and in order (as
 * GNU getopt permutes) and opt->inputs can point into argv.
 */
static void gather_path(char **argv, int i, size_t npaths)
{
	char *path = argv[i];
	int to = 1 + (int)npaths;

	memmove(&argv[to + 1], &argv[to], (size_t)(i - to) * sizeof(argv[0]));
	argv[to] = path;
}

/* PATHs and --check FILE do not mix: --check converts nothing. */
static int check_paths(const struct csim_options *opt, struct csim_error *err)
{
	if (opt->show_help || opt->show_version)
		return CSIM_OK;
	if (opt->check_file != NULL && opt->ninputs > 0)
		return usage_error(err, "--check takes one trace file, not a PATH too: ",
				   opt->inputs[0], "");
	if (opt->check_file == NULL && opt->ninputs == 0)
		return csim_error_set(err, CSIM_E_USAGE, CSIM_NO_OFFSET,
				      "no PATH given (see --help)");
	return CSIM_OK;
}

int csim_cli_parse(struct csim_options *opt, int argc, char **argv,
		   struct csim_error *err)
{
	int only_paths = 0;

	memset(opt, 0, sizeof(*opt));
	opt->copy_raw = 1;
	opt->counters = 1;
	for (int i = 1; i < argc; i++) {
		const char *arg = argv[i];

		if (!only_paths && strcmp(arg, "--") == 0) {
			only_paths = 1;
		} else if (!only_paths && arg[0] == '-' && arg[1] != '\0') {
			take_fn take = value_option(arg);

			if (take != NULL) {
				int rc = take(opt, argc, argv, &i, err);

				if (rc != CSIM_OK)
					return rc;
			} else if (!set_flag(opt, arg)) {
				return usage_error(err, "unknown option ", arg, " (see --help)");
			}
		} else {
			gather_path(argv, i, opt->ninputs++);
		}
	}
	if (opt->ninputs > 0) {
		opt->inputs = (const char *const *)&argv[1];
		opt->input = opt->inputs[0];
	}
	if (opt->jobs == 0)
		opt->jobs = 1;
	return check_paths(opt, err);
}
