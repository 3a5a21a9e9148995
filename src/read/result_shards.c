#include "read/result_shards.h"

#include <dirent.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/array_grow.h"
#include "base/path.h"

/* K and N of "batch_summary.shard-K-of-N.json"; 0 for any other name. */
static int shard_name(const char *name, unsigned *k, unsigned *n)
{
	int end = 0;

	return sscanf(name, "batch_summary.shard-%u-of-%u.json%n", k, n, &end) == 2 &&
	       (size_t)end == strlen(name);
}

static int by_k(const void *a, const void *b)
{
	const struct csim_result_shard *x = a, *y = b;

	return x->n != y->n ? (x->n > y->n) - (x->n < y->n) : (x->k > y->k) - (x->k < y->k);
}

static int by_index(const void *a, const void *b)
{
	const struct csim_result_dump *x = a, *y = b;

	return (x->index > y->index) - (x->index < y->index);
}

/* The folder's shard files, sorted by N then K. */
static int list_shards(const char *dir, struct csim_result_shard **out, size_t *n,
		       struct csim_error *err)
{
	DIR *d = opendir(dir);
	struct dirent *e;
	size_t cap = 0;
	int rc = CSIM_OK;

	*out = NULL;
	*n = 0;
	if (d == NULL)
		return errno == ENOMEM ? csim_error_nomem(err, CSIM_E_INPUT)
		       : csim_error_set(err, CSIM_E_INPUT, CSIM_NO_OFFSET, "cannot read %s: %s", dir,
					strerror(errno));
	while (rc == CSIM_OK && (e = readdir(d)) != NULL) {
		unsigned k, nn;

		if (!shard_name(e->d_name, &k, &nn))
			continue;
		if (csim_array_grow((void **)out, &cap, *n + 1, sizeof(**out)) != 0) {
			rc = csim_error_nomem(err, CSIM_E_INPUT);
			break;
		}
		(*out)[*n] = (struct csim_result_shard){
			.k = k, .n = nn, .file = csim_path_join(dir, e->d_name)
		};
		if ((*out)[(*n)++].file == NULL)
			rc = csim_error_nomem(err, CSIM_E_INPUT);
	}
	closedir(d);
	if (rc == CSIM_OK && *n > 0)
		qsort(*out, *n, sizeof(**out), by_k);
	return rc;
}

/* Every K of 0..N-1 once, all of one N; else what is wrong, in err. */
static int complete(const char *dir, const struct csim_result_shard *s, size_t n,
		    struct csim_error *err)
{
	if (s[0].n != s[n - 1].n)
		return csim_error_set(err, CSIM_E_INPUT, CSIM_NO_OFFSET,
				      "cannot read %s: it holds shards of %u and of %u (two splits "
				      "of the batch; give a folder of one)", dir, s[0].n, s[n - 1].n);
	for (size_t i = 0; i < s[0].n; i++)
		if (i >= n || s[i].k != i)
			return csim_error_set(err, CSIM_E_INPUT, CSIM_NO_OFFSET,
					      "cannot read %s: shard %zu of %u is missing "
					      "(batch_summary.shard-%zu-of-%u.json): a batch is "
					      "compared whole", dir, i, s[0].n, i, s[0].n);
	return CSIM_OK;
}

/* One shard's result into r: its rows appended, its buffers held. */
static int merge(struct csim_result *r, struct csim_result *one,
		 const struct csim_result_shard *s, size_t *cap, struct csim_error *err)
{
	char **held;

	if (one->kind != CSIM_RESULT_BATCH || one->shard_n != (int64_t)s->n ||
	    one->shard_k != (int64_t)s->k)
		return csim_error_set(err, CSIM_E_INPUT, CSIM_NO_OFFSET,
				      "cannot read %s: not the batch summary of shard %u of %u its "
				      "name says", one->file, s->k, s->n);
	if (csim_array_grow((void **)&r->dumps, cap, r->ndumps + one->ndumps + 1,
			    sizeof(*r->dumps)) != 0)
		return csim_error_nomem(err, CSIM_E_INPUT);
	held = realloc(r->held, (r->nheld + 2) * sizeof(*held));
	if (held == NULL)
		return csim_error_nomem(err, CSIM_E_INPUT);
	r->held = held;
	if (one->ndumps > 0)
		memcpy(r->dumps + r->ndumps, one->dumps, one->ndumps * sizeof(*one->dumps));
	r->ndumps += one->ndumps;
	r->held[r->nheld++] = one->json;
	r->held[r->nheld++] = one->text;
	one->json = one->text = NULL;
	return CSIM_OK;
}

int csim_result_shards_list(const char *dir, struct csim_result_shards *sh,
			    struct csim_error *err)
{
	int rc = list_shards(dir, &sh->s, &sh->n, err);

	if (rc == CSIM_OK && sh->n > 0)
		rc = complete(dir, sh->s, sh->n, err);
	return rc;
}

int csim_result_shards_merge(struct csim_result *r, struct csim_result *one, size_t i,
			     struct csim_result_shards *sh, struct csim_error *err)
{
	return merge(r, one, &sh->s[i], &sh->cap, err);
}

void csim_result_shards_sort(struct csim_result *r)
{
	/* Rows in the whole list's order, as one unsharded run writes them. */
	if (r->ndumps > 1)
		qsort(r->dumps, r->ndumps, sizeof(*r->dumps), by_index);
}

void csim_result_shards_release(struct csim_result_shards *sh)
{
	for (size_t i = 0; i < sh->n; i++)
		free(sh->s[i].file);
	free(sh->s);
	*sh = (struct csim_result_shards){ .s = NULL };
}
