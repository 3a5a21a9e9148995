#include "cli/compare_cmd.h"

#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "base/path.h"
#include "model/compare.h"
#include "read/result_read.h"
#include "write/compare_html.h"
#include "write/compare_json.h"
#include "write/compare_table.h"
#include "write/out_set.h"

/* What makes the two sides not like for like, said once each. */
static void warn_others(const struct csim_compare *c, struct csim_log *log)
{
	const struct csim_result_run *b = c->base_run, *n = c->now_run;

	if (c->kind == CSIM_RESULT_BATCH) {
		if (c->other_ops > 0)
			csim_log_warn(log, "%zu dump(s) hold another op in NEW than in BASE: their "
				      "spans are not like for like", c->other_ops);
		return;
	}
	if (c->other & CSIM_COMPARE_OTHER_OP)
		csim_log_warn(log, "comparing different ops: %.*s in BASE, %.*s in NEW",
			      b->op.p != NULL ? (int)b->op.n : 4, b->op.p != NULL ? b->op.p : "none",
			      n->op.p != NULL ? (int)n->op.n : 4, n->op.p != NULL ? n->op.p : "none");
	if (c->other & CSIM_COMPARE_OTHER_SOC)
		csim_log_warn(log, "comparing different SoCs: %.*s in BASE, %.*s in NEW",
			      b->soc.p != NULL ? (int)b->soc.n : 7, b->soc.p != NULL ? b->soc.p : "unknown",
			      n->soc.p != NULL ? (int)n->soc.n : 7, n->soc.p != NULL ? n->soc.p : "unknown");
	if (c->other & CSIM_COMPARE_OTHER_CLOCK)
		csim_log_warn(log, "comparing different clocks: %.3f MHz in BASE, %.3f MHz in NEW "
			      "(0: unknown); spans in ns are compared, cycles differ in length",
			      b->mhz, n->mhz);
	if (c->base->nruns > 1 || c->now->nruns > 1)
		csim_log_note(log, "a summary of several runs is compared by its last run");
}

/* compare.json and compare.html into dir, committed as one set (made and locked first). */
static int write_files(const struct csim_compare *c, const char *dir, struct csim_log *log,
		       struct csim_error *err)
{
	struct csim_out json, html;
	struct csim_out_set set;
	size_t made = 0, removed = 0;
	int gone = 0;
	int rc = csim_path_make_dirs(dir, &made, err);

	memset(&json, 0, sizeof(json));
	json.fd = -1;
	memset(&html, 0, sizeof(html));
	html.fd = -1;
	csim_out_set_init(&set);
	if (rc == CSIM_OK)
		rc = csim_out_set_begin(&set, dir, log, err);
	if (rc == CSIM_OK && !csim_out_set_begun(&set))
		rc = csim_error_set(err, CSIM_E_OUTPUT, CSIM_NO_OFFSET, "cannot write %s: %s", dir,
				    strerror(ENOENT));
	if (rc == CSIM_OK)
		rc = csim_out_open(&json, dir, "compare.json", err);
	if (rc == CSIM_OK) {
		csim_compare_json_write(c, &json);
		rc = csim_out_set_add(&set, &json, err);
	}
	if (rc == CSIM_OK)
		rc = csim_out_open(&html, dir, "compare.html", err);
	if (rc == CSIM_OK) {
		csim_compare_html_write(c, &html);
		rc = csim_out_set_add(&set, &html, err);
	}
	if (rc == CSIM_OK)
		rc = csim_out_set_commit(&set, err);
	csim_out_abort(&json);
	csim_out_abort(&html);
	if (rc != CSIM_OK && made > 0 && csim_out_set_begun(&set)) {
		gone = csim_out_set_release_made(&set);
	} else {
		csim_out_set_release(&set);
		if (rc != CSIM_OK && made > 0)
			gone = csim_path_unmake_dirs(dir, made, &removed) == 0 && removed > 0;
	}
	/* out of memory stays exactly that (docs/robustness.md) */
	if (gone && !csim_error_is_nomem(err))
		csim_error_append(err, "; removed %s (created by this run)", dir);
	if (rc == CSIM_OK) {
		csim_log_wrote(log, dir, "compare.json");
		csim_log_wrote(log, dir, "compare.html");
	}
	return rc;
}

/*
 * The gate fired: one line on stderr per span past the threshold, in the
 * table's order ("  kernel (slowest core) 700 -> 800 ns (+14.3 %)"), then
 * the error that counts them (docs/compare.md).
 */
static int gate(const struct csim_compare *c, struct csim_log *log, struct csim_error *err)
{
	for (size_t i = 0; i < c->nslower; i++) {
		const struct csim_compare_slower *s = &c->slower[i];
		char ch[CSIM_COMPARE_CELL];
		char line[512];

		csim_compare_format_change(ch, s->ns);
		snprintf(line, sizeof(line), "slower: %.*s %lld -> %lld ns (%s)",
			 s->what.p != NULL ? (int)s->what.n : 21,
			 s->what.p != NULL ? s->what.p : "kernel (slowest core)",
			 (long long)s->ns.base, (long long)s->ns.now, ch);
		csim_log_text(log->err, line);
		fputc('\n', log->err);
	}
	csim_error_set(err, CSIM_E_SLOWER, CSIM_NO_OFFSET,
		       "slower than %g %% in %zu span(s), each on a line above", c->threshold,
		       c->nslower);
	return CSIM_E_SLOWER;
}

/* A gate over two batches that share no dump compares nothing: it must not
   pass (docs/compare.md, "The gate"). */
static int gate_nothing(const struct csim_compare *c, struct csim_error *err)
{
	return csim_error_set(err, CSIM_E_UNCOMPARED, CSIM_NO_OFFSET,
			      "--fail-if-slower compared nothing: no dump is in both batches "
			      "(%zu only in BASE, %zu only in NEW); batches match dumps by their "
			      "path below the batch folder, kernel_insight_all_funcs_<ts> and "
			      "OPPROF_<ts> levels aside", c->nremoved, c->nadded);
}

/*
 * A dump of BASE that NEW lacks, or that NEW failed to convert, has no
 * span to compare: a kernel that stopped building must not pass the gate
 * (docs/compare.md, "The gate"). One line per dump on stderr, then the
 * error; 0 when every dump of BASE was compared.
 */
static int gate_unvouched(const struct csim_compare *c, struct csim_log *log,
			  struct csim_error *err)
{
	size_t n = 0;

	for (size_t i = 0; i < c->ndumps; i++) {
		const struct csim_compare_dump *d = &c->dumps[i];
		const char *why = d->now == NULL ? "in BASE, not in NEW"
				  : d->base != NULL && d->base->ok && !d->now->ok
				  ? "converted in BASE, failed in NEW" : NULL;
		char line[512];

		if (why == NULL)
			continue;
		snprintf(line, sizeof(line), "not compared: %.*s (%s)", (int)d->dump.n, d->dump.p,
			 why);
		csim_log_text(log->err, line);
		fputc('\n', log->err);
		n++;
	}
	if (n == 0)
		return CSIM_OK;
	return csim_error_set(err, CSIM_E_UNCOMPARED, CSIM_NO_OFFSET,
			      "--fail-if-slower cannot vouch for %zu dump(s) of BASE, each on a "
			      "line above", n);
}

int csim_compare_cmd(const struct csim_options *opt, struct csim_log *log,
		     struct csim_error *err)
{
	struct csim_result base, now;
	struct csim_compare c;
	int rc;

	csim_result_init(&base);
	csim_result_init(&now);
	memset(&c, 0, sizeof(c));
	rc = csim_result_read(&base, opt->compare_base, err);
	if (rc == CSIM_OK)
		rc = csim_result_read(&now, opt->input, err);
	if (rc == CSIM_OK)
		rc = csim_compare_build(&c, &base, &now, opt->fail_if_slower, err);
	if (rc == CSIM_OK)
		warn_others(&c, log);
	if (rc == CSIM_OK && opt->output_dir != NULL)
		rc = write_files(&c, opt->output_dir, log, err);
	if (rc == CSIM_OK && !log->quiet)
		csim_compare_table_print(&c, log->out);
	if (rc == CSIM_OK && c.nslower > 0)
		rc = gate(&c, log, err);
	else if (rc == CSIM_OK && c.threshold >= 0 && c.kind == CSIM_RESULT_BATCH &&
		 c.ndumps == c.nadded + c.nremoved)
		rc = gate_nothing(&c, err);
	else if (rc == CSIM_OK && c.threshold >= 0 && c.kind == CSIM_RESULT_BATCH)
		rc = gate_unvouched(&c, log, err);
	csim_compare_release(&c);
	csim_result_release(&now);
	csim_result_release(&base);
	return rc;
}
