#define _DEFAULT_SOURCE   /* open_memstream */
#include "cli/batch_worker.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "base/path.h"
#include "base/progress.h"
#include "cli/batch_wire.h"
#include "cli/convert.h"

static int64_t micros_since(const struct timespec *t0)
{
	struct timespec t;

	clock_gettime(CLOCK_MONOTONIC, &t);
	return (int64_t)(t.tv_sec - t0->tv_sec) * 1000000 +
	       (int64_t)(t.tv_nsec - t0->tv_nsec) / 1000;
}

/* Keeps the "warning: " lines of text, in place. */
static void keep_warnings(char *text)
{
	char *dst = text;
	const char *p = text;

	while (*p != '\0') {
		size_t n = strcspn(p, "\n");

		n += p[n] == '\n';
		if (strncmp(p, "warning: ", 9) == 0) {
			memmove(dst, p, n);
			dst += n;
		}
		p += n;
	}
	*dst = '\0';
}

/*
 * With --summary-only the worker's stdout is its dump's summary, sent to
 * the parent whole (a JSON document cut short would not parse).
 */
static void take_summary(struct csim_wire_result *r, FILE *out, char **text, size_t len,
			 struct csim_error *err)
{
	const int failed = ferror(out);

	if (fclose(out) != 0 || failed || *text == NULL) {
		if (r->status == CSIM_OK)
			r->status = csim_error_nomem(err, CSIM_E_OUTPUT);
	} else if (len > CSIM_WIRE_MAX_SUMMARY) {
		if (r->status == CSIM_OK)
			r->status = csim_error_set(err, CSIM_E_OUTPUT, CSIM_NO_OFFSET,
						   "its summary is %zu bytes, more than a batch passes on (%zu): run --summary-only on this dump alone",
						   len, CSIM_WIRE_MAX_SUMMARY);
	} else if (r->status == CSIM_OK) {
		r->summary = *text;
		*text = NULL;
	}
}

void csim_batch_worker_run(const struct csim_options *opt, const struct csim_dump *d,
			   atomic_ullong *relay_slot, int fd)
{
	struct csim_wire_result r;
	struct csim_error err;
	struct csim_progress relay;
	struct csim_log log = { NULL, NULL, 0, NULL };
	struct timespec t0;
	char *out_text = NULL, *err_text = NULL, *dir = NULL;
	size_t out_len = 0, err_len = 0;
	FILE *out, *errs;

	clock_gettime(CLOCK_MONOTONIC, &t0);
	memset(&r, 0, sizeof(r));
	csim_error_clear(&err);
	csim_progress_init_relay(&relay, relay_slot, !opt->summary_only);
	out = open_memstream(&out_text, &out_len);
	errs = open_memstream(&err_text, &err_len);
	if (opt->output_dir != NULL)
		dir = csim_path_join(opt->output_dir, d->rel);
	if (out == NULL || errs == NULL || (opt->output_dir != NULL && dir == NULL)) {
		r.status = csim_error_nomem(&err, CSIM_E_INPUT);
	} else {
		log.out = out;
		log.err = errs;
		log.quiet = opt->quiet;
		log.progress = &relay;
		r.status = csim_convert_dump(opt, d->bin, dir, &log, &r.fig, &err);
	}
	if (out != NULL && opt->summary_only)
		take_summary(&r, out, &out_text, out_len, &err);
	else if (out != NULL)
		fclose(out);
	if (errs != NULL && fclose(errs) == 0 && err_text != NULL)
		keep_warnings(err_text);
	r.micros = micros_since(&t0);
	r.message = r.status != CSIM_OK ? err.message : NULL;
	r.warnings = errs != NULL ? err_text : NULL;
	/* A failed send shows in the parent as a result cut short. */
	(void)csim_wire_result_send(fd, &r);
	r.message = r.warnings = NULL;
	csim_wire_result_release(&r);   /* also the summary taken from out_text */
	free(out_text);
	free(err_text);
	free(dir);
}
