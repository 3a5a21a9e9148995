#include "write/run_changes.h"

#include <stdint.h>

#include "write/summary_view.h"

/* The slowest core's span of a run, 0 without a core. */
static int64_t slowest_span(const struct csim_model *m)
{
	return m->summary.ncores ? m->summary.max_span_ns : 0;
}

static int64_t span_of(const struct csim_summary_core *c)
{
	return c->last_ns - c->first_ns;
}

/* A change in ten-thousandths of a share, in tenths of a percent, half up. */
static uint64_t tenths_of_pct(int64_t bp)
{
	return ((bp < 0 ? (uint64_t)0 - (uint64_t)bp : (uint64_t)bp) + 5) / 10;
}

/* A relative change in ten-thousandths as a share with 4 decimals ("-0.0118"). */
static void out_change_share(struct csim_out *o, int64_t bp)
{
	uint64_t a = bp < 0 ? (uint64_t)0 - (uint64_t)bp : (uint64_t)bp;

	csim_out_format(o, "%s%llu.%04llu", bp < 0 ? "-" : "", (unsigned long long)(a / 10000),
			(unsigned long long)(a % 10000));
}

/* "KEY":[before,after],"change_ns":d,"change_share":s */
static void out_span_pair(struct csim_out *o, const char *key, int64_t before, int64_t after)
{
	csim_out_format(o, "\"%s\":[%lld,%lld],\"change_ns\":%lld,\"change_share\":", key,
			(long long)before, (long long)after, (long long)(after - before));
	out_change_share(o, csim_view_change_bp(before, after));
}

/* One entry: the slowest core's span and every core both runs hold. */
static void write_change(struct csim_out *o, const struct csim_model *a, const struct csim_model *b)
{
	const struct csim_summary *sa = &a->summary, *sb = &b->summary;

	csim_out_format(o, "{\"from\":%llu,\"to\":%llu,", (unsigned long long)a->run_label,
			(unsigned long long)b->run_label);
	out_span_pair(o, "slowest_span_ns", slowest_span(a), slowest_span(b));
	csim_out_text(o, ",\"cores\":[");
	for (size_t j = 0, k = 0; j < sb->ncores; j++) {
		size_t i = csim_view_core_in(a, b, j), n;
		const char *name;

		if (i == SIZE_MAX)
			continue;
		name = csim_view_core_name(b, j, &n);
		csim_out_text(o, k++ ? ",\n  {\"core\":" : "\n  {\"core\":");
		csim_out_json_string(o, name, n);
		csim_out_char(o, ',');
		out_span_pair(o, "span_ns", span_of(&sa->cores[i]), span_of(&sb->cores[j]));
		csim_out_char(o, '}');
	}
	csim_out_text(o, "]}");
}

void csim_run_changes_json(const struct csim_model *const *runs, size_t n, struct csim_out *o)
{
	csim_out_text(o, "\"run_changes\":[");
	for (size_t i = 1; i < n; i++) {
		csim_out_text(o, i > 1 ? ",\n" : "\n");
		write_change(o, runs[i - 1], runs[i]);
	}
	csim_out_char(o, ']');
}

/* One row: the run's slowest span, and its change from the run before (prev NULL: none). */
static void write_change_row(struct csim_out *o, const struct csim_model *prev,
			     const struct csim_model *run)
{
	int64_t span = slowest_span(run), before, bp;
	char us[CSIM_VIEW_NUM];
	uint64_t pct;

	csim_view_format_us(us, span);
	csim_out_format(o, "<tr><td class=\"l\">run %llu</td><td>%s</td>",
			(unsigned long long)run->run.run, us);
	if (prev == NULL) {
		csim_out_text(o, "<td>\xE2\x80\x94</td><td>\xE2\x80\x94</td></tr>\n");
		return;
	}
	before = slowest_span(prev);
	csim_view_format_us(us, span - before);
	csim_out_format(o, "<td>%s</td>", us);
	bp = csim_view_change_bp(before, span);
	pct = tenths_of_pct(bp);
	if (before > 0)
		csim_out_format(o, "<td>%s%llu.%llu</td></tr>\n", bp < 0 ? "-" : "+",
				(unsigned long long)(pct / 10), (unsigned long long)(pct % 10));
	else
		csim_out_text(o, "<td>\xE2\x80\x94</td></tr>\n");
}

void csim_run_changes_html(const struct csim_model *const *runs, size_t n, struct csim_out *o)
{
	csim_out_text(o, "<h2 id=\"runs\">Run to run</h2>\n<p>The span of each run's slowest "
		      "core, and its change from the run before.</p>\n<table class=\"runs\">\n"
		      "<tr><th class=\"l\">run</th><th>slowest span \xC2\xB5s</th>"
		      "<th>change \xC2\xB5s</th><th>change %</th></tr>\n");
	for (size_t i = 0; i < n; i++)
		write_change_row(o, i > 0 ? runs[i - 1] : NULL, runs[i]);
	csim_out_text(o, "</table>\n");
}
