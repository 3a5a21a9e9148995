#include "model/cut.h"

#include <stdlib.h>

void csim_cut_release(struct csim_cut *c)
{
	free(c->slice_in);
	free(c->counter_in);
	free(c->arrow_in);
	free(c->intra_in);
	free(c->process_in);
	free(c->thread_in);
	free(c->pid_in);
	free(c->core_hit);
	c->slice_in = c->counter_in = c->arrow_in = c->intra_in = NULL;
	c->process_in = c->thread_in = c->pid_in = c->core_hit = NULL;
	c->slices_in = c->counters_in = c->arrows_in = 0;
}
