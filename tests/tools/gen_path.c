/*
 * gen_path - simulated kernels whose critical path is known by
 * construction, to test clean_sim_trace's critical path (SPEC §13,
 * docs/critical-path.md) against an answer it did not compute.
 *
 *   gen_path SHAPE SEED DIR [--producer-released] [--slower LANE]
 *
 * SHAPE: mix (a cube core and two vector cores), vec (two vector cores),
 * cube (one cube core), a5 (Ascend950: vector work on PUSHQ / RVECLD /
 * RVECEX / RVECST, flags saying PIPE:VEC with #V:0), cross (the vector
 * cores' tiles wait on the cube core's FIXP through SET/WAIT_INTRA_BLOCK),
 * runs (two runs appended, two TRACE blocks: vec, then mix). SEED picks
 * the durations, delays and gaps, and the bound kind by SEED % 4:
 * transfer (MTE2 dominates), vector, scalar (long scalar slices and issue
 * gaps), sync (long dispatch delays after short transfers); odd SEED / 4
 * makes MTE2, MTE1 and RVECEX pipelined (two in flight).
 *
 * Each core runs a program of tiles in issue order. An instruction starts
 * at the latest of: its issue point (the end of the instruction that
 * issued it plus a gap: a scalar slice, or for RVEC* the vector function
 * or the previous RVEC* instruction of it; t0 for the head); its pipe
 * being free (the end of the instruction `depth` back on it, plus 0-2 ns
 * now and then: within TOL); and its dependency's release plus a dispatch
 * delay: a flag from an instruction of another pipe of the core, or a
 * cross-core sync from the cube core's FIXP. The WAIT begins at the issue
 * point, on half the flags no earlier than the end of the pipe's previous
 * instruction. When it begins before its SET's end (the ns after the
 * producer's end) it blocks: its release, the WAIT's end, is the SET's
 * end. When it begins at or after it, it was reached late: it lasts one
 * cycle (0 or 1 ns on the grid, by the instruction's place in its tile)
 * and holds nothing; the release plus the delay then counts as the term
 * of what the WAIT began behind, the issue point or the pipe's previous
 * instruction. The latest term is the instruction's recorded cause.
 *
 * On a5 a tile's VF is issued once the function before it has drained
 * (its last micro-op ended), and its first micro-op is launched 1-3 ns
 * after the VF's start, while it runs (the walk's vector-function rule).
 *
 * The schedule is then made unambiguous for the documented rules: every
 * binding term beats every other by more than 3 ns (TOL is 2); no other
 * instruction of the pipe ends within 3 ns of a start; an issue-bound
 * start has no dependency (a flag wins over issue) and its issuer is the
 * latest end on the core before it, by more than 3 ns, and so is a start
 * held by a pipe's end more than TOL back (a late WAIT behind it, then
 * the delay); a cross-core-bound start's local release (the latest of the
 * issue, the pipe free and a WAIT queued behind the pipe's previous
 * instruction: the wait counts only past it) is what the documented rule
 * finds from the trace (its lane's latest end, else the WAIT's begin and
 * the instruction ending last by it), with no other end within 3 ns; no WAIT begins exactly at its producer's end (whether it
 * blocked would hang on the SET's rounding); a flag's consumer is
 * the first of its pipe (family) starting at or after the WAIT's end and
 * its producer the latest-ending of its pipe (family) by the SET; the
 * core's last end is unique. Each failed check nudges a duration, gap or
 * delay near it (or drops the dependency) and the run is simulated again,
 * earliest failure first, until none fails.
 *
 * DIR receives trace.json (runs: trace1.json and trace2.json), dump.recipe
 * for gen_bin, and truth.json: per core (named as summary.json names it)
 * the sums of the path walked back along the recorded causes from the
 * instruction ending last (busy per lane, flag wait per producer ->
 * consumer pipe the flag names, cross-core wait, issue, span, segments),
 * and per pipe the span of the same program re-simulated with that pipe's
 * durations halved (d - d/2), issue gaps and delays as they were and the
 * other cores held fixed (span_ns), and the span docs/critical-path.md's
 * what-if model gives on the trace (model_span_ns, gen_path_model.c).
 *
 * Times are whole ns, written as µs with 3 decimals; flag records with 6.
 * A SET's begin sits at its producer's end, up to 0.2 ns before it as
 * float32 noise puts it: the simulator writes the SET's begin one cycle
 * before the SET's own end, the cycle after the producer's (the
 * fixtures' flags). One cycle before the producer's end would be a
 * producer still running by SPEC §5.3 (0.25 ns tolerance), and the SET
 * would anchor on the pipe's previous instruction. A cross-core SET at an
 * odd place of its tile has its B at its producer's start instead, as
 * newer producers write SET_INTRA_BLOCK when the scalar unit issues it:
 * only its end, the release, tells its producer.
 *
 * --producer-released keeps only the dependencies whose WAIT ended at
 * their SET (the ns after the producer's end): none whose WAIT began
 * later, at its issue point or the pipe's previous end. That is the case
 * the what-if model is built for (docs/critical-path.md): on it the
 * estimates can be compared with the re-simulation on their own terms.
 *
 * --slower LANE doubles the durations of LANE's instructions (as a lane
 * is named: MTE2, VECTOR, ...) once the schedule has settled and simulates
 * it again: the same kernel with one pipe made slower, for --compare
 * (t_compare.sh); truth.json's spans are the slower kernel's.
 *
 * Exit status: 0 ok, 1 I/O error or a seed that does not settle, 2 usage.
 */
#include "gen_path.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

enum { BOUND_TRANSFER, BOUND_VECTOR, BOUND_SCALAR, BOUND_SYNC };

struct params {
	int64_t dur[GP_NPIPES][2];
	int64_t gap[2], delay[2];
	int gap_pct, scalars, bufs, scalar_wait_pct, vec_ops;
};

static struct params params_of(int bound)
{
	struct params p = {
		.dur = { [GP_MTE2] = { 60, 200 }, [GP_MTE1] = { 20, 80 }, [GP_CUBE] = { 60, 200 },
			 [GP_VECTOR] = { 30, 120 }, [GP_PUSHQ] = { 4, 8 }, [GP_RVECLD] = { 10, 40 },
			 [GP_RVECEX] = { 20, 80 }, [GP_RVECST] = { 10, 40 }, [GP_FIXP] = { 30, 120 },
			 [GP_MTE3] = { 40, 120 }, [GP_SCALAR] = { 2, 12 } },
		.gap = { 4, 20 }, .delay = { 0, 40 },
		.gap_pct = 15, .scalars = 1, .bufs = 2, .scalar_wait_pct = 10, .vec_ops = 2
	};

	switch (bound) {
	case BOUND_TRANSFER:
		p.dur[GP_MTE2][0] = 300;
		p.dur[GP_MTE2][1] = 900;
		break;
	case BOUND_VECTOR:
		p.dur[GP_VECTOR][0] = 150;
		p.dur[GP_VECTOR][1] = 500;
		p.dur[GP_RVECEX][0] = 120;
		p.dur[GP_RVECEX][1] = 400;
		p.dur[GP_CUBE][0] = 200;
		p.dur[GP_CUBE][1] = 500;
		p.vec_ops = 3;
		break;
	case BOUND_SCALAR:
		p.dur[GP_SCALAR][0] = 40;
		p.dur[GP_SCALAR][1] = 200;
		p.dur[GP_MTE2][0] = 30;
		p.dur[GP_MTE2][1] = 100;
		p.gap[1] = 60;
		p.gap_pct = 60;
		p.scalars = 3;
		break;
	default:
		for (unsigned q = 0; q < GP_NPIPES; q++)
			if (q != GP_PUSHQ && q != GP_SCALAR) {
				p.dur[q][0] = 20;
				p.dur[q][1] = 70;
			}
		p.delay[0] = 20;
		p.delay[1] = 60;
		p.bufs = 1;
		p.scalar_wait_pct = 40;
		break;
	}
	return p;
}

/* The program being built on one core. */
struct builder {
	struct gp_core *k;
	struct gp_rng *r;
	const struct params *p;
	int32_t scalar, issuer_rvec;   /* the last scalar slice; the RVEC* chain's last */
	uint32_t pos;                  /* the next instruction's place in its tile */
};

/* The most a tile emits beside its scalar slices: 6 on a cube core, 8 on a vector one. */
enum { TILE_MAX = 12 };

static int32_t emit(struct builder *b, unsigned pipe, const char *name)
{
	struct gp_core *k = b->k;
	struct gp_instr *x = &k->v[k->n];
	int vec_chain = pipe >= GP_RVECLD && pipe <= GP_RVECST;

	*x = (struct gp_instr){ gp_range(b->r, b->p->dur[pipe][0], b->p->dur[pipe][1]), 0,
				gp_range(b->r, b->p->delay[0], b->p->delay[1]),
				vec_chain ? b->issuer_rvec : b->scalar, GP_NONE, (uint8_t)pipe,
				GP_DEP_NONE, 0, (uint8_t)(gp_rand(b->r) % 2),
				(uint8_t)(gp_rand(b->r) % 4 == 0 ? gp_range(b->r, 1, GP_TOL) : 0),
				(uint16_t)gp_range(b->r, 0, 200), name, b->pos++, 0 };
	if (x->issuer != GP_NONE && (int64_t)(gp_rand(b->r) % 100) < b->p->gap_pct)
		x->gap = gp_range(b->r, b->p->gap[0], b->p->gap[1]);
	if (vec_chain)
		x->gap = gp_range(b->r, 0, 8);
	if (pipe == GP_SCALAR)
		b->scalar = (int32_t)k->n;
	if (pipe == GP_PUSHQ || vec_chain)
		b->issuer_rvec = (int32_t)k->n;
	return (int32_t)k->n++;
}

static void flag(struct builder *b, int32_t consumer, int32_t producer)
{
	b->k->v[consumer].dep = GP_DEP_FLAG;
	b->k->v[consumer].dep_idx = producer;
}

static void scalars(struct builder *b)
{
	for (int j = 0; j < b->p->scalars; j++)
		emit(b, GP_SCALAR, j % 2 ? "LD_XD_XN_IMM" : "MOVK");
}

/*
 * A cube tile: the A and B matrices loaded to L1, each moved L1 -> L0
 * once loaded, MMAD, FIXP out. Each load waits for the move that freed its
 * buffer `bufs` tiles back. Returns FIXP's index.
 */
static int32_t cube_tile(struct builder *b, int32_t *mte1, size_t i)
{
	size_t bufs = (size_t)b->p->bufs;
	int32_t a[2], m = GP_NONE, c, f;

	b->pos = 1;   /* every tile runs the same program; the prologue is at 0 */
	scalars(b);
	for (size_t j = 0; j < 2; j++) {
		a[j] = emit(b, GP_MTE2, "MOV_OUT_TO_L1");
		if (i >= bufs)
			flag(b, a[j], mte1[2 * (i - bufs) + j]);
	}
	for (size_t j = 0; j < 2; j++) {
		m = emit(b, GP_MTE1, "LOAD_2Dv2");
		flag(b, m, a[j]);
		mte1[2 * i + j] = m;
	}
	c = emit(b, GP_CUBE, "MMAD");
	flag(b, c, m);
	f = emit(b, GP_FIXP, "FIX_L0C_TO_DST");
	flag(b, f, c);
	return f;
}

/*
 * A vector tile: load to UB, vector work (VECTOR ops, or on Ascend950 a
 * VF on PUSHQ with its RVEC* instructions), store; on some tiles a scalar
 * slice waits for the store. `cross` (GP_NONE: none) is the cube FIXP the
 * tile's load (veccore0) or first vector instruction (veccore1) waits for.
 */
static void vec_tile(struct builder *b, int32_t *store, size_t i, int32_t cross, int second)
{
	int32_t l, v, first, st;

	b->pos = 1;
	scalars(b);
	l = emit(b, GP_MTE2, "MOV_OUT_TO_UB");
	if (i >= (size_t)b->p->bufs)
		flag(b, l, store[i - (size_t)b->p->bufs]);
	if (b->k->a5) {
		int32_t drained = b->issuer_rvec;   /* the last vector function's last micro-op */

		first = emit(b, GP_PUSHQ, "VF");
		/* a VF is issued once the vector function before it has drained:
		   micro-ops of two functions never issue side by side */
		if (drained != GP_NONE)
			b->k->v[first].issuer = drained;
		v = emit(b, GP_RVECLD, "RV_VLD");
		/* launched by the VF while it runs (a VF lasts 4 ns or more) */
		b->k->v[v].launch = 1;
		b->k->v[v].gap = 1 + (int64_t)(b->k->v[v].pos % 3);
		for (int j = 0; j < b->p->vec_ops - 1; j++)
			v = emit(b, GP_RVECEX, j % 2 ? "RV_VMUL" : "RV_VADD");
		v = emit(b, GP_RVECST, "RV_VST");
	} else {
		first = v = emit(b, GP_VECTOR, "VADD");
		for (int j = 1; j < b->p->vec_ops; j++)
			v = emit(b, GP_VECTOR, j % 2 ? "VMULS" : "VADD");
	}
	flag(b, first, l);
	if (cross != GP_NONE) {
		struct gp_instr *x = &b->k->v[second ? first : l];

		x->dep = GP_DEP_CROSS;
		x->dep_core = 0;
		x->dep_idx = cross;
	}
	st = emit(b, GP_MTE3, "MOV_UB_TO_OUT");
	flag(b, st, v);
	store[i] = st;
	if ((int64_t)(gp_rand(b->r) % 100) < b->p->scalar_wait_pct)
		flag(b, emit(b, GP_SCALAR, "WAIT_DONE_MOVK"), st);
}

/* An empty core with room for `slots` instructions. */
static int core_init(struct gp_core *k, const char *pid, struct gp_rng *r, int pipelined, int a5,
		     size_t slots)
{
	memset(k, 0, sizeof(*k));
	snprintf(k->pid, sizeof(k->pid), "%s", pid);
	for (unsigned p = 0; p < GP_NPIPES; p++)
		k->depth[p] = 1;
	if (pipelined) {
		k->depth[GP_MTE2] = k->depth[GP_MTE1] = k->depth[GP_RVECEX] = 2;
		/* issue rates the transfers' and RVECEX's durations can outlast */
		k->rate[GP_MTE2] = 24;
		k->rate[GP_MTE1] = 16;
		k->rate[GP_RVECEX] = 8;
	}
	k->a5 = a5;
	k->t0 = 1000 + gp_range(r, 0, 500);
	k->cap = slots;
	k->v = calloc(slots, sizeof(*k->v));
	k->sched = calloc(slots, sizeof(*k->sched));
	return k->v != NULL && k->sched != NULL ? 0 : -1;
}

/* Builds a run of `shape` into run (cores named as the simulator names them). */
static int build(struct gp_run *run, const char *shape, struct gp_rng *r, int bound, int pipelined)
{
	struct params p = params_of(bound);
	size_t tiles = (size_t)gp_range(r, 10, 30);
	size_t slots = 1 + tiles * (size_t)(p.scalars + TILE_MAX);
	int cube = strcmp(shape, "mix") == 0 || strcmp(shape, "cube") == 0 ||
		   strcmp(shape, "a5") == 0 || strcmp(shape, "cross") == 0;
	int vecs = strcmp(shape, "cube") == 0 ? 0 : 2;
	int32_t *fixp = calloc(tiles, sizeof(*fixp)), *keep = calloc(2 * tiles, sizeof(*keep));
	int rc = fixp != NULL && keep != NULL ? 0 : -1;

	run->ncores = 0;
	if (cube && rc == 0) {
		struct builder b = { &run->core[run->ncores++], r, &p, GP_NONE, GP_NONE, 0 };

		rc = core_init(b.k, "core0.cubecore0", r, pipelined, 0, slots);
		if (rc == 0)
			emit(&b, GP_SCALAR, "MOVK");
		for (size_t i = 0; i < tiles && rc == 0; i++)
			fixp[i] = cube_tile(&b, keep, i);
	}
	for (int v = 0; v < vecs && rc == 0; v++) {
		struct builder b = { &run->core[run->ncores++], r, &p, GP_NONE, GP_NONE, 0 };
		char pid[32];

		snprintf(pid, sizeof(pid), "core0.veccore%d", v);
		rc = core_init(b.k, pid, r, pipelined, strcmp(shape, "a5") == 0, slots);
		if (rc == 0)
			emit(&b, GP_SCALAR, "MOVK");
		for (size_t i = 0; i < tiles && rc == 0; i++)
			vec_tile(&b, keep, i, strcmp(shape, "cross") == 0 ? fixp[i] : GP_NONE, v);
	}
	free(fixp);
	free(keep);
	return rc;
}

static void release_run(struct gp_run *run)
{
	for (size_t c = 0; c < run->ncores; c++) {
		free(run->core[c].v);
		free(run->core[c].sched);
	}
	run->ncores = 0;
}

static int write_file(const char *dir, const char *name, const struct gp_run *run)
{
	char path[4096];
	FILE *f;
	int rc;

	snprintf(path, sizeof(path), "%s/%s", dir, name);
	if ((f = fopen(path, "w")) == NULL) {
		fprintf(stderr, "gen_path: %s: %s\n", path, strerror(errno));
		return -1;
	}
	rc = gp_write_trace(f, run);
	if (fclose(f) != 0 || rc != 0) {
		fprintf(stderr, "gen_path: %s: write failed\n", path);
		return -1;
	}
	return 0;
}

static size_t count_deps(const struct gp_run *run, int kind)
{
	size_t n = 0;

	for (size_t c = 0; c < run->ncores; c++)
		for (size_t i = 0; i < run->core[c].n; i++)
			n += kind < 0 ? run->core[c].v[i].dep != GP_DEP_NONE : run->core[c].v[i].dep == kind;
	return n;
}

/* One line per run: its size, and what started the instructions on its paths. */
static void report(const char *shape, uint64_t seed, const char *suffix, const struct gp_run *run,
		   const struct gp_truth *t, size_t built, long fixes)
{
	long causes[GP_CROSS + 1] = { 0 }, pof = 0;
	size_t n = 0;

	for (size_t c = 0; c < run->ncores; c++) {
		n += run->core[c].n;
		for (int j = 0; j <= GP_CROSS; j++)
			causes[j] += t[c].causes[j];
		pof += t[c].pipe_over_flag;
	}
	printf("%s seed %llu%s: %zu cores, %zu instructions, %zu flags, %zu cross-core "
	       "(of %zu built), settled in %ld changes; on the paths %ld pipe-bound (%ld of them "
	       "with an earlier flag), %ld flag-, %ld cross-, %ld issue-bound\n", shape,
	       (unsigned long long)seed, suffix, run->ncores, n, count_deps(run, GP_DEP_FLAG),
	       count_deps(run, GP_DEP_CROSS), built, fixes, causes[GP_PIPE], pof, causes[GP_FLAG],
	       causes[GP_CROSS], causes[GP_ISSUE]);
}

/* --slower: the lane's durations doubled, every core simulated again. */
static int make_slower(struct gp_run *run, int lane)
{
	for (size_t c = 0; c < run->ncores; c++)
		for (size_t i = 0; i < run->core[c].n; i++)
			if (run->core[c].v[i].pipe == lane)
				run->core[c].v[i].dur *= 2;
	struct gp_slot *out[GP_MAX_CORES] = { NULL };
	int rc = 0;

	for (size_t c = 0; c < run->ncores && rc == 0; c++)
		if ((out[c] = malloc((run->core[c].n + 1) * sizeof(*out[c]))) == NULL)
			rc = -1;
	if (rc == 0)
		rc = gp_simulate_all(run, -1, out);
	for (size_t c = 0; c < run->ncores; c++) {
		if (rc == 0)
			memcpy(run->core[c].sched, out[c], run->core[c].n * sizeof(*out[c]));
		free(out[c]);
	}
	return rc;
}

/* One run: built, settled, written as DIR/name, its truth appended to truth. */
static int one_run(const char *shape, uint64_t seed, unsigned run_no, int released, int slower,
		   const char *dir, const char *name, const char *suffix, FILE *truth, int *first)
{
	struct gp_rng r = { seed * 0x100000001B3ull + run_no };
	struct gp_run run = { .producer_released = released };
	struct gp_truth t[GP_MAX_CORES];
	long fixes = 0;
	int rc = build(&run, shape, &r, (int)(seed % 4), (int)(seed / 4 % 2));
	size_t built = count_deps(&run, -1);

	if (rc == 0 && gp_settle(&run, &r, &fixes) != 0) {
		fprintf(stderr, "gen_path: %s seed %llu does not settle\n", shape,
			(unsigned long long)seed);
		rc = -1;
	}
	if (rc == 0 && slower >= 0)
		rc = make_slower(&run, slower);
	if (rc == 0)
		rc = gp_truth(&run, t);
	if (rc == 0)
		rc = write_file(dir, name, &run);
	if (rc == 0) {
		gp_write_truth(truth, &run, t, suffix, first);
		report(shape, seed, suffix, &run, t, built, fixes);
	}
	release_run(&run);
	return rc;
}

int main(int argc, char **argv)
{
	static const char *const shapes[] = { "mix", "vec", "cube", "a5", "cross", "runs" };
	char path[4096], *end;
	unsigned long long seed;
	FILE *truth, *recipe;
	int released = 0, slower = -1, bad = argc < 4;
	int known = 0, rc, first = 1, runs;

	for (int i = 4; i < argc && !bad; i++) {
		if (strcmp(argv[i], "--producer-released") == 0) {
			released = 1;
		} else if (strcmp(argv[i], "--slower") == 0 && i + 1 < argc) {
			for (unsigned p = 0; p < GP_NPIPES; p++)
				if (strcmp(argv[i + 1], gp_lane(p)) == 0)
					slower = (int)p;
			bad = slower < 0;
			i++;
		} else {
			bad = 1;
		}
	}
	if (bad) {
		fprintf(stderr, "usage: gen_path SHAPE SEED DIR [--producer-released] [--slower LANE]\n");
		return 2;
	}
	for (size_t i = 0; i < sizeof(shapes) / sizeof(shapes[0]); i++)
		known |= strcmp(argv[1], shapes[i]) == 0;
	errno = 0;
	seed = strtoull(argv[2], &end, 10);
	if (!known || errno != 0 || *end != '\0' || end == argv[2]) {
		fprintf(stderr, "gen_path: unknown shape or bad seed\n");
		return 2;
	}
	runs = strcmp(argv[1], "runs") == 0;
	snprintf(path, sizeof(path), "%s/truth.json", argv[3]);
	if ((truth = fopen(path, "w")) == NULL) {
		fprintf(stderr, "gen_path: %s: %s\n", path, strerror(errno));
		return 1;
	}
	fputs("{\"cores\":[", truth);
	if (runs)
		rc = one_run("vec", seed, 1, released, slower, argv[3], "trace1.json", " run 1",
			     truth, &first) != 0 ||
		     one_run("mix", seed + 1, 2, released, slower, argv[3], "trace2.json", " run 2",
			     truth, &first) != 0;
	else
		rc = one_run(argv[1], seed, 0, released, slower, argv[3], "trace.json", "", truth,
			     &first) != 0;
	fputs("\n]}\n", truth);
	if (fclose(truth) != 0)
		rc = 1;
	snprintf(path, sizeof(path), "%s/dump.recipe", argv[3]);
	if (rc == 0 && (recipe = fopen(path, "w")) != NULL) {
		fputs(runs ? "trace trace1.json\ntrace trace2.json\n" : "trace trace.json\n", recipe);
		rc = fclose(recipe) != 0;
	} else if (rc == 0) {
		rc = 1;
	}
	return rc;
}
