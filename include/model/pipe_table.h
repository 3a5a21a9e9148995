/*
 * pipe_table: what the converter knows about each pipe (lane) name: its
 * place in the dataflow order, its label and colour, and whether it is a
 * pipeline lane, the scalar lane, or noise that is always dropped.
 */
#ifndef CSIM_PIPE_TABLE_H
#define CSIM_PIPE_TABLE_H

#include <stddef.h>

enum csim_pipe_class {
	CSIM_PIPE_PIPELINE,   /* MTE2, MTE1, CUBE, VECTOR, FIXP, MTE3 */
	CSIM_PIPE_SCALAR,     /* SCALAR, SCALARLDST: kept with --keep-scalar */
	CSIM_PIPE_NOISE,      /* CACHEMISS, FLOWCTRL, ALL: always dropped */
	CSIM_PIPE_OTHER       /* any other name: kept, order 99 */
};

/* The lane of a pipe's cache_time/ccu_time companions: "<PIPE> cache". */
#define CSIM_PIPE_CACHE_SUFFIX " cache"

/* Lanes of pipes not in the table come after every known one, by name. */
#define CSIM_PIPE_ORDER_OTHER 1000

/* A lane's part in Ascend950's vector functions (SPEC §13). */
enum csim_vf_role {
	CSIM_VF_NONE,
	CSIM_VF_LAUNCH,       /* PUSHQ: the VF instruction launching a function */
	CSIM_VF_MICRO_OP      /* RVEC*: its micro-ops, started while the VF runs */
};

struct csim_pipe_info {
	int order;
	const char *label;    /* NULL: the lane's own name; WARP_n: the label
				 is followed by " n" (csim_pipe_label_number) */
	const char *cname;
	enum csim_pipe_class cls;
	int vector_family;    /* VECTOR, PUSHQ, RVEC*: a flag's VECTOR pipe means
				 any of them (SPEC §5.3; Ascend950) */
	enum csim_vf_role vf;
};

/*
 * The number a lane's label ends in: n of WARP_n ("SIMT warp n"), as the
 * digits of the name; NULL for every other pipe.
 */
const char *csim_pipe_label_number(const char *name, size_t n, size_t *len);

/* Whether name is a companion lane ("<PIPE> cache"). */
int csim_pipe_is_cache_lane(const char *name, size_t n);

/*
 * Never NULL: unknown names get the "other pipe" entry. A companion lane
 * "<PIPE> cache" gets its pipe's entry (order, class, cname), so it sorts
 * right after the pipe's own lanes.
 */
const struct csim_pipe_info *csim_pipe_lookup(const char *name, size_t n);

/*
 * Canonical spelling of a pipe name as used for lanes: FIXPIPE is FIXP and
 * VEC (the short name in flag details) is VECTOR. Returns name itself when
 * no alias applies.
 */
const char *csim_pipe_canonical(const char *name, size_t n, size_t *out_n);

#endif
