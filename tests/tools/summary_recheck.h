/*
 * What the parts of summary_recheck share: failure reporting and number
 * reading (cJSON only; nothing of the converter).
 */
#ifndef SUMMARY_RECHECK_H
#define SUMMARY_RECHECK_H

#include <stddef.h>

#include <cjson/cJSON.h>

__attribute__((format(printf, 1, 2)))
void sumcheck_fail(const char *fmt, ...);

/* The number at key of o, NAN when absent or not a number. */
double sumcheck_num(const cJSON *o, const char *key);

/*
 * The API_INSTR part (summary_recheck_instr.c): per (core, pipe) cycles,
 * sync_cycles, executed and vector_utilization from instr_metrics.json
 * (metrics NULL: the run has none, all must be null), and top_instructions.
 */
void sumcheck_instr_pipe(const cJSON *metrics, const char *core, const cJSON *pipe);
/* The raw API_INSTR payload (--raw-metrics) as SPEC §7 reshapes it; takes m. */
cJSON *sumcheck_instr_reshape(cJSON *m);
void sumcheck_instr_top(const cJSON *metrics, const cJSON *summary);
/* top_source_lines from the rows' AscendC Inner Code. */
void sumcheck_instr_lines(const cJSON *metrics, const cJSON *summary);

/* The lane part (summary_recheck_lanes.c). */
struct sumcheck_slice {
	double a, b;           /* ts*1000, (ts+dur)*1000 */
	long long s, e;        /* on the grid, not clipped */
	int instr;             /* sumcheck_path_instr() */
};
struct sumcheck_iv { long long s, e; };
struct sumcheck_window {
	int has_from, has_to;
	long long from, to;
};
/* The depth of a lane's slices (w NULL: no window); -1 out of memory. */
long sumcheck_depth(const struct sumcheck_slice *v, size_t n, const struct sumcheck_window *w);
/* args.process_bytes of an event (a decimal string or a whole number); -1: none. */
long long sumcheck_process_bytes(const cJSON *ev);
/* bytes and bandwidth_gbps of pipe p: sum over busy ns (has_bytes 0: both null). */
void sumcheck_bytes(const char *core, const char *pipe, const cJSON *p, int has_bytes,
		    unsigned long long sum, long long busy);
/* ns covered by both lists of grid intervals; -1 out of memory. */
long long sumcheck_overlap(const struct sumcheck_iv *mte, size_t nm,
			   const struct sumcheck_iv *comp, size_t nc);

/* The lanes of the run, for the path part (summary_recheck.c). */
/* The slices of lane (pid, pipe) into *out: how many; -1 without the lane. */
long sumcheck_lane_slices(const char *pid, const char *pipe, const struct sumcheck_slice **out);
/* A core with slices in the trace. */
int sumcheck_core_in_trace(const char *pid);
/* A slice of lane (pid, pipe) covers [s, e] (its grid interval, unclipped). */
int sumcheck_lane_covers(const char *pid, const char *pipe, long long s, long long e);
/* A slice of the lane of tid ("PIPE#k": PIPE's) holds t strictly inside on
   the grid, starting at start and ending at end (each when >= 0). */
int sumcheck_lane_at(const char *pid, const char *tid, double t, long long start, long long end);
/* The distinct instructions (sumcheck_path_instr()) of the slices of lane
   (pid, pipe) that cover [s, e]: at most max into out; how many were. */
size_t sumcheck_lane_instrs(const char *pid, const char *pipe, long long s, long long e,
			    int *out, size_t max);

/* The critical-path part (summary_recheck_path.c): the "critical path"
   lanes and in-core arrows of the trace against each core's critical_path. */
void sumcheck_path_reset(void);
/* The instruction of a trace slice, by its args.pc_addr and name: an id
   (-1: the recheck's table is full). */
int sumcheck_path_instr(const cJSON *ev);
/* Takes a path segment or arrow end: 1 when ev is a path segment. */
int sumcheck_path_add(const cJSON *ev);
void sumcheck_path_core(const cJSON *core, int windowed);
void sumcheck_path_done(const cJSON *jcores);
/* load_balance.what_if against the cores' estimates. */
void sumcheck_path_kernel(const cJSON *load_balance, const cJSON *jcores);

/* The timeline part (summary_recheck_timeline.c): "timeline" against the
   slowest core's lanes. */
void sumcheck_timeline(const cJSON *summary);

/* The diagnosis part (summary_recheck_diag.c): its lines against the summary. */
void sumcheck_diagnosis(const cJSON *summary);

#endif
