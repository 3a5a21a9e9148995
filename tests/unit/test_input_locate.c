/*
 * input_locate: PATH resolution of SPEC §1: a file, a dir holding
 * visualize_data.bin, an OPPROF dir holding simulator/visualize_data.bin,
 * and the error that says what was looked for and what lies deeper.
 */
#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "check.h"
#include "read/input_locate.h"
#include "testutil.h"

#define BIN "visualize_data.bin"

/* Creates dir/rel (and its parent folders) as a small file. */
static int touch(const char *dir, const char *rel)
{
	char path[512];
	char *slash;

	snprintf(path, sizeof(path), "%s", rel);
	slash = strrchr(path, '/');
	if (slash != NULL) {
		*slash = '\0';
		if (tdir_mkpath(dir, path) != 0)
			return -1;
	}
	snprintf(path, sizeof(path), "%s/%s", dir, rel);
	return tfile_write(path, "x", 1);
}

/* Locates path and compares the results; want_* NULL means "fails". */
static void expect_found(struct check_ctx *c, const char *path,
			 const char *want_bin, const char *want_dir)
{
	char unset[] = "unset";
	char *bin = unset, *dir = unset;
	struct csim_error err;

	csim_error_clear(&err);
	if (!CHECK_I64(c, csim_input_locate(path, &bin, &dir, &err), CSIM_OK) ||
	    !CHECK_STR(c, bin, want_bin) || !CHECK_STR(c, dir, want_dir))
		fprintf(stderr, "    PATH %s: %s\n", path, err.message);
	if (bin != unset)
		free(bin);
	if (dir != unset)
		free(dir);
}

static void expect_missing(struct check_ctx *c, const char *path,
			   struct csim_error *err)
{
	char unset[] = "unset";
	char *bin = unset, *dir = unset;

	csim_error_clear(err);
	CHECK_I64(c, csim_input_locate(path, &bin, &dir, err), CSIM_E_INPUT);
	CHECK(c, bin == NULL);
	CHECK(c, dir == NULL);
	if (bin != unset)
		free(bin);
	if (dir != unset)
		free(dir);
}

static void test_path_is_a_file(struct check_ctx *c)
{
	char dir[64], file[128];

	if (!CHECK(c, tdir_make(dir, sizeof(dir)) == 0))
		return;
	CHECK(c, touch(dir, "my_dump.bin") == 0);
	tpath(file, sizeof(file), dir, "my_dump.bin");
	expect_found(c, file, file, dir);
	tdir_remove(dir);
}

static void test_relative_file_without_a_folder(struct check_ctx *c)
{
	char dir[64], cwd[PATH_MAX];

	if (!CHECK(c, getcwd(cwd, sizeof(cwd)) != NULL) ||
	    !CHECK(c, tdir_make(dir, sizeof(dir)) == 0))
		return;
	CHECK(c, touch(dir, BIN) == 0);
	if (CHECK(c, chdir(dir) == 0)) {
		expect_found(c, BIN, BIN, ".");
		expect_found(c, ".", "./" BIN, ".");
		CHECK(c, chdir(cwd) == 0);
	}
	tdir_remove(dir);
}

static void test_dir_holding_the_dump(struct check_ctx *c)
{
	char dir[64], want[128], slash[80];

	if (!CHECK(c, tdir_make(dir, sizeof(dir)) == 0))
		return;
	CHECK(c, touch(dir, BIN) == 0);
	CHECK(c, touch(dir, "simulator/" BIN) == 0);   /* the top one wins */
	tpath(want, sizeof(want), dir, BIN);
	expect_found(c, dir, want, dir);
	snprintf(slash, sizeof(slash), "%s/", dir);
	expect_found(c, slash, want, dir);
	tdir_remove(dir);
}

static void test_opprof_dir_holding_simulator_dump(struct check_ctx *c)
{
	char dir[64], want[128], want_dir[128];

	if (!CHECK(c, tdir_make(dir, sizeof(dir)) == 0))
		return;
	CHECK(c, touch(dir, "OPPROF_1/simulator/" BIN) == 0);
	CHECK(c, touch(dir, "OPPROF_1/simulator/core0.veccore0/trace.json") == 0);
	snprintf(want, sizeof(want), "%s/OPPROF_1/simulator/%s", dir, BIN);
	snprintf(want_dir, sizeof(want_dir), "%s/OPPROF_1/simulator", dir);
	snprintf(dir + strlen(dir), sizeof(dir) - strlen(dir), "%s", "/OPPROF_1");
	expect_found(c, dir, want, want_dir);
	/* The simulator/ folder itself works too. */
	expect_found(c, want_dir, want, want_dir);
	dir[strlen(dir) - strlen("/OPPROF_1")] = '\0';
	tdir_remove(dir);
}

static void test_nothing_found_says_what_was_looked_for(struct check_ctx *c)
{
	char dir[64], want[200];
	struct csim_error err;

	if (!CHECK(c, tdir_make(dir, sizeof(dir)) == 0))
		return;
	CHECK(c, touch(dir, "simulator/trace.json") == 0);
	CHECK(c, touch(dir, "other.bin") == 0);
	expect_missing(c, dir, &err);
	CHECK_CONTAINS(c, err.message, BIN);
	snprintf(want, sizeof(want), "%s/%s(.gz)", dir, BIN);
	CHECK_CONTAINS(c, err.message, want);
	snprintf(want, sizeof(want), "%s/simulator/%s(.gz)", dir, BIN);
	CHECK_CONTAINS(c, err.message, want);
	CHECK(c, strstr(err.message, "deeper") == NULL);
	tdir_remove(dir);
}

static void test_nested_dumps_are_counted_and_the_first_named(struct check_ctx *c)
{
	char dir[64], want[200];
	struct csim_error err;

	if (!CHECK(c, tdir_make(dir, sizeof(dir)) == 0))
		return;
	/* Created in reverse order: the report must still be sorted. */
	CHECK(c, touch(dir, "b/0/simulator/" BIN) == 0);
	CHECK(c, touch(dir, "a/0/simulator/" BIN) == 0);
	CHECK(c, touch(dir, "a/0/simulator/not_a_dump.bin") == 0);
	expect_missing(c, dir, &err);
	snprintf(want, sizeof(want), "%s/%s", dir, BIN);
	CHECK_CONTAINS(c, err.message, want);
	CHECK_CONTAINS(c, err.message, "2 dump");
	snprintf(want, sizeof(want), "%s/a/0/simulator/%s", dir, BIN);
	CHECK_CONTAINS(c, err.message, want);
	CHECK(c, strstr(err.message, "/b/0/") == NULL);
	tdir_remove(dir);
}

static void test_missing_path_is_an_input_error(struct check_ctx *c)
{
	char dir[64], path[128];
	struct csim_error err;

	if (!CHECK(c, tdir_make(dir, sizeof(dir)) == 0))
		return;
	tpath(path, sizeof(path), dir, "no_such_thing");
	expect_missing(c, path, &err);
	CHECK_CONTAINS(c, err.message, path);
	CHECK_CONTAINS(c, err.message, "No such file or directory");
	tdir_remove(dir);
}

/* PATH/visualize_data.bin.gz and PATH/simulator/visualize_data.bin.gz. */
static void test_gzip_dump_in_a_folder(struct check_ctx *c)
{
	char dir[64], sim[80], want[128];

	if (!CHECK(c, tdir_make(dir, sizeof(dir)) == 0))
		return;
	CHECK(c, touch(dir, "simulator/" BIN ".gz") == 0);
	tpath(sim, sizeof(sim), dir, "simulator");
	tpath(want, sizeof(want), sim, BIN ".gz");
	expect_found(c, dir, want, sim);
	expect_found(c, sim, want, sim);
	/* The folder's own dump, even gzipped, comes before simulator/'s. */
	CHECK(c, touch(dir, BIN ".gz") == 0);
	tpath(want, sizeof(want), dir, BIN ".gz");
	expect_found(c, dir, want, dir);
	tdir_remove(dir);
}

/* Both in one folder: the plain file wins (docs/decisions.md). */
static void test_plain_dump_preferred_to_gzip(struct check_ctx *c)
{
	char dir[64], want[128];

	if (!CHECK(c, tdir_make(dir, sizeof(dir)) == 0))
		return;
	CHECK(c, touch(dir, BIN ".gz") == 0);
	CHECK(c, touch(dir, BIN) == 0);
	tpath(want, sizeof(want), dir, BIN);
	expect_found(c, dir, want, dir);
	tdir_remove(dir);
}

int main(void)
{
	struct check_ctx c = { 0, 0, NULL };

	CHECK_RUN(&c, test_path_is_a_file);
	CHECK_RUN(&c, test_relative_file_without_a_folder);
	CHECK_RUN(&c, test_dir_holding_the_dump);
	CHECK_RUN(&c, test_opprof_dir_holding_simulator_dump);
	CHECK_RUN(&c, test_nothing_found_says_what_was_looked_for);
	CHECK_RUN(&c, test_nested_dumps_are_counted_and_the_first_named);
	CHECK_RUN(&c, test_missing_path_is_an_input_error);
	CHECK_RUN(&c, test_gzip_dump_in_a_folder);
	CHECK_RUN(&c, test_plain_dump_preferred_to_gzip);
	return check_done(&c);
}
