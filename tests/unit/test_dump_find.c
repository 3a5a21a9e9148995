/*
 * dump_find: path normalizing and relative paths on text; discovery of a
 * hand-built tree in both layouts of realdata-notes (kernel_insight
 * funcs/<k>/collect/out/OPPROF_x, multi-operator OPPROF_x/<op>/<launch>),
 * a bare .bin.gz, a symbolic-link loop, a folder deeper than the bound,
 * the -o folder inside the tree, raw_simulator copies of earlier output
 * folders (skipped) and a raw_simulator folder that is none (walked);
 * bytewise order, duplicates and the base of several PATHs.
 */
#define _DEFAULT_SOURCE   /* mkdtemp, symlink */
#include <stdlib.h>
#include <unistd.h>

#include "check.h"
#include "read/dump_find.h"
#include "testutil.h"

static void check_text(struct check_ctx *c, char *got, const char *want)
{
	if (want == NULL)
		CHECK(c, got == NULL);
	else if (CHECK(c, got != NULL))
		CHECK_STR(c, got, want);
	free(got);
}

static void test_normalize(struct check_ctx *c)
{
	char cwd[4096], want[4200];

	check_text(c, csim_dump_path_normalize("/a/b"), "/a/b");
	check_text(c, csim_dump_path_normalize("/a//b/"), "/a/b");
	check_text(c, csim_dump_path_normalize("/a/./b/../c"), "/a/c");
	check_text(c, csim_dump_path_normalize("/.."), "/");
	check_text(c, csim_dump_path_normalize("/"), "/");
	check_text(c, csim_dump_path_normalize("/a/.."), "/");
	if (!CHECK(c, getcwd(cwd, sizeof(cwd)) != NULL))
		return;
	snprintf(want, sizeof(want), "%s/x/y", strcmp(cwd, "/") == 0 ? "" : cwd);
	check_text(c, csim_dump_path_normalize("./x//y/"), want);
}

static void test_relative(struct check_ctx *c)
{
	check_text(c, csim_dump_path_relative("/a/b/c", "/a"), "b/c");
	check_text(c, csim_dump_path_relative("/a/b", "/"), "a/b");
	check_text(c, csim_dump_path_relative("/ab/c", "/a"), ".");  /* not below */
	check_text(c, csim_dump_path_relative("/a", "/a"), ".");     /* not strictly */
	check_text(c, csim_dump_path_relative("/", "/"), ".");
}

/* Writes a (tiny, not valid) dump file at root/rel. */
static int put(const char *root, const char *rel)
{
	char path[4096], dir[4096];
	const char *slash;

	tpath(path, sizeof(path), root, rel);
	slash = strrchr(rel, '/');
	if (slash != NULL) {
		snprintf(dir, sizeof(dir), "%.*s", (int)(slash - rel), rel);
		if (tdir_mkpath(root, dir) != 0)
			return -1;
	}
	return tfile_write(path, "x", 1);
}

static struct csim_log quiet_log(FILE *err)
{
	struct csim_log log = { stdout, err, 0, NULL };

	return log;
}

static void test_tree(struct check_ctx *c)
{
	char root[64], path[4200], out[4200], deep[4200];
	static const char *const dumps[] = {
		"k/funcs/matmul/collect/out/OPPROF_20260101_1_A/simulator/visualize_data.bin",
		"k/funcs/add/collect/out/OPPROF_20260101_2_B/simulator/visualize_data.bin.gz",
		"m/OPPROF_3_C/Add/0/simulator/visualize_data.bin",
		"m/OPPROF_3_C/Add/1/simulator/visualize_data.bin",
		"m/OPPROF_3_C/Mul/0/simulator/visualize_data.bin",
		"bare/visualize_data.bin.gz",
		"Z/visualize_data.bin",
	};
	/* In bytewise order ('Z' < 'b' < 'k' < 'm'), as folders under root. */
	static const char *const want[] = {
		"Z", "bare", "k/funcs/add/collect/out/OPPROF_20260101_2_B",
		"k/funcs/matmul/collect/out/OPPROF_20260101_1_A",
		"m/OPPROF_3_C/Add/0", "m/OPPROF_3_C/Add/1", "m/OPPROF_3_C/Mul/0",
	};
	struct csim_dump_list l;
	struct csim_error err;
	struct csim_log log = quiet_log(stderr);
	const char *paths[1];
	int rc;

	if (!CHECK(c, tdir_make(root, sizeof(root)) == 0))
		return;
	for (size_t i = 0; i < sizeof(dumps) / sizeof(dumps[0]); i++)
		CHECK(c, put(root, dumps[i]) == 0);
	/* Below a dump nothing is searched: raw_simulator copies stay unseen. */
	CHECK(c, put(root, "Z/raw_simulator/visualize_data.bin") == 0);
	/* A loop, an -o folder inside the tree holding an older output's copy,
	   and a dump past the depth bound. */
	CHECK(c, symlink("..", tpath(path, sizeof(path), root, "m/loop")) == 0);
	CHECK(c, put(root, "out/OPPROF_old/simulator/visualize_data.bin") == 0);
	snprintf(deep, sizeof(deep), "deep");
	for (int i = 0; i < CSIM_DUMP_FIND_DEPTH; i++)
		strcat(deep, "/d");
	strcat(deep, "/visualize_data.bin");
	CHECK(c, put(root, deep) == 0);

	paths[0] = root;
	tpath(out, sizeof(out), root, "out");
	csim_error_clear(&err);
	rc = csim_dump_find(&l, paths, 1, out, &log, &err);
	if (!CHECK_I64(c, rc, CSIM_OK))
		goto done;
	CHECK(c, l.batch);
	CHECK_STR(c, l.base, root);
	if (CHECK_U64(c, l.n, sizeof(want) / sizeof(want[0]))) {
		for (size_t i = 0; i < l.n; i++) {
			CHECK_STR(c, l.items[i].rel, want[i]);
			CHECK(c, l.items[i].bin != NULL && l.items[i].error == NULL);
		}
		CHECK_STR(c, l.items[1].bin, tpath(path, sizeof(path), root, "bare/visualize_data.bin.gz"));
		CHECK_STR(c, l.items[4].dir, tpath(path, sizeof(path), root, "m/OPPROF_3_C/Add/0"));
	}
	csim_dump_list_release(&l);

	/* Several PATHs, one twice and one spelled with "..": relative to the
	   common parent of their parents, each dump once. */
	{
		char a[4200], b[4200], m[4200];
		const char *several[3];

		tpath(a, sizeof(a), root, "m/OPPROF_3_C/Add/0");
		tpath(b, sizeof(b), root, "m/OPPROF_3_C/../OPPROF_3_C/Add/0/simulator");
		tpath(m, sizeof(m), root, "m");
		several[0] = a;
		several[1] = b;
		several[2] = m;
		rc = csim_dump_find(&l, several, 3, NULL, &log, &err);
		if (CHECK_I64(c, rc, CSIM_OK) && CHECK_U64(c, l.n, 3)) {
			CHECK(c, l.batch);
			CHECK_STR(c, l.base, root);
			CHECK_STR(c, l.items[0].rel, "m/OPPROF_3_C/Add/0");
			CHECK_STR(c, l.items[2].rel, "m/OPPROF_3_C/Mul/0");
		}
		csim_dump_list_release(&l);
	}
	/* A PATH that holds no dump, among others: an item with its message. */
	{
		char a[4200], none[4200];
		const char *two[2];

		tpath(a, sizeof(a), root, "Z");
		tpath(none, sizeof(none), root, "missing");
		two[0] = a;
		two[1] = none;
		rc = csim_dump_find(&l, two, 2, NULL, &log, &err);
		if (CHECK_I64(c, rc, CSIM_OK) && CHECK_U64(c, l.n, 2)) {
			CHECK_STR(c, l.items[0].rel, "Z");
			CHECK_STR(c, l.items[1].rel, "missing");
			CHECK(c, l.items[1].bin == NULL);
			CHECK_CONTAINS(c, l.items[1].error, "missing: cannot open: No such file or directory");
		}
		csim_dump_list_release(&l);
	}
	/* One PATH that is one dump: single mode. */
	{
		char a[4200];
		const char *one[1];

		tpath(a, sizeof(a), root, "m/OPPROF_3_C/Mul/0");
		one[0] = a;
		rc = csim_dump_find(&l, one, 1, NULL, &log, &err);
		if (CHECK_I64(c, rc, CSIM_OK) && CHECK_U64(c, l.n, 1))
			CHECK(c, !l.batch);
		csim_dump_list_release(&l);
	}
done:
	tdir_remove(root);
}

/*
 * SPEC §11: the tool's own outputs are no dumps. Output folders of earlier
 * runs (an -o elsewhere, so not skipped as -o) hold raw_simulator copies
 * beside summary.json, trace.clean.json or trace.clean.json.gz: skipped. A
 * raw_simulator with no output beside it, or beside an unrelated file, is
 * someone's folder: walked. By hand: dumps a, b, c and the two kept ones.
 */
static void test_own_outputs_skipped(struct check_ctx *c)
{
	char root[64], path[4200];
	static const char *const want[] = {
		"a", "b", "c", "keep/raw_simulator", "other/raw_simulator",
	};
	struct csim_dump_list l;
	struct csim_error err;
	struct csim_log log = quiet_log(stderr);
	const char *paths[1];

	if (!CHECK(c, tdir_make(root, sizeof(root)) == 0))
		return;
	CHECK(c, put(root, "a/simulator/visualize_data.bin") == 0);
	CHECK(c, put(root, "b/simulator/visualize_data.bin") == 0);
	CHECK(c, put(root, "c/visualize_data.bin.gz") == 0);
	/* An earlier batch with -o conv: outputs and copies under conv/<rel>. */
	CHECK(c, put(root, "conv/a/summary.json") == 0);
	CHECK(c, put(root, "conv/a/raw_simulator/visualize_data.bin") == 0);
	CHECK(c, put(root, "conv/b/trace.clean.json") == 0);
	CHECK(c, put(root, "conv/b/raw_simulator/visualize_data.bin") == 0);
	CHECK(c, put(root, "conv/c/trace.clean.json.gz") == 0);
	CHECK(c, put(root, "conv/c/raw_simulator/visualize_data.bin.gz") == 0);
	/* The copy of a multi-level dump: simulator/ inside the copy. */
	CHECK(c, put(root, "conv/d/summary.json") == 0);
	CHECK(c, put(root, "conv/d/raw_simulator/simulator/visualize_data.bin") == 0);
	/* Not the tool's: no output beside it, or an unrelated file. */
	CHECK(c, put(root, "keep/raw_simulator/visualize_data.bin") == 0);
	CHECK(c, put(root, "other/summary.txt") == 0);
	CHECK(c, put(root, "other/raw_simulator/visualize_data.bin") == 0);

	paths[0] = root;
	if (CHECK_I64(c, csim_dump_find(&l, paths, 1, NULL, &log, &err), CSIM_OK) &&
	    CHECK_U64(c, l.n, sizeof(want) / sizeof(want[0]))) {
		for (size_t i = 0; i < l.n; i++)
			CHECK_STR(c, l.items[i].rel, want[i]);
		CHECK_STR(c, l.items[3].bin,
			  tpath(path, sizeof(path), root, "keep/raw_simulator/visualize_data.bin"));
	}
	csim_dump_list_release(&l);
	tdir_remove(root);
}

/* A folder the walk cannot read is a warning, not a failure or a hang. */
static void test_unreadable(struct check_ctx *c)
{
	char root[64], locked[4200];
	struct csim_dump_list l;
	struct csim_error err;
	FILE *errs = tmpfile();
	struct csim_log log = quiet_log(errs);
	const char *paths[1];

	if (!CHECK(c, tdir_make(root, sizeof(root)) == 0 && errs != NULL))
		return;
	CHECK(c, put(root, "a/simulator/visualize_data.bin") == 0);
	CHECK(c, tdir_mkpath(root, "locked/x") == 0);
	tpath(locked, sizeof(locked), root, "locked");
	chmod(locked, 0);
	paths[0] = root;
	if (CHECK_I64(c, csim_dump_find(&l, paths, 1, NULL, &log, &err), CSIM_OK)) {
		CHECK_U64(c, l.n, 1);
		/* root reads any folder: then there is nothing to warn about. */
		if (geteuid() != 0)
			CHECK_U64(c, l.unreadable, 1);
	}
	csim_dump_list_release(&l);
	chmod(locked, 0700);
	fclose(errs);
	tdir_remove(root);
}

int main(void)
{
	struct check_ctx c = { 0, 0, NULL };

	CHECK_RUN(&c, test_normalize);
	CHECK_RUN(&c, test_relative);
	CHECK_RUN(&c, test_tree);
	CHECK_RUN(&c, test_own_outputs_skipped);
	CHECK_RUN(&c, test_unreadable);
	return check_done(&c);
}
