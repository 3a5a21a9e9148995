/*
 * clean_sim_trace: the command-line entry point. Parses options, runs one
 * conversion and maps its result to the exit status; the only place that
 * prints errors and the only place that exits.
 */
#include <stdio.h>

#include "cli/check_cmd.h"
#include "cli/cli.h"
#include "cli/convert.h"
#include "base/interrupt.h"
#include "base/log.h"

int main(int argc, char **argv)
{
	struct csim_options opt;
	struct csim_error err;
	struct csim_log log = { stdout, stderr, 0 };
	int rc;

	csim_error_clear(&err);
	rc = csim_cli_parse(&opt, argc, argv, &err);
	if (rc != CSIM_OK) {
		fprintf(stderr, "error: %s\n", err.message);
		return rc;
	}
	if (opt.show_help) {
		fputs(csim_cli_usage(), stdout);
		return CSIM_OK;
	}
	if (opt.show_version) {
		printf("clean_sim_trace %s\n", CSIM_VERSION);
		return CSIM_OK;
	}
	log.quiet = opt.quiet;
	if (opt.check_file != NULL) {
		rc = csim_check_cmd(&opt, &log, &err);
		if (rc != CSIM_OK && err.message[0] != '\0')
			fprintf(stderr, "error: %s\n", err.message);
		if (fflush(stdout) != 0 || ferror(stdout)) {
			fprintf(stderr, "error: cannot write to standard output\n");
			rc = CSIM_E_OUTPUT;
		}
		return rc;
	}
	/* Batch mode lands in a later commit of issue #11. */
	if (opt.ninputs > 1) {
		fprintf(stderr, "error: more than one PATH given: batch mode is not built yet\n");
		return CSIM_E_USAGE;
	}
	if (csim_interrupt_install() != 0)
		fprintf(stderr, "warning: cannot catch signals: an interrupted run may leave temporary files\n");
	rc = csim_convert(&opt, &log, &err);
	if (rc != CSIM_OK)
		fprintf(stderr, "error: %s\n", err.message);
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
