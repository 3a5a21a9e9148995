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

struct csim_pipe_info {
	int order;
	const char *label;    /* NULL: the lane's own name */
	const char *cname;
	enum csim_pipe_class cls;
};

/* Never NULL: unknown names get the "other pipe" entry. */
const struct csim_pipe_info *csim_pipe_lookup(const char *name, size_t n);

/*
 * Canonical spelling of a pipe name as used for lanes: FIXPIPE is FIXP and
 * VEC (the short name in flag details) is VECTOR. Returns name itself when
 * no alias applies.
 */
const char *csim_pipe_canonical(const char *name, size_t n, size_t *out_n);

#endif
