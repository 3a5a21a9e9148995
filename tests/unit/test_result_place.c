/*
 * result: which dump paths of two builds name the same place
 * (csim_result_dump_same_place, docs/compare.md "Batches"): the levels
 * msprof and its callers stamp with a time are set aside, nothing else.
 */
#include <string.h>

#include "check.h"
#include "model/result.h"

static int same(const char *a, const char *b)
{
	return csim_result_dump_same_place(csim_span_of(a, strlen(a)), csim_span_of(b, strlen(b)));
}

static void test_stamped_levels(struct check_ctx *c)
{
	/* The top level's stamp, and whatever lies above it (-o roots, builds). */
	CHECK(c, same("kernel_insight_all_funcs_20261201/funcs/add/collect/out/OPPROF_1",
		      "kernel_insight_all_funcs_20261207/funcs/add/collect/out/OPPROF_1"));
	CHECK(c, same("b1/kernel_insight_all_funcs_1/funcs/add/collect/out/OPPROF_1",
		      "funcs/add/collect/out/OPPROF_1"));
	/* OPPROF_<ts> matches any OPPROF_ folder at that level. */
	CHECK(c, same("funcs/add/collect/out/OPPROF_20261201_AB12/simulator",
		      "funcs/add/collect/out/OPPROF_20261207_CD34/simulator"));
	CHECK(c, same("OPPROF_1", "OPPROF_2"));
}

static void test_other_places(struct check_ctx *c)
{
	/* Another kernel, another depth, another folder name: apart. */
	CHECK(c, !same("funcs/add/collect/out/OPPROF_1", "funcs/mul/collect/out/OPPROF_1"));
	CHECK(c, !same("funcs/add/collect/out/OPPROF_1", "funcs/add/collect/OPPROF_1"));
	CHECK(c, !same("funcs/add/collect/out/OPPROF_1", "funcs/add/collect/out/OPPROF_1/simulator"));
	CHECK(c, !same("OPPROF_1/add", "PROF_1/add"));
	CHECK(c, !same("x/sim", "y/sim"));
	/* A name that only starts like a stamp's level is no such level. */
	CHECK(c, !same("kernel_insight/funcs/add", "funcs/add"));
	/* A missing path is nowhere. */
	CHECK(c, !csim_result_dump_same_place(csim_span_of(NULL, 0), csim_span_of("x", 1)));
}

int main(void)
{
	struct check_ctx c = { 0, 0, NULL };

	CHECK_RUN(&c, test_stamped_levels);
	CHECK_RUN(&c, test_other_places);
	return check_done(&c);
}
