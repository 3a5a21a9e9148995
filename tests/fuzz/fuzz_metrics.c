/* Fuzz target: an API_INSTR payload through validation, digest and reshape. */
#define _GNU_SOURCE
#include <stdlib.h>
#include <string.h>

#include "fuzz_util.h"

#include "write/metrics_writer.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct csim_metrics mt;
	struct csim_error err;
	char *payload = malloc(size ? size : 1);
	struct csim_metrics_plan plan;
	struct csim_instr_stats s;

	if (payload == NULL)
		return 0;
	memcpy(payload, data, size);
	memset(&plan, 0, sizeof(plan));
	csim_instr_stats_init(&s);
	if (csim_metrics_load(&mt, "fuzz", 0, payload, size, &err) == CSIM_OK &&
	    csim_metrics_plan_make(&plan, &mt, &s, &err) == CSIM_OK) {
		struct csim_out out;
		char dir[] = "/dev/shm/csim-fuzz-XXXXXX";

		if (mkdtemp(dir) != NULL) {
			if (csim_out_open(&out, dir, "instr_metrics.json", &err) == CSIM_OK) {
				(void)csim_metrics_write(&mt, &plan, 0, &out, &err);
				csim_out_abort(&out);
			}
			rmdir(dir);
		}
	}
	csim_metrics_plan_release(&plan);
	csim_instr_stats_release(&s);
	csim_metrics_release(&mt);
	return 0;
}
