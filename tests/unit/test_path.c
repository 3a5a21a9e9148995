/*
 * path: joining, folder part and trimming as the messages show them; mkdir -p
 * of the output folder and its failures; the within test the raw copy uses
 * to refuse copying a folder into itself.
 */
#define _DEFAULT_SOURCE   /* mkdtemp */
#include <stdlib.h>

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

	if (!CHECK(c, tdir_make(root, sizeof(root)) == 0))
		return;
	tpath(deep, sizeof(deep), root, "a/b//c/");
	csim_error_clear(&err);
	CHECK_I64(c, csim_path_make_dirs(deep, &err), CSIM_OK);
	CHECK(c, stat(deep, &st) == 0 && S_ISDIR(st.st_mode));
	CHECK_I64(c, csim_path_make_dirs(deep, &err), CSIM_OK);   /* exists: fine */
	/* A file where a folder should be: an output error naming it. */
	tpath(file, sizeof(file), root, "f");
	CHECK(c, tfile_write(file, "x", 1) == 0);
	CHECK_I64(c, csim_path_make_dirs(file, &err), CSIM_E_OUTPUT);
	CHECK(c, strstr(err.message, "not a folder") != NULL);
	tpath(deep, sizeof(deep), root, "f/sub");
	CHECK_I64(c, csim_path_make_dirs(deep, &err), CSIM_E_OUTPUT);
	CHECK(c, strstr(err.message, "cannot create output folder") != NULL);
	tdir_remove(root);
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
	CHECK_RUN(&c, test_make_dirs);
	CHECK_RUN(&c, test_within);
	return check_done(&c);
}
