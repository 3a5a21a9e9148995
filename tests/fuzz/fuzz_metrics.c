/* Fuzz target: an API_INSTR payload through validation, index and reshape. */
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

	if (payload == NULL)
		return 0;
	memcpy(payload, data, size);
	if (csim_metrics_load(&mt, "fuzz", 0, payload, size, &err) == CSIM_OK) {
		struct csim_out out;
		char dir[] = "/dev/shm/csim-fuzz-XXXXXX";

		if (mkdtemp(dir) != NULL) {
			if (csim_out_open(&out, dir, "instr_metrics.json", &err) == CSIM_OK) {
				(void)csim_metrics_write(&mt, 0, &out, &err);
				csim_out_abort(&out);
			}
			rmdir(dir);
		}
	}
	csim_metrics_release(&mt);
	return 0;
}
