#include "write/metrics_thread.h"
#include "base/handoff.h"

#include <stdlib.h>
#include <string.h>

struct csim_metrics_thread {
	struct csim_handoff *thread;   /* no slots: a thread to start and join */
	struct csim_out out;
	struct csim_metrics_job *job;
	int rc;                    /* the job's, read after the join */
	struct csim_error err;     /* the thread's own */
};

static void *metrics_run(void *arg)
{
	struct csim_metrics_thread *th = arg;

	th->rc = csim_metrics_job_run(th->job, &th->err);
	return NULL;
}

int csim_metrics_thread_start(struct csim_metrics_thread **thp, const struct csim_metrics *mt,
			      const struct csim_metrics_plan *plan, int raw, const char *dir,
			      const char *name, struct csim_error *err)
{
	struct csim_metrics_thread *th = calloc(1, sizeof(*th));
	int rc;

	*thp = NULL;
	if (th == NULL)
		return csim_error_nomem(err, CSIM_E_OUTPUT);
	csim_error_clear(&th->err);
	rc = csim_out_open(&th->out, dir, name, err);
	if (rc == CSIM_OK)
		rc = csim_metrics_job_open(&th->job, mt, plan, raw, &th->out, err);
	if (rc == CSIM_OK && csim_handoff_new(&th->thread, 0) != 0)
		rc = csim_error_nomem(err, CSIM_E_OUTPUT);
	if (rc == CSIM_OK && csim_handoff_start(th->thread, "csim_metrics", metrics_run, th) != 0)
		rc = csim_error_set(err, CSIM_E_OUTPUT, CSIM_NO_OFFSET,
				    "cannot start the metrics thread");
	if (rc != CSIM_OK) {
		csim_handoff_free(th->thread);
		csim_metrics_job_close(th->job);
		csim_out_abort(&th->out);
		free(th);
		return rc;
	}
	*thp = th;
	return CSIM_OK;
}

int csim_metrics_thread_join(struct csim_metrics_thread **thp, int before_rc, int rc,
			     struct csim_out *out, struct csim_error *err)
{
	struct csim_metrics_thread *th = *thp;

	if (before_rc != CSIM_OK)
		csim_metrics_job_stop(th->job);
	csim_handoff_free(th->thread);   /* joins it */
	if (before_rc == CSIM_OK && th->rc != CSIM_OK) {
		*err = th->err;
		rc = th->rc;
	}
	*out = th->out;
	csim_metrics_job_close(th->job);
	free(th);
	*thp = NULL;
	return rc;
}

void csim_metrics_thread_abort(struct csim_metrics_thread *th)
{
	struct csim_out out;
	struct csim_error ignored;

	if (th == NULL)
		return;
	(void)csim_metrics_thread_join(&th, CSIM_E_OUTPUT, CSIM_E_OUTPUT, &out, &ignored);
	csim_out_abort(&out);
}
