#include "model/run_info.h"

#include <stdlib.h>
#include <string.h>

#include "base/number_grid.h"

const char *const csim_basic_field_names[CSIM_BASIC_COUNT] = {
	"name", "soc", "op_type", "block_dim", "mix_block_dim", "duration",
	"cur_freq", "rated_freq", "block_detail", "mix_block_detail",
};

void csim_basic_info_init(struct csim_basic_info *bi)
{
	memset(bi, 0, sizeof(*bi));
}

void csim_basic_info_release(struct csim_basic_info *bi)
{
	free(bi->payload);
	csim_basic_info_init(bi);
}

int csim_basic_info_number(const struct csim_basic_info *bi, enum csim_basic_field f,
			   double *v)
{
	const struct csim_span s = bi->text[f];

	if (s.p == NULL || s.n == 0 || !(*s.p == '-' || (*s.p >= '0' && *s.p <= '9')))
		return 0;
	return csim_number_parse(s.p, s.n, v);
}

/* Is p[0..n) a JSON number: -?(0|[1-9][0-9]*)(.[0-9]+)?([eE][+-]?[0-9]+)? */
static int json_number(const char *p, size_t n)
{
	size_t i = 0, d;

	if (i < n && p[i] == '-')
		i++;
	if (i < n && p[i] == '0')
		i++;
	else if (i < n && p[i] >= '1' && p[i] <= '9')
		while (i < n && p[i] >= '0' && p[i] <= '9')
			i++;
	else
		return 0;
	if (i < n && p[i] == '.') {
		for (d = ++i; i < n && p[i] >= '0' && p[i] <= '9'; i++)
			;
		if (i == d)
			return 0;
	}
	if (i < n && (p[i] == 'e' || p[i] == 'E')) {
		if (++i < n && (p[i] == '+' || p[i] == '-'))
			i++;
		for (d = i; i < n && p[i] >= '0' && p[i] <= '9'; i++)
			;
		if (i == d)
			return 0;
	}
	return i == n;
}

int csim_basic_info_json_number(const struct csim_basic_info *bi, enum csim_basic_field f,
				struct csim_span *num)
{
	const struct csim_span s = bi->text[f];

	if (f != CSIM_BASIC_BLOCK_DIM && f != CSIM_BASIC_MIX_BLOCK_DIM &&
	    f != CSIM_BASIC_DURATION && f != CSIM_BASIC_CUR_FREQ && f != CSIM_BASIC_RATED_FREQ)
		return 0;
	if (s.p == NULL || !json_number(s.p, s.n))
		return 0;
	*num = s;
	return 1;
}

void csim_run_info_init(struct csim_run_info *ri)
{
	memset(ri, 0, sizeof(*ri));
	csim_basic_info_init(&ri->basic);
}

void csim_run_info_release(struct csim_run_info *ri)
{
	csim_basic_info_release(&ri->basic);
	csim_run_info_init(ri);
}
