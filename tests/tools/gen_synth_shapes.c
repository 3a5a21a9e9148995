/*
 * gen_synth_shapes.c - the producer and dense profiles of gen_synth
 * (the shapes SPEC §9's targets are measured on).
 *
 * producer (`--profile producer`): the current msopprof writer after
 *   realdata-notes §3. Every instruction slice carries a long `detail` and a
 *   `code` call stack (`\n`-joined frames, as a `-g` build writes), a
 *   `pc_addr`, and MTE transfers a `process_bytes` string; timestamps are
 *   float32 values printed as doubles, never rounded; MTE2 and CUBE/VECTOR
 *   instructions get `cache_time` and `ccu_time` companion slices sharing a
 *   `group_id`; one SET/WAIT pair per iteration (B/E records with a simulator
 *   id and an s/t flow), half of them waited on by SCALAR; SCALAR-heavy (8
 *   scalar instructions per iteration) with FLOWCTRL jumps and CACHEMISS
 *   records; counters at the end. Per iteration 5 of 25 events are kept
 *   (20 %), ~250 bytes per event. The API_INSTR block is small (one row per
 *   instruction kind).
 * dense (`--profile dense`): the older, shorter writer (A2 samples: no
 *   `code`, no `cname`, times rounded to 3 decimals and printed short), 7 of
 *   20 events per iteration kept (35 %), ~130 bytes per event, and an
 *   API_INSTR block of 50/700 of the size (~50 MB for a ~700 MB dump), its
 *   rows shaped like the synth profile's (per-core Cycles, Instructions
 *   Executed and Vector Utilization Percentage arrays), one per static pc.
 *
 * Both keep the synth profile's layout: a SOURCE block, one TRACE block of
 * blocks of one cube and two vector cores (cores shuffled, a core's slices in
 * end-tick order, then its flag records), the API_INSTR block last. Each is
 * a pure function of the size and the seed.
 */
#include <stdlib.h>
#include <string.h>

#include "gen_synth.h"

/* How the writers differ. */
struct style {
	int producer;     /* code, cname, group_id, companions, float32 times */
	int plain_flags;  /* SET/WAIT B/E records without id, and no s/t flow */
	int every_core;   /* API_INSTR rows executed on every core */
	unsigned blocks;  /* blocks of three cores (0: as many as the size takes) */
};

#define STACK_MM "kernels/matmul_custom/op_kernel/matmul_custom.cpp:142\\nlib/matmul/matmul_impl.h:1187\\nimpl/kernel_operator_mm_intf_impl.h:"
#define STACK_VEC "kernels/add_custom/op_kernel/add_custom.cpp:87\\nimpl/kernel_operator_vec_binary_intf_impl.h:"
#define STACK_SC "kernels/add_custom/op_kernel/add_custom.cpp:"

static const struct op p_cube[] = {
	{ "MOV_OUT_TO_L1_MULTI_ND2NZ", "MTE2", "thread_state_iowait",
	  "Src:OUT,Dst:L1,XD:X4=0,XN:X25=0x13b41600,XM:X7=0x40000000001000,XT:X6=0x80,Dtype:B16,Id:663id:72",
	  "65536", 990, 0x10d0d168, STACK_MM "412\\nimpl/dav_c220/kernel_operator_data_copy_impl.h:233" },
	{ "LOAD_2Dv2", "MTE1", "thread_state_running",
	  "Src:L1,Dst:L0A,XD:X8=0,XN:X9=0x4000,XM:X10=0x10001,Dtype:F16,Id:669id:85", NULL, 120,
	  0x10d0d180, STACK_MM "318\\nimpl/dav_c220/kernel_operator_mm_load2d_impl.h:95" },
	{ "MMAD", "CUBE", "background_memory_dump",
	  "dtype:BF16F32XD:0x0XN:0x0XM:0x0XT:0xa000000040080010id:431,M:128,N:256,K:64", NULL, 375,
	  0x10d0d198, STACK_MM "501\\nimpl/dav_c220/kernel_operator_mm_impl.h:71" },
	{ "FIX_L0C_TO_DST", "FIXP", "thread_state_unknown",
	  "Src:L0C,Dst:OUT,XD:X12=0x0,XN:X13=0x0,XM:X14=0x800100,Dtype:F32,Id:440", "131072", 556,
	  0x10d0d1b4, STACK_MM "633\\nimpl/dav_c220/kernel_operator_fixpipe_impl.h:164" },
	{ "MOVK", "SCALAR", "startup", "XD:X29=0x107f80,IMM:0x10,UIMM:0x1,", NULL, 2, 0x10d0d004,
	  STACK_SC "51" },
	{ "LD_XD_XN_IMM", "SCALAR", "startup", "XD:X3=0x0,XN:X2=0x1130a000,IMM:0x8,", NULL, 3,
	  0x10d0d00c, STACK_SC "58" },
	{ "ADD_XD_XN_XM", "SCALAR", "startup", "XD:X5=0x40,XN:X5=0x0,XM:X6=0x40,", NULL, 1,
	  0x10d0d010, STACK_SC "63" },
	{ "CMP", "SCALAR", "startup", "XN:X5=0x40,XM:X7=0x1000,", NULL, 1, 0x10d0d014, STACK_SC "63" },
	{ "JUMP", "FLOWCTRL", "cq_build_passed", "IMM:0x40,", NULL, 0, 0x10d0d018, STACK_SC "64" },
	{ "JUMPC", "FLOWCTRL", "cq_build_passed", "IMM:0xffffffc0,", NULL, 0, 0x10d0d01c,
	  STACK_SC "64" },
};

static const struct op p_vec[] = {
	{ "MOV_OUT_TO_UB", "MTE2", "thread_state_iowait",
	  "Src:OUT,Dst:UB,XD:X0=0,XN:X1=0x10533e38,XM:X5=0x10010,XT:X6=0x0,Dtype:F16,id:2", "32768", 285,
	  0x1130a064, STACK_VEC "52\\nimpl/dav_c220/kernel_operator_data_copy_impl.h:118" },
	{ "VADD", "VECTOR", "cq_build_failed",
	  "XD:X16=0x400,XN:X13=0,XM:X14=0x200,XT:X8=0x100080808010101,Dtype:F16,Id:517", NULL, 24,
	  0x1130a7b4, STACK_VEC "61\\nimpl/dav_c220/kernel_operator_vec_binary_impl.h:40" },
	{ "VMULS", "VECTOR", "cq_build_failed",
	  "XD:X16=0x400,XN:X13=0,XT:X8=0x100080808010101,Dtype:F16,Id:518", NULL, 40, 0x1130a7c0,
	  STACK_VEC "66\\nimpl/dav_c220/kernel_operator_vec_scalar_impl.h:77" },
	{ "MOV_UB_TO_OUT", "MTE3", "rail_response",
	  "Src:UB,Dst:OUT,XD:X13=0x11304800,XN:X15=0x400,XM:X14=0x80010,Dtype:F16,id:8", "32768", 386,
	  0x1130a420, STACK_VEC "73\\nimpl/dav_c220/kernel_operator_data_copy_impl.h:141" },
	{ "LD_XD_XN_IMM", "SCALAR", "startup", "XD:X3=0x0,XN:X2=0x1130a000,IMM:0x8,", NULL, 3,
	  0x1130a00c, STACK_SC "40" },
	{ "MOVK", "SCALAR", "startup", "XD:X29=0x107f80,IMM:0x10,UIMM:0x1,", NULL, 2, 0x1130a004,
	  STACK_SC "41" },
	{ "ADD_XD_XN_XM", "SCALAR", "startup", "XD:X5=0x40,XN:X5=0x0,XM:X6=0x40,", NULL, 1,
	  0x1130a010, STACK_SC "44" },
	{ "CMP", "SCALAR", "startup", "XN:X5=0x40,XM:X7=0x1000,", NULL, 1, 0x1130a014, STACK_SC "44" },
	{ "JUMP", "FLOWCTRL", "cq_build_passed", "IMM:0x40,", NULL, 0, 0x1130a018, STACK_SC "45" },
	{ "JUMPC", "FLOWCTRL", "cq_build_passed", "IMM:0xffffffc0,", NULL, 0, 0x1130a01c,
	  STACK_SC "45" },
};

/* For the producer-ccu shape (gen_synth_heavy.c), which reuses them. */
const struct op *const synth_producer_cube = p_cube, *const synth_producer_vec = p_vec;


/* Companion slices: detail NULL marks them; one pair per companion pipe
   (SYNTH_PAIR_*: MTE2, CUBE, VECTOR and, for producer-ccu, SCALAR). */
const struct op synth_companions[] = {
	{ "cache_time", "MTE2", "thread_state_iowait", NULL, NULL, 4, 0, NULL },
	{ "ccu_time", "MTE2", "thread_state_iowait", NULL, NULL, 2, 0, NULL },
	{ "cache_time", "CUBE", "background_memory_dump", NULL, NULL, 4, 0, NULL },
	{ "ccu_time", "CUBE", "background_memory_dump", NULL, NULL, 2, 0, NULL },
	{ "cache_time", "VECTOR", "cq_build_failed", NULL, NULL, 4, 0, NULL },
	{ "ccu_time", "VECTOR", "cq_build_failed", NULL, NULL, 2, 0, NULL },
	{ "cache_time", "SCALAR", "startup", NULL, NULL, 2, 0, NULL },
	{ "ccu_time", "SCALAR", "startup", NULL, NULL, 1, 0, NULL },
};

static const struct op d_cube[] = {
	{ "MOV_OUT_TO_L1", "MTE2", NULL, "Src:OUT,Dst:L1,XN:X25=0x13b41600,Id:63", "16384", 410, 0x10d0d168, NULL },
	{ "LOAD_2D", "MTE1", NULL, "Src:L1,Dst:L0A,XN:X9=0x4000,Id:69", NULL, 60, 0x10d0d180, NULL },
	{ "MMAD", "CUBE", NULL, "dtype:F16F32,XT:0xa0000400,id:31", NULL, 96, 0x10d0d198, NULL },
	{ "FIX_L0C_TO_DST", "FIXP", NULL, "Src:L0C,Dst:OUT,Id:40", "8192", 120, 0x10d0d1b4, NULL },
	{ "MOVK", "SCALAR", NULL, "XD:X29=0x107f80,", NULL, 2, 0x10d0d004, NULL },
	{ "JUMP", "FLOWCTRL", NULL, "IMM:0x40,", NULL, 0, 0x10d0d008, NULL },
	{ "BAR", "CUBE", NULL, "", NULL, 1, 0x10d0d1a0, NULL },
};

static const struct op d_vec[] = {
	{ "MOV_OUT_TO_UB", "MTE2", NULL, "Src:OUT,Dst:UB,XN:X1=0x10533e38,id:2", "4096", 90, 0x1130a064, NULL },
	{ "VADD", "VECTOR", NULL, "XD:X16=0x400,XN:X13=0,Dtype:F16,Id:517", NULL, 8, 0x1130a7b4, NULL },
	{ "VMULS", "VECTOR", NULL, "XD:X16=0x400,XN:X13=0,Dtype:F16,Id:518", NULL, 10, 0x1130a7c0, NULL },
	{ "MOV_UB_TO_OUT", "MTE3", NULL, "Src:UB,Dst:OUT,XN:X15=0x400,id:8", "4096", 110, 0x1130a420, NULL },
	{ "LD_XD_XN_IMM", "SCALAR", NULL, "XD:X3=0x0,IMM:0x8,", NULL, 3, 0x1130a00c, NULL },
	{ "JUMP", "FLOWCTRL", NULL, "IMM:0x40,", NULL, 0, 0x1130a010, NULL },
	{ "BAR", "VECTOR", NULL, "", NULL, 1, 0x1130a7a0, NULL },
};

/* An instruction and (producer) its two companions just before it. */
static void add_grouped(struct core *c, uint64_t start, const struct op *op,
			const struct op *pair, unsigned *group)
{
	synth_add_slice(c, start, op);
	if (pair == NULL)
		return;
	c->slices[c->nslices - 1].group = ++*group;
	synth_add_slice(c, start > 6 ? start - 6 : 0, &pair[0]);
	c->slices[c->nslices - 1].group = *group;
	synth_add_slice(c, start > 2 ? start - 2 : 0, &pair[1]);
	c->slices[c->nslices - 1].group = *group;
}

static uint64_t producer_cube(struct gen *g, struct core *c, uint64_t t, unsigned *group)
{
	uint64_t load_end = t + p_cube[0].cycles, l1 = load_end + 3;
	uint64_t mm = l1 + 22 + p_cube[1].cycles + 2, fix = mm + p_cube[2].cycles + 2;

	add_grouped(c, t, &p_cube[0], &synth_companions[0], group);
	if (synth_rnd(g) % 2)
		synth_add_flag(c, load_end, l1, "MTE2", "MTE1", "PIPE:MTE2,TRIGGERPIPE:MTE1,FLAGID:0,",
			       "PIPE:MTE2,TRIGGERPIPE:MTE1,FLAGID:0,");
	else
		synth_add_flag(c, load_end, load_end + 9, "MTE2", "SCALAR",
			       "PIPE:MTE2,TRIGGERPIPE:SCALAR,FLAGID:3,",
			       "PIPE:MTE2,TRIGGERPIPE:SCALAR,FLAGID:3,");
	synth_add_slice(c, l1, &p_cube[1]);
	synth_add_slice(c, l1 + 22, &p_cube[1]);
	add_grouped(c, mm, &p_cube[2], &synth_companions[2], group);
	synth_add_slice(c, fix, &p_cube[3]);
	for (unsigned j = 0; j < 8; j++)
		synth_add_slice(c, t + 4u * j, &p_cube[4 + j % 4]);
	synth_add_slice(c, t + 34, &p_cube[8]);
	synth_add_slice(c, t + 36, &p_cube[9]);
	return t + p_cube[0].cycles + 40 + synth_rnd(g) % 64;
}

static uint64_t producer_vec(struct gen *g, struct core *c, uint64_t t, unsigned *group)
{
	uint64_t load_end = t + p_vec[0].cycles, v = load_end + 3, store = v + 64 + 24 + 3;

	add_grouped(c, t, &p_vec[0], &synth_companions[0], group);
	if (synth_rnd(g) % 2)
		synth_add_flag(c, load_end, v, "MTE2", "VECTOR", "PIPE:MTE2,TRIGGERPIPE:VEC,FLAGID:0,",
			       "PIPE:MTE2,TRIGGERPIPE:VEC,FLAGID:0,");
	else
		synth_add_flag(c, load_end, load_end + 7, "MTE2", "SCALAR",
			       "PIPE:MTE2,TRIGGERPIPE:SCALAR,FLAGID:2,",
			       "PIPE:MTE2,TRIGGERPIPE:SCALAR,FLAGID:2,");
	add_grouped(c, v, &p_vec[1], &synth_companions[4], group);
	synth_add_slice(c, v + 24, &p_vec[2]);
	synth_add_slice(c, v + 64, &p_vec[1]);
	synth_add_slice(c, store, &p_vec[3]);
	for (unsigned j = 0; j < 8; j++)
		synth_add_slice(c, t + 4u * j, &p_vec[4 + j % 4]);
	synth_add_slice(c, t + 34, &p_vec[8]);
	synth_add_slice(c, t + 36, &p_vec[9]);
	return t + p_vec[0].cycles + 30 + synth_rnd(g) % 32;
}

static uint64_t dense_cube(struct gen *g, struct core *c, uint64_t t, unsigned *group)
{
	uint64_t load_end = t + d_cube[0].cycles, l1 = load_end + 3;
	uint64_t mm = l1 + 2 * 16 + d_cube[1].cycles + 2, fix = mm + 2 * d_cube[2].cycles + 2;

	(void)group;
	synth_add_slice(c, t, &d_cube[0]);
	synth_add_flag(c, load_end, l1, "MTE2", "MTE1", "PIPE:MTE2,TRIGGERPIPE:MTE1,FLAGID:0,",
		       "PIPE:MTE2,TRIGGERPIPE:MTE1,FLAGID:0,");
	for (unsigned j = 0; j < 3; j++)
		synth_add_slice(c, l1 + 16u * j, &d_cube[1]);
	synth_add_slice(c, mm, &d_cube[2]);
	synth_add_slice(c, mm + d_cube[2].cycles, &d_cube[2]);
	synth_add_slice(c, mm + 2 * d_cube[2].cycles - 1, &d_cube[6]);
	synth_add_slice(c, fix, &d_cube[3]);
	for (unsigned j = 0; j < 5; j++)
		synth_add_slice(c, t + 3u * j, &d_cube[4]);
	synth_add_slice(c, t + 16, &d_cube[5]);
	return t + d_cube[0].cycles + 20 + synth_rnd(g) % 32;
}

static uint64_t dense_vec(struct gen *g, struct core *c, uint64_t t, unsigned *group)
{
	uint64_t load_end = t + d_vec[0].cycles, v = load_end + 3, store = v + 5 * 10 + 2;

	(void)group;
	synth_add_slice(c, t, &d_vec[0]);
	synth_add_flag(c, load_end, v, "MTE2", "VECTOR", "PIPE:MTE2,TRIGGERPIPE:VEC,FLAGID:0,",
		       "PIPE:MTE2,TRIGGERPIPE:VEC,FLAGID:0,");
	for (unsigned j = 0; j < 5; j++)
		synth_add_slice(c, v + 10u * j, &d_vec[1 + j % 2]);
	synth_add_slice(c, store - 1, &d_vec[6]);
	synth_add_slice(c, store, &d_vec[3]);
	for (unsigned j = 0; j < 5; j++)
		synth_add_slice(c, t + 3u * j, &d_vec[4]);
	synth_add_slice(c, t + 16, &d_vec[5]);
	return t + d_vec[0].cycles + 15 + synth_rnd(g) % 16;
}

/* The older writer rounds to ns and prints the double short (10.512). */
static void put_time(FILE *f, const struct style *st, uint64_t cycles)
{
	char text[40];
	double us;

	if (st->producer) {
		synth_put_us(f, cycles, 0);
		return;
	}
	us = (double)(long long)((double)cycles / CLOCK_MHZ * 1000.0 + 0.5) / 1000.0;
	snprintf(text, sizeof(text), "%.15g", us);
	fputs(text, f);
	if (strpbrk(text, ".e") == NULL)
		fputs(".0", f);
}

static void emit_slice(struct gen *g, const struct style *st, const struct core *c,
		       const struct slice *s)
{
	const struct op *op = s->op;
	FILE *f = g->out;

	if (op->detail == NULL) {
		fprintf(f, ",{\"args\":{\"group_id\":%u}", s->group);
	} else {
		fputs(",{\"args\":{", f);
		if (st->producer)
			fprintf(f, "\"code\":\"%s\",", op->code);
		fprintf(f, "\"detail\":\"%s\"", op->detail);
		if (s->group != 0)
			fprintf(f, ",\"group_id\":%u", s->group);
		fprintf(f, ",\"pc_addr\":\"0x%x\"", op->pc);
		if (op->bytes != NULL)
			fprintf(f, ",\"process_bytes\":\"%s\"", op->bytes);
		fputc('}', f);
	}
	if (op->cname != NULL)
		fprintf(f, ",\"cname\":\"%s\"", op->cname);
	fputs(",\"dur\":", f);
	put_time(f, st, s->cycles);
	fprintf(f, ",\"name\":\"%s\",\"ph\":\"X\",\"pid\":\"%s\",\"tid\":\"%s\",\"ts\":",
		op->name, c->pid, op->pipe);
	put_time(f, st, s->start);
	fputc('}', f);
}

static void emit_record(struct gen *g, const struct style *st, const struct core *c,
			const char *name, char ph, const char *tid, const char *detail,
			unsigned id, uint64_t cycles)
{
	FILE *f = g->out;

	if (detail == NULL)
		fputs(",{\"args\":{}", f);
	else if (st->producer)
		fprintf(f, ",{\"args\":{\"code\":\"%s\",\"detail\":\"%s\",\"pc_addr\":\"0x10d0d478\"}",
			STACK_SC "77", detail);
	else
		fprintf(f, ",{\"args\":{\"detail\":\"%s\",\"pc_addr\":\"0x10d0d478\"}", detail);
	if (st->producer)
		fprintf(f, ",\"cname\":\"%s\"", name[0] == 'S' ? "black" : "yellow");
	if (!st->plain_flags)
		fprintf(f, ",\"id\":\"%s_%u\"", c->pid, id);
	fprintf(f, ",\"name\":\"%s\",\"ph\":\"%c\",\"pid\":\"%s\",\"tid\":\"%s\",\"ts\":",
		name, ph, c->pid, tid);
	put_time(f, st, cycles);
	fputc('}', f);
}

static void emit_flow(struct gen *g, const struct style *st, const struct core *c,
		      const struct flag *fl, const char *to, char ph)
{
	fprintf(g->out, ",{\"cat\":\"%sTo%s\",\"id\":\"%s_%u\",\"name\":\"flow\",\"ph\":\"%c\",\"pid\":\"%s\",\"tid\":\"%s\",\"ts\":",
		fl->from, to, c->pid, fl->id, ph, c->pid, ph == 's' ? fl->from : to);
	put_time(g->out, st, ph == 's' ? fl->set_end : fl->wait_end);
	fputc('}', g->out);
}

static void emit_flags(struct gen *g, const struct style *st, const struct core *c)
{
	for (size_t i = 0; i < c->nflags; i++) {
		const struct flag *fl = &c->flags[i];
		const char *to = strcmp(fl->to, "VEC") == 0 ? "VECTOR" : fl->to;

		/* The SET's B at the end tick of the work it waits for (gen_synth.c). */
		emit_record(g, st, c, "SET_FLAG", 'B', fl->from, fl->from_detail, fl->id, fl->set_end);
		emit_record(g, st, c, "SET_FLAG", 'E', fl->from, NULL, fl->id, fl->set_end + 1);
		emit_record(g, st, c, "WAIT_FLAG", 'B', to, fl->to_detail, fl->id, fl->wait_begin);
		emit_record(g, st, c, "WAIT_FLAG", 'E', to, NULL, fl->id, fl->wait_end);
		if (st->plain_flags)
			continue;
		emit_flow(g, st, c, fl, to, 's');
		emit_flow(g, st, c, fl, to, 't');
	}
}

/* One core: its iterations, its slices in end-tick order, its flags, then
   a CACHEMISS record per 16 iterations, spread evenly over the iterations'
   ticks so that a dropped lane never outlasts the core's work (a miss past
   the last instruction would stretch the core's span and its critical
   path); returns the last slice's start. */
static uint64_t emit_core(struct gen *g, const struct style *st, struct core *c,
			  synth_iteration_fn *iterate, unsigned iterations, uint64_t t0)
{
	uint64_t t = t0;
	unsigned group = 0;

	c->nslices = c->nflags = 0;
	c->next_id = 0;
	for (unsigned i = 0; i < iterations; i++)
		t = iterate(g, c, t, &group);
	qsort(c->slices, c->nslices, sizeof(*c->slices), synth_slice_cmp);
	for (size_t i = 0; i < c->nslices; i++)
		emit_slice(g, st, c, &c->slices[i]);
	emit_flags(g, st, c);
	for (unsigned i = 0; i < iterations; i += 16) {
		fprintf(g->out, ",{\"args\":{\"detail\":\"addr:0x%x,\",\"pc_addr\":\"0x10d0d000\"},\"dur\":",
			0x10d0d000u + i);
		put_time(g->out, st, 30);
		fprintf(g->out, ",\"name\":\"ICACHE_MISS\",\"ph\":\"X\",\"pid\":\"%s\",\"tid\":\"CACHEMISS\",\"ts\":", c->pid);
		put_time(g->out, st, t0 + (t - t0) * i / iterations);
		fputc('}', g->out);
	}
	return c->nslices > 0 ? c->slices[c->nslices - 1].start : 0;
}

/* The TRACE block up to `target` bytes of file; returns its block count. */
static int emit_trace(struct gen *g, const struct style *st, uint64_t target,
		      unsigned iterations, synth_iteration_fn *cube, synth_iteration_fn *vec,
		      unsigned *blocks)
{
	struct core core;
	uint64_t t_end = 0;
	long at = ftell(g->out);

	memset(&core, 0, sizeof(core));
	synth_header(g->out, 0, TRACE_TYPE, 0, 0x5a);
	fputs("{\"displayTimeUnit\":\"ns\",\"profilingType\":\"op\",\"schemaVersion\":2,\"traceEvents\":["
	      "{\"args\":{\"sort_index\":1},\"name\":\"process_sort_index\",\"ph\":\"M\",\"pid\":\"core0.cubecore0\",\"tid\":\"NA\"}",
	      g->out);
	*blocks = 0;
	while (st->blocks ? *blocks < st->blocks : (uint64_t)ftell(g->out) < target) {
		unsigned order = (unsigned)(synth_rnd(g) % 3);

		for (unsigned k = 0; k < 3; k++) {
			unsigned which = (order + k) % 3;
			uint64_t t0 = 7000 + synth_rnd(g) % 500, last;

			if (which == 0)
				snprintf(core.pid, sizeof(core.pid), "core%u.cubecore0", *blocks);
			else
				snprintf(core.pid, sizeof(core.pid), "core%u.veccore%u", *blocks, which - 1);
			last = emit_core(g, st, &core, which == 0 ? cube : vec, iterations, t0);
			if (last > t_end)
				t_end = last;
		}
		++*blocks;
	}
	synth_emit_counters(g, t_end);
	fputs("]}", g->out);
	free(core.slices);
	free(core.flags);
	return synth_close_block(g, at, TRACE_TYPE, 0x5a);
}

/* One API_INSTR row: per-core arrays over `cores` cores, busy on the cube
   cores (index % 3 == 0) or on the vector ones. */
static void instr_row(struct gen *g, const struct style *st, int first, unsigned pc,
		      const struct op *op, int on_cube, unsigned cores, unsigned long long execs)
{
	FILE *f = g->out;

	fprintf(f, "%s{\"Address\":\"0x%x\",\"AscendC Inner Code\":\"\",\"Cycles\":[",
		first ? "" : ",", pc);
	for (unsigned b = 0; b < cores; b++)
		fprintf(f, "%s%llu", b ? "," : "",
			st->every_core || (b % 3 == 0) == on_cube ? (execs + b) * op->cycles : 0);
	fputs("],\"Instructions Executed\":[", f);
	for (unsigned b = 0; b < cores; b++)
		fprintf(f, "%s%llu", b ? "," : "", st->every_core || (b % 3 == 0) == on_cube ? execs + b : 0);
	fprintf(f, "],\"Pipe\":\"%s\",\"Source\":\"%s\",\"Vector Utilization Percentage\":[",
		op->pipe, op->name);
	for (unsigned b = 0; b < cores; b++)
		fprintf(f, "%s%s", b ? "," : "", !on_cube && b % 3 ? "87.5" : "-1");
	fputs("]}", f);
}

/* The API_INSTR block: the producer has a row per instruction kind; dense
   adds rows at new pcs until the block holds `size` bytes. */
static int emit_instr(struct gen *g, const struct style *st, unsigned blocks, uint64_t size,
		      const struct op *cube, size_t ncube, const struct op *vec, size_t nvec)
{
	unsigned cores = 3 * blocks, pc = 0x11400000;
	long at = ftell(g->out);
	uint64_t end = (uint64_t)at + size;
	size_t i;

	synth_header(g->out, 0, INSTR_TYPE, 0, 0);
	fputs("{\"Cores\":[", g->out);
	for (unsigned b = 0; b < blocks; b++)
		fprintf(g->out, "%s\"core%u.cubecore0\",\"core%u.veccore0\",\"core%u.veccore1\"",
			b ? "," : "", b, b, b);
	fputs("],\"Instructions\":[", g->out);
	for (i = 0; i < ncube; i++)
		instr_row(g, st, i == 0, cube[i].pc, &cube[i], 1, cores, 1000 + synth_rnd(g) % 1000);
	for (i = 0; i < nvec; i++)
		instr_row(g, st, 0, vec[i].pc, &vec[i], 0, cores, 1000 + synth_rnd(g) % 1000);
	for (i = 0; (uint64_t)ftell(g->out) < end; i++, pc += 4) {
		int on_cube = i % 2 == 0;
		const struct op *op = on_cube ? &cube[i / 2 % ncube] : &vec[i / 2 % nvec];

		instr_row(g, st, 0, pc, op, on_cube, cores, 1 + synth_rnd(g) % 100000);
	}
	fputs("],\"Instructions Dtype\":{\"Instructions\":{\"Address\":3,\"AscendC Inner Code\":3,"
	      "\"Cycles\":1,\"Instructions Executed\":1,\"Pipe\":3,\"Source\":3,"
	      "\"Vector Utilization Percentage\":4}}}", g->out);
	return synth_close_block(g, at, INSTR_TYPE, 0);
}

static unsigned iterations_for(uint64_t trace_bytes, uint64_t per_block_iteration)
{
	/* About ten blocks of three cores reach the size. */
	uint64_t n = trace_bytes / 10 / per_block_iteration;

	return n < 20 ? 20 : (unsigned)n;
}

int synth_shape_producer(struct gen *g, uint64_t target)
{
	const struct style st = { 1, 0, 0, 0 };
	unsigned blocks;

	synth_emit_source(g);
	if (emit_trace(g, &st, target, iterations_for(target, 19000), producer_cube,
		       producer_vec, &blocks) != 0)
		return -1;
	return emit_instr(g, &st, blocks, g->instr_bytes, p_cube, sizeof(p_cube) / sizeof(*p_cube), p_vec,
			  sizeof(p_vec) / sizeof(*p_vec));
}

int synth_shape_dense(struct gen *g, uint64_t target)
{
	const struct style st = { 0, 0, 0, 0 };
	uint64_t trace_target = target - target / 14;   /* API_INSTR: 50 of 700 MB */
	uint64_t instr_size = g->instr_bytes ? g->instr_bytes : target / 14;
	unsigned blocks;

	synth_emit_source(g);
	if (emit_trace(g, &st, trace_target, iterations_for(trace_target, 8000), dense_cube,
		       dense_vec, &blocks) != 0)
		return -1;
	return emit_instr(g, &st, blocks, instr_size, d_cube, sizeof(d_cube) / sizeof(*d_cube), d_vec,
			  sizeof(d_vec) / sizeof(*d_vec));
}

/* 24 cores; iterations sized by a block-iteration's bytes (measured). */
int synth_shape_dense_heavy(struct gen *g, uint64_t target)
{
	const struct style st = { 0, 1, 1, 8 };
	uint64_t trace_target = target - target / 712 * 55;   /* API_INSTR: 55 of 712 MB */
	uint64_t instr_size = g->instr_bytes ? g->instr_bytes : target / 712 * 55;
	unsigned blocks;

	synth_emit_source(g);
	if (emit_trace(g, &st, trace_target, iterations_for(trace_target * 10 / 8, 13900),
		       synth_iter_heavy_cube, synth_iter_heavy_vec, &blocks) != 0)
		return -1;
	return emit_instr(g, &st, blocks, instr_size, heavy_cube, heavy_ncube, heavy_vec, heavy_nvec);
}

int synth_shape_producer_ccu(struct gen *g, uint64_t target)
{
	const struct style st = { 1, 0, 0, 8 };
	unsigned blocks;

	synth_emit_source(g);
	if (emit_trace(g, &st, target, iterations_for(target * 10 / 8, 14900), synth_iter_ccu_cube,
		       synth_iter_ccu_vec, &blocks) != 0)
		return -1;
	return emit_instr(g, &st, blocks, g->instr_bytes, p_cube, sizeof(p_cube) / sizeof(*p_cube),
			  p_vec, sizeof(p_vec) / sizeof(*p_vec));
}
