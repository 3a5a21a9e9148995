#include "read/dump_find.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "base/array_grow.h"
#include "base/path.h"
#include "read/input_locate.h"

#define DUMP_NAME "visualize_data.bin"
/* The raw copy's folder in an output folder (write/raw_copy.c). */
#define RAW_COPY_NAME "raw_simulator"

/* The walk of the PATHs, and what it has found so far. */
struct walk {
	struct csim_dump_list *list;
	struct csim_log *log;
	const char *root;         /* the PATH walked: nothing outside it is read */
	struct stat skip;         /* the -o folder */
	int has_skip;
	int nomem;
	size_t too_deep;          /* folders not entered: past the depth bound */
};

static int is_file(const char *path)
{
	struct stat st;

	return stat(path, &st) == 0 && !S_ISDIR(st.st_mode);
}

static int is_dir(const char *path)
{
	struct stat st;

	return stat(path, &st) == 0 && S_ISDIR(st.st_mode);
}

/* What PATH resolution (SPEC §1) finds in dir: the .bin, or NULL. */
static char *resolve_dir(const char *dir, int *nomem)
{
	static const char *const names[] = {
		DUMP_NAME, DUMP_NAME ".gz",
		"simulator/" DUMP_NAME, "simulator/" DUMP_NAME ".gz"
	};

	for (size_t i = 0; i < sizeof(names) / sizeof(names[0]); i++) {
		char *p = csim_path_join(dir, names[i]);

		if (p == NULL) {
			*nomem = 1;
			return NULL;
		}
		if (is_file(p))
			return p;
		free(p);
	}
	return NULL;
}

/* Is dir/simulator a link (to a folder elsewhere, which the walk must not enter)? */
static int simulator_is_link(const char *dir, int *nomem)
{
	char *p = csim_path_join(dir, "simulator");
	struct stat st;
	int is;

	if (p == NULL) {
		*nomem = 1;
		return 0;
	}
	is = lstat(p, &st) == 0 && S_ISLNK(st.st_mode);
	free(p);
	return is;
}

/* The dump's folder: above simulator/, else the .bin's own. */
static char *dump_folder(const char *bin)
{
	char *dir = csim_path_dir(bin);
	const char *leaf;
	char *up;

	if (dir == NULL)
		return NULL;
	leaf = strrchr(dir, '/');
	leaf = leaf != NULL ? leaf + 1 : dir;
	if (strcmp(leaf, "simulator") != 0)
		return dir;
	up = csim_path_dir(dir);
	free(dir);
	return up;
}

/* Takes bin, dir and error (any may be NULL); frees them on failure. */
static int add_item(struct walk *w, char *bin, char *dir, char *error)
{
	struct csim_dump_list *l = w->list;

	if (dir == NULL || (bin == NULL && error == NULL) ||
	    csim_array_grow((void **)&l->items, &l->cap, l->n + 1, sizeof(*l->items)) != 0) {
		free(bin);
		free(dir);
		free(error);
		w->nomem = 1;
		return -1;
	}
	l->items[l->n].bin = bin;
	l->items[l->n].dir = dir;
	l->items[l->n].rel = NULL;
	l->items[l->n].error = error;
	l->n++;
	return 0;
}

/*
 * Is dir/name the tool's own raw copy: a raw_simulator folder inside an
 * output folder, one holding summary.json or a trace beside it (SPEC §11)?
 * A raw_simulator anywhere else is walked like any folder.
 */
static int is_raw_copy(const char *dir, const char *name)
{
	return strcmp(name, RAW_COPY_NAME) == 0 && csim_path_is_output_dir(AT_FDCWD, dir);
}

static void walk_dir(struct walk *w, const char *dir, int depth);

/*
 * Is the dump bin a link to a file outside the tree walked (SPEC §11)? A
 * link within it is read: it is part of the tree.
 */
static int link_outside(const struct walk *w, const char *bin)
{
	struct stat st;

	return lstat(bin, &st) == 0 && S_ISLNK(st.st_mode) && !csim_path_within(bin, w->root);
}

static void walk_entry(struct walk *w, const char *dir, const char *name, int depth)
{
	char *child, *bin;
	struct stat st;

	if (strcmp(name, ".") == 0 || strcmp(name, "..") == 0)
		return;
	child = csim_path_join(dir, name);
	if (child == NULL) {
		w->nomem = 1;
		return;
	}
	/* lstat: a link to a folder is not followed, so no loop is possible.
	   The -o folder and a raw copy beside outputs are the tool's own. */
	if (lstat(child, &st) != 0 || !S_ISDIR(st.st_mode) || is_raw_copy(dir, name)) {
		free(child);
		return;
	}
	if (w->has_skip && st.st_dev == w->skip.st_dev && st.st_ino == w->skip.st_ino) {
		bin = resolve_dir(child, &w->nomem);
		if (bin != NULL)
			csim_log_warn(w->log, "not converting %s: it is the output folder (-o); "
				      "give -o a folder that holds no dump", child);
		free(bin);
		free(child);
		return;
	}
	if (simulator_is_link(child, &w->nomem)) {
		csim_log_warn(w->log, "not converting %s: its simulator folder is a link, and the "
			      "walk follows no link (pass the link's target)", child);
		free(child);
		return;
	}
	bin = resolve_dir(child, &w->nomem);
	if (bin != NULL && link_outside(w, bin)) {
		csim_log_warn(w->log, "not converting %s: it is a link to a file outside %s, and a "
			      "batch reads nothing outside the trees it is given (pass the link's "
			      "target)", bin, w->root);
		free(bin);
	} else if (bin != NULL) {
		add_item(w, bin, dump_folder(bin), NULL);
	} else if (depth >= CSIM_DUMP_FIND_DEPTH)
		w->too_deep++;
	else if (!w->nomem)
		walk_dir(w, child, depth + 1);
	free(child);
}

static void walk_dir(struct walk *w, const char *dir, int depth)
{
	DIR *d = opendir(dir);
	struct dirent *e;

	if (d == NULL) {
		if (errno == ENOMEM) {
			w->nomem = 1;
			return;
		}
		csim_log_warn(w->log, "cannot read folder %s: %s; dumps below it are not converted",
			      dir, strerror(errno));
		w->list->unreadable++;
		return;
	}
	while (!w->nomem && (e = readdir(d)) != NULL)
		walk_entry(w, dir, e->d_name, depth);
	closedir(d);
}

char *csim_dump_path_normalize(const char *path)
{
	size_t cap = 256, len = 0;
	char *cwd = NULL, *out = NULL;
	const char *p;

	if (path[0] != '/') {
		for (;;) {
			char *grown = realloc(cwd, cap);

			if (grown == NULL)
				goto fail;
			cwd = grown;
			if (getcwd(cwd, cap) != NULL)
				break;
			if (errno != ERANGE)
				goto fail;
			cap *= 2;
		}
	}
	out = malloc((cwd != NULL ? strlen(cwd) : 0) + strlen(path) + 3);
	if (out == NULL)
		goto fail;
	/* The names of cwd, then of path, each as "/name"; ".." pops one. */
	for (int part = 0; part < 2; part++) {
		p = part == 0 ? (cwd != NULL ? cwd : "") : path;
		for (;;) {
			size_t n;

			while (*p == '/')
				p++;
			n = strcspn(p, "/");
			if (n == 0)
				break;
			if (n == 2 && p[0] == '.' && p[1] == '.') {
				while (len > 0 && out[--len] != '/')
					;
			} else if (!(n == 1 && p[0] == '.')) {
				out[len++] = '/';
				memcpy(out + len, p, n);
				len += n;
			}
			p += n;
		}
	}
	if (len == 0)
		out[len++] = '/';
	out[len] = '\0';
	free(cwd);
	return out;
fail:
	free(cwd);
	free(out);
	return NULL;
}

char *csim_dump_path_relative(const char *path, const char *base)
{
	size_t bl = strlen(base);

	if (strcmp(base, "/") == 0)
		return strdup(path[1] != '\0' ? path + 1 : ".");
	if (strncmp(path, base, bl) != 0 || path[bl] != '/' || path[bl + 1] == '\0')
		return strdup(".");
	return strdup(path + bl + 1);
}

/* Shortens base (normalized) to the deepest folder holding it and `other`. */
static void common_base(char *base, const char *other)
{
	size_t i = 0, last = 0;

	while (base[i] != '\0' && base[i] == other[i]) {
		if (base[i] == '/')
			last = i;
		i++;
	}
	if ((base[i] == '\0' || base[i] == '/') && (other[i] == '\0' || other[i] == '/'))
		last = i;
	base[last == 0 ? 1 : last] = '\0';
}

/* Normalized folder holding `folder`, merged into the list's base. */
static int add_anchor(struct walk *w, const char *folder, int parent)
{
	char *norm = csim_dump_path_normalize(folder);
	char *anchor = norm;

	if (norm == NULL)
		return -1;
	if (parent) {
		anchor = csim_path_dir(norm);
		free(norm);
		if (anchor == NULL)
			return -1;
	}
	if (w->list->base == NULL) {
		w->list->base = anchor;
		return 0;
	}
	common_base(w->list->base, anchor);
	free(anchor);
	return 0;
}

/* One PATH: a dump of its own, the dumps below it, or none. */
static int add_path(struct walk *w, const char *path, size_t npaths,
		    struct csim_error *err)
{
	char *bin = NULL, *dir = NULL;
	struct csim_error e;
	size_t before = w->list->n;
	int rc;

	if (is_dir(path)) {
		bin = resolve_dir(path, &w->nomem);
		if (bin == NULL && !w->nomem) {
			w->root = path;
			walk_dir(w, path, 1);
			if (w->nomem)
				return csim_error_nomem(err, CSIM_E_INPUT);
			if (w->list->n > before) {
				w->list->batch = 1;
				/* One PATH: outputs relative to it (SPEC §11). */
				return add_anchor(w, path, npaths > 1) == 0 ? CSIM_OK
					: csim_error_nomem(err, CSIM_E_INPUT);
			}
		}
	}
	if (w->nomem)
		return csim_error_nomem(err, CSIM_E_INPUT);
	if (bin == NULL) {
		csim_error_clear(&e);
		rc = csim_input_locate(path, &bin, &dir, &e);
		free(dir);
		dir = NULL;
		if (rc != CSIM_OK && csim_error_is_nomem(&e))
			return csim_error_nomem(err, CSIM_E_INPUT);
		if (rc != CSIM_OK) {
			if (add_item(w, NULL, csim_path_trim(path), strdup(e.message)) != 0 ||
			    add_anchor(w, path, 1) != 0)
				return csim_error_nomem(err, CSIM_E_INPUT);
			return CSIM_OK;
		}
	}
	dir = dump_folder(bin);
	if (add_item(w, bin, dir, NULL) != 0 || add_anchor(w, w->list->items[before].dir, 1) != 0)
		return csim_error_nomem(err, CSIM_E_INPUT);
	return CSIM_OK;
}

static int item_cmp(const void *a, const void *b)
{
	const struct csim_dump *x = a, *y = b;
	int c = strcmp(x->rel, y->rel);

	if (c != 0)
		return c;
	if (x->bin == NULL || y->bin == NULL)
		return (x->bin == NULL) - (y->bin == NULL);
	return strcmp(x->bin, y->bin);
}

static void item_release(struct csim_dump *d)
{
	free(d->bin);
	free(d->dir);
	free(d->rel);
	free(d->error);
}

/* The identity of an item's .bin, to drop a dump reached twice. */
struct ident {
	dev_t dev;
	ino_t ino;
	size_t idx;
};

static int ident_cmp(const void *a, const void *b)
{
	const struct ident *x = a, *y = b;

	if (x->dev != y->dev)
		return x->dev < y->dev ? -1 : 1;
	if (x->ino != y->ino)
		return x->ino < y->ino ? -1 : 1;
	return x->idx < y->idx ? -1 : x->idx > y->idx;
}

/* Marks (bin = dir = NULL) every item whose .bin an earlier item reads. */
static int mark_same_files(struct walk *w)
{
	struct csim_dump_list *l = w->list;
	struct ident *ids = malloc((l->n + 1) * sizeof(*ids));
	size_t n = 0;

	if (ids == NULL)
		return -1;
	for (size_t i = 0; i < l->n; i++) {
		struct stat st;

		if (l->items[i].bin != NULL && stat(l->items[i].bin, &st) == 0) {
			ids[n].dev = st.st_dev;
			ids[n].ino = st.st_ino;
			ids[n++].idx = i;
		}
	}
	qsort(ids, n, sizeof(*ids), ident_cmp);
	for (size_t i = 1, first = 0; i < n; i++) {
		const struct csim_dump *f = &l->items[ids[first].idx];
		struct csim_dump *d = &l->items[ids[i].idx];

		if (ids[i].dev != ids[first].dev || ids[i].ino != ids[first].ino) {
			first = i;
			continue;
		}
		/* The same PATH twice is no news; a link to a dump is. */
		if (strcmp(f->rel, d->rel) != 0)
			csim_log_warn(w->log, "%s is %s again: converted once", d->bin, f->bin);
		free(d->bin);
		d->bin = NULL;
		free(d->error);
		d->error = NULL;   /* bin and error NULL: dropped below */
	}
	free(ids);
	return 0;
}

/* Sorts, then keeps the first of each rel path and of each file. */
static int sort_unique(struct walk *w)
{
	struct csim_dump_list *l = w->list;
	size_t kept = 0;

	qsort(l->items, l->n, sizeof(*l->items), item_cmp);
	if (mark_same_files(w) != 0)
		return -1;
	for (size_t i = 0; i < l->n; i++) {
		struct csim_dump *d = &l->items[i];

		if ((d->bin == NULL && d->error == NULL) ||
		    (kept > 0 && strcmp(l->items[kept - 1].rel, d->rel) == 0)) {
			if (d->bin != NULL && l->items[kept - 1].bin != NULL)
				csim_log_warn(w->log, "%s and %s are one dump folder: converting %s",
					      l->items[kept - 1].bin, d->bin, l->items[kept - 1].bin);
			item_release(d);
			continue;
		}
		l->items[kept++] = *d;
	}
	l->n = kept;
	return 0;
}

/* Every item's rel path, from its folder and the base. */
static int set_rel_paths(struct csim_dump_list *l)
{
	for (size_t i = 0; i < l->n; i++) {
		char *norm = csim_dump_path_normalize(l->items[i].dir);

		if (norm == NULL)
			return -1;
		l->items[i].rel = csim_dump_path_relative(norm, l->base);
		free(norm);
		if (l->items[i].rel == NULL)
			return -1;
	}
	return 0;
}

int csim_dump_find(struct csim_dump_list *list, const char *const *paths,
		   size_t npaths, const char *skip_dir, struct csim_log *log,
		   struct csim_error *err)
{
	struct walk w;
	int rc = CSIM_OK;

	memset(list, 0, sizeof(*list));
	memset(&w, 0, sizeof(w));
	w.list = list;
	w.log = log;
	w.has_skip = skip_dir != NULL && stat(skip_dir, &w.skip) == 0;
	for (size_t i = 0; i < npaths && rc == CSIM_OK; i++)
		rc = add_path(&w, paths[i], npaths, err);
	if (rc != CSIM_OK)
		goto out;
	if (npaths > 1)
		list->batch = 1;
	if (set_rel_paths(list) != 0 || sort_unique(&w) != 0) {
		rc = csim_error_nomem(err, CSIM_E_INPUT);
		goto out;
	}
	if (w.too_deep > 0)
		csim_log_warn(log, "%zu folder(s) lie more than %d folders below a PATH: not searched for dumps",
			      w.too_deep, CSIM_DUMP_FIND_DEPTH);
out:
	if (rc != CSIM_OK)
		csim_dump_list_release(list);
	return rc;
}

void csim_dump_list_release(struct csim_dump_list *list)
{
	for (size_t i = 0; i < list->n; i++)
		item_release(&list->items[i]);
	free(list->items);
	free(list->base);
	memset(list, 0, sizeof(*list));
}
