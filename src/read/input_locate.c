#include "read/input_locate.h"

#include <dirent.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "base/path.h"

#define DUMP_NAME "visualize_data.bin"
/* How deep below PATH to look for nested dumps, to bound the walk. */
#define SEARCH_DEPTH 6

static int is_file(const char *path)
{
	struct stat st;

	return stat(path, &st) == 0 && !S_ISDIR(st.st_mode);
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
			} else if (strcmp(name, DUMP_NAME) == 0) {
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
			       "%s: no %s found: looked for %s/%s and %s/simulator/%s; "
			       "%u dump(s) lie deeper, the first at %s",
			       path, DUMP_NAME, path, DUMP_NAME, path, DUMP_NAME,
			       s.count, s.first);
		free(s.first);
		return CSIM_E_INPUT;
	}
	return csim_error_set(err, CSIM_E_INPUT, CSIM_NO_OFFSET,
			      "%s: no %s found: looked for %s/%s and %s/simulator/%s",
			      path, DUMP_NAME, path, DUMP_NAME, path, DUMP_NAME);
}

int csim_input_locate(const char *path, char **bin_path, char **bin_dir,
		      struct csim_error *err)
{
	char *candidate = NULL;
	char *sim = NULL;

	*bin_path = *bin_dir = NULL;
	if (is_file(path)) {
		candidate = strdup(path);
	} else {
		candidate = csim_path_join(path, DUMP_NAME);
		if (candidate != NULL && !is_file(candidate)) {
			free(candidate);
			sim = csim_path_join(path, "simulator");
			candidate = sim != NULL ? csim_path_join(sim, DUMP_NAME) : NULL;
			free(sim);
			if (candidate != NULL && !is_file(candidate)) {
				free(candidate);
				return not_found(path, err);
			}
		}
	}
	if (candidate == NULL)
		return csim_error_nomem(err, CSIM_E_INPUT);
	*bin_path = candidate;
	*bin_dir = csim_path_dir(candidate);
	if (*bin_dir == NULL) {
		free(candidate);
		*bin_path = NULL;
		return csim_error_nomem(err, CSIM_E_INPUT);
	}
	return CSIM_OK;
}
