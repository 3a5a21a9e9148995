#define _DEFAULT_SOURCE   /* MAP_ANONYMOUS */
#include "cli/batch.h"

#include <errno.h>
#include <poll.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/prctl.h>
#include <sys/stat.h>
#include <sys/types.h>
#include <sys/wait.h>
#include <unistd.h>

#include "base/interrupt.h"
#include "base/path.h"
#include "base/progress.h"
#include "cli/batch_wire.h"
#include "cli/batch_worker.h"
#include "write/batch_summary.h"
#include "write/out_left.h"

/* A worker's pipe is polled this often, so a signal is seen within it. */
#define POLL_MS 100
#define READ_CHUNK 65536

/* One running worker. */
struct slot {
	pid_t pid;             /* 0: free */
	int fd;                /* read end of its result pipe */
	size_t job;            /* index in jobs[] */
	char *buf;             /* its result bytes so far */
	size_t len, cap;
	int lost;              /* no memory to hold them: read and dropped */
};

/* What one dump of the shard came to; owns the texts its row points at. */
struct job {
	struct csim_wire_result res;
	char note[128];        /* the message when the worker sent none */
	uint64_t bytes;        /* its input's size, for the progress line */
};

struct batch {
	const struct csim_options *opt;
	const struct csim_dump_list *list;
	struct csim_log *log;
	size_t *sel;           /* list indices of this shard's dumps, in order */
	size_t nsel;
	struct job *jobs;
	char **pages;          /* each dump's summary.html from the batch folder */
	struct csim_batch_row *rows;
	struct slot *slots;
	unsigned nslots, running;
	size_t ok, failed;
	/* Shared with the workers, one per slot: how far each one's dump has
	   come (base/progress.h's relay); NULL: no shared mapping, the line
	   then counts finished dumps only. */
	atomic_ullong *relays;
	int stdout_failed;     /* --summary-only: stdout is the output, and it failed */
	int one_stream;        /* stdout and stderr are one file (a terminal, 2>&1) */
	/* The batch folder's set, begun (locked) from the start to the end:
	   one batch writes into a folder at a time (docs/batch.md). Workers
	   inherit its descriptor; the lock goes when the parent closes it. */
	struct csim_out_set set;
};

/* Are a and b one open file (device and inode): a terminal, or 2>&1? */
static int same_file(FILE *a, FILE *b)
{
	struct stat sa, sb;

	return fstat(fileno(a), &sa) == 0 && fstat(fileno(b), &sb) == 0 &&
	       sa.st_dev == sb.st_dev && sa.st_ino == sb.st_ino;
}

/*
 * The dump's line on stdout: "ok DIR: ..." or "FAILED DIR: ...", not with
 * -q. With --summary-only it heads the dump's table, also with -q (the
 * table is what was asked for); with --json the line is a JSON document
 * of its own instead (write/batch_summary.h).
 */
static void print_result(const struct batch *b, const struct csim_batch_row *row,
			 const struct csim_dump *d, const char *summary)
{
	const struct csim_dump_figures *f = &row->fig;
	FILE *out = b->log->out;

	if (b->opt->json) {
		csim_batch_summary_line(out, row, summary != NULL ? summary : "");
		return;
	}
	if (b->log->quiet && !b->opt->summary_only)
		return;
	if (row->status == CSIM_OK) {
		fputs("ok ", out);
		csim_log_text(out, d->dir);
		fprintf(out, ": %llu slices, %llu arrows",
			(unsigned long long)f->slices, (unsigned long long)f->arrows);
		if (f->skipped_events > 0)
			fprintf(out, ", %llu event(s) skipped", (unsigned long long)f->skipped_events);
		if (f->diag_ids[0] != '\0')
			fprintf(out, "; %s", f->diag_ids);
		fprintf(out, " (%lld.%03lld s)\n", (long long)(row->micros / 1000000),
			(long long)(row->micros / 1000 % 1000));
		/* Set off by empty lines: the table starts with one. */
		if (summary != NULL && summary[0] != '\0') {
			fputs(summary, out);
			fputc('\n', out);
		}
	} else {
		fputs("FAILED ", out);
		csim_log_text(out, d->dir);
		fputs(": ", out);
		csim_log_text(out, row->message);
		fputc('\n', out);
	}
}

static void print_row(struct batch *b, const struct csim_batch_row *row,
		      const struct csim_dump *d, const struct csim_wire_result *res)
{
	FILE *out = b->log->out;
	const char *warnings = res->warnings;

	/* stdout and stderr may share the terminal the status line is on. */
	csim_progress_clear(b->log->progress);
	print_result(b, row, d, res->summary);
	/* With --summary-only stdout is the output: once it fails (a reader
	   gone: EPIPE) no other dump is started. */
	if ((fflush(out) != 0 || ferror(out)) && b->opt->summary_only)
		b->stdout_failed = 1;
	if (warnings != NULL && warnings[0] != '\0' && !b->log->quiet)
		fputs(warnings, b->log->err);
	/* The FAILED line holds the message: on the same terminal or log an
	   error: line would say it twice (docs/batch.md, "Output"). */
	if (row->status != CSIM_OK &&
	    !(b->one_stream && !b->opt->json && (!b->log->quiet || b->opt->summary_only)))
		csim_log_error(b->log->err, row->message);
	fflush(out);
	fflush(b->log->err);
}

/*
 * The bytes done of the dumps under way, as their workers relay them
 * (each at most its file's size), for the status line.
 */
static void show_moving(const struct batch *b)
{
	uint64_t sum = 0;

	if (b->relays == NULL)
		return;
	for (unsigned i = 0; i < b->nslots; i++) {
		uint64_t v;

		if (b->slots[i].pid == 0)
			continue;
		v = atomic_load_explicit(&b->relays[i], memory_order_relaxed);
		sum += v < b->jobs[b->slots[i].job].bytes ? v : b->jobs[b->slots[i].job].bytes;
	}
	csim_progress_moving(b->log->progress, sum);
}

/* Fills the row of job j from its result (or its note) and prints it. */
static void settle(struct batch *b, size_t j)
{
	struct job *jb = &b->jobs[j];
	const struct csim_dump *d = &b->list->items[b->sel[j]];
	struct csim_batch_row *row = &b->rows[j];

	row->index = b->sel[j];
	row->dump = d->rel;
	row->input = d->bin != NULL ? d->bin : d->dir;
	row->status = jb->note[0] != '\0' ? CSIM_E_INPUT : jb->res.status;
	row->message = jb->note[0] != '\0' ? jb->note
		     : jb->res.message != NULL ? jb->res.message : "";
	row->micros = jb->res.micros;
	row->summary = row->status == CSIM_OK ? b->pages[j] : NULL;
	if (row->status == CSIM_OK)
		row->fig = jb->res.fig;   /* owned by jb->res */
	if (row->status == CSIM_OK)
		b->ok++;
	else
		b->failed++;
	print_row(b, row, d, &jb->res);
	csim_progress_item_done(b->log->progress, jb->bytes);
	show_moving(b);
	csim_progress_tick(b->log->progress);
}

__attribute__((format(printf, 2, 3)))
static void note(struct job *jb, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(jb->note, sizeof(jb->note), fmt, ap);
	va_end(ap);
}

/* The worker of slot s has closed its pipe: reaps it, settles its dump. */
static void finish(struct batch *b, struct slot *s)
{
	struct job *jb = &b->jobs[s->job];
	int st = 0, parsed;

	close(s->fd);
	while (waitpid(s->pid, &st, 0) < 0 && errno == EINTR)
		;
	parsed = s->lost ? -1 : csim_wire_result_parse(&jb->res, s->buf, s->len);
	if (parsed < 0)
		note(jb, "out of memory");
	else if (parsed > 0 && WIFSIGNALED(st))
		note(jb, "the worker converting this dump was killed by signal %d", WTERMSIG(st));
	else if (parsed > 0)
		note(jb, "the worker converting this dump exited (status %d) without a result",
		     WIFEXITED(st) ? WEXITSTATUS(st) : -1);
	free(s->buf);
	memset(s, 0, sizeof(*s));
	s->fd = -1;
	b->running--;
	settle(b, (size_t)(jb - b->jobs));
}

/* Reads what slot s's worker has sent; finishes it at end of file. */
static void drain(struct batch *b, struct slot *s)
{
	char scratch[4096];
	char *dst = scratch;
	size_t room = sizeof(scratch);
	ssize_t k;

	if (!s->lost && s->cap - s->len < READ_CHUNK) {
		char *grown = realloc(s->buf, s->cap + READ_CHUNK);

		/* The result is lost, not the batch: the worker is left to end
		   (never killed: its outputs stay whole) and its row says so. */
		if (grown == NULL)
			s->lost = 1;
		else {
			s->buf = grown;
			s->cap += READ_CHUNK;
		}
	}
	if (!s->lost) {
		dst = s->buf + s->len;
		room = s->cap - s->len;
	}
	k = read(s->fd, dst, room);
	if (k > 0 && !s->lost)
		s->len += (size_t)k;
	else if (k == 0 || (k < 0 && errno != EINTR))
		finish(b, s);
}

/*
 * Starts the worker of job j in slot s. Returns 1 in the worker once it is
 * done, else 0; a worker that cannot start is a failed dump.
 */
static int start(struct batch *b, struct slot *s, size_t j)
{
	const pid_t parent = getpid();
	int fds[2];
	pid_t pid;

	if (pipe(fds) != 0) {
		note(&b->jobs[j], "cannot start a worker: pipe failed (errno %d)", errno);
		settle(b, j);
		return 0;
	}
	fflush(NULL);   /* nothing buffered is written twice */
	if (b->relays != NULL)
		atomic_store_explicit(&b->relays[s - b->slots], 0, memory_order_relaxed);
	pid = fork();
	if (pid < 0) {
		note(&b->jobs[j], "cannot start a worker: fork failed (errno %d)", errno);
		close(fds[0]);
		close(fds[1]);
		settle(b, j);
		return 0;
	}
	if (pid == 0) {
		/* A group of its own: a terminal's Ctrl-C reaches the parent
		   only, which passes it on exactly once (the handler resets
		   after one signal). */
		setpgid(0, 0);
		/* Dies with the batch (killed, even by SIGKILL): no worker
		   commits after the command has returned; a commit it was in
		   is completed by the next run into the folder (the set's
		   record). A parent gone before this line: nothing to do. */
		close(fds[0]);
		if (prctl(PR_SET_PDEATHSIG, SIGKILL) != 0 || getppid() != parent) {
			close(fds[1]);
			return 1;
		}
		for (unsigned i = 0; i < b->nslots; i++)
			if (b->slots[i].pid != 0)
				close(b->slots[i].fd);
		csim_batch_worker_run(b->opt, &b->list->items[b->sel[j]],
				      b->relays != NULL ? &b->relays[s - b->slots] : NULL, fds[1]);
		close(fds[1]);
		return 1;
	}
	setpgid(pid, pid);   /* also here: a signal forwarded at once finds it */
	close(fds[1]);
	s->pid = pid;
	s->fd = fds[0];
	s->job = j;
	b->running++;
	return 0;
}

/* Passes the signal on to every running worker, once. */
static void forward(struct batch *b, int *forwarded)
{
	if (*forwarded)
		return;
	*forwarded = 1;
	for (unsigned i = 0; i < b->nslots; i++)
		if (b->slots[i].pid != 0)
			kill(b->slots[i].pid, csim_interrupt_pending());
}

/* Waits up to POLL_MS for the running workers and reads what they sent. */
static void wait_some(struct batch *b)
{
	struct pollfd pfd[CSIM_MAX_JOBS];
	unsigned idx[CSIM_MAX_JOBS], n = 0;

	for (unsigned i = 0; i < b->nslots; i++) {
		if (b->slots[i].pid == 0)
			continue;
		pfd[n].fd = b->slots[i].fd;
		pfd[n].events = POLLIN;
		pfd[n].revents = 0;
		idx[n++] = i;
	}
	show_moving(b);
	csim_progress_tick(b->log->progress);
	if (poll(pfd, n, POLL_MS) <= 0)
		return;
	for (unsigned k = 0; k < n; k++)
		if (pfd[k].revents != 0)
			drain(b, &b->slots[idx[k]]);
}

/* Converts the shard; returns 1 in a worker once its dump is done. */
static int run_all(struct batch *b)
{
	size_t next = 0;
	int forwarded = 0;

	while (b->running > 0 || (next < b->nsel && !csim_interrupt_pending() &&
				  !b->stdout_failed)) {
		if (csim_interrupt_pending())
			forward(b, &forwarded);
		while (!csim_interrupt_pending() && !b->stdout_failed &&
		       b->running < b->nslots && next < b->nsel) {
			size_t j = next++;
			unsigned i = 0;

			if (b->list->items[b->sel[j]].bin == NULL) {
				/* A PATH that holds no dump: its message of single mode. */
				note(&b->jobs[j], "%s", b->list->items[b->sel[j]].error);
				settle(b, j);
				continue;
			}
			while (b->slots[i].pid != 0)
				i++;
			if (start(b, &b->slots[i], j))
				return 1;
		}
		if (b->running > 0)
			wait_some(b);
	}
	return 0;
}

/* The status line's totals: the shard's dumps and their sizes as stored. */
static void set_progress(struct batch *b)
{
	uint64_t total = 0;

	for (size_t j = 0; j < b->nsel; j++) {
		const char *bin = b->list->items[b->sel[j]].bin;
		struct stat st;

		/* A size that cannot be read only makes the line less exact. */
		if (bin != NULL && stat(bin, &st) == 0 && st.st_size > 0)
			b->jobs[j].bytes = (uint64_t)st.st_size;
		total += b->jobs[j].bytes;
	}
	csim_progress_set_batch(b->log->progress, (unsigned long)b->nsel, total);
}

/*
 * The workers' relays: memory the forked workers share with the parent.
 * Without it (or without lock-free 64-bit atomics, which alone work
 * across processes) the status line counts finished dumps only.
 */
static void share_relays(struct batch *b)
{
#if ATOMIC_LLONG_LOCK_FREE == 2
	void *m = mmap(NULL, b->nslots * sizeof(*b->relays), PROT_READ | PROT_WRITE,
		       MAP_SHARED | MAP_ANONYMOUS, -1, 0);

	b->relays = m != MAP_FAILED ? m : NULL;
#else
	b->relays = NULL;
#endif
}

/*
 * Where dump d's summary.html goes, relative to the folder of the batch
 * summaries: DIR/<rel>/ under -o DIR, else the .bin's own folder below the
 * base (single mode's place). NULL when out of memory.
 */
static char *page_of(const struct batch *b, const struct csim_dump *d)
{
	char *dir = NULL, *abs = NULL, *rel, *page;

	if (b->opt->output_dir != NULL) {
		rel = d->rel;
	} else {
		dir = csim_path_dir(d->bin);
		abs = dir != NULL ? csim_dump_path_normalize(dir) : NULL;
		rel = abs != NULL ? csim_dump_path_relative(abs, b->list->base) : NULL;
	}
	page = rel == NULL ? NULL
	     : strcmp(rel, ".") == 0 ? strdup("summary.html")
	     : csim_path_join(rel, "summary.html");
	if (rel != d->rel)
		free(rel);
	free(abs);
	free(dir);
	return page;
}

/* Each dump's page (a dump without a .bin has none). */
static int find_pages(struct batch *b, struct csim_error *err)
{
	b->pages = calloc(b->nsel + 1, sizeof(*b->pages));
	if (b->pages == NULL)
		return csim_error_nomem(err, CSIM_E_INPUT);
	for (size_t j = 0; j < b->nsel; j++) {
		const struct csim_dump *d = &b->list->items[b->sel[j]];

		if (d->bin != NULL && (b->pages[j] = page_of(b, d)) == NULL)
			return csim_error_nomem(err, CSIM_E_INPUT);
	}
	return CSIM_OK;
}

static int batch_alloc(struct batch *b, struct csim_error *err)
{
	const struct csim_options *opt = b->opt;

	b->sel = calloc(b->list->n + 1, sizeof(*b->sel));
	for (size_t i = 0; b->sel != NULL && i < b->list->n; i++)
		if (opt->shard_n == 0 || i % opt->shard_n == opt->shard_k)
			b->sel[b->nsel++] = i;
	b->jobs = calloc(b->nsel + 1, sizeof(*b->jobs));
	b->rows = calloc(b->nsel + 1, sizeof(*b->rows));
	b->nslots = opt->jobs > 0 ? opt->jobs : 1;
	b->slots = calloc(b->nslots, sizeof(*b->slots));
	if (b->sel == NULL || b->jobs == NULL || b->rows == NULL || b->slots == NULL)
		return csim_error_nomem(err, CSIM_E_INPUT);
	set_progress(b);
	share_relays(b);
	return find_pages(b, err);
}

static void batch_release(struct batch *b)
{
	csim_out_set_release(&b->set);
	for (size_t j = 0; b->jobs != NULL && j < b->nsel; j++)
		csim_wire_result_release(&b->jobs[j].res);
	for (unsigned i = 0; b->slots != NULL && i < b->nslots; i++)
		free(b->slots[i].buf);
	for (size_t j = 0; b->pages != NULL && j < b->nsel; j++)
		free(b->pages[j]);
	free(b->pages);
	free(b->sel);
	free(b->jobs);
	free(b->rows);
	free(b->slots);
	if (b->relays != NULL)
		(void)munmap(b->relays, b->nslots * sizeof(*b->relays));
}

/* The batch summaries into dir (made by the batch), and their "wrote" lines. */
static int write_summaries(const char *dir, struct batch *b,
			   const struct csim_batch_totals *totals, struct csim_error *err)
{
	char *shown = csim_path_trim(dir);   /* as single mode names its folder */
	int rc = shown != NULL ? CSIM_OK : csim_error_nomem(err, CSIM_E_OUTPUT);
	char json[64], csv[64];

	csim_batch_summary_names(totals, json, csv, sizeof(json));
	if (rc == CSIM_OK)
		rc = csim_batch_summary_write(&b->set, dir, b->rows, b->nsel, totals, err);
	if (rc == CSIM_OK) {
		csim_log_wrote(b->log, shown, json);
		csim_log_wrote(b->log, shown, csv);
	}
	free(shown);
	return rc;
}

/*
 * The batch stopped by a signal: each stopped dump's worker removed what it
 * made; dir goes too if the run made it (made: csim_path_make_dirs's
 * record) and no dump was converted into it.
 */
static int interrupted(const struct batch *b, const char *dir, size_t made,
		       struct csim_error *err)
{
	size_t removed = 0;
	const int kept = csim_path_unmake_dirs(dir, made, &removed);

	(void)csim_interrupt_fail(err);
	csim_error_append(err, ": %zu of %zu dump(s) converted before it", b->ok, b->nsel);
	if (made > 0 && kept == 0 && removed > 0)
		csim_error_append(err, "; removed %.*s (created by this run)", (int)removed, dir);
	else if (b->ok > 0)
		csim_error_append(err, ", their outputs in %s kept", dir);
	return CSIM_E_INTERRUPTED;
}

int csim_batch_run(const struct csim_options *opt, const struct csim_dump_list *list,
		   struct csim_log *log, int *is_worker, struct csim_error *err)
{
	struct batch b;
	const char *dir = opt->output_dir != NULL ? opt->output_dir : list->base;
	const struct csim_batch_totals totals = { list->n, opt->shard_k, opt->shard_n };
	size_t made = 0;
	int rc;

	memset(&b, 0, sizeof(b));
	csim_out_set_init(&b.set);
	b.opt = opt;
	b.list = list;
	b.log = log;
	b.one_stream = same_file(log->out, log->err);
	*is_worker = 0;
	/* Where the summaries go must be usable before any dump is read;
	   --summary-only writes none. */
	rc = opt->summary_only ? CSIM_OK : csim_path_probe_dirs(dir, err);
	if (rc != CSIM_OK && opt->output_dir == NULL && !csim_error_is_nomem(err))
		csim_error_append(err, "; the batch summaries go there without -o: pass -o DIR "
				  "to write the outputs elsewhere");
	if (rc == CSIM_OK)
		rc = batch_alloc(&b, err);
	/* Made here, not by the first worker: a worker then removes only the
	   folders of its own dump, and the batch's folder is the batch's. */
	if (rc == CSIM_OK && !opt->summary_only)
		rc = csim_path_make_dirs(dir, &made, err);
	/* Another batch into the folder is waited for, as another converter
	   is: its summary would otherwise describe folders this one rewrote. */
	if (rc == CSIM_OK && !opt->summary_only)
		rc = csim_out_set_begin(&b.set, dir, log, err);
	if (rc != CSIM_OK)
		goto out;
	if (run_all(&b)) {
		*is_worker = 1;
		goto out;
	}
	if (csim_interrupt_pending()) {
		csim_progress_end(log->progress);
		rc = interrupted(&b, dir, made, err);
		goto out;
	}
	csim_progress_end(log->progress);
	if (!opt->summary_only)
		rc = write_summaries(dir, &b, &totals, err);
	if (rc != CSIM_OK && made > 0 && b.ok == 0) {
		struct csim_out_left left = { dir, made, 0, 0, 0 };

		left.kept = csim_path_unmake_dirs(dir, made, &left.removed);
		csim_out_left_tell(&left, err);
	}
	/* Not among --json's lines: stdout holds JSON only. */
	if (!log->quiet && !opt->json)
		fprintf(log->out, "converted %zu/%zu dumps\n", b.ok, b.nsel);
	if (b.failed > 0) {
		/* The dumps' failure decides the status (SPEC §1); a summary
		   that could not be written is still said. */
		if (rc != CSIM_OK)
			csim_log_error(log->err, err->message);
		rc = csim_error_set(err, CSIM_E_INPUT, CSIM_NO_OFFSET,
				    "%zu of %zu dump(s) failed", b.failed, b.nsel);
	}
out:
	batch_release(&b);
	return rc;
}
