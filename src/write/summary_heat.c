#include "write/summary_heat.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "write/summary_view.h"

static void put_pipe(struct csim_out *o, const struct csim_model *m, uint32_t pipe)
{
	const char *name;
	size_t n;

	if (pipe == CSIM_NONE) {
		csim_out_text(o, "<i>unknown</i>");
		return;
	}
	name = csim_strtab_get(&m->table.pipes, pipe, &n);
	csim_out_html_escaped(o, name, n);
}

static void put_us(struct csim_out *o, int64_t ns)
{
	char us[CSIM_VIEW_NUM];

	csim_view_format_us(us, ns);
	csim_out_text(o, us);
}

/* Lane order of two producers (pipe table order, then name; none last). */
static int producer_cmp(const struct csim_model *m, uint32_t a, uint32_t b)
{
	const char *na, *nb;
	size_t la, lb;
	int c;

	if (a == b)
		return 0;
	if (a == CSIM_NONE || b == CSIM_NONE)
		return a == CSIM_NONE ? 1 : -1;
	if (m->pipes[a].info->order != m->pipes[b].info->order)
		return m->pipes[a].info->order < m->pipes[b].info->order ? -1 : 1;
	na = csim_strtab_get(&m->table.pipes, a, &la);
	nb = csim_strtab_get(&m->table.pipes, b, &lb);
	c = memcmp(na, nb, la < lb ? la : lb);
	if (c != 0)
		return c;
	return la < lb ? -1 : la > lb;
}

/* The producers a core's pipes waited on, in lane order, *n of them. */
static uint32_t *core_producers(const struct csim_model *m, const struct csim_summary_core *c,
				size_t *n)
{
	const struct csim_summary *s = &m->summary;
	size_t cap = 1, k = 0;
	uint32_t *cols;

	for (size_t i = 0; i < c->npipes; i++)
		cap += s->pipes[c->pipe0 + i].nwaits;
	cols = malloc(cap * sizeof(*cols));
	if (cols == NULL)
		return NULL;
	for (size_t i = 0; i < c->npipes; i++) {
		const struct csim_summary_pipe *p = &s->pipes[c->pipe0 + i];

		for (size_t w = 0; p->wait_ns > 0 && w < p->nwaits; w++) {
			uint32_t id = s->waits[p->wait0 + w].producer;
			size_t j = k;
			int cmp = 1;

			/* insertion into the sorted, distinct list (a few entries) */
			while (j > 0 && (cmp = producer_cmp(m, cols[j - 1], id)) > 0)
				j--;
			if (j > 0 && cmp == 0)
				continue;
			memmove(cols + j + 1, cols + j, (k - j) * sizeof(*cols));
			cols[j] = id;
			k++;
		}
	}
	*n = k;
	return cols;
}

/* A heat map cell: the producer's WAIT time, coloured by its share of the span. */
static void td_heat(struct csim_out *o, int64_t ns, int64_t span)
{
	int64_t pm = csim_view_permille(ns, span);
	char pct[CSIM_VIEW_NUM];
	int light;

	csim_view_format_share(pct, ns, span);
	if (pm < 0 || pm > 1000)
		pm = pm < 0 ? 0 : 1000;
	light = 95 - (int)(pm * 50 / 1000);   /* 95 % (none) .. 45 % (whole span) */
	csim_out_format(o, "<td class=\"hm\" style=\"background:hsl(12,80%%,%d%%)%s\">",
			light, light < 64 ? ";color:#fff" : "");
	put_us(o, ns);
	csim_out_format(o, "<small>%s%s</small></td>", pct, pm >= 0 && pct[0] != '-' ? " %" : "");
}

int csim_heat_write(const struct csim_model *m, const struct csim_summary_core *c,
		    struct csim_out *o, struct csim_error *err)
{
	const struct csim_summary *s = &m->summary;
	int64_t span = c->last_ns - c->first_ns;
	size_t ncols;
	uint32_t *cols = core_producers(m, c, &ncols);

	if (cols == NULL)
		return csim_error_nomem(err, CSIM_E_OUTPUT);
	if (ncols == 0) {
		csim_out_text(o, "<p>No WAIT_FLAG time on this core.</p>\n");
		free(cols);
		return CSIM_OK;
	}
	csim_out_text(o, "<table class=\"heat\">\n<tr><th class=\"corner\">"
		      "waiting \xE2\x86\x93 producer \xE2\x86\x92</th>");
	for (size_t j = 0; j < ncols; j++) {
		csim_out_text(o, "<th>");
		put_pipe(o, m, cols[j]);
		csim_out_text(o, "</th>");
	}
	csim_out_text(o, "</tr>\n");
	for (size_t i = 0; i < c->npipes; i++) {
		const struct csim_summary_pipe *p = &s->pipes[c->pipe0 + i];
		size_t w = 0;

		if (p->wait_ns == 0)
			continue;
		csim_out_text(o, "<tr class=\"heat\"><th class=\"l\">");
		put_pipe(o, m, p->pipe);
		csim_out_text(o, "</th>");
		/* both lists are in lane order */
		for (size_t j = 0; j < ncols; j++) {
			if (w < p->nwaits && s->waits[p->wait0 + w].producer == cols[j])
				td_heat(o, s->waits[p->wait0 + w++].ns, span);
			else
				csim_out_text(o, "<td class=\"h0\"></td>");
		}
		csim_out_text(o, "</tr>\n");
	}
	csim_out_text(o, "</table>\n");
	free(cols);
	return CSIM_OK;
}

