/*
 * batch_summary and batch_wire: CSV quoting (RFC 4180: commas, quotes, CR,
 * LF), the busy share's digits, a whole summary written for ok rows (with
 * and without an op name, a clock, cores) and a failed row, and a worker's
 * result through the wire and back (and a record cut short is refused).
 */
#define _DEFAULT_SOURCE   /* mkdtemp */
#include <stdlib.h>
#include <unistd.h>

#include "check.h"
#include "cli/batch_wire.h"
#include "write/batch_summary.h"
#include "testutil.h"

static void csv_of(struct check_ctx *c, const char *dir, const char *field, const char *want)
{
	struct csim_out o;
	struct csim_error err;
	char path[4200];
	size_t n;
	char *got;

	if (!CHECK_I64(c, csim_out_open(&o, dir, "f.csv", &err), CSIM_OK))
		return;
	csim_batch_csv_field(&o, field);
	if (!CHECK_I64(c, csim_out_commit(&o, &err), CSIM_OK))
		return;
	got = tfile_read(tpath(path, sizeof(path), dir, "f.csv"), &n);
	if (CHECK(c, got != NULL))
		CHECK_STR(c, got, want);
	free(got);
}

static void test_csv_quoting(struct check_ctx *c)
{
	char dir[64];

	if (!CHECK(c, tdir_make(dir, sizeof(dir)) == 0))
		return;
	csv_of(c, dir, "plain text; no quotes", "plain text; no quotes");
	csv_of(c, dir, "", "");
	csv_of(c, dir, "a,b", "\"a,b\"");
	csv_of(c, dir, "say \"hi\"", "\"say \"\"hi\"\"\"");
	csv_of(c, dir, "two\nlines", "\"two\nlines\"");
	csv_of(c, dir, "cr\rhere", "\"cr\rhere\"");
	csv_of(c, dir, "\"", "\"\"\"\"");
	tdir_remove(dir);
}

static void test_share_digits(struct check_ctx *c)
{
	CHECK_I64(c, csim_dump_share_e4(1074, 1186), 9056);   /* summary.json's 0.9056 */
	CHECK_I64(c, csim_dump_share_e4(1382, 1974), 7001);
	CHECK_I64(c, csim_dump_share_e4(1, 20000), 1);        /* 0.00005 rounds up */
	CHECK_I64(c, csim_dump_share_e4(1, 20001), 0);
	CHECK_I64(c, csim_dump_share_e4(5, 5), 10000);
	CHECK_I64(c, csim_dump_share_e4(0, 5), 0);
	CHECK_I64(c, csim_dump_share_e4(5, 0), -1);
	CHECK_I64(c, csim_dump_share_e4(INT64_MAX / 2, INT64_MAX - 1), 5000);
}

static void test_summary_files(struct check_ctx *c)
{
	struct csim_out_set set;
	char dir[64], path[4200];
	struct csim_dump_share shares[] = {
		{ "MTE2", 1382, 1974 }, { "CUBE", 203, 1186 }, { "VEC", 34, 788 },
		{ "WARP_0", 5, 10 }, { "odd,\"pipe\"", 0, 10 },
	};
	struct csim_batch_row rows[3];
	char pa[] = "core0.cubecore0", pb[] = "odd,\"core\"";
	char *primary[] = { pa, pb };
	const struct csim_batch_totals totals = { 5, 1, 2 };
	struct csim_log quiet_log = { stdout, stderr, 1, NULL };
	struct csim_error err;
	char *csv, *json;
	size_t n;

	if (!CHECK(c, tdir_make(dir, sizeof(dir)) == 0))
		return;
	memset(rows, 0, sizeof(rows));
	rows[0].index = 1;
	rows[0].dump = "k/OPPROF_1";
	rows[0].input = "in/k/OPPROF_1/simulator/visualize_data.bin";
	rows[0].summary = "k/OPPROF_1,\"a\"/summary.html";
	rows[0].status = CSIM_OK;
	rows[0].message = "";
	rows[0].fig.op_name = "matmul, \"leaky\"";
	rows[0].fig.has_span = 1;
	rows[0].fig.slowest_span_ns = 1186;
	rows[0].fig.has_cycles = 1;
	rows[0].fig.slowest_span_cycles = 2194;
	rows[0].fig.slices = 13;
	rows[0].fig.arrows = 4;
	rows[0].fig.skipped_flags = 2;
	rows[0].fig.shares = shares;
	rows[0].fig.nshares = 5;
	rows[0].fig.diag_ids = "transfer_bound sync_bound";
	rows[0].fig.diag_text = "likely transfer-bound: MTE2 busy 70 %, CUBE 17 %; try double buffering";
	rows[0].fig.diag_primary = "transfer_bound";
	rows[0].fig.primary_cores = primary;
	rows[0].fig.nprimary_cores = 2;
	rows[0].fig.path_top = "wait MTE2->VECTOR";
	rows[0].fig.path_share_e4 = 2100;
	rows[0].micros = 1234567;
	rows[1].index = 3;
	rows[1].dump = "m,x/0";
	rows[1].input = "in/m,x/0/simulator/visualize_data.bin";
	rows[1].status = CSIM_E_INPUT;
	rows[1].message = "in/m,x/0/simulator/visualize_data.bin: corrupt block at offset 0: \"x\"";
	rows[1].micros = 499;
	/* No OP_BASIC_INFO, no clock; a span of 7 ns (0.007 µs). */
	rows[2].index = 4;
	rows[2].dump = "n";
	rows[2].input = "n/visualize_data.bin";
	rows[2].summary = "n/summary.html";
	rows[2].status = CSIM_OK;
	rows[2].message = "";
	rows[2].fig.has_span = 1;
	rows[2].fig.slowest_span_ns = 7;
	rows[2].fig.diag_ids = "";
	rows[2].fig.diag_text = "";
	rows[2].fig.diag_primary = "";
	rows[2].fig.path_top = "";   /* no path: a share of -1 */
	rows[2].fig.path_share_e4 = -1;
	rows[2].micros = 1000;
	csim_out_set_init(&set);
	if (!CHECK_I64(c, csim_out_set_begin(&set, dir, &quiet_log, &err), CSIM_OK) ||
	    !CHECK_I64(c, csim_batch_summary_write(&set, dir, rows, 3, &totals, &err), CSIM_OK)) {
		csim_out_set_release(&set);
		goto done;
	}
	csim_out_set_release(&set);
	csv = tfile_read(tpath(path, sizeof(path), dir, "batch_summary.shard-1-of-2.csv"), &n);
	if (CHECK(c, csv != NULL))
		CHECK_STR(c, csv,
			  "index,dump,status,message,op_name,slowest_span_us,slowest_span_cycles,"
			  "slices,arrows,skipped_events,skipped_flags,"
			  "busy_MTE2,busy_MTE1,busy_CUBE,busy_VECTOR,busy_FIXP,busy_MTE3,busy_SCALAR,"
			  "busy_other,diagnosis_ids,diagnosis,primary_diagnosis,primary_cores,"
			  "critical_path_top,critical_path_share,input,summary,seconds\n"
			  "1,k/OPPROF_1,ok,,\"matmul, \"\"leaky\"\"\",1.186,2194,13,4,0,2,0.7001,,0.1712,0.0431,,,,"
			  "\"WARP_0=0.5000 odd,\"\"pipe\"\"=0.0000\",transfer_bound sync_bound,"
			  "\"likely transfer-bound: MTE2 busy 70 %, CUBE 17 %; try double buffering\","
			  "transfer_bound,\"core0.cubecore0 odd,\"\"core\"\"\",wait MTE2->VECTOR,0.2100,"
			  "in/k/OPPROF_1/simulator/visualize_data.bin,\"k/OPPROF_1,\"\"a\"\"/summary.html\",1.235\n"
			  "3,\"m,x/0\",failed,\"in/m,x/0/simulator/visualize_data.bin: corrupt block at offset 0: \"\"x\"\"\","
			  ",,,,,,,,,,,,,,,,,,,,,\"in/m,x/0/simulator/visualize_data.bin\",,0.000\n"
			  "4,n,ok,,,0.007,,0,0,0,0,,,,,,,,,,,,,,,n/visualize_data.bin,n/summary.html,0.001\n");
	free(csv);
	json = tfile_read(tpath(path, sizeof(path), dir, "batch_summary.shard-1-of-2.json"), &n);
	if (CHECK(c, json != NULL)) {
		CHECK_CONTAINS(c, json, "{\"schema\":1,\"shard\":{\"k\":1,\"n\":2},\"found\":5,\"dumps\":3,\"ok\":2,\"failed\":1,\"rows\":[\n");
		CHECK_CONTAINS(c, json, "\"busy_share\":{\"MTE2\":0.7001,\"CUBE\":0.1712,\"VEC\":0.0431,\"WARP_0\":0.5000,\"odd,\\\"pipe\\\"\":0.0000},"
				  "\"diagnosis_ids\":[\"transfer_bound\",\"sync_bound\"],");
		CHECK_CONTAINS(c, json, "\"diagnosis\":\"likely transfer-bound: MTE2 busy 70 %, CUBE 17 %; try "
				  "double buffering\",\"primary_diagnosis\":\"transfer_bound\","
				  "\"primary_cores\":[\"core0.cubecore0\",\"odd,\\\"core\\\"\"],"
				  "\"critical_path_top\":\"wait MTE2->VECTOR\",\"critical_path_share\":0.2100,\"input\":");
		CHECK_CONTAINS(c, json, "\"diagnosis_ids\":null,\"diagnosis\":null,"
				  "\"primary_diagnosis\":null,\"primary_cores\":null,"
				  "\"critical_path_top\":null,\"critical_path_share\":null,\"input\":");
		CHECK_CONTAINS(c, json, "\"primary_cores\":[],\"critical_path_top\":null,"
				  "\"critical_path_share\":null,\"input\":\"n/visualize_data.bin\"");
		CHECK_CONTAINS(c, json, "\"status\":\"failed\",\"message\":\"in/m,x/0/simulator/visualize_data.bin: corrupt block at offset 0: \\\"x\\\"\",\"op_name\":null,\"slowest_span_us\":null,\"slowest_span_cycles\":null,\"slices\":null,");
		CHECK_CONTAINS(c, json, "\"status\":\"ok\",\"message\":null,\"op_name\":\"matmul, \\\"leaky\\\"\",\"slowest_span_us\":1.186,\"slowest_span_cycles\":2194,\"slices\":13,");
		CHECK_CONTAINS(c, json, "\"input\":\"in/k/OPPROF_1/simulator/visualize_data.bin\","
				  "\"summary\":\"k/OPPROF_1,\\\"a\\\"/summary.html\",\"seconds\":1.235}");
		CHECK_CONTAINS(c, json, "\"input\":\"in/m,x/0/simulator/visualize_data.bin\","
				  "\"summary\":null,\"seconds\":0.000}");
		CHECK_CONTAINS(c, json, "\"dump\":\"n\",\"status\":\"ok\",\"message\":null,\"op_name\":null,\"slowest_span_us\":0.007,\"slowest_span_cycles\":null,\"slices\":0,");
	}
	free(json);
	CHECK_I64(c, tdir_count(dir), 2);   /* no temporary file left */
done:
	tdir_remove(dir);
}

static void test_wire(struct check_ctx *c)
{
	struct csim_dump_share shares[] = { { "MTE2", 7, 9 }, { "", -1, 0 } };
	struct csim_wire_result r, back;
	char ca[] = "core0.veccore0", cb[] = "";
	char *cores[] = { ca, cb };
	int fds[2];
	char buf[8192], buf2[8192];
	ssize_t n;

	memset(&r, 0, sizeof(r));
	r.status = CSIM_E_OUTPUT;
	r.micros = 42;
	r.message = "cannot write x: No space left on device";
	r.warnings = "warning: a\nwarning: b\n";
	r.fig.op_name = "add_custom";
	r.fig.has_span = 1;
	r.fig.slowest_span_ns = 700;
	r.fig.has_cycles = 1;
	r.fig.slowest_span_cycles = -1295;   /* any int64 crosses */
	r.fig.slices = 1ull << 40;
	r.fig.arrows = 3;
	r.fig.skipped_events = 4;
	r.fig.skipped_flags = 5;
	r.fig.shares = shares;
	r.fig.nshares = 2;
	r.fig.diag_ids = "near_empty";
	r.fig.diag_text = "possibly a near-empty trace";
	r.fig.diag_primary = "near_empty";
	r.fig.primary_cores = cores;
	r.fig.nprimary_cores = 2;
	r.fig.path_top = "cross-core wait";
	r.fig.path_share_e4 = 5000;
	if (!CHECK(c, pipe(fds) == 0))
		return;
	CHECK_I64(c, csim_wire_result_send(fds[1], &r), 0);
	close(fds[1]);
	n = read(fds[0], buf, sizeof(buf));
	close(fds[0]);
	if (!CHECK(c, n > 0))
		return;
	if (CHECK_I64(c, csim_wire_result_parse(&back, buf, (size_t)n), 0)) {
		CHECK_I64(c, back.status, CSIM_E_OUTPUT);
		CHECK_I64(c, back.micros, 42);
		CHECK_STR(c, back.message, r.message);
		CHECK_STR(c, back.warnings, r.warnings);
		CHECK_STR(c, back.fig.op_name != NULL ? back.fig.op_name : "(null)", "add_custom");
		CHECK_I64(c, back.fig.has_span, 1);
		CHECK_I64(c, back.fig.slowest_span_ns, 700);
		CHECK_I64(c, back.fig.has_cycles, 1);
		CHECK_I64(c, back.fig.slowest_span_cycles, -1295);
		CHECK_U64(c, back.fig.slices, 1ull << 40);
		CHECK_U64(c, back.fig.skipped_flags, 5);
		if (CHECK_U64(c, back.fig.nshares, 2)) {
			CHECK_STR(c, back.fig.shares[0].pipe, "MTE2");
			CHECK_I64(c, back.fig.shares[1].busy_ns, -1);
			CHECK_STR(c, back.fig.shares[1].pipe, "");
		}
		CHECK_STR(c, back.fig.diag_text, r.fig.diag_text);
		CHECK_STR(c, back.fig.diag_primary, "near_empty");
		if (CHECK_U64(c, back.fig.nprimary_cores, 2)) {
			CHECK_STR(c, back.fig.primary_cores[0], "core0.veccore0");
			CHECK_STR(c, back.fig.primary_cores[1], "");
		}
		CHECK_STR(c, back.fig.path_top, "cross-core wait");
		CHECK_I64(c, back.fig.path_share_e4, 5000);
		csim_wire_result_release(&back);
	}
	/* No op name, span or clock: NULL and zeros come back. */
	r.fig.op_name = NULL;
	r.fig.has_span = r.fig.has_cycles = 0;
	if (CHECK(c, pipe(fds) == 0)) {
		ssize_t m;

		CHECK_I64(c, csim_wire_result_send(fds[1], &r), 0);
		close(fds[1]);
		m = read(fds[0], buf2, sizeof(buf2));
		close(fds[0]);
		if (CHECK(c, m > 0) && CHECK_I64(c, csim_wire_result_parse(&back, buf2, (size_t)m), 0)) {
			CHECK(c, back.fig.op_name == NULL);
			CHECK_I64(c, back.fig.has_span, 0);
			CHECK_I64(c, back.fig.has_cycles, 0);
			csim_wire_result_release(&back);
		}
	}
	/* A worker that died half-way: every cut is refused. */
	for (ssize_t k = 0; k < n; k++)
		if (!CHECK_I64(c, csim_wire_result_parse(&back, buf, (size_t)k), 1))
			break;
	buf[n] = 0;
	CHECK_I64(c, csim_wire_result_parse(&back, buf, (size_t)n + 1), 1);
}

int main(void)
{
	struct check_ctx c = { 0, 0, NULL };

	CHECK_RUN(&c, test_csv_quoting);
	CHECK_RUN(&c, test_share_digits);
	CHECK_RUN(&c, test_summary_files);
	CHECK_RUN(&c, test_wire);
	return check_done(&c);
}
