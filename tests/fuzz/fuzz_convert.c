/*
 * Fuzz target: the whole pipeline, bytes to both outputs. The input is a
 * memory file; the outputs go to a fresh folder under /dev/shm that is
 * emptied after each run.
 *
 * Asserted of every input (fuzz_assert.h):
 * - csim_convert returns CSIM_OK or CSIM_E_INPUT with a message. The
 *   folder is a fresh one of ours on a memory file system and no option
 *   is a usage error, so an output, usage or signal code (or "out of
 *   memory") is a wrong class.
 * - A failed run leaves its folder as it found it: there, and empty (no
 *   output, no temporary, no commit record; docs/robustness.md, "The
 *   output set"). A good run leaves exactly its set: summary.json,
 *   summary.html, the traces of its formats and, with an API_INSTR that
 *   reshapes, instr_metrics.json; each a non-empty regular file.
 * - A second conversion of the same input into a second fresh folder
 *   gives the same code and message (the folder's name aside) and
 *   byte-identical files.
 */
#define _GNU_SOURCE
#include <dirent.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "fuzz_assert.h"
#include "fuzz_util.h"

#include "cli/cli.h"
#include "cli/convert.h"
#include "base/log.h"

/* What a good run of this target's options may leave: no -z, no raw copy. */
static const char *const set_names[] = {
	"instr_metrics.json", "summary.html", "summary.json", "trace.clean.json", "trace.pftrace"
};

/* Whether a good run must leave the file (instr_metrics.json: only with API_INSTR). */
static int required(const char *name, unsigned formats)
{
	if (strcmp(name, "trace.pftrace") == 0)
		return (formats & CSIM_FORMAT_PERFETTO) != 0;
	return strcmp(name, "instr_metrics.json") != 0;
}

static int in_set(const char *name)
{
	for (size_t i = 0; i < sizeof(set_names) / sizeof(set_names[0]); i++)
		if (strcmp(name, set_names[i]) == 0)
			return 1;
	return 0;
}

/* The file's name and bytes, then the file removed. */
static void take_file(const char *dir, const char *name, size_t size, struct fuzz_trail *t)
{
	char path[512], buf[16384];
	struct stat st;
	FILE *f;
	size_t got;

	snprintf(path, sizeof(path), "%s/%s", dir, name);
	if (lstat(path, &st) != 0 || !S_ISREG(st.st_mode) || st.st_size == 0)
		fuzz_fail(size, "csim_convert succeeded but %s is not a non-empty file", name);
	f = fopen(path, "rb");
	if (f == NULL)
		fuzz_fail(size, "cannot open %s: %s", path, strerror(errno));
	fuzz_trail_text(t, name, strlen(name));
	fuzz_trail_u64(t, (uint64_t)st.st_size);
	while ((got = fread(buf, 1, sizeof(buf), f)) > 0)
		fuzz_trail_bytes(t, buf, got);
	if (ferror(f) || fclose(f) != 0 || unlink(path) != 0)
		fuzz_fail(size, "cannot read or remove %s: %s", path, strerror(errno));
}

/*
 * The folder after a run of code rc: empty after a failure; after a
 * success the set and nothing else, its files taken into t and removed.
 */
static void take_folder(const char *dir, int rc, const char *message, unsigned formats,
			size_t size, struct fuzz_trail *t)
{
	struct dirent **names = NULL;
	int n = scandir(dir, &names, NULL, alphasort);
	size_t found = 0;

	if (n < 0)
		fuzz_fail(size, "csim_convert returned %d and its output folder, there before it, "
			  "is gone: %s", rc, strerror(errno));
	for (int i = 0; i < n; i++) {
		const char *name = names[i]->d_name;

		if (strcmp(name, ".") == 0 || strcmp(name, "..") == 0)
			continue;
		if (rc != CSIM_OK)
			fuzz_fail(size, "csim_convert failed (%d: %s) but left %s in its output folder",
				  rc, message, name);
		if (!in_set(name))
			fuzz_fail(size, "csim_convert succeeded but left %s beside its outputs", name);
		if (required(name, formats))
			found++;
		take_file(dir, name, size, t);
	}
	for (int i = 0; i < n; i++)
		free(names[i]);
	free(names);
	if (rc == CSIM_OK && found != 3u + ((formats & CSIM_FORMAT_PERFETTO) != 0))
		fuzz_fail(size, "csim_convert succeeded but wrote %zu of its %u required outputs",
			  found, 3u + ((formats & CSIM_FORMAT_PERFETTO) != 0));
}

/* The message with the output folder's name as OUT: it differs run to run. */
static void take_message(struct fuzz_trail *t, const char *message, const char *dir)
{
	const size_t dlen = strlen(dir);
	const char *p = message, *hit;

	while ((hit = strstr(p, dir)) != NULL) {
		fuzz_trail_bytes(t, p, (size_t)(hit - p));
		fuzz_trail_bytes(t, "OUT", 3);
		p = hit + dlen;
	}
	fuzz_trail_bytes(t, p, strlen(p) + 1);
}

/* One conversion of the input into a fresh folder, its outcome into t. */
static void convert_once(const struct fuzz_file *in, size_t size, struct fuzz_trail *t)
{
	struct csim_options opt;
	struct csim_error err;
	FILE *null = fopen("/dev/null", "w");
	struct csim_log log = { null, null, 0, NULL };
	char dir[] = "/dev/shm/csim-fuzz-XXXXXX";
	int rc;

	if (null == NULL || mkdtemp(dir) == NULL)
		fuzz_fail(size, "cannot open /dev/null or make a folder in /dev/shm: %s",
			  strerror(errno));
	memset(&opt, 0, sizeof(opt));
	opt.input = in->path;
	opt.output_dir = dir;
	opt.counters = 1;
	opt.keep_scalar = (int)(size & 1);
	opt.keep_cache_ccu = (int)((size >> 1) & 1);
	/* Every other input also through trace.pftrace's exact times, tracks
	   and writer. */
	opt.formats = CSIM_FORMAT_JSON | ((size >> 2) & 1 ? CSIM_FORMAT_PERFETTO : 0u);
	csim_error_clear(&err);
	rc = csim_convert(&opt, &log, &err);
	fuzz_expect(size, "csim_convert", rc, &err, FUZZ_CODE(CSIM_E_INPUT));
	fuzz_trail_u64(t, (uint64_t)rc);
	if (rc != CSIM_OK)
		take_message(t, err.message, dir);
	take_folder(dir, rc, err.message, opt.formats, size, t);
	if (rmdir(dir) != 0)
		fuzz_fail(size, "cannot remove %s: %s", dir, strerror(errno));
	fclose(null);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct fuzz_file f;
	struct fuzz_trail first = { NULL, 0, 0 }, second = { NULL, 0, 0 };

	if (fuzz_file_open(&f, data, size) != 0)
		fuzz_fail(size, "cannot make the memory file");
	convert_once(&f, size, &first);
	if (FUZZ_SECOND_RUN) {
		convert_once(&f, size, &second);
		fuzz_trails_same(size, "csim_convert's outcome", &first, &second);
	}
	fuzz_trail_release(&first);
	fuzz_trail_release(&second);
	fuzz_file_close(&f);
	return 0;
}
