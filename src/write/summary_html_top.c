#include "write/summary_html_top.h"

#include <stdint.h>

#include "model/instr_stats.h"
#include "write/summary_view.h"

static void put_text_id(struct csim_out *o, const struct csim_model *m, uint32_t id)
{
	size_t n;
	const char *v = csim_strtab_get(&m->instr.text, id, &n);

	csim_out_html_escaped(o, v, n);
}

/* The rows of API_INSTR with the most cycles, over every core (SPEC §10). */
static void write_instrs(struct csim_out *o, const struct csim_model *m, const char *sfx)
{
	const struct csim_instr_stats *st = &m->instr;
	int64_t total = st->total_cycles > INT64_MAX ? INT64_MAX : (int64_t)st->total_cycles;

	if (!st->loaded)
		return;
	csim_out_format(o, "<h2 id=\"top%s\">Top %d instructions by cycles</h2>\n", sfx,
			CSIM_INSTR_TOP);
	if (st->ntop == 0) {
		csim_out_text(o, "<p>API_INSTR has no instruction with cycles.</p>\n");
		return;
	}
	csim_out_text(o, "<table class=\"top\">\n<tr><th>address</th><th class=\"l\">pipe</th>"
		      "<th class=\"l\">instruction</th><th class=\"l\">source</th><th>cycles</th>"
		      "<th>% of all</th><th>executed</th><th>cores</th></tr>\n");
	for (size_t i = 0; i < st->ntop; i++) {
		const struct csim_instr_top *t = &st->top[i];
		char share[CSIM_VIEW_NUM];

		csim_view_format_share(share, t->cycles > INT64_MAX ? INT64_MAX : (int64_t)t->cycles,
				       total);
		csim_out_text(o, "<tr class=\"top\"><td class=\"name\">");
		put_text_id(o, m, t->address);
		csim_out_text(o, "</td><td class=\"l\">");
		put_text_id(o, m, t->pipe);
		csim_out_text(o, "</td><td class=\"l\">");
		put_text_id(o, m, t->mnemonic);
		csim_out_text(o, "</td><td class=\"name\">");
		if (t->source != CSIM_NONE)
			put_text_id(o, m, t->source);
		csim_out_format(o, "</td><td>%llu</td><td>%s</td><td>%llu</td><td>%u</td></tr>\n",
				(unsigned long long)t->cycles, share,
				(unsigned long long)t->executed, (unsigned)t->cores);
	}
	csim_out_text(o, "</table>\n");
	if (st->flag_rows > 0) {
		char share[CSIM_VIEW_NUM];

		csim_view_format_share(share, st->flag_cycles > INT64_MAX ? INT64_MAX
					      : (int64_t)st->flag_cycles, total);
		csim_out_format(o, "<p>Not ranked: %llu SET/WAIT flag rows, %llu cycles (%s %% of "
				"all): waits, not work.</p>\n", (unsigned long long)st->flag_rows,
				(unsigned long long)st->flag_cycles, share);
	}
}

/* The source lines with the most cycles, all of summary.json's (SPEC §10). */
static void write_top_lines(struct csim_out *o, const struct csim_model *m, const char *sfx)
{
	const struct csim_instr_stats *st = &m->instr;
	const struct csim_summary *s = &m->summary;
	int64_t total = st->total_cycles > INT64_MAX ? INT64_MAX : (int64_t)st->total_cycles;

	if (!st->loaded)
		return;
	csim_out_format(o, "<h2 id=\"lines%s\">Top %d source lines by cycles</h2>\n", sfx,
			CSIM_SUMMARY_TOP_LINES);
	if (s->nlines == 0) {
		csim_out_text(o, "<p>API_INSTR gives no source line with cycles.</p>\n");
		return;
	}
	csim_out_text(o, "<p>The API_INSTR rows of every address of a line summed.</p>\n"
		      "<table class=\"lines\">\n<tr><th class=\"l\">source</th><th>cycles</th>"
		      "<th>% of all</th><th>executed</th><th>addresses</th></tr>\n");
	for (size_t i = 0; i < s->nlines; i++) {
		const struct csim_summary_line *l = &s->lines[i];
		char share[CSIM_VIEW_NUM];

		csim_view_format_share(share, l->cycles > INT64_MAX ? INT64_MAX : (int64_t)l->cycles,
				       total);
		csim_out_text(o, "<tr class=\"line\"><td class=\"name\">");
		put_text_id(o, m, l->source);
		csim_out_format(o, "</td><td>%llu</td><td>%s</td><td>%llu</td><td>%llu</td></tr>\n",
				(unsigned long long)l->cycles, share,
				(unsigned long long)l->executed, (unsigned long long)l->addresses);
	}
	csim_out_text(o, "</table>\n");
}

void csim_summary_html_top(struct csim_out *o, const struct csim_model *m, const char *sfx)
{
	write_instrs(o, m, sfx);
	write_top_lines(o, m, sfx);
}
