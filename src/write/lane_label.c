#include "write/lane_label.h"

#include <string.h>

void csim_lane_label(const struct csim_model *m, const struct csim_lane *lane,
		     const char **head, size_t *head_n, const char **tail, size_t *tail_n)
{
	size_t n;
	const char *pipe = csim_strtab_get(&m->table.pipes, lane->pipe, &n);
	/* A companion lane is named by its own name ("MTE2 cache"). */
	const char *label = csim_pipe_is_cache_lane(pipe, n) ? NULL
			    : m->pipes[lane->pipe].info->label;

	*tail = NULL;
	*tail_n = 0;
	if (label == NULL) {
		*head = pipe;
		*head_n = n;
		return;
	}
	*head = label;
	*head_n = strlen(label);
	*tail = csim_pipe_label_number(pipe, n, tail_n);
}
