/*
 * cli: the command line of SPEC §1: defaults, every flag, the four spellings
 * of -o, and each usage error.
 */
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "cli/cli.h"

#define MAX_ARGS 16

/*
 * Parses a NULL-terminated list of arguments after the program name. argv is
 * static because opt->inputs points into it (valid until the next parse).
 */
static int parse(struct csim_options *opt, struct csim_error *err,
		 const char *const *args)
{
	static char *argv[MAX_ARGS + 2];
	int argc = 1;

	argv[0] = (char *)"clean_sim_trace";
	while (args[argc - 1] != NULL && argc <= MAX_ARGS) {
		argv[argc] = (char *)args[argc - 1];
		argc++;
	}
	argv[argc] = NULL;
	csim_error_clear(err);
	return csim_cli_parse(opt, argc, argv, err);
}

#define ARGS(...) ((const char *const[]){ __VA_ARGS__, NULL })

static struct csim_options defaults(const char *input)
{
	struct csim_options d;

	memset(&d, 0, sizeof(d));
	d.input = input;
	d.copy_raw = 1;
	d.counters = 1;
	d.jobs = 1;
	d.ninputs = input != NULL;
	return d;
}

static int check_opts(struct check_ctx *c, const struct csim_options *got,
		      const struct csim_options *want)
{
	int ok = 1;

	if (want->input == NULL)
		ok &= CHECK(c, got->input == NULL);
	else
		ok &= CHECK_STR(c, got->input, want->input);
	if (want->output_dir == NULL)
		ok &= CHECK(c, got->output_dir == NULL);
	else
		ok &= CHECK_STR(c, got->output_dir, want->output_dir);
	ok &= CHECK_I64(c, got->keep_scalar, want->keep_scalar);
	ok &= CHECK_I64(c, got->raw_metrics, want->raw_metrics);
	ok &= CHECK_I64(c, got->copy_raw, want->copy_raw);
	ok &= CHECK_I64(c, got->keep_cache_ccu, want->keep_cache_ccu);
	ok &= CHECK_I64(c, got->counters, want->counters);
	ok &= CHECK_I64(c, got->quiet, want->quiet);
	ok &= CHECK_I64(c, (int64_t)got->ninputs, (int64_t)want->ninputs);
	ok &= CHECK_I64(c, got->jobs, want->jobs);
	ok &= CHECK_I64(c, got->shard_k, want->shard_k);
	ok &= CHECK_I64(c, got->shard_n, want->shard_n);
	if (want->check_file == NULL)
		ok &= CHECK(c, got->check_file == NULL);
	else
		ok &= CHECK_STR(c, got->check_file, want->check_file);
	ok &= CHECK_I64(c, got->show_help, want->show_help);
	ok &= CHECK_I64(c, got->show_version, want->show_version);
	ok &= CHECK_I64(c, got->run, want->run);
	ok &= CHECK_I64(c, got->run_all, want->run_all);
	ok &= CHECK_I64(c, got->summary_only, want->summary_only);
	ok &= CHECK_I64(c, got->json, want->json);
	return ok;
}

static void test_defaults(struct check_ctx *c)
{
	struct csim_options opt, want = defaults("dump/visualize_data.bin");
	struct csim_error err;

	CHECK_I64(c, parse(&opt, &err, ARGS("dump/visualize_data.bin")), CSIM_OK);
	check_opts(c, &opt, &want);
}

static void test_each_flag(struct check_ctx *c)
{
	static const char *const flags[] = {
		"--keep-scalar", "--raw-metrics", "--no-copy-raw", "--keep-cache-ccu",
		"--no-counters", "-q", "--quiet"
	};

	for (size_t i = 0; i < sizeof(flags) / sizeof(flags[0]); i++) {
		struct csim_options opt, want = defaults("in");
		struct csim_error err;

		switch (i) {
		case 0: want.keep_scalar = 1; break;
		case 1: want.raw_metrics = 1; break;
		case 2: want.copy_raw = 0; break;
		case 3: want.keep_cache_ccu = 1; break;
		case 4: want.counters = 0; break;
		default: want.quiet = 1; break;
		}
		/* The flag may come before or after PATH. */
		if (!CHECK_I64(c, parse(&opt, &err, ARGS(flags[i], "in")), CSIM_OK) ||
		    !check_opts(c, &opt, &want) ||
		    !CHECK_I64(c, parse(&opt, &err, ARGS("in", flags[i])), CSIM_OK) ||
		    !check_opts(c, &opt, &want))
			fprintf(stderr, "    flag %s\n", flags[i]);
	}
}

static void test_all_flags_together(struct check_ctx *c)
{
	struct csim_options opt, want = defaults("OPPROF_x");
	struct csim_error err;

	want.output_dir = "out";
	want.keep_scalar = want.raw_metrics = want.keep_cache_ccu = want.quiet = 1;
	want.copy_raw = want.counters = 0;
	CHECK_I64(c, parse(&opt, &err, ARGS("--keep-scalar", "--raw-metrics", "-o",
					    "out", "--no-copy-raw", "OPPROF_x",
					    "--keep-cache-ccu", "--no-counters", "-q")),
		  CSIM_OK);
	check_opts(c, &opt, &want);
}

static void test_output_dir_spellings(struct check_ctx *c)
{
	const char *const *forms[] = {
		ARGS("-o", "DIR", "p"), ARGS("-oDIR", "p"), ARGS("--output-dir=DIR", "p"),
		ARGS("--output-dir", "DIR", "p"), ARGS("p", "-o", "DIR"),
		ARGS("p", "--output-dir", "DIR")
	};

	for (size_t i = 0; i < sizeof(forms) / sizeof(forms[0]); i++) {
		struct csim_options opt, want = defaults("p");
		struct csim_error err;

		want.output_dir = "DIR";
		if (!CHECK_I64(c, parse(&opt, &err, forms[i]), CSIM_OK) ||
		    !check_opts(c, &opt, &want))
			fprintf(stderr, "    form %zu: %s\n", i, err.message);
	}
}

/* A usage error: CSIM_E_USAGE and a message holding `part`. */
static void expect_usage(struct check_ctx *c, const char *const *args,
			 const char *part)
{
	struct csim_options opt;
	struct csim_error err;

	if (!CHECK_I64(c, parse(&opt, &err, args), CSIM_E_USAGE) ||
	    !CHECK_I64(c, err.code, CSIM_E_USAGE) ||
	    !CHECK_CONTAINS(c, err.message, part))
		fprintf(stderr, "    first argument %s\n", args[0] ? args[0] : "(none)");
}

static void test_output_dir_twice_is_a_usage_error(struct check_ctx *c)
{
	expect_usage(c, ARGS("-o", "a", "-o", "b", "p"), "twice");
	expect_usage(c, ARGS("-oa", "--output-dir=b", "p"), "twice");
	expect_usage(c, ARGS("--output-dir", "a", "p", "-ob"), "twice");
}

static void test_output_dir_without_a_value_is_a_usage_error(struct check_ctx *c)
{
	expect_usage(c, ARGS("p", "-o"), "-o");
	expect_usage(c, ARGS("p", "--output-dir"), "--output-dir");
	expect_usage(c, ARGS("--output-dir=", "p"), "--output-dir=");
	expect_usage(c, ARGS("-o", "", "p"), "-o");
}

static void test_missing_path_is_a_usage_error(struct check_ctx *c)
{
	struct csim_options opt;
	struct csim_error err;
	char *argv[] = { (char *)"clean_sim_trace", NULL };

	expect_usage(c, ARGS("--keep-scalar"), "PATH");
	expect_usage(c, ARGS("-o", "dir"), "PATH");
	csim_error_clear(&err);
	CHECK_I64(c, csim_cli_parse(&opt, 1, argv, &err), CSIM_E_USAGE);
	CHECK_CONTAINS(c, err.message, "PATH");
}

/* Several PATHs (batch mode) come out first and in order, whatever the options between. */
static void test_several_paths_keep_their_order(struct check_ctx *c)
{
	static const char *const want_paths[] = { "a", "b", "-c", "d" };
	struct csim_options opt, want = defaults("a");
	struct csim_error err;

	want.ninputs = 4;
	want.output_dir = "out";
	want.jobs = 2;
	want.quiet = 1;
	CHECK_I64(c, parse(&opt, &err, ARGS("a", "-o", "out", "b", "-j2", "-q", "--", "-c", "d")),
		  CSIM_OK);
	if (!check_opts(c, &opt, &want))
		return;
	for (size_t i = 0; i < 4; i++)
		CHECK_STR(c, opt.inputs[i], want_paths[i]);
}

static void test_jobs_and_shard(struct check_ctx *c)
{
	struct csim_options opt, want = defaults("p");
	struct csim_error err;

	want.jobs = 4;
	CHECK_I64(c, parse(&opt, &err, ARGS("-j", "4", "p")), CSIM_OK);
	check_opts(c, &opt, &want);
	CHECK_I64(c, parse(&opt, &err, ARGS("p", "--jobs=4")), CSIM_OK);
	check_opts(c, &opt, &want);
	CHECK_I64(c, parse(&opt, &err, ARGS("--jobs", "4", "p")), CSIM_OK);
	check_opts(c, &opt, &want);
	want.jobs = 1;
	want.shard_k = 2;
	want.shard_n = 3;
	CHECK_I64(c, parse(&opt, &err, ARGS("--shard", "2/3", "p")), CSIM_OK);
	check_opts(c, &opt, &want);
	want.shard_k = 0;
	want.shard_n = 1;
	CHECK_I64(c, parse(&opt, &err, ARGS("p", "--shard=0/1")), CSIM_OK);
	check_opts(c, &opt, &want);
}

static void test_bad_jobs_and_shard_are_usage_errors(struct check_ctx *c)
{
	expect_usage(c, ARGS("-j", "0", "p"), "'0' is not a number of jobs");
	expect_usage(c, ARGS("-j257", "p"), "(1..256)");
	expect_usage(c, ARGS("--jobs=2x", "p"), "'2x'");
	expect_usage(c, ARGS("--jobs=", "p"), "''");
	expect_usage(c, ARGS("p", "-j"), "-j needs");
	expect_usage(c, ARGS("-j2", "--jobs", "3", "p"), "twice");
	expect_usage(c, ARGS("--shard", "3/3", "p"), "'3/3' is not K/N");
	expect_usage(c, ARGS("--shard=1", "p"), "'1'");
	expect_usage(c, ARGS("--shard=/2", "p"), "'/2'");
	expect_usage(c, ARGS("--shard=1/0", "p"), "'1/0'");
	expect_usage(c, ARGS("--shard=-1/2", "p"), "'-1/2'");
	expect_usage(c, ARGS("--shard=0/2/3", "p"), "'0/2/3'");
	expect_usage(c, ARGS("--shard=0/99999999999", "p"), "'0/99999999999'");
	expect_usage(c, ARGS("p", "--shard"), "--shard needs");
	expect_usage(c, ARGS("--shard=0/2", "--shard=1/2", "p"), "twice");
}

static void test_check_takes_a_file_and_no_path(struct check_ctx *c)
{
	struct csim_options opt, want = defaults(NULL);
	struct csim_error err;

	want.check_file = "t.json";
	CHECK_I64(c, parse(&opt, &err, ARGS("--check", "t.json")), CSIM_OK);
	check_opts(c, &opt, &want);
	CHECK_I64(c, parse(&opt, &err, ARGS("-q", "--check=t.json")), CSIM_OK);
	want.quiet = 1;
	check_opts(c, &opt, &want);
	expect_usage(c, ARGS("--check", "t.json", "p"), "not a PATH too: p");
	expect_usage(c, ARGS("--check"), "--check needs");
	expect_usage(c, ARGS("--check="), "--check= needs");
	expect_usage(c, ARGS("--check", "a", "--check", "b"), "twice");
}

/* --summary-only writes nothing: options that shape files are refused
 * with it, and --json means nothing without it. */
static void test_summary_only(struct check_ctx *c)
{
	struct csim_options opt, want = defaults("p");
	struct csim_error err;

	want.summary_only = 1;
	CHECK_I64(c, parse(&opt, &err, ARGS("p", "--summary-only")), CSIM_OK);
	check_opts(c, &opt, &want);
	want.json = want.quiet = want.keep_scalar = 1;
	want.jobs = 2;
	CHECK_I64(c, parse(&opt, &err, ARGS("--json", "-qj2", "--keep-scalar", "--summ", "p")),
		  CSIM_OK);
	check_opts(c, &opt, &want);
	expect_usage(c, ARGS("--json", "p"), "option --json needs --summary-only");
	expect_usage(c, ARGS("--summary-only", "-o", "d", "p"),
		     "--summary-only writes no file: -o/--output-dir has nothing to shape");
	expect_usage(c, ARGS("-z", "--summary-only", "p"), "-z/--gzip has nothing");
	expect_usage(c, ARGS("--summary-only", "--raw-metrics", "p"), "--raw-metrics has nothing");
	expect_usage(c, ARGS("--summary-only", "--no-copy-raw", "p"), "--no-copy-raw has nothing");
	expect_usage(c, ARGS("--summary-only", "--check", "t.json"),
		     "--summary-only converts, --check does not");
	expect_usage(c, ARGS("--s", "p"), "option --s is ambiguous: --shard, --summary-only");
	/* --help still wins over the combination. */
	CHECK_I64(c, parse(&opt, &err, ARGS("--json", "--help")), CSIM_OK);
}

static void test_unknown_option_is_a_usage_error(struct check_ctx *c)
{
	expect_usage(c, ARGS("--bogus", "p"), "--bogus");
	expect_usage(c, ARGS("p", "-x"), "-x");
	expect_usage(c, ARGS("p", "--keep-scalar=1"), "option --keep-scalar=1 takes no value");
	expect_usage(c, ARGS("p", "--gzip=yes"), "option --gzip=yes takes no value");
	expect_usage(c, ARGS("p", "--output-directory", "d"), "--output-directory");
	expect_usage(c, ARGS("-qx", "p"), "unknown option -x (see --help)");
	expect_usage(c, ARGS("-W", "foo", "p"), "unknown option -W");
}

/* getopt_long's conventions: short flags bundle, a short option's value may
 * end its bundle, and a long name may be cut to any unambiguous prefix. */
static void test_bundles_and_prefixes(struct check_ctx *c)
{
	struct csim_options opt, want = defaults("p");
	struct csim_error err;

	want.quiet = 1;
	want.gzip = 1;
	CHECK_I64(c, parse(&opt, &err, ARGS("-qz", "p")), CSIM_OK);
	check_opts(c, &opt, &want);
	CHECK(c, opt.gzip == 1);
	want.output_dir = "DIR";
	CHECK_I64(c, parse(&opt, &err, ARGS("p", "-zqoDIR")), CSIM_OK);
	check_opts(c, &opt, &want);
	CHECK_I64(c, parse(&opt, &err, ARGS("-zqo", "DIR", "p")), CSIM_OK);
	check_opts(c, &opt, &want);
	want = defaults("p");
	want.output_dir = "DIR";
	want.keep_scalar = 1;
	want.jobs = 3;
	CHECK_I64(c, parse(&opt, &err, ARGS("--output", "DIR", "--keep-s", "p", "--jo=3")),
		  CSIM_OK);
	check_opts(c, &opt, &want);
	CHECK_I64(c, parse(&opt, &err, ARGS("--out=DIR", "--keep-sc", "-j3", "p")), CSIM_OK);
	check_opts(c, &opt, &want);
	want = defaults("p");
	want.show_help = 1;
	want.quiet = 1;
	CHECK_I64(c, parse(&opt, &err, ARGS("-qh", "p")), CSIM_OK);
	check_opts(c, &opt, &want);
	/* A prefix of two names is refused, naming both. */
	expect_usage(c, ARGS("--no", "p"),
		     "option --no is ambiguous: --no-copy-raw, --no-counters (see --help)");
	expect_usage(c, ARGS("--keep=1", "p"),
		     "option --keep is ambiguous: --keep-scalar, --keep-cache-ccu");
	/* The exact name wins over a longer one it is a prefix of: none here,
	 * so "--r" is refused and "--ru" is --run. */
	expect_usage(c, ARGS("--r", "1", "p"), "--raw-metrics, --run");
	want = defaults("p");
	want.run = 2;
	CHECK_I64(c, parse(&opt, &err, ARGS("--ru", "2", "p")), CSIM_OK);
	check_opts(c, &opt, &want);
	/* A missing value names the option as given. */
	expect_usage(c, ARGS("p", "-qj"), "option -j needs a number of jobs");
	expect_usage(c, ARGS("p", "--out"), "option --output-dir needs a directory");
}

/* Options after a PATH are options with POSIXLY_CORRECT set too: the parse
 * is the same on every machine. */
static void test_posixly_correct_changes_nothing(struct check_ctx *c)
{
	struct csim_options opt, want = defaults("p");
	struct csim_error err;

	want.output_dir = "out";
	want.quiet = 1;
	setenv("POSIXLY_CORRECT", "1", 1);
	CHECK_I64(c, parse(&opt, &err, ARGS("p", "-o", "out", "-q")), CSIM_OK);
	unsetenv("POSIXLY_CORRECT");
	check_opts(c, &opt, &want);
}

static void test_double_dash_ends_options(struct check_ctx *c)
{
	struct csim_options opt, want = defaults("-weird.bin");
	struct csim_error err;

	CHECK_I64(c, parse(&opt, &err, ARGS("--", "-weird.bin")), CSIM_OK);
	check_opts(c, &opt, &want);
	want = defaults("--keep-scalar");
	want.quiet = 1;
	CHECK_I64(c, parse(&opt, &err, ARGS("-q", "--", "--keep-scalar")), CSIM_OK);
	check_opts(c, &opt, &want);
	/* A lone "-" is a PATH, not an option. */
	want = defaults("-");
	CHECK_I64(c, parse(&opt, &err, ARGS("-")), CSIM_OK);
	check_opts(c, &opt, &want);
}

static void test_run_spellings(struct check_ctx *c)
{
	const char *const *forms[] = {
		ARGS("--run", "2", "p"), ARGS("--run=2", "p"), ARGS("p", "--run", "2"),
		ARGS("--run", "4294967295", "p"), ARGS("--run=all", "p"),
		ARGS("p", "--run", "all"), ARGS("--run", "007", "p")
	};
	static const unsigned runs[] = { 2, 2, 2, 4294967295u, 0, 0, 7 };

	for (size_t i = 0; i < sizeof(forms) / sizeof(forms[0]); i++) {
		struct csim_options opt, want = defaults("p");
		struct csim_error err;

		want.run = runs[i];
		want.run_all = runs[i] == 0;
		if (!CHECK_I64(c, parse(&opt, &err, forms[i]), CSIM_OK) ||
		    !check_opts(c, &opt, &want))
			fprintf(stderr, "    form %zu: %s\n", i, err.message);
	}
}

/* Run numbers are 1-based; anything but digits or "all" is refused. */
static void test_bad_run_is_a_usage_error(struct check_ctx *c)
{
	expect_usage(c, ARGS("--run", "0", "p"), "'0' is not a run number");
	expect_usage(c, ARGS("--run=x", "p"), "'x' is not a run number");
	expect_usage(c, ARGS("--run", "-1", "p"), "'-1'");
	expect_usage(c, ARGS("--run", "+1", "p"), "'+1'");
	expect_usage(c, ARGS("--run", "1.5", "p"), "'1.5'");
	expect_usage(c, ARGS("--run", "ALL", "p"), "'ALL'");
	expect_usage(c, ARGS("--run=", "p"), "''");
	expect_usage(c, ARGS("--run", "4294967296", "p"), "'4294967296'");
	expect_usage(c, ARGS("p", "--run"), "--run needs a run number or all");
	expect_usage(c, ARGS("--run", "1", "--run=all", "p"), "twice");
	expect_usage(c, ARGS("--run=all", "--run", "all", "p"), "twice");
}

/* --core is repeatable, in order, in both spellings. */
static void test_core_patterns(struct check_ctx *c)
{
	struct csim_options opt;
	struct csim_error err;

	CHECK_I64(c, parse(&opt, &err, ARGS("--core", "core0.*", "p", "--core=core1.veccore[01]")),
		  CSIM_OK);
	CHECK_I64(c, (int64_t)opt.ncores, 2);
	CHECK_STR(c, opt.cores[0], "core0.*");
	CHECK_STR(c, opt.cores[1], "core1.veccore[01]");
	CHECK_STR(c, opt.input, "p");
	CHECK(c, !csim_window_active(&opt.window));
	expect_usage(c, ARGS("p", "--core"), "--core needs a core name pattern");
	expect_usage(c, ARGS("--core=", "p"), "--core= needs a core name pattern");
}

/* One --window form: its bounds on the ns grid (-1: open). */
static void expect_window(struct check_ctx *c, const char *value, int64_t from, int64_t to)
{
	struct csim_options opt;
	struct csim_error err;

	if (!CHECK_I64(c, parse(&opt, &err, ARGS("--window", value, "p")), CSIM_OK)) {
		fprintf(stderr, "    --window %s: %s\n", value, err.message);
		return;
	}
	CHECK_I64(c, opt.window.has_from, from >= 0);
	CHECK_I64(c, opt.window.has_to, to >= 0);
	if (from >= 0)
		CHECK_I64(c, opt.window.from_ns, from);
	if (to >= 0)
		CHECK_I64(c, opt.window.to_ns, to);
}

static void test_window_forms(struct check_ctx *c)
{
	struct csim_options opt;
	struct csim_error err;

	expect_window(c, "3:5", 3000, 5000);
	expect_window(c, "3.2:6", 3200, 6000);
	expect_window(c, ":5", -1, 5000);
	expect_window(c, "3:", 3000, -1);
	expect_window(c, ":", -1, -1);          /* no cut */
	expect_window(c, "0:0", 0, 0);
	expect_window(c, "2.5:2.5", 2500, 2500);
	expect_window(c, "1e3:2E3", 1000000, 2000000);
	expect_window(c, "0.0004:0.0015", 0, 2);   /* the grid rounds half away from zero */
	CHECK_I64(c, parse(&opt, &err, ARGS("--window=1:2", "p")), CSIM_OK);
	CHECK_I64(c, opt.window.from_ns, 1000);
	CHECK_I64(c, opt.window.to_ns, 2000);
}

static void test_bad_window_is_a_usage_error(struct check_ctx *c)
{
	expect_usage(c, ARGS("--window", "5:3", "p"), "--window 5:3: the start is after the end");
	expect_usage(c, ARGS("--window", "3.0006:3.0004", "p"), "the start is after the end");
	expect_usage(c, ARGS("--window", "3", "p"), "'3' is not A:B");
	expect_usage(c, ARGS("--window", "1:2:3", "p"), "'1:2:3' is not A:B");
	expect_usage(c, ARGS("--window", "abc:5", "p"), "'abc' is not a number of us");
	expect_usage(c, ARGS("--window", "nan:", "p"), "'nan' is not a number");
	expect_usage(c, ARGS("--window", ":inf", "p"), "'inf' is not a number");
	expect_usage(c, ARGS("--window", "0x10:", "p"), "'0x10' is not a number");
	expect_usage(c, ARGS("--window", "+1:2", "p"), "'+1' is not a number");
	expect_usage(c, ARGS("--window", ".5:2", "p"), "'.5' is not a number");
	expect_usage(c, ARGS("--window", "1.:2", "p"), "'1.' is not a number");
	expect_usage(c, ARGS("--window", " 1:2", "p"), "' 1' is not a number");
	expect_usage(c, ARGS("--window", "-1:2", "p"), "'-1' is negative");
	expect_usage(c, ARGS("--window", ":-0.5", "p"), "'-0.5' is negative");
	expect_usage(c, ARGS("--window", "1e999:", "p"), "'1e999' us is beyond");
	expect_usage(c, ARGS("--window", ":1e13", "p"), "'1e13' us is beyond");
	expect_usage(c, ARGS("p", "--window"), "--window needs A:B");
	expect_usage(c, ARGS("--window", "1:2", "--window=1:2", "p"), "twice");
}

static void test_help_and_version_need_no_path(struct check_ctx *c)
{
	static const char *const help[] = { "-h", "--help" };
	struct csim_options opt, want = defaults(NULL);
	struct csim_error err;

	want.show_help = 1;
	for (size_t i = 0; i < 2; i++) {
		CHECK_I64(c, parse(&opt, &err, ARGS(help[i])), CSIM_OK);
		check_opts(c, &opt, &want);
	}
	want.show_help = 0;
	want.show_version = 1;
	CHECK_I64(c, parse(&opt, &err, ARGS("--version")), CSIM_OK);
	check_opts(c, &opt, &want);
	want = defaults("p");
	want.show_help = 1;
	CHECK_I64(c, parse(&opt, &err, ARGS("p", "-h")), CSIM_OK);
	check_opts(c, &opt, &want);
}

static void test_usage_text_lists_every_option(struct check_ctx *c)
{
	static const char *const names[] = {
		"PATH", "-o, --output-dir DIR", "--keep-scalar", "--raw-metrics",
		"--no-copy-raw", "--keep-cache-ccu", "--no-counters", "-q, --quiet",
		"-h, --help", "--version", "--run N|all", "--core PATTERN", "--window A:B",
		"-z, --gzip", "-j, --jobs N", "--shard K/N", "--check FILE", "PATH..."
	};
	static char u[16384];
	size_t len = 0;

	for (const char *const *line = csim_cli_usage_lines(); *line != NULL; line++) {
		const size_t n = strlen(*line);

		CHECK(c, len + n < sizeof(u));
		if (len + n >= sizeof(u))
			return;
		memcpy(u + len, *line, n + 1);
		len += n;
	}
	for (size_t i = 0; i < sizeof(names) / sizeof(names[0]); i++)
		CHECK_CONTAINS(c, u, names[i]);
}

int main(void)
{
	struct check_ctx c = { 0, 0, NULL };

	CHECK_RUN(&c, test_defaults);
	CHECK_RUN(&c, test_each_flag);
	CHECK_RUN(&c, test_all_flags_together);
	CHECK_RUN(&c, test_output_dir_spellings);
	CHECK_RUN(&c, test_output_dir_twice_is_a_usage_error);
	CHECK_RUN(&c, test_output_dir_without_a_value_is_a_usage_error);
	CHECK_RUN(&c, test_missing_path_is_a_usage_error);
	CHECK_RUN(&c, test_several_paths_keep_their_order);
	CHECK_RUN(&c, test_jobs_and_shard);
	CHECK_RUN(&c, test_bad_jobs_and_shard_are_usage_errors);
	CHECK_RUN(&c, test_check_takes_a_file_and_no_path);
	CHECK_RUN(&c, test_unknown_option_is_a_usage_error);
	CHECK_RUN(&c, test_bundles_and_prefixes);
	CHECK_RUN(&c, test_posixly_correct_changes_nothing);
	CHECK_RUN(&c, test_double_dash_ends_options);
	CHECK_RUN(&c, test_run_spellings);
	CHECK_RUN(&c, test_bad_run_is_a_usage_error);
	CHECK_RUN(&c, test_core_patterns);
	CHECK_RUN(&c, test_window_forms);
	CHECK_RUN(&c, test_bad_window_is_a_usage_error);
	CHECK_RUN(&c, test_help_and_version_need_no_path);
	CHECK_RUN(&c, test_summary_only);
	CHECK_RUN(&c, test_usage_text_lists_every_option);
	return check_done(&c);
}
