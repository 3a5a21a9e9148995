/*
 * diag_build: how the diagnosis rules write what they find (diag_rules.h)
 * into a struct csim_diagnosis: a line per rule, and for each core the rule
 * holds on an entry with that core's numbers. Entries of a line are
 * contiguous, in the order the rule adds them (core order), and each
 * (rule, core) has at most one, which a later rule can look up to fold a
 * consequence into it.
 */
#ifndef CSIM_DIAG_BUILD_H
#define CSIM_DIAG_BUILD_H

#include <stddef.h>
#include <stdint.h>

#include "model/model.h"

struct csim_diag_build {
	struct csim_diagnosis *d;    /* room for every rule on every core */
	size_t ncores;
	size_t *slot;                /* [rule * ncores + core]: index in d->at,
					or SIZE_MAX: none */
	struct csim_diag *line;      /* the line being built; NULL: none */
	struct csim_diag_at *at;     /* where numbers go: an entry, or NULL:
					the line itself */
};

/* Empties d and makes room in it; returns 0, or -1 out of memory (d empty). */
int csim_diag_build_init(struct csim_diag_build *b, struct csim_diagnosis *d, size_t ncores);

/* Frees the builder's own memory; d keeps the lines. */
void csim_diag_build_release(struct csim_diag_build *b);

/* Starts the line of `rule`; core: the core its own numbers describe, or CSIM_DIAG_ALL. */
void csim_diag_build_line(struct csim_diag_build *b, enum csim_diag_rule rule, size_t core);

/* Adds core (index in summary.cores) to the line: numbers go to it from now on. */
void csim_diag_build_core(struct csim_diag_build *b, size_t core);

/* Numbers go to the line itself again. */
void csim_diag_build_own(struct csim_diag_build *b);

/* Ends the line; one holding no core is dropped unless keep_empty. */
void csim_diag_build_end(struct csim_diag_build *b, int keep_empty);

void csim_diag_build_int(struct csim_diag_build *b, enum csim_diag_fig fig, int64_t v);
void csim_diag_build_pipe(struct csim_diag_build *b, enum csim_diag_fig fig, uint32_t pipe);
void csim_diag_build_pid(struct csim_diag_build *b, enum csim_diag_fig fig, uint32_t pid);

/* Appends a number to an entry found earlier (a folded consequence). */
void csim_diag_build_add(struct csim_diag_at *at, enum csim_diag_fig fig, int kind, int64_t v);

/* The entry of (rule, core), or NULL when the rule does not hold there. */
struct csim_diag_at *csim_diag_build_find(const struct csim_diag_build *b,
					  enum csim_diag_rule rule, size_t core);

#endif
