/*
 * trace_facts: prints the countable facts of a trace.clean.json, one per
 * line, so a scenario's hand-derived facts (fixtures/scenarios/<name>/facts,
 * transcribed from its EXPECT.md) can be checked line by line with grep -Fx.
 * It shares no code with the converter (cJSON only), like trace_check.
 *
 *   trace_facts FILE      exit 0, facts on stdout; 1 unreadable or not a trace
 *
 * Lines (order not significant):
 *   slices N | arrows N | counters N | processes N | lanes N
 *   process PID RANK              RANK: 0-based by process_sort_index
 *   lane PID PIPE SLICES SUBLANES PIPE is the tid without "#k"
 *   arrow ID NAME S_PID S_TID S_TS F_PID F_TID F_TS   (times as %.10g µs)
 *   arrowcat ID CAT               the arrow's cat (same id as its arrow line)
 *   thread PID RANK TID LABEL     RANK: 0-based place of the tid within its
 *                                 pid in the viewers' order (thread_sort_index,
 *                                 then thread_name); LABEL: its thread_name
 *   tsort PID TID INDEX           the tid's thread_sort_index
 *   cname PID TID CNAME           once per distinct cname of the tid's slices
 *   slice PID TID NAME TS         every slice, in file order (TS as %.10g µs)
 * The critical-path lane (tid "critical path", SPEC §13) is no pipe: its
 * slices, threads and colours are left out of the lines above, and
 *   pathseg PID NAME TS DUR       every segment, in file order
 *   path PID RANK SEGMENTS        RANK: its place among all the pid's tids
 *                                 in the viewers' order (0: above the pipes)
 * and the trace's top-level "metadata" object (SPEC §6), member by member:
 *   meta KEY VALUE                a string decoded, a number as %.10g, else
 *                                 its type (object, array, true, false, null)
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cjson/cJSON.h>

#define MAX_ITEMS 512
#define NAME_MAX_LEN 128

struct lane {
	char pid[NAME_MAX_LEN];
	char pipe[NAME_MAX_LEN];
	unsigned slices;
	unsigned nsubs;
	char subs[32][NAME_MAX_LEN];
};

struct process {
	char pid[NAME_MAX_LEN];
	double sort_index;
};

struct end {
	int seen;
	char pid[NAME_MAX_LEN];
	char tid[NAME_MAX_LEN];
	double ts;
};

struct arrow {
	double id;
	char name[NAME_MAX_LEN];
	char cat[NAME_MAX_LEN];
	struct end s, f;
};

/* One tid's thread metadata; sort_index is NAN until it is seen. */
struct thread {
	char pid[NAME_MAX_LEN];
	char tid[NAME_MAX_LEN];
	char label[NAME_MAX_LEN];
	double sort_index;
};

struct colour {
	char pid[NAME_MAX_LEN];
	char tid[NAME_MAX_LEN];
	char cname[NAME_MAX_LEN];
};

#define PATH_TID "critical path"

/* One pid's critical-path lane. */
struct path {
	char pid[NAME_MAX_LEN];
	unsigned segments;
};

struct facts {
	unsigned slices, counters;
	size_t npaths;
	struct path paths[MAX_ITEMS];
	size_t nlanes, nprocs, narrows, nthreads, ncolours;
	struct lane lanes[MAX_ITEMS];
	struct process procs[MAX_ITEMS];
	struct arrow arrows[MAX_ITEMS];
	struct thread threads[MAX_ITEMS];
	struct colour colours[MAX_ITEMS];
};

/* A pid or tid as text: strings as they are, numbers as %.17g. */
static void id_text(const cJSON *v, char *out)
{
	if (cJSON_IsString(v))
		snprintf(out, NAME_MAX_LEN, "%s", v->valuestring);
	else if (cJSON_IsNumber(v))
		snprintf(out, NAME_MAX_LEN, "%.17g", v->valuedouble);
	else
		snprintf(out, NAME_MAX_LEN, "?");
}

static char *read_all(const char *path)
{
	FILE *f = fopen(path, "rb");
	char *buf = NULL;
	long n;

	if (f == NULL)
		return NULL;
	if (fseek(f, 0, SEEK_END) == 0 && (n = ftell(f)) >= 0 &&
	    fseek(f, 0, SEEK_SET) == 0 && (buf = malloc((size_t)n + 1)) != NULL) {
		if (fread(buf, 1, (size_t)n, f) == (size_t)n) {
			buf[n] = '\0';
		} else {
			free(buf);
			buf = NULL;
		}
	}
	fclose(f);
	return buf;
}

static int add_slice(struct facts *fx, const char *pid, const char *tid)
{
	char pipe[NAME_MAX_LEN];
	const char *hash = strchr(tid, '#');
	struct lane *l = NULL;
	size_t i;

	snprintf(pipe, sizeof(pipe), "%.*s",
		 (int)(hash != NULL ? (size_t)(hash - tid) : strlen(tid)), tid);
	for (i = 0; i < fx->nlanes && l == NULL; i++)
		if (strcmp(fx->lanes[i].pid, pid) == 0 && strcmp(fx->lanes[i].pipe, pipe) == 0)
			l = &fx->lanes[i];
	if (l == NULL) {
		if (fx->nlanes == MAX_ITEMS)
			return -1;
		l = &fx->lanes[fx->nlanes++];
		snprintf(l->pid, sizeof(l->pid), "%s", pid);
		snprintf(l->pipe, sizeof(l->pipe), "%s", pipe);
	}
	l->slices++;
	for (i = 0; i < l->nsubs; i++)
		if (strcmp(l->subs[i], tid) == 0)
			return 0;
	if (l->nsubs == sizeof(l->subs) / sizeof(l->subs[0]))
		return -1;
	snprintf(l->subs[l->nsubs++], NAME_MAX_LEN, "%s", tid);
	return 0;
}

static struct arrow *arrow_of(struct facts *fx, double id, const char *name)
{
	for (size_t i = 0; i < fx->narrows; i++)
		if (fx->arrows[i].id == id && strcmp(fx->arrows[i].name, name) == 0)
			return &fx->arrows[i];
	if (fx->narrows == MAX_ITEMS)
		return NULL;
	fx->arrows[fx->narrows].id = id;
	snprintf(fx->arrows[fx->narrows].name, NAME_MAX_LEN, "%s", name);
	return &fx->arrows[fx->narrows++];
}

static struct thread *thread_of(struct facts *fx, const char *pid, const char *tid)
{
	struct thread *t;

	for (size_t i = 0; i < fx->nthreads; i++)
		if (strcmp(fx->threads[i].pid, pid) == 0 && strcmp(fx->threads[i].tid, tid) == 0)
			return &fx->threads[i];
	if (fx->nthreads == MAX_ITEMS)
		return NULL;
	t = &fx->threads[fx->nthreads++];
	snprintf(t->pid, sizeof(t->pid), "%s", pid);
	snprintf(t->tid, sizeof(t->tid), "%s", tid);
	t->sort_index = NAN;
	return t;
}

/* thread_name / thread_sort_index metadata of one tid. */
static int add_thread_meta(struct facts *fx, const cJSON *ev, const char *what,
			   const char *pid, const char *tid)
{
	const cJSON *args = cJSON_GetObjectItemCaseSensitive(ev, "args");
	struct thread *t = thread_of(fx, pid, tid);

	if (t == NULL)
		return -1;
	if (strcmp(what, "thread_name") == 0) {
		const cJSON *n = cJSON_GetObjectItemCaseSensitive(args, "name");

		if (!cJSON_IsString(n))
			return -1;
		snprintf(t->label, sizeof(t->label), "%s", n->valuestring);
	} else {
		const cJSON *idx = cJSON_GetObjectItemCaseSensitive(args, "sort_index");

		if (!cJSON_IsNumber(idx))
			return -1;
		t->sort_index = idx->valuedouble;
	}
	return 0;
}

static int add_colour(struct facts *fx, const cJSON *ev, const char *pid, const char *tid)
{
	const cJSON *c = cJSON_GetObjectItemCaseSensitive(ev, "cname");
	struct colour *k;

	if (!cJSON_IsString(c))
		return 0;
	for (size_t i = 0; i < fx->ncolours; i++) {
		k = &fx->colours[i];
		if (strcmp(k->pid, pid) == 0 && strcmp(k->tid, tid) == 0 &&
		    strcmp(k->cname, c->valuestring) == 0)
			return 0;
	}
	if (fx->ncolours == MAX_ITEMS)
		return -1;
	k = &fx->colours[fx->ncolours++];
	snprintf(k->pid, sizeof(k->pid), "%s", pid);
	snprintf(k->tid, sizeof(k->tid), "%s", tid);
	snprintf(k->cname, sizeof(k->cname), "%s", c->valuestring);
	return 0;
}

static int add_path_segment(struct facts *fx, const cJSON *ev, const char *pid, const char *name,
			    double ts)
{
	const cJSON *dur = cJSON_GetObjectItemCaseSensitive(ev, "dur");
	struct path *p = NULL;

	printf("pathseg %s %s %.10g %.10g\n", pid, name, ts,
	       cJSON_IsNumber(dur) ? dur->valuedouble : 0.0);
	for (size_t i = 0; i < fx->npaths && p == NULL; i++)
		if (strcmp(fx->paths[i].pid, pid) == 0)
			p = &fx->paths[i];
	if (p == NULL) {
		if (fx->npaths == MAX_ITEMS)
			return -1;
		p = &fx->paths[fx->npaths++];
		snprintf(p->pid, sizeof(p->pid), "%s", pid);
	}
	p->segments++;
	return 0;
}

static unsigned path_segments(const struct facts *fx, const char *pid)
{
	for (size_t i = 0; i < fx->npaths; i++)
		if (strcmp(fx->paths[i].pid, pid) == 0)
			return fx->paths[i].segments;
	return 0;
}

static int add_event(struct facts *fx, const cJSON *ev)
{
	const cJSON *ph = cJSON_GetObjectItemCaseSensitive(ev, "ph");
	const cJSON *name = cJSON_GetObjectItemCaseSensitive(ev, "name");
	char pid[NAME_MAX_LEN], tid[NAME_MAX_LEN];

	if (!cJSON_IsString(ph))
		return -1;
	id_text(cJSON_GetObjectItemCaseSensitive(ev, "pid"), pid);
	id_text(cJSON_GetObjectItemCaseSensitive(ev, "tid"), tid);
	if (strcmp(ph->valuestring, "X") == 0) {
		const cJSON *ts = cJSON_GetObjectItemCaseSensitive(ev, "ts");

		if (!cJSON_IsString(name) || !cJSON_IsNumber(ts))
			return -1;
		if (strcmp(tid, PATH_TID) == 0)
			return add_path_segment(fx, ev, pid, name->valuestring, ts->valuedouble);
		printf("slice %s %s %s %.10g\n", pid, tid, name->valuestring, ts->valuedouble);
		fx->slices++;
		if (add_colour(fx, ev, pid, tid) != 0)
			return -1;
		return add_slice(fx, pid, tid);
	}
	if (strcmp(ph->valuestring, "M") == 0 && cJSON_IsString(name) &&
	    (strcmp(name->valuestring, "thread_name") == 0 ||
	     strcmp(name->valuestring, "thread_sort_index") == 0))
		return add_thread_meta(fx, ev, name->valuestring, pid, tid);
	if (strcmp(ph->valuestring, "C") == 0) {
		fx->counters++;
		return 0;
	}
	if (strcmp(ph->valuestring, "M") == 0 && cJSON_IsString(name) &&
	    strcmp(name->valuestring, "process_sort_index") == 0) {
		const cJSON *args = cJSON_GetObjectItemCaseSensitive(ev, "args");
		const cJSON *idx = cJSON_GetObjectItemCaseSensitive(args, "sort_index");

		if (!cJSON_IsNumber(idx) || fx->nprocs == MAX_ITEMS)
			return -1;
		snprintf(fx->procs[fx->nprocs].pid, NAME_MAX_LEN, "%s", pid);
		fx->procs[fx->nprocs++].sort_index = idx->valuedouble;
		return 0;
	}
	if ((strcmp(ph->valuestring, "s") == 0 || strcmp(ph->valuestring, "f") == 0) &&
	    cJSON_IsString(name)) {
		const cJSON *id = cJSON_GetObjectItemCaseSensitive(ev, "id");
		const cJSON *ts = cJSON_GetObjectItemCaseSensitive(ev, "ts");
		const cJSON *cat = cJSON_GetObjectItemCaseSensitive(ev, "cat");
		struct arrow *a;
		struct end *e;

		if (!cJSON_IsNumber(id) || !cJSON_IsNumber(ts) ||
		    (a = arrow_of(fx, id->valuedouble, name->valuestring)) == NULL)
			return -1;
		if (ph->valuestring[0] == 's' && cJSON_IsString(cat))
			snprintf(a->cat, sizeof(a->cat), "%s", cat->valuestring);
		e = ph->valuestring[0] == 's' ? &a->s : &a->f;
		e->seen = 1;
		snprintf(e->pid, sizeof(e->pid), "%s", pid);
		snprintf(e->tid, sizeof(e->tid), "%s", tid);
		e->ts = ts->valuedouble;
	}
	return 0;
}

static int by_sort_index(const void *a, const void *b)
{
	const struct process *p = a, *q = b;

	if (p->sort_index != q->sort_index)
		return p->sort_index < q->sort_index ? -1 : 1;
	return strcmp(p->pid, q->pid);
}

/* The viewers' order of threads: pid, then thread_sort_index, then name. */
static int by_viewer_order(const void *a, const void *b)
{
	const struct thread *p = a, *q = b;
	int c = strcmp(p->pid, q->pid);

	if (c != 0)
		return c;
	if (p->sort_index != q->sort_index)
		return p->sort_index < q->sort_index ? -1 : 1;
	c = strcmp(p->label, q->label);
	return c != 0 ? c : strcmp(p->tid, q->tid);
}

static void print_threads(struct facts *fx)
{
	size_t rank = 0, all = 0;

	qsort(fx->threads, fx->nthreads, sizeof(fx->threads[0]), by_viewer_order);
	for (size_t i = 0; i < fx->nthreads; i++) {
		const struct thread *t = &fx->threads[i];

		if (i > 0 && strcmp(t->pid, fx->threads[i - 1].pid) != 0)
			rank = all = 0;
		if (strcmp(t->tid, PATH_TID) == 0) {
			printf("path %s %zu %u\n", t->pid, all++, path_segments(fx, t->pid));
			continue;
		}
		all++;
		printf("thread %s %zu %s %s\n", t->pid, rank++, t->tid, t->label);
		if (!isnan(t->sort_index))
			printf("tsort %s %s %.17g\n", t->pid, t->tid, t->sort_index);
	}
	for (size_t i = 0; i < fx->ncolours; i++)
		printf("cname %s %s %s\n", fx->colours[i].pid, fx->colours[i].tid,
		       fx->colours[i].cname);
}

static void print_facts(struct facts *fx)
{
	printf("slices %u\narrows %zu\ncounters %u\nprocesses %zu\nlanes %zu\n",
	       fx->slices, fx->narrows, fx->counters, fx->nprocs, fx->nlanes);
	qsort(fx->procs, fx->nprocs, sizeof(fx->procs[0]), by_sort_index);
	for (size_t i = 0; i < fx->nprocs; i++)
		printf("process %s %zu\n", fx->procs[i].pid, i);
	for (size_t i = 0; i < fx->nlanes; i++)
		printf("lane %s %s %u %u\n", fx->lanes[i].pid, fx->lanes[i].pipe,
		       fx->lanes[i].slices, fx->lanes[i].nsubs);
	for (size_t i = 0; i < fx->narrows; i++) {
		const struct arrow *a = &fx->arrows[i];

		if (!a->s.seen || !a->f.seen)
			continue;   /* trace_check reports unpaired flows */
		printf("arrow %.17g %s %s %s %.10g %s %s %.10g\n", a->id, a->name,
		       a->s.pid, a->s.tid, a->s.ts, a->f.pid, a->f.tid, a->f.ts);
		printf("arrowcat %.17g %s\n", a->id, a->cat[0] != '\0' ? a->cat : "-");
	}
	print_threads(fx);
}

static void print_metadata(const cJSON *meta)
{
	const cJSON *m;

	cJSON_ArrayForEach(m, meta) {
		if (cJSON_IsString(m))
			printf("meta %s %s\n", m->string, m->valuestring);
		else if (cJSON_IsNumber(m))
			printf("meta %s %.10g\n", m->string, m->valuedouble);
		else
			printf("meta %s %s\n", m->string,
			       cJSON_IsObject(m) ? "object" : cJSON_IsArray(m) ? "array"
			       : cJSON_IsTrue(m) ? "true" : cJSON_IsFalse(m) ? "false" : "null");
	}
}

int main(int argc, char **argv)
{
	static struct facts fx;
	const cJSON *events, *ev;
	cJSON *root;
	char *text;

	if (argc != 2) {
		fprintf(stderr, "usage: trace_facts FILE\n");
		return 2;
	}
	text = read_all(argv[1]);
	if (text == NULL) {
		fprintf(stderr, "trace_facts: %s: cannot read\n", argv[1]);
		return 1;
	}
	root = cJSON_Parse(text);
	free(text);
	events = cJSON_GetObjectItemCaseSensitive(root, "traceEvents");
	if (!cJSON_IsArray(events)) {
		fprintf(stderr, "trace_facts: %s: no traceEvents array\n", argv[1]);
		cJSON_Delete(root);
		return 1;
	}
	cJSON_ArrayForEach(ev, events) {
		if (add_event(&fx, ev) != 0) {
			fprintf(stderr, "trace_facts: %s: an event it cannot read\n", argv[1]);
			cJSON_Delete(root);
			return 1;
		}
	}
	print_facts(&fx);
	print_metadata(cJSON_GetObjectItemCaseSensitive(root, "metadata"));
	cJSON_Delete(root);
	return 0;
}
