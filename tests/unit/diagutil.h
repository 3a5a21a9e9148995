/*
 * diagutil.h: what the diagnosis tests share: finding a rule's line and
 * its cores, checking a text, and padding a core with instructions that
 * keep near_empty silent without moving any busy time.
 */
#ifndef CSIM_TEST_DIAGUTIL_H
#define CSIM_TEST_DIAGUTIL_H

#include "check.h"
#include "modelutil.h"

#include "model/diag_text.h"
#include "model/diagnosis.h"

#define CA "core0.cubecore0"
#define CB "core1.cubecore0"
#define VA "core0.veccore0"
#define VB "core1.veccore0"
#define VC "core2.veccore0"
#define VD "core3.veccore0"

/* Runs the diagnose pass again, after a test changed the summary by hand. */
static inline void du_rediagnose(struct csim_model *m)
{
	struct csim_error err;

	csim_error_clear(&err);
	if (csim_pass_diagnose(m, &err) != CSIM_OK)
		abort();
}

/* Every pass, the critical path included: evidence from the path where a
   core has one (diag_path.h). */
static inline void du_run_path(struct csim_model *m)
{
	if (mu_run(m) != 0)
		abort();
}

/*
 * Every pass, then the diagnosis again without the critical path: the
 * rules on their own figures, as for a core without a path. Most tests
 * pin those; test_path_ranking pins what the path changes.
 */
static inline void du_run(struct csim_model *m)
{
	du_run_path(m);
	csim_path_release(&m->path);
	du_rediagnose(m);
}

/* The line of `rule` (one at most), or NULL. */
static inline const struct csim_diag *du_line(const struct csim_model *m,
					      enum csim_diag_rule rule)
{
	for (size_t i = 0; i < m->diagnosis.n; i++)
		if (m->diagnosis.lines[i].rule == rule)
			return &m->diagnosis.lines[i];
	return NULL;
}

/* The entry of core `pid` in line d, or NULL when the line does not hold there. */
static inline const struct csim_diag_at *du_at(const struct csim_model *m,
					       const struct csim_diag *d, const char *pid)
{
	for (size_t k = 0; d != NULL && k < d->nat; k++) {
		const struct csim_diag_at *at = &m->diagnosis.at[d->at0 + k];

		if (strcmp(m->table.pid_names[m->summary.cores[at->core].pid], pid) == 0)
			return at;
	}
	return NULL;
}

/* The pid of the core line d's own numbers describe, or NULL: the whole run. */
static inline const char *du_core(const struct csim_model *m, const struct csim_diag *d)
{
	return d->core == CSIM_DIAG_ALL ? NULL
	       : m->table.pid_names[m->summary.cores[d->core].pid];
}

static inline void du_text(struct check_ctx *c, const struct csim_model *m,
			   const struct csim_diag *d, const char *want)
{
	char buf[CSIM_DIAG_TEXT_MAX];
	size_t n = csim_diag_text(m, d, buf, sizeof(buf));

	CHECK(c, n < CSIM_DIAG_TEXT_MAX);
	CHECK_U64(c, n, strlen(want));
	CHECK_STR(c, buf, want);
}

static inline int du_text_has(const struct csim_model *m, const struct csim_diag *d,
			      const char *part)
{
	char buf[CSIM_DIAG_TEXT_MAX];

	csim_diag_text(m, d, buf, sizeof(buf));
	return strstr(buf, part) != NULL;
}

/*
 * 32 zero-length FIXP instructions at t on core pid: the run holds enough
 * pipeline instructions for near_empty to stay silent, and no busy time,
 * wait or span changes (FIXP is neither an MTE nor a compute pipe).
 */
static inline void du_pad(struct csim_model *m, const char *pid, int64_t t)
{
	for (int i = 0; i < CSIM_DIAG_NEAR_EMPTY_INSTR; i++)
		mu_slice(m, pid, "FIXP", t, t, CSIM_SLICE_INSTR);
}

/* The summary entry of (pid, pipe); aborts when there is none. */
static inline struct csim_summary_pipe *du_pipe(struct csim_model *m, const char *pid,
						const char *pipe)
{
	for (size_t i = 0; i < m->summary.ncores; i++) {
		const struct csim_summary_core *k = &m->summary.cores[i];

		if (strcmp(m->table.pid_names[k->pid], pid) != 0)
			continue;
		for (size_t j = 0; j < k->npipes; j++)
			if (strcmp(mu_name(m, m->summary.pipes[k->pipe0 + j].pipe), pipe) == 0)
				return &m->summary.pipes[k->pipe0 + j];
	}
	abort();
}

/* API_INSTR figures of one pipe, as the summary pass leaves them. */
static inline void du_set_util(struct csim_model *m, const char *pid, const char *pipe,
			       double pct, uint64_t cycles)
{
	struct csim_summary_pipe *p = du_pipe(m, pid, pipe);

	p->has_instr = 1;
	p->instr_cycles += cycles;
	p->util_weighted = pct * (double)cycles;
	p->util_cycles = cycles;
}

#endif
