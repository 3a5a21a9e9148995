#include "write/json_members.h"

#include <string.h>

#include "model/dump_figures.h"

/* One rounding for every share the outputs print: the batch summary's too. */
void csim_json_share(struct csim_out *o, int64_t num, int64_t den)
{
	int64_t e4 = csim_dump_share_e4(num, den);

	if (e4 < 0)
		csim_out_text(o, "null");
	else
		csim_out_format(o, "%lld.%04lld", (long long)(e4 / 10000), (long long)(e4 % 10000));
}

void csim_json_us(struct csim_out *o, int64_t ns)
{
	uint64_t a = ns < 0 ? (uint64_t)0 - (uint64_t)ns : (uint64_t)ns;
	char frac[4];

	if (ns < 0)
		csim_out_char(o, '-');
	csim_out_uint(o, a / 1000);
	frac[0] = '.';
	frac[1] = (char)('0' + a / 100 % 10);
	frac[2] = (char)('0' + a / 10 % 10);
	frac[3] = (char)('0' + a % 10);
	csim_out_bytes(o, frac, 4);
}

void csim_json_key(struct csim_out *o, const char *key)
{
	csim_out_char(o, '"');
	csim_out_text(o, key);
	csim_out_text(o, "\":");
}

void csim_json_int_member(struct csim_out *o, const char *key, int64_t v)
{
	csim_json_key(o, key);
	csim_out_int(o, v);
	csim_out_char(o, ',');
}

void csim_json_uint_member(struct csim_out *o, const char *key, uint64_t v)
{
	csim_json_key(o, key);
	csim_out_uint(o, v);
	csim_out_char(o, ',');
}

void csim_json_pipe(const struct csim_model *m, struct csim_out *o, uint32_t pipe)
{
	size_t n;
	const char *name;

	if (pipe == CSIM_NONE) {
		csim_out_text(o, "null");
		return;
	}
	name = csim_strtab_get(&m->table.pipes, pipe, &n);
	csim_out_json_string(o, name, n);
}

void csim_json_pid(const struct csim_model *m, struct csim_out *o, uint32_t pid)
{
	const char *name = m->table.pid_names[pid];

	csim_out_json_string(o, name, strlen(name));
}

