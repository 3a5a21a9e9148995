/*
 * gen_synth - write a realistic synthetic visualize_data.bin of a given size.
 *
 *   gen_synth [--seed N] [--profile synth|producer|dense|dense-heavy|producer-ccu]
 *             [--instr-mb N] SIZE_MB OUT
 *
 * The benchmark and the scale tests need dumps of 70 MB to gigabytes; real
 * ones cannot be committed. This writes the shape real simulator output has
 * (realdata-notes §3): blocks of one cube core and two vector cores
 * (coreB.cubecore0, coreB.veccore0, coreB.veccore1); software-pipelined
 * MTE2 -> MTE1 -> CUBE -> FIXP work on the cube core and MTE2 -> VECTOR ->
 * MTE3 on the vector cores; a SET_FLAG/WAIT_FLAG pair with a simulator id and
 * an s/t flow for every hand-off (about one flag per seven events), a share
 * of them into SCALAR; float32-style timestamps (X times rounded to 3
 * decimals first, flag times not); noise lanes SCALAR, FLOWCTRL, CACHEMISS
 * and BAR; per core, slices in end-tick order followed by the core's flag
 * records, cores in a shuffled order, counters last; keys sorted and compact
 * as nlohmann::json writes them. A SOURCE block comes first and an API_INSTR
 * block last. The output is a pure function of SIZE_MB and the seed.
 *
 * Profiles: `synth` (the default) is the shape above, unchanged since the
 * digests of tests/bench/digest_20mb.txt were recorded; `producer` (the
 * current msopprof writer: ~250 B per event, long `code`/`detail`, 20 % of
 * events kept) and `dense` (short events, 35 % kept, an API_INSTR of 1/14
 * of the file) are the benchmark's shapes, written by gen_synth_shapes.c and
 * described in its header; `dense-heavy` and `producer-ccu` (24 cores: a
 * dense kernel whose outputs are as large as its input, and a producer
 * dump made mostly of cache_time/ccu_time companions) are described in
 * gen_synth_heavy.c's. --instr-mb N (producer and dense) makes the
 * API_INSTR block about N MB (more rows) and leaves the rest of the dump as
 * SIZE_MB would have it, so its size varies alone (memory that
 * does not grow with the API_INSTR).
 *
 * Exit status: 0 ok, 1 I/O error, 2 usage.
 */
#include <stdlib.h>
#include <string.h>

#include "gen_synth.h"

static const struct op cube_ops[] = {
	{ "MOV_OUT_TO_L1_MULTI_ND2NZ", "MTE2", "thread_state_iowait",
	  "Src:OUT,Dst:L1,XD:X4=0,XN:X25=0x13b41600,XM:X7=0x40000000001000,XT:X6=0x80,Dtype:B16,Id:663id:72", "65536", 990, 0x10d0d168, NULL },
	{ "LOAD_2Dv2", "MTE1", "thread_state_running",
	  "Src:L1,Dst:L0A,XD:X8=0,XN:X9=0x4000,Dtype:F16,Id:669id:85", NULL, 120, 0x10d0d180, NULL },
	{ "MMAD", "CUBE", "background_memory_dump",
	  "dtype:BF16F32XD:0x0XN:0x0XM:0x0XT:0xa000000040080010id:431", NULL, 375, 0x10d0d198, NULL },
	{ "FIX_L0C_TO_DST", "FIXP", "thread_state_unknown",
	  "Src:L0C,Dst:OUT,XD:X12=0x0,XN:X13=0x0,Dtype:F32,Id:440", NULL, 556, 0x10d0d1b4, NULL },
	{ "MOV_SPR_XN", "FIXP", "thread_state_unknown", "XN:X10=0x0,", NULL, 556, 0x10d0d1b0, NULL },
	{ "MOVK", "SCALAR", "startup", "XD:X29=0x107f80,IMM:0x10,UIMM:0x1,", NULL, 2, 0x10d0d004, NULL },
	{ "JUMP", "FLOWCTRL", "cq_build_passed", "IMM:0x40,", NULL, 0, 0x10d0d008, NULL },
	{ "BAR", "CUBE", "background_memory_dump", "", NULL, 1, 0x10d0d1a0, NULL },
};

static const struct op vec_ops[] = {
	{ "MOV_OUT_TO_UB", "MTE2", "thread_state_iowait",
	  "Src:OUT,Dst:UB,XD:X0=0,XN:X1=0x10533e38,XM:X5=0x10010,id:2", "32768", 285, 0x1130a064, NULL },
	{ "VADD", "VECTOR", "cq_build_failed",
	  "XD:X16=0x400,XN:X13=0,XM:X14=0x200,XT:X8=0x100080808010101,Dtype:F16,Id:517", NULL, 24, 0x1130a7b4, NULL },
	{ "MOV_UB_TO_OUT", "MTE3", "rail_response",
	  "Src:UB,Dst:OUT,XD:X13=0x11304800,XN:X15=0x400,XM:X14=0x80010,id:8", "32768", 386, 0x1130a420, NULL },
	{ "VMULS", "VECTOR", "cq_build_failed",
	  "XD:X16=0x400,XN:X13=0,XT:X8=0x100080808010101,Dtype:F16,Id:518", NULL, 40, 0x1130a7c0, NULL },
	{ "LD_XD_XN_IMM", "SCALAR", "startup", "XD:X3=0x0,XN:X2=0x1130a000,IMM:0x8,", NULL, 3, 0x1130a00c, NULL },
	{ "JUMP", "FLOWCTRL", "cq_build_passed", "IMM:0x40,", NULL, 0, 0x1130a010, NULL },
};

uint64_t synth_rnd(struct gen *g)
{
	g->rng ^= g->rng >> 12;
	g->rng ^= g->rng << 25;
	g->rng ^= g->rng >> 27;
	return g->rng * 2685821657736338717ull;
}

void *synth_grow(void *p, size_t *cap, size_t n, size_t elem)
{
	if (n < *cap)
		return p;
	*cap = *cap ? *cap * 2 : 1024;
	p = realloc(p, *cap * elem);
	if (p == NULL) {
		fprintf(stderr, "gen_synth: out of memory\n");
		exit(1);
	}
	return p;
}

void synth_add_slice(struct core *c, uint64_t start, const struct op *op)
{
	c->slices = synth_grow(c->slices, &c->cap, c->nslices, sizeof(*c->slices));
	c->slices[c->nslices++] = (struct slice){ start, op->cycles, op, 0 };
}

void synth_add_flag(struct core *c, uint64_t set_end, uint64_t wait_end,
		     const char *from, const char *to, const char *fd, const char *td)
{
	c->flags = synth_grow(c->flags, &c->fcap, c->nflags, sizeof(*c->flags));
	c->flags[c->nflags++] = (struct flag){ set_end, wait_end > 40 ? wait_end - 40 : 0,
					       wait_end, from, to, fd, td, c->next_id++ };
}

/* µs as the producer prints them: float32, then the double's 17 digits. */
void synth_put_us(FILE *f, uint64_t cycles, int round3)
{
	double us = (double)cycles / CLOCK_MHZ;

	if (round3)
		us = (double)(long long)(us * 1000.0 + 0.5) / 1000.0;
	fprintf(f, "%.17g", (double)(float)us);
}

/* One cube-core iteration starting at t; returns the next iteration's start. */
static uint64_t cube_iteration(struct gen *g, struct core *c, uint64_t t)
{
	const struct op *mte2 = &cube_ops[0], *mte1 = &cube_ops[1];
	uint64_t load_end = t + mte2->cycles;
	uint64_t l1 = load_end + 3, cube_start, fix_start;

	synth_add_slice(c, t, mte2);
	synth_add_flag(c, load_end, l1, "MTE2", "MTE1", "PIPE:MTE2,TRIGGERPIPE:MTE1,FLAGID:0,",
		 "PIPE:MTE2,TRIGGERPIPE:MTE1,FLAGID:0,");
	/* Four L1->L0 loads issued 22 cycles apart: several in flight at once. */
	for (int j = 0; j < 4; j++)
		synth_add_slice(c, l1 + 22u * (unsigned)j, mte1);
	cube_start = l1 + 3 * 22 + mte1->cycles + 2;
	synth_add_flag(c, cube_start - 2, cube_start, "MTE1", "CUBE", "PIPE:MTE1,TRIGGERPIPE:CUBE,FLAGID:1,",
		 "PIPE:MTE1,TRIGGERPIPE:CUBE,FLAGID:1,");
	synth_add_slice(c, cube_start, &cube_ops[2]);
	if (synth_rnd(g) % 4 == 0)
		synth_add_slice(c, cube_start + cube_ops[2].cycles - 1, &cube_ops[7]);
	fix_start = cube_start + cube_ops[2].cycles + 2;
	synth_add_flag(c, fix_start - 2, fix_start, "CUBE", "FIXP", "PIPE:CUBE,TRIGGERPIPE:FIXP,FLAGID:2,",
		 "PIPE:CUBE,TRIGGERPIPE:FIXP,FLAGID:2,");
	synth_add_flag(c, fix_start + cube_ops[3].cycles, fix_start + cube_ops[3].cycles + 4,
		 "FIXP", "MTE2", "PIPE:FIXP,TRIGGERPIPE:MTE2,FLAGID:4,",
		 "PIPE:FIXP,TRIGGERPIPE:MTE2,FLAGID:4,");
	synth_add_slice(c, fix_start, &cube_ops[4]);
	synth_add_slice(c, fix_start, &cube_ops[3]);
	for (int j = 0; j < 3; j++)
		synth_add_slice(c, t + 5u * (unsigned)j, &cube_ops[5]);
	synth_add_slice(c, t + 20, &cube_ops[6]);
	if (synth_rnd(g) % 4 == 0)   /* the scalar unit waits for the load */
		synth_add_flag(c, load_end, load_end + 9, "MTE2", "SCALAR",
			 "PIPE:MTE2,TRIGGERPIPE:SCALAR,FLAGID:3,",
			 "PIPE:MTE2,TRIGGERPIPE:SCALAR,FLAGID:3,");
	/* Software pipelining: the next load starts before this one drains. */
	return t + mte2->cycles + 40 + synth_rnd(g) % 64;
}

static uint64_t vec_iteration(struct gen *g, struct core *c, uint64_t t)
{
	uint64_t load_end = t + vec_ops[0].cycles;
	uint64_t v = load_end + 3, store;

	synth_add_slice(c, t, &vec_ops[0]);
	synth_add_flag(c, load_end, v, "MTE2", "VECTOR", "PIPE:MTE2,TRIGGERPIPE:VEC,FLAGID:0,",
		 "PIPE:MTE2,TRIGGERPIPE:VEC,FLAGID:0,");
	synth_add_slice(c, v, &vec_ops[1]);
	synth_add_slice(c, v + 24, &vec_ops[3]);
	synth_add_slice(c, v + 64, &vec_ops[1]);
	store = v + 64 + 24 + 3;
	synth_add_flag(c, store - 3, store, "VECTOR", "MTE3", "PIPE:VEC,TRIGGERPIPE:MTE3,FLAGID:1,#V:0,",
		 "PIPE:VEC,TRIGGERPIPE:MTE3,FLAGID:1,#V:0,");
	synth_add_slice(c, store, &vec_ops[2]);
	/* Double buffering: the store frees a UB buffer for a later load. */
	synth_add_flag(c, store + vec_ops[2].cycles, store + vec_ops[2].cycles + 5, "MTE3", "MTE2",
		 "PIPE:MTE3,TRIGGERPIPE:MTE2,FLAGID:3,", "PIPE:MTE3,TRIGGERPIPE:MTE2,FLAGID:3,");
	synth_add_slice(c, t + 2, &vec_ops[4]);
	synth_add_slice(c, t + 6, &vec_ops[4]);
	synth_add_slice(c, t + 10, &vec_ops[5]);
	if (synth_rnd(g) % 3 == 0)
		synth_add_flag(c, load_end, load_end + 7, "MTE2", "SCALAR",
			 "PIPE:MTE2,TRIGGERPIPE:SCALAR,FLAGID:2,",
			 "PIPE:MTE2,TRIGGERPIPE:SCALAR,FLAGID:2,");
	return t + vec_ops[0].cycles + 30 + synth_rnd(g) % 32;
}

/* The producer sorts a core's instructions by end tick, then pc. */
int synth_slice_cmp(const void *a, const void *b)
{
	const struct slice *x = a, *y = b;
	uint64_t ex = x->start + x->cycles, ey = y->start + y->cycles;

	if (ex != ey)
		return ex < ey ? -1 : 1;
	return x->op->pc < y->op->pc ? -1 : x->op->pc > y->op->pc;
}

static void emit(struct gen *g, const char *text)
{
	fputs(text, g->out);
}

static void emit_slice(struct gen *g, const struct core *c, const struct slice *s)
{
	FILE *f = g->out;

	fprintf(f, ",{\"args\":{\"code\":\"\",\"detail\":\"%s\",\"pc_addr\":\"0x%x\"",
		s->op->detail, s->op->pc);
	if (s->op->bytes != NULL)
		fprintf(f, ",\"process_bytes\":\"%s\"", s->op->bytes);
	fprintf(f, "},\"cname\":\"%s\",\"dur\":", s->op->cname);
	synth_put_us(f, s->cycles, 1);
	fprintf(f, ",\"name\":\"%s\",\"ph\":\"X\",\"pid\":\"%s\",\"tid\":\"%s\",\"ts\":",
		s->op->name, c->pid, s->op->pipe);
	synth_put_us(f, s->start, 1);
	fputc('}', f);
}

static void emit_record(struct gen *g, const struct core *c, const char *name,
			char ph, const char *tid, const char *detail, unsigned id,
			uint64_t cycles)
{
	FILE *f = g->out;

	if (detail != NULL)
		fprintf(f, ",{\"args\":{\"code\":\"\",\"detail\":\"%s\",\"pc_addr\":\"0x10d0d478\"}", detail);
	else
		fprintf(f, ",{\"args\":{}");
	fprintf(f, ",\"cname\":\"%s\",\"id\":\"%s_%u\",\"name\":\"%s\",\"ph\":\"%c\",\"pid\":\"%s\",\"tid\":\"%s\",\"ts\":",
		name[0] == 'S' ? "black" : "yellow", c->pid, id, name, ph, c->pid, tid);
	synth_put_us(f, cycles, 0);
	fputc('}', f);
}

static const char *lane_of(const char *detail_pipe)
{
	return strcmp(detail_pipe, "VEC") == 0 ? "VECTOR" : detail_pipe;
}

static void emit_flags(struct gen *g, const struct core *c)
{
	for (size_t i = 0; i < c->nflags; i++) {
		const struct flag *fl = &c->flags[i];
		const char *to = lane_of(fl->to);

		/* The SET's B at the end tick of the work it waits for, as in
		   real traces (fixtures/scenarios/mix_kernel): SPEC §5.3. */
		emit_record(g, c, "SET_FLAG", 'B', fl->from, fl->from_detail, fl->id, fl->set_end);
		emit_record(g, c, "SET_FLAG", 'E', fl->from, NULL, fl->id, fl->set_end + 1);
		emit_record(g, c, "WAIT_FLAG", 'B', to, fl->to_detail, fl->id, fl->wait_begin);
		emit_record(g, c, "WAIT_FLAG", 'E', to, NULL, fl->id, fl->wait_end);
		fprintf(g->out, ",{\"cat\":\"%sTo%s\",\"id\":\"%s_%u\",\"name\":\"flow\",\"ph\":\"s\",\"pid\":\"%s\",\"tid\":\"%s\",\"ts\":",
			fl->from, to, c->pid, fl->id, c->pid, fl->from);
		synth_put_us(g->out, fl->set_end, 0);
		fprintf(g->out, "},{\"cat\":\"%sTo%s\",\"id\":\"%s_%u\",\"name\":\"flow\",\"ph\":\"t\",\"pid\":\"%s\",\"tid\":\"%s\",\"ts\":",
			fl->from, to, c->pid, fl->id, c->pid, to);
		synth_put_us(g->out, fl->wait_end, 0);
		fputc('}', g->out);
	}
}

static void emit_core(struct gen *g, struct core *c, enum core_kind kind,
		      unsigned iterations, uint64_t t0)
{
	uint64_t t = t0;

	c->nslices = c->nflags = 0;
	c->next_id = 0;
	for (unsigned i = 0; i < iterations; i++)
		t = kind == CUBE_CORE ? cube_iteration(g, c, t) : vec_iteration(g, c, t);
	qsort(c->slices, c->nslices, sizeof(*c->slices), synth_slice_cmp);
	for (size_t i = 0; i < c->nslices; i++) {
		emit_slice(g, c, &c->slices[i]);
		g->op_count[kind][(size_t)(c->slices[i].op -
			(kind == CUBE_CORE ? cube_ops : vec_ops))]++;
	}
	emit_flags(g, c);
	/* CACHEMISS records come after a core's flags. */
	for (unsigned i = 0; i < iterations; i += 16) {
		fprintf(g->out, ",{\"args\":{\"code\":\"\",\"detail\":\"addr:0x%x,\",\"pc_addr\":\"0x10d0d000\"},\"cname\":\"thread_state_runnable\",\"dur\":",
			0x10d0d000u + i);
		synth_put_us(g->out, 30, 1);
		fprintf(g->out, ",\"name\":\"ICACHE_MISS\",\"ph\":\"X\",\"pid\":\"%s\",\"tid\":\"CACHEMISS\",\"ts\":", c->pid);
		synth_put_us(g->out, t0 + (uint64_t)i * 1000u, 1);
		fputc('}', g->out);
	}
}

void synth_emit_counters(struct gen *g, uint64_t end_cycles)
{
	static const char *const channels[] = { "GM_TO_L1", "GM_TO_UB", "UB_TO_GM" };
	uint64_t buckets = (uint64_t)((double)end_cycles / CLOCK_MHZ) + 1;

	if (buckets > 2000)
		buckets = 2000;
	for (uint64_t us = 1; us <= buckets; us++)
		for (size_t k = 0; k < 3; k++)
			fprintf(g->out, ",{\"args\":{\"throughput(MB/s)\":%.6g},\"name\":\"%s\",\"ph\":\"C\",\"pid\":\"MTE Throughput\",\"tid\":0,\"ts\":%llu}",
				(double)(synth_rnd(g) % 200000) / 16.0, channels[k],
				(unsigned long long)us);
}

void synth_header(FILE *f, uint64_t size, unsigned type, unsigned pad,
		   unsigned version)
{
	unsigned char h[12];

	for (int i = 0; i < 8; i++)
		h[i] = (unsigned char)(size >> (8 * i));
	h[8] = (unsigned char)type;
	h[9] = (unsigned char)pad;
	h[10] = (unsigned char)version;
	h[11] = 0x5a;
	fwrite(h, 1, sizeof(h), f);
}

/* Pads the payload written since `start` and fills in its header. */
int synth_close_block(struct gen *g, long header_at, unsigned type,
		       unsigned version)
{
	long end = ftell(g->out);
	uint64_t len = (uint64_t)(end - header_at - 12);
	unsigned pad = (unsigned)((4 - len % 4) % 4);

	for (unsigned i = 0; i < pad; i++)
		fputc(0, g->out);
	if (fseek(g->out, header_at, SEEK_SET) != 0)
		return -1;
	synth_header(g->out, len + pad, type, pad, version);
	return fseek(g->out, 0, SEEK_END);
}

void synth_emit_source(struct gen *g)
{
	static const char text[] = "// synthetic kernel\nextern \"C\" void kernel(void) {}\n";
	char path[PATH_SIZE] = "kernels/synthetic_kernel.cpp";
	size_t n = sizeof(text) - 1;
	unsigned pad = (unsigned)((4 - n % 4) % 4);

	synth_header(g->out, n + pad, SOURCE_TYPE, pad, 0x5a);
	fwrite(path, 1, sizeof(path), g->out);
	fwrite(text, 1, n, g->out);
	for (unsigned i = 0; i < pad; i++)
		fputc(0, g->out);
}

static void emit_instr(struct gen *g, unsigned ncores_blocks)
{
	FILE *f = g->out;

	/* Cores sorted as strings (core10 before core2), as the producer does. */
	fputs("{\"Cores\":[", f);
	for (unsigned b = 0; b < ncores_blocks; b++)
		fprintf(f, "%s\"core%u.cubecore0\",\"core%u.veccore0\",\"core%u.veccore1\"",
			b ? "," : "", b, b, b);
	fputs("],\"Instructions\":[", f);
	for (int kind = 0; kind < 2; kind++) {
		const struct op *ops = kind == CUBE_CORE ? cube_ops : vec_ops;
		size_t nops = kind == CUBE_CORE ? sizeof(cube_ops) / sizeof(*ops)
						: sizeof(vec_ops) / sizeof(*ops);

		for (size_t i = 0; i < nops; i++) {
			unsigned long long per = g->op_count[kind][i] / (ncores_blocks ? ncores_blocks : 1);

			fprintf(f, "%s{\"Address\":\"0x%x\",\"AscendC Inner Code\":\"\",\"Cycles\":[",
				kind || i ? "," : "", ops[i].pc);
			for (unsigned b = 0; b < 3 * ncores_blocks; b++)
				fprintf(f, "%s%llu", b ? "," : "", (b % 3 == 0) == (kind == CUBE_CORE) ? per * ops[i].cycles : 0);
			fputs("],\"Instructions Executed\":[", f);
			for (unsigned b = 0; b < 3 * ncores_blocks; b++)
				fprintf(f, "%s%llu", b ? "," : "", (b % 3 == 0) == (kind == CUBE_CORE) ? per : 0);
			fprintf(f, "],\"Pipe\":\"%s\",\"Source\":\"%s\",\"Vector Utilization Percentage\":[", ops[i].pipe, ops[i].name);
			for (unsigned b = 0; b < 3 * ncores_blocks; b++)
				fprintf(f, "%s%s", b ? "," : "", kind == VEC_CORE && b % 3 ? "87.5" : "-1");
			fputs("]}", f);
		}
	}
	fputs("],\"Instructions Dtype\":{\"Instructions\":{\"Address\":3,\"AscendC Inner Code\":3,"
	      "\"Cycles\":1,\"Instructions Executed\":1,\"Pipe\":3,\"Source\":3,"
	      "\"Vector Utilization Percentage\":4}}}", f);
}

int main(int argc, char **argv)
{
	struct gen g;
	struct core core;
	unsigned long long seed = 1, size_mb;
	uint64_t target, t_end = 0;
	unsigned iterations, blocks = 0;
	long trace_at, instr_at;
	const char *profile = "synth";
	unsigned long long instr_mb = 0;
	int argi = 1;

	while (argc - argi > 2 && argi + 1 < argc) {
		if (strcmp(argv[argi], "--seed") == 0)
			seed = strtoull(argv[argi + 1], NULL, 10);
		else if (strcmp(argv[argi], "--profile") == 0)
			profile = argv[argi + 1];
		else if (strcmp(argv[argi], "--instr-mb") == 0)
			instr_mb = strtoull(argv[argi + 1], NULL, 10);
		else
			break;
		argi += 2;
	}
	if (argc - argi != 2 || (size_mb = strtoull(argv[argi], NULL, 10)) == 0 ||
	    (strcmp(profile, "synth") != 0 && strcmp(profile, "producer") != 0 &&
	     strcmp(profile, "dense") != 0 && strcmp(profile, "dense-heavy") != 0 &&
	     strcmp(profile, "producer-ccu") != 0) ||
	    (instr_mb > 0 && strcmp(profile, "synth") == 0)) {
		fprintf(stderr, "usage: gen_synth [--seed N] [--profile synth|producer|dense|"
			"dense-heavy|producer-ccu] "
			"[--instr-mb N] SIZE_MB OUT\n");
		return 2;
	}
	memset(&g, 0, sizeof(g));
	memset(&core, 0, sizeof(core));
	g.rng = seed * 0x9E3779B97F4A7C15ull + 1;
	g.instr_bytes = instr_mb * 1000000ull;
	g.out = fopen(argv[argi + 1], "wb");
	if (g.out == NULL) {
		perror(argv[argi + 1]);
		return 1;
	}
	setvbuf(g.out, NULL, _IOFBF, 1 << 20);
	target = size_mb * 1000000ull;
	if (strcmp(profile, "synth") != 0) {
		int rc = strcmp(profile, "producer") == 0       ? synth_shape_producer(&g, target)
			 : strcmp(profile, "dense") == 0        ? synth_shape_dense(&g, target)
			 : strcmp(profile, "dense-heavy") == 0  ? synth_shape_dense_heavy(&g, target)
							        : synth_shape_producer_ccu(&g, target);

		if (fclose(g.out) != 0 || rc != 0) {
			perror(argv[argi + 1]);
			return 1;
		}
		return 0;
	}
	/* About ten blocks of three cores reach the size; a cube iteration
	   writes ~9 KB and a vector iteration ~5 KB. */
	iterations = (unsigned)(target / 10 / 19000);
	if (iterations < 20)
		iterations = 20;
	synth_emit_source(&g);
	trace_at = ftell(g.out);
	synth_header(g.out, 0, TRACE_TYPE, 0, 0x5a);
	emit(&g, "{\"displayTimeUnit\":\"ns\",\"profilingType\":\"op\",\"schemaVersion\":2,\"traceEvents\":[");
	emit(&g, "{\"args\":{\"sort_index\":1},\"name\":\"process_sort_index\",\"ph\":\"M\",\"pid\":\"core0.cubecore0\",\"tid\":\"NA\"}");
	while ((uint64_t)ftell(g.out) < target) {
		unsigned order = (unsigned)(synth_rnd(&g) % 3);

		for (unsigned k = 0; k < 3; k++) {
			unsigned which = (order + k) % 3;
			uint64_t t0 = 7000 + synth_rnd(&g) % 500;

			if (which == 0)
				snprintf(core.pid, sizeof(core.pid), "core%u.cubecore0", blocks);
			else
				snprintf(core.pid, sizeof(core.pid), "core%u.veccore%u", blocks, which - 1);
			emit_core(&g, &core, which == 0 ? CUBE_CORE : VEC_CORE, iterations, t0);
			if (core.nslices > 0 && core.slices[core.nslices - 1].start > t_end)
				t_end = core.slices[core.nslices - 1].start;
		}
		blocks++;
	}
	synth_emit_counters(&g, t_end);
	emit(&g, "]}");
	if (synth_close_block(&g, trace_at, TRACE_TYPE, 0x5a) != 0)
		goto fail;
	instr_at = ftell(g.out);
	synth_header(g.out, 0, INSTR_TYPE, 0, 0);
	emit_instr(&g, blocks);
	if (synth_close_block(&g, instr_at, INSTR_TYPE, 0) != 0 || fclose(g.out) != 0)
		goto fail_closed;
	free(core.slices);
	free(core.flags);
	return 0;
fail:
	fclose(g.out);
fail_closed:
	perror(argv[argi + 1]);
	free(core.slices);
	free(core.flags);
	return 1;
}
