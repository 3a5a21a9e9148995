/*
 * gen_synth.h - what gen_synth.c (the synth profile, the block writer),
 * gen_synth_shapes.c (the other profiles' writer) and gen_synth_heavy.c
 * (the dense-heavy and producer-ccu instructions) share.
 */
#ifndef GEN_SYNTH_H
#define GEN_SYNTH_H

#include <stdint.h>
#include <stdio.h>

#define CLOCK_MHZ 1850.0
#define TRACE_TYPE 2
#define INSTR_TYPE 4
#define SOURCE_TYPE 1
#define PATH_SIZE 4096

enum core_kind { CUBE_CORE, VEC_CORE };

/* One instruction kind: name, pipe, duration in cycles, pc, detail text;
   `code` is the source call stack (the producer profile only). */
struct op {
	const char *name, *pipe, *cname, *detail, *bytes;
	unsigned cycles;
	unsigned pc;
	const char *code;
};

/* `group` ties an instruction to its cache_time/ccu_time companions (0: none). */
struct slice { uint64_t start, cycles; const struct op *op; unsigned group; };
struct flag {
	uint64_t set_end, wait_begin, wait_end;
	const char *from, *to, *from_detail, *to_detail;
	unsigned id;
};

struct core {
	char pid[48];
	struct slice *slices;
	size_t nslices, cap;
	struct flag *flags;
	size_t nflags, fcap;
	unsigned next_id;
};

struct gen {
	FILE *out;
	uint64_t rng;
	uint64_t written;
	unsigned long long op_count[2][16];   /* executions per op, for API_INSTR */
	uint64_t instr_bytes;   /* --instr-mb: the API_INSTR's size (0: the profile's) */
};

uint64_t synth_rnd(struct gen *g);
void *synth_grow(void *p, size_t *cap, size_t n, size_t elem);
void synth_add_slice(struct core *c, uint64_t start, const struct op *op);
void synth_add_flag(struct core *c, uint64_t set_end, uint64_t wait_end,
		    const char *from, const char *to, const char *fd, const char *td);
void synth_put_us(FILE *f, uint64_t cycles, int round3);
int synth_slice_cmp(const void *a, const void *b);
void synth_emit_counters(struct gen *g, uint64_t end_cycles);
void synth_header(FILE *f, uint64_t size, unsigned type, unsigned pad,
		  unsigned version);
int synth_close_block(struct gen *g, long header_at, unsigned type,
		      unsigned version);
void synth_emit_source(struct gen *g);

/* The producer and dense profiles (gen_synth_shapes.c): write a whole dump
   of about `target` bytes to g->out (header and blocks); 0 ok, -1 I/O. */
int synth_shape_producer(struct gen *g, uint64_t target);
int synth_shape_dense(struct gen *g, uint64_t target);
int synth_shape_dense_heavy(struct gen *g, uint64_t target);
int synth_shape_producer_ccu(struct gen *g, uint64_t target);

/* One iteration of a core's loop from tick t; returns the next one's start.
   `group` numbers cache_time/ccu_time companions (producer writers). */
typedef uint64_t synth_iteration_fn(struct gen *g, struct core *c, uint64_t t, unsigned *group);

/* The dense-heavy shape's instructions (gen_synth_heavy.c); the producer's
   and the companions (gen_synth_shapes.c), which producer-ccu reuses. */
extern const struct op heavy_cube[], heavy_vec[], synth_companions[];
extern const size_t heavy_ncube, heavy_nvec;
extern const struct op *const synth_producer_cube, *const synth_producer_vec;
synth_iteration_fn synth_iter_heavy_cube, synth_iter_heavy_vec;
synth_iteration_fn synth_iter_ccu_cube, synth_iter_ccu_vec;

#endif
