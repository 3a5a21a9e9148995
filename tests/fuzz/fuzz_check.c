/*
 * Fuzz target: clean_sim_trace --check on arbitrary bytes (plain or gzip,
 * any JSON or none). The input is a memory file; the rules run in both
 * modes (flat by the input's size) and format every violation, so the
 * message paths are fuzzed too.
 */
#define _GNU_SOURCE
#include <string.h>

#include "fuzz_util.h"

#include "check/check.h"

static void ignore_line(void *ctx, const char *rule, const char *text)
{
	(void)ctx;
	(void)rule;
	(void)text;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	const struct csim_check_sink sink = { ignore_line, NULL, (size_t)-1, ignore_line, NULL };
	struct csim_check_options opt;
	struct csim_check_result res;
	struct csim_error err;
	struct fuzz_file f;

	if (fuzz_file_open(&f, data, size) != 0)
		return 0;
	memset(&opt, 0, sizeof(opt));
	opt.flat = (int)(size & 1) == 0;
	csim_error_clear(&err);
	(void)csim_check_file(f.path, &opt, &sink, &res, &err);
	fuzz_file_close(&f);
	return 0;
}
