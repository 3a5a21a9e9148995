/*
 * gen_synth_heavy.c - the iterations of two more shapes of gen_synth
 * (written by gen_synth_shapes.c's writer; producer-ccu reuses the producer
 * profile's instructions and companions, dense-heavy has its own):
 *
 * dense-heavy (`--profile dense-heavy`): SPEC §9's dense kernel with heavy
 *   output. 8 blocks (24 cores), the older writer's short events (~125 B),
 *   SET/WAIT as B/E records without id or flow (the resourceconflict
 *   sample's form, 4 events a flag), a third of the events kept and ~0.38
 *   arrows per kept slice: a cube iteration keeps 11 of 31 events (two
 *   overlapping MTE2 loads, four MTE1, four MMAD, a FIXP) with 4 flags, a
 *   vector iteration 12 of 36 (two MTE2, eight VECTOR, two MTE3) with 5,
 *   one of them into SCALAR (no arrow) half the time.
 *   Its API_INSTR (55/712 of the file) has rows executed on every core, so
 *   instr_metrics.json is about seven times the block.
 * producer-ccu (`--profile producer-ccu`): the current writer's long events
 *   (code stacks, cname, float32 times, B/E/s/t flags with ids) where
 *   cache_time/ccu_time companions are ~45 % of the events and ~10 % are
 *   kept: every MTE2, CUBE, VECTOR and SCALAR instruction brings its two
 *   companions, a SCALAR-heavy loop, one flag per iteration into a kept
 *   pipe (~0.43 arrows per kept slice), 8 blocks (24 cores).
 *
 * Pure functions of the generator's state, as the other shapes.
 */
#include "gen_synth.h"

const struct op heavy_cube[] = {
	{ "MOV_OUT_TO_L1", "MTE2", NULL, "Dst:L1,Id:63", "16384", 410, 0x10d0d168, NULL },
	{ "LOAD_2D", "MTE1", NULL, "Dst:L0A,Id:69", NULL, 60, 0x10d0d180, NULL },
	{ "MMAD", "CUBE", NULL, "F16F32,id:31", NULL, 96, 0x10d0d198, NULL },
	{ "FIX_L0C_TO_DST", "FIXP", NULL, "Dst:OUT,Id:40", "8192", 120, 0x10d0d1b4, NULL },
	{ "MOVK", "SCALAR", NULL, "XD:X29,", NULL, 2, 0x10d0d004, NULL },
	{ "ADD_XD_XN_XM", "SCALAR", NULL, "XD:X5,", NULL, 1, 0x10d0d010, NULL },
	{ "JUMP", "FLOWCTRL", NULL, "IMM:0x40,", NULL, 0, 0x10d0d008, NULL },
};
const size_t heavy_ncube = sizeof(heavy_cube) / sizeof(*heavy_cube);

const struct op heavy_vec[] = {
	{ "MOV_OUT_TO_UB", "MTE2", NULL, "Dst:UB,id:2", "4096", 90, 0x1130a064, NULL },
	{ "VADD", "VECTOR", NULL, "F16,Id:517", NULL, 8, 0x1130a7b4, NULL },
	{ "VMULS", "VECTOR", NULL, "F16,Id:518", NULL, 10, 0x1130a7c0, NULL },
	{ "MOV_UB_TO_OUT", "MTE3", NULL, "Dst:OUT,id:8", "4096", 110, 0x1130a420, NULL },
	{ "LD_XD_XN_IMM", "SCALAR", NULL, "XD:X3,", NULL, 3, 0x1130a00c, NULL },
	{ "ADD_XD_XN_XM", "SCALAR", NULL, "XD:X5,", NULL, 1, 0x1130a010, NULL },
	{ "JUMP", "FLOWCTRL", NULL, "IMM:0x40,", NULL, 0, 0x1130a014, NULL },
};
const size_t heavy_nvec = sizeof(heavy_vec) / sizeof(*heavy_vec);

#define FLAG(from, to, id) "PIPE:" from ",TRIGGERPIPE:" to ",FLAGID:" id ","

uint64_t synth_iter_heavy_cube(struct gen *g, struct core *c, uint64_t t, unsigned *group)
{
	const struct op *op = heavy_cube;
	uint64_t load_end = t + 40 + op[0].cycles, l1 = load_end + 3;
	uint64_t mm = l1 + 3 * 16 + op[1].cycles + 2, fix = mm + 4 * op[2].cycles + 2;

	(void)group;
	/* Double-buffered loads: the second is in flight with the first. */
	synth_add_slice(c, t, &op[0]);
	synth_add_slice(c, t + 40, &op[0]);
	synth_add_flag(c, load_end, l1, "MTE2", "MTE1", FLAG("MTE2", "MTE1", "0"), FLAG("MTE2", "MTE1", "0"));
	for (unsigned j = 0; j < 4; j++)
		synth_add_slice(c, l1 + 16u * j, &op[1]);
	synth_add_flag(c, mm - 2, mm, "MTE1", "CUBE", FLAG("MTE1", "CUBE", "1"), FLAG("MTE1", "CUBE", "1"));
	for (unsigned j = 0; j < 4; j++)
		synth_add_slice(c, mm + op[2].cycles * j, &op[2]);
	synth_add_flag(c, fix - 2, fix, "CUBE", "FIXP", FLAG("CUBE", "FIXP", "2"), FLAG("CUBE", "FIXP", "2"));
	synth_add_slice(c, fix, &op[3]);
	synth_add_flag(c, t + 40 + op[0].cycles, l1 + 16, "MTE2", "MTE1", FLAG("MTE2", "MTE1", "3"),
		       FLAG("MTE2", "MTE1", "3"));
	for (unsigned j = 0; j < 3; j++)
		synth_add_slice(c, t + 3u * j, &op[4 + j % 2]);
	synth_add_slice(c, t + 12, &op[6]);
	return t + 40 + op[0].cycles + 20 + synth_rnd(g) % 32;
}

uint64_t synth_iter_heavy_vec(struct gen *g, struct core *c, uint64_t t, unsigned *group)
{
	const struct op *op = heavy_vec;
	uint64_t load_end = t + 30 + op[0].cycles, v = load_end + 3, store = v + 8 * 10 + 2;

	(void)group;
	synth_add_slice(c, t, &op[0]);
	synth_add_slice(c, t + 30, &op[0]);
	synth_add_flag(c, t + op[0].cycles, v, "MTE2", "VECTOR", FLAG("MTE2", "VEC", "0"), FLAG("MTE2", "VEC", "0"));
	synth_add_flag(c, load_end, v + 40, "MTE2", "VECTOR", FLAG("MTE2", "VEC", "1"), FLAG("MTE2", "VEC", "1"));
	for (unsigned j = 0; j < 8; j++)
		synth_add_slice(c, v + 10u * j, &op[1 + j % 2]);
	synth_add_flag(c, v + 40, store, "VECTOR", "MTE3", FLAG("VEC", "MTE3", "2"), FLAG("VEC", "MTE3", "2"));
	synth_add_flag(c, store - 2, store + 20, "VECTOR", "MTE3", FLAG("VEC", "MTE3", "3"), FLAG("VEC", "MTE3", "3"));
	synth_add_slice(c, store, &op[3]);
	synth_add_slice(c, store + 20, &op[3]);
	if (synth_rnd(g) % 2)
		synth_add_flag(c, load_end, load_end + 5, "MTE2", "SCALAR", FLAG("MTE2", "SCALAR", "4"),
			       FLAG("MTE2", "SCALAR", "4"));
	else
		synth_add_flag(c, load_end, store, "MTE2", "MTE3", FLAG("MTE2", "MTE3", "4"),
			       FLAG("MTE2", "MTE3", "4"));
	for (unsigned j = 0; j < 3; j++)
		synth_add_slice(c, t + 3u * j, &op[4 + j % 2]);
	synth_add_slice(c, t + 14, &op[6]);
	return t + 30 + op[0].cycles + 15 + synth_rnd(g) % 16;
}

/* cache_time/ccu_time pairs in synth_companions, by pipe. */
enum { PAIR_MTE2 = 0, PAIR_CUBE = 2, PAIR_VEC = 4, PAIR_SCALAR = 6 };

/* An instruction with its two companions just before it, one group. */
static void add_with(struct core *c, uint64_t start, const struct op *op, const struct op *pair,
		     unsigned *group)
{
	synth_add_slice(c, start, op);
	c->slices[c->nslices - 1].group = ++*group;
	for (unsigned k = 0; k < 2; k++) {
		synth_add_slice(c, start > 6 - 4 * k ? start - 6 + 4 * k : 0, &pair[k]);
		c->slices[c->nslices - 1].group = *group;
	}
}

/* The scalar part of an iteration: three instructions with 6 companions. */
static void ccu_scalar(struct core *c, uint64_t t, const struct op *a, const struct op *b,
		       unsigned *group)
{
	add_with(c, t, a, &synth_companions[PAIR_SCALAR], group);
	add_with(c, t + 4, b, &synth_companions[PAIR_SCALAR], group);
	add_with(c, t + 8, a, &synth_companions[PAIR_SCALAR], group);
}

uint64_t synth_iter_ccu_cube(struct gen *g, struct core *c, uint64_t t, unsigned *group)
{
	const struct op *op = synth_producer_cube;   /* MTE2, MTE1, CUBE; 5, 6 SCALAR; 9 JUMPC */
	uint64_t load_end = t + op[0].cycles, l1 = load_end + 3, mm = l1 + op[1].cycles + 2;

	add_with(c, t, &op[0], &synth_companions[PAIR_MTE2], group);
	synth_add_flag(c, load_end, l1, "MTE2", "MTE1", FLAG("MTE2", "MTE1", "0"), FLAG("MTE2", "MTE1", "0"));
	synth_add_slice(c, l1, &op[1]);
	add_with(c, mm, &op[2], &synth_companions[PAIR_CUBE], group);
	ccu_scalar(c, t + 10, &op[5], &op[6], group);
	synth_add_slice(c, t + 24, &op[9]);
	return t + op[0].cycles + 30 + synth_rnd(g) % 64;
}

uint64_t synth_iter_ccu_vec(struct gen *g, struct core *c, uint64_t t, unsigned *group)
{
	const struct op *op = synth_producer_vec;   /* MTE2, VECTOR; 4, 6 SCALAR; 9 JUMPC */
	uint64_t load_end = t + op[0].cycles, v = load_end + 3;

	add_with(c, t, &op[0], &synth_companions[PAIR_MTE2], group);
	synth_add_flag(c, load_end, v, "MTE2", "VECTOR", FLAG("MTE2", "VEC", "0"), FLAG("MTE2", "VEC", "0"));
	add_with(c, v, &op[1], &synth_companions[PAIR_VEC], group);
	ccu_scalar(c, t + 10, &op[4], &op[6], group);
	synth_add_slice(c, t + 24, &op[9]);
	return t + op[0].cycles + 30 + synth_rnd(g) % 32;
}
