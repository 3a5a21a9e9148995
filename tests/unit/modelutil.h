/*
 * modelutil.h: builds a model by hand for the pass tests, without JSON:
 * slices and sync records go straight into the table, as the scanner would
 * have put them there. A hand-built row starts out kept if it is an
 * instruction (as the lane pass leaves one on a pipeline lane) and counted
 * in kept_slices, so a pass that requires CSIM_PART_KEPT can run without
 * the lane pass; mu_keep() changes that. mu_classify() completes the model
 * (CSIM_PART_PIPES) once every pipe name is in.
 */
#ifndef CSIM_TEST_MODELUTIL_H
#define CSIM_TEST_MODELUTIL_H

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "cli/cli.h"
#include "model/model.h"
#include "model/pass_flags.h"
#include "model/pass_pair.h"
#include "model/pass_intra.h"
#include "model/pass_lanes.h"
#include "model/pass_order.h"
#include "model/pass_pack.h"
#include "model/passes.h"

static inline uint32_t mu_pid(struct csim_model *m, const char *name)
{
	struct csim_table *t = &m->table;
	char raw[128];
	size_t before = t->pids.count;
	uint32_t id = 0;

	snprintf(raw, sizeof(raw), "\"%s\"", name);
	if (csim_strtab_intern(&t->pids, raw, strlen(raw), &id) != 0)
		abort();
	if (t->pids.count != before) {
		t->pid_names = realloc(t->pid_names, t->pids.count * sizeof(*t->pid_names));
		if (t->pid_names == NULL)
			abort();
		t->pid_names[id] = strdup(name);
	}
	return id;
}

static inline uint32_t mu_pipe(struct csim_model *m, const char *name)
{
	uint32_t id = 0;

	if (csim_strtab_intern(&m->table.pipes, name, strlen(name), &id) != 0)
		abort();
	return id;
}

/* Adds a slice [start, end) in ns; returns its index (= input order). */
static inline uint32_t mu_slice(struct csim_model *m, const char *pid,
				const char *pipe, int64_t start, int64_t end,
				enum csim_slice_kind kind)
{
	struct csim_table *t = &m->table;
	struct csim_slice *s;

	t->slices = realloc(t->slices, (t->nslices + 1) * sizeof(*t->slices));
	t->slice_instr = realloc(t->slice_instr, (t->nslices + 1) * sizeof(*t->slice_instr));
	if (t->slices == NULL || t->slice_instr == NULL)
		abort();
	t->slice_instr[t->nslices] = CSIM_NONE;   /* no identity: mu_instr() gives one */
	s = &t->slices[t->nslices];
	memset(s, 0, sizeof(*s));
	s->start = start;
	s->end = end;
	s->a = (double)start;   /* whole ns: as if ts and dur were exact */
	s->b = (double)end;
	s->pid = mu_pid(m, pid);
	s->pipe = mu_pipe(m, pipe);
	s->kind = (uint8_t)kind;
	s->kept = kind == CSIM_SLICE_INSTR;
	s->run = (uint16_t)m->table.run;
	m->kept_slices += s->kept;
	t->slices_cap = t->slice_instr_cap = t->nslices + 1;
	return (uint32_t)t->nslices++;
}

/* The slice added last is the instruction `name` at pc (has_pc 0: none). */
static inline void mu_instr(struct csim_model *m, int has_pc, uint64_t pc, const char *name)
{
	char json[128], pc_json[32];
	struct csim_instr_key k;
	struct csim_error err;
	int n = snprintf(json, sizeof(json), "\"%s\"", name);
	int np = snprintf(pc_json, sizeof(pc_json), "\"0x%llx\"", (unsigned long long)pc);

	k.pc_json = has_pc ? csim_span_of(pc_json, (size_t)np) : csim_span_of(NULL, 0);
	k.name_json = csim_span_of(json, (size_t)n);
	if (n <= 0 || (size_t)n >= sizeof(json) || csim_table_set_instr(&m->table, &k, &err) != 0)
		abort();
}
/*
 * Adds a slice at ts, dur (µs) as the reading side does: grid start and end
 * rounded separately, float ns a and b as SPEC §4 writes them.
 */
static inline uint32_t mu_slice_us(struct csim_model *m, const char *pid,
				   const char *pipe, double ts, double dur,
				   enum csim_slice_kind kind)
{
	int64_t start = llround(ts * 1000.0);
	uint32_t i = mu_slice(m, pid, pipe, start, start + llround(dur * 1000.0), kind);

	m->table.slices[i].a = ts * 1000.0;
	m->table.slices[i].b = (ts + dur) * 1000.0;
	return i;
}

/* Says that slice moved `bytes` (its args.process_bytes). */
static inline void mu_bytes(struct csim_model *m, uint32_t slice, uint64_t bytes)
{
	struct csim_table *t = &m->table;

	t->bytes = realloc(t->bytes, (t->nbytes + 1) * sizeof(*t->bytes));
	if (t->bytes == NULL)
		abort();
	t->bytes[t->nbytes++] = (struct csim_slice_bytes){ slice, bytes };
	t->bytes_cap = t->nbytes;
}

/* Marks a hand-built row kept or dropped, keeping kept_slices in step. */
static inline void mu_keep(struct csim_model *m, uint32_t slice, int kept)
{
	struct csim_slice *s = &m->table.slices[slice];

	m->kept_slices -= s->kept;
	s->kept = kept != 0;
	m->kept_slices += s->kept;
}

/* Appends a lane by hand, as the packing pass would (CSIM_PART_LANES), its
   depth as deep as its sub-lanes (none there for rounding only). */
static inline void mu_lane(struct csim_model *m, const char *pid,
			   const char *pipe, uint32_t nsub)
{
	m->lanes = realloc(m->lanes, (m->nlanes + 1) * sizeof(*m->lanes));
	if (m->lanes == NULL)
		abort();
	m->lanes[m->nlanes++] = (struct csim_lane){ mu_pid(m, pid), mu_pipe(m, pipe), nsub, nsub };
}

static inline uint32_t mu_detail(struct csim_model *m, const char *producer,
				 const char *consumer, uint64_t flag_id)
{
	struct csim_table *t = &m->table;
	struct csim_sync_detail *d;

	t->details = realloc(t->details, (t->ndetails + 1) * sizeof(*t->details));
	if (t->details == NULL)
		abort();
	d = &t->details[t->ndetails];
	d->producer = producer != NULL ? mu_pipe(m, producer) : CSIM_NONE;
	d->consumer = consumer != NULL ? mu_pipe(m, consumer) : CSIM_NONE;
	d->flag_id = flag_id;
	d->has_flag_id = 1;
	t->details_cap = t->ndetails + 1;
	return (uint32_t)t->ndetails++;
}

/* A sync record's event name, interned as the table does. */
static inline uint8_t mu_sync_name(struct csim_model *m, const char *name)
{
	uint32_t k;

	if (csim_strtab_intern(&m->table.sync_names, name, strlen(name), &k) != 0 || k > 255)
		abort();
	return (uint8_t)k;
}

/* One B or E record; id NULL for none, detail CSIM_NONE for none. */
static inline void mu_sync(struct csim_model *m, enum csim_sync_kind kind,
			   int is_begin, const char *pid, const char *pipe,
			   int64_t ts, const char *id, uint32_t detail)
{
	struct csim_table *t = &m->table;
	struct csim_sync_rec *r;

	t->syncs = realloc(t->syncs, (t->nsyncs + 1) * sizeof(*t->syncs));
	if (t->syncs == NULL)
		abort();
	r = &t->syncs[t->nsyncs];
	memset(r, 0, sizeof(*r));
	r->kind = (uint8_t)kind;
	r->is_begin = (uint8_t)is_begin;
	r->pid = mu_pid(m, pid);
	r->pipe = mu_pipe(m, pipe);
	r->a = (double)ts;
	r->name = mu_sync_name(m, kind == CSIM_SYNC_SET ? "SET_FLAG" : "WAIT_FLAG");
	r->id = CSIM_NONE;
	if (id != NULL && csim_strtab_intern(&t->ids, id, strlen(id), &r->id) != 0)
		abort();
	r->detail = detail;
	r->run = (uint16_t)t->run;
	t->syncs_cap = t->nsyncs + 1;
	t->nsyncs++;
}

/* A whole flag: B then E. */
static inline void mu_flag(struct csim_model *m, enum csim_sync_kind kind,
			   const char *pid, const char *pipe, int64_t begin,
			   int64_t end, const char *id, uint32_t detail)
{
	mu_sync(m, kind, 1, pid, pipe, begin, id, detail);
	mu_sync(m, kind, 0, pid, pipe, end, id, CSIM_NONE);
}

/* One B or E record of a cross-core sync (SET/WAIT_INTRA_BLOCK). */
static inline void mu_intra_rec(struct csim_model *m, enum csim_sync_kind kind,
				int is_begin, const char *pid, const char *pipe,
				int64_t ts, const char *id, uint32_t detail)
{
	struct csim_sync_rec *r;

	mu_sync(m, kind, is_begin, pid, pipe, ts, id, detail);
	r = &m->table.syncs[m->table.nsyncs - 1];
	r->intra = 1;
	r->name = mu_sync_name(m, kind == CSIM_SYNC_SET ? "SET_INTRA_BLOCK" : "WAIT_INTRA_BLOCK");
}

/* A whole cross-core record: B then E. */
static inline void mu_intra(struct csim_model *m, enum csim_sync_kind kind,
			    const char *pid, const char *pipe, int64_t begin,
			    int64_t end, const char *id, uint32_t detail)
{
	mu_intra_rec(m, kind, 1, pid, pipe, begin, id, detail);
	mu_intra_rec(m, kind, 0, pid, pipe, end, id, CSIM_NONE);
}

/* Appends a paired flag by hand, as the pair pass would (CSIM_PART_FLAGS). */
static inline void mu_paired_flag(struct csim_model *m, enum csim_sync_kind kind,
				  const char *pid, const char *pipe, int64_t begin,
				  int64_t end, const char *id, uint32_t detail)
{
	struct csim_flag *f;

	m->flags = realloc(m->flags, (m->nflags + 1) * sizeof(*m->flags));
	if (m->flags == NULL)
		abort();
	f = &m->flags[m->nflags];
	memset(f, 0, sizeof(*f));
	f->begin_a = (double)begin;
	f->end = end;
	f->order = (uint32_t)m->nflags;
	f->pid = mu_pid(m, pid);
	f->pipe = mu_pipe(m, pipe);
	f->id = CSIM_NONE;
	if (id != NULL && csim_strtab_intern(&m->table.ids, id, strlen(id), &f->id) != 0)
		abort();
	f->detail = detail;
	f->kind = (uint8_t)kind;
	m->nflags++;
}

/* Classifies the pipes interned so far; call it after the last mu_* row. */
static inline void mu_classify(struct csim_model *m)
{
	struct csim_error err;

	csim_error_clear(&err);
	if (csim_model_classify_pipes(m, &err) != CSIM_OK)
		abort();
}

/* Classifies the pipes, then runs every pass of the converter's plan. */
static inline int mu_run(struct csim_model *m)
{
	struct csim_error err;

	csim_error_clear(&err);
	mu_classify(m);
	for (size_t i = 0; i < csim_pass_plan_len; i++)
		if (csim_pass_plan[i]->run(m, &err) != CSIM_OK)
			return -1;
	return 0;
}

static inline const char *mu_name(const struct csim_model *m, uint32_t pipe)
{
	return csim_strtab_get(&m->table.pipes, pipe, NULL);
}

#endif
