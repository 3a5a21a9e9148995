/*
 * trace_check: the test suite's view of the viewer-rule checker. The rules
 * are the product's (src/check/, what `clean_sim_trace --check` runs); this
 * wrapper only adds what tests need on top:
 *
 *   --disjoint       the flat-lane rules of SPEC §4/§6 (what --check always
 *                    applies); without it properly nested slices pass
 *   (always)         what --check only notes fails here: missing or repeated
 *                    metadata, more sub-lanes than a pipe needs
 *   --expect-slices N, --expect-arrows N, --expect-threads N,
 *   --expect-counters N
 *                    the counts must be these ("expect" violation); slices
 *                    are those not on a "critical path" lane
 *
 * Usage: trace_check [--disjoint] [--expect-...] FILE
 * Exit: 0 all rules hold, 1 violations (on stderr, the first 50, each
 * "trace_check: FILE: <rule>: <detail>"; a file that is not valid JSON is
 * rule "json"), 2 usage or a file that cannot be opened.
 */
#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "check/check.h"

enum { MAX_SHOWN = 50 };

enum expect_kind { EXP_SLICES, EXP_ARROWS, EXP_THREADS, EXP_COUNTERS, EXP_COUNT };

static const char *const EXPECT_FLAGS[EXP_COUNT] = {
	"--expect-slices", "--expect-arrows", "--expect-threads", "--expect-counters"
};
static const char *const EXPECT_NOUNS[EXP_COUNT] = {
	"slices", "arrows", "threads", "counters"
};

struct options {
	const char *path;
	int disjoint;
	int expect_set[EXP_COUNT];
	size_t expect[EXP_COUNT];
};

static void usage(FILE *out)
{
	fputs("usage: trace_check [--disjoint] [--expect-slices N] [--expect-arrows N]\n"
	      "                   [--expect-threads N] [--expect-counters N] FILE\n"
	      "Checks a trace.clean.json against the viewer rules; exit 0 ok, 1 violations, 2 usage.\n",
	      out);
}

static int parse_count(const char *s, size_t *out)
{
	char *end = NULL;
	unsigned long long v;

	if (s == NULL || *s < '0' || *s > '9')
		return 0;
	errno = 0;
	v = strtoull(s, &end, 10);
	if (errno != 0 || *end != '\0' || v > SIZE_MAX)
		return 0;
	*out = (size_t)v;
	return 1;
}

static int expect_flag(const char *arg)
{
	for (int k = 0; k < EXP_COUNT; k++)
		if (strcmp(arg, EXPECT_FLAGS[k]) == 0)
			return k;
	return -1;
}

/* 0 to run, 1 when --help was handled, -1 on a usage error. */
static int parse_args(int argc, char **argv, struct options *o)
{
	int only_files = 0;

	memset(o, 0, sizeof(*o));
	for (int i = 1; i < argc; i++) {
		const char *a = argv[i];
		int k = only_files ? -1 : expect_flag(a);

		if (!only_files && strcmp(a, "--") == 0) {
			only_files = 1;
		} else if (!only_files && strcmp(a, "--help") == 0) {
			usage(stdout);
			return 1;
		} else if (!only_files && strcmp(a, "--disjoint") == 0) {
			o->disjoint = 1;
		} else if (k >= 0) {
			if (i + 1 >= argc || !parse_count(argv[i + 1], &o->expect[k])) {
				fprintf(stderr, "trace_check: %s needs a count\n", a);
				return -1;
			}
			o->expect_set[k] = 1;
			i++;
		} else if (!only_files && a[0] == '-' && a[1] != '\0') {
			fprintf(stderr, "trace_check: unknown option %s\n", a);
			return -1;
		} else if (o->path != NULL) {
			fputs("trace_check: exactly one FILE expected\n", stderr);
			return -1;
		} else {
			o->path = a;
		}
	}
	if (o->path == NULL) {
		fputs("trace_check: missing FILE\n", stderr);
		return -1;
	}
	return 0;
}

static void print_line(void *ctx, const char *rule, const char *text)
{
	fprintf(stderr, "trace_check: %s: %s: %s\n", (const char *)ctx, rule, text);
}

static int run(const struct options *o)
{
	const struct csim_check_options copt = { o->disjoint };
	/* Notes are violations here: the converter's own output carries full,
	   single metadata and no lane beyond the pipe's depth (SPEC §4, §6),
	   which --check, judging anyone's trace, only notes. */
	const struct csim_check_sink sink = { print_line, (void *)o->path, MAX_SHOWN, print_line, NULL };
	struct csim_check_result res;
	struct csim_error err;
	size_t actual[EXP_COUNT], total;
	FILE *probe = fopen(o->path, "rb");

	if (probe == NULL) {
		fprintf(stderr, "trace_check: %s: cannot read: %s\n", o->path, strerror(errno));
		return 2;
	}
	fclose(probe);
	csim_error_clear(&err);
	if (csim_check_file(o->path, &copt, &sink, &res, &err) != CSIM_OK) {
		fprintf(stderr, "trace_check: %s: json: %s\n", o->path, err.message);
		return 1;
	}
	total = res.violations + res.notes;
	/* Instruction slices: the critical-path lane's segments are the
	   summary's to count (summary_recheck). */
	actual[EXP_SLICES] = res.slices - res.path_slices;
	actual[EXP_ARROWS] = res.arrows;
	actual[EXP_THREADS] = res.threads;
	actual[EXP_COUNTERS] = res.counters;
	for (int k = 0; k < EXP_COUNT; k++) {
		if (!o->expect_set[k] || o->expect[k] == actual[k])
			continue;
		if (++total <= MAX_SHOWN)
			fprintf(stderr, "trace_check: %s: expect: %zu %s, expected %zu\n",
				o->path, actual[k], EXPECT_NOUNS[k], o->expect[k]);
	}
	if (total > MAX_SHOWN)
		fprintf(stderr, "trace_check: %s: %zu violations in total (%d shown)\n",
			o->path, total, (int)MAX_SHOWN);
	if (total == 0) {
		printf("ok: %zu slices", actual[EXP_SLICES]);
		if (res.path_slices > 0)
			printf(" (and %zu critical-path segments)", res.path_slices);
		printf(", %zu arrows, %zu processes, %zu threads, %zu counters\n", res.arrows,
		       res.processes, res.threads, res.counters);
	}
	return total == 0 ? 0 : 1;
}

int main(int argc, char **argv)
{
	struct options o;
	int parsed = parse_args(argc, argv, &o);

	if (parsed != 0) {
		if (parsed < 0)
			usage(stderr);
		return parsed < 0 ? 2 : 0;
	}
	return run(&o);
}
