#include "model/critical_path.h"

#include <stdlib.h>
#include <string.h>

void csim_path_release(struct csim_path *p)
{
	free(p->cores);
	free(p->segs);
	free(p->busy);
	free(p->waits);
	free(p->top);
	free(p->what_if);
	memset(p, 0, sizeof(*p));
}
