/*
 * pftrace_recheck: an independent check of a trace.pftrace (SPEC §15,
 * docs/perfetto.md) against the trace.clean.json of the same run. It
 * shares no code with the converter: its own protobuf decoder (cJSON for
 * the JSON only).
 *
 *   pftrace_recheck [--strict-depth] TRACE.pftrace TRACE.clean.json
 *
 * Checks, slice for slice: the packets (trusted sequence 1, the first
 * clearing the incremental state, SEQ_NEEDS_INCREMENTAL_STATE wherever an
 * interned id is used, every id defined, every event on a track described
 * before it); the root track ordering processes and threads explicitly;
 * the processes and, per process, the lanes (sub-lanes collapsed) in the
 * JSON's order; every JSON "X" as one slice on its process and lane with
 * its name, at the exact ns of its decimal ts and ts + dur (or cut within
 * SPEC §4's tol at the next slice of its track), zero-length ones as
 * instants, its args as debug annotations; every track flat on its
 * integer intervals; per lane, as many tracks not named "... (points)" as
 * its SPEC §4 pipeline depth on the JSON's float times (non-point slices
 * over [a, b - tol)), and a "(points)" track (which may hold ordinary
 * slices too) only in a lane with a SPEC §4 point among its JSON slices;
 * the arrows as flows between the same slices; the counters as samples of
 * "<name> <key>" tracks. A lane whose SPEC §4 depth differs from its depth
 * on the pftrace's integer intervals is reported as "depth differs" (on
 * stderr, counted in the summary line): information, since the tracks
 * follow the SPEC §4 depth, and a problem only with --strict-depth (kept
 * for compatibility).
 *
 * Exit 0 with a summary line on stdout; 1 with one line per problem on
 * stdout (the first 20, then the count); 2 on usage or I/O.
 */
#include "pftrace_recheck.h"

#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#define SHOWN 20

static size_t problems, notes, printed, notes_printed;
static int strict_depth;

static void line(FILE *out, size_t *count, const char *kind, const char *fmt, va_list ap)
	__attribute__((format(printf, 4, 0)));

/* One line on out, unless count lines were printed already. */
static void line(FILE *out, size_t *count, const char *kind, const char *fmt, va_list ap)
{
	if (*count >= SHOWN)
		return;
	(*count)++;
	fprintf(out, "pftrace_recheck: %s: ", kind);
	vfprintf(out, fmt, ap);
	fprintf(out, "\n");
}

void problem(const char *kind, const char *fmt, ...)
{
	va_list ap;

	problems++;
	va_start(ap, fmt);
	line(stdout, &printed, kind, fmt, ap);
	va_end(ap);
}

void depth_note(const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	if (strict_depth) {
		problems++;
		line(stdout, &printed, "depth differs", fmt, ap);
	} else {
		notes++;
		line(stderr, &notes_printed, "depth differs", fmt, ap);
	}
	va_end(ap);
}

int reporting(void)
{
	return printed < SHOWN;
}

static int usage(void)
{
	fprintf(stderr, "usage: pftrace_recheck [--strict-depth] TRACE.pftrace TRACE.clean.json\n"
			"       pftrace_recheck --facts TRACE.pftrace\n");
	return 2;
}

static size_t count_kind(const struct ctx *c, int kind)
{
	size_t i, n = 0;

	for (i = 0; i < c->ntracks; i++)
		n += c->tracks[i].kind == kind;
	return n;
}

static void summary(const struct ctx *c)
{
	printf("ok: %zu slices (%zu instants), %zu annotations, %zu flows, %zu counter samples "
	       "on %zu counter tracks, %zu processes, %zu thread tracks in %zu lanes, %zu packets; "
	       "%zu lanes where the depth differs\n",
	       c->nslices, c->instants, c->annotations, c->flows, c->samples,
	       count_kind(c, TK_COUNTER), count_kind(c, TK_PROCESS), count_kind(c, TK_THREAD),
	       c->nlanes, c->npackets, notes);
}

int main(int argc, char **argv)
{
	struct ctx c;
	int i = 1;

	if (argc == 3 && strcmp(argv[1], "--facts") == 0) {
		int rc;

		memset(&c, 0, sizeof(c));
		rc = wire_read(argv[2], &c) ? facts_print(&c) : 2;
		arena_free();
		return rc != 0 || problems > 0 ? 2 : 0;
	}
	if (argc > 1 && strcmp(argv[1], "--strict-depth") == 0) {
		strict_depth = 1;
		i++;
	}
	if (argc - i != 2 || argv[i][0] == '-' || argv[i + 1][0] == '-')
		return usage();
	memset(&c, 0, sizeof(c));
	if (!wire_read(argv[i], &c)) {
		fprintf(stderr, "pftrace_recheck: cannot read %s\n", argv[i]);
		arena_free();
		return 2;
	}
	if (!json_read(argv[i + 1], &c)) {
		fprintf(stderr, "pftrace_recheck: cannot read %s\n", argv[i + 1]);
		arena_free();
		return 2;
	}
	tracks_check(&c);
	order_check(&c);
	slices_build(&c);
	depth_check(&c);
	match_slices(&c);
	match_flows(&c);
	match_counters(&c);
	match_metadata(&c);
	if (problems == 0)
		summary(&c);
	else if (problems > printed)
		printf("pftrace_recheck: %zu problems in total (the first %d shown)\n", problems, SHOWN);
	arena_free();
	return problems == 0 ? 0 : 1;
}
