/*
 * Fuzz target: the whole pipeline, bytes to both outputs. The input is a
 * memory file; the outputs go to a fresh folder under /dev/shm that is
 * emptied after each run.
 */
#define _GNU_SOURCE
#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "fuzz_util.h"

#include "cli/cli.h"
#include "cli/convert.h"
#include "base/log.h"

/* Every file the run left (its outputs, whatever they are), then the folder. */
static void remove_outputs(const char *dir)
{
	DIR *d = opendir(dir);
	struct dirent *e;
	char path[512];

	while (d != NULL && (e = readdir(d)) != NULL) {
		if (strcmp(e->d_name, ".") == 0 || strcmp(e->d_name, "..") == 0)
			continue;
		snprintf(path, sizeof(path), "%s/%s", dir, e->d_name);
		unlink(path);
	}
	if (d != NULL)
		closedir(d);
	rmdir(dir);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct fuzz_file f;
	struct csim_options opt;
	struct csim_error err;
	FILE *null = fopen("/dev/null", "w");
	struct csim_log log = { null, null, 0, NULL };
	char dir[] = "/dev/shm/csim-fuzz-XXXXXX";

	if (null == NULL)
		return 0;
	if (mkdtemp(dir) == NULL || fuzz_file_open(&f, data, size) != 0) {
		fclose(null);
		return 0;
	}
	memset(&opt, 0, sizeof(opt));
	opt.input = f.path;
	opt.output_dir = dir;
	opt.counters = 1;
	opt.keep_scalar = (int)(size & 1);
	opt.keep_cache_ccu = (int)((size >> 1) & 1);
	/* Every other input also through trace.pftrace's exact times, tracks
	   and writer. */
	opt.formats = CSIM_FORMAT_JSON | ((size >> 2) & 1 ? CSIM_FORMAT_PERFETTO : 0u);
	csim_error_clear(&err);
	(void)csim_convert(&opt, &log, &err);
	remove_outputs(dir);
	fuzz_file_close(&f);
	fclose(null);
	return 0;
}
