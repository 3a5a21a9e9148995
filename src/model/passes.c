#include "model/passes.h"

#include <assert.h>
#include <stdlib.h>

#include "base/interrupt.h"
#include "base/progress.h"
#include "model/diagnosis.h"
#include "model/pass_cut.h"
#include "model/pass_flags.h"
#include "model/pass_intra.h"
#include "model/pass_lanes.h"
#include "model/pass_order.h"
#include "model/pass_pack.h"
#include "model/pass_pair.h"
#include "model/pass_tracks.h"
#include "model/pass_path.h"
#include "model/pass_summary.h"
#include "model/summary_waits.h"

/* pair first: the sync records can go before the other passes allocate. */
const struct csim_pass_def *const csim_pass_plan[] = {
	&csim_pass_pair_def,
	&csim_pass_lanes_def,
	&csim_pass_pack_def,
	&csim_pass_tracks_def,
	&csim_pass_flags_def,
	&csim_pass_intra_def,
	&csim_pass_order_def,
	&csim_pass_cut_def,
	&csim_pass_waits_def,
	&csim_pass_summary_def,
	&csim_pass_path_def,
	&csim_pass_diagnose_def,
};

const size_t csim_pass_plan_len = sizeof(csim_pass_plan) / sizeof(csim_pass_plan[0]);

size_t csim_pass_plan_check(const struct csim_pass_def *const *plan, size_t n,
			    unsigned have)
{
	for (size_t i = 0; i < n; i++) {
		if ((plan[i]->requires & ~have) != 0)
			return i;
		have |= plan[i]->provides;
	}
	return n;
}

/* The transient parts that no pass from plan[next] on requires. */
static unsigned unneeded_from(size_t next)
{
	unsigned needed = 0;

	for (size_t i = next; i < csim_pass_plan_len; i++)
		needed |= csim_pass_plan[i]->requires;
	return CSIM_PARTS_TRANSIENT & ~needed;
}

/*
 * Passes do no I/O, so the signal poll and the progress line's tick are
 * here, between them. Each transient part is freed as soon as no pass
 * still to run requires it, which keeps the peak memory of a run as low as
 * when the flag pass freed the sync records itself.
 */
int csim_passes_run(struct csim_model *m, struct csim_error *err)
{
	int rc = csim_model_classify_pipes(m, err);

	assert(csim_pass_plan_check(csim_pass_plan, csim_pass_plan_len,
				    CSIM_PART_SYNCS | CSIM_PART_PIPES) == csim_pass_plan_len);
	for (size_t i = 0; i < csim_pass_plan_len && rc == CSIM_OK; i++) {
		rc = csim_interrupt_pending() ? csim_interrupt_fail(err)
		     : csim_pass_plan[i]->run(m, err);
		if (rc == CSIM_OK)
			csim_model_drop(m, unneeded_from(i + 1));
		csim_progress_tick(m->progress);
	}
	if (rc == CSIM_OK && csim_interrupt_pending())
		rc = csim_interrupt_fail(err);
	return rc;
}

int csim_passes_run_all(struct csim_model *const *runs, size_t n, struct csim_error *err)
{
	const struct csim_model **judged;
	int rc = CSIM_OK;

	for (size_t i = 0; i < n && rc == CSIM_OK; i++)
		rc = csim_passes_run(runs[i], err);
	if (rc != CSIM_OK || n == 0)
		return rc;
	judged = malloc(n * sizeof(*judged));
	if (judged == NULL)
		return csim_error_nomem(err, CSIM_E_INPUT);
	for (size_t i = 0; i < n; i++)
		judged[i] = runs[i];
	rc = csim_cut_check_runs(judged, n, err);
	free(judged);
	for (size_t i = 0; i < n && rc == CSIM_OK && n > 1; i++)
		rc = csim_model_label_run(runs[i], runs[i]->run.run, err);
	return rc;
}
