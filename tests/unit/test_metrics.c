/*
 * metrics_writer: instr_metrics.json of SPEC §7, written through a real
 * csim_out and compared byte for byte with output derived by hand: per-core
 * splitting, Dtype 5/100 columns kept whole, keys normalised, values keeping
 * their input bytes, the rows a core did not execute left out (and
 * counted), raw mode, and the errors of a bad API_INSTR payload.
 *
 * The expected texts also pin the writer's layout: one instruction row per
 * line, one core per block.
 */
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "write/metrics_writer.h"
#include "write/out_file.h"
#include "testutil.h"

#define BLOCK_AT 296u
#define BIN_PATH "/data/OPPROF_x/simulator/visualize_data.bin"

/*
 * Loads payload, writes it (raw or reshaped) and returns the file's bytes;
 * *left_out (may be NULL) the plan's records left out.
 */
static char *render_counted(struct check_ctx *c, const char *payload, int raw, size_t *n,
			    uint64_t *left_out)
{
	char dir[64], path[128];
	struct csim_metrics mt;
	struct csim_metrics_plan plan;
	struct csim_out out;
	struct csim_error err;
	size_t len = strlen(payload);
	char *copy = malloc(len ? len : 1);
	char *text = NULL;

	*n = 0;
	if (!CHECK(c, copy != NULL) || !CHECK(c, tdir_make(dir, sizeof(dir)) == 0)) {
		free(copy);
		return NULL;
	}
	memcpy(copy, payload, len);
	memset(&plan, 0, sizeof(plan));
	if (!CHECK_I64(c, csim_metrics_load(&mt, BIN_PATH, BLOCK_AT, copy, len, &err),
		       CSIM_OK) ||
	    !CHECK_I64(c, csim_metrics_plan_make(&plan, &mt, &err), CSIM_OK))
		fprintf(stderr, "    %s\n", err.message);
	else if (CHECK_I64(c, csim_out_open(&out, dir, "instr_metrics.json", &err),
			   CSIM_OK)) {
		if (CHECK_I64(c, csim_metrics_write(&mt, &plan, raw, &out, &err), CSIM_OK) &&
		    CHECK_I64(c, csim_out_commit(&out, &err), CSIM_OK))
			text = tfile_read(tpath(path, sizeof(path), dir,
						"instr_metrics.json"), n);
		csim_out_abort(&out);   /* a no-op after commit */
	}
	if (left_out != NULL)
		*left_out = plan.left_out;
	csim_metrics_plan_release(&plan);
	csim_metrics_release(&mt);
	tdir_remove(dir);
	return text;
}

static char *render(struct check_ctx *c, const char *payload, int raw, size_t *n)
{
	return render_counted(c, payload, raw, n, NULL);
}

static void expect_render(struct check_ctx *c, const char *payload, int raw,
			  const char *want)
{
	size_t n;
	char *got = render(c, payload, raw, &n);

	CHECK_BYTES(c, got, n, want, strlen(want));
	free(got);
}

static const char payload_with_dtype[] =
	"{\"Cores\":[\"core0.veccore0\",\"core0.veccore1\"],\"Instructions\":[\n"
	"{\"Address\":\"0x1\",\"Cycles\":[10, -0],\"GPR Status\":[{\"r\":1}, {\"r\":2}],"
	"\"Instructions Executed\":[1e2,3E0],\"Pipe\" : \"MTE2\",\"RealStallCycles\":[7],"
	"\"Pct\":[0.10,5],\"Extra\":[true,null]},\n"
	"{\"Address\":\"0x2\",\"Cycles\":[1.5E+2,2E-3],\"GPR Status\":[],"
	"\"Instructions Executed\":[0.10,-1.0E0],\"Pipe\":\"VEC\","
	"\"RealStallCycles\":[3, 4, 5],\"Pct\":[\"a\",\"b\"],\"Extra\":[[1],{}]}\n"
	"],\"Instructions Dtype\":{\"Instructions\":{\"Address\":3,\"Cycles\":1,"
	"\"GPR Status\":5,\"Instructions Executed\":1,\"Pct\":100,\"Pipe\":3,"
	"\"RealStallCycles\":1}}}";

static void test_with_dtype_splits_per_core_and_keeps_json_columns(struct check_ctx *c)
{
	const char *want =
		"{\"cores\":[\"core0.veccore0\",\"core0.veccore1\"],\n"
		"\"instructions\":{\n"
		"\"core0.veccore0\":[\n"
		"{\"address\":\"0x1\",\"cycles\":10,\"gpr_status\":[{\"r\":1}, {\"r\":2}],"
		"\"instructions_executed\":1e2,\"pipe\":\"MTE2\",\"realstallcycles\":[7],"
		"\"pct\":[0.10,5],\"extra\":true},\n"
		"{\"address\":\"0x2\",\"cycles\":1.5E+2,\"gpr_status\":[],"
		"\"instructions_executed\":0.10,\"pipe\":\"VEC\","
		"\"realstallcycles\":[3, 4, 5],\"pct\":[\"a\",\"b\"],\"extra\":[1]}\n"
		"],\n"
		"\"core0.veccore1\":[\n"
		"{\"address\":\"0x1\",\"cycles\":-0,\"gpr_status\":[{\"r\":1}, {\"r\":2}],"
		"\"instructions_executed\":3E0,\"pipe\":\"MTE2\",\"realstallcycles\":[7],"
		"\"pct\":[0.10,5],\"extra\":null},\n"
		"{\"address\":\"0x2\",\"cycles\":2E-3,\"gpr_status\":[],"
		"\"instructions_executed\":-1.0E0,\"pipe\":\"VEC\","
		"\"realstallcycles\":[3, 4, 5],\"pct\":[\"a\",\"b\"],\"extra\":{}}\n"
		"]},\n"
		"\"column_types\":{\"Instructions\":{\"Address\":3,\"Cycles\":1,"
		"\"GPR Status\":5,\"Instructions Executed\":1,\"Pct\":100,\"Pipe\":3,"
		"\"RealStallCycles\":1}}}\n";

	expect_render(c, payload_with_dtype, 0, want);
}

static void test_without_dtype_every_core_sized_array_is_split(struct check_ctx *c)
{
	/* Cores after Instructions: the order of members does not matter. */
	const char *payload =
		"{\"Instructions\":[\n"
		"{\"GPR Status\":[{\"r\":1},{\"r\":2}],\"Short\":[1],\"Long\":[1,2,3],"
		"\"Scalar\":\"NA\",\"L2Cache Hit Rate\":[12.5,\"NA\"],"
		"\"Nested\":{\"a\":[1,2]},\"Num\":0.10}\n"
		"],\"Cores\":[\"c1\",\"c0\"]}";
	const char *want =
		"{\"cores\":[\"c1\",\"c0\"],\n"
		"\"instructions\":{\n"
		"\"c1\":[\n"
		"{\"gpr_status\":{\"r\":1},\"short\":[1],\"long\":[1,2,3],\"scalar\":\"NA\","
		"\"l2cache_hit_rate\":12.5,\"nested\":{\"a\":[1,2]},\"num\":0.10}\n"
		"],\n"
		"\"c0\":[\n"
		"{\"gpr_status\":{\"r\":2},\"short\":[1],\"long\":[1,2,3],\"scalar\":\"NA\","
		"\"l2cache_hit_rate\":\"NA\",\"nested\":{\"a\":[1,2]},\"num\":0.10}\n"
		"]},\n"
		"\"column_types\":{}}\n";

	expect_render(c, payload, 0, want);
}

static void test_keys_are_lower_cased_with_underscores(struct check_ctx *c)
{
	const char *payload =
		"{\"Cores\":[\"c0\"],\"Instructions\":[{\"Instructions Executed\":1,"
		"\"UB Read Conflict\":2,\"AscendC Inner Code\":\"\",\"A\\u0042 C\":3,"
		"\"Q\\\"Z\":4,\"already_low\":5}]}";
	const char *want =
		"{\"cores\":[\"c0\"],\n"
		"\"instructions\":{\n"
		"\"c0\":[\n"
		"{\"instructions_executed\":1,\"ub_read_conflict\":2,"
		"\"ascendc_inner_code\":\"\",\"ab_c\":3,\"q\\\"z\":4,\"already_low\":5}\n"
		"]},\n"
		"\"column_types\":{}}\n";

	expect_render(c, payload, 0, want);
}

static void test_no_instructions_and_no_cores(struct check_ctx *c)
{
	expect_render(c, "{\"Cores\":[\"c0\",\"c1\"],\"Instructions\":[]}", 0,
		      "{\"cores\":[\"c0\",\"c1\"],\n\"instructions\":{\n"
		      "\"c0\":[\n],\n\"c1\":[\n]},\n\"column_types\":{}}\n");
	expect_render(c, "{\"Cores\":[],\"Instructions\":[{\"A\":[]}],"
		      "\"Instructions Dtype\":{}}", 0,
		      "{\"cores\":[],\n\"instructions\":{},\n\"column_types\":{}}\n");
}

/*
 * SPEC §7: a core's row only where that core executed it. By hand, per row
 * and core: 0x1 ran on c1 alone; 0x2 has no count (every core); 0x3's
 * scalar 0 is every core's (none); 0x4's "0" is no number (written), 0e0
 * a zero, -1 not applicable (written); 0x5's [0] is not per core (copied
 * whole, every core); 0x6's -0.0 and 0.00 are zeros. c0's first record
 * comes after a row it left out: no comma before it.
 */
static const char payload_executed[] =
	"{\"Cores\":[\"c0\",\"c1\",\"c2\"],\"Instructions\":[\n"
	"{\"Address\":\"0x1\",\"Instructions Executed\":[0,5,0],\"Cycles\":[0,40,0]},\n"
	"{\"Address\":\"0x2\",\"Pipe\":\"MTE2\"},\n"
	"{\"Address\":\"0x3\",\"Instructions Executed\":0,\"Cycles\":[0,0,0]},\n"
	"{\"Address\":\"0x4\",\"Instructions Executed\":[\"0\",0e0,-1],\"Cycles\":[1,0,2]},\n"
	"{\"Address\":\"0x5\",\"Instructions Executed\":[0],\"Cycles\":[3,4,5]},\n"
	"{\"Address\":\"0x6\",\"Instructions Executed\":[-0.0,7,0.00]}\n"
	"]}";

static void test_rows_a_core_did_not_execute_are_left_out(struct check_ctx *c)
{
	const char *want =
		"{\"cores\":[\"c0\",\"c1\",\"c2\"],\n"
		"\"instructions\":{\n"
		"\"c0\":[\n"
		"{\"address\":\"0x2\",\"pipe\":\"MTE2\"},\n"
		"{\"address\":\"0x4\",\"instructions_executed\":\"0\",\"cycles\":1},\n"
		"{\"address\":\"0x5\",\"instructions_executed\":[0],\"cycles\":3}\n"
		"],\n"
		"\"c1\":[\n"
		"{\"address\":\"0x1\",\"instructions_executed\":5,\"cycles\":40},\n"
		"{\"address\":\"0x2\",\"pipe\":\"MTE2\"},\n"
		"{\"address\":\"0x5\",\"instructions_executed\":[0],\"cycles\":4},\n"
		"{\"address\":\"0x6\",\"instructions_executed\":7}\n"
		"],\n"
		"\"c2\":[\n"
		"{\"address\":\"0x2\",\"pipe\":\"MTE2\"},\n"
		"{\"address\":\"0x4\",\"instructions_executed\":-1,\"cycles\":2},\n"
		"{\"address\":\"0x5\",\"instructions_executed\":[0],\"cycles\":5}\n"
		"]},\n"
		"\"column_types\":{}}\n";
	uint64_t left_out = 0;
	size_t n;
	char *got = render_counted(c, payload_executed, 0, &n, &left_out);

	CHECK_BYTES(c, got, n, want, strlen(want));
	CHECK_U64(c, left_out, 8);   /* 3 of c0, 2 of c1, 3 of c2 */
	free(got);
	/* --raw-metrics: every byte, nothing left out. */
	expect_render(c, payload_executed, 1, payload_executed);
}

static void test_a_core_that_executed_nothing_has_an_empty_list(struct check_ctx *c)
{
	const char *payload =
		"{\"Cores\":[\"a\",\"b\"],\"Instructions\":["
		"{\"Instructions Executed\":[1,0],\"Pipe\":\"CUBE\"},"
		"{\"Pipe\":\"CUBE\",\"Instructions Executed\":[2,0]}]}";
	const char *want =
		"{\"cores\":[\"a\",\"b\"],\n\"instructions\":{\n"
		"\"a\":[\n"
		"{\"instructions_executed\":1,\"pipe\":\"CUBE\"},\n"
		"{\"pipe\":\"CUBE\",\"instructions_executed\":2}\n"
		"],\n"
		"\"b\":[\n"
		"]},\n\"column_types\":{}}\n";
	uint64_t left_out = 0;
	size_t n;
	char *got = render_counted(c, payload, 0, &n, &left_out);

	CHECK_BYTES(c, got, n, want, strlen(want));
	CHECK_U64(c, left_out, 2);
	free(got);
}

static void test_raw_mode_is_byte_for_byte(struct check_ctx *c)
{
	const char *payload = " {\"Cores\":[\"c0\"], \"Instructions\":[{\"A\":[1]}]}\n\t";

	expect_render(c, payload, 1, payload);
	expect_render(c, payload_with_dtype, 1, payload_with_dtype);
}

static void expect_load_error(struct check_ctx *c, const char *payload,
			      const char *part)
{
	struct csim_metrics mt;
	struct csim_error err;
	size_t len = strlen(payload);
	char *copy = malloc(len ? len : 1);

	if (!CHECK(c, copy != NULL))
		return;
	memcpy(copy, payload, len);
	csim_error_clear(&err);
	if (!CHECK_I64(c, csim_metrics_load(&mt, BIN_PATH, BLOCK_AT, copy, len, &err),
		       CSIM_E_INPUT) ||
	    !CHECK_CONTAINS(c, err.message, BIN_PATH ": API_INSTR block at offset 296") ||
	    !CHECK_CONTAINS(c, err.message, part))
		fprintf(stderr, "    payload: %s\n", payload);
	csim_metrics_release(&mt);   /* load owns the payload, also on failure */
}

static void test_bad_payloads_are_input_errors(struct check_ctx *c)
{
	expect_load_error(c, "hello", "payload byte 0");
	expect_load_error(c, "", "payload byte 0");
	expect_load_error(c, "{\"Cores\":[", "unexpected end");
	expect_load_error(c, "{\"Cores\":[],\"Instructions\":[]} x", "payload byte 31");
	expect_load_error(c, "[1,2]", "not a JSON object");
	expect_load_error(c, "{\"Instructions\":[]}", "Cores");
	expect_load_error(c, "{\"Cores\":[\"c0\"]}", "Instructions");
	expect_load_error(c, "{\"Cores\":[],\"Instructions\":{}}",
			  "Instructions is not an array");
	expect_load_error(c, "{\"Cores\":[\"c0\"],\"Instructions\":\"x\"}",
			  "Instructions is not an array");
	expect_load_error(c, "{\"Cores\":\"c0\",\"Instructions\":[]}", "Cores");
	expect_load_error(c, "{\"Cores\":[\"c0\"],\"Instructions\":[1]}", "not an object");
}

int main(void)
{
	struct check_ctx c = { 0, 0, NULL };

	CHECK_RUN(&c, test_with_dtype_splits_per_core_and_keeps_json_columns);
	CHECK_RUN(&c, test_without_dtype_every_core_sized_array_is_split);
	CHECK_RUN(&c, test_keys_are_lower_cased_with_underscores);
	CHECK_RUN(&c, test_no_instructions_and_no_cores);
	CHECK_RUN(&c, test_rows_a_core_did_not_execute_are_left_out);
	CHECK_RUN(&c, test_a_core_that_executed_nothing_has_an_empty_list);
	CHECK_RUN(&c, test_raw_mode_is_byte_for_byte);
	CHECK_RUN(&c, test_bad_payloads_are_input_errors);
	return check_done(&c);
}
