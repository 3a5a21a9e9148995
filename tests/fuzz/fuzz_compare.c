/*
 * Fuzz target: --compare's reading and writing on arbitrary bytes. The
 * input is a memory file read as one side (a summary.json or a
 * batch_summary.json, or neither); a result that reads is compared with
 * itself and, run by run, with its next run, and the table, compare.json
 * and compare.html are written to nowhere, so every writer's path through
 * the reader's spans is fuzzed too.
 */
#define _GNU_SOURCE
#include <stdio.h>
#include <string.h>

#include "fuzz_util.h"

#include "model/compare.h"
#include "read/result_read.h"
#include "write/compare_html.h"
#include "write/compare_json.h"
#include "write/compare_table.h"

static int discard(void *ctx, const char *p, size_t n)
{
	(void)ctx;
	(void)p;
	(void)n;
	return 0;
}

static void write_all(const struct csim_compare *c, FILE *null)
{
	char buf[4096];
	struct csim_out o;

	memset(&o, 0, sizeof(o));
	csim_out_stage(&o, buf, sizeof(buf), discard, NULL);
	csim_compare_json_write(c, &o);
	csim_out_stage(&o, buf, sizeof(buf), discard, NULL);
	csim_compare_html_write(c, &o);
	if (null != NULL)
		csim_compare_table_print(c, null);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct csim_result r;
	struct csim_compare c;
	struct csim_error err;
	struct fuzz_file f;
	FILE *null;

	if (fuzz_file_open(&f, data, size) != 0)
		return 0;
	null = fopen("/dev/null", "w");
	csim_result_init(&r);
	csim_error_clear(&err);
	if (csim_result_read(&r, f.path, &err) == CSIM_OK) {
		if (csim_compare_build(&c, &r, &r, (double)(size % 7), &err) == CSIM_OK)
			write_all(&c, null);
		csim_compare_release(&c);
		for (size_t k = 1; r.kind == CSIM_RESULT_SINGLE && k < r.nruns; k++) {
			if (csim_compare_runs(&c, &r, k - 1, &r, k, &err) == CSIM_OK)
				write_all(&c, null);
			csim_compare_release(&c);
		}
	}
	csim_result_release(&r);
	if (null != NULL)
		fclose(null);
	fuzz_file_close(&f);
	return 0;
}
