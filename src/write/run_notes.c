#include "write/run_notes.h"

#include <stdio.h>

/* A count per reason, and what the notes call each reason. */
struct breakdown {
	const uint64_t *counts;
	const char *const *texts;
	size_t n;
};

static uint64_t breakdown_total(struct breakdown b)
{
	uint64_t s = 0;

	for (size_t i = 0; i < b.n; i++)
		s += b.counts[i];
	return s;
}

/* "3 a, 2 b" for the non-zero counts; empty when all are zero. */
static void breakdown_text(struct breakdown b, char *buf, size_t cap)
{
	size_t len = 0;

	buf[0] = '\0';
	for (size_t i = 0; i < b.n && len < cap; i++) {
		int k;

		if (b.counts[i] == 0)
			continue;
		k = snprintf(buf + len, cap - len, "%s%llu %s", len ? ", " : "",
			     (unsigned long long)b.counts[i], b.texts[i]);
		if (k < 0)
			break;
		len += (size_t)k;
	}
}

/* Which run of several is converted, and blocks that are not one per run. */
static void runs_print(struct csim_log *log, const struct csim_run_choice *c,
		       const struct csim_run_facts *facts)
{
	const char *path = facts->bin_path;

	if (c->runs > 1 && facts->run_all)
		csim_log_note(log, "%s holds %llu runs: converted side by side, each in processes of its own (\"<pid> run <k>\") with its own metrics and summary",
			      path, (unsigned long long)c->runs);
	else if (c->runs > 1 && facts->run_given)
		csim_log_note(log, "%s holds %llu runs: converting run %llu",
			      path, (unsigned long long)c->runs, (unsigned long long)c->run);
	else if (c->runs > 1)
		csim_log_warn(log, "%s holds %llu runs (a re-run appended to the same file): converting run %llu; use --run K or --run all",
			      path, (unsigned long long)c->runs, (unsigned long long)c->run);
	if (c->instr_mismatch)
		csim_log_warn(log, "%s: %llu TRACE block(s) but %llu API_INSTR block(s): %s the last API_INSTR block, at offset %llu",
			      path, (unsigned long long)c->runs, (unsigned long long)c->ninstr,
			      facts->run_all ? "every run's metrics come from" : "metrics come from",
			      (unsigned long long)facts->instr_offset);
	if (c->basic_mismatch && facts->run_all)
		csim_log_warn(log, "%s: %llu TRACE block(s) but %llu OP_BASIC_INFO block(s): every run takes the last OP_BASIC_INFO block",
			      path, (unsigned long long)c->runs, (unsigned long long)c->nbasic);
	else if (c->basic_mismatch)
		csim_log_warn(log, "%s: %llu TRACE block(s) but %llu OP_BASIC_INFO block(s): run %llu takes the last OP_BASIC_INFO block, at offset %llu",
			      path, (unsigned long long)c->runs, (unsigned long long)c->nbasic,
			      (unsigned long long)c->run, (unsigned long long)c->basic_offset);
}

void csim_run_notes_print(struct csim_log *log, const struct csim_model *m,
			  const struct csim_run_facts *facts)
{
	const struct csim_table *t = &m->table;
	const struct breakdown skipped = { t->skipped, csim_skip_reason_texts, CSIM_SKIP_COUNT };
	const struct breakdown dropped = { t->dropped, csim_drop_reason_texts, CSIM_DROP_COUNT };
	const struct breakdown sdropped = { m->slice_drops, csim_slice_drop_texts, CSIM_SDROP_COUNT };
	uint64_t sync_skips[CSIM_FSKIP_COUNT];
	const struct breakdown fskipped = { sync_skips, csim_flag_skip_texts, CSIM_FSKIP_COUNT };
	char buf[1024], pre[32] = "";

	/* Cross-core sync records are counted with the flags (SPEC §5.6). */
	for (size_t i = 0; i < CSIM_FSKIP_COUNT; i++)
		sync_skips[i] = m->flag_skips[i] + m->intra_skips[i];

	if (facts->run_label != 0)
		snprintf(pre, sizeof(pre), "run %llu: ", (unsigned long long)facts->run_label);
	if (facts->first)
		runs_print(log, &m->run.choice, facts);
	if (breakdown_total(skipped) > 0) {
		breakdown_text(skipped, buf, sizeof(buf));
		csim_log_warn(log, "%s%llu event(s) skipped for missing or bad fields: %s",
			      pre, (unsigned long long)breakdown_total(skipped), buf);
	}
	if (!facts->have_metrics)
		csim_log_warn(log, "%s%s: no API_INSTR block: %s", pre, facts->bin_path,
			      facts->files ? "instr_metrics.json not written"
					   : "the summary has no API_INSTR figures");
	csim_log_note(log, "%s%llu event(s) in %zu TRACE block(s): %llu slice(s) kept on %zu lane(s) (%llu extra sub-lane(s)), %zu arrow(s), %zu counter(s)",
		      pre, (unsigned long long)t->events, facts->trace_blocks,
		      (unsigned long long)m->kept_slices, m->nlanes,
		      (unsigned long long)m->extra_sublanes, m->narrows + m->nintra_arrows,
		      t->ncounters);
	breakdown_text(sdropped, buf, sizeof(buf));
	if (buf[0])
		csim_log_note(log, "%sdropped slices: %s", pre, buf);
	breakdown_text(dropped, buf, sizeof(buf));
	if (buf[0])
		csim_log_note(log, "%sdropped records: %s", pre, buf);
	if (breakdown_total(fskipped) > 0) {
		breakdown_text(fskipped, buf, sizeof(buf));
		csim_log_note(log, "%s%llu sync flag(s) could not be re-anchored: %s",
			      pre, (unsigned long long)breakdown_total(fskipped), buf);
	}
	if (m->flag_running + m->intra_running > 0)
		csim_log_note(log, "%s%llu arrow(s) anchored on a still-running producer: no instruction of the SET's pipe had completed when it fired",
			      pre, (unsigned long long)(m->flag_running + m->intra_running));
	/* The counts above are the run's; the trace holds what the cut left. */
	if (csim_cut_active(&m->cut))
		csim_log_note(log, "%scut (--core/--window): the trace holds %llu of %llu slice(s), %llu of %zu arrow(s), %llu of %zu counter(s)",
			      pre, (unsigned long long)m->cut.slices_in,
			      (unsigned long long)m->kept_slices,
			      (unsigned long long)m->cut.arrows_in, m->narrows + m->nintra_arrows,
			      (unsigned long long)m->cut.counters_in, t->ncounters);
	if (facts->metrics_left_out > 0)
		csim_log_note(log, "%sinstr_metrics.json: %llu of %llu per-core row(s) left out: not executed on their core (Instructions Executed 0)",
			      pre, (unsigned long long)facts->metrics_left_out,
			      (unsigned long long)facts->metrics_records);
}
