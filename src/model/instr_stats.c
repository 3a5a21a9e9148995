#include "model/instr_stats.h"

#include <stdlib.h>
#include <string.h>

void csim_instr_stats_init(struct csim_instr_stats *s)
{
	memset(s, 0, sizeof(*s));
	csim_strtab_init(&s->text, CSIM_STRTAB_SCATTERED);
}

void csim_instr_stats_release(struct csim_instr_stats *s)
{
	csim_strtab_release(&s->text);
	free(s->cores);
	free(s->pipes);
	free(s->groups);
	free(s->lines);
	free(s->ranges);
	free(s->rows);
	csim_instr_stats_init(s);
}

static int text_is(const struct csim_instr_stats *s, uint32_t id, const char *p, size_t n)
{
	size_t len;
	const char *t = csim_strtab_get(&s->text, id, &len);

	return len == n && (n == 0 || memcmp(t, p, n) == 0);
}

/* Cores and pipes are a few dozen at most: a scan costs less than an index. */
const struct csim_instr_group *csim_instr_stats_group(const struct csim_instr_stats *s,
						      const char *core, size_t core_n,
						      const char *pipe, size_t pipe_n)
{
	size_t c, p;

	for (c = 0; c < s->ncores && !text_is(s, s->cores[c], core, core_n); c++)
		;
	for (p = 0; p < s->npipes && !text_is(s, s->pipes[p], pipe, pipe_n); p++)
		;
	if (c == s->ncores || p == s->npipes || !s->groups[p * s->ncores + c].present)
		return NULL;
	return &s->groups[p * s->ncores + c];
}

static const struct csim_instr_line *line_find(const struct csim_instr_line *v, size_t nv,
					      uint64_t addr)
{
	size_t lo = 0, hi = nv;

	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;

		if (v[mid].hi < addr)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo < nv && v[lo].lo <= addr ? &v[lo] : NULL;
}

const struct csim_instr_line *csim_instr_stats_range(const struct csim_instr_stats *s,
						     uint64_t addr)
{
	return line_find(s->ranges, s->nranges, addr);
}

const char *csim_instr_stats_source(const struct csim_instr_stats *s, uint64_t addr,
				    size_t *n)
{
	const struct csim_instr_line *l = line_find(s->lines, s->nlines, addr);

	if (l == NULL)
		l = line_find(s->ranges, s->nranges, addr);
	return l != NULL ? csim_strtab_get(&s->text, l->source, n) : NULL;
}
