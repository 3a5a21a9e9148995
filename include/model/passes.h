/*
 * passes: the pass runner. Completes the model (pipe classes), then runs
 * the passes in the order of csim_pass_plan[], polling for interrupts
 * between them. Each pass's contract (struct csim_pass_def) is checked
 * against the plan with an assert before the first one runs.
 */
#ifndef CSIM_PASSES_H
#define CSIM_PASSES_H

#include <stddef.h>

#include "base/csim_error.h"
#include "model/model.h"

/* The passes in the order the converter runs them. */
extern const struct csim_pass_def *const csim_pass_plan[];
extern const size_t csim_pass_plan_len;

/*
 * Index of the first pass of plan[0..n) that requires a part neither
 * `have` nor an earlier pass of the plan provides; n when there is none.
 */
size_t csim_pass_plan_check(const struct csim_pass_def *const *plan, size_t n,
			    unsigned have);

/* Runs the whole plan on a model whose table is filled. */
int csim_passes_run(struct csim_model *m, struct csim_error *err);

/*
 * The plan on every run of a file (one model each, SPEC §2.1), then --core
 * judged over them all (a pattern need match a core of one run only: the
 * runs of one file may have run on different cores); with several runs,
 * each run's processes are then named after it ("core0.cubecore0 run 1",
 * m->run.run), once the cut matched the pids as the dump names them.
 */
int csim_passes_run_all(struct csim_model *const *runs, size_t n, struct csim_error *err);

#endif
