#include "cli/convert.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "base/interrupt.h"
#include "base/path.h"
#include "cli/options_text.h"
#include "model/passes.h"
#include "read/dump_read.h"
#include "read/input_locate.h"
#include "write/outputs.h"

/* Everything one conversion owns. */
struct run {
	char *bin_path;
	char *bin_dir;
	char *out_dir;
	char *options;                     /* as the traces' metadata name them */
	struct csim_read_choices read;
	struct csim_outputs_choices write;
	struct csim_dump dump;             /* the runs read, one part each */
	struct csim_output_run *runs;      /* the same, as the outputs take them */
	struct csim_model **models;        /* the same, as the passes take them */
	struct csim_outputs out;
	size_t made;                       /* the folders made (csim_path_make_dirs) */
	int writing;                       /* the output stage began */
};

/* What the reading and the output stage take of the options. */
static void choose(struct run *r, const struct csim_options *opt, const char *output_dir)
{
	/* With -j 2 or more the other dumps' workers already fill the cores:
	   a second thread per dump would only contend (measured: the 20-dump
	   batch took 1.33-1.61 s with it against 1.14-1.35 s without). */
	const int threads = opt->jobs < 2;
	const int perfetto = (opt->formats & CSIM_FORMAT_PERFETTO) != 0 && !opt->summary_only;

	/* The rows hook stays with --summary-only: a reshape past its bound
	   drops the API_INSTR figures from the summary too, which must say
	   what summary.json would. */
	r->read = (struct csim_read_choices){
		opt->run, opt->run_all, { opt->keep_scalar, opt->keep_cache_ccu },
		opt->cores, opt->ncores, opt->window, opt->counters, threads,
		{ csim_outputs_rows_open, csim_outputs_rows_refused, &r->out },
		perfetto, !opt->summary_only
	};
	r->write = (struct csim_outputs_choices){
		r->out_dir, output_dir != NULL, r->bin_dir, r->bin_path, opt->gzip,
		(opt->formats & CSIM_FORMAT_JSON) != 0, perfetto, opt->raw_metrics, opt->copy_raw, threads, opt->run != 0, opt->run_all,
		opt->summary_only, opt->json, r->options
	};
}

/* The runs read, handed to the passes and the output stage. */
static int take_runs(struct run *r, struct csim_error *err)
{
	const struct csim_dump *d = &r->dump;

	r->runs = calloc(d->nparts, sizeof(*r->runs));
	r->models = calloc(d->nparts, sizeof(*r->models));
	if (r->runs == NULL || r->models == NULL)
		return csim_error_nomem(err, CSIM_E_INPUT);
	for (size_t i = 0; i < d->nparts; i++) {
		struct csim_dump_part *p = d->parts[i];

		r->models[i] = &p->model;
		r->runs[i] = (struct csim_output_run){
			p->run, &p->model, &p->slices, p->have_metrics ? &p->metrics : NULL,
			p->metrics_refused, p->instr_offset
		};
	}
	csim_outputs_take_runs(&r->out, r->runs, d->nparts, d->parts[0]->profiling_type,
			       d->parts[0]->schema_version);
	csim_outputs_take_input(&r->out, d->in_size, d->in_gzip);
	return CSIM_OK;
}

/* How often the folder is made again when the run it waited for removed it. */
#define LOCK_TRIES 3

/*
 * The folder made and locked. A run that held its lock and failed removed
 * the folder it had made as this one waited: it is made again.
 */
static int make_and_lock(struct run *r, struct csim_error *err)
{
	int rc = CSIM_OK;

	if (csim_outputs_locked(&r->out))
		return CSIM_OK;
	for (int tries = 0; rc == CSIM_OK && tries < LOCK_TRIES; tries++) {
		if (r->write.out_given)
			rc = csim_path_make_dirs(r->out_dir, &r->made, err);
		if (rc == CSIM_OK)
			rc = csim_outputs_lock(&r->out, err);
		if (csim_outputs_locked(&r->out) || !r->write.out_given)
			break;
	}
	return rc;
}

/*
 * Read, lock the folder if it exists, run the passes, ready the tables
 * and the batch row: whatever fails here leaves no output. With
 * --summary-only the folder is neither checked nor locked: nothing goes
 * into it.
 */
static int prepare(struct run *r, struct csim_log *log, struct csim_dump_figures *figures,
		   struct csim_error *err)
{
	const int files = !r->write.summary_only;
	/* A bad output folder is reported before the input is read (SPEC §1);
	   nothing is created until the input has proved convertible. */
	int rc = files ? csim_path_probe_dirs(r->out_dir, err) : CSIM_OK;

	if (rc != CSIM_OK && !r->write.out_given && !csim_error_is_nomem(err))
		csim_error_append(err, "; it is the dump's folder, where the outputs go without -o: "
				  "pass -o DIR to write them elsewhere");
	if (rc == CSIM_OK)
		rc = csim_dump_read(&r->dump, err);
	if (rc == CSIM_OK)
		rc = take_runs(r, err);
	/* The input read, the folder is made and locked (and mended) before
	   the passes: instr_metrics.json needs none of them, and its thread
	   then writes it while the passes run on this one (0.3 s of CPU on
	   the dense-heavy shape, which used to wait for the passes). A run
	   that fails from here on removes the folder it made. */
	if (rc == CSIM_OK && files)
		rc = make_and_lock(r, err);
	if (rc == CSIM_OK) {
		csim_progress_phase(log->progress, CSIM_PHASE_PASSES, r->dump.in_size);
		rc = csim_passes_run_all(r->models, r->dump.nparts, err);
	}
	if (rc == CSIM_OK)
		rc = csim_outputs_prepare_tables(&r->out, err);
	if (rc == CSIM_OK && figures != NULL)   /* a batch row: the last run's */
		rc = csim_dump_figures_take(figures, r->runs[r->dump.nparts - 1].m, err);
	return rc;
}

/* The folder made and locked, every output committed, then what was done. */
static int finish(struct run *r, struct csim_log *log, struct csim_error *err)
{
	int rc = make_and_lock(r, err);

	if (rc == CSIM_OK && !csim_outputs_locked(&r->out))
		rc = csim_error_set(err, CSIM_E_OUTPUT, CSIM_NO_OFFSET, "cannot write %s: %s",
				    r->out_dir, strerror(ENOENT));
	if (rc == CSIM_OK) {
		csim_progress_phase(log->progress, CSIM_PHASE_WRITING, r->dump.in_size);
		rc = csim_outputs_write(&r->out, err);
		csim_progress_end(log->progress);
	}
	if (rc == CSIM_OK)
		csim_outputs_report(&r->out);
	/* A signal held off during the commit: the run ends by it, the set in place. */
	if (rc == CSIM_OK && csim_interrupt_pending())
		rc = csim_interrupt_fail_committed(err);
	/* On stdout after every "wrote" line (SPEC §1). */
	if (rc == CSIM_OK)
		csim_outputs_print_tables(&r->out);
	return rc;
}

/* --summary-only: what was read, then the summary on stdout. */
static int finish_summary_only(struct run *r, struct csim_log *log, struct csim_error *err)
{
	csim_progress_end(log->progress);
	csim_outputs_report(&r->out);
	return csim_outputs_print_summary(&r->out, err);
}

int csim_convert(const struct csim_options *opt, struct csim_log *log,
		 struct csim_error *err)
{
	return csim_convert_dump(opt, opt->input, opt->output_dir, log, NULL, err);
}

int csim_convert_dump(const struct csim_options *opt, const char *input,
		      const char *output_dir, struct csim_log *log,
		      struct csim_dump_figures *figures, struct csim_error *err)
{
	struct run r;
	int rc;

	memset(&r, 0, sizeof(r));
	rc = csim_options_text(opt, &r.options, err);
	if (rc == CSIM_OK)
		rc = csim_input_locate(input, &r.bin_path, &r.bin_dir, err);
	if (rc == CSIM_OK) {
		r.out_dir = csim_path_trim(output_dir != NULL ? output_dir : r.bin_dir);
		if (r.out_dir == NULL)
			rc = csim_error_nomem(err, CSIM_E_INPUT);
	}
	choose(&r, opt, output_dir);
	csim_dump_init(&r.dump, &r.read, log, r.bin_path);
	csim_outputs_init(&r.out, &r.write, log);
	if (rc == CSIM_OK)
		rc = prepare(&r, log, figures, err);
	if (rc == CSIM_OK && r.write.summary_only) {
		rc = finish_summary_only(&r, log, err);
	} else if (rc == CSIM_OK) {
		r.writing = 1;
		rc = finish(&r, log, err);
	}
	csim_progress_end(log->progress);   /* main prints the error next */
	/* What the folder holds is said from the writing on, and for a signal
	   at any time; the one out-of-memory message stays as it is. A
	   --summary-only run has no folder to speak of. */
	if (rc != CSIM_OK && r.out_dir != NULL && !r.write.summary_only) {
		const int tell = r.writing || rc == CSIM_E_INTERRUPTED;

		csim_outputs_abandon(&r.out, r.made, tell && !csim_error_is_nomem(err), err);
	}
	csim_outputs_release(&r.out);
	csim_dump_release(&r.dump);
	free(r.runs);
	free(r.models);
	free(r.bin_path);
	free(r.bin_dir);
	free(r.out_dir);
	free(r.options);
	return rc;
}
