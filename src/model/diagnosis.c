/*
 * The diagnose pass: the rules write their lines (diag_rules.h), then each
 * line of a per-core rule takes its representative core (the one whose
 * evidence weighs most, first in core order on a tie) and that core's
 * numbers as its own, and the lines are ranked by their evidence.
 */
#include "model/diagnosis.h"

#include <stdlib.h>
#include <string.h>

#include "model/diag_build.h"
#include "model/diag_path.h"
#include "model/diag_partner.h"
#include "model/diag_rules.h"

const struct csim_pass_def csim_pass_diagnose_def = {
	csim_pass_diagnose,
	CSIM_PART_PIPES | CSIM_PART_ARROWS | CSIM_PART_INTRA | CSIM_PART_SUMMARY | CSIM_PART_PATH,
	CSIM_PART_DIAGNOSIS
};

static const char *const rule_ids[CSIM_DIAG_RULE_COUNT] = {
	"near_empty", "degenerate_no_cube", "truncated", "transfer_bound",
	"vector_shaped_wrong", "scalar_bound", "sync_bound", "cross_core_wait",
	"load_imbalance", "path_bound",
};

/* Indexed by figure so each name sits next to its enum, whatever the enum's
   order; test_diagnosis_verdict checks that none is missing. */
static const char *const fig_names[CSIM_DIAG_FIG_COUNT] = {
	[CSIM_DIAG_FIG_INSTRUCTIONS] = "instructions",
	[CSIM_DIAG_FIG_CORES] = "cores",
	[CSIM_DIAG_FIG_CUBE_CORES] = "cube_cores",
	[CSIM_DIAG_FIG_CUBE_CORE_INSTRUCTIONS] = "cube_core_instructions",
	[CSIM_DIAG_FIG_CUBE_INSTRUCTIONS] = "cube_instructions",
	[CSIM_DIAG_FIG_CUBE_CYCLES] = "cube_cycles",
	[CSIM_DIAG_FIG_UNRELEASED_WAITS] = "unreleased_waits",
	[CSIM_DIAG_FIG_CORES_WAITING] = "cores_waiting",
	[CSIM_DIAG_FIG_PIPE] = "pipe",
	[CSIM_DIAG_FIG_BUSY_NS] = "busy_ns",
	[CSIM_DIAG_FIG_SPAN_NS] = "span_ns",
	[CSIM_DIAG_FIG_COMPUTE_PIPE] = "compute_pipe",
	[CSIM_DIAG_FIG_COMPUTE_BUSY_NS] = "compute_busy_ns",
	[CSIM_DIAG_FIG_UTILIZATION_X100] = "utilization_x100",
	[CSIM_DIAG_FIG_UTILIZATION_CYCLES] = "utilization_cycles",
	[CSIM_DIAG_FIG_STARVED_PIPE] = "starved_pipe",
	[CSIM_DIAG_FIG_STARVED_WAIT_NS] = "starved_wait_ns",
	[CSIM_DIAG_FIG_WAIT_FLAG_NS] = "wait_flag_ns",
	[CSIM_DIAG_FIG_PRODUCER] = "producer",
	[CSIM_DIAG_FIG_PRODUCER_NS] = "producer_ns",
	[CSIM_DIAG_FIG_CROSS_CORE_WAIT_NS] = "cross_core_wait_ns",
	[CSIM_DIAG_FIG_PARTNER_CORE] = "partner_core",
	[CSIM_DIAG_FIG_PARTNER_PIPE] = "partner_pipe",
	[CSIM_DIAG_FIG_PARTNER_WAITS] = "partner_waits",
	[CSIM_DIAG_FIG_WAITS] = "waits",
	[CSIM_DIAG_FIG_MAX_SPAN_NS] = "max_span_ns",
	[CSIM_DIAG_FIG_MEDIAN_SPAN_NS] = "median_span_ns",
	[CSIM_DIAG_FIG_MIN_SPAN_NS] = "min_span_ns",
	[CSIM_DIAG_FIG_PATH_NS] = "path_ns",
};

/* The rules about the trace itself rather than what one core did. */
static int about_the_trace(enum csim_diag_rule rule)
{
	return rule == CSIM_DIAG_NEAR_EMPTY || rule == CSIM_DIAG_NO_CUBE ||
	       rule == CSIM_DIAG_TRUNCATED;
}

static int64_t capped(int64_t ns, int64_t span)
{
	return ns < span ? ns : span;
}

int64_t csim_diag_at_evidence_ns(const struct csim_model *m, const struct csim_diag *d,
				 const struct csim_diag_at *at)
{
	const int64_t span = csim_diag_at_num(at, CSIM_DIAG_FIG_SPAN_NS);

	/* With a path, the time the cause holds on it: what shortening it
	   could take back (diag_path.h). */
	if (csim_diag_at_has(at, CSIM_DIAG_FIG_PATH_NS))
		return capped(csim_diag_at_num(at, CSIM_DIAG_FIG_PATH_NS), span);
	switch (d->rule) {
	case CSIM_DIAG_TRANSFER_BOUND:
	case CSIM_DIAG_VECTOR_SHAPE:
	case CSIM_DIAG_SCALAR_BOUND:
	case CSIM_DIAG_PATH_BOUND:
		return capped(csim_diag_at_num(at, CSIM_DIAG_FIG_BUSY_NS), span);
	case CSIM_DIAG_SYNC_BOUND:
		return capped(csim_diag_at_num(at, CSIM_DIAG_FIG_WAIT_FLAG_NS), span);
	case CSIM_DIAG_CROSS_CORE:
		return capped(csim_diag_at_num(at, CSIM_DIAG_FIG_CROSS_CORE_WAIT_NS), span);
	case CSIM_DIAG_LOAD_IMBALANCE:
		return span - m->summary.median_span_ns;
	default:
		return m->diagnosis.rank_span_ns;
	}
}

int64_t csim_diag_evidence_ns(const struct csim_model *m, const struct csim_diag *d)
{
	int64_t best = 0;

	/* A trace that is not the kernel's real run puts every figure in doubt. */
	if (about_the_trace(d->rule))
		return m->diagnosis.rank_span_ns;
	for (size_t k = 0; k < d->nat; k++) {
		int64_t e = csim_diag_at_evidence_ns(m, d, &m->diagnosis.at[d->at0 + k]);

		if (e > best)
			best = e;
	}
	return best;
}

/* path_ns of an entry whose core has a path, last among its figures. */
static void add_path(const struct csim_model *m, struct csim_diag_at *at, enum csim_diag_rule rule)
{
	int64_t ns;

	if (csim_diag_path_ns(m, rule, at, &ns))
		csim_diag_build_add(at, CSIM_DIAG_FIG_PATH_NS, CSIM_DIAG_INT, ns);
}

/* A per-core line speaks through its weightiest core. */
static void take_representative(struct csim_model *m, struct csim_diag *d)
{
	const struct csim_diag_at *rep = NULL;
	int64_t best = -1;

	if (about_the_trace(d->rule) || d->rule == CSIM_DIAG_LOAD_IMBALANCE)
		return;
	for (size_t k = 0; k < d->nat; k++) {
		const struct csim_diag_at *at = &m->diagnosis.at[d->at0 + k];
		int64_t e = csim_diag_at_evidence_ns(m, d, at);

		if (e > best) {
			best = e;
			rep = at;
		}
	}
	if (rep == NULL)
		return;
	d->core = rep->core;
	memcpy(d->nums, rep->nums, sizeof(d->nums));
	d->nnums = rep->nnums;
}

/* Stable: by evidence, most first; lines come in rule order, which breaks ties. */
static void rank(struct csim_diagnosis *dg)
{
	for (size_t i = 1; i < dg->n; i++) {
		struct csim_diag x = dg->lines[i];
		size_t j = i;

		while (j > 0 && dg->lines[j - 1].evidence_ns < x.evidence_ns) {
			dg->lines[j] = dg->lines[j - 1];
			j--;
		}
		dg->lines[j] = x;
	}
	for (size_t i = 0; i < dg->n; i++)
		dg->lines[i].primary = i == 0;
}

int csim_pass_diagnose(struct csim_model *m, struct csim_error *err)
{
	const struct csim_summary *s = &m->summary;
	struct csim_diag_partner *partners = NULL;
	struct csim_diag_build b;
	int rc = CSIM_OK;

	csim_diagnosis_release(&m->diagnosis);
	if (csim_diag_build_init(&b, &m->diagnosis, s->ncores) != 0)
		return csim_error_nomem(err, CSIM_E_INPUT);
	m->diagnosis.rank_span_ns = s->ncores > 0 ? s->max_span_ns : 0;
	if (!csim_diag_rules_whole(m, &b)) {
		rc = csim_diag_partner_find(m, &partners, err);
		if (rc != CSIM_OK) {
			csim_diagnosis_release(&m->diagnosis);
			goto out;
		}
		csim_diag_rules_figures(m, &b, partners);
	}
	for (size_t i = 0; i < m->diagnosis.n; i++) {
		const struct csim_diag *d = &m->diagnosis.lines[i];

		for (size_t k = 0; k < d->nat; k++)
			add_path(m, &m->diagnosis.at[d->at0 + k], d->rule);
	}
	for (size_t i = 0; i < m->diagnosis.n; i++) {
		take_representative(m, &m->diagnosis.lines[i]);
		m->diagnosis.lines[i].evidence_ns = csim_diag_evidence_ns(m, &m->diagnosis.lines[i]);
	}
	rank(&m->diagnosis);
out:
	csim_diag_build_release(&b);
	free(partners);
	return rc;
}

const char *csim_diag_id(enum csim_diag_rule rule)
{
	return rule < CSIM_DIAG_RULE_COUNT ? rule_ids[rule] : "unknown";
}

const char *csim_diag_fig_name(enum csim_diag_fig fig)
{
	return fig < CSIM_DIAG_FIG_COUNT && fig_names[fig] != NULL ? fig_names[fig] : "unknown";
}
