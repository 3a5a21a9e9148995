#include "model/lane_packer.h"

#include <stdlib.h>
#include <string.h>

#include "base/array_grow.h"

int csim_packer_init(struct csim_packer *p, size_t cap)
{
	memset(p, 0, sizeof(*p));
	p->busy = csim_array_alloc(cap ? cap : 1, sizeof(*p->busy));
	p->free_tracks = csim_array_alloc(cap ? cap : 1, sizeof(*p->free_tracks));
	return p->busy != NULL && p->free_tracks != NULL ? 0 : -1;
}

void csim_packer_release(struct csim_packer *p)
{
	free(p->busy);
	free(p->free_tracks);
	memset(p, 0, sizeof(*p));
}

void csim_packer_reset(struct csim_packer *p)
{
	p->nbusy = p->nfree = 0;
	p->ntracks = 0;
}

static int busy_less(const struct csim_packer_busy *a, const struct csim_packer_busy *b)
{
	return a->end < b->end || (a->end == b->end && a->track < b->track);
}

static void busy_push(struct csim_packer *h, struct csim_packer_busy v)
{
	size_t i = h->nbusy++;

	while (i > 0) {
		size_t parent = (i - 1) / 2;

		if (!busy_less(&v, &h->busy[parent]))
			break;
		h->busy[i] = h->busy[parent];
		i = parent;
	}
	h->busy[i] = v;
}

static struct csim_packer_busy busy_pop(struct csim_packer *h)
{
	struct csim_packer_busy top = h->busy[0], last = h->busy[--h->nbusy];
	size_t i = 0;

	for (;;) {
		size_t c = 2 * i + 1;

		if (c >= h->nbusy)
			break;
		if (c + 1 < h->nbusy && busy_less(&h->busy[c + 1], &h->busy[c]))
			c++;
		if (!busy_less(&h->busy[c], &last))
			break;
		h->busy[i] = h->busy[c];
		i = c;
	}
	if (h->nbusy > 0)
		h->busy[i] = last;
	return top;
}

static void free_push(struct csim_packer *h, uint32_t v)
{
	size_t i = h->nfree++;

	while (i > 0 && h->free_tracks[(i - 1) / 2] > v) {
		h->free_tracks[i] = h->free_tracks[(i - 1) / 2];
		i = (i - 1) / 2;
	}
	h->free_tracks[i] = v;
}

static uint32_t free_pop(struct csim_packer *h)
{
	uint32_t top = h->free_tracks[0], last = h->free_tracks[--h->nfree];
	size_t i = 0;

	for (;;) {
		size_t c = 2 * i + 1;

		if (c >= h->nfree)
			break;
		if (c + 1 < h->nfree && h->free_tracks[c + 1] < h->free_tracks[c])
			c++;
		if (h->free_tracks[c] >= last)
			break;
		h->free_tracks[i] = h->free_tracks[c];
		i = c;
	}
	if (h->nfree > 0)
		h->free_tracks[i] = last;
	return top;
}

uint32_t csim_packer_take(struct csim_packer *p, double lo, double hi)
{
	uint32_t track;

	while (p->nbusy > 0 && p->busy[0].end <= lo)
		free_push(p, busy_pop(p).track);
	track = p->nfree > 0 ? free_pop(p) : p->ntracks++;
	busy_push(p, (struct csim_packer_busy){ hi, track });
	return track;
}
