/*
 * clock: OP_BASIC_INFO's cur_freq first, then the simulator's SoC table
 * (realdata-notes §3 "Timestamps": 910B1 1850, 910B2/B3 1800, 910B4 1650,
 * 950 series 1650), then its default 1850 MHz.
 */
#include <string.h>

#include "check.h"
#include "model/clock.h"

static double soc(const char *s)
{
	return csim_clock_of_soc(s, strlen(s));
}

static void test_soc_table(struct check_ctx *c)
{
	CHECK(c, soc("Ascend910B1") == 1850.0);
	CHECK(c, soc("Ascend910B2") == 1800.0);
	CHECK(c, soc("Ascend910B2C") == 1800.0);
	CHECK(c, soc("Ascend910B3") == 1800.0);
	CHECK(c, soc("Ascend910B4") == 1650.0);
	CHECK(c, soc("Ascend950PR") == 1650.0);
	CHECK(c, soc("Ascend310P3") == 0);
	CHECK(c, soc("Ascend910") == 0);         /* a prefix of an entry is not it */
	CHECK(c, soc("") == 0);
	CHECK(c, csim_clock_of_soc(NULL, 0) == 0);
}

static void test_choice_and_its_source(struct check_ctx *c)
{
	struct csim_clock k;

	k = csim_clock_choose(1, 1500.0, "Ascend910B4", 11);
	CHECK(c, k.mhz == 1500.0 && k.source == CSIM_CLOCK_CUR_FREQ);
	k = csim_clock_choose(0, 1500.0, "Ascend910B4", 11);
	CHECK(c, k.mhz == 1650.0 && k.source == CSIM_CLOCK_SOC_TABLE);
	/* an unusable cur_freq is passed over, not trusted */
	k = csim_clock_choose(1, 0.0, "Ascend910B2", 11);
	CHECK(c, k.mhz == 1800.0 && k.source == CSIM_CLOCK_SOC_TABLE);
	k = csim_clock_choose(1, -5.0, NULL, 0);
	CHECK(c, k.mhz == CSIM_CLOCK_DEFAULT_MHZ && k.source == CSIM_CLOCK_DEFAULT);
	k = csim_clock_choose(1, 1e9, "Ascend310P3", 11);
	CHECK(c, k.mhz == 1850.0 && k.source == CSIM_CLOCK_DEFAULT);
	/* positive but no clock an AI core runs at: passed over as 0 is */
	k = csim_clock_choose(1, 0.000001, "Ascend910B2", 11);
	CHECK(c, k.mhz == 1800.0 && k.source == CSIM_CLOCK_SOC_TABLE);
	k = csim_clock_choose(1, 99.999, "Ascend910B2", 11);
	CHECK(c, k.mhz == 1800.0 && k.source == CSIM_CLOCK_SOC_TABLE);
	k = csim_clock_choose(1, 10000.001, "Ascend910B2", 11);
	CHECK(c, k.mhz == 1800.0 && k.source == CSIM_CLOCK_SOC_TABLE);
	/* the range's ends are clocks */
	k = csim_clock_choose(1, 100.0, "Ascend910B2", 11);
	CHECK(c, k.mhz == 100.0 && k.source == CSIM_CLOCK_CUR_FREQ);
	k = csim_clock_choose(1, 10000.0, "Ascend910B2", 11);
	CHECK(c, k.mhz == 10000.0 && k.source == CSIM_CLOCK_CUR_FREQ);
	CHECK_STR(c, csim_clock_source_name(CSIM_CLOCK_CUR_FREQ), "cur_freq");
	CHECK_STR(c, csim_clock_source_name(CSIM_CLOCK_SOC_TABLE), "soc_table");
	CHECK_STR(c, csim_clock_source_name(CSIM_CLOCK_DEFAULT), "default");
	CHECK_STR(c, csim_clock_source_name(CSIM_CLOCK_DERIVED), "derived");
}

/* A measured clock is one the simulator uses, within the tolerance, or none. */
static void test_snap(struct check_ctx *c)
{
	CHECK(c, csim_clock_snap(1850.0, 0.01) == 1850.0);
	CHECK(c, csim_clock_snap(1831.5, 0.01) == 1850.0);   /* 1850 - 1 % */
	CHECK(c, csim_clock_snap(1831.4, 0.01) == 0);
	CHECK(c, csim_clock_snap(1818.0, 0.01) == 1800.0);   /* 1800 + 1 % */
	CHECK(c, csim_clock_snap(1666.5, 0.01) == 1650.0);
	CHECK(c, csim_clock_snap(1700.0, 0.01) == 0);
	CHECK(c, csim_clock_snap(925.0, 0.01) == 0);          /* mix_kernel's metrics */
	CHECK(c, csim_clock_snap(0.0, 0.01) == 0);
}

int main(void)
{
	struct check_ctx c = { 0, 0, NULL };

	CHECK_RUN(&c, test_soc_table);
	CHECK_RUN(&c, test_choice_and_its_source);
	CHECK_RUN(&c, test_snap);
	return check_done(&c);
}
