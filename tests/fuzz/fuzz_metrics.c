/*
 * Fuzz target: an API_INSTR payload through validation, digest and reshape.
 *
 * Input PAYLOAD "\0CHG" AFTER: PAYLOAD is validated, then AFTER (cut or
 * padded with spaces to PAYLOAD's length) takes its place before the rows
 * are read again, as a file rewritten in place between the readings would:
 * the row readings' skipper then meets bytes nobody validated, and must
 * refuse them or read them in bounds. Every input also goes through the
 * skipper alone, which must end any value json_scan accepts where json_scan
 * ends it.
 *
 * Asserted of every input (fuzz_assert.h), beside the skipper's agreement:
 * - Loading, planning and digesting return CSIM_OK or CSIM_E_INPUT, and so
 *   does the write (CSIM_E_INPUT: the rows changed since the plan), each
 *   with a message and never "out of memory"; opening and finishing the
 *   file in a fresh folder of ours cannot fail.
 * - The write leaves nothing in its folder once its file is discarded,
 *   whether it succeeded or not.
 * - A second load, plan, digest and write of the same input gives the same
 *   codes, messages, plan figures and byte-identical instr_metrics.json.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "fuzz_assert.h"
#include "fuzz_util.h"

#include "read/json_scan.h"
#include "read/json_skip.h"
#include "write/metrics_writer.h"

/* The plan and the digest in one reading, as the conversion makes them. */
static int plan_digested(struct csim_metrics_plan *plan, const struct csim_metrics *mt,
			 struct csim_instr_stats *s, struct csim_error *err)
{
	struct csim_instr_sink sink;
	int rc = csim_metrics_plan_begin(plan, mt, &sink, err);

	return rc == CSIM_OK ? csim_instr_digest_rows(s, mt, &sink, err) : rc;
}

#define CHANGE_MARK "\0CHG"
#define CHANGE_MARK_LEN 4

/* After a value, in any JSON context: whitespace, a separator, a bracket. */
static int ends_value(const char *p, const char *end)
{
	return p == end || strchr(" \t\r\n,]}", *p) != NULL;
}

static void skip_agrees(const uint8_t *data, size_t size)
{
	char *w = malloc(size ? size : 1);
	struct csim_json_stack st = { NULL, 0, 0 };
	struct csim_span spans[8];

	if (w == NULL)
		return;
	memcpy(w, data, size);
	for (int final = 0; final <= 1; final++) {
		struct csim_scan_result a, b;
		size_t count;
		int ra = csim_json_scan_value(&st, w, w + size, final, &a);
		int rb = csim_json_skip_value(w, w + size, final, &b);

		/* a.end is set only when the scan succeeded (valgrind saw it read
		   otherwise). A scalar at the end of a window that is not final
		   may go on. */
		if (ra == CSIM_SCAN_OK && ends_value(a.end, w + size) &&
		    !(!final && a.end == w + size && rb == CSIM_SCAN_MORE) &&
		    (rb != CSIM_SCAN_OK || b.end != a.end))
			fuzz_fail(size, "json_scan ends a value at byte %zu (final %d) but json_skip "
				  "returns %d ending at byte %zu", (size_t)(a.end - w), final, rb,
				  rb == CSIM_SCAN_OK ? (size_t)(b.end - w) : (size_t)0);
		if (size > 0 && w[0] == '[')
			(void)csim_json_skip_array(w, w + size, final, spans, 8, &count, &b);
	}
	csim_json_stack_release(&st);
	free(w);
}

/* The finished file's bytes (still under its temporary name) into t. */
static void take_written(const struct csim_out *out, size_t size, struct fuzz_trail *t)
{
	char buf[16384];
	FILE *f = fopen(out->tmp_path, "rb");
	size_t got;

	if (f == NULL)
		fuzz_fail(size, "cannot open the written %s: %s", out->tmp_path, strerror(errno));
	while ((got = fread(buf, 1, sizeof(buf), f)) > 0)
		fuzz_trail_bytes(t, buf, got);
	if (ferror(f) || fclose(f) != 0)
		fuzz_fail(size, "cannot read the written %s", out->tmp_path);
}

/* instr_metrics.json written into a fresh folder, its bytes into t. */
static void write_once(const struct csim_metrics *mt, const struct csim_metrics_plan *plan,
		       size_t size, struct fuzz_trail *t)
{
	char dir[] = "/dev/shm/csim-fuzz-XXXXXX";
	struct csim_error err;
	struct csim_out out;
	int rc;

	if (mkdtemp(dir) == NULL)
		fuzz_fail(size, "cannot make a folder in /dev/shm: %s", strerror(errno));
	rc = csim_out_open(&out, dir, "instr_metrics.json", &err);
	fuzz_expect(size, "csim_out_open in a fresh folder", rc, &err, 0);
	rc = csim_metrics_write(mt, plan, 0, &out, &err);
	fuzz_expect(size, "csim_metrics_write", rc, &err, FUZZ_CODE(CSIM_E_INPUT));
	fuzz_trail_result(t, rc, &err);
	if (rc == CSIM_OK) {
		rc = csim_out_finish(&out, &err);
		fuzz_expect(size, "csim_out_finish in a fresh folder", rc, &err, 0);
		take_written(&out, size, t);
	}
	csim_out_abort(&out);
	if (rmdir(dir) != 0)
		fuzz_fail(size, "csim_metrics_write (%d) left its folder not empty after the "
			  "file's discard: %s", rc, strerror(errno));
}

/* The plan's figures and the digest's totals. */
static void take_plan(const struct csim_metrics_plan *plan, const struct csim_instr_stats *s,
		      struct fuzz_trail *t)
{
	fuzz_trail_u64(t, plan->ncores);
	for (size_t i = 0; i < plan->ncores; i++) {
		fuzz_trail_u64(t, plan->part[i]);
		fuzz_trail_u64(t, plan->rows[i]);
	}
	fuzz_trail_u64(t, plan->left_out);
	fuzz_trail_u64(t, plan->bytes);
	fuzz_trail_u64(t, (uint64_t)plan->over);
	fuzz_trail_u64(t, s->ncores);
	fuzz_trail_u64(t, s->npipes);
	fuzz_trail_u64(t, s->ntop);
	fuzz_trail_u64(t, s->total_cycles);
}

/* The payload (changed by the mark) loaded, planned, digested and written. */
static void metrics_once(const uint8_t *data, size_t size, struct fuzz_trail *t)
{
	struct csim_metrics mt;
	struct csim_error err;
	const uint8_t *mark = memmem(data, size, CHANGE_MARK, CHANGE_MARK_LEN);
	size_t n = mark != NULL ? (size_t)(mark - data) : size;
	char *payload = malloc(n ? n : 1);
	struct csim_metrics_plan plan;
	struct csim_instr_stats s;
	int rc;

	if (payload == NULL)
		fuzz_fail(size, "the harness ran out of memory");
	memcpy(payload, data, n);
	memset(&plan, 0, sizeof(plan));
	csim_instr_stats_init(&s);
	rc = csim_metrics_load(&mt, "fuzz", 0, payload, n, &err);
	fuzz_expect(size, "csim_metrics_load", rc, &err, FUZZ_CODE(CSIM_E_INPUT));
	fuzz_trail_result(t, rc, &err);
	if (rc == CSIM_OK) {
		if (mark != NULL && mt.payload != NULL) {
			const uint8_t *after = mark + CHANGE_MARK_LEN;
			size_t after_n = size - n - CHANGE_MARK_LEN;

			for (size_t i = 0; i < n; i++)
				mt.payload[i] = i < after_n ? (char)after[i] : ' ';
		}
		rc = plan_digested(&plan, &mt, &s, &err);
		fuzz_expect(size, "the plan and digest", rc, &err, FUZZ_CODE(CSIM_E_INPUT));
		fuzz_trail_result(t, rc, &err);
		if (rc == CSIM_OK) {
			take_plan(&plan, &s, t);
			write_once(&mt, &plan, size, t);
		}
	}
	csim_metrics_plan_release(&plan);
	csim_instr_stats_release(&s);
	csim_metrics_release(&mt);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct fuzz_trail first = { NULL, 0, 0 }, second = { NULL, 0, 0 };

	skip_agrees(data, size);
	metrics_once(data, size, &first);
	if (FUZZ_SECOND_RUN) {
		metrics_once(data, size, &second);
		fuzz_trails_same(size, "the metrics' outcome", &first, &second);
	}
	fuzz_trail_release(&first);
	fuzz_trail_release(&second);
	return 0;
}
