/*
 * check: clean_sim_trace --check, the viewer rules of SPEC §6 (and the
 * flat-lane packing of §4) applied to any Chrome-trace JSON file, ours or
 * anyone's, plain or gzip (detected by content).
 *
 * The file is read as a stream (check_scan): no JSON tree is built, so a
 * trace of hundreds of MB costs a few dozen bytes per slice and arrow, not
 * ~13 times its text. Rules are kept apart from the converter's model/
 * code on purpose: the checker is the test suite's oracle for the
 * converter's output, and a shared bug would pass itself.
 */
#ifndef CSIM_CHECK_H
#define CSIM_CHECK_H

#include <stddef.h>

#include "base/csim_error.h"
#include "check/check_report.h"   /* struct csim_check_sink */

struct csim_check_options {
	/* SPEC §4/§6: every lane flat in both viewers' models and packed at
	   the pipeline's true depth. 0: properly nested slices are allowed
	   (the generic Chrome-trace rule; the test tool's lenient mode). */
	int flat;
};

struct csim_check_result {
	size_t violations;
	size_t notes;       /* labels and order only: not violations */
	size_t slices, arrows, processes, threads, counters;
	size_t path_slices; /* of slices: on a "critical path" tid, the
			       converter's lane of SPEC §13 */
};

/*
 * Checks the file at path. CSIM_OK when the file was read to its end as
 * valid JSON, whatever res->violations says; CSIM_E_INPUT (err names the
 * file and, for bad JSON, the byte offset) when it is unreadable, not
 * JSON, has no event array, or memory ran out.
 */
int csim_check_file(const char *path, const struct csim_check_options *opt,
		    const struct csim_check_sink *sink, struct csim_check_result *res,
		    struct csim_error *err);

#endif
