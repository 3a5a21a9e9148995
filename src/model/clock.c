#include "model/clock.h"

#include <math.h>
#include <string.h>

/*
 * msopprof sim_defs.h: Ascend910B1 1850 MHz, 910B2/B3 1800, 910B4 1650,
 * the 950 series 1650. Matched by prefix: the producer writes variants
 * such as "Ascend910B2C" and "Ascend950PR".
 */
static const struct {
	const char *prefix;
	double mhz;
} soc_table[] = {
	{ "Ascend910B1", 1850.0 },
	{ "Ascend910B2", 1800.0 },
	{ "Ascend910B3", 1800.0 },
	{ "Ascend910B4", 1650.0 },
	{ "Ascend950", 1650.0 },
};

double csim_clock_of_soc(const char *soc, size_t n)
{
	if (soc == NULL)
		return 0;
	for (size_t i = 0; i < sizeof(soc_table) / sizeof(soc_table[0]); i++) {
		size_t len = strlen(soc_table[i].prefix);

		if (n >= len && memcmp(soc, soc_table[i].prefix, len) == 0)
			return soc_table[i].mhz;
	}
	return 0;
}

double csim_clock_snap(double mhz, double tolerance)
{
	/* the default (1850) is in the table as 910B1's */
	for (size_t i = 0; i < sizeof(soc_table) / sizeof(soc_table[0]); i++) {
		double d = mhz - soc_table[i].mhz;

		if (d <= tolerance * soc_table[i].mhz && -d <= tolerance * soc_table[i].mhz)
			return soc_table[i].mhz;
	}
	return 0;
}

struct csim_clock csim_clock_choose(int has_cur_freq, double cur_freq,
				    const char *soc, size_t n)
{
	struct csim_clock c = { CSIM_CLOCK_DEFAULT_MHZ, CSIM_CLOCK_DEFAULT };
	double mhz;

	if (has_cur_freq && cur_freq >= CSIM_CLOCK_MIN_MHZ && cur_freq <= CSIM_CLOCK_MAX_MHZ) {
		c.mhz = cur_freq;
		c.source = CSIM_CLOCK_CUR_FREQ;
	} else if ((mhz = csim_clock_of_soc(soc, n)) > 0) {
		c.mhz = mhz;
		c.source = CSIM_CLOCK_SOC_TABLE;
	}
	return c;
}

const char *csim_clock_source_name(enum csim_clock_source s)
{
	switch (s) {
	case CSIM_CLOCK_CUR_FREQ:
		return "cur_freq";
	case CSIM_CLOCK_SOC_TABLE:
		return "soc_table";
	case CSIM_CLOCK_DERIVED:
		return "derived";
	case CSIM_CLOCK_DEFAULT:
		break;
	}
	return "default";
}

/*
 * Known with an OP_BASIC_INFO (for a SoC outside the simulator's table, the
 * simulator itself used its default), or derived from API_INSTR. Otherwise
 * a guessed clock would print confident but wrong cycle counts.
 */
int csim_clock_of_run(const struct csim_run_info *run, double derived_mhz,
		      struct csim_clock *clock)
{
	const struct csim_basic_info *bi = &run->basic;
	struct csim_span soc;
	double cur = 0;
	int has_cur;

	if (!csim_basic_info_has(bi)) {
		clock->mhz = derived_mhz;
		clock->source = CSIM_CLOCK_DERIVED;
		return derived_mhz > 0;
	}
	has_cur = csim_basic_info_number(bi, CSIM_BASIC_CUR_FREQ, &cur);
	soc = csim_basic_info_text(bi, CSIM_BASIC_SOC);
	*clock = csim_clock_choose(has_cur, cur, soc.p, soc.n);
	return 1;
}

int64_t csim_clock_cycles(const struct csim_clock *clock, int64_t ns)
{
	return llround((double)ns * clock->mhz / 1000.0);
}
