/*
 * path: joining, folder part and trimming as the messages show them; mkdir -p
 * of the output folder and its failures; the within test the raw copy uses
 * to refuse copying a folder into itself.
 */
#define _DEFAULT_SOURCE   /* mkdtemp */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "check.h"
#include "base/path.h"
#include "testutil.h"

static void check_text(struct check_ctx *c, char *got, const char *want)
{
	if (CHECK(c, got != NULL))
		CHECK_STR(c, got, want);
	free(got);
}

static void test_join_dir_trim(struct check_ctx *c)
{
	check_text(c, csim_path_join("out", "trace.clean.json"), "out/trace.clean.json");
	check_text(c, csim_path_join("out/", "x"), "out/x");
	check_text(c, csim_path_join("/", "x"), "/x");
	check_text(c, csim_path_join("", "x"), "/x");
	check_text(c, csim_path_dir("a/b/visualize_data.bin"), "a/b");
	check_text(c, csim_path_dir("visualize_data.bin"), ".");
	check_text(c, csim_path_dir("/visualize_data.bin"), "/");
	check_text(c, csim_path_trim("out///"), "out");
	check_text(c, csim_path_trim("/"), "/");
	check_text(c, csim_path_trim("//"), "/");
	check_text(c, csim_path_trim("a/b"), "a/b");
}

static void test_make_dirs(struct check_ctx *c)
{
	char root[64], deep[256], file[256];
	struct csim_error err;
	struct stat st;
	size_t made = 9;

	if (!CHECK(c, tdir_make(root, sizeof(root)) == 0))
		return;
	tpath(deep, sizeof(deep), root, "a/b//c/");
	csim_error_clear(&err);
	CHECK_I64(c, csim_path_make_dirs(deep, &made, &err), CSIM_OK);
	CHECK(c, stat(deep, &st) == 0 && S_ISDIR(st.st_mode));
	CHECK_I64(c, made, strlen(root) + 2);   /* root/a, the outermost made */
	CHECK_I64(c, csim_path_make_dirs(deep, &made, &err), CSIM_OK);   /* exists: fine */
	CHECK_I64(c, made, 0);
	/* A file where a folder should be: an output error naming it. */
	tpath(file, sizeof(file), root, "f");
	CHECK(c, tfile_write(file, "x", 1) == 0);
	CHECK_I64(c, csim_path_make_dirs(file, &made, &err), CSIM_E_OUTPUT);
	CHECK(c, strstr(err.message, "not a folder") != NULL);
	tpath(deep, sizeof(deep), root, "f/sub");
	CHECK_I64(c, csim_path_make_dirs(deep, &made, &err), CSIM_E_OUTPUT);
	CHECK(c, strstr(err.message, "cannot create output folder") != NULL);
	tdir_remove(root);
}

/* What a failed run made goes again; nothing it did not make, nothing in use. */
static void test_unmake_dirs(struct check_ctx *c)
{
	char root[64], deep[576], other[256], top[256], name[300];
	struct csim_error err;
	size_t made = 0, removed = 9;

	if (!CHECK(c, tdir_make(root, sizeof(root)) == 0))
		return;
	csim_error_clear(&err);
	tpath(deep, sizeof(deep), root, "a/b/c");
	tpath(top, sizeof(top), root, "a");
	CHECK_I64(c, csim_path_unmake_dirs(deep, 0, &removed), 0);   /* made nothing */
	CHECK_I64(c, removed, 0);
	CHECK_I64(c, csim_path_make_dirs(deep, &made, &err), CSIM_OK);
	CHECK_I64(c, csim_path_unmake_dirs(deep, made, &removed), 0);
	CHECK_I64(c, removed, strlen(top));
	CHECK(c, access(top, F_OK) != 0 && access(root, F_OK) == 0);
	/* A sibling's folder keeps the parent they share. */
	CHECK_I64(c, csim_path_make_dirs(deep, &made, &err), CSIM_OK);
	CHECK(c, tdir_mkpath(root, "a/x") == 0);
	CHECK_I64(c, csim_path_unmake_dirs(deep, made, &removed), 0);
	tpath(other, sizeof(other), root, "a/b");
	CHECK_I64(c, removed, strlen(other));
	CHECK(c, access(other, F_OK) != 0 && access(top, F_OK) == 0);
	/* A folder holding a file is not removed, nor anything above it. */
	CHECK_I64(c, csim_path_make_dirs(deep, &made, &err), CSIM_OK);
	tpath(other, sizeof(other), root, "a/b/c/kept");
	CHECK(c, tfile_write(other, "x", 1) == 0);
	CHECK_I64(c, csim_path_unmake_dirs(deep, made, &removed), ENOTEMPTY);
	CHECK_I64(c, removed, 0);
	CHECK(c, access(other, F_OK) == 0);
	/* A chain that fails half made is removed again, and the message says so. */
	memset(name, 'n', sizeof(name) - 1);
	name[sizeof(name) - 1] = '\0';
	tpath(other, sizeof(other), root, "new");
	snprintf(deep, sizeof(deep), "%s/%s", other, name);   /* past NAME_MAX */
	CHECK_I64(c, csim_path_make_dirs(deep, &made, &err), CSIM_E_OUTPUT);
	CHECK_I64(c, made, 0);
	CHECK(c, strstr(err.message, "(created by this run)") != NULL);
	CHECK(c, access(other, F_OK) != 0);
	tdir_remove(root);
}

static void test_ends_with(struct check_ctx *c)
{
	CHECK(c, csim_path_ends_with("d/x.bin.xz", ".xz"));
	CHECK(c, csim_path_ends_with("copy.bin", ".bin"));
	CHECK(c, !csim_path_ends_with(".xz", ".xz"));        /* the suffix alone */
	CHECK(c, !csim_path_ends_with("x.bin.gz", ".bin"));
	CHECK(c, !csim_path_ends_with("z", ".xz"));
}

static void test_within(struct check_ctx *c)
{
	char root[64], sub[256], sibling[256];

	if (!CHECK(c, tdir_make(root, sizeof(root)) == 0))
		return;
	CHECK(c, tdir_mkpath(root, "sim/raw") == 0 && tdir_mkpath(root, "simx") == 0);
	tpath(sub, sizeof(sub), root, "sim/raw");
	tpath(sibling, sizeof(sibling), root, "simx");
	CHECK_I64(c, csim_path_within(sub, root), 1);
	CHECK_I64(c, csim_path_within(root, root), 1);
	CHECK_I64(c, csim_path_within(root, sub), 0);
	tpath(sub, sizeof(sub), root, "sim");
	CHECK_I64(c, csim_path_within(sibling, sub), 0);   /* "simx" is not in "sim" */
	tpath(sub, sizeof(sub), root, "missing");
	CHECK_I64(c, csim_path_within(sub, root), 0);
	/* Same folder by identity, whatever the spelling. */
	tpath(sub, sizeof(sub), root, "sim/raw/..");
	tpath(sibling, sizeof(sibling), root, "sim");
	CHECK_I64(c, csim_path_same_folder(sub, sibling), 1);
	CHECK_I64(c, csim_path_same_folder(root, sibling), 0);
	tpath(sub, sizeof(sub), root, "missing");
	CHECK_I64(c, csim_path_same_folder(sub, sub), 0);
	tdir_remove(root);
}

int main(void)
{
	struct check_ctx c = { 0, 0, NULL };

	CHECK_RUN(&c, test_join_dir_trim);
	CHECK_RUN(&c, test_ends_with);
	CHECK_RUN(&c, test_make_dirs);
	CHECK_RUN(&c, test_unmake_dirs);
	CHECK_RUN(&c, test_within);
	return check_done(&c);
}
