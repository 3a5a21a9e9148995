/*
 * Pass contracts (docs/design.md): the converter's plan meets every pass's
 * requirements; each pass runs alone on a hand-built model that holds only
 * the parts it requires; and running a pass again gives the same result.
 */
#include "check.h"
#include "modelutil.h"

#include "model/summary_waits.h"

#define P "core0.veccore0"

/* Everything the passes derive, copied out of a model to compare later. */
struct snap {
	uint8_t *kept;
	uint32_t *sublane;
	size_t nslices;
	uint64_t kept_slices, slice_drops[CSIM_SDROP_COUNT], extra_sublanes;
	struct csim_lane *lanes;
	size_t nlanes;
	struct csim_flag *flags;
	size_t nflags;
	struct csim_arrow *arrows;
	size_t narrows;
	uint64_t flag_skips[CSIM_FSKIP_COUNT];
	struct csim_arrow *intra_arrows;
	size_t nintra_arrows;
	uint64_t intra_skips[CSIM_FSKIP_COUNT];
	struct csim_unreleased *unreleased, *intra_unreleased;   /* per pid, or NULL */
	size_t npids;
	uint32_t *processes;
	size_t nprocesses;
	struct csim_thread *threads;
	size_t nthreads;
	struct csim_dep *deps;
	size_t ndeps;
	struct csim_interval *waits;
	size_t nwaits;
	struct csim_path path;   /* its arrays copied */
};

static void *dup_array(const void *p, size_t n, size_t size)
{
	void *d = malloc(n * size + 1);

	if (d == NULL)
		abort();
	if (n > 0)
		memcpy(d, p, n * size);
	return d;
}

static void snap_take(struct snap *s, const struct csim_model *m)
{
	const struct csim_table *t = &m->table;

	s->nslices = t->nslices;
	s->kept = malloc(t->nslices + 1);
	s->sublane = malloc((t->nslices + 1) * sizeof(*s->sublane));
	if (s->kept == NULL || s->sublane == NULL)
		abort();
	for (size_t i = 0; i < t->nslices; i++) {
		s->kept[i] = t->slices[i].kept;
		s->sublane[i] = t->slices[i].sublane;
	}
	s->waits = dup_array(m->waits, s->nwaits = m->nwaits, sizeof(*m->waits));
	s->kept_slices = m->kept_slices;
	memcpy(s->slice_drops, m->slice_drops, sizeof(s->slice_drops));
	s->extra_sublanes = m->extra_sublanes;
	s->lanes = dup_array(m->lanes, s->nlanes = m->nlanes, sizeof(*m->lanes));
	s->flags = dup_array(m->flags, s->nflags = m->nflags, sizeof(*m->flags));
	s->arrows = dup_array(m->arrows, s->narrows = m->narrows, sizeof(*m->arrows));
	memcpy(s->flag_skips, m->flag_skips, sizeof(s->flag_skips));
	s->intra_arrows = dup_array(m->intra_arrows, s->nintra_arrows = m->nintra_arrows,
				    sizeof(*m->intra_arrows));
	memcpy(s->intra_skips, m->intra_skips, sizeof(s->intra_skips));
	s->npids = t->pids.count;
	s->unreleased = m->unreleased == NULL ? NULL
			: dup_array(m->unreleased, s->npids, sizeof(*m->unreleased));
	s->intra_unreleased = m->intra_unreleased == NULL ? NULL
			      : dup_array(m->intra_unreleased, s->npids,
					  sizeof(*m->intra_unreleased));
	s->processes = dup_array(m->processes, s->nprocesses = m->nprocesses,
				 sizeof(*m->processes));
	s->threads = dup_array(m->threads, s->nthreads = m->nthreads, sizeof(*m->threads));
	s->deps = dup_array(m->deps, s->ndeps = m->ndeps, sizeof(*m->deps));
	s->path = m->path;
	s->path.cores = dup_array(m->path.cores, m->path.ncores, sizeof(*m->path.cores));
	s->path.segs = dup_array(m->path.segs, m->path.nsegs, sizeof(*m->path.segs));
	s->path.busy = dup_array(m->path.busy, m->path.nbusy, sizeof(*m->path.busy));
	s->path.waits = dup_array(m->path.waits, m->path.nwaits, sizeof(*m->path.waits));
	s->path.top = dup_array(m->path.top, m->path.ntop, sizeof(*m->path.top));
	s->path.what_if = dup_array(m->path.what_if, m->path.nwhat_if, sizeof(*m->path.what_if));
}

static void snap_release(struct snap *s)
{
	free(s->kept);
	free(s->sublane);
	free(s->lanes);
	free(s->flags);
	free(s->arrows);
	free(s->intra_arrows);
	free(s->unreleased);
	free(s->intra_unreleased);
	free(s->processes);
	free(s->threads);
	free(s->deps);
	free(s->waits);
	csim_path_release(&s->path);
}

/* Field by field: the structs have padding that no pass writes. */
static int same_flag(const struct csim_flag *a, const struct csim_flag *b)
{
	return a->begin_a == b->begin_a && a->end == b->end && a->order == b->order &&
	       a->pid == b->pid && a->pipe == b->pipe && a->id == b->id &&
	       a->detail == b->detail && a->kind == b->kind && a->intra == b->intra;
}

/* Per-pid unreleased WAIT counts, both absent or equal. */
static int same_unreleased(const struct csim_unreleased *a,
			   const struct csim_unreleased *b, size_t npids)
{
	if (a == NULL || b == NULL)
		return a == b;
	for (size_t i = 0; i < npids; i++)
		if (a[i].n != b[i].n || (a[i].n > 0 && a[i].last_end != b[i].last_end))
			return 0;
	return 1;
}

static int same_arrow(const struct csim_arrow *a, const struct csim_arrow *b)
{
	return a->producer == b->producer && a->consumer == b->consumer &&
	       a->s_half_ns == b->s_half_ns && a->f_half_ns == b->f_half_ns &&
	       a->producer_pipe == b->producer_pipe &&
	       a->consumer_pipe == b->consumer_pipe && a->flag_id == b->flag_id &&
	       a->has_flag_id == b->has_flag_id && a->set_begin == b->set_begin &&
	       a->set_order == b->set_order;
}

static int same_dep(const struct csim_dep *a, const struct csim_dep *b)
{
	return a->producer == b->producer && a->consumer == b->consumer &&
	       a->release == b->release && a->producer_pipe == b->producer_pipe &&
	       a->consumer_pipe == b->consumer_pipe && a->running == b->running &&
	       a->blocked == b->blocked && a->wait_ns == b->wait_ns;
}

/* Two paths alike, field by field (the structs have padding). */
static int same_path(const struct csim_path *a, const struct csim_path *b)
{
	int same = a->ncores == b->ncores && a->nsegs == b->nsegs && a->nbusy == b->nbusy &&
		   a->nwaits == b->nwaits && a->ntop == b->ntop && a->nwhat_if == b->nwhat_if;

	for (size_t i = 0; same && i < a->ncores; i++) {
		const struct csim_path_core *x = &a->cores[i], *y = &b->cores[i];

		same = x->first_ns == y->first_ns && x->span_ns == y->span_ns &&
		       x->seg0 == y->seg0 && x->nseg == y->nseg && x->busy0 == y->busy0 &&
		       x->nbusy == y->nbusy && x->wait0 == y->wait0 && x->nwait == y->nwait &&
		       x->cross_ns == y->cross_ns && x->issue_ns == y->issue_ns &&
		       x->top0 == y->top0 && x->ntop == y->ntop &&
		       x->what_if0 == y->what_if0 && x->nwhat_if == y->nwhat_if;
	}
	for (size_t i = 0; same && i < a->nsegs; i++) {
		const struct csim_path_seg *x = &a->segs[i], *y = &b->segs[i];

		same = x->start == y->start && x->end == y->end && x->slice == y->slice &&
		       x->producer == y->producer && x->pipe == y->pipe &&
		       x->producer_pipe == y->producer_pipe && x->kind == y->kind;
	}
	for (size_t i = 0; same && i < a->nbusy; i++)
		same = a->busy[i].pipe == b->busy[i].pipe && a->busy[i].ns == b->busy[i].ns;
	for (size_t i = 0; same && i < a->nwaits; i++)
		same = a->waits[i].producer == b->waits[i].producer &&
		       a->waits[i].consumer == b->waits[i].consumer &&
		       a->waits[i].ns == b->waits[i].ns;
	for (size_t i = 0; same && i < a->ntop; i++)
		same = a->top[i].instr == b->top[i].instr && a->top[i].ns == b->top[i].ns;
	for (size_t i = 0; same && i < a->nwhat_if; i++)
		same = a->what_if[i].pipe == b->what_if[i].pipe &&
		       a->what_if[i].span_ns == b->what_if[i].span_ns;
	return same;
}

static int same_lane(const struct csim_lane *a, const struct csim_lane *b)
{
	return a->pid == b->pid && a->pipe == b->pipe && a->nsub == b->nsub &&
	       a->depth == b->depth;
}

static int same_thread(const struct csim_thread *a, const struct csim_thread *b)
{
	return a->lane == b->lane && a->sub == b->sub && a->sort_index == b->sort_index;
}

/* Checks that the model holds exactly what the snapshot took. */
static void check_same(struct check_ctx *c, const struct snap *s,
		       const struct csim_model *m)
{
	const struct csim_table *t = &m->table;
	int rows = 1, lanes = 1, flags = 1, arrows = 1, order = 1;

	if (!CHECK_U64(c, t->nslices, s->nslices) || !CHECK_U64(c, m->nlanes, s->nlanes) ||
	    !CHECK_U64(c, m->nflags, s->nflags) || !CHECK_U64(c, m->narrows, s->narrows) ||
	    !CHECK_U64(c, m->nintra_arrows, s->nintra_arrows) ||
	    !CHECK_U64(c, m->nprocesses, s->nprocesses) ||
	    !CHECK_U64(c, m->nthreads, s->nthreads))
		return;
	for (size_t i = 0; i < s->nslices; i++)
		rows &= t->slices[i].kept == s->kept[i] && t->slices[i].sublane == s->sublane[i];
	for (size_t i = 0; i < s->nlanes; i++)
		lanes &= same_lane(&m->lanes[i], &s->lanes[i]);
	for (size_t i = 0; i < s->nflags; i++)
		flags &= same_flag(&m->flags[i], &s->flags[i]);
	for (size_t i = 0; i < s->narrows; i++)
		arrows &= same_arrow(&m->arrows[i], &s->arrows[i]);
	for (size_t i = 0; i < s->nintra_arrows; i++)
		arrows &= same_arrow(&m->intra_arrows[i], &s->intra_arrows[i]);
	for (size_t i = 0; i < s->nprocesses; i++)
		order &= m->processes[i] == s->processes[i];
	for (size_t i = 0; i < s->nthreads; i++)
		order &= same_thread(&m->threads[i], &s->threads[i]);
	CHECK(c, rows);
	CHECK_U64(c, m->kept_slices, s->kept_slices);
	CHECK(c, memcmp(m->slice_drops, s->slice_drops, sizeof(s->slice_drops)) == 0);
	CHECK_U64(c, m->extra_sublanes, s->extra_sublanes);
	CHECK(c, lanes);
	CHECK(c, flags);
	CHECK(c, arrows);
	CHECK(c, memcmp(m->flag_skips, s->flag_skips, sizeof(s->flag_skips)) == 0);
	CHECK(c, memcmp(m->intra_skips, s->intra_skips, sizeof(s->intra_skips)) == 0);
	CHECK(c, same_unreleased(m->unreleased, s->unreleased, s->npids));
	CHECK(c, same_unreleased(m->intra_unreleased, s->intra_unreleased, s->npids));
	CHECK(c, order);
	if (CHECK_U64(c, m->ndeps, s->ndeps)) {
		int deps = 1;

		for (size_t i = 0; i < s->ndeps; i++)
			deps &= same_dep(&m->deps[i], &s->deps[i]);
		CHECK(c, deps);
	}
	if (CHECK_U64(c, m->nwaits, s->nwaits))   /* interval items have no padding */
		CHECK(c, s->nwaits == 0 ||
			 memcmp(m->waits, s->waits, s->nwaits * sizeof(*s->waits)) == 0);
	CHECK(c, same_path(&m->path, &s->path));
}

static int run_pass(struct csim_model *m, const struct csim_pass_def *def)
{
	struct csim_error err;

	csim_error_clear(&err);
	return def->run(m, &err);
}

/* Runs a pass, then again: the second run must change nothing. */
static int run_twice(struct check_ctx *c, struct csim_model *m,
		     const struct csim_pass_def *def)
{
	struct snap s;

	if (!CHECK_U64(c, run_pass(m, def), CSIM_OK))
		return 0;
	snap_take(&s, m);
	CHECK_U64(c, run_pass(m, def), CSIM_OK);
	check_same(c, &s, m);
	snap_release(&s);
	return 1;
}

static void test_plan_meets_every_contract(struct check_ctx *c)
{
	const unsigned written = CSIM_PART_KEPT | CSIM_PART_LANES | CSIM_PART_ARROWS |
				 CSIM_PART_INTRA | CSIM_PART_ORDER;
	unsigned provided = 0;

	CHECK_U64(c, csim_pass_plan_check(csim_pass_plan, csim_pass_plan_len,
					  CSIM_PART_SYNCS | CSIM_PART_PIPES),
		  csim_pass_plan_len);
	for (size_t i = 0; i < csim_pass_plan_len; i++)
		provided |= csim_pass_plan[i]->provides;
	/* Everything the trace writer reads comes out of the plan. */
	CHECK_U64(c, provided & written, written);
	CHECK(c, csim_pass_lanes_def.run == csim_pass_lanes);
	CHECK(c, csim_pass_pack_def.run == csim_pass_pack);
	CHECK(c, csim_pass_pair_def.run == csim_pass_pair);
	CHECK(c, csim_pass_flags_def.run == csim_pass_flags);
	CHECK(c, csim_pass_intra_def.run == csim_pass_intra);
	CHECK(c, csim_pass_order_def.run == csim_pass_order);
}

static void test_plan_check_finds_a_missing_part(struct check_ctx *c)
{
	static const struct csim_pass_def *const pack_first[] = {
		&csim_pass_pack_def, &csim_pass_lanes_def,
	};
	static const struct csim_pass_def *const no_pair[] = {
		&csim_pass_lanes_def, &csim_pass_pack_def, &csim_pass_flags_def,
		&csim_pass_order_def,
	};
	static const struct csim_pass_def *const order_early[] = {
		&csim_pass_lanes_def, &csim_pass_order_def, &csim_pass_pack_def,
	};
	static const struct csim_pass_def *const intra_early[] = {
		&csim_pass_lanes_def, &csim_pass_intra_def, &csim_pass_pair_def,
	};
	size_t at;

	CHECK_U64(c, csim_pass_plan_check(pack_first, 2, CSIM_PART_PIPES), 0);
	CHECK_U64(c, csim_pass_plan_check(intra_early, 3, CSIM_PART_SYNCS | CSIM_PART_PIPES), 1);
	CHECK_U64(c, csim_pass_plan_check(no_pair, 4, CSIM_PART_SYNCS | CSIM_PART_PIPES), 2);
	CHECK_U64(c, csim_pass_plan_check(order_early, 3, CSIM_PART_PIPES), 1);
	/* Pipes not classified: the first pass that reads their classes stops. */
	at = csim_pass_plan_check(csim_pass_plan, csim_pass_plan_len, CSIM_PART_SYNCS);
	if (CHECK(c, at < csim_pass_plan_len))
		CHECK(c, csim_pass_plan[at]->requires & CSIM_PART_PIPES);
}

static void test_lanes_alone(struct check_ctx *c)
{
	struct csim_model m;
	uint32_t instr, scalar, bar, cache, noise;

	csim_model_init(&m);
	instr = mu_slice(&m, P, "MTE2", 0, 10, CSIM_SLICE_INSTR);
	scalar = mu_slice(&m, P, "SCALAR", 0, 10, CSIM_SLICE_INSTR);
	bar = mu_slice(&m, P, "MTE2", 0, 10, CSIM_SLICE_BAR);
	cache = mu_slice(&m, P, "SCALAR", 0, 10, CSIM_SLICE_CACHE_CCU);
	noise = mu_slice(&m, P, "CACHEMISS", 0, 10, CSIM_SLICE_INSTR);
	mu_classify(&m);
	if (run_twice(c, &m, &csim_pass_lanes_def)) {
		CHECK(c, m.table.slices[instr].kept);
		CHECK(c, !m.table.slices[scalar].kept);
		CHECK(c, !m.table.slices[bar].kept);
		CHECK(c, !m.table.slices[cache].kept);
		CHECK(c, !m.table.slices[noise].kept);
		CHECK_U64(c, m.kept_slices, 1);
		CHECK_U64(c, m.slice_drops[CSIM_SDROP_SCALAR_LANE], 1);
		CHECK_U64(c, m.slice_drops[CSIM_SDROP_CACHE_CCU], 1);
	}
	csim_model_release(&m);
}

static void test_pack_alone(struct check_ctx *c)
{
	struct csim_model m;
	uint32_t a, b, later;

	csim_model_init(&m);
	/* Kept rows by hand; no lane pass and no pipe classes. */
	a = mu_slice(&m, P, "MTE2", 0, 10, CSIM_SLICE_INSTR);
	b = mu_slice(&m, P, "MTE2", 5, 15, CSIM_SLICE_INSTR);
	later = mu_slice(&m, P, "MTE2", 12, 20, CSIM_SLICE_INSTR);
	mu_slice(&m, P, "VECTOR", 0, 10, CSIM_SLICE_INSTR);
	mu_keep(&m, mu_slice(&m, P, "VECTOR", 1, 9, CSIM_SLICE_INSTR), 0);
	if (run_twice(c, &m, &csim_pass_pack_def)) {
		CHECK_U64(c, m.table.slices[a].sublane, 0);
		CHECK_U64(c, m.table.slices[b].sublane, 1);
		CHECK_U64(c, m.table.slices[later].sublane, 0);
		if (CHECK_U64(c, m.nlanes, 2)) {
			CHECK_U64(c, m.lanes[0].nsub, 2);
			CHECK_U64(c, m.lanes[1].nsub, 1);   /* the dropped row takes none */
		}
		CHECK_U64(c, m.extra_sublanes, 1);
	}
	csim_model_release(&m);
}

static void test_pair_alone_keeps_the_records(struct check_ctx *c)
{
	struct csim_model m;
	struct csim_sync_rec *before;
	const struct csim_sync_rec *recs;
	size_t nrec;

	csim_model_init(&m);
	mu_flag(&m, CSIM_SYNC_SET, P, "MTE2", 10, 11, "a", CSIM_NONE);
	mu_flag(&m, CSIM_SYNC_WAIT, P, "VECTOR", 5, 20, "a", CSIM_NONE);
	mu_flag(&m, CSIM_SYNC_SET, P, "MTE2", 30, 31, NULL, CSIM_NONE);
	mu_sync(&m, CSIM_SYNC_WAIT, 1, P, "VECTOR", 40, NULL, CSIM_NONE);  /* no E */
	nrec = m.table.nsyncs;
	recs = m.table.syncs;
	before = dup_array(m.table.syncs, nrec, sizeof(*before));
	/* Pairing needs no slices, lanes or pipe classes. */
	if (run_twice(c, &m, &csim_pass_pair_def)) {
		if (CHECK_U64(c, m.nflags, 3)) {
			CHECK_I64(c, csim_flag_begin(&m.flags[0]), 10);
			CHECK_I64(c, m.flags[1].end, 20);
			CHECK_U64(c, m.flags[2].id, CSIM_NONE);
		}
		CHECK_U64(c, m.flag_skips[CSIM_FSKIP_INCOMPLETE], 1);
	}
	/* The table's sync records are still there, unchanged. */
	CHECK(c, m.table.syncs == recs);
	if (CHECK_U64(c, m.table.nsyncs, nrec))
		CHECK(c, memcmp(m.table.syncs, before, nrec * sizeof(*before)) == 0);
	free(before);
	csim_model_release(&m);
}

/*
 * The waits pass alone, on paired flags by hand: an item per WAIT, on its
 * pipe, by its producer (none without a detail); one per cross-core wait
 * (a WAIT_INTRA_BLOCK slice); none for a SET; grouped by (pid, pipe), the
 * cross-core pseudo-pipe last.
 */
static void test_waits_alone(struct check_ctx *c)
{
	struct csim_model m;
	uint32_t mte2, vec;

	csim_model_init(&m);
	mu_slice(&m, P, "WAIT_INTRA_BLOCK", 400, 450, CSIM_SLICE_INTRA_WAIT);
	mu_paired_flag(&m, CSIM_SYNC_WAIT, P, "VECTOR", 150, 190, "a",
		       mu_detail(&m, "MTE2", "VECTOR", 3));
	mu_paired_flag(&m, CSIM_SYNC_SET, P, "MTE2", 50, 51, "a", CSIM_NONE);
	mu_paired_flag(&m, CSIM_SYNC_WAIT, P, "MTE3", 300, 290, "b", CSIM_NONE);
	mte2 = mu_pipe(&m, "MTE2");
	vec = mu_pipe(&m, "VECTOR");
	if (run_twice(c, &m, &csim_pass_waits_def) && CHECK_U64(c, m.nwaits, 3)) {
		uint32_t mte3 = mu_pipe(&m, "MTE3");
		const struct csim_interval *v = &m.waits[vec < mte3 ? 0 : 1];
		const struct csim_interval *x = &m.waits[vec < mte3 ? 1 : 0];

		CHECK_U64(c, csim_item_what(v), CSIM_ITEM_WAIT_BY);
		CHECK_I64(c, v->start, 150);
		CHECK_I64(c, v->end, 190);
		CHECK_U64(c, (uint32_t)v->sub, mte2 + 1);
		/* an E before its B blocked for no time; no detail: no producer */
		CHECK_I64(c, x->end, x->start);
		CHECK_U64(c, (uint32_t)x->sub, 0);
		CHECK_U64(c, csim_item_what(&m.waits[2]), CSIM_ITEM_CROSS);
		CHECK_U64(c, csim_interval_pipe(&m.waits[2]), CSIM_ITEM_CROSS_PIPE);
		CHECK_I64(c, m.waits[2].end - m.waits[2].start, 50);
	}
	csim_model_release(&m);
}

static void test_flags_alone(struct check_ctx *c)
{
	struct csim_model m;
	uint32_t prod, cons;

	csim_model_init(&m);
	/* Kept rows and paired flags by hand: no sync records, no lane, pack
	   or pair pass. */
	prod = mu_slice(&m, P, "MTE2", 0, 100, CSIM_SLICE_INSTR);
	cons = mu_slice(&m, P, "VECTOR", 200, 210, CSIM_SLICE_INSTR);
	mu_slice(&m, P, "SCALAR", 300, 310, CSIM_SLICE_INSTR);
	mu_paired_flag(&m, CSIM_SYNC_SET, P, "MTE2", 50, 51, "a",
		       mu_detail(&m, "MTE2", "VECTOR", 3));
	mu_paired_flag(&m, CSIM_SYNC_WAIT, P, "VECTOR", 150, 190, "a", CSIM_NONE);
	/* To a pipe the classes drop (SCALAR without --keep-scalar). */
	mu_paired_flag(&m, CSIM_SYNC_SET, P, "MTE2", 60, 61, "b",
		       mu_detail(&m, "MTE2", "SCALAR", 4));
	mu_paired_flag(&m, CSIM_SYNC_WAIT, P, "SCALAR", 250, 290, "b", CSIM_NONE);
	mu_paired_flag(&m, CSIM_SYNC_SET, P, "MTE2", 70, 71, NULL, CSIM_NONE);
	m.flag_skips[CSIM_FSKIP_INCOMPLETE] = 7;   /* the pair pass's count */
	mu_classify(&m);
	if (run_twice(c, &m, &csim_pass_flags_def)) {
		if (CHECK_U64(c, m.narrows, 1)) {
			CHECK_U64(c, m.arrows[0].producer, prod);
			CHECK_U64(c, m.arrows[0].consumer, cons);
			CHECK_U64(c, m.arrows[0].flag_id, 3);
		}
		CHECK_U64(c, m.flag_skips[CSIM_FSKIP_CONSUMER_DROPPED], 1);
		CHECK_U64(c, m.flag_skips[CSIM_FSKIP_NO_KEY], 1);
		CHECK_U64(c, m.flag_skips[CSIM_FSKIP_INCOMPLETE], 7);
		CHECK_U64(c, m.nflags, 5);   /* read, not consumed */
	}
	csim_model_release(&m);
}

static void test_intra_alone(struct check_ctx *c)
{
	struct csim_model m;
	uint32_t prod, cons;
	int64_t before;

	csim_model_init(&m);
	/* Kept rows and paired cross-core flags by hand: no sync records, no
	   lane, pack, pair or flag pass. */
	prod = mu_slice(&m, "core0.cubecore0", "FIXP", 0, 100, CSIM_SLICE_INSTR);
	cons = mu_slice(&m, P, "MTE2", 200, 210, CSIM_SLICE_INSTR);
	mu_paired_flag(&m, CSIM_SYNC_SET, "core0.cubecore0", "FIXP", 50, 51, "intra_1",
		       mu_detail(&m, "FIXP", NULL, 3));
	mu_paired_flag(&m, CSIM_SYNC_WAIT, P, "MTE2", 150, 190, "intra_1", CSIM_NONE);
	mu_paired_flag(&m, CSIM_SYNC_SET, "core0.cubecore0", "FIXP", 60, 61, "intra_2",
		       CSIM_NONE);
	for (size_t i = 0; i < m.nflags; i++)
		m.flags[i].intra = 1;
	/* An in-core flag: not the cross-core pass's to match or count. */
	mu_paired_flag(&m, CSIM_SYNC_SET, P, "MTE2", 70, 71, NULL, CSIM_NONE);
	m.flag_skips[CSIM_FSKIP_NO_KEY] = 5;   /* the flag pass's count */
	before = csim_flag_begin(&m.flags[0]);
	mu_classify(&m);
	if (run_twice(c, &m, &csim_pass_intra_def)) {
		if (CHECK_U64(c, m.nintra_arrows, 1)) {
			CHECK_U64(c, m.intra_arrows[0].producer, prod);
			CHECK_U64(c, m.intra_arrows[0].consumer, cons);
			CHECK_U64(c, m.intra_arrows[0].flag_id, 3);
		}
		CHECK_U64(c, m.intra_skips[CSIM_FSKIP_NO_WAIT], 1);
		CHECK_U64(c, m.intra_skips[CSIM_FSKIP_NO_KEY], 0);
		CHECK_U64(c, m.flag_skips[CSIM_FSKIP_NO_KEY], 5);
		CHECK_U64(c, m.narrows, 0);
		CHECK_U64(c, m.nflags, 4);   /* read, not consumed */
		CHECK_I64(c, csim_flag_begin(&m.flags[0]), before);
	}
	csim_model_release(&m);
}

static void test_order_alone(struct check_ctx *c)
{
	static const char *const want_pipe[] = { "MTE2", "MTE1", "MTE1", "VECTOR" };
	static const int want_index[] = { 0, 100, 101, 300 };
	struct csim_model m;

	csim_model_init(&m);
	/* Lanes by hand: no slices at all. */
	mu_lane(&m, "core10.veccore0", "VECTOR", 1);
	mu_lane(&m, "core2.cubecore0", "MTE1", 2);
	mu_lane(&m, "core2.cubecore0", "MTE2", 1);
	mu_classify(&m);
	if (run_twice(c, &m, &csim_pass_order_def) &&
	    CHECK_U64(c, m.nprocesses, 2) && CHECK_U64(c, m.nthreads, 4)) {
		CHECK_STR(c, m.table.pid_names[m.processes[0]], "core2.cubecore0");
		CHECK_STR(c, m.table.pid_names[m.processes[1]], "core10.veccore0");
		for (size_t i = 0; i < 4; i++) {
			CHECK_STR(c, mu_name(&m, m.lanes[m.threads[i].lane].pipe), want_pipe[i]);
			CHECK_I64(c, m.threads[i].sort_index, want_index[i]);
		}
	}
	csim_model_release(&m);
}

/* The whole plan again, on the model it produced: nothing changes. */
static void test_whole_plan_twice(struct check_ctx *c)
{
	struct csim_model m;
	struct snap s;
	uint32_t d;

	csim_model_init(&m);
	for (int i = 0; i < 4; i++) {
		mu_slice(&m, P, "MTE2", 100 * i, 100 * i + 60, CSIM_SLICE_INSTR);
		mu_instr(&m, 1, 0x10, "LD");
		mu_slice(&m, P, "VECTOR", 100 * i + 50, 100 * i + 90, CSIM_SLICE_INSTR);
		mu_instr(&m, 1, 0x20, "VADD");
	}
	mu_slice(&m, "core1.cubecore0", "CUBE", 0, 10, CSIM_SLICE_INSTR);
	mu_slice(&m, P, "SCALAR", 0, 10, CSIM_SLICE_INSTR);
	d = mu_detail(&m, "MTE2", "VECTOR", 1);
	mu_flag(&m, CSIM_SYNC_SET, P, "MTE2", 40, 41, "x", d);
	mu_flag(&m, CSIM_SYNC_WAIT, P, "VECTOR", 42, 149, "x", CSIM_NONE);
	mu_flag(&m, CSIM_SYNC_SET, P, "MTE2", 140, 141, NULL, d);
	mu_flag(&m, CSIM_SYNC_WAIT, P, "VECTOR", 142, 249, NULL, d);
	mu_sync(&m, CSIM_SYNC_SET, 0, P, "MTE2", 300, NULL, CSIM_NONE);
	mu_intra(&m, CSIM_SYNC_SET, "core1.cubecore0", "CUBE", 5, 6, "intra_1", CSIM_NONE);
	mu_intra(&m, CSIM_SYNC_WAIT, P, "MTE2", 7, 99, "intra_1", CSIM_NONE);
	/* WAITs no SET releases: counted per waiting core, the same again */
	mu_flag(&m, CSIM_SYNC_WAIT, P, "VECTOR", 300, 390, "lone", CSIM_NONE);
	mu_flag(&m, CSIM_SYNC_WAIT, P, "VECTOR", 200, 210, "lone2", CSIM_NONE);
	mu_intra(&m, CSIM_SYNC_WAIT, P, "MTE2", 250, 380, "intra_2", CSIM_NONE);
	if (!CHECK_U64(c, mu_run(&m), 0))
		goto out;
	CHECK_U64(c, m.narrows, 2);
	CHECK_U64(c, m.nintra_arrows, 1);
	if (CHECK(c, m.unreleased != NULL && m.intra_unreleased != NULL)) {
		CHECK_U64(c, m.unreleased[mu_pid(&m, P)].n, 2);
		CHECK_I64(c, m.unreleased[mu_pid(&m, P)].last_end, 390);
		CHECK_U64(c, m.unreleased[mu_pid(&m, "core1.cubecore0")].n, 0);
		CHECK_U64(c, m.intra_unreleased[mu_pid(&m, P)].n, 1);
		CHECK_I64(c, m.intra_unreleased[mu_pid(&m, P)].last_end, 380);
	}
	CHECK_U64(c, m.extra_sublanes, 0);
	CHECK_U64(c, m.nthreads, 3);
	CHECK_U64(c, m.ndeps, 2);
	CHECK_U64(c, m.path.ncores, 2);
	CHECK(c, m.path.ntop > 0);
	snap_take(&s, &m);
	CHECK_U64(c, mu_run(&m), 0);
	check_same(c, &s, &m);
	snap_release(&s);
out:
	csim_model_release(&m);
}

int main(void)
{
	struct check_ctx c = { 0, 0, NULL };

	CHECK_RUN(&c, test_plan_meets_every_contract);
	CHECK_RUN(&c, test_plan_check_finds_a_missing_part);
	CHECK_RUN(&c, test_lanes_alone);
	CHECK_RUN(&c, test_pack_alone);
	CHECK_RUN(&c, test_pair_alone_keeps_the_records);
	CHECK_RUN(&c, test_waits_alone);
	CHECK_RUN(&c, test_flags_alone);
	CHECK_RUN(&c, test_intra_alone);
	CHECK_RUN(&c, test_order_alone);
	CHECK_RUN(&c, test_whole_plan_twice);
	return check_done(&c);
}
