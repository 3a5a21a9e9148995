#include "read/input_locate.h"

#include <dirent.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "base/path.h"
#include "read/dump_hint.h"

#define DUMP_NAME "visualize_data.bin"
/* How deep below PATH to look for nested dumps, to bound the walk. */
#define SEARCH_DEPTH 6

static int is_file(const char *path)
{
	struct stat st;

	return stat(path, &st) == 0 && !S_ISDIR(st.st_mode);
}

/*
 * A pipe cannot be read a second time (the trace's rows are read again
 * from the dump) and a FIFO blocks in open() until a writer comes; neither
 * has a folder of its own to copy. --check streams and takes both.
 */
static int is_regular(const char *path)
{
	struct stat st;

	return stat(path, &st) == 0 && S_ISREG(st.st_mode);
}

struct search {
	unsigned count;
	char *first;
};

/* Depth-first, in sorted order so "the first one" is stable across runs. */
static void search_dumps(const char *dir, int depth, struct search *s)
{
	struct dirent **names = NULL;
	int n;

	if (depth > SEARCH_DEPTH)
		return;
	n = scandir(dir, &names, NULL, alphasort);
	for (int i = 0; i < n; i++) {
		const char *name = names[i]->d_name;
		char *child = strcmp(name, ".") && strcmp(name, "..") ? csim_path_join(dir, name) : NULL;
		struct stat st;

		if (child != NULL && lstat(child, &st) == 0) {
			if (S_ISDIR(st.st_mode)) {
				search_dumps(child, depth + 1, s);
			} else if (strcmp(name, DUMP_NAME) == 0 || strcmp(name, DUMP_NAME ".gz") == 0) {
				s->count++;
				if (s->first == NULL) {
					s->first = child;
					child = NULL;
				}
			}
		}
		free(child);
		free(names[i]);
	}
	free(names);
}

/* "looked for D/x.bin(.gz) and D/simulator/x.bin(.gz)": what was tried. */
#define LOOKED_FOR "%s: no %s found: looked for %s/%s(.gz) and %s/simulator/%s(.gz)"

static int not_found(const char *path, struct csim_error *err)
{
	struct search s = { 0, NULL };
	struct stat st;

	if (stat(path, &st) != 0)
		return csim_error_set(err, CSIM_E_INPUT, CSIM_NO_OFFSET,
				      "%s: cannot open: %s", path, strerror(errno));
	search_dumps(path, 1, &s);
	if (s.count > 0) {
		csim_error_set(err, CSIM_E_INPUT, CSIM_NO_OFFSET,
			       LOOKED_FOR "; %u dump(s) lie deeper, the first at %s",
			       path, DUMP_NAME, path, DUMP_NAME, path, DUMP_NAME,
			       s.count, s.first);
		free(s.first);
		return CSIM_E_INPUT;
	}
	csim_error_set(err, CSIM_E_INPUT, CSIM_NO_OFFSET, LOOKED_FOR,
		       path, DUMP_NAME, path, DUMP_NAME, path, DUMP_NAME);
	csim_dump_hint_append(path, err);
	return CSIM_E_INPUT;
}

/*
 * dir/visualize_data.bin, else dir/visualize_data.bin.gz, into *found (NULL
 * when neither is a file). The plain file wins when both are there: it is
 * what the producer writes, the .gz most likely a copy packed for keeping
 * (docs/decisions.md). Returns 0, or -1 when out of memory.
 */
static int find_dump(const char *dir, char **found)
{
	static const char *const names[] = { DUMP_NAME, DUMP_NAME ".gz" };

	*found = NULL;
	for (size_t i = 0; i < sizeof(names) / sizeof(names[0]); i++) {
		char *candidate = csim_path_join(dir, names[i]);

		if (candidate == NULL)
			return -1;
		if (is_file(candidate)) {
			*found = candidate;
			return 0;
		}
		free(candidate);
	}
	return 0;
}

int csim_input_locate(const char *path, char **bin_path, char **bin_dir,
		      struct csim_error *err)
{
	char *candidate = NULL;
	char *sim = NULL;
	int nomem = 0;

	*bin_path = *bin_dir = NULL;
	if (is_file(path)) {
		candidate = strdup(path);
		nomem = candidate == NULL;
	} else {
		nomem = find_dump(path, &candidate) != 0;
		if (!nomem && candidate == NULL) {
			sim = csim_path_join(path, "simulator");
			nomem = sim == NULL || find_dump(sim, &candidate) != 0;
			free(sim);
			if (!nomem && candidate == NULL)
				return not_found(path, err);
		}
	}
	if (nomem)
		return csim_error_nomem(err, CSIM_E_INPUT);
	if (!is_regular(candidate)) {
		csim_error_set(err, CSIM_E_INPUT, CSIM_NO_OFFSET,
			       "%s: not a regular file (a pipe or device?): the converter reads "
			       "a dump twice and copies its folder; save it to a file first",
			       candidate);
		free(candidate);
		return CSIM_E_INPUT;
	}
	*bin_path = candidate;
	*bin_dir = csim_path_dir(candidate);
	if (*bin_dir == NULL) {
		free(candidate);
		*bin_path = NULL;
		return csim_error_nomem(err, CSIM_E_INPUT);
	}
	return CSIM_OK;
}
