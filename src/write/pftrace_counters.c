#include "write/pftrace_counters.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/array_grow.h"
#include "base/exact_ns.h"
#include "base/number_grid.h"
#include "read/json_skip.h"

void csim_pf_counters_init(struct csim_pf_counters *c, uint64_t next_uuid, size_t rank,
			   int64_t shift)
{
	memset(c, 0, sizeof(*c));
	csim_strtab_init(&c->keys, CSIM_STRTAB_GROUPED);
	c->next_uuid = next_uuid;
	c->rank = rank;
	c->shift = shift;
}

void csim_pf_counters_release(struct csim_pf_counters *c)
{
	csim_strtab_release(&c->keys);
	free(c->uuids);
	free(c->key);
}

/* The member `name` of a counter event's object text. */
static int counter_member(const char *text, size_t len, const char *name,
			  struct csim_span *value)
{
	struct csim_json_skip_iter it;
	struct csim_scan_result res;
	struct csim_span key;
	int has = 1;

	csim_json_skip_iter_init(&it, text, text + len, 1);
	while (csim_json_skip_next(&it, &key, value, &has, &res) == CSIM_SCAN_OK && has)
		if (key.n == strlen(name) && memcmp(key.p, name, key.n) == 0)
			return 1;
	return 0;
}

int csim_pf_counter_time(const struct csim_table *t, const struct csim_counter *counter,
			 int64_t *ns)
{
	struct csim_span ts;
	struct csim_decimal d;
	double v;

	if (!counter->placed ||
	    !counter_member(t->counter_text + counter->off, counter->len, "ts", &ts))
		return 0;
	if (!csim_number_grid_decimal(ts.p, ts.n, CSIM_GRID_LIMIT_NS, ns, &v, &d))
		return 0;
	if (!csim_exact_ns(&d, (int64_t)CSIM_GRID_LIMIT_NS, ns))
		*ns = counter->ts;
	return 1;
}

/* Key text: the run and the pid id, then the names, NUL-separated; NULL out of memory. */
static const char *counter_key(struct csim_pf_counters *c, size_t run, uint32_t pid,
			       struct csim_span name, struct csim_span arg, size_t *len)
{
	char head[48];
	size_t h = (size_t)snprintf(head, sizeof(head), "%zu:%u", run, (unsigned)pid) + 1;
	size_t n = h + name.n + 1 + arg.n;

	if (csim_array_grow((void **)&c->key, &c->key_cap, n, 1) != 0)
		return NULL;
	memcpy(c->key, head, h);
	if (name.n > 0)
		memcpy(c->key + h, name.p, name.n);
	c->key[h + name.n] = '\0';
	if (arg.n > 0)
		memcpy(c->key + h + name.n + 1, arg.p, arg.n);
	*len = n;
	return c->key;
}

/* The uuid of a key; *is_new when it had none yet. */
static int key_uuid(struct csim_pf_counters *c, const char *key, size_t n, uint64_t *uuid,
		    int *is_new)
{
	size_t before = c->keys.count;
	uint32_t id;

	if (csim_strtab_intern(&c->keys, key, n, &id) != 0 ||
	    csim_array_grow((void **)&c->uuids, &c->uuids_cap, (size_t)id + 1,
			    sizeof(*c->uuids)) != 0)
		return -1;
	*is_new = c->keys.count != before;
	if (*is_new)
		c->uuids[id] = c->next_uuid++;
	*uuid = c->uuids[id];
	return 0;
}

/* The process a counter is on: a core's, or one of counters only. */
static int counter_process(struct csim_pf_counters *c, struct csim_pf *pf,
			   const struct csim_pf_counter_run *run, uint32_t pid, uint64_t *uuid,
			   struct csim_error *err)
{
	const struct csim_span none = { "", 0 };
	const char *key;
	size_t n;
	int is_new;

	if (run->proc_of_pid[pid] != CSIM_NONE) {
		*uuid = run->proc0 + run->proc_of_pid[pid];
		return CSIM_OK;
	}
	key = counter_key(c, run->run, pid, none, none, &n);
	if (key == NULL || key_uuid(c, key, n, uuid, &is_new) != 0)
		return csim_error_nomem(err, CSIM_E_OUTPUT);
	if (!is_new)
		return CSIM_OK;
	csim_pf_process(pf, *uuid, run->m->table.pid_names[pid], c->rank++);
	return csim_pf_end(pf, err);
}

static int put_track(struct csim_pf *pf, uint64_t uuid, uint64_t parent,
		     struct csim_span name, struct csim_span arg, struct csim_error *err)
{
	struct csim_pb *pb = &pf->pkt;

	csim_pf_begin(pf, -1);
	csim_pb_begin(pb, CSIM_PF_TRACK_DESCRIPTOR);
	csim_pb_uint(pb, CSIM_PF_TD_UUID, uuid);
	csim_pb_uint(pb, CSIM_PF_TD_PARENT, parent);
	csim_pb_begin(pb, CSIM_PF_TD_NAME);   /* as Perfetto's JSON importer names it */
	csim_pb_raw(pb, name.p, name.n);
	csim_pb_raw(pb, " ", 1);
	csim_pb_raw(pb, arg.p, arg.n);
	csim_pb_end(pb);
	csim_pb_begin(pb, CSIM_PF_TD_COUNTER);
	csim_pb_end(pb);
	csim_pb_end(pb);
	return csim_pf_end(pf, err);
}

/* One sample of a counter's argument `arg` (a number). */
static int put_sample(struct csim_pf_counters *c, struct csim_pf *pf,
		      const struct csim_pf_counter_run *run, uint32_t pid, struct csim_span name,
		      struct csim_span arg, double v, int64_t ns, struct csim_error *err)
{
	uint64_t uuid, parent = 0;
	const char *key;
	size_t n;
	int is_new, rc = CSIM_OK;

	key = counter_key(c, run->run, pid, name, arg, &n);
	if (key == NULL || key_uuid(c, key, n, &uuid, &is_new) != 0)
		return csim_error_nomem(err, CSIM_E_OUTPUT);
	if (is_new) {
		rc = counter_process(c, pf, run, pid, &parent, err);
		if (rc == CSIM_OK)
			rc = put_track(pf, uuid, parent, name, arg, err);
	}
	if (rc != CSIM_OK)
		return rc;
	ns += c->shift;
	csim_pf_begin(pf, ns > 0 ? ns : 0);
	csim_pb_begin(&pf->pkt, CSIM_PF_TRACK_EVENT);
	csim_pb_uint(&pf->pkt, CSIM_PF_EV_TYPE, CSIM_PF_COUNTER);
	csim_pb_uint(&pf->pkt, CSIM_PF_EV_TRACK_UUID, uuid);
	csim_pb_double(&pf->pkt, CSIM_PF_EV_DOUBLE_COUNTER, v);
	csim_pb_end(&pf->pkt);
	return csim_pf_end(pf, err);
}

/* A counter event: a sample per numeric member of its args, as Perfetto reads the JSON. */
static int put_counter(struct csim_pf_counters *c, struct csim_pf *pf,
		       const struct csim_pf_counter_run *run, const struct csim_counter *counter,
		       struct csim_error *err)
{
	const struct csim_table *t = &run->m->table;
	const char *text = t->counter_text + counter->off;
	struct csim_span name_v, args, key, v, name;
	struct csim_json_skip_iter it;
	struct csim_scan_result res;
	int64_t ns;
	int has = 1, rc = CSIM_OK;
	double d;

	if (!csim_pf_counter_time(t, counter, &ns) ||
	    !counter_member(text, counter->len, "name", &name_v) || *name_v.p != '"' ||
	    !counter_member(text, counter->len, "args", &args) || *args.p != '{')
		return CSIM_OK;
	name = (struct csim_span){ name_v.p + 1, name_v.n - 2 };
	csim_json_skip_iter_init(&it, args.p, args.p + args.n, 1);
	while (rc == CSIM_OK &&
	       csim_json_skip_next(&it, &key, &v, &has, &res) == CSIM_SCAN_OK && has)
		if (*v.p != '"' && *v.p != '{' && *v.p != '[' && *v.p != 'n' &&
		    *v.p != 't' && *v.p != 'f' && csim_number_parse(v.p, v.n, &d))
			rc = put_sample(c, pf, run, counter->pid, name, key, d, ns, err);
	return rc;
}

int csim_pf_counters_write(struct csim_pf_counters *c, struct csim_pf *pf,
			   const struct csim_pf_counter_run *run, struct csim_error *err)
{
	const struct csim_table *t = &run->m->table;
	int rc = CSIM_OK;

	for (size_t k = 0; k < t->ncounters && rc == CSIM_OK; k++)
		if (csim_cut_in(run->m->cut.counter_in, k))
			rc = put_counter(c, pf, run, &t->counters[k], err);
	return rc;
}
