#include "write/run_compare.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "read/result_read.h"
#include "write/compare_table.h"
#include "write/out_file.h"
#include "write/summary_writer.h"

/* summary.json's bytes, gathered in memory. */
struct text {
	char *p;
	size_t n, cap;
};

static int gather(void *ctx, const char *p, size_t n)
{
	struct text *t = ctx;

	if (n + 1 > t->cap - t->n) {
		size_t cap = t->cap ? t->cap : 4096;
		char *q;

		while (n + 1 > cap - t->n)
			cap *= 2;
		q = realloc(t->p, cap);
		if (q == NULL)
			return ENOMEM;
		t->p = q;
		t->cap = cap;
	}
	memcpy(t->p + t->n, p, n);
	t->n += n;
	t->p[t->n] = '\0';
	return 0;
}

int csim_run_compare_prepare(struct csim_run_compare *rc, const struct csim_model *const *runs,
			     size_t n, const struct csim_view_input *in, struct csim_error *err)
{
	struct text t = { NULL, 0, 0 };
	char buf[4096];
	struct csim_out out;
	int rc_;

	memset(rc, 0, sizeof(*rc));
	csim_result_init(&rc->summary);
	if (n < 2)
		return CSIM_OK;
	memset(&out, 0, sizeof(out));
	csim_out_stage(&out, buf, sizeof(buf), gather, &t);
	csim_summary_write(runs, n, in, &out);
	csim_out_flush(&out);
	if (csim_out_failed(&out) || t.p == NULL) {
		free(t.p);
		return csim_error_nomem(err, CSIM_E_INPUT);
	}
	rc_ = csim_result_read_text(&rc->summary, "summary.json", t.p, t.n, err);
	if (rc_ != CSIM_OK)
		return rc_;
	rc->pairs = calloc(rc->summary.nruns, sizeof(*rc->pairs));
	if (rc->pairs == NULL)
		return csim_error_nomem(err, CSIM_E_INPUT);
	for (size_t k = 1; k < rc->summary.nruns && rc_ == CSIM_OK; k++) {
		rc_ = csim_compare_runs(&rc->pairs[k - 1], &rc->summary, k - 1, &rc->summary, k, err);
		rc->npairs = k;
	}
	return rc_;
}

void csim_run_compare_print(const struct csim_run_compare *rc, FILE *f)
{
	for (size_t k = 0; k < rc->npairs; k++) {
		fputc('\n', f);
		csim_compare_table_print(&rc->pairs[k], f);
	}
}

void csim_run_compare_release(struct csim_run_compare *rc)
{
	for (size_t k = 0; k < rc->npairs; k++)
		csim_compare_release(&rc->pairs[k]);
	free(rc->pairs);
	csim_result_release(&rc->summary);
	memset(rc, 0, sizeof(*rc));
}
