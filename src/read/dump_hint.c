#include "read/dump_hint.h"

#include <dirent.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>

#include "base/path.h"

/* Names kept of a kind, the first in byte order (readdir's is arbitrary). */
#define HINT_NAMES 3
#define NAME_CAP 256

struct names {
	char name[HINT_NAMES][NAME_CAP];
	size_t n;       /* found, kept or not */
};

struct found {
	char trace[NAME_CAP];   /* "trace.json" or "simulator/trace.json" */
	struct names files;     /* may be a dump: relative to the folder */
	struct names folders;   /* OPPROF_* */
};

/* Keeps name among the HINT_NAMES first in byte order. */
static void names_add(struct names *k, const char *prefix, const char *name)
{
	char full[NAME_CAP];
	size_t i, kept = k->n < HINT_NAMES ? k->n : HINT_NAMES;

	if ((size_t)snprintf(full, sizeof(full), "%s%s", prefix, name) >= sizeof(full))
		return;
	k->n++;
	for (i = kept; i > 0 && strcmp(full, k->name[i - 1]) < 0; i--)
		if (i < HINT_NAMES)
			memcpy(k->name[i], k->name[i - 1], NAME_CAP);
	if (i < HINT_NAMES)
		memcpy(k->name[i], full, NAME_CAP);
}

/* A file that may be a dump under another name (the two names were looked for). */
static int dump_like(const char *name)
{
	return strcmp(name, "visualize_data.bin") != 0 &&
	       strcmp(name, "visualize_data.bin.gz") != 0 &&
	       (csim_path_ends_with(name, ".bin") || csim_path_ends_with(name, ".bin.gz") ||
		strncmp(name, "visualize_data", 14) == 0);
}

/* One folder's entries; prefix: how they are named ("" or "simulator/"). */
static void look(const char *dir, const char *prefix, struct found *f)
{
	DIR *d = opendir(dir);
	const struct dirent *e;

	if (d == NULL)
		return;
	while ((e = readdir(d)) != NULL) {
		char path[4096];
		struct stat st;

		if (e->d_name[0] == '.' ||
		    (size_t)snprintf(path, sizeof(path), "%s/%s", dir, e->d_name) >= sizeof(path) ||
		    stat(path, &st) != 0)
			continue;
		if (S_ISREG(st.st_mode) && strcmp(e->d_name, "trace.json") == 0 && f->trace[0] == '\0')
			snprintf(f->trace, sizeof(f->trace), "%strace.json", prefix);
		else if (S_ISREG(st.st_mode) && dump_like(e->d_name))
			names_add(&f->files, prefix, e->d_name);
		else if (S_ISDIR(st.st_mode) && prefix[0] == '\0' &&
			 strncmp(e->d_name, "OPPROF_", 7) == 0)
			names_add(&f->folders, "", e->d_name);
	}
	closedir(d);
}

/* "a, b and 3 more" (folders with a slash). */
static void append_names(struct csim_error *err, const struct names *k, const char *slash)
{
	const size_t kept = k->n < HINT_NAMES ? k->n : HINT_NAMES;

	for (size_t i = 0; i < kept; i++)
		csim_error_append(err, "%s%s%s", i == 0 ? "" : i + 1 == kept && k->n == kept
						       ? " and " : ", ", k->name[i], slash);
	if (k->n > kept)
		csim_error_append(err, " and %zu more", k->n - kept);
}

void csim_dump_hint_append(const char *dir, struct csim_error *err)
{
	struct found f;
	char sim[4096];

	memset(&f, 0, sizeof(f));
	look(dir, "", &f);
	if ((size_t)snprintf(sim, sizeof(sim), "%s/simulator", dir) < sizeof(sim))
		look(sim, "simulator/", &f);
	if (f.trace[0] != '\0')
		csim_error_append(err, "; %s/%s is the simulator's Chrome trace, not its dump: the "
				  "converter reads the visualize_data.bin the simulator writes beside "
				  "it (a run that stopped early leaves none); clean_sim_trace --check "
				  "%s/%s checks the trace itself against the viewer rules",
				  dir, f.trace, dir, f.trace);
	if (f.files.n > 0) {
		csim_error_append(err, "; %s holds %s that may be a dump under another name: ", dir,
				  f.files.n == 1 ? "a file" : "files");
		append_names(err, &f.files, "");
		csim_error_append(err, " (pass %s as PATH)", f.files.n == 1 ? "it" : "one");
	}
	if (f.folders.n > 0) {
		csim_error_append(err, "; its %s ", f.folders.n == 1 ? "folder" : "folders");
		append_names(err, &f.folders, "/");
		csim_error_append(err, " %s no dump either", f.folders.n == 1 ? "holds" : "hold");
	}
}
