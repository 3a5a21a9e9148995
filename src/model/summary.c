#include "model/summary.h"

#include <stdlib.h>
#include <string.h>

void csim_summary_release(struct csim_summary *s)
{
	free(s->cores);
	free(s->pipes);
	free(s->waits);
	memset(s, 0, sizeof(*s));
}

void csim_diagnosis_release(struct csim_diagnosis *d)
{
	free(d->lines);
	free(d->at);
	memset(d, 0, sizeof(*d));
}
