/*
 * Fuzz target: --compare's reading and writing on arbitrary bytes. The
 * input is a memory file read as one side (a summary.json or a
 * batch_summary.json, or neither); a result that reads is compared with
 * itself and, run by run, with its next run, and the table, compare.json
 * and compare.html are written to memory, so every writer's path through
 * the reader's spans is fuzzed too.
 *
 * Asserted of every input (fuzz_assert.h):
 * - csim_result_read returns CSIM_OK or CSIM_E_INPUT with a message, never
 *   "out of memory".
 * - A result compared with itself, or run by run, builds (both sides are
 *   of one kind, so no usage error; nothing else can fail but memory), and
 *   with itself never finds the kernel's span slower than the threshold.
 * - A second reading and comparison gives the same codes, messages and
 *   byte-identical table, compare.json and compare.html.
 */
#define _GNU_SOURCE
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "fuzz_assert.h"
#include "fuzz_util.h"

#include "model/compare.h"
#include "read/result_read.h"
#include "write/compare_html.h"
#include "write/compare_json.h"
#include "write/compare_table.h"

static int to_trail(void *ctx, const char *p, size_t n)
{
	fuzz_trail_bytes(ctx, p, n);
	return 0;
}

/* The three writers' bytes, each with its length, into t. */
static void write_all(const struct csim_compare *c, size_t size, struct fuzz_trail *t)
{
	char buf[4096];
	struct csim_out o;
	char *table = NULL;
	size_t table_n = 0;
	FILE *mem = open_memstream(&table, &table_n);

	if (mem == NULL)
		fuzz_fail(size, "cannot open a memory stream");
	memset(&o, 0, sizeof(o));
	csim_out_stage(&o, buf, sizeof(buf), to_trail, t);
	csim_compare_json_write(c, &o);
	csim_out_flush(&o);
	csim_out_stage(&o, buf, sizeof(buf), to_trail, t);
	csim_compare_html_write(c, &o);
	csim_out_flush(&o);
	csim_compare_table_print(c, mem);
	if (fclose(mem) != 0)
		fuzz_fail(size, "cannot write the table to memory");
	fuzz_trail_text(t, table, table_n);
	free(table);
}

/* The input read and compared once, everything observable into t. */
static void compare_once(const char *path, size_t size, struct fuzz_trail *t)
{
	struct csim_result r;
	struct csim_compare c;
	struct csim_error err;
	int rc;

	csim_result_init(&r);
	csim_error_clear(&err);
	rc = csim_result_read(&r, path, &err);
	fuzz_expect(size, "csim_result_read", rc, &err, FUZZ_CODE(CSIM_E_INPUT));
	fuzz_trail_result(t, rc, &err);
	if (rc == CSIM_OK) {
		rc = csim_compare_build(&c, &r, &r, (double)(size % 7), &err);
		fuzz_expect(size, "csim_compare_build of a result with itself", rc, &err, 0);
		/* Only the kernel: cores pair by name, and a file may name two alike. */
		for (size_t i = 0; i < c.nslower; i++)
			if (c.slower[i].what.p == NULL)
				fuzz_fail(size, "a result compared with itself has a kernel span "
					  "slower by over %zu %%", size % 7);
		write_all(&c, size, t);
		csim_compare_release(&c);
		for (size_t k = 1; r.kind == CSIM_RESULT_SINGLE && k < r.nruns; k++) {
			rc = csim_compare_runs(&c, &r, k - 1, &r, k, &err);
			fuzz_expect(size, "csim_compare_runs", rc, &err, 0);
			write_all(&c, size, t);
			csim_compare_release(&c);
		}
	}
	csim_result_release(&r);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	fuzz_twice_on(data, size, "the comparison", compare_once);
	return 0;
}
