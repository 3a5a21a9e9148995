/*
 * Fuzz target: clean_sim_trace --check on arbitrary bytes (plain or gzip,
 * any JSON or none). The input is a memory file; the rules run in both
 * modes (flat by the input's size) and format every violation, so the
 * message paths are fuzzed too.
 *
 * Asserted of every input (fuzz_assert.h):
 * - csim_check_file returns CSIM_OK or CSIM_E_INPUT with a message, never
 *   "out of memory".
 * - On CSIM_OK, the sink was handed every violation (it takes them all)
 *   and every note the result counts, each with a rule and a text, and
 *   "more" never (nothing was held back); the critical-path slices are
 *   among the slices.
 * - A second check of the same file gives the same code, message, counts
 *   and lines, byte for byte.
 */
#define _GNU_SOURCE
#include <string.h>

#include "fuzz_assert.h"
#include "fuzz_util.h"

#include "check/check.h"

/* What the sink was handed: the lines into the trail, counted. */
struct seen {
	struct fuzz_trail *t;
	size_t lines, notes, more;
	int empty;              /* a line or note without its rule or text */
};

static void take(struct seen *s, const char *rule, const char *text)
{
	if (rule == NULL || text == NULL || rule[0] == '\0' || text[0] == '\0') {
		s->empty = 1;
		return;
	}
	fuzz_trail_text(s->t, rule, strlen(rule));
	fuzz_trail_text(s->t, text, strlen(text));
}

static void on_line(void *ctx, const char *rule, const char *text)
{
	struct seen *s = ctx;

	s->lines++;
	take(s, rule, text);
}

static void on_note(void *ctx, const char *rule, const char *text)
{
	struct seen *s = ctx;

	s->notes++;
	take(s, rule, text);
}

static void on_more(void *ctx, size_t unshown)
{
	struct seen *s = ctx;

	s->more += unshown + 1;
}

/* One check of the file, everything observable into t. */
static void check_once(const char *path, size_t size, struct fuzz_trail *t)
{
	struct seen s = { t, 0, 0, 0, 0 };
	const struct csim_check_sink sink = { on_line, &s, (size_t)-1, on_note, on_more };
	struct csim_check_options opt;
	struct csim_check_result res;
	struct csim_error err;
	int rc;

	memset(&opt, 0, sizeof(opt));
	memset(&res, 0, sizeof(res));
	opt.flat = (int)(size & 1) == 0;
	csim_error_clear(&err);
	rc = csim_check_file(path, &opt, &sink, &res, &err);
	fuzz_expect(size, "csim_check_file", rc, &err, FUZZ_CODE(CSIM_E_INPUT));
	fuzz_trail_result(t, rc, &err);
	if (s.empty)
		fuzz_fail(size, "csim_check_file handed a line or note without its rule or text");
	if (rc != CSIM_OK)
		return;
	if (s.lines != res.violations || s.notes != res.notes || s.more != 0)
		fuzz_fail(size, "csim_check_file counted %zu violation(s) and %zu note(s) but handed "
			  "%zu and %zu (more: %zu), taking every line", res.violations, res.notes,
			  s.lines, s.notes, s.more);
	if (res.path_slices > res.slices)
		fuzz_fail(size, "csim_check_file counted %zu critical-path slice(s) of %zu slice(s)",
			  res.path_slices, res.slices);
	fuzz_trail_u64(t, res.violations);
	fuzz_trail_u64(t, res.notes);
	fuzz_trail_u64(t, res.slices);
	fuzz_trail_u64(t, res.arrows);
	fuzz_trail_u64(t, res.processes);
	fuzz_trail_u64(t, res.threads);
	fuzz_trail_u64(t, res.counters);
	fuzz_trail_u64(t, res.path_slices);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	fuzz_twice_on(data, size, "the check", check_once);
	return 0;
}
