/*
 * cut: the part of the run that --core and --window keep (SPEC §1;
 * docs/decisions.md, "Cuts"). The choices are set from the options before
 * the passes run, like the lane rule, so no pass needs the options; the
 * cut pass (pass_cut.h) turns them into one "in" flag per slice row,
 * counter, arrow, process and thread, which the trace writer obeys.
 *
 * The window is closed, [from_ns, to_ns] on the ns grid of SPEC §4 (an
 * absent bound is open). A slice is its grid interval [start, end), or the
 * point {start} when end <= start; it is in the window when that set meets
 * the window. So a slice ending exactly at from_ns is out (it ended before),
 * one starting exactly at to_ns is in, and a zero-length slice is in when
 * from_ns <= start <= to_ns.
 */
#ifndef CSIM_CUT_H
#define CSIM_CUT_H

#include <stddef.h>
#include <stdint.h>

/* --window A:B on the ns grid; a bound not given is open. */
struct csim_window {
	int has_from, has_to;
	int64_t from_ns, to_ns;
};

struct csim_cut {
	/* the choices: --core patterns (shell globs on the decoded pid) and
	   --window; no pattern and no bound: no cut */
	const char *const *cores;
	size_t ncores;
	struct csim_window window;
	/* several runs side by side (--run all): a pattern may match no core of
	   this run, only of another's; csim_cut_check_runs() judges it */
	int across_runs;
	/* set by the cut pass when a cut is active; NULL: everything is in */
	unsigned char *slice_in;     /* per table row (kept rows only are in) */
	unsigned char *counter_in;   /* per table counter */
	unsigned char *arrow_in;     /* per arrows[] */
	unsigned char *intra_in;     /* per intra_arrows[] */
	unsigned char *process_in;   /* per processes[] */
	unsigned char *thread_in;    /* per threads[] */
	unsigned char *pid_in;       /* per pid: --core keeps it (the summary's cores
					too); a process of counters only (MTE
					Throughput: kernel-wide) is in */
	unsigned char *core_hit;     /* per pattern: it matched a pid of the run */
	uint64_t slices_in, counters_in, arrows_in;   /* how many are in */
};

static inline int csim_window_active(const struct csim_window *w)
{
	return w->has_from || w->has_to;
}

static inline int csim_cut_active(const struct csim_cut *c)
{
	return c->ncores > 0 || csim_window_active(&c->window);
}

/* Whether the slice [start, end) (a point when end <= start) meets w. */
static inline int csim_window_meets(const struct csim_window *w, int64_t start,
				    int64_t end)
{
	if (w->has_to && start > w->to_ns)
		return 0;
	if (w->has_from && start < w->from_ns && end <= w->from_ns)
		return 0;
	return 1;
}

/* Whether an instant (a counter's ts) lies in w. */
static inline int csim_window_holds(const struct csim_window *w, int64_t ts)
{
	return (!w->has_from || ts >= w->from_ns) && (!w->has_to || ts <= w->to_ns);
}

/* t moved into w (an interval clipped to the window: both ends clamped). */
static inline int64_t csim_window_clamp(const struct csim_window *w, int64_t t)
{
	if (w->has_from && t < w->from_ns)
		return w->from_ns;
	if (w->has_to && t > w->to_ns)
		return w->to_ns;
	return t;
}

/* Item i of a cut's flag array: in when the array is NULL (no cut). */
static inline int csim_cut_in(const unsigned char *in, size_t i)
{
	return in == NULL || in[i] != 0;
}

/* Frees the pass's results; the choices stay. */
void csim_cut_release(struct csim_cut *c);

#endif
