#include "write/summary_rows.h"

#include "write/json_members.h"

/* A text id's string as JSON. */
static void put_text(const struct csim_model *m, struct csim_out *o, uint32_t id)
{
	size_t n;
	const char *v = csim_strtab_get(&m->instr.text, id, &n);

	csim_out_json_string(o, v, n);
}

/* The row's source line: its Inner Code, else the API_FILE range of its address. */
static uint32_t source_of(const struct csim_instr_stats *st, const struct csim_instr_row_sum *r)
{
	const struct csim_instr_line *l;

	if (r->source != CSIM_NONE || !r->has_addr)
		return r->source;
	l = csim_instr_stats_range(st, r->addr);
	return l != NULL ? l->source : CSIM_NONE;
}

static void write_row(const struct csim_model *m, struct csim_out *o,
		      const struct csim_instr_row_sum *r)
{
	const uint32_t source = source_of(&m->instr, r);

	csim_out_char(o, '{');
	csim_json_key(o, "address");
	put_text(m, o, r->address);
	csim_out_char(o, ',');
	csim_json_key(o, "pipe");
	put_text(m, o, r->pipe);
	csim_out_char(o, ',');
	csim_json_key(o, "mnemonic");
	put_text(m, o, r->mnemonic);
	csim_out_char(o, ',');
	csim_json_key(o, "source");
	if (source != CSIM_NONE)
		put_text(m, o, source);
	else
		csim_out_text(o, "null");
	csim_out_char(o, ',');
	csim_json_key(o, "cycles");
	csim_out_uint(o, r->cycles);
	if (r->flag)
		csim_out_text(o, ",\"flag\":true");
	csim_out_char(o, '}');
}

void csim_summary_rows_json(const struct csim_model *m, struct csim_out *o)
{
	const struct csim_instr_stats *st = &m->instr;
	size_t written = 0;

	csim_json_key(o, "instructions");
	if (!st->loaded) {
		csim_out_text(o, "null");
		return;
	}
	csim_out_char(o, '[');
	for (size_t i = 0; i < st->nrows; i++) {
		if (st->rows[i].cycles == 0)
			continue;
		csim_out_text(o, written++ ? ",\n  " : "\n  ");
		write_row(m, o, &st->rows[i]);
	}
	csim_out_text(o, written ? "\n]" : "]");
}
