#include "write/summary_table_top.h"

#include <stdint.h>

#include "write/summary_view.h"
#include "write/table_text.h"

/* Columns of the lists (docs/summary.md, "The table"). */
#define W_CYCLES 10
#define W_SHARE 6
#define W_PIPE 8
#define W_MNEMONIC 22
#define W_ADDRESSES 5

static void format_share(char *dst, const struct csim_instr_stats *st, uint64_t cycles)
{
	csim_view_format_share(dst, cycles > INT64_MAX ? INT64_MAX : (int64_t)cycles,
			       st->total_cycles > INT64_MAX ? INT64_MAX : (int64_t)st->total_cycles);
}

/* A source line (or "-" for none) fitted to the columns left after `used`. */
static void fit_source(char *dst, const struct csim_instr_stats *st, uint32_t source,
		       size_t used)
{
	size_t n = 1;
	const char *v = "-";

	if (source != CSIM_NONE)
		v = csim_strtab_get(&st->text, source, &n);
	csim_text_fit_tail(dst, v, n, CSIM_TABLE_WIDTH - used);
}

static void print_instructions(FILE *f, const struct csim_instr_stats *st)
{
	const size_t used = 2 + W_CYCLES + 1 + W_SHARE + 2 + W_PIPE + 1 + W_MNEMONIC + 1;
	char share[CSIM_VIEW_NUM], mnem[CSIM_TEXT_CELL], pipe[CSIM_TEXT_CELL];
	char src[CSIM_TEXT_CELL];

	fprintf(f, "\ntop instructions by cycles (%zu in summary.json):\n", st->ntop);
	fprintf(f, "  %*s %*s  %-*s %-*s %s\n", W_CYCLES, "cycles", W_SHARE, "share%",
		W_PIPE, "pipe", W_MNEMONIC, "instruction", "source line");
	for (size_t i = 0; i < st->ntop && i < CSIM_TABLE_TOP; i++) {
		const struct csim_instr_top *t = &st->top[i];
		size_t n;
		const char *v;

		format_share(share, st, t->cycles);
		v = csim_strtab_get(&st->text, t->pipe, &n);
		csim_text_fit(pipe, v, n, W_PIPE);
		v = csim_strtab_get(&st->text, t->mnemonic, &n);
		csim_text_fit(mnem, v, n, W_MNEMONIC);
		fit_source(src, st, t->source, used);
		fprintf(f, "  %*llu %*s  %-*s %-*s %s\n", W_CYCLES, (unsigned long long)t->cycles,
			W_SHARE, share, W_PIPE, pipe, W_MNEMONIC, mnem, src);
	}
	if (st->flag_rows == 0)
		return;
	format_share(share, st, st->flag_cycles);
	fprintf(f, "  %*llu %*s  SET/WAIT flag rows (%llu, waits, not work: not ranked)\n",
		W_CYCLES, (unsigned long long)st->flag_cycles, W_SHARE, share,
		(unsigned long long)st->flag_rows);
}

static void print_lines(FILE *f, const struct csim_model *m)
{
	const struct csim_instr_stats *st = &m->instr;
	const struct csim_summary *s = &m->summary;
	const size_t used = 2 + W_CYCLES + 1 + W_SHARE + 1 + W_ADDRESSES + 2;
	char share[CSIM_VIEW_NUM], src[CSIM_TEXT_CELL];

	fprintf(f, "\ntop source lines by cycles (%zu in summary.json):\n", s->nlines);
	fprintf(f, "  %*s %*s %*s  %s\n", W_CYCLES, "cycles", W_SHARE, "share%", W_ADDRESSES,
		"addrs", "source line");
	for (size_t i = 0; i < s->nlines && i < CSIM_TABLE_TOP; i++) {
		const struct csim_summary_line *l = &s->lines[i];

		format_share(share, st, l->cycles);
		fit_source(src, st, l->source, used);
		fprintf(f, "  %*llu %*s %*llu  %s\n", W_CYCLES, (unsigned long long)l->cycles,
			W_SHARE, share, W_ADDRESSES, (unsigned long long)l->addresses, src);
	}
}

void csim_table_top_print(FILE *f, const struct csim_model *m)
{
	if (m->instr.ntop > 0)
		print_instructions(f, &m->instr);
	if (m->summary.nlines > 0)
		print_lines(f, m);
}
