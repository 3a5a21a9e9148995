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
