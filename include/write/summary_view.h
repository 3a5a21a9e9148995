/*
 * summary_view: what the summary table (stdout) and summary.html both show
 * of the model's summary, computed once for both: numbers as text (µs with
 * 3 decimals, shares in percent with one decimal, the clock in MHz, all
 * from integers and without locale, so the same input gives the same
 * bytes), the producer a pipe waited on longest, the per-pipe totals over
 * every core and the three cores a condensed view lists.
 */
#ifndef CSIM_SUMMARY_VIEW_H
#define CSIM_SUMMARY_VIEW_H

#include <stddef.h>
#include <stdint.h>

#include "model/clock.h"
#include "model/model.h"

/* Room for a formatted number (an int64 in µs, a ratio, a clock). */
#define CSIM_VIEW_NUM 32

/* ns as µs with exactly 3 decimals (as summary.json's *_us fields). */
void csim_view_format_us(char *dst, int64_t ns);

/* num/den as a percentage with one decimal, rounded half up; "-" for den 0. */
void csim_view_format_share(char *dst, int64_t num, int64_t den);

/* num/den in tenths of a percent, rounded half up; -1 for den 0. */
int64_t csim_view_permille(int64_t num, int64_t den);

/* num/den as a multiple with one decimal ("2.2"), rounded half up; 0 and
   nothing written when den <= 0. */
int csim_view_format_ratio(char *dst, int64_t num, int64_t den);

/* Clock in MHz: "1650", or "1649.500" when it has a fraction. */
void csim_view_format_mhz(char *dst, const struct csim_clock *clock);

/*
 * Why a run's clock is unknown (csim_clock_of_run gave none: no
 * OP_BASIC_INFO, and API_INSTR gave none for the reason s->clock_gap
 * says), as the table and the page print it after "clock unknown: ";
 * at most 65 columns, so that the table's line fits in 80.
 */
const char *csim_view_clock_unknown(const struct csim_summary *s);

/* The dump a summary describes, as summary.json and summary.html name it. */
struct csim_view_input {
	const char *path;      /* the .bin read, spelled from its PATH */
	uint64_t size;         /* bytes of the file on disk */
	int gzip;              /* the file is gzip-compressed */
};

/*
 * What a cut summary covers, one sentence without its period, for the
 * table, summary.html and docs/summary.md alike; NULL without a cut.
 */
const char *csim_view_cut_covers(const struct csim_cut *c);

/*
 * The producer p waited on longest (first in lane order on ties); NULL
 * when it never waited. Its producer is CSIM_NONE when the WAITs named none.
 */
const struct csim_summary_wait *csim_view_top_wait(const struct csim_summary *s,
						   const struct csim_summary_pipe *p);

/* Per-pipe sums over every core (a sum, not a union: cores run in parallel). */
struct csim_view_total {
	uint32_t pipe;
	int order;             /* sort key: pipe table order, then name */
	const char *name;
	size_t n;
	int kept;
	size_t cores;          /* cores having the pipe */
	uint64_t instructions;
	int64_t busy_ns, wait_ns;
};

/*
 * The totals of each pipe present, in lane order, *n of them (malloc'ed:
 * the caller frees); NULL when out of memory.
 */
struct csim_view_total *csim_view_sum_pipes(const struct csim_model *m, size_t *n);

/* The cores a condensed view lists: slowest, median, fastest. */
enum { CSIM_VIEW_PICKS = 3 };
extern const char *const csim_view_pick_labels[CSIM_VIEW_PICKS];

/*
 * pick[k] is the index in s->cores of the slowest, the median (the first
 * core whose span is the median) and the fastest (the first with the
 * smallest span). s must have a core.
 */
void csim_view_pick_cores(const struct csim_summary *s, size_t pick[CSIM_VIEW_PICKS]);

/*
 * The span's move from one run to the next (SPEC §2.1: the compare view of
 * §14 between consecutive runs) is read core by core: a core is the same
 * in two runs when the dump gives it the same pid.
 */
/* Core `core` of m's summary as the dump names it: its pid without the run label. */
const char *csim_view_core_name(const struct csim_model *m, size_t core, size_t *n);

/* The core of run a's summary that core j of run b's is, or SIZE_MAX. */
size_t csim_view_core_in(const struct csim_model *a, const struct csim_model *b, size_t j);

/*
 * after - before as a signed share of before in ten-thousandths, rounded
 * half away from zero; 0 for before 0.
 */
int64_t csim_view_change_bp(int64_t before, int64_t after);

/*
 * A what-if's estimate as the change of its span in whole percents, half
 * up, into dst (CSIM_VIEW_NUM): "-23 %", "+1 %", "0 %" with `minus` as the
 * minus sign ("-" in text, U+2212 in HTML); "-" when span <= 0. Returns the
 * whole percents, 0 when it rounds to no change.
 */
long long csim_view_format_estimate(char *dst, int64_t est, int64_t span, const char *minus);

/* Mean bandwidth in MB/s (GB/s with 3 decimals): bytes over busy_ns > 0. */
int64_t csim_view_bandwidth_mbps(uint64_t bytes, int64_t busy_ns);

#endif
