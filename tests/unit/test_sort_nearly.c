/*
 * csim_sort_nearly (the insertion sort with a qsort fallback that the pack
 * and summary passes and the anchor index share), the grouping of slices
 * by (pid, lane) with gathered rows, the anchor index built on both, and
 * the interval grouping with the in-place permutation it moves records
 * by: results must equal one qsort of everything, whichever path sorted.
 */
#include <math.h>

#include "check.h"
#include "modelutil.h"

#include "base/dense_order.h"
#include "model/anchor_index.h"
#include "model/interval_group.h"
#include "model/sort_nearly.h"

/* A 24-byte row like the anchor entries: ordered by key, then a unique id. */
struct row {
	int64_t key;
	uint64_t pad;
	uint32_t id;
};

static int row_cmp(const void *a, const void *b)
{
	const struct row *x = a, *y = b;

	if (x->key != y->key)
		return x->key < y->key ? -1 : 1;
	return (x->id > y->id) - (x->id < y->id);
}

/* Deterministic pseudo-random numbers (xorshift). */
static uint64_t next_rand(uint64_t *s)
{
	*s ^= *s << 13;
	*s ^= *s >> 7;
	*s ^= *s << 17;
	return *s;
}

/* Sorts a by csim_sort_nearly and a copy by qsort; they must agree. */
static int sorts_like_qsort(struct check_ctx *c, struct row *a, size_t n)
{
	struct row *b = malloc((n ? n : 1) * sizeof(*b));
	int finished;

	if (b == NULL)
		abort();
	memcpy(b, a, n * sizeof(*a));
	qsort(b, n, sizeof(*b), row_cmp);
	finished = csim_sort_nearly(a, n, sizeof(*a), row_cmp);
	CHECK(c, n == 0 || memcmp(a, b, n * sizeof(*a)) == 0);
	free(b);
	return finished;
}

static void test_sorted_input_stays(struct check_ctx *c)
{
	struct row a[100];

	memset(a, 0, sizeof(a));
	for (uint32_t i = 0; i < 100; i++)
		a[i] = (struct row){ i / 3, 0, i };
	CHECK_U64(c, (uint64_t)sorts_like_qsort(c, a, 100), 1);
	CHECK_U64(c, (uint64_t)sorts_like_qsort(c, a, 0), 1);
	CHECK_U64(c, (uint64_t)sorts_like_qsort(c, a, 1), 1);
}

/* Local swaps, as the producer's end-tick order leaves starts. */
static void test_nearly_sorted_by_insertion(struct check_ctx *c)
{
	struct row a[1000];
	uint64_t seed = 88172645463325252u;

	memset(a, 0, sizeof(a));
	for (uint32_t i = 0; i < 1000; i++)
		a[i] = (struct row){ (int64_t)i * 10 - (int64_t)(next_rand(&seed) % 40), 0, i };
	CHECK_U64(c, (uint64_t)sorts_like_qsort(c, a, 1000), 1);
	/* one element far out of place still fits the budget */
	for (uint32_t i = 0; i < 1000; i++)
		a[i] = (struct row){ i, 0, i };
	a[999].key = -1;
	CHECK_U64(c, (uint64_t)sorts_like_qsort(c, a, 1000), 1);
	CHECK_I64(c, a[0].key, -1);
}

/* Reversed or shuffled input exhausts the budget: qsort finishes the job. */
static void test_disordered_input_falls_back(struct check_ctx *c)
{
	struct row a[2000];
	uint64_t seed = 1234567;

	memset(a, 0, sizeof(a));
	for (uint32_t i = 0; i < 2000; i++)
		a[i] = (struct row){ 2000 - (int64_t)i, 0, i };
	CHECK_U64(c, (uint64_t)sorts_like_qsort(c, a, 2000), 0);
	for (uint32_t i = 0; i < 2000; i++)
		a[i] = (struct row){ (int64_t)(next_rand(&seed) % 500), 0, i };
	CHECK_U64(c, (uint64_t)sorts_like_qsort(c, a, 2000), 0);
}

struct gathered {
	int64_t start;
	uint32_t idx, pipe;
};

static int keep_instr(const struct csim_slice *s, const void *ctx)
{
	(void)ctx;
	return s->kind == CSIM_SLICE_INSTR;
}

static void gather(const struct csim_slice *s, uint32_t i, void *row, const void *ctx)
{
	(void)ctx;
	*(struct gathered *)row = (struct gathered){ s->start, i, s->pipe };
}

/*
 * Rows group by (pid, lane of the pipe), lanes in order, input order within
 * a lane; with no gather the same grouping comes as indices.
 */
static void test_bucket_rows_by_mapped_lane(struct check_ctx *c)
{
	struct csim_model m;
	struct csim_interval_buckets bk = { NULL, NULL, NULL, 0, 0 };
	uint32_t lane_of[3], s[6], a, b, v;
	const struct gathered *r;

	csim_model_init(&m);
	s[0] = mu_slice(&m, "p1", "A", 50, 60, CSIM_SLICE_INSTR);
	s[1] = mu_slice(&m, "p0", "B", 40, 45, CSIM_SLICE_INSTR);
	s[2] = mu_slice(&m, "p1", "V", 10, 20, CSIM_SLICE_INSTR);
	mu_slice(&m, "p1", "A", 0, 5, CSIM_SLICE_CACHE_CCU);   /* not kept */
	s[3] = mu_slice(&m, "p1", "A", 30, 35, CSIM_SLICE_INSTR);
	s[4] = mu_slice(&m, "p0", "A", 70, 80, CSIM_SLICE_INSTR);
	s[5] = mu_slice(&m, "p1", "B", 5, 8, CSIM_SLICE_INSTR);
	a = mu_pipe(&m, "A");
	b = mu_pipe(&m, "B");
	v = mu_pipe(&m, "V");
	/* A and V share lane 7; B has lane 2 */
	lane_of[a] = 7;
	lane_of[b] = 2;
	lane_of[v] = 7;
	{
		const struct csim_bucket_spec spec = { keep_instr, lane_of, gather,
						       sizeof(struct gathered), NULL };

		CHECK_I64(c, csim_interval_bucket_slices(&m.table, &spec, &bk), 0);
	}
	CHECK(c, bk.idx == NULL);
	CHECK_U64(c, bk.n, 4);
	CHECK_U64(c, bk.longest, 3);
	r = bk.rows;
	/* ids by first appearance: p1 before p0. p1: lane 2 (B), lane 7 (A, V,
	   A in input order); p0: lane 2 (B), lane 7 (A) */
	CHECK_U64(c, bk.b[0].pid, mu_pid(&m, "p1"));
	CHECK_U64(c, bk.b[0].pipe, 2);
	CHECK_U64(c, r[0].idx, s[5]);
	CHECK_U64(c, bk.b[1].pipe, 7);
	CHECK_U64(c, bk.b[1].lo, 1);
	CHECK_U64(c, bk.b[1].hi, 4);
	CHECK_U64(c, r[1].idx, s[0]);
	CHECK_U64(c, r[2].idx, s[2]);
	CHECK_U64(c, r[2].pipe, v);
	CHECK_I64(c, r[2].start, 10);
	CHECK_U64(c, r[3].idx, s[3]);
	CHECK_U64(c, bk.b[2].pid, mu_pid(&m, "p0"));
	CHECK_U64(c, bk.b[2].pipe, 2);
	CHECK_U64(c, r[4].idx, s[1]);
	CHECK_U64(c, bk.b[3].pipe, 7);
	CHECK_U64(c, r[5].idx, s[4]);
	free(bk.rows);
	free(bk.b);
	/* indices, each pipe its own lane */
	memset(&bk, 0, sizeof(bk));
	{
		const struct csim_bucket_spec spec = { keep_instr, NULL, NULL, 0, NULL };

		CHECK_I64(c, csim_interval_bucket_slices(&m.table, &spec, &bk), 0);
	}
	CHECK(c, bk.rows == NULL);
	CHECK_U64(c, bk.n, 5);
	CHECK_U64(c, bk.b[0].pipe, a);   /* p1's A: two slices */
	CHECK_U64(c, bk.idx[0], s[0]);
	CHECK_U64(c, bk.idx[1], s[3]);
	free(bk.idx);
	free(bk.b);
	csim_model_release(&m);
}

/* An index entry with its lane, for the expected order. */
struct lane_entry {
	uint64_t lane;
	int64_t start;
	uint32_t slice;
	uint16_t run;
};

static int entry_order(const void *a, const void *b)
{
	const struct lane_entry *x = a, *y = b;

	if (x->lane != y->lane)
		return x->lane < y->lane ? -1 : 1;
	if (x->run != y->run)
		return x->run < y->run ? -1 : 1;
	if (x->start != y->start)
		return x->start < y->start ? -1 : 1;
	return (x->slice > y->slice) - (x->slice < y->slice);
}

static struct lane_entry lane_entry_of(const struct csim_model *m, uint32_t i)
{
	const struct csim_slice *s = &m->table.slices[i];

	return (struct lane_entry){ (uint64_t)s->pid << 32 | m->pipes[s->pipe].anchor_lane,
				    s->start, i, s->run };
}

/*
 * Per position of a lane, the candidate of the position's instant that a
 * scan of the lane's slices of the same run finds (started by it and
 * completed by it, latest end, then start, then input order).
 */
static int best_holds(const struct csim_anchor_index *ix, size_t lo, size_t hi, size_t at)
{
	const struct csim_slice *sl = ix->m->table.slices;
	uint16_t run = sl[ix->done_best[at]].run;
	uint32_t best = CSIM_NONE;

	for (size_t i = lo; i < hi; i++) {
		const struct csim_slice *x = &sl[ix->entries[i].slice];
		double done = fmax(x->b - fmax(0.25, fabs(x->a) * ldexp(1.0, -22)), x->a);
		uint32_t k = ix->entries[i].slice;

		if (x->run != run || done > ix->done_at[at])
			continue;
		if (best == CSIM_NONE || x->b > sl[best].b ||
		    (x->b == sl[best].b && (x->a > sl[best].a || (x->a == sl[best].a && k > best))))
			best = k;
	}
	return best == ix->done_best[at];
}

/*
 * The index holds every kept anchor slice, in (pid, anchor lane, run,
 * start, input) order: the vector family's pipes share one lane, starts
 * out of input order and equal starts included; each lane's range is
 * listed in key order, and each position's producer candidate is the one a
 * scan finds.
 */
static void test_anchor_index_order(struct check_ctx *c)
{
	struct csim_model m;
	struct csim_anchor_index ix;
	struct lane_entry *want;
	uint64_t seed = 42;
	size_t n = 0, bad = 0;

	csim_model_init(&m);
	for (int i = 0; i < 400; i++) {
		static const char *const pipes[] = { "VECTOR", "RVECLD", "MTE2", "CUBE" };
		int64_t t = i * 10 - (int64_t)(next_rand(&seed) % 50);

		if (t < 0)
			t = 0;
		mu_slice(&m, i % 3 ? "core0" : "core1", pipes[next_rand(&seed) % 4],
			 t, t + 20 + (int64_t)(next_rand(&seed) % 40),
			 i % 7 ? CSIM_SLICE_INSTR : CSIM_SLICE_CACHE_CCU);
		if (i % 50 == 49)
			m.table.run++;   /* the next slices belong to the next run */
	}
	mu_slice(&m, "core0", "MTE2", 500, 500, CSIM_SLICE_INSTR);   /* a point */
	/* Equal ends: the candidate is the later start, not the later row. */
	mu_slice(&m, "core2", "MTE2", 100, 300, CSIM_SLICE_INSTR);
	mu_slice(&m, "core2", "MTE2", 150, 300, CSIM_SLICE_INSTR);
	mu_slice(&m, "core2", "MTE2", 120, 300, CSIM_SLICE_INSTR);
	mu_classify(&m);
	want = malloc(m.table.nslices * sizeof(*want));
	if (want == NULL)
		abort();
	for (uint32_t i = 0; i < m.table.nslices; i++) {
		const struct csim_slice *s = &m.table.slices[i];

		if (s->kept && s->end > s->start && s->kind != CSIM_SLICE_CACHE_CCU)
			want[n++] = lane_entry_of(&m, i);
	}
	qsort(want, n, sizeof(*want), entry_order);
	CHECK_I64(c, csim_anchor_index_build(&ix, &m), 0);
	CHECK_U64(c, ix.n, n);
	for (size_t i = 0; i < n && i < ix.n; i++) {
		struct lane_entry got = lane_entry_of(&m, ix.entries[i].slice);

		if (!CHECK(c, entry_order(&got, &want[i]) == 0 &&
			      got.start == ix.entries[i].start && got.run == ix.entries[i].run)) {
			fprintf(stderr, "    at entry %zu\n", i);
			break;
		}
	}
	for (size_t k = 0; k < ix.nlanes; k++) {
		const struct csim_anchor_lane *l = &ix.lanes[k];

		if (k > 0 && ix.lanes[k - 1].key >= l->key)
			bad++;
		for (size_t i = l->lo; i < l->hi; i++) {
			if (lane_entry_of(&m, ix.entries[i].slice).lane != l->key)
				bad++;
			/* a query lands on the last of equal instants */
			if ((i + 1 == l->hi || ix.done_at[i + 1] != ix.done_at[i]) &&
			    !best_holds(&ix, l->lo, l->hi, i))
				bad++;
		}
	}
	CHECK(c, ix.nlanes == 7);   /* 2 cores x (vector family, MTE2, CUBE), core2's MTE2 */
	CHECK_U64(c, bad, 0);
	csim_anchor_index_release(&ix);
	free(want);
	csim_model_release(&m);
}

/* Both binds of one query, by the whole index and by the per-core one. */
static int links_agree(struct check_ctx *c, const struct csim_anchor_index *whole,
		       struct csim_anchor_index *by_core, struct csim_anchor_query p,
		       struct csim_anchor_query q)
{
	struct csim_arrow a, b;
	int ra, rb;

	memset(&a, 0, sizeof(a));
	memset(&b, 0, sizeof(b));
	if (!CHECK_I64(c, csim_anchor_index_need(by_core, p.pid, q.pid), 0))
		return 0;
	ra = csim_anchor_index_link(whole, p, q, &a);
	rb = csim_anchor_index_link(by_core, p, q, &b);
	if (ra != rb)
		return 0;
	return ra >= 0 || (a.producer == b.producer && a.consumer == b.consumer &&
			   a.s_half_ns == b.s_half_ns && a.f_half_ns == b.f_half_ns &&
			   a.running == b.running && a.producer_pipe == b.producer_pipe &&
			   a.consumer_pipe == b.consumer_pipe);
}

/*
 * The index built a core at a time binds every query as the whole index
 * does: asked core by core it keeps building two cores' lanes (4 bytes an
 * anchor besides); asked jumping between cores it builds every lane once
 * it has built more than twice as many cores as there are, and binds the
 * same from then on.
 */
static void test_anchor_index_by_core_links_as_whole(struct check_ctx *c)
{
	static const char *const cores[] = { "core0", "core1", "core2", "core3", "core4" };
	static const char *const pipes[] = { "MTE2", "VECTOR", "MTE3" };
	struct csim_model m;
	struct csim_anchor_index whole, by_core;
	uint64_t seed = 7;
	size_t bad = 0, queries = 0, binds = 0;

	csim_model_init(&m);
	for (int i = 0; i < 3000; i++) {
		int64_t t = (int64_t)(next_rand(&seed) % 20000);

		mu_slice(&m, cores[next_rand(&seed) % 5], pipes[next_rand(&seed) % 3], t,
			 t + 1 + (int64_t)(next_rand(&seed) % 300), CSIM_SLICE_INSTR);
	}
	mu_classify(&m);
	if (!CHECK_I64(c, csim_anchor_index_build(&whole, &m), 0))
		goto out;
	for (int jumping = 0; jumping < 2; jumping++) {
		if (!CHECK_I64(c, csim_anchor_index_build_by_core(&by_core, &m), 0))
			break;
		for (uint32_t k = 0; k < 400; k++) {
			/* core by core: 80 queries on each core, then on it and the next */
			uint32_t a = jumping ? (uint32_t)(next_rand(&seed) % 5) : k / 80;
			uint32_t b = jumping ? (uint32_t)(next_rand(&seed) % 5) : (k % 2 ? a : (a + 1) % 5);
			int64_t t = (int64_t)(next_rand(&seed) % 20000);
			struct csim_anchor_query p = { mu_pid(&m, cores[a]),
						       mu_pipe(&m, pipes[k % 3]), 0, t, (double)t };
			struct csim_anchor_query q = { mu_pid(&m, cores[b]), mu_pipe(&m, pipes[(k + 1) % 3]),
						       0, t + (int64_t)(next_rand(&seed) % 500), 0.0 };
			struct csim_arrow one;

			queries++;
			binds += csim_anchor_index_link(&whole, p, q, &one) < 0;
			if (!links_agree(c, &whole, &by_core, p, q) && bad++ == 0)
				fprintf(stderr, "    %s, query %u differs\n",
					jumping ? "jumping" : "core by core", k);
		}
		/* core by core stays per core; jumping has fallen back */
		CHECK_I64(c, by_core.rows == NULL, jumping);
		csim_anchor_index_release(&by_core);
	}
	CHECK_U64(c, bad, 0);
	CHECK(c, binds > queries / 4 && binds < queries);   /* both outcomes met */
	csim_anchor_index_release(&whole);
out:
	csim_model_release(&m);
}

/* A 64-byte record, the size of an arrow. */
struct wide {
	uint64_t w[8];
};

/* csim_permute_in_place puts every record where dest says, as a copy would. */
static void test_permute_in_place(struct check_ctx *c)
{
	enum { N = 1000 };
	static struct wide a[N], want[N];
	static uint32_t dest[N];
	struct wide one;
	uint64_t seed = 0x9e3779b97f4a7c15u;

	for (size_t n = 0; n <= N; n = n ? n * 10 : 1) {
		for (uint32_t i = 0; i < n; i++)
			dest[i] = i;
		for (size_t i = n; i > 1; i--) {   /* Fisher-Yates */
			size_t j = next_rand(&seed) % i;
			uint32_t t = dest[i - 1];

			dest[i - 1] = dest[j];
			dest[j] = t;
		}
		for (uint32_t i = 0; i < n; i++) {
			for (int k = 0; k < 8; k++)
				a[i].w[k] = next_rand(&seed);
			want[dest[i]] = a[i];
		}
		csim_permute_in_place(a, n, sizeof(*a), dest, &one);
		CHECK(c, n == 0 || memcmp(a, want, n * sizeof(*a)) == 0);
		for (uint32_t i = 0; i < n; i++)
			if (!CHECK(c, dest[i] == i))
				break;
	}
	/* the identity moves nothing; one long cycle moves everything */
	for (uint32_t i = 0; i < N; i++) {
		a[i].w[0] = i;
		dest[i] = (i + 1) % N;
	}
	csim_permute_in_place(a, N, sizeof(*a), dest, &one);
	CHECK(c, a[0].w[0] == N - 1 && a[1].w[0] == 0 && a[N - 1].w[0] == N - 2);
}

/*
 * csim_interval_group (in place, by two counting sorts and a sort of each
 * bucket) orders items as one qsort by csim_interval_cmp would: pids and
 * pipes in any order, cross-core items on the last pseudo-pipe, runs
 * already sorted and not.
 */
static void test_interval_group_like_qsort(struct check_ctx *c)
{
	enum { N = 5000, PIDS = 7, PIPES = 9 };
	static struct csim_interval a[N], b[N];
	uint64_t seed = 12345;

	for (size_t i = 0; i < N; i++) {
		uint64_t r = next_rand(&seed);
		uint32_t pid = (uint32_t)(r % PIDS);
		uint32_t pipe = (r >> 8) % (PIPES + 1) == PIPES ? CSIM_INTERVAL_LAST_PIPE
							      : (uint32_t)((r >> 8) % PIPES);
		int64_t start = (int64_t)(i % 3 ? i * 10 : (r >> 20) % 50000);

		a[i] = (struct csim_interval){ (uint64_t)pid << 32 | pipe, (r >> 40) % 3,
					       start, start + (int64_t)((r >> 32) % 100) };
	}
	memcpy(b, a, sizeof(a));
	qsort(b, N, sizeof(*b), csim_interval_cmp);
	CHECK(c, csim_interval_group(a, N, PIDS, PIPES) == 0);
	CHECK(c, memcmp(a, b, sizeof(a)) == 0);
	CHECK(c, csim_interval_group(a, 0, PIDS, PIPES) == 0);
}

int main(void)
{
	struct check_ctx c = { 0, 0, NULL };

	CHECK_RUN(&c, test_sorted_input_stays);
	CHECK_RUN(&c, test_nearly_sorted_by_insertion);
	CHECK_RUN(&c, test_disordered_input_falls_back);
	CHECK_RUN(&c, test_bucket_rows_by_mapped_lane);
	CHECK_RUN(&c, test_anchor_index_order);
	CHECK_RUN(&c, test_anchor_index_by_core_links_as_whole);
	CHECK_RUN(&c, test_permute_in_place);
	CHECK_RUN(&c, test_interval_group_like_qsort);
	return check_done(&c);
}
