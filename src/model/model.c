#include "model/model.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

void csim_model_init(struct csim_model *m)
{
	memset(m, 0, sizeof(*m));
	csim_table_init(&m->table);
	csim_instr_stats_init(&m->instr);
	csim_run_info_init(&m->run);
}

void csim_model_release(struct csim_model *m)
{
	csim_table_release(&m->table);
	free(m->pipes);
	free(m->flags);
	free(m->waits);
	free(m->lanes);
	free(m->arrows);
	free(m->intra_arrows);
	free(m->deps);
	free(m->intra_deps);
	free(m->intra_sets);
	free(m->unreleased);
	free(m->intra_unreleased);
	free(m->processes);
	free(m->threads);
	csim_summary_release(&m->summary);
	csim_path_release(&m->path);
	csim_exact_tracks_release(&m->tracks);
	csim_diagnosis_release(&m->diagnosis);
	csim_cut_release(&m->cut);
	csim_instr_stats_release(&m->instr);
	csim_run_info_release(&m->run);
	memset(m, 0, sizeof(*m));
}

int csim_model_classify_pipes(struct csim_model *m, struct csim_error *err)
{
	const struct csim_strtab *names = &m->table.pipes;

	free(m->pipes);
	m->npipes = 0;
	m->pipes = malloc((names->count ? names->count : 1) * sizeof(*m->pipes));
	if (m->pipes == NULL)
		return csim_error_nomem(err, CSIM_E_INPUT);
	for (uint32_t id = 0; id < names->count; id++) {
		size_t len;
		const char *name = csim_strtab_get(names, id, &len);
		const struct csim_pipe_info *info = csim_pipe_lookup(name, len);

		/* One id past every pipe stands for the whole vector family. */
		m->pipes[id] = (struct csim_model_pipe){
			info, csim_lane_rule_pipe_drop(&m->rule, info->cls),
			info->vector_family ? (uint32_t)names->count : id
		};
	}
	m->npipes = names->count;
	return CSIM_OK;
}

void csim_model_drop(struct csim_model *m, unsigned parts)
{
	struct csim_table *t = &m->table;

	if (parts & CSIM_PART_SYNCS) {
		free(t->syncs);
		t->syncs = NULL;
		t->nsyncs = t->syncs_cap = 0;
	}
	if (parts & CSIM_PART_FLAGS) {
		free(m->flags);
		m->flags = NULL;
		m->nflags = 0;
	}
	if (parts & CSIM_PART_DEPS) {
		free(m->deps);
		m->deps = NULL;
		m->ndeps = 0;
	}
	if (parts & CSIM_PART_WAITS) {
		free(m->waits);
		m->waits = NULL;
		m->nwaits = m->waits_cap = 0;
	}
}

void csim_unreleased_add(struct csim_unreleased *per_pid, const struct csim_flag *f)
{
	struct csim_unreleased *u = &per_pid[f->pid];

	if (u->n++ == 0 || f->end > u->last_end)
		u->last_end = f->end;
}

const char *const csim_flag_skip_texts[CSIM_FSKIP_COUNT] = {
	"begin or end record missing",
	"no matching WAIT",
	"no matching SET",
	"no id and no detail to match by",
	"producer lane dropped",
	"consumer lane dropped",
	"no producer slice at or before the SET",
	"no consumer slice at or after the WAIT",
	"consumer slice starts before the producer slice",
};

size_t csim_model_find_lane(const struct csim_model *m, uint32_t pid, uint32_t pipe)
{
	size_t lo = 0, hi = m->nlanes;

	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;
		const struct csim_lane *l = &m->lanes[mid];

		if (l->pid < pid || (l->pid == pid && l->pipe < pipe))
			lo = mid + 1;
		else
			hi = mid;
	}
	if (lo < m->nlanes && m->lanes[lo].pid == pid && m->lanes[lo].pipe == pipe)
		return lo;
	return m->nlanes;
}

int csim_model_label_run(struct csim_model *m, uint64_t run, struct csim_error *err)
{
	struct csim_table *t = &m->table;
	char **names = calloc(t->pids.count ? t->pids.count : 1, sizeof(*names));
	int rc = CSIM_OK;

	for (size_t i = 0; names != NULL && i < t->pids.count && rc == CSIM_OK; i++) {
		size_t n = strlen(t->pid_names[i]) + sizeof(" run ") + 20;

		names[i] = malloc(n);
		if (names[i] == NULL)
			rc = -1;
		else
			snprintf(names[i], n, "%s run %llu", t->pid_names[i],
				 (unsigned long long)run);
	}
	if (names == NULL || rc != CSIM_OK) {
		for (size_t i = 0; names != NULL && i < t->pids.count; i++)
			free(names[i]);
		free(names);
		return csim_error_nomem(err, CSIM_E_INPUT);
	}
	for (size_t i = 0; i < t->pids.count; i++) {
		free(t->pid_names[i]);
		t->pid_names[i] = names[i];
	}
	free(names);
	m->run_label = run;
	return CSIM_OK;
}
