/*
 * gen_path: simulated kernels whose critical path is known by construction
 * (gen_path.c says how). Shared by its three files; nothing here comes
 * from, or may be taken from, src/.
 */
#ifndef GEN_PATH_H
#define GEN_PATH_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

/* Lanes; the vector family (VECTOR, PUSHQ, RVEC*) is one pipe for flags. */
enum gp_pipe {
	GP_MTE2, GP_MTE1, GP_CUBE, GP_VECTOR, GP_PUSHQ, GP_RVECLD, GP_RVECEX,
	GP_RVECST, GP_FIXP, GP_MTE3, GP_SCALAR, GP_NPIPES
};

enum gp_dep { GP_DEP_NONE, GP_DEP_FLAG, GP_DEP_CROSS };

/* The term that set an instruction's start. */
enum gp_cause { GP_HEAD, GP_ISSUE, GP_PIPE, GP_FLAG, GP_CROSS };

enum {
	GP_TOL = 2,        /* docs/critical-path.md's TOL, ns */
	GP_MARGIN = 3,     /* a binding term wins by more than this */
	GP_MAX_CORES = 3,
	GP_NONE = -1
};

/* One instruction of a core's program, in issue order. */
struct gp_instr {
	int64_t dur;       /* ns, >= 1 */
	int64_t gap;       /* issue point = end of `issuer` + gap */
	int64_t delay;     /* dispatch delay after the dependency's release */
	int32_t issuer;    /* earlier instruction whose end issues this one; GP_NONE: t0 */
	int32_t dep_idx;   /* producer (dep_core's program), GP_NONE without a dependency */
	uint8_t pipe, dep, dep_core;
	uint8_t clip;      /* the WAIT begins no earlier than the pipe's previous end */
	uint8_t lat;       /* ns from the pipe being free to the start (within TOL) */
	uint16_t set_ps;   /* the SET's begin sits this many ps before the producer's end */
	const char *name;
	uint32_t pos;      /* place in its tile's program: pc_addr = core base + 4 * pos,
			      the same for every tile (a loop's body) */
	uint8_t launch;    /* issued `gap` after its issuer's start, while it runs (a
			      vector function's first micro-op, by its VF) */
};

/* Places in a tile's program (the prologue's and a tile's instructions). */
#define GP_MAX_POS 64

/* Where the simulation put an instruction, and why. */
struct gp_slot {
	int64_t issue, start, end;
	int64_t wait_b;    /* the WAIT's begin (dependency only) */
	int64_t release;   /* the WAIT's end */
	int32_t from;      /* the binding term's instruction (GP_NONE: t0 or another core) */
	uint8_t cause;
	uint8_t late;      /* the WAIT began after its SET: it lasted a cycle and held nothing */
	uint8_t by_rate;   /* pipe-bound at the issue rate behind `from`, still running */
	/* cross-core bound: the best local release (the pipe free, the WAIT
	   queued behind the pipe's previous instruction, or the issue) and
	   the instruction that gave it (GP_NONE: t0) */
	int64_t local;
	int32_t local_from;
};

struct gp_core {
	char pid[48];
	uint8_t depth[GP_NPIPES];   /* in flight at once on the pipe (1: one at a time) */
	int64_t rate[GP_NPIPES];    /* a pipelined pipe's issue rate: ns from one
				       start to the next at the earliest (0: none) */
	int a5;                     /* Ascend950 flag details (#V:0) */
	int64_t t0;                 /* the head's issue point: the core's first start */
	size_t n, cap;
	struct gp_instr *v;
	struct gp_slot *sched;
};

struct gp_run {
	struct gp_core core[GP_MAX_CORES];
	size_t ncores;
	int producer_released;   /* every WAIT ends at its SET: none began after it */
};

/* The path's sums, in summary.json's units. */
struct gp_truth {
	int64_t span, busy[GP_NPIPES], wait[GP_NPIPES][GP_NPIPES], cross, issue;
	int64_t what_if[GP_NPIPES];    /* re-simulated, the run's cores together;
					  -1: the pipe has no instruction in the run */
	int64_t model[GP_NPIPES];      /* docs/critical-path.md's what-if model on the trace */
	long segments;
	long causes[GP_CROSS + 1];     /* the path's instructions by what started them */
	long pipe_over_flag;           /* of them pipe-bound though a flag released them earlier */
	/* time on the path by program place (pc_addr) of any core: busy
	   inside it, and waited for its release (the flags and cross-core
	   syncs it released) */
	int64_t pos_busy[GP_MAX_CORES][GP_MAX_POS], pos_rel[GP_MAX_CORES][GP_MAX_POS];
	const char *pos_name[GP_MAX_CORES][GP_MAX_POS];
};

struct gp_rng {
	uint64_t s;
};

uint64_t gp_rand(struct gp_rng *r);
int64_t gp_range(struct gp_rng *r, int64_t lo, int64_t hi);

const char *gp_lane(unsigned pipe);
const char *gp_flag_name(unsigned pipe);   /* as a flag's detail spells it (VEC) */
const char *gp_named(unsigned pipe);       /* as summary.json's wait pairs name it */
unsigned gp_family(unsigned pipe);         /* GP_VECTOR for the whole family */

/* gen_path_sim.c */
int gp_simulate(const struct gp_run *run, size_t c, int halve, struct gp_slot *out);
int gp_settle(struct gp_run *run, struct gp_rng *rng, long *fixes);
int gp_simulate_all(const struct gp_run *run, int halve, struct gp_slot *const *out);
int gp_truth(const struct gp_run *run, struct gp_truth *t);

/* gen_path_model.c */
int gp_model_spans(const struct gp_run *run, int halve, int64_t *spans);

/* gen_path_out.c */
int gp_write_trace(FILE *f, const struct gp_run *run);
void gp_write_truth(FILE *f, const struct gp_run *run, const struct gp_truth *t,
		    const char *suffix, int *first);

#endif
