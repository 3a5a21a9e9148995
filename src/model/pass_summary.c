/*
 * Summary pass. Instruction slices are grouped by (pid, pipe) as indices
 * and each group's intervals sorted by start when it is swept; WAIT flags
 * and cross-core waits become interval items keyed by (pid, pipe, what,
 * producer), grouped the same way (interval_group.h). One merged sweep in
 * (pid, pipe) order then gives every busy time, WAIT time, depth and, core
 * by core, the MTE pipes' overlap with compute (summary_mte.h). Spans
 * need no sort: one scan of the rows.
 */
#include "model/pass_summary.h"

#include <stdlib.h>
#include <string.h>

#include "base/array_grow.h"
#include "model/interval_group.h"
#include "model/occupancy.h"
#include "model/sort_nearly.h"
#include "model/summary_instr.h"
#include "model/summary_mte.h"
#include "model/summary_waits.h"
#include "model/timeline_bins.h"

const struct csim_pass_def csim_pass_summary_def = {
	csim_pass_summary,
	CSIM_PART_WAITS | CSIM_PART_PIPES | CSIM_PART_LANES | CSIM_PART_ORDER,
	CSIM_PART_SUMMARY
};

/* Length of the union of sorted intervals it[0..n). */
static int64_t union_ns(const struct csim_interval *it, size_t n)
{
	int64_t total = 0, s = 0, e = 0;

	for (size_t i = 0; i < n; i++) {
		if (i == 0 || it[i].start > e) {
			total += e - s;
			s = it[i].start;
			e = it[i].end;
		} else if (it[i].end > e) {
			e = it[i].end;
		}
	}
	return n > 0 ? total + (e - s) : 0;
}

/* The lane of (pid, pipe) in the trace, or NULL: a dropped lane has none. */
static const struct csim_lane *lane_of(const struct csim_model *m, uint32_t pid, uint32_t pipe)
{
	size_t lane = csim_model_find_lane(m, pid, pipe);

	return lane < m->nlanes ? &m->lanes[lane] : NULL;
}

/* True intervals by start (then end: a total order on the values). */
static int occupancy_cmp(const void *a, const void *b)
{
	const struct csim_occupancy *x = a, *y = b;

	if (x->lo != y->lo)
		return x->lo < y->lo ? -1 : 1;
	return (x->hi > y->hi) - (x->hi < y->hi);
}

struct work {
	struct csim_model *m;
	struct csim_summary *s;
	const struct csim_interval *items;  /* m->waits: WAITs and cross-core waits */
	size_t nitems;
	struct csim_interval_buckets bk;   /* instruction slices by (pid, pipe) */
	struct csim_interval *scratch;      /* one bucket's intervals, sorted */
	struct csim_occupancy *occ;         /* one bucket's true intervals */
	double *heap;                       /* csim_occupancy_depth()'s */
	struct csim_overlap overlap;        /* the current core's MTE and compute runs */
	/* per pid id */
	int64_t *first, *last, *cross;
	unsigned char *has;
	size_t *pipe0, *npipes;    /* its records in the unordered pipes[] */
	size_t *run_heads, *run_ends;   /* a pipe's WAIT runs, one per producer */
	struct csim_summary_pipe *raw;   /* pipe records in (pid, pipe id) order */
	size_t nraw;
};

/* An instruction slice in the window (every one without --window). */
static int counts_in_window(const struct csim_slice *sl, const void *window)
{
	return csim_summary_counts_as_instruction(sl) &&
	       csim_window_meets(window, sl->start, sl->end);
}

/* Each core's span: with --window, what meets the window, clipped to it. */
static void collect_spans(struct work *w)
{
	const struct csim_table *t = &w->m->table;
	const struct csim_window *win = &w->m->cut.window;

	for (size_t i = 0; i < t->nslices; i++) {
		const struct csim_slice *sl = &t->slices[i];
		int64_t start = csim_window_clamp(win, sl->start);
		int64_t end = csim_window_clamp(win, sl->end);

		if (!csim_window_meets(win, sl->start, sl->end))
			continue;
		if (!w->has[sl->pid] || start < w->first[sl->pid])
			w->first[sl->pid] = start;
		if (!w->has[sl->pid] || end > w->last[sl->pid])
			w->last[sl->pid] = end;
		w->has[sl->pid] = 1;
	}
}

/* The end of the run of items sharing group and sub with items[i]. */
static size_t run_end(const struct work *w, size_t i)
{
	size_t j = i;

	while (j < w->nitems && w->items[j].group == w->items[i].group &&
	       w->items[j].sub == w->items[i].sub)
		j++;
	return j;
}

/*
 * The depth of a bucket's slices (SPEC §4): of a kept lane without a
 * window, the packing's (the same computation over the same slices); else
 * over their true intervals, clipped to the window.
 */
static uint32_t bucket_depth(struct work *w, const struct csim_interval_bucket *b,
			     const struct csim_lane *lane)
{
	const struct csim_slice *sl = w->m->table.slices;
	const struct csim_window *win = &w->m->cut.window;
	size_t n = b->hi - b->lo;

	if (lane != NULL && !csim_window_active(win))
		return lane->depth;
	for (size_t k = 0; k < n; k++) {
		struct csim_occupancy o = csim_slice_true_interval(&sl[w->bk.idx[b->lo + k]]);

		if (win->has_from && o.lo < (double)win->from_ns)
			o.lo = (double)win->from_ns;
		if (win->has_to && o.hi > (double)win->to_ns)
			o.hi = (double)win->to_ns;
		w->occ[k] = o;
	}
	csim_sort_nearly(w->occ, n, sizeof(*w->occ), occupancy_cmp);
	return csim_occupancy_depth(w->occ, n, n > 0, w->heap);
}

/*
 * The instruction numbers of one bucket: its intervals (clipped to the
 * window) sorted in scratch. With --window a kept lane's rows are the
 * sub-lanes its slices in the window use. `rec` is p's index in raw[].
 */
static int sweep_bucket(struct work *w, const struct csim_interval_bucket *b,
			struct csim_summary_pipe *p, size_t rec)
{
	const struct csim_slice *sl = w->m->table.slices;
	const struct csim_window *win = &w->m->cut.window;
	const struct csim_lane *lane = p->kept ? lane_of(w->m, b->pid, b->pipe) : NULL;
	size_t n = b->hi - b->lo;
	uint32_t used = 0;

	for (size_t k = 0; k < n; k++) {
		const struct csim_slice *x = &sl[w->bk.idx[b->lo + k]];

		if (k + CSIM_PREFETCH_AHEAD < n)
			csim_prefetch(&sl[w->bk.idx[b->lo + k + CSIM_PREFETCH_AHEAD]]);
		w->scratch[k] = csim_item_make(b->pid, b->pipe, CSIM_ITEM_INSTR, CSIM_NONE,
					       csim_window_clamp(win, x->start),
					       csim_window_clamp(win, x->end));
		if (x->sublane >= used)
			used = x->sublane + 1;
	}
	csim_interval_sort_nearly(w->scratch, n);
	p->instructions = n;
	for (size_t k = 0; k < n; k++)
		p->slice_ns += w->scratch[k].end - w->scratch[k].start;
	p->busy_ns = union_ns(w->scratch, n);
	p->depth = bucket_depth(w, b, lane);
	if (p->kept)
		p->rows = csim_window_active(win) ? used : lane != NULL ? lane->nsub : 0;
	return csim_overlap_add(&w->overlap, csim_overlap_role(w->m, b->pipe), rec, w->scratch, n);
}

/*
 * The union of items[i, end), runs of sorted intervals (one per producer):
 * merged by start, the few runs' heads scanned at each step.
 */
static int64_t union_runs(struct work *w, size_t i, size_t end)
{
	size_t k = 0, best;
	int64_t total = 0, s = 0, e = 0;
	int open = 0;

	for (size_t r = i; r < end; k++) {
		w->run_heads[k] = r;
		w->run_ends[k] = r = run_end(w, r);
	}
	for (;;) {
		const struct csim_interval *it;

		best = k;
		for (size_t j = 0; j < k; j++)
			if (w->run_heads[j] < w->run_ends[j] &&
			    (best == k || w->items[w->run_heads[j]].start <
					  w->items[w->run_heads[best]].start))
				best = j;
		if (best == k)
			break;
		it = &w->items[w->run_heads[best]++];
		if (!open || it->start > e) {
			total += open ? e - s : 0;
			s = it->start;
			e = it->end;
			open = 1;
		} else if (it->end > e) {
			e = it->end;
		}
	}
	return open ? total + (e - s) : 0;
}

/*
 * The WAIT runs of group `key` from items[i] on (one per producer): the
 * pipe's wait time over all of them, and each producer's; returns the
 * next item.
 */
static size_t sweep_waits(struct work *w, size_t i, uint64_t key,
			  struct csim_summary_pipe *p)
{
	size_t end = i;

	while (end < w->nitems && w->items[end].group == key)
		end++;
	if (end > i)
		p->wait_ns = union_runs(w, i, end);
	while (i < end) {
		const struct csim_interval *r = &w->items[i];
		size_t j = run_end(w, i);
		uint32_t prod = (uint32_t)r->sub;

		w->s->waits[w->s->nwaits++] = (struct csim_summary_wait){
			prod == 0 ? CSIM_NONE : prod - 1, union_ns(r, j - i)
		};
		i = j;
	}
	return end;
}

/*
 * One pipe record per (pid, pipe) of the buckets and the WAITs, merged in
 * order; a core's overlap once its last pipe is swept. Returns 0, or -1
 * out of memory.
 */
static int sweep(struct work *w)
{
	size_t i = 0, b = 0;
	uint32_t core = 0;

	while (i < w->nitems || b < w->bk.n) {
		uint64_t kb = b < w->bk.n ? csim_interval_bucket_key(&w->bk.b[b]) : UINT64_MAX;
		uint64_t ki = i < w->nitems ? w->items[i].group : UINT64_MAX;
		uint64_t key = kb < ki ? kb : ki;
		uint32_t pid = (uint32_t)(key >> 32), pipe = (uint32_t)key;
		struct csim_summary_pipe *p;

		if (pid != core)
			csim_overlap_finish_core(&w->overlap, w->raw);
		core = pid;
		if (pipe == CSIM_ITEM_CROSS_PIPE) {
			size_t j = run_end(w, i);

			w->cross[pid] = union_ns(&w->items[i], j - i);
			i = j;
			continue;
		}
		if (w->npipes[pid]++ == 0)
			w->pipe0[pid] = w->nraw;
		p = &w->raw[w->nraw++];
		memset(p, 0, sizeof(*p));
		p->pipe = pipe;
		p->kept = w->m->pipes[pipe].drop < 0;
		p->has_rows = p->kept;   /* 0 rows for a pipe that only waited */
		p->wait0 = w->s->nwaits;
		if (kb == key && sweep_bucket(w, &w->bk.b[b++], p, w->nraw - 1) != 0)
			return -1;
		i = sweep_waits(w, i, key, p);
		p->nwaits = w->s->nwaits - p->wait0;
	}
	csim_overlap_finish_core(&w->overlap, w->raw);
	return 0;
}

/* The raw record of (pid, pipe), or NULL: raw[] is in (pid, pipe) order. */
static struct csim_summary_pipe *raw_find(struct work *w, uint32_t pid, uint32_t pipe)
{
	size_t lo = w->pipe0[pid], hi = lo + w->npipes[pid];

	if (w->npipes[pid] == 0)
		return NULL;
	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;

		if (w->raw[mid].pipe < pipe)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo < w->pipe0[pid] + w->npipes[pid] && w->raw[lo].pipe == pipe ? &w->raw[lo]
										: NULL;
}

/*
 * Bytes moved per MTE pipe: the sum of its slices' process_bytes; with
 * --window, of the slices that meet the window, each in proportion to its
 * part inside.
 */
static void add_bytes(struct work *w)
{
	const struct csim_table *t = &w->m->table;

	for (size_t i = 0; i < t->nbytes; i++) {
		const struct csim_slice *sl = &t->slices[t->bytes[i].slice];
		struct csim_summary_pipe *p;
		uint64_t b;

		/* MTE rows lie far apart: ask for the row a few ahead early */
		if (i + CSIM_PREFETCH_AHEAD < t->nbytes)
			csim_prefetch(&t->slices[t->bytes[i + CSIM_PREFETCH_AHEAD].slice]);
		p = raw_find(w, sl->pid, sl->pipe);

		if (p == NULL || !csim_window_meets(&w->m->cut.window, sl->start, sl->end))
			continue;
		b = csim_mte_window_bytes(&w->m->cut.window, sl, t->bytes[i].bytes);
		p->has_bytes = 1;
		p->bytes = b > UINT64_MAX - p->bytes ? UINT64_MAX : p->bytes + b;
	}
}

/* A pipe to put in lane order: pipe table order, then name, then id. */
struct named {
	int order;
	const char *name;
	size_t n;
	uint32_t id;
	size_t idx;
};

static int named_cmp(const void *a, const void *b)
{
	const struct named *x = a, *y = b;
	size_t n = x->n < y->n ? x->n : y->n;
	int c;

	if (x->order != y->order)
		return x->order < y->order ? -1 : 1;
	c = memcmp(x->name, y->name, n);
	if (c != 0)
		return c;
	if (x->n != y->n)
		return x->n < y->n ? -1 : 1;
	return (x->id > y->id) - (x->id < y->id);
}

/* An unnamed producer sorts after every pipe. */
static struct named named_pipe(const struct csim_model *m, uint32_t pipe, size_t idx)
{
	struct named v = { CSIM_PIPE_ORDER_OTHER + 1, "", 0, pipe, idx };

	if (pipe != CSIM_NONE) {
		v.name = csim_strtab_get(&m->table.pipes, pipe, &v.n);
		v.order = m->pipes[pipe].info->order;
	}
	return v;
}

/* Puts the waits of p in producer order, through the scratch `tmp`. */
static void order_waits(const struct csim_model *m, struct csim_summary *s,
			const struct csim_summary_pipe *p, struct named *tmp,
			struct csim_summary_wait *wtmp)
{
	for (size_t k = 0; k < p->nwaits; k++)
		tmp[k] = named_pipe(m, s->waits[p->wait0 + k].producer, p->wait0 + k);
	qsort(tmp, p->nwaits, sizeof(*tmp), named_cmp);
	for (size_t k = 0; k < p->nwaits; k++)
		wtmp[k] = s->waits[tmp[k].idx];
	memcpy(&s->waits[p->wait0], wtmp, p->nwaits * sizeof(*wtmp));
}

/* Appends core `pid` with its pipes in lane order. */
static void add_core(struct work *w, uint32_t pid, struct named *tmp,
		     struct csim_summary_wait *wtmp)
{
	struct csim_summary *s = w->s;
	struct csim_summary_core *c = &s->cores[s->ncores++];
	size_t n = w->npipes[pid];

	c->pid = pid;
	c->first_ns = w->first[pid];
	c->last_ns = w->last[pid];
	c->cross_wait_ns = w->cross[pid];
	c->pipe0 = s->npipes;
	c->npipes = n;
	for (size_t k = 0; k < n; k++)
		tmp[k] = named_pipe(w->m, w->raw[w->pipe0[pid] + k].pipe, w->pipe0[pid] + k);
	qsort(tmp, n, sizeof(*tmp), named_cmp);
	for (size_t k = 0; k < n; k++)
		s->pipes[s->npipes++] = w->raw[tmp[k].idx];
	for (size_t k = 0; k < n; k++)
		order_waits(w->m, s, &s->pipes[c->pipe0 + k], tmp, wtmp);
}

static int span_cmp(const void *a, const void *b)
{
	const int64_t *x = a, *y = b;

	return (*x > *y) - (*x < *y);
}

/* Min, lower median and max span; the slowest core is the first with the max. */
static int balance(struct csim_summary *s, struct csim_error *err)
{
	int64_t *spans;

	if (s->ncores == 0)
		return CSIM_OK;
	spans = malloc(s->ncores * sizeof(*spans));
	if (spans == NULL)
		return csim_error_nomem(err, CSIM_E_INPUT);
	s->slowest = 0;
	for (size_t i = 0; i < s->ncores; i++) {
		spans[i] = s->cores[i].last_ns - s->cores[i].first_ns;
		if (spans[i] > spans[s->slowest])
			s->slowest = i;
	}
	qsort(spans, s->ncores, sizeof(*spans), span_cmp);
	s->min_span_ns = spans[0];
	s->median_span_ns = spans[(s->ncores - 1) / 2];
	s->max_span_ns = spans[s->ncores - 1];
	free(spans);
	return CSIM_OK;
}

/*
 * Cores in output order: the processes of the trace first, then cores whose
 * every slice is dropped, by first appearance.
 */
static int order_cores(struct work *w, struct csim_error *err)
{
	const struct csim_model *m = w->m;
	size_t npids = m->table.pids.count, most = 1;
	unsigned char *done = calloc(npids ? npids : 1, 1);
	struct named *tmp;
	struct csim_summary_wait *wtmp;
	int rc;

	for (size_t i = 0; i < w->nraw; i++)
		if (w->raw[i].nwaits > most)
			most = w->raw[i].nwaits;
	for (size_t pid = 0; pid < npids; pid++)
		if (w->npipes[pid] > most)
			most = w->npipes[pid];
	tmp = malloc(most * sizeof(*tmp));
	wtmp = malloc(most * sizeof(*wtmp));
	if (done == NULL || tmp == NULL || wtmp == NULL) {
		rc = csim_error_nomem(err, CSIM_E_INPUT);
		goto out;
	}
	/* --core: the summary holds the cores the cut keeps (SPEC §10). */
	for (size_t p = 0; p < m->nprocesses; p++) {
		uint32_t pid = m->processes[p];

		if (w->has[pid] && !done[pid] && csim_cut_in(m->cut.pid_in, pid))
			add_core(w, pid, tmp, wtmp);
		done[pid] = 1;
	}
	for (uint32_t pid = 0; pid < npids; pid++)
		if (w->has[pid] && !done[pid] && csim_cut_in(m->cut.pid_in, pid))
			add_core(w, pid, tmp, wtmp);
	rc = balance(w->s, err);
out:
	free(done);
	free(tmp);
	free(wtmp);
	return rc;
}

static void work_release(struct work *w)
{
	free(w->bk.idx);
	free(w->bk.b);
	free(w->scratch);
	free(w->occ);
	free(w->heap);
	csim_overlap_release(&w->overlap);
	free(w->first);
	free(w->last);
	free(w->cross);
	free(w->has);
	free(w->pipe0);
	free(w->npipes);
	free(w->run_heads);
	free(w->run_ends);
	free(w->raw);
}

/* The grouped waits, and room for every per-pid value. */
static int work_alloc(struct work *w, struct csim_error *err)
{
	const struct csim_table *t = &w->m->table;
	size_t npids = t->pids.count ? t->pids.count : 1;

	w->items = w->m->waits;
	w->nitems = w->m->nwaits;
	w->first = calloc(npids, sizeof(*w->first));
	w->last = calloc(npids, sizeof(*w->last));
	w->cross = calloc(npids, sizeof(*w->cross));
	w->has = calloc(npids, 1);
	w->pipe0 = calloc(npids, sizeof(*w->pipe0));
	w->npipes = calloc(npids, sizeof(*w->npipes));
	/* a run per producer pipe, and one without a producer */
	w->run_heads = malloc((t->pipes.count + 2) * sizeof(*w->run_heads));
	w->run_ends = malloc((t->pipes.count + 2) * sizeof(*w->run_ends));
	w->s->cores = csim_array_alloc(npids, sizeof(*w->s->cores));
	if (w->run_heads == NULL || w->run_ends == NULL || w->first == NULL || w->last == NULL ||
	    w->cross == NULL || w->has == NULL || w->pipe0 == NULL ||
	    w->npipes == NULL || w->s->cores == NULL)
		return csim_error_nomem(err, CSIM_E_INPUT);
	return CSIM_OK;
}

/* Once everything is grouped: room for the records and the largest bucket. */
static int records_alloc(struct work *w, struct csim_error *err)
{
	size_t groups = w->bk.n, waits = 0, longest = w->bk.longest ? w->bk.longest : 1;

	for (size_t i = 0; i < w->nitems;) {
		size_t j = run_end(w, i);

		if (i == 0 || w->items[i].group != w->items[i - 1].group)
			groups++;
		if (csim_item_what(&w->items[i]) == CSIM_ITEM_WAIT_BY)
			waits++;
		i = j;
	}
	w->heap = csim_array_alloc(longest, sizeof(*w->heap));
	w->occ = csim_array_alloc(longest, sizeof(*w->occ));
	w->scratch = csim_array_alloc(longest, sizeof(*w->scratch));
	w->raw = csim_array_alloc(groups ? groups : 1, sizeof(*w->raw));
	w->s->pipes = csim_array_alloc(groups ? groups : 1, sizeof(*w->s->pipes));
	w->s->waits = csim_array_alloc(waits ? waits : 1, sizeof(*w->s->waits));
	if (w->heap == NULL || w->occ == NULL || w->scratch == NULL || w->raw == NULL ||
	    w->s->pipes == NULL || w->s->waits == NULL)
		return csim_error_nomem(err, CSIM_E_INPUT);
	return CSIM_OK;
}

int csim_pass_summary(struct csim_model *m, struct csim_error *err)
{
	/* indices, not rows: a row per instruction slice would raise the peak */
	const struct csim_bucket_spec spec = { counts_in_window, NULL, NULL, 0,
					       &m->cut.window };
	struct work w;
	int rc;

	memset(&w, 0, sizeof(w));
	w.m = m;
	w.s = &m->summary;
	csim_summary_release(w.s);
	rc = work_alloc(&w, err);
	if (rc == CSIM_OK) {
		collect_spans(&w);
		if (csim_interval_bucket_slices(&m->table, &spec, &w.bk) != 0)
			rc = csim_error_nomem(err, CSIM_E_INPUT);
	}
	if (rc == CSIM_OK)
		rc = records_alloc(&w, err);
	if (rc == CSIM_OK && sweep(&w) != 0)
		rc = csim_error_nomem(err, CSIM_E_INPUT);
	if (rc == CSIM_OK) {
		add_bytes(&w);
		rc = order_cores(&w, err);
	}
	if (rc == CSIM_OK)
		csim_summary_add_instr(m);
	if (rc == CSIM_OK)
		rc = csim_summary_add_lines(m, err);
	if (rc == CSIM_OK)
		rc = csim_timeline_bins_build(m, err);
	if (rc != CSIM_OK)
		csim_summary_release(w.s);
	work_release(&w);
	return rc;
}
