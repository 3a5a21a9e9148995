#include "cli/cli.h"

#include <getopt.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/number_grid.h"
#include "cli/usage_text.h"

/* Generated at build time from docs/clean_sim_trace.1 (NAME, SYNOPSIS,
 * OPTIONS, EXIT STATUS), so --help and the man page say the same. */
static const char *const usage_lines[] = { CSIM_USAGE_LINES, NULL };

const char *const *csim_cli_usage_lines(void)
{
	return usage_lines;
}

/* Long-only options take values past any character a short one could be. */
enum {
	OPT_KEEP_SCALAR = 256,
	OPT_RAW_METRICS,
	OPT_NO_COPY_RAW,
	OPT_KEEP_CACHE_CCU,
	OPT_NO_COUNTERS,
	OPT_VERSION,
	OPT_RUN,
	OPT_CORE,
	OPT_WINDOW,
	OPT_SHARD,
	OPT_CHECK,
	OPT_SUMMARY_ONLY,
	OPT_JSON,
	OPT_COMPARE,
	OPT_FAIL_IF_SLOWER,
	OPT_FORMAT,
};

/*
 * getopt_long (bundled short flags, unambiguous long prefixes, "--" ends the
 * options). "-" first: PATHs come back in order as option 1, whatever
 * POSIXLY_CORRECT says, so options after a PATH work on every machine; ":"
 * next: a missing value is told apart from an unknown option.
 */
static const char short_options[] = "-:o:j:zqh";

static const struct option long_options[] = {
	{ "output-dir", required_argument, NULL, 'o' },
	{ "keep-scalar", no_argument, NULL, OPT_KEEP_SCALAR },
	{ "raw-metrics", no_argument, NULL, OPT_RAW_METRICS },
	{ "no-copy-raw", no_argument, NULL, OPT_NO_COPY_RAW },
	{ "keep-cache-ccu", no_argument, NULL, OPT_KEEP_CACHE_CCU },
	{ "no-counters", no_argument, NULL, OPT_NO_COUNTERS },
	{ "run", required_argument, NULL, OPT_RUN },
	{ "core", required_argument, NULL, OPT_CORE },
	{ "window", required_argument, NULL, OPT_WINDOW },
	{ "gzip", no_argument, NULL, 'z' },
	{ "format", required_argument, NULL, OPT_FORMAT },
	{ "jobs", required_argument, NULL, 'j' },
	{ "shard", required_argument, NULL, OPT_SHARD },
	/* --check FILE is --check and a PATH, so that other options may come
	   between them (--check -q FILE); --check=FILE names it itself. */
	{ "check", optional_argument, NULL, OPT_CHECK },
	{ "compare", required_argument, NULL, OPT_COMPARE },
	{ "fail-if-slower", required_argument, NULL, OPT_FAIL_IF_SLOWER },
	{ "summary-only", no_argument, NULL, OPT_SUMMARY_ONLY },
	{ "json", no_argument, NULL, OPT_JSON },
	{ "quiet", no_argument, NULL, 'q' },
	{ "help", no_argument, NULL, 'h' },
	{ "version", no_argument, NULL, OPT_VERSION },
	{ NULL, 0, NULL, 0 },
};

/* An option as the user spelled it, for messages: "-o", "--output-dir" or,
 * with the value attached, "--output-dir=". */
struct spelled {
	char text[32];
};

static const struct option *long_option_of(int val)
{
	for (const struct option *o = long_options; o->name != NULL; o++)
		if (o->val == val)
			return o;
	return NULL;
}

static struct spelled spell(int val, const char *element)
{
	const struct option *o = long_option_of(val);
	struct spelled s;

	if (element[1] == '-' && o != NULL)
		snprintf(s.text, sizeof(s.text), "--%s%s", o->name,
			 strchr(element, '=') != NULL ? "=" : "");
	else
		snprintf(s.text, sizeof(s.text), "-%c", val);
	return s;
}

/* Messages read "<head><arg><tail>", e.g. "unknown option --x (see --help)". */
static int usage_error(struct csim_error *err, const char *head, const char *arg,
		       const char *tail)
{
	return csim_error_set(err, CSIM_E_USAGE, CSIM_NO_OFFSET, "%s%s%s", head,
			      arg, tail);
}

/* The options that take no value. */
static void set_flag(struct csim_options *opt, int val)
{
	switch (val) {
	case OPT_KEEP_SCALAR: opt->keep_scalar = 1; break;
	case OPT_RAW_METRICS: opt->raw_metrics = 1; break;
	case OPT_NO_COPY_RAW: opt->copy_raw = 0; break;
	case OPT_KEEP_CACHE_CCU: opt->keep_cache_ccu = 1; break;
	case OPT_NO_COUNTERS: opt->counters = 0; break;
	case OPT_SUMMARY_ONLY: opt->summary_only = 1; break;
	case OPT_JSON: opt->json = 1; break;
	case 'z': opt->gzip = 1; break;
	case 'q': opt->quiet = 1; break;
	case 'h': opt->show_help = 1; break;
	default: opt->show_version = 1; break;   /* OPT_VERSION */
	}
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

static int take_run(struct csim_options *opt, const char *name, const char *value,
		    struct csim_error *err)
{
	if (opt->run != 0 || opt->run_all)
		return usage_error(err, "option ", name, " given twice");
	if (!parse_run(opt, value))
		return csim_error_set(err, CSIM_E_USAGE, CSIM_NO_OFFSET,
				      "option --run: '%s' is not a run number (1, 2, ...) or all",
				      value);
	return CSIM_OK;
}

static int take_core(struct csim_options *opt, const char *name, const char *value,
		     struct csim_error *err)
{
	(void)name;
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

static int take_window(struct csim_options *opt, const char *name, const char *value,
		       struct csim_error *err)
{
	if (opt->window_given)
		return usage_error(err, "option ", name, " given twice");
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

/* An option whose one value is a path: given twice is an error. */
static int set_once(const char **slot, const char *name, const char *value,
		    struct csim_error *err)
{
	if (*slot != NULL)
		return usage_error(err, "option ", name, " given twice");
	*slot = value;
	return CSIM_OK;
}

static int take_output(struct csim_options *opt, const char *name, const char *value,
		       struct csim_error *err)
{
	return set_once(&opt->output_dir, name, value, err);
}

static int take_jobs(struct csim_options *opt, const char *name, const char *value,
		     struct csim_error *err)
{
	if (opt->jobs != 0)
		return usage_error(err, "option ", name, " given twice");
	if (!parse_count(value, strlen(value), 1, CSIM_MAX_JOBS, &opt->jobs))
		return csim_error_set(err, CSIM_E_USAGE, CSIM_NO_OFFSET,
				      "option --jobs: '%s' is not a number of jobs (1..%d)",
				      value, CSIM_MAX_JOBS);
	return CSIM_OK;
}

/* K/N with 0 <= K < N */
static int take_shard(struct csim_options *opt, const char *name, const char *value,
		      struct csim_error *err)
{
	const char *slash = strchr(value, '/');

	if (opt->shard_n != 0)
		return usage_error(err, "option ", name, " given twice");
	if (slash == NULL ||
	    !parse_count(value, (size_t)(slash - value), 0, UINT32_MAX - 1, &opt->shard_k) ||
	    !parse_count(slash + 1, strlen(slash + 1), 1, UINT32_MAX, &opt->shard_n) ||
	    opt->shard_k >= opt->shard_n)
		return csim_error_set(err, CSIM_E_USAGE, CSIM_NO_OFFSET,
				      "option --shard: '%s' is not K/N with 0 <= K < N (e.g. 0/4 .. 3/4)",
				      value);
	return CSIM_OK;
}

static int take_check(struct csim_options *opt, const char *name, const char *value,
		      struct csim_error *err)
{
	return set_once(&opt->check_file, name, value, err);
}

static int take_compare(struct csim_options *opt, const char *name, const char *value,
			struct csim_error *err)
{
	return set_once(&opt->compare_base, name, value, err);
}

/* A percentage: a plain number, 0 or more (0: any growth fails). */
static int take_slower(struct csim_options *opt, const char *name, const char *value,
		       struct csim_error *err)
{
	if (opt->fail_if_slower >= 0)
		return usage_error(err, "option ", name, " given twice");
	if (!is_plain_number(value, strlen(value)))
		return csim_error_set(err, CSIM_E_USAGE, CSIM_NO_OFFSET,
				      "option --fail-if-slower: '%s' is not a percentage (e.g. 5, 2.5, 0)",
				      value);
	opt->fail_if_slower = strtod(value, NULL);
	return CSIM_OK;
}

/* "json", "perfetto" or both, comma-separated, each once. */
static int take_format(struct csim_options *opt, const char *name, const char *value,
		       struct csim_error *err)
{
	const char *p = value;

	if (opt->formats != 0)
		return usage_error(err, "option ", name, " given twice");
	for (;;) {
		size_t n = strcspn(p, ",");
		unsigned bit = n == 4 && strncmp(p, "json", 4) == 0 ? CSIM_FORMAT_JSON
			       : n == 8 && strncmp(p, "perfetto", 8) == 0 ? CSIM_FORMAT_PERFETTO
			       : 0;

		if (bit == 0 || (opt->formats & bit) != 0)
			return csim_error_set(err, CSIM_E_USAGE, CSIM_NO_OFFSET,
					      "option --format: '%s' is not json, perfetto or json,perfetto",
					      value);
		opt->formats |= bit;
		if (p[n] == '\0')
			return CSIM_OK;
		p += n + 1;
	}
}

/*
 * An option that takes a value: its parser, what a missing value lacks,
 * and whether an empty one ("-o ''", "--check=") lacks it too (a path or a
 * pattern cannot be empty; a run number or a window says why it is bad).
 */
struct valued {
	int val;
	int (*take)(struct csim_options *opt, const char *name, const char *value,
		    struct csim_error *err);
	const char *needs;
	int nonempty;
};

static const struct valued valued_options[] = {
	{ 'o', take_output, "a directory", 1 },
	{ 'j', take_jobs, "a number of jobs", 0 },
	{ OPT_RUN, take_run, "a run number or all", 0 },
	{ OPT_CORE, take_core, "a core name pattern", 1 },
	{ OPT_WINDOW, take_window, "A:B (us)", 0 },
	{ OPT_SHARD, take_shard, "K/N", 0 },
	{ OPT_CHECK, take_check, "a trace file", 1 },
	{ OPT_COMPARE, take_compare, "BASE and NEW (two results)", 1 },
	{ OPT_FAIL_IF_SLOWER, take_slower, "a percentage", 0 },
	{ OPT_FORMAT, take_format, "json, perfetto or json,perfetto", 0 },
};

static const struct valued *valued_of(int val)
{
	for (size_t i = 0; i < sizeof(valued_options) / sizeof(valued_options[0]); i++)
		if (valued_options[i].val == val)
			return &valued_options[i];
	return NULL;
}

/* The long options whose names start with the name in element ("--NAME" or
 * "--NAME=..."): two or more make it ambiguous. */
static size_t long_matches(const char *element, char *list, size_t size)
{
	size_t n = strcspn(element + 2, "="), count = 0, used = 0;

	list[0] = '\0';
	for (const struct option *o = long_options; o->name != NULL; o++) {
		if (strncmp(o->name, element + 2, n) != 0)
			continue;
		if (used < size)
			used += (size_t)snprintf(list + used, size - used, "%s--%s",
						 count > 0 ? ", " : "", o->name);
		count++;
	}
	return count;
}

/* getopt_long's '?': an unknown short or long option, an ambiguous prefix,
 * or a value given to a long option that takes none. */
static int refuse(int optopt_val, const char *element, struct csim_error *err)
{
	char list[256];

	if (element[0] != '-' || element[1] != '-') {
		char name[3] = { '-', (char)optopt_val, '\0' };

		return usage_error(err, "unknown option ", name, " (see --help)");
	}
	if (optopt_val != 0)
		return usage_error(err, "option ", element, " takes no value (see --help)");
	if (long_matches(element, list, sizeof(list)) > 1)
		return csim_error_set(err, CSIM_E_USAGE, CSIM_NO_OFFSET,
				      "option %.*s is ambiguous: %s (see --help)",
				      (int)strcspn(element, "="), element, list);
	return usage_error(err, "unknown option ", element, " (see --help)");
}

/*
 * Moves the PATH at argv[i] to argv[1 + npaths], shifting the elements
 * between one place right, so that the PATHs end up first and in order and
 * opt->inputs can point into argv. Only elements getopt has passed move.
 */
static void gather_path(char **argv, int i, size_t npaths)
{
	char *path = argv[i];
	int to = 1 + (int)npaths;

	memmove(&argv[to + 1], &argv[to], (size_t)(i - to) * sizeof(argv[0]));
	argv[to] = path;
}

static int needs(struct csim_error *err, const struct valued *v, int val,
		 const char *element)
{
	return csim_error_set(err, CSIM_E_USAGE, CSIM_NO_OFFSET, "option %s needs %s",
			      spell(val, element).text, v != NULL ? v->needs : "a value");
}

/* One getopt_long result c; optind is past the option and its value. */
static int take_one(struct csim_options *opt, char **argv, int c, struct csim_error *err)
{
	const struct valued *v;
	const char *element;

	if (c == 1) {
		gather_path(argv, optind - 1, opt->ninputs++);
		return CSIM_OK;
	}
	if (c == '?')
		return refuse(optopt, argv[optind - 1], err);
	if (c == ':')
		return needs(err, valued_of(optopt), optopt, argv[optind - 1]);
	v = valued_of(c);
	if (v == NULL) {
		set_flag(opt, c);
		return CSIM_OK;
	}
	if (c == OPT_CHECK && optarg == NULL) {
		if (opt->check)
			return usage_error(err, "option --check given twice", "", "");
		opt->check = 1;
		return CSIM_OK;
	}
	/* A value of its own element follows the option's; an attached one
	 * ("-oDIR", "--run=2") shares it. */
	element = optarg == argv[optind - 1] ? argv[optind - 2] : argv[optind - 1];
	if (v->nonempty && optarg[0] == '\0')
		return needs(err, v, c, element);
	return v->take(opt, spell(c, element).text, optarg, err);
}

/*
 * --summary-only writes no file, so an option that shapes the files would
 * be dropped without a word: refused instead, as is --json without it
 * (docs/decisions.md).
 */
static int check_summary_only(const struct csim_options *opt, struct csim_error *err)
{
	const char *file_option = opt->output_dir != NULL ? "-o/--output-dir"
				: opt->gzip ? "-z/--gzip"
				: opt->formats != 0 ? "--format"
				: opt->raw_metrics ? "--raw-metrics"
				: !opt->copy_raw ? "--no-copy-raw" : NULL;

	if (opt->json && !opt->summary_only)
		return usage_error(err, "option --json needs --summary-only: ",
				   "it prints summary.json's document on stdout in place of the table", "");
	if (!opt->summary_only)
		return CSIM_OK;
	if (opt->check_file != NULL)
		return usage_error(err, "--summary-only converts, --check does not: ",
				   "give one of them", "");
	if (file_option != NULL)
		return usage_error(err, "--summary-only writes no file: ", file_option,
				   " has nothing to shape (drop it, or drop --summary-only to write the outputs)");
	return CSIM_OK;
}

/* The first option given that shapes a conversion, which --compare does not make. */
static const char *conversion_option(const struct csim_options *opt)
{
	return opt->gzip ? "-z/--gzip"
	       : opt->formats != 0 ? "--format"
	       : opt->raw_metrics ? "--raw-metrics"
	       : !opt->copy_raw ? "--no-copy-raw"
	       : opt->keep_scalar ? "--keep-scalar"
	       : opt->keep_cache_ccu ? "--keep-cache-ccu"
	       : !opt->counters ? "--no-counters"
	       : opt->ncores > 0 ? "--core"
	       : opt->window_given ? "--window"
	       : opt->jobs > 1 ? "-j/--jobs"
	       : opt->shard_n > 0 ? "--shard"
	       : opt->run != 0 || opt->run_all ? "--run"
	       : opt->summary_only ? "--summary-only"
	       : opt->check_file != NULL ? "--check" : NULL;
}

/* --compare BASE NEW: one PATH (NEW), no option of a conversion. */
static int check_compare(const struct csim_options *opt, struct csim_error *err)
{
	const char *other = conversion_option(opt);

	if (opt->compare_base == NULL)
		return opt->fail_if_slower >= 0
		       ? usage_error(err, "option --fail-if-slower needs --compare BASE NEW: ",
				     "it gates a comparison", "")
		       : CSIM_OK;
	if (other != NULL)
		return usage_error(err, "--compare converts nothing: ", other,
				   " has nothing to shape (give it to the conversions)");
	if (opt->ninputs != 1)
		return csim_error_set(err, CSIM_E_USAGE, CSIM_NO_OFFSET,
				      "--compare takes two results, BASE and NEW: %s",
				      opt->ninputs == 0 ? "NEW is missing"
				      : "more than one NEW given");
	return CSIM_OK;
}

/* --check without =FILE: the file is the one PATH. */
static int take_check_path(struct csim_options *opt, struct csim_error *err)
{
	if (!opt->check)
		return CSIM_OK;
	if (opt->check_file != NULL)
		return usage_error(err, "option --check given twice", "", "");
	if (opt->ninputs == 0)
		return csim_error_set(err, CSIM_E_USAGE, CSIM_NO_OFFSET,
				      "option --check needs a trace file");
	if (opt->ninputs > 1)
		return usage_error(err, "--check takes one trace file, not a PATH too: ",
				   opt->inputs[1], "");
	opt->check_file = opt->inputs[0];
	opt->inputs = NULL;
	opt->input = NULL;
	opt->ninputs = 0;
	return CSIM_OK;
}

/* PATHs and --check FILE do not mix: --check converts nothing. */
static int check_paths(const struct csim_options *opt, struct csim_error *err)
{
	int rc;

	if (opt->show_help || opt->show_version)
		return CSIM_OK;
	if (opt->compare_base != NULL || opt->fail_if_slower >= 0)
		return check_compare(opt, err);
	rc = check_summary_only(opt, err);
	if (rc != CSIM_OK)
		return rc;
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
	int c, rc;

	memset(opt, 0, sizeof(*opt));
	opt->copy_raw = 1;
	opt->counters = 1;
	opt->fail_if_slower = -1.0;
	optind = 0;   /* 0, not 1: glibc resets its whole state (tests parse many times) */
	opterr = 0;   /* the messages are ours, through err */
	while ((c = getopt_long(argc, argv, short_options, long_options, NULL)) != -1) {
		rc = take_one(opt, argv, c, err);
		if (rc != CSIM_OK)
			return rc;
	}
	for (int i = optind; i < argc; i++)   /* after "--" */
		gather_path(argv, i, opt->ninputs++);
	if (opt->ninputs > 0) {
		opt->inputs = (const char *const *)&argv[1];
		opt->input = opt->inputs[0];
	}
	if (opt->jobs == 0)
		opt->jobs = 1;
	rc = take_check_path(opt, err);
	if (rc == CSIM_OK)
		rc = check_paths(opt, err);
	if (opt->formats == 0)
		opt->formats = CSIM_FORMAT_JSON;
	return rc;
}
