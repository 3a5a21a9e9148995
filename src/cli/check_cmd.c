#include "cli/check_cmd.h"

#include <stdio.h>

#include "check/check.h"

static void print_line(void *ctx, const char *rule, const char *text)
{
	fprintf(ctx, "%s: %s\n", rule, text);
}

int csim_check_cmd(const struct csim_options *opt, struct csim_log *log,
		   struct csim_error *err)
{
	/* --check applies SPEC §6, where every lane is flat: no nesting. */
	const struct csim_check_options copt = { 1 };
	const struct csim_check_sink sink = {
		print_line, log->out, log->quiet ? 0 : CSIM_CHECK_SHOWN
	};
	struct csim_check_result res;
	int rc = csim_check_file(opt->check_file, &copt, &sink, &res, err);

	if (rc != CSIM_OK)
		return rc;
	if (res.violations > sink.max_lines && sink.max_lines > 0)
		fprintf(log->out, "... and %zu more\n", res.violations - sink.max_lines);
	/* The count line is printed even with -q: it is the answer asked for. */
	fprintf(log->out, "%s: %zu violation(s); %zu slices, %zu arrows, %zu processes, %zu threads, %zu counters\n",
		opt->check_file, res.violations, res.slices, res.arrows, res.processes,
		res.threads, res.counters);
	return res.violations == 0 ? CSIM_OK : CSIM_E_INPUT;
}
