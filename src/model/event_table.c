#include "model/event_table.h"

#include <assert.h>
#include <math.h>

#include <stdlib.h>
#include <string.h>

#include "base/array_grow.h"
#include "base/number_grid.h"
#include "model/flag_detail.h"
#include "model/pipe_table.h"

void csim_table_init(struct csim_table *t)
{
	memset(t, 0, sizeof(*t));
	csim_strtab_init(&t->pids, CSIM_STRTAB_GROUPED);
	csim_strtab_init(&t->pipes, CSIM_STRTAB_GROUPED);
	csim_strtab_init(&t->ids, CSIM_STRTAB_SCATTERED);
	csim_strtab_init(&t->detail_keys, CSIM_STRTAB_GROUPED);
	csim_strtab_init(&t->sync_names, CSIM_STRTAB_GROUPED);
	/* a loop body's instructions interleave across pipes: a recent
	   match is rare */
	csim_strtab_init(&t->instrs, CSIM_STRTAB_SCATTERED);
	csim_strtab_init(&t->names, CSIM_STRTAB_SCATTERED);
}

void csim_table_release(struct csim_table *t)
{
	for (size_t i = 0; i < t->pids.count; i++)
		free(t->pid_names[i]);
	free(t->pid_names);
	free(t->slices);
	free(t->syncs);
	free(t->details);
	free(t->counter_text);
	free(t->counters);
	free(t->bytes);
	free(t->slice_instr);
	free(t->exact);
	free(t->instr_names);
	free(t->id_key);
	csim_strtab_release(&t->pids);
	csim_strtab_release(&t->pipes);
	csim_strtab_release(&t->ids);
	csim_strtab_release(&t->detail_keys);
	csim_strtab_release(&t->sync_names);
	csim_strtab_release(&t->instrs);
	csim_strtab_release(&t->names);
	memset(t, 0, sizeof(*t));
}

const char *const csim_skip_reason_texts[CSIM_SKIP_COUNT] = {
	"not a JSON object",
	"no \"ph\" string",
	"no \"name\" string",
	"no \"pid\"",
	"no \"tid\"",
	"no numeric \"ts\"",
	"\"dur\" not a non-negative number",
	"\"ts\"/\"dur\" out of range",
	"values nested deeper than 512 levels",
};

const char *const csim_drop_reason_texts[CSIM_DROP_COUNT] = {
	"metadata (rebuilt)",
	"flow records (rebuilt)",
	"non-flag B/E records",
	"counters (--no-counters)",
	"other phases",
};

/*
 * A slice event is rarely under 150 bytes of JSON and a flag record under
 * 110; real traces hold fewer of each (other events share the payload).
 */
#define SLICE_BYTES_MIN 150u
#define SYNC_BYTES_MIN 110u
#define RESERVE_MAX ((uint64_t)1 << 26)

void csim_table_reserve(struct csim_table *t, uint64_t bytes)
{
	uint64_t slices = bytes / SLICE_BYTES_MIN + 1;
	uint64_t syncs = bytes / SYNC_BYTES_MIN + 1;

	/*
	 * Best effort: a sparse or lying file must not turn the estimate into
	 * a refusal, so it is capped and a failure only means growth later.
	 */
	if (slices > RESERVE_MAX)
		slices = RESERVE_MAX;
	if (syncs > RESERVE_MAX)
		syncs = RESERVE_MAX;
	if (csim_array_grow((void **)&t->slices, &t->slices_cap,
			    t->nslices + (size_t)slices, sizeof(*t->slices)) != 0 ||
	    csim_array_grow((void **)&t->slice_instr, &t->slice_instr_cap,
			    t->nslices + (size_t)slices, sizeof(*t->slice_instr)) != 0 ||
	    csim_array_grow((void **)&t->syncs, &t->syncs_cap,
			    t->nsyncs + (size_t)syncs, sizeof(*t->syncs)) != 0)
		return;
}

/* A name slot for every interned pid is made before the pid is interned:
   release() frees pids.count names. */
static int intern_pid(struct csim_table *t, const struct csim_owner *o, uint32_t *id)
{
	size_t before = t->pids.count;

	if (before + 1 > t->pid_names_cap &&
	    csim_array_grow((void **)&t->pid_names, &t->pid_names_cap, before + 1,
			    sizeof(*t->pid_names)) != 0)
		return -1;
	if (csim_strtab_intern(&t->pids, o->pid_json.p, o->pid_json.n, id) != 0)
		return -1;
	if (t->pids.count == before)
		return 0;
	/* New pid: keep its decoded text for sorting and process_name. */
	t->pid_names[*id] = malloc(o->pid.n + 1);
	if (t->pid_names[*id] == NULL)
		return -1;
	memcpy(t->pid_names[*id], o->pid.p, o->pid.n);
	t->pid_names[*id][o->pid.n] = '\0';
	return 0;
}

static int intern_pipe(struct csim_table *t, struct csim_span name, uint32_t *id)
{
	size_t cn;
	const char *c = csim_pipe_canonical(name.p, name.n, &cn);

	return csim_strtab_intern(&t->pipes, c, cn, id);
}

/*
 * cache_time/ccu_time companions sit on a lane "<PIPE> cache" of their own
 * (SPEC §4), right after their pipe. Companions are many (one pair per
 * instruction), so short names are composed on the stack.
 */
static int intern_cache_pipe(struct csim_table *t, struct csim_span name, uint32_t *id)
{
	static const char suffix[] = CSIM_PIPE_CACHE_SUFFIX;
	char small[128];
	size_t cn, n;
	const char *c = csim_pipe_canonical(name.p, name.n, &cn);
	char *buf;
	int rc;

	n = cn + sizeof(suffix) - 1;
	if (cn > SIZE_MAX - sizeof(suffix))
		return -1;
	buf = n <= sizeof(small) ? small : malloc(n);
	if (buf == NULL)
		return -1;
	memcpy(buf, c, cn);
	memcpy(buf + cn, suffix, sizeof(suffix) - 1);
	rc = csim_strtab_intern(&t->pipes, buf, n, id);
	if (buf != small)
		free(buf);
	return rc;
}

static uint16_t run_scope(const struct csim_table *t)
{
	return (uint16_t)(t->run < CSIM_RUN_SCOPE_MAX ? t->run : CSIM_RUN_SCOPE_MAX);
}

/*
 * The difference of an exact time from the grid's: the grid rounds one
 * double (two for an end), a few ns off at most even at the grid's limit.
 */
static int8_t fix_of(int64_t exact, int64_t grid)
{
	int64_t d = exact - grid;

	return d >= INT8_MIN && d <= INT8_MAX ? (int8_t)d : 0;
}

/*
 * Out of line: inlined, its growth call made the compiler stop inlining
 * the two of every row (callgrind, dense 20 MB: +3.9 M instructions on a
 * run that keeps no exact times).
 */
__attribute__((noinline))
static int keep_exact(struct csim_table *t, const struct csim_slice_time *at)
{
	if (csim_array_grow((void **)&t->exact, &t->exact_cap, t->nslices + 1,
			    sizeof(*t->exact)) != 0)
		return -1;
	t->exact[t->nslices] = (struct csim_exact_fix){ fix_of(at->exact_start, at->start),
							fix_of(at->exact_end, at->end) };
	return 0;
}

void csim_table_exact(const struct csim_table *t, size_t row, int64_t *start, int64_t *end)
{
	const struct csim_slice *s = &t->slices[row];

	*start = s->start + (t->exact != NULL ? t->exact[row].start : 0);
	*end = s->end + (t->exact != NULL ? t->exact[row].end : 0);
}

int csim_table_add_slice(struct csim_table *t, const struct csim_owner *o,
			 const struct csim_slice_time *at, enum csim_slice_kind kind,
			 struct csim_error *err)
{
	struct csim_slice *s;

	if (csim_array_grow((void **)&t->slices, &t->slices_cap, t->nslices + 1,
		 sizeof(*t->slices)) != 0 ||
	    csim_array_grow((void **)&t->slice_instr, &t->slice_instr_cap, t->nslices + 1,
			    sizeof(*t->slice_instr)) != 0)
		return csim_error_nomem(err, CSIM_E_INPUT);
	t->slice_instr[t->nslices] = CSIM_NONE;
	if (t->want_exact && keep_exact(t, at) != 0)
		return csim_error_nomem(err, CSIM_E_INPUT);
	s = &t->slices[t->nslices];
	memset(s, 0, sizeof(*s));
	s->start = at->start;
	s->end = at->end;
	s->a = at->a;
	s->b = at->b;
	s->kind = (uint8_t)kind;
	s->run = run_scope(t);
	if (intern_pid(t, o, &s->pid) != 0 ||
	    (kind == CSIM_SLICE_CACHE_CCU ? intern_cache_pipe(t, o->tid, &s->pipe)
					  : intern_pipe(t, o->tid, &s->pipe)) != 0)
		return csim_error_nomem(err, CSIM_E_INPUT);
	t->nslices++;
	return CSIM_OK;
}

int csim_table_add_bytes(struct csim_table *t, uint64_t bytes, struct csim_error *err)
{
	if (csim_array_grow((void **)&t->bytes, &t->bytes_cap, t->nbytes + 1,
			    sizeof(*t->bytes)) != 0)
		return csim_error_nomem(err, CSIM_E_INPUT);
	t->bytes[t->nbytes++] = (struct csim_slice_bytes){ t->nslices - 1, bytes };
	return CSIM_OK;
}

/* The name and address of a new instruction id, beside it. */
static int keep_instr(struct csim_table *t, uint32_t id, const struct csim_instr_key *key,
		      int has_pc)
{
	uint32_t *row;

	if (csim_array_grow((void **)&t->instr_names, &t->instr_names_cap, 2 * (size_t)id + 2,
			    sizeof(*t->instr_names)) != 0)
		return -1;
	row = &t->instr_names[2 * (size_t)id];
	row[1] = CSIM_NONE;
	if (csim_strtab_intern(&t->names, key->name_json.p, key->name_json.n, &row[0]) != 0)
		return -1;
	return has_pc ? csim_strtab_intern(&t->names, key->pc_json.p, key->pc_json.n, &row[1]) : 0;
}

/*
 * A key is a byte telling whether an address follows, the slice's pid id,
 * then the text of the address's JSON string (no quotes), or else the
 * name's JSON text: per core, as its path is, since a cube and a vector
 * core run binaries of their own. One key of 15 bytes or so a slice,
 * compared as the input wrote it: parsing each address as a number and
 * keying by address and name cost 7 M instructions on the 20 MB producer
 * dump, this 4 M (docs/performance.md). A new instruction's name and
 * address are kept beside it.
 */
int csim_table_set_instr(struct csim_table *t, const struct csim_instr_key *key,
			 struct csim_error *err)
{
	char small[128], *buf;
	const int has_pc = key->pc_json.p != NULL && key->pc_json.n >= 2;
	const struct csim_span v = has_pc ? csim_span_of(key->pc_json.p + 1, key->pc_json.n - 2)
				   : key->name_json;
	size_t head = 1 + sizeof(uint32_t), before = t->instrs.count, n;
	uint32_t pid, *id;
	int rc;

	assert(t->nslices > 0);   /* the row it names was just added */
	pid = t->slices[t->nslices - 1].pid;
	id = &t->slice_instr[t->nslices - 1];
	if (v.n > SIZE_MAX - head)
		return csim_error_nomem(err, CSIM_E_INPUT);
	n = head + v.n;
	buf = n <= sizeof(small) ? small : malloc(n);
	if (buf == NULL)
		return csim_error_nomem(err, CSIM_E_INPUT);
	buf[0] = (char)has_pc;
	memcpy(buf + 1, &pid, sizeof(pid));
	memcpy(buf + head, v.p, v.n);
	rc = csim_strtab_intern(&t->instrs, buf, n, id);
	if (buf != small)
		free(buf);
	if (rc == 0 && t->instrs.count > before)
		rc = keep_instr(t, *id, key, has_pc);
	return rc == 0 ? CSIM_OK : csim_error_nomem(err, CSIM_E_INPUT);
}

struct csim_instr_key csim_table_instr_key(const struct csim_table *t, uint32_t id)
{
	struct csim_instr_key k = { { NULL, 0 }, { NULL, 0 } };
	const uint32_t *row = &t->instr_names[2 * (size_t)id];
	size_t n;
	const char *p = csim_strtab_get(&t->names, row[0], &n);

	k.name_json = csim_span_of(p, n);
	if (row[1] != CSIM_NONE) {
		p = csim_strtab_get(&t->names, row[1], &n);
		k.pc_json = csim_span_of(p, n);
	}
	return k;
}

int csim_instr_key_address(const struct csim_instr_key *key, uint64_t *addr)
{
	const struct csim_span v = key->pc_json;

	return v.p != NULL && v.n >= 2 && csim_number_hex(v.p + 1, v.n - 2, addr);
}

/*
 * Details are values: each distinct one is held once (a kernel has a few
 * dozen, one per pipe pair and flag id), not one per B record (29 MB for
 * the dense-heavy shape's 1.2 M).
 */
static int add_detail(struct csim_table *t, const struct csim_flag_key *key,
		      int intra, uint32_t *index)
{
	struct csim_sync_detail d = { CSIM_NONE, CSIM_NONE, 0, 0 };
	char bytes[17];

	/* A cross-core record names no flag id; its sync_id takes that place. */
	d.flag_id = intra ? key->sync_id : key->flag_id;
	d.has_flag_id = (uint8_t)(intra ? key->has_sync_id : key->has_flag_id);
	if (key->producer != NULL &&
	    csim_strtab_intern(&t->pipes, key->producer, key->producer_n, &d.producer) != 0)
		return -1;
	if (key->consumer != NULL &&
	    csim_strtab_intern(&t->pipes, key->consumer, key->consumer_n, &d.consumer) != 0)
		return -1;
	memcpy(bytes, &d.producer, 4);
	memcpy(bytes + 4, &d.consumer, 4);
	memcpy(bytes + 8, &d.flag_id, 8);
	bytes[16] = (char)d.has_flag_id;
	if (csim_strtab_intern(&t->detail_keys, bytes, sizeof(bytes), index) != 0)
		return -1;
	if (*index < t->ndetails)
		return 0;
	if (csim_array_grow((void **)&t->details, &t->details_cap, t->ndetails + 1,
			    sizeof(*t->details)) != 0)
		return -1;
	t->details[t->ndetails++] = d;
	return 0;
}

/*
 * Flag ids are interned behind the run's index (4 bytes, fixed length, so
 * no two (run, id) pairs share a key): every user of table->ids then pairs
 * and matches within one run only, as simulator ids restart per run.
 */
static int intern_id(struct csim_table *t, struct csim_span id, uint32_t *out)
{
	size_t n = sizeof(t->run) + id.n;

	if (id.n > SIZE_MAX - sizeof(t->run) ||
	    csim_array_grow((void **)&t->id_key, &t->id_key_cap, n, 1) != 0)
		return -1;
	memcpy(t->id_key, &t->run, sizeof(t->run));
	memcpy(t->id_key + sizeof(t->run), id.p, id.n);
	return csim_strtab_intern(&t->ids, t->id_key, n, out);
}

int csim_table_add_sync(struct csim_table *t, const struct csim_sync_in *in,
			struct csim_error *err)
{
	struct csim_sync_rec *r;
	uint32_t name;

	if (csim_array_grow((void **)&t->syncs, &t->syncs_cap, t->nsyncs + 1,
		 sizeof(*t->syncs)) != 0)
		return csim_error_nomem(err, CSIM_E_INPUT);
	r = &t->syncs[t->nsyncs];
	memset(r, 0, sizeof(*r));
	/* the grid is llround(ts * 1000) by definition (base/number_grid.h) */
	assert(llround(in->a) == in->ts);
	r->a = in->a;
	r->is_begin = (uint8_t)in->is_begin;
	r->kind = (uint8_t)in->kind;
	r->intra = (uint8_t)(in->intra != 0);
	r->id = CSIM_NONE;
	r->detail = CSIM_NONE;
	r->run = run_scope(t);
	if (intern_pid(t, &in->owner, &r->pid) != 0 ||
	    intern_pipe(t, in->owner.tid, &r->pipe) != 0 ||
	    csim_strtab_intern(&t->sync_names, in->name.p, in->name.n, &name) != 0 ||
	    (in->has_id && intern_id(t, in->id, &r->id) != 0) ||
	    (in->detail != NULL && add_detail(t, in->detail, in->intra, &r->detail) != 0))
		return csim_error_nomem(err, CSIM_E_INPUT);
	/* the reading takes a handful of names as sync records (event_ingest) */
	assert(name <= UINT8_MAX);
	r->name = (uint8_t)name;
	t->nsyncs++;
	return CSIM_OK;
}

int csim_table_add_counter(struct csim_table *t, const struct csim_owner *o,
			   struct csim_span text, const int64_t *ts,
			   struct csim_error *err)
{
	uint32_t pid;

	if (intern_pid(t, o, &pid) != 0 ||
	    csim_array_grow((void **)&t->counter_text, &t->counter_cap,
		 t->counter_len + text.n, 1) != 0 ||
	    csim_array_grow((void **)&t->counters, &t->counters_cap, t->ncounters + 1,
		 sizeof(*t->counters)) != 0)
		return csim_error_nomem(err, CSIM_E_INPUT);
	memcpy(t->counter_text + t->counter_len, text.p, text.n);
	t->counters[t->ncounters].off = t->counter_len;
	t->counters[t->ncounters].len = text.n;
	t->counters[t->ncounters].pid = pid;
	/* The pid's text inside the event's, for a run label (--run all). */
	if (o->pid_json.p >= text.p && o->pid_json.p + o->pid_json.n <= text.p + text.n) {
		t->counters[t->ncounters].pid_at = (size_t)(o->pid_json.p - text.p);
		t->counters[t->ncounters].pid_len = o->pid_json.n;
	} else {
		t->counters[t->ncounters].pid_at = t->counters[t->ncounters].pid_len = 0;
	}
	t->counters[t->ncounters].ts = ts != NULL ? *ts : 0;
	t->counters[t->ncounters].placed = ts != NULL;
	t->counter_len += text.n;
	t->ncounters++;
	return CSIM_OK;
}
