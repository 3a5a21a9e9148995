#include "write/out_left.h"

#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>

/*
 * Every output a run of this tool writes into its folder, in the order the
 * "wrote" lines name them; a folder is listed with a slash.
 */
static const char *const outputs[] = {
	"trace.clean.json", "trace.clean.json.gz", "trace.pftrace", "instr_metrics.json",
	"summary.json", "summary.html", "raw_simulator",
};

/* The outputs dir holds, as "a, b, raw_simulator/" (no allocation). */
static size_t list_outputs(const char *dir, char *list, size_t cap)
{
	size_t n = 0, len = 0;

	list[0] = '\0';
	for (size_t i = 0; i < sizeof(outputs) / sizeof(outputs[0]); i++) {
		char path[4096];
		struct stat st;
		int k;

		if ((size_t)snprintf(path, sizeof(path), "%s/%s", dir, outputs[i]) >= sizeof(path) ||
		    lstat(path, &st) != 0)
			continue;
		k = snprintf(list + len, cap - len, "%s%s%s", n > 0 ? ", " : "", outputs[i],
			     S_ISDIR(st.st_mode) ? "/" : "");
		if (k > 0 && (size_t)k < cap - len)
			len += (size_t)k;
		n++;
	}
	return n;
}

static int is_dir(const char *dir)
{
	struct stat st;

	return stat(dir, &st) == 0 && S_ISDIR(st.st_mode);
}

void csim_out_left_tell(const struct csim_out_left *left, struct csim_error *err)
{
	const char *dir = left->dir, *sep = left->interrupted ? ": " : "; ";
	const char *temps = left->interrupted ? "temporary files removed; " : "";
	const size_t len = strlen(dir);
	char list[512];

	if (left->made > 0 && left->kept == 0 && left->removed == len)
		csim_error_append(err, "%sno older outputs in %s; removed %s (created by this run)",
				  sep, dir, dir);
	else if (left->made > 0 && left->kept == 0 && left->removed > 0)
		csim_error_append(err, "%sno older outputs in %s; removed %s and the folders above "
				  "it up to %.*s (created by this run)", sep, dir, dir,
				  (int)left->removed, dir);
	else if (left->made > 0 && left->kept != 0)
		csim_error_append(err, "%s%s (created by this run) not removed: %s", sep, dir,
				  strerror(left->kept));
	else if (!is_dir(dir) && left->interrupted)
		csim_error_append(err, "%s%s not created", sep, dir);
	else if (!is_dir(dir))
		return;
	else if (list_outputs(dir, list, sizeof(list)) > 0)
		csim_error_append(err, "%s%solder outputs in %s kept: %s", sep, temps, dir, list);
	else
		csim_error_append(err, "%s%sno older outputs in %s", sep, temps, dir);
}
