/*
 * clean_sim_trace: the command-line entry point. Parses options, runs one
 * conversion or a batch (several PATHs, or a folder above dumps) and maps
 * its result to the exit status; the only place that
 * prints errors and the only place that exits.
 */
#include <stdio.h>
#include <unistd.h>

#include "cli/check_cmd.h"
#include "cli/compare_cmd.h"
#include "cli/cli.h"
#include "cli/batch.h"
#include "cli/convert.h"
#include "read/dump_find.h"
#include "base/interrupt.h"
#include "base/log.h"
#include "base/progress.h"

int main(int argc, char **argv)
{
	struct csim_options opt;
	struct csim_error err;
	struct csim_progress progress;
	struct csim_log log = { stdout, stderr, 0, NULL };
	struct csim_dump_list dumps;
	int worker = 0;
	int rc;

	csim_error_clear(&err);
	/* Before anything is printed: stdout into a closed pipe is exit 3. */
	if (csim_interrupt_ignore_pipe() != 0)
		fprintf(stderr, "warning: cannot ignore SIGPIPE: a closed stdout may end the run by that signal\n");
	rc = csim_cli_parse(&opt, argc, argv, &err);
	if (rc != CSIM_OK) {
		csim_log_error(stderr, err.message);
		return rc;
	}
	if (opt.show_help) {
		for (const char *const *line = csim_cli_usage_lines(); *line != NULL; line++)
			fputs(*line, stdout);
		return CSIM_OK;
	}
	if (opt.show_version) {
		printf("clean_sim_trace %s\n", CSIM_VERSION);
		return CSIM_OK;
	}
	log.quiet = opt.quiet;
	if (opt.check_file != NULL || opt.compare_base != NULL) {
		rc = opt.check_file != NULL ? csim_check_cmd(&opt, &log, &err)
					    : csim_compare_cmd(&opt, &log, &err);
		if (rc != CSIM_OK && err.message[0] != '\0')
			csim_log_error(stderr, err.message);
		if (fflush(stdout) != 0 || ferror(stdout)) {
			fprintf(stderr, "error: cannot write to standard output\n");
			rc = CSIM_E_OUTPUT;
		}
		return rc;
	}
	/* A status line only for a person watching (SPEC §1). */
	csim_progress_init(&progress, !opt.quiet && isatty(STDERR_FILENO) ? stderr : NULL,
			   csim_progress_monotonic_ns, NULL);
	log.progress = &progress;
	if (csim_interrupt_install() != 0)
		fprintf(stderr, "warning: cannot catch signals: an interrupted run may leave temporary files\n");
	rc = csim_dump_find(&dumps, opt.inputs, opt.ninputs, opt.output_dir, &log, &err);
	if (rc == CSIM_OK && (dumps.batch || opt.shard_n != 0))
		rc = csim_batch_run(&opt, &dumps, &log, &worker, &err);
	else if (rc == CSIM_OK)
		rc = csim_convert(&opt, &log, &err);   /* one dump: single mode */
	csim_dump_list_release(&dumps);
	if (worker)
		return rc;   /* a batch worker: its result went to the parent */
	if (rc != CSIM_OK)
		csim_log_error(stderr, err.message);
	if (rc == CSIM_E_INTERRUPTED) {
		fflush(stdout);
		csim_interrupt_resend();
		return rc;
	}
	if (fflush(stdout) != 0 || ferror(stdout)) {
		/* "wrote ..." lines are part of the contract for scripts. */
		fprintf(stderr, "error: cannot write to standard output\n");
		if (rc == CSIM_OK)
			rc = CSIM_E_OUTPUT;
	}
	return rc;
}
