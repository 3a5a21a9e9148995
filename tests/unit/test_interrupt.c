/*
 * interrupt: once SIGTERM has arrived, reading the dump, writing an output
 * and copying the raw folder each stop with CSIM_E_INTERRUPTED through
 * their ordinary error paths: no temporary file or folder is left and
 * older outputs are untouched. A signal cannot be taken back, so this is
 * one program that raises it once, after the checks that need it absent.
 */
#define _POSIX_C_SOURCE 200809L
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "read/block_reader.h"
#include "check.h"
#include "base/interrupt.h"
#include "write/out_file.h"
#include "write/raw_copy.h"
#include "base/log.h"
#include "testutil.h"

static void check_interrupted(struct check_ctx *c, int rc, const struct csim_error *err)
{
	CHECK_I64(c, rc, CSIM_E_INTERRUPTED);
	CHECK_CONTAINS(c, err->message, "interrupted by SIGTERM");
}

static void test_nothing_pending_before_a_signal(struct check_ctx *c)
{
	struct sigaction sa;

	CHECK_I64(c, csim_interrupt_pending(), 0);
	csim_interrupt_resend();   /* no signal recorded: a no-op */
	CHECK_I64(c, csim_interrupt_install(), 0);
	CHECK(c, sigaction(SIGTERM, NULL, &sa) == 0 && sa.sa_handler != SIG_DFL);
	CHECK_I64(c, csim_interrupt_pending(), 0);
}

static void test_signal_is_recorded_and_handler_reset(struct check_ctx *c)
{
	struct sigaction sa;

	CHECK_I64(c, raise(SIGTERM), 0);
	CHECK_I64(c, csim_interrupt_pending(), SIGTERM);
	/* SA_RESETHAND: a second signal would end the process at once. */
	CHECK(c, sigaction(SIGTERM, NULL, &sa) == 0 && sa.sa_handler == SIG_DFL);
}

static void test_reading_stops(struct check_ctx *c)
{
	struct tbuf b = { NULL, 0, 0, 0 };
	char dir[64], path[128], buf[64];
	struct csim_block_reader r;
	struct csim_block blk;
	struct csim_error err;
	int has = 0;

	if (!CHECK(c, tdir_make(dir, sizeof(dir)) == 0))
		return;
	tpath(path, sizeof(path), dir, "visualize_data.bin");
	tbuf_blocks(&b, 2, "{\"traceEvents\":[]}");
	if (CHECK(c, tfile_write(path, b.p, b.n) == 0) &&
	    CHECK_I64(c, csim_block_reader_open(&r, path, &err), CSIM_OK)) {
		int rc = csim_block_reader_next(&r, &blk, &has, &err);

		if (rc == CSIM_OK) {
			size_t got = 0;

			rc = csim_block_reader_read(&r, buf, sizeof(buf), &got, &err);
		}
		check_interrupted(c, rc, &err);
		csim_block_reader_release(&r);
	}
	tbuf_free(&b);
	tdir_remove(dir);
}

static void test_writing_stops_and_leaves_the_older_file(struct check_ctx *c)
{
	static char chunk[1 << 16];
	char dir[64], path[128];
	struct csim_out o;
	struct csim_error err;
	char *got;
	size_t n = 0;

	if (!CHECK(c, tdir_make(dir, sizeof(dir)) == 0))
		return;
	tpath(path, sizeof(path), dir, "trace.clean.json");
	memset(chunk, 'x', sizeof(chunk));
	if (CHECK(c, tfile_write(path, "old", 3) == 0) &&
	    CHECK_I64(c, csim_out_open(&o, dir, "trace.clean.json", &err), CSIM_OK)) {
		for (int i = 0; i < 64; i++)   /* 4 MiB: several buffer flushes */
			csim_out_bytes(&o, chunk, sizeof(chunk));
		CHECK(c, csim_out_failed(&o));
		check_interrupted(c, csim_out_commit(&o, &err), &err);
	}
	got = tfile_read(path, &n);
	CHECK_BYTES(c, got, n, "old", 3);
	free(got);
	CHECK_I64(c, tdir_count(dir), 1);   /* no temporary file */
	tdir_remove(dir);
}

static void test_raw_copy_stops_and_keeps_the_older_copy(struct check_ctx *c)
{
	char src[64], out[64], path[192], old_dir[192], old[256];
	struct csim_log log = { stdout, stderr, 1, NULL };
	struct csim_raw_copy_stats st;
	struct csim_out_set set;
	struct csim_error err;
	char *got;
	size_t n = 0;

	csim_out_set_init(&set);

	if (!CHECK(c, tdir_make(src, sizeof(src)) == 0))
		return;
	if (!CHECK(c, tdir_make(out, sizeof(out)) == 0)) {
		tdir_remove(src);
		return;
	}
	tpath(path, sizeof(path), src, "visualize_data.bin");
	tpath(old_dir, sizeof(old_dir), out, "raw_simulator");
	tpath(old, sizeof(old), old_dir, "visualize_data.bin");
	if (CHECK(c, tfile_write(path, "new", 3) == 0) &&
	    CHECK(c, mkdir(old_dir, 0755) == 0)) {
		if (CHECK(c, tfile_write(old, "old", 3) == 0) &&
		    CHECK(c, csim_out_set_begin(&set, out, &log, &err) == CSIM_OK))
			check_interrupted(c, csim_raw_copy(src, "visualize_data.bin", &set, &log, &st, &err), &err);
	}
	csim_out_set_release(&set);   /* the temporary folder goes */
	got = tfile_read(old, &n);
	CHECK_BYTES(c, got, n, "old", 3);
	free(got);
	CHECK_I64(c, tdir_count(out), 1);   /* raw_simulator only, no temp folder */
	tdir_remove(out);
	tdir_remove(src);
}

int main(void)
{
	struct check_ctx c = { 0, 0, NULL };

	CHECK_RUN(&c, test_nothing_pending_before_a_signal);
	CHECK_RUN(&c, test_signal_is_recorded_and_handler_reset);
	CHECK_RUN(&c, test_reading_stops);
	CHECK_RUN(&c, test_writing_stops_and_leaves_the_older_file);
	CHECK_RUN(&c, test_raw_copy_stops_and_keeps_the_older_copy);
	return check_done(&c);
}
