/*
 * gen_path's writers: the simulated run as the simulator writes its
 * TRACE (X slices per core in end order, then the core's flag B/E records
 * and flows, then the cross-core records), and the truth of each core.
 */
#include "gen_path.h"

#include <inttypes.h>
#include <stdlib.h>

static const char *const lanes[GP_NPIPES] = {
	"MTE2", "MTE1", "CUBE", "VECTOR", "PUSHQ", "RVECLD", "RVECEX", "RVECST", "FIXP",
	"MTE3", "SCALAR"
};

static const char *const cnames[GP_NPIPES] = {
	"thread_state_iowait", "thread_state_running", "background_memory_dump",
	"cq_build_failed", "good", "good", "good", "good", "thread_state_unknown",
	"rail_response", "startup"
};

const char *gp_lane(unsigned pipe)
{
	return lanes[pipe];
}

unsigned gp_family(unsigned pipe)
{
	return pipe >= GP_VECTOR && pipe <= GP_RVECST ? GP_VECTOR : pipe;
}

const char *gp_named(unsigned pipe)
{
	return lanes[gp_family(pipe)];
}

const char *gp_flag_name(unsigned pipe)
{
	return gp_family(pipe) == GP_VECTOR ? "VEC" : lanes[pipe];
}

/* Prints ps as µs with 6 decimals (ns as 3 decimals when whole). */
static void us(FILE *f, int64_t ps)
{
	if (ps % 1000 == 0)
		fprintf(f, "%" PRId64 ".%03" PRId64, ps / 1000000, ps / 1000 % 1000);
	else
		fprintf(f, "%" PRId64 ".%06" PRId64, ps / 1000000, ps % 1000000);
}

struct out {
	FILE *f;
	int first;
};

static void sep(struct out *o)
{
	fputs(o->first ? "\n" : ",\n", o->f);
	o->first = 0;
}

struct end_key {
	int64_t end;
	size_t i;
};

static int end_cmp(const void *a, const void *b)
{
	const struct end_key *x = a, *y = b;

	if (x->end != y->end)
		return x->end < y->end ? -1 : 1;
	return x->i < y->i ? -1 : x->i > y->i;
}

static void slice(struct out *o, const struct gp_core *k, size_t c, size_t i)
{
	const struct gp_instr *x = &k->v[i];
	const struct gp_slot *s = &k->sched[i];

	sep(o);
	fprintf(o->f, "{\"args\":{\"code\":\"\",\"detail\":\"XD:X%zu=0x0,id:%zu\",\"pc_addr\":\"0x%zx\"",
		i % 31, i, 0x10000u * (c + 1) + 4 * x->pos);
	if (x->pipe == GP_MTE2 || x->pipe == GP_MTE3)
		fprintf(o->f, ",\"process_bytes\":\"%" PRId64 "\"", x->dur * 64);
	fprintf(o->f, "},\"cname\":\"%s\",\"dur\":", cnames[x->pipe]);
	us(o->f, (s->end - s->start) * 1000);
	fprintf(o->f, ",\"name\":\"%s\",\"ph\":\"X\",\"pid\":\"%s\",\"tid\":\"%s\",\"ts\":",
		x->name, k->pid, gp_lane(x->pipe));
	us(o->f, s->start * 1000);
	fputc('}', o->f);
}

/* A B/E record pair; detail NULL for the E's empty args. */
static void rec(struct out *o, const char *name, const char *ph, const char *id, const char *pid,
		const char *tid, const char *detail, const char *cname, int64_t ps)
{
	sep(o);
	if (detail != NULL)
		fprintf(o->f, "{\"args\":{\"code\":\"\",\"detail\":\"%s\",\"pc_addr\":\"0x2000\"},", detail);
	else
		fputs("{\"args\":{},", o->f);
	fprintf(o->f, "\"cname\":\"%s\",\"id\":\"%s\",\"name\":\"%s\",\"ph\":\"%s\",\"pid\":\"%s\","
		"\"tid\":\"%s\",\"ts\":", cname, id, name, ph, pid, tid);
	us(o->f, ps);
	fputc('}', o->f);
}

static void flow(struct out *o, const char *cat, const char *id, const char *ph, const char *pid,
		 const char *tid, int64_t ps)
{
	sep(o);
	fprintf(o->f, "{\"cat\":\"%s\",\"id\":\"%s\",\"name\":\"flow\",\"ph\":\"%s\",\"pid\":\"%s\","
		"\"tid\":\"%s\",\"ts\":", cat, id, ph, pid, tid);
	us(o->f, ps);
	fputc('}', o->f);
}

/*
 * One dependency: SET at the producer's end (set_ps before it), WAIT from
 * its begin to the release, a flow between them; the records sit on the
 * lane the flag names (the family's on VECTOR). A cross-core SET at an odd
 * place of its tile is written as newer producers write it: its B at the
 * producer's start, when the scalar unit issued it, its E as ever the
 * cycle after the producer's end.
 */
static void dep(struct out *o, const struct gp_run *run, size_t c, size_t i, long n)
{
	const struct gp_core *k = &run->core[c];
	const struct gp_instr *x = &k->v[i];
	const struct gp_slot *xs = &k->sched[i];
	int flag = x->dep == GP_DEP_FLAG;
	const struct gp_core *pk = flag ? k : &run->core[x->dep_core];
	unsigned pp = pk->v[x->dep_idx].pipe;
	int64_t set = pk->sched[x->dep_idx].end * 1000 - x->set_ps;
	const char *sn = flag ? "SET_FLAG" : "SET_INTRA_BLOCK";
	const char *wn = flag ? "WAIT_FLAG" : "WAIT_INTRA_BLOCK";
	char id[96], sd[160], wd[160], cat[64];

	snprintf(cat, sizeof(cat), "%sTo%s", gp_named(pp), gp_named(x->pipe));
	if (flag) {
		snprintf(id, sizeof(id), "%s_%ld", k->pid, n);
		snprintf(sd, sizeof(sd), "PIPE:%s,TRIGGERPIPE:%s,FLAGID:%ld,%s", gp_flag_name(pp),
			 gp_flag_name(x->pipe), n % 4, k->a5 ? "#V:0," : "");
		snprintf(wd, sizeof(wd), "%s", sd);
	} else {
		/* the cube core's sync ids: below 16 for veccore0, from 16 for veccore1 */
		long sync = (long)(c - 1) * 16 + n % 16;

		snprintf(id, sizeof(id), "intra_%ld", n);
		snprintf(sd, sizeof(sd), "PIPE:%s,sync_id:%ld,", gp_flag_name(pp), sync);
		snprintf(wd, sizeof(wd), "PIPE:%s,sync_id:%ld,", gp_flag_name(x->pipe), sync);
	}
	rec(o, sn, "B", id, pk->pid, gp_named(pp), sd, "black",
	    !flag && x->pos % 2 == 1 ? pk->sched[x->dep_idx].start * 1000 : set);
	rec(o, sn, "E", id, pk->pid, gp_named(pp), NULL, "black", set + 541);
	rec(o, wn, "B", id, k->pid, gp_named(x->pipe), wd, "yellow", xs->wait_b * 1000);
	rec(o, wn, "E", id, k->pid, gp_named(x->pipe), NULL, "yellow", xs->release * 1000);
	flow(o, cat, id, "s", pk->pid, gp_named(pp), set + 541);
	flow(o, cat, id, "t", k->pid, gp_named(x->pipe), xs->release * 1000);
}

int gp_write_trace(FILE *f, const struct gp_run *run)
{
	struct out o = { f, 1 };
	long intra = 0;

	fputs("{\"displayTimeUnit\":\"ns\",\"profilingType\":\"op\",\"schemaVersion\":2,"
	      "\"traceEvents\":[", f);
	for (size_t c = 0; c < run->ncores; c++) {
		const struct gp_core *k = &run->core[c];
		struct end_key *keys = malloc((k->n + 1) * sizeof(*keys));
		long flags = 0;

		if (keys == NULL)
			return -1;
		for (size_t i = 0; i < k->n; i++)
			keys[i] = (struct end_key){ k->sched[i].end, i };
		qsort(keys, k->n, sizeof(*keys), end_cmp);
		for (size_t i = 0; i < k->n; i++)
			slice(&o, k, c, keys[i].i);
		free(keys);
		for (size_t i = 0; i < k->n; i++)
			if (k->v[i].dep == GP_DEP_FLAG)
				dep(&o, run, c, i, flags++);
	}
	for (size_t c = 0; c < run->ncores; c++)
		for (size_t i = 0; i < run->core[c].n; i++)
			if (run->core[c].v[i].dep == GP_DEP_CROSS)
				dep(&o, run, c, i, intra++);
	fputs("\n]}\n", f);
	return ferror(f) ? -1 : 0;
}

void gp_write_truth(FILE *f, const struct gp_run *run, const struct gp_truth *t,
		    const char *suffix, int *first)
{
	for (size_t c = 0; c < run->ncores; c++) {
		const struct gp_truth *x = &t[c];
		const char *s = "";

		fprintf(f, "%s{\"core\":\"%s%s\",\"span_ns\":%" PRId64 ",\"segments\":%ld,\"busy\":[",
			*first ? "\n" : ",\n", run->core[c].pid, suffix, x->span, x->segments);
		*first = 0;
		for (unsigned p = 0; p < GP_NPIPES; p++)
			if (x->busy[p] > 0) {
				fprintf(f, "%s{\"pipe\":\"%s\",\"ns\":%" PRId64 "}", s, gp_lane(p), x->busy[p]);
				s = ",";
			}
		fputs("],\"wait\":[", f);
		s = "";
		for (unsigned p = 0; p < GP_NPIPES; p++)
			for (unsigned q = 0; q < GP_NPIPES; q++)
				if (x->wait[p][q] > 0) {
					fprintf(f, "%s{\"producer\":\"%s\",\"consumer\":\"%s\",\"ns\":%" PRId64 "}",
						s, gp_lane(p), gp_lane(q), x->wait[p][q]);
					s = ",";
				}
		fprintf(f, "],\"cross_core_wait_ns\":%" PRId64 ",\"issue_ns\":%" PRId64
			",\"instructions\":[", x->cross, x->issue);
		s = "";
		for (size_t oc = 0; oc < run->ncores; oc++)
			for (unsigned q = 0; q < GP_MAX_POS; q++)
				if (x->pos_busy[oc][q] + x->pos_rel[oc][q] > 0) {
					fprintf(f, "%s{\"pc_addr\":\"0x%zx\",\"name\":\"%s\",\"ns\":%"
						PRId64 ",\"busy_ns\":%" PRId64 ",\"released_ns\":%" PRId64 "}",
						s, 0x10000u * (oc + 1) + 4 * (size_t)q, x->pos_name[oc][q],
						x->pos_busy[oc][q] + x->pos_rel[oc][q], x->pos_busy[oc][q],
						x->pos_rel[oc][q]);
					s = ",";
				}
		fputs("],\"what_if\":[", f);
		s = "";
		for (unsigned p = 0; p < GP_NPIPES; p++)
			if (x->what_if[p] >= 0) {
				fprintf(f, "%s{\"pipe\":\"%s\",\"span_ns\":%" PRId64
					",\"model_span_ns\":%" PRId64 "}", s, gp_lane(p), x->what_if[p],
					x->model[p]);
				s = ",";
			}
		fputs("]}", f);
	}
}
