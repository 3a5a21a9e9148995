#include "model/exact_tracks.h"

#include <stdlib.h>
#include <string.h>

void csim_exact_tracks_release(struct csim_exact_tracks *x)
{
	int wanted = x->wanted;

	free(x->row_track);
	free(x->clip);
	free(x->first);
	free(x->ntracks);
	free(x->depth);
	memset(x, 0, sizeof(*x));
	x->wanted = wanted;
}

void csim_exact_tracks_times(const struct csim_exact_tracks *x, const struct csim_table *t,
			     size_t row, int64_t *begin, int64_t *end)
{
	csim_table_exact(t, row, begin, end);
	*end -= x->clip[row];
}
