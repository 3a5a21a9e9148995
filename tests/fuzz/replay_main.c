/*
 * replay_main: runs a fuzz target's entry point over saved inputs, without
 * libFuzzer, so any compiler (and ctest) re-checks every corpus file.
 *
 *   fuzz_replay_<target> FILE_OR_DIR...
 *
 * Prints "N passed, 0 failed"; a crash, a sanitizer report or a violated
 * assertion of the target (fuzz_assert.h: it names the input and aborts)
 * fails the test, and so does an argument that is missing or holds no
 * input file.
 */
#define _GNU_SOURCE
#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "fuzz_assert.h"
#include "fuzz_util.h"

/* The input being run, for a failed assertion to name. */
static const char *current;

const char *fuzz_input_name(void)
{
	return current;
}

static int run_file(const char *path)
{
	FILE *f = fopen(path, "rb");
	unsigned char *buf = NULL;
	long n;

	if (f == NULL || fseek(f, 0, SEEK_END) != 0 || (n = ftell(f)) < 0 ||
	    fseek(f, 0, SEEK_SET) != 0 || (buf = malloc((size_t)n + 1)) == NULL ||
	    fread(buf, 1, (size_t)n, f) != (size_t)n) {
		fprintf(stderr, "replay: cannot read %s\n", path);
		if (f != NULL)
			fclose(f);
		free(buf);
		return -1;
	}
	fclose(f);
	current = path;
	LLVMFuzzerTestOneInput(buf, (size_t)n);
	current = NULL;
	free(buf);
	return 0;
}

static int run_path(const char *path, unsigned *count)
{
	struct stat st;
	struct dirent **names;
	int n, rc = 0;

	if (stat(path, &st) != 0)
		return -1;
	if (!S_ISDIR(st.st_mode)) {
		(*count)++;
		return run_file(path);
	}
	n = scandir(path, &names, NULL, alphasort);
	for (int i = 0; i < n; i++) {
		char child[4096];

		if (names[i]->d_name[0] != '.') {
			snprintf(child, sizeof(child), "%s/%s", path, names[i]->d_name);
			if (run_path(child, count) != 0)
				rc = -1;
		}
		free(names[i]);
	}
	free(names);
	return n < 0 ? -1 : rc;
}

/* Each argument must supply at least one input: an empty or missing corpus
 * folder would otherwise make the replay pass having run nothing. */
int main(int argc, char **argv)
{
	unsigned count = 0;
	int rc = 0;

	if (argc < 2) {
		fprintf(stderr, "usage: %s FILE_OR_DIR...\n", argv[0]);
		return 2;
	}
	for (int i = 1; i < argc; i++) {
		unsigned before = count;

		if (run_path(argv[i], &count) != 0) {
			fprintf(stderr, "replay: cannot read %s\n", argv[i]);
			rc = 1;
		} else if (count == before) {
			fprintf(stderr, "replay: no input in %s\n", argv[i]);
			rc = 1;
		}
	}
	printf("%u passed, %d failed\n", count, rc);
	return rc;
}
