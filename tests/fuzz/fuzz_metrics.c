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
 */
#define _GNU_SOURCE
#include <stdlib.h>
#include <string.h>

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

		/* A scalar at the end of a window that is not final may go on. */
		int may_go_on = !final && a.end == w + size && rb == CSIM_SCAN_MORE;

		if (ra == CSIM_SCAN_OK && ends_value(a.end, w + size) && !may_go_on &&
		    (rb != CSIM_SCAN_OK || b.end != a.end))
			abort();
		if (size > 0 && w[0] == '[')
			(void)csim_json_skip_array(w, w + size, final, spans, 8, &count, &b);
	}
	csim_json_stack_release(&st);
	free(w);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct csim_metrics mt;
	struct csim_error err;
	const uint8_t *mark = memmem(data, size, CHANGE_MARK, CHANGE_MARK_LEN);
	size_t n = mark != NULL ? (size_t)(mark - data) : size;
	char *payload = malloc(n ? n : 1);
	struct csim_metrics_plan plan;
	struct csim_instr_stats s;

	skip_agrees(data, size);
	if (payload == NULL)
		return 0;
	memcpy(payload, data, n);
	memset(&plan, 0, sizeof(plan));
	csim_instr_stats_init(&s);
	if (csim_metrics_load(&mt, "fuzz", 0, payload, n, &err) == CSIM_OK) {
		if (mark != NULL && mt.payload != NULL) {
			const uint8_t *after = mark + CHANGE_MARK_LEN;
			size_t after_n = size - n - CHANGE_MARK_LEN;

			for (size_t i = 0; i < n; i++)
				mt.payload[i] = i < after_n ? (char)after[i] : ' ';
		}
		if (plan_digested(&plan, &mt, &s, &err) == CSIM_OK) {
			struct csim_out out;
			char dir[] = "/dev/shm/csim-fuzz-XXXXXX";

			if (mkdtemp(dir) != NULL) {
				if (csim_out_open(&out, dir, "instr_metrics.json", &err) == CSIM_OK) {
					(void)csim_metrics_write(&mt, &plan, 0, &out, &err);
					csim_out_abort(&out);
				}
				rmdir(dir);
			}
		}
	}
	csim_metrics_plan_release(&plan);
	csim_instr_stats_release(&s);
	csim_metrics_release(&mt);
	return 0;
}
