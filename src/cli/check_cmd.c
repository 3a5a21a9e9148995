#include "cli/check_cmd.h"

#include <stdio.h>

#include "base/log.h"
#include "check/check.h"

/* A violation quotes the trace's own names: escaped as every message is,
   so a name holding ESC or BEL cannot retitle or clear the terminal. */
static void print_line(void *ctx, const char *rule, const char *text)
{
	fprintf(ctx, "%s: ", rule);
	csim_log_text(ctx, text);
	fputc('\n', ctx);
}

static void print_more(void *ctx, size_t unshown)
{
	fprintf(ctx, "... and %zu more\n", unshown);
}

/* A note is not a rule broken: its keyword stays for the test tool. */
static void print_note(void *ctx, const char *rule, const char *text)
{
	(void)rule;
	fputs("note: ", ctx);
	csim_log_text(ctx, text);
	fputc('\n', ctx);
}

int csim_check_cmd(const struct csim_options *opt, struct csim_log *log,
		   struct csim_error *err)
{
	/* --check applies SPEC §6, where every lane is flat: no nesting. */
	const struct csim_check_options copt = { 1 };
	const struct csim_check_sink sink = {
		print_line, log->out, log->quiet ? 0 : CSIM_CHECK_SHOWN, print_note, print_more
	};
	struct csim_check_result res;
	int rc = csim_check_file(opt->check_file, &copt, &sink, &res, err);

	if (rc != CSIM_OK)
		return rc;
	/* The count line is printed even with -q: it is the answer asked for.
	   Notes do not change the verdict; their count ends the line. */
	csim_log_text(log->out, opt->check_file);
	fprintf(log->out, ": %zu violation(s); %zu slices", res.violations, res.slices);
	if (res.path_slices > 0)
		fprintf(log->out, " (%zu on critical-path lanes)", res.path_slices);
	fprintf(log->out, ", %zu arrows, %zu processes, %zu threads, %zu counters", res.arrows,
		res.processes, res.threads, res.counters);
	if (res.notes > 0)
		fprintf(log->out, "; %zu note(s)", res.notes);
	fputc('\n', log->out);
	return res.violations == 0 ? CSIM_OK : CSIM_E_INPUT;
}
