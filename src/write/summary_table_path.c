#include "write/summary_table_path.h"

#include <stdint.h>
#include <string.h>

#include "read/json_scan.h"
#include "write/summary_view.h"
#include "write/table_text.h"

#define CELL CSIM_TEXT_CELL

/* Columns of an instruction's name and of its source line on the
   instructions line; three items with their sources fill about 80. */
#define W_INSTR_NAME 32
#define W_SOURCE 24

/* How many instructions the line names (summary.json has ten). */
#define TOP_SHOWN 3

/* A line of "item, item, ..." broken between items at the table's width. */
struct item_line {
	FILE *f;
	const char *lead;   /* "  critical path: " */
	size_t used;        /* columns printed, 0 before the first item */
};

static void line_item(struct item_line *l, const char *item, size_t w)
{
	if (w == 0 || w >= CELL)
		return;
	/* break between items only, so "wait MTE2->VECTOR 21 %" stays whole;
	   an item leaves room for the comma a break after it adds */
	if (l->used == 0) {
		fputs(l->lead, l->f);
		l->used = csim_text_columns(l->lead, strlen(l->lead));
	} else if (l->used + 2 + w + 1 > CSIM_TABLE_WIDTH) {
		fputs(",\n    ", l->f);
		l->used = 4;
	} else {
		fputs(", ", l->f);
		l->used += 2;
	}
	fputs(item, l->f);
	l->used += w;
}

static void line_end(const struct item_line *l)
{
	if (l->used > 0)
		fputc('\n', l->f);
}

static long long whole_percent(int64_t ns, int64_t span)
{
	return span > 0 ? (long long)((200 * (ns < 0 ? -ns : ns) + span) / (2 * span)) : 0;
}

static const char *pipe_name(const struct csim_model *m, uint32_t pipe, size_t *n)
{
	return csim_strtab_get(&m->table.pipes, pipe, n);
}

/* One "NAME P %" item of the critical-path line; 0 when it rounds to 0 %. */
static size_t path_item(char *dst, const struct csim_model *m, const char *lead, uint32_t a,
			uint32_t b, int64_t ns, int64_t span)
{
	char na[CELL], nb[CELL];
	size_t n;
	const char *raw;
	long long pc = whole_percent(ns, span);

	if (pc == 0)
		return 0;
	if (a == CSIM_NONE)
		return (size_t)snprintf(dst, CELL, "%s %lld %%", lead, pc);
	raw = pipe_name(m, a, &n);
	csim_text_fit(na, raw, n, CSIM_TABLE_W_PIPE);
	if (b == CSIM_NONE)
		return (size_t)snprintf(dst, CELL, "%s%s %lld %%", lead, na, pc);
	raw = pipe_name(m, b, &n);
	csim_text_fit(nb, raw, n, CSIM_TABLE_W_PIPE);
	return (size_t)snprintf(dst, CELL, "%s%s->%s %lld %%", lead, na, nb, pc);
}

/* Every part of the path, largest first: busy and waits come sorted; the
   two lists and the cross-core and issue times are merged. */
static void print_parts(FILE *f, const struct csim_model *m, const struct csim_path_core *c)
{
	const struct csim_path *p = &m->path;
	struct item_line line = { f, "  critical path: ", 0 };
	char item[CELL];
	size_t bi = 0, wi = 0;
	int cross = c->cross_ns > 0, issue = c->issue_ns > 0;

	for (;;) {
		int64_t bns = bi < c->nbusy ? p->busy[c->busy0 + bi].ns : -1;
		int64_t wns = wi < c->nwait ? p->waits[c->wait0 + wi].ns : -1;
		int64_t cns = cross ? c->cross_ns : -1, ins = issue ? c->issue_ns : -1;
		int64_t top = bns > wns ? bns : wns;
		size_t w;

		top = top > cns ? top : cns;
		top = top > ins ? top : ins;
		if (top < 0)
			break;
		if (top == bns) {
			w = path_item(item, m, "", p->busy[c->busy0 + bi].pipe, CSIM_NONE, bns,
				      c->span_ns);
			bi++;
		} else if (top == wns) {
			w = path_item(item, m, "wait ", p->waits[c->wait0 + wi].producer,
				      p->waits[c->wait0 + wi].consumer, wns, c->span_ns);
			wi++;
		} else if (top == cns) {
			w = path_item(item, m, "cross-core wait", CSIM_NONE, CSIM_NONE, cns,
				      c->span_ns);
			cross = 0;
		} else {
			w = path_item(item, m, "issue", CSIM_NONE, CSIM_NONE, ins, c->span_ns);
			issue = 0;
		}
		line_item(&line, item, w);
	}
	line_end(&line);
}

/*
 * A JSON string's text decoded and fitted to width columns into dst, or
 * as written (escapes and all) when longer than a cell, where it is cut
 * anyway.
 */
static void json_text_fit(char *dst, struct csim_span json, size_t width)
{
	char text[CELL];
	const char *p = json.p + 1;
	size_t n = json.n - 2;

	if (n < sizeof(text)) {
		n = csim_json_unescape(p, n, text);
		p = text;
	}
	csim_text_fit(dst, p, n, width);
}

/*
 * "NAME P %[ (…/file.cpp:91)]" of an instruction on the path; 0 when it
 * rounds to 0 %. Without a source line, an instruction whose name another
 * shown one shares says its address instead ("(0x1130a064)").
 */
static size_t top_item(char *dst, const struct csim_model *m, const struct csim_path_instr *t,
		       int64_t span, int name_shared)
{
	const struct csim_instr_key k = csim_table_instr_key(&m->table, t->instr);
	char name[CELL], line[CELL];
	const char *src = NULL;
	size_t n;
	long long pc = whole_percent(t->ns, span);
	uint64_t addr;
	int w;

	if (pc == 0)
		return 0;
	json_text_fit(name, k.name_json, W_INSTR_NAME);
	if (csim_instr_key_address(&k, &addr))
		src = csim_instr_stats_source(&m->instr, addr, &n);
	if (src == NULL && name_shared && k.pc_json.p != NULL) {
		json_text_fit(line, k.pc_json, W_SOURCE);
		return (size_t)snprintf(dst, CELL, "%s %lld %% (%s)", name, pc, line);
	}
	if (src == NULL)
		return (size_t)snprintf(dst, CELL, "%s %lld %%", name, pc);
	csim_text_fit_tail(line, src, n, W_SOURCE);
	w = snprintf(dst, CELL, "%s %lld %% (%s)", name, pc, line);
	return w > 0 ? csim_text_columns(dst, strlen(dst)) : 0;
}

/* "  on the path: MMAD 17 % (…/mm.cpp:40), ...": its busiest instructions. */
static void print_top(FILE *f, const struct csim_model *m, const struct csim_path_core *c)
{
	struct item_line line = { f, "  on the path: ", 0 };
	const struct csim_path_instr *top = &m->path.top[c->top0];
	size_t n = c->ntop < TOP_SHOWN ? c->ntop : TOP_SHOWN;
	char item[CELL];

	for (size_t k = 0; k < n; k++) {
		struct csim_span a = csim_table_instr_key(&m->table, top[k].instr).name_json;
		int shared = 0;

		for (size_t j = 0; j < n; j++) {
			struct csim_span b = csim_table_instr_key(&m->table, top[j].instr).name_json;

			shared |= j != k && a.n == b.n && memcmp(a.p, b.p, a.n) == 0;
		}
		line_item(&line, item, top_item(item, m, &top[k], c->span_ns, shared));
	}
	line_end(&line);
}

/* One estimate, `MTE2 2x faster: span -23 % (estimate)`; 0 when it rounds to no change. */
static int print_estimate(FILE *f, const struct csim_model *m, uint32_t pipe, int64_t est,
			  int64_t span, const char *what)
{
	char name[CELL], pc[CSIM_VIEW_NUM];
	size_t len;
	const char *raw = pipe_name(m, pipe, &len);

	if (csim_view_format_estimate(pc, est, span, "-") == 0)
		return 0;
	csim_text_fit(name, raw, len, CSIM_TABLE_W_PIPE);
	fprintf(f, "  %s 2x faster: %s %s (estimate)\n", name, what, pc);
	return 1;
}

/* The what-ifs that change the span by 1 % or more, the two largest. */
static void print_what_if(FILE *f, const struct csim_model *m, const struct csim_path_core *c)
{
	const struct csim_path_what_if *e = &m->path.what_if[c->what_if0];

	for (size_t k = 0, shown = 0; k < c->nwhat_if && shown < 2; k++, shown++)
		if (!print_estimate(f, m, e[k].pipe, e[k].span_ns, c->span_ns, "span"))
			break;
}

void csim_table_path_kernel_print(FILE *f, const struct csim_model *m)
{
	const struct csim_path *p = &m->path;

	for (size_t k = 0; k < p->nkernel && k < 2; k++)
		if (!print_estimate(f, m, p->kernel[k].pipe, p->kernel[k].span_ns,
				    m->summary.max_span_ns, "kernel"))
			break;
}

void csim_table_path_print(FILE *f, const struct csim_model *m, size_t core)
{
	const struct csim_path_core *c = &m->path.cores[core];

	print_parts(f, m, c);
	print_top(f, m, c);
	print_what_if(f, m, c);
}
