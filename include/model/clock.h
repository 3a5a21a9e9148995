/*
 * clock: the core clock a run's cycles are counted in (SPEC §10).
 *
 * The simulator computes every time as float(cycles / clock_MHz), so the
 * clock turns spans into cycles. OP_BASIC_INFO's cur_freq names it when the
 * producer wrote one; otherwise the SoC's clock from the simulator's own
 * table (msopprof sim_defs.h, realdata-notes §3 "Timestamps"); otherwise the
 * simulator's default. The summary says which.
 */
#ifndef CSIM_CLOCK_H
#define CSIM_CLOCK_H

#include <stddef.h>
#include <stdint.h>

#include "model/run_info.h"

enum csim_clock_source {
	CSIM_CLOCK_CUR_FREQ,   /* OP_BASIC_INFO cur_freq */
	CSIM_CLOCK_SOC_TABLE,  /* the simulator's clock for the SoC */
	CSIM_CLOCK_DEFAULT,    /* the simulator's default: SoC unknown or absent */
	CSIM_CLOCK_DERIVED     /* no OP_BASIC_INFO: API_INSTR cycles against the
				  slices' lengths (summary_instr.h) */
};

/* The simulator's default clock, used for SoCs not in its table. */
#define CSIM_CLOCK_DEFAULT_MHZ 1850.0

struct csim_clock {
	double mhz;
	enum csim_clock_source source;
};

/*
 * The clock of a SoC named soc[0..n) (e.g. "Ascend910B4"), 0 when the SoC
 * is not in the simulator's table.
 */
double csim_clock_of_soc(const char *soc, size_t n);

/*
 * The simulator clock (its SoC table or its default) within a relative
 * tolerance of mhz, or 0 when none is: a clock measured from the trace is
 * one the simulator used, or a sign of mismatched inputs.
 */
double csim_clock_snap(double mhz, double tolerance);

/*
 * A cur_freq is a clock an AI core can run at only between these (MHz):
 * the simulator's are 1650 to 1850; "0.000001" (1 Hz) or 1e9 are no
 * clock, and fall back as "0" does (docs/summary.md, "clock").
 */
#define CSIM_CLOCK_MIN_MHZ 100.0
#define CSIM_CLOCK_MAX_MHZ 10000.0

/*
 * The run's clock: cur_freq when has_cur_freq and it is a plausible clock
 * (CSIM_CLOCK_MIN_MHZ to CSIM_CLOCK_MAX_MHZ), else the SoC's (soc NULL:
 * unknown), else the default.
 */
struct csim_clock csim_clock_choose(int has_cur_freq, double cur_freq,
				    const char *soc, size_t n);

/*
 * The clock of a run (summary.json, the table, the page and the batch row
 * all use this one): 1 and *clock filled when the run has an OP_BASIC_INFO
 * (csim_clock_choose on its cur_freq and SoC), or else when API_INSTR gives
 * one (derived_mhz > 0, the summary's); 0 when the clock is unknown.
 */
int csim_clock_of_run(const struct csim_run_info *run, double derived_mhz,
		      struct csim_clock *clock);

/* ns as cycles of the clock, rounded half away from zero. */
int64_t csim_clock_cycles(const struct csim_clock *clock, int64_t ns);

/* "cur_freq", "soc_table", "default", "derived": the names summary.json uses. */
const char *csim_clock_source_name(enum csim_clock_source s);

#endif
