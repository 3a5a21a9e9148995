/*
 * summary_recheck, API_INSTR part: recomputes from instr_metrics.json (the
 * reshaped API_INSTR, SPEC §7) what summary.json says about it (SPEC §10,
 * docs/summary.md), written apart from the converter's instr digest:
 *   - per core and canonical pipe (FIXPIPE is FIXP, VEC is VECTOR), rows
 *     whose Source's first word starts with a sync mnemonic add their Cycles
 *     to sync_cycles, the others add Cycles to cycles and Instructions
 *     Executed to executed; vector_utilization is the Cycles-weighted mean
 *     of the non-sync rows with a utilization >= 0 and Cycles > 0. A value
 *     that is not a non-negative number (-1) counts as 0. A group whose three
 *     sums are 0 (or that has no rows) is null in the summary.
 *   - top_instructions: the ten rows with the most Cycles summed over the
 *     cores (ties: earlier row first, 0 excluded), their address, pipe,
 *     mnemonic, executed, cores with cycles and share of all cycles, and
 *     its source line where an AscendC Inner Code gives it (a line from
 *     API_FILE ranges is not in the outputs: not checked).
 *   - top_source_lines: every core's rows summed by their AscendC Inner
 *     Code (cycles, executions, distinct addresses of the rows with
 *     cycles), most cycles first, ties in byte order (sumcheck_instr_lines).
 * A core's list leaves out the rows that core did not execute (SPEC §7), so
 * the lists differ in length: one API_INSTR row is the records of the same
 * address across the cores (the k-th record of an address on each core,
 * for an address written twice). Where no core holds two tied rows, their
 * order in the API_INSTR is unknown and either order is accepted.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "summary_recheck.h"

#define TOP_N 10
#define NAME_LEN 128

struct group {
	double cycles, sync, executed, util_w, util_c;
};

static const char *const sync_words[] = {
	"SET_FLAG", "WAIT_FLAG", "set_event", "wait_event", "SET_INTRA_BLOCK", "WAIT_INTRA_BLOCK",
};

/* A non-negative number of row at key, else 0 (-1 means not applicable). */
static double value(const cJSON *row, const char *key)
{
	double v = sumcheck_num(row, key);

	return isnan(v) || v < 0 ? 0 : v;
}

static const char *str(const cJSON *row, const char *key)
{
	const cJSON *v = cJSON_GetObjectItemCaseSensitive(row, key);

	return cJSON_IsString(v) ? v->valuestring : NULL;
}

static void canonical(const char *pipe, char *out, size_t n)
{
	if (pipe == NULL)
		pipe = "";
	if (strcasecmp(pipe, "FIXPIPE") == 0)
		pipe = "FIXP";
	else if (strcasecmp(pipe, "VEC") == 0)
		pipe = "VECTOR";
	snprintf(out, n, "%s", pipe);
}

static void first_word(const char *source, char *out, size_t n)
{
	size_t k = 0;

	if (source == NULL)
		source = "";
	while (*source == ' ' || *source == '\t')
		source++;
	while (source[k] != '\0' && source[k] != ' ' && source[k] != '\t' && k + 1 < n) {
		out[k] = source[k];
		k++;
	}
	out[k] = '\0';
}

static int is_sync(const cJSON *row)
{
	char word[NAME_LEN];

	first_word(str(row, "source"), word, sizeof(word));
	for (size_t i = 0; i < sizeof(sync_words) / sizeof(sync_words[0]); i++)
		if (strncmp(word, sync_words[i], strlen(sync_words[i])) == 0)
			return 1;
	return 0;
}

static const cJSON *rows_of(const cJSON *metrics, const char *core)
{
	const cJSON *ins = cJSON_GetObjectItemCaseSensitive(metrics, "instructions");

	return cJSON_GetObjectItemCaseSensitive(ins, core);
}

static struct group group_of(const cJSON *metrics, const char *core, const char *pipe)
{
	struct group g = { 0, 0, 0, 0, 0 };
	const cJSON *row;
	char canon[NAME_LEN];

	cJSON_ArrayForEach(row, rows_of(metrics, core)) {
		double cyc = value(row, "cycles"), util;

		canonical(str(row, "pipe"), canon, sizeof(canon));
		if (strcmp(canon, pipe) != 0)
			continue;
		if (is_sync(row)) {
			g.sync += cyc;
			continue;
		}
		g.cycles += cyc;
		g.executed += value(row, "instructions_executed");
		util = sumcheck_num(row, "vector_utilization_percentage");
		if (!isnan(util) && util >= 0 && cyc > 0) {
			g.util_w += util * cyc;
			g.util_c += cyc;
		}
	}
	return g;
}

static void want_null(const char *core, const char *pipe, const cJSON *p, const char *key)
{
	if (!cJSON_IsNull(cJSON_GetObjectItemCaseSensitive(p, key)))
		sumcheck_fail("%s %s: %s is not null, API_INSTR has no such numbers", core, pipe, key);
}

static void want_num(const char *core, const char *pipe, const cJSON *p, const char *key, double v)
{
	if (sumcheck_num(p, key) != v)
		sumcheck_fail("%s %s: %s %g, API_INSTR gives %.17g", core, pipe, key,
			      sumcheck_num(p, key), v);
}

void sumcheck_instr_pipe(const cJSON *metrics, const char *core, const cJSON *p)
{
	const cJSON *name = cJSON_GetObjectItemCaseSensitive(p, "pipe");
	const char *pipe = cJSON_IsString(name) ? name->valuestring : "?";
	struct group g = { 0, 0, 0, 0, 0 };
	double util;

	if (metrics != NULL)
		g = group_of(metrics, core, pipe);
	if (g.cycles == 0 && g.sync == 0 && g.executed == 0) {
		want_null(core, pipe, p, "cycles");
		want_null(core, pipe, p, "sync_cycles");
		want_null(core, pipe, p, "executed");
		want_null(core, pipe, p, "vector_utilization");
		return;
	}
	want_num(core, pipe, p, "cycles", g.cycles);
	want_num(core, pipe, p, "sync_cycles", g.sync);
	want_num(core, pipe, p, "executed", g.executed);
	if (g.util_c == 0) {
		want_null(core, pipe, p, "vector_utilization");
		return;
	}
	/* Printed with 2 decimals: within half a hundredth of the weighted mean. */
	util = sumcheck_num(p, "vector_utilization");
	if (isnan(util) || fabs(util - g.util_w / g.util_c) > 0.005 + 1e-9)
		sumcheck_fail("%s %s: vector_utilization %g, API_INSTR gives %.6f", core, pipe,
			      util, g.util_w / g.util_c);
}

/* One API_INSTR row: its records across the cores, by address. */
struct row_total {
	const char *address;     /* "" when the row has none */
	size_t occurrence;       /* the k-th row of that address on a core */
	const cJSON *first;      /* a record of it, for pipe, source, mnemonic */
	double cycles, executed;
	int cores;
	int used;                /* matched to a top_instructions entry */
};

struct rows {
	struct row_total *v;
	size_t n, cap;
	const cJSON *core_names;
};

static const char *address_of(const cJSON *row)
{
	const char *a = str(row, "address");

	return a != NULL ? a : "";
}

/* The row of (address, occurrence), added when new; NULL out of memory. */
static struct row_total *row_of(struct rows *rs, const cJSON *rec, size_t occurrence)
{
	const char *a = address_of(rec);

	for (size_t i = 0; i < rs->n; i++)
		if (rs->v[i].occurrence == occurrence && strcmp(rs->v[i].address, a) == 0)
			return &rs->v[i];
	if (rs->n == rs->cap) {
		size_t cap = rs->cap ? 2 * rs->cap : 64;
		struct row_total *v = realloc(rs->v, cap * sizeof(*v));

		if (v == NULL)
			return NULL;
		rs->v = v;
		rs->cap = cap;
	}
	rs->v[rs->n] = (struct row_total){ a, occurrence, rec, 0, 0, 0, 0 };
	return &rs->v[rs->n++];
}

/* How many records before rec in list have rec's address. */
static size_t occurrence_of(const cJSON *list, const cJSON *rec)
{
	const cJSON *r;
	size_t k = 0;

	cJSON_ArrayForEach(r, list) {
		if (r == rec)
			break;
		k += strcmp(address_of(r), address_of(rec)) == 0;
	}
	return k;
}

static int rows_collect(struct rows *rs, const cJSON *metrics, double *all)
{
	const cJSON *c, *rec;

	*all = 0;
	cJSON_ArrayForEach(c, rs->core_names) {
		const cJSON *list = rows_of(metrics, c->valuestring);

		cJSON_ArrayForEach(rec, list) {
			struct row_total *t = row_of(rs, rec, occurrence_of(list, rec));
			double cyc = value(rec, "cycles");

			if (t == NULL)
				return -1;
			t->cycles += cyc;
			t->executed += value(rec, "instructions_executed");
			t->cores += cyc > 0;
			*all += cyc;
		}
	}
	return 0;
}

/*
 * Whether the order of rows x and y in the API_INSTR is known: some core
 * holds both. *x_first then says which came first there.
 */
static int order_known(const struct rows *rs, const cJSON *metrics,
		       const struct row_total *x, const struct row_total *y, int *x_first)
{
	const cJSON *c, *rec;

	cJSON_ArrayForEach(c, rs->core_names) {
		const cJSON *list = rows_of(metrics, c->valuestring);
		int seen_x = 0, seen_y = 0;

		cJSON_ArrayForEach(rec, list) {
			const char *a = address_of(rec);
			size_t k;

			if (strcmp(a, x->address) != 0 && strcmp(a, y->address) != 0)
				continue;
			k = occurrence_of(list, rec);
			if (!seen_x && !seen_y) {
				*x_first = strcmp(a, x->address) == 0 && k == x->occurrence;
			}
			seen_x |= strcmp(a, x->address) == 0 && k == x->occurrence;
			seen_y |= strcmp(a, y->address) == 0 && k == y->occurrence;
		}
		if (seen_x && seen_y)
			return 1;
	}
	return 0;
}

/*
 * The entry's row: an unused row of its address with its cycles, executed
 * and cores (of an address written twice, the first such); NULL when none.
 */
static struct row_total *entry_row(struct rows *rs, const cJSON *e)
{
	const char *a = str(e, "address");

	for (size_t i = 0; i < rs->n; i++) {
		struct row_total *t = &rs->v[i];

		if (!t->used && strcmp(t->address, a != NULL ? a : "") == 0 &&
		    sumcheck_num(e, "cycles") == t->cycles &&
		    sumcheck_num(e, "executed") == t->executed &&
		    sumcheck_num(e, "cores") == t->cores)
			return t;
	}
	return NULL;
}

static int by_cycles(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return (x < y) - (x > y);
}

/*
 * The source line of address: the AscendC Inner Code of the first record
 * with that address and a non-empty code on any core (SPEC §10); NULL when
 * none has one (the line may then come from API_FILE ranges, which the
 * outputs lack).
 */
static const char *inner_code(const cJSON *metrics, const cJSON *core_names, const char *address)
{
	const cJSON *c, *row;

	cJSON_ArrayForEach(c, core_names)
		cJSON_ArrayForEach(row, rows_of(metrics, c->valuestring)) {
			const char *a = str(row, "address"), *code = str(row, "ascendc_inner_code");

			if (a != NULL && strcasecmp(a, address) == 0 && code != NULL && code[0] != '\0')
				return code;
		}
	return NULL;
}

static void check_entry(const cJSON *metrics, const cJSON *core_names, const cJSON *e,
			const struct row_total *t, double all, size_t rank)
{
	const cJSON *row = t->first;
	const char *got, *want;
	char pipe[NAME_LEN], word[NAME_LEN];
	double share;

	canonical(str(row, "pipe"), pipe, sizeof(pipe));
	first_word(str(row, "source"), word, sizeof(word));
	got = str(e, "pipe");
	if (got == NULL || strcmp(got, pipe) != 0)
		sumcheck_fail("top_instructions[%zu]: pipe %s, row %s is %s", rank,
			      got != NULL ? got : "(none)", t->address, pipe);
	want = t->address[0] != '\0' ? inner_code(metrics, core_names, t->address) : NULL;
	got = str(e, "source");
	if (want != NULL && (got == NULL || strcmp(got, want) != 0))
		sumcheck_fail("top_instructions[%zu]: source %s, the Inner Code of %s is %s", rank,
			      got != NULL ? got : "(null)", t->address, want);
	got = str(e, "mnemonic");
	if (got == NULL || strcmp(got, word) != 0)
		sumcheck_fail("top_instructions[%zu]: mnemonic %s, row %s is %s", rank,
			      got != NULL ? got : "(none)", t->address, word);
	/* 4 decimals, half up: the printed share times 10^4 is that integer. */
	share = floor(t->cycles * 10000 / all + 0.5);
	if (llround(sumcheck_num(e, "cycle_share") * 10000) != (long long)share)
		sumcheck_fail("top_instructions[%zu]: cycle_share %g, %g / %g is %.4f", rank,
			      sumcheck_num(e, "cycle_share"), t->cycles, all, share / 10000);
}

/* A SET/WAIT flag row (its Source's first word): a wait, never ranked. */
static int is_flag(const struct row_total *t)
{
	static const char *const flags[] = {
		"SET_FLAG", "WAIT_FLAG", "set_event", "wait_event", "SET_INTRA_BLOCK",
		"WAIT_INTRA_BLOCK"
	};
	char word[NAME_LEN];

	first_word(str(t->first, "source"), word, sizeof(word));
	for (size_t i = 0; i < sizeof(flags) / sizeof(flags[0]); i++)
		if (strncmp(word, flags[i], strlen(flags[i])) == 0)
			return 1;
	return 0;
}

/* "flag_cycles": the flag rows with cycles, their sum and its share. */
static void check_flags(const cJSON *fc, double rows, double cycles, double all)
{
	double share = all > 0 ? floor(cycles * 10000 / all + 0.5) : 0;

	if (!cJSON_IsObject(fc)) {
		sumcheck_fail("flag_cycles: not an object");
		return;
	}
	if (sumcheck_num(fc, "rows") != rows || sumcheck_num(fc, "cycles") != cycles)
		sumcheck_fail("flag_cycles: %g rows, %g cycles; the flag rows are %g with %g",
			      sumcheck_num(fc, "rows"), sumcheck_num(fc, "cycles"), rows, cycles);
	/* No cycle at all (no row of the cores kept): a share of nothing, null. */
	if (all <= 0) {
		if (!cJSON_IsNull(cJSON_GetObjectItemCaseSensitive(fc, "cycle_share")))
			sumcheck_fail("flag_cycles: cycle_share of no cycles is not null");
		return;
	}
	if (llround(sumcheck_num(fc, "cycle_share") * 10000) != (long long)share)
		sumcheck_fail("flag_cycles: cycle_share %g, %g / %g is %.4f",
			      sumcheck_num(fc, "cycle_share"), cycles, all, share / 10000);
}

/*
 * The entries: as many as rows with cycles but the flag rows (ten at
 * most), each a row of its address with its sums, the k-th with the k-th
 * largest cycles, and tied rows in API_INSTR order where a core shows it;
 * the flag rows counted apart.
 */
static void check_top(const cJSON *metrics, struct rows *rs, const cJSON *top,
		      const cJSON *flags, double all)
{
	double *best = malloc((rs->n + 1) * sizeof(*best));
	const struct row_total *prev = NULL;
	double flag_rows = 0, flag_cycles = 0;
	size_t n = 0;

	if (best == NULL) {
		sumcheck_fail("out of memory");
		return;
	}
	for (size_t i = 0; i < rs->n; i++) {
		if (rs->v[i].cycles <= 0)
			continue;
		if (is_flag(&rs->v[i])) {
			flag_rows++;
			flag_cycles += rs->v[i].cycles;
			rs->v[i].used = 1;   /* never an entry */
			continue;
		}
		best[n++] = rs->v[i].cycles;
	}
	check_flags(flags, flag_rows, flag_cycles, all);
	qsort(best, n, sizeof(*best), by_cycles);
	if (n > TOP_N)
		n = TOP_N;
	if (!cJSON_IsArray(top) || (size_t)cJSON_GetArraySize(top) != n) {
		sumcheck_fail("top_instructions: not a list of %zu rows with cycles", n);
		free(best);
		return;
	}
	for (size_t k = 0; k < n; k++) {
		const cJSON *e = cJSON_GetArrayItem(top, (int)k);
		struct row_total *t = entry_row(rs, e);
		int prev_first = 1;
		const char *a = str(e, "address");

		if (sumcheck_num(e, "cycles") != best[k])
			sumcheck_fail("top_instructions[%zu]: cycles %g, the %zu-th most is %g", k,
				      sumcheck_num(e, "cycles"), k + 1, best[k]);
		if (t == NULL) {
			sumcheck_fail("top_instructions[%zu]: cycles/executed/cores %g/%g/%g: no row of address %s has them",
				      k, sumcheck_num(e, "cycles"), sumcheck_num(e, "executed"),
				      sumcheck_num(e, "cores"), a != NULL ? a : "(none)");
			prev = NULL;
			continue;
		}
		t->used = 1;
		if (prev != NULL && prev->cycles == t->cycles &&
		    order_known(rs, metrics, prev, t, &prev_first) && !prev_first)
			sumcheck_fail("top_instructions[%zu]: row %s ties with row %s and comes after it in the API_INSTR",
				      k - 1, prev->address, t->address);
		check_entry(metrics, rs->core_names, e, t, all, k);
		prev = t;
	}
	free(best);
}

void sumcheck_instr_top(const cJSON *metrics, const cJSON *summary)
{
	const cJSON *top = cJSON_GetObjectItemCaseSensitive(summary, "top_instructions");
	const cJSON *c;
	struct rows rs = { NULL, 0, 0, NULL };
	double all;

	if (metrics == NULL) {
		if (!cJSON_IsNull(top))
			sumcheck_fail("top_instructions is not null, the run has no API_INSTR");
		if (!cJSON_IsNull(cJSON_GetObjectItemCaseSensitive(summary, "flag_cycles")))
			sumcheck_fail("flag_cycles is not null, the run has no API_INSTR");
		return;
	}
	rs.core_names = cJSON_GetObjectItemCaseSensitive(metrics, "cores");
	cJSON_ArrayForEach(c, rs.core_names)
		if (!cJSON_IsString(c)) {
			sumcheck_fail("instr_metrics.json: a core that is not a name");
			return;
		}
	if (rows_collect(&rs, metrics, &all) != 0)
		sumcheck_fail("out of memory");
	else
		check_top(metrics, &rs, top,
			  cJSON_GetObjectItemCaseSensitive(summary, "flag_cycles"), all);
	free(rs.v);
}

/* "Instructions Executed" -> "instructions_executed" (SPEC §7). */
static void reshaped_key(const char *key, char *out, size_t n)
{
	size_t k = 0;

	for (; key[k] != '\0' && k + 1 < n; k++)
		out[k] = key[k] == ' ' ? '_' :
			 (key[k] >= 'A' && key[k] <= 'Z') ? (char)(key[k] - 'A' + 'a') : key[k];
	out[k] = '\0';
}

/* One core's row: arrays as long as Cores give that core's element. */
static cJSON *core_row(const cJSON *raw_row, int core, int ncores)
{
	cJSON *row = cJSON_CreateObject();
	const cJSON *f;
	char key[NAME_LEN];

	cJSON_ArrayForEach(f, raw_row) {
		const cJSON *v = f;

		if (cJSON_IsArray(f) && cJSON_GetArraySize(f) == ncores)
			v = cJSON_GetArrayItem(f, core);
		reshaped_key(f->string, key, sizeof(key));
		if (row != NULL)
			cJSON_AddItemToObject(row, key, cJSON_Duplicate(v, 1));
	}
	return row;
}

/*
 * SPEC §7: a core's row is written when that core executed it. Its count
 * is the Instructions Executed element for the core (an array as long as
 * Cores) or the value itself; only a number equal to 0 means not executed
 * (no column, -1, a string: written).
 */
static int executed_on(const cJSON *raw_row, int core, int ncores)
{
	const cJSON *v = cJSON_GetObjectItemCaseSensitive(raw_row, "Instructions Executed");

	if (cJSON_IsArray(v))
		v = cJSON_GetArraySize(v) == ncores ? cJSON_GetArrayItem(v, core) : NULL;
	return !(cJSON_IsNumber(v) && v->valuedouble == 0);
}

cJSON *sumcheck_instr_reshape(cJSON *m)
{
	const cJSON *cores = cJSON_GetObjectItemCaseSensitive(m, "Cores");
	const cJSON *rows = cJSON_GetObjectItemCaseSensitive(m, "Instructions"), *c, *r;
	cJSON *out, *ins;
	int n = cJSON_GetArraySize(cores), i = 0;

	if (m == NULL || !cJSON_IsArray(cores) || !cJSON_IsArray(rows))
		return m;
	out = cJSON_CreateObject();
	ins = cJSON_CreateObject();
	if (out == NULL || ins == NULL) {
		cJSON_Delete(out);
		cJSON_Delete(ins);
		return m;
	}
	cJSON_AddItemToObject(out, "cores", cJSON_Duplicate(cores, 1));
	cJSON_AddItemToObject(out, "instructions", ins);
	cJSON_ArrayForEach(c, cores) {
		cJSON *list = cJSON_CreateArray();

		cJSON_ArrayForEach(r, rows)
			if (executed_on(r, i, n))
				cJSON_AddItemToArray(list, core_row(r, i, n));
		cJSON_AddItemToObject(ins, cJSON_IsString(c) ? c->valuestring : "?", list);
		i++;
	}
	cJSON_Delete(m);
	return out;
}

/* A source line's sums over the rows whose AscendC Inner Code names it. */
struct line_total {
	const char *code;
	double cycles, executed;
	unsigned long long *addrs;   /* addresses of its rows with cycles */
	size_t naddrs;
	long addresses;              /* distinct among them */
};

static int ull_cmp(const void *a, const void *b)
{
	const unsigned long long *x = a, *y = b;

	return *x < *y ? -1 : *x > *y;
}

/* More cycles first, then the line's bytes. */
static int line_cmp(const void *a, const void *b)
{
	const struct line_total *x = a, *y = b;

	if (x->cycles != y->cycles)
		return x->cycles > y->cycles ? -1 : 1;
	return strcmp(x->code, y->code);
}

static struct line_total *line_of(struct line_total **v, size_t *n, const char *code)
{
	struct line_total *grown;

	for (size_t i = 0; i < *n; i++)
		if (strcmp((*v)[i].code, code) == 0)
			return &(*v)[i];
	grown = realloc(*v, (*n + 1) * sizeof(**v));
	if (grown == NULL)
		return NULL;
	*v = grown;
	memset(&grown[*n], 0, sizeof(grown[0]));
	grown[*n].code = code;
	return &grown[(*n)++];
}

/* "0x1A2b" as a number; 0 and *ok 0 when it is none. */
static unsigned long long hex_of(const char *s, int *ok)
{
	char *end;
	unsigned long long v;

	*ok = 0;
	if (s == NULL || s[0] != '0' || (s[1] != 'x' && s[1] != 'X') || s[2] == '\0')
		return 0;
	v = strtoull(s + 2, &end, 16);
	*ok = *end == '\0';
	return v;
}

/*
 * Sums every core's rows by their Inner Code; *unnamed: some row with
 * cycles has none (its line, if any, comes from API_FILE ranges, which the
 * outputs lack). Returns the lines, *n of them; NULL on none.
 */
static struct line_total *sum_lines(const cJSON *metrics, size_t *n, int *unnamed, double *all)
{
	const cJSON *c, *row;
	struct line_total *v = NULL;

	*n = 0;
	*unnamed = 0;
	*all = 0;
	cJSON_ArrayForEach(c, cJSON_GetObjectItemCaseSensitive(metrics, "cores")) {
		cJSON_ArrayForEach(row, rows_of(metrics, cJSON_IsString(c) ? c->valuestring : "")) {
			const char *code = str(row, "ascendc_inner_code");
			double cyc = value(row, "cycles");
			struct line_total *l;
			unsigned long long addr;
			int ok;

			*all += cyc;
			if (code == NULL || code[0] == '\0') {
				*unnamed |= cyc > 0;
				continue;
			}
			l = line_of(&v, n, code);
			if (l == NULL)
				continue;
			l->cycles += cyc;
			l->executed += value(row, "instructions_executed");
			addr = hex_of(str(row, "address"), &ok);
			if (cyc > 0 && ok) {
				unsigned long long *g = realloc(l->addrs, (l->naddrs + 1) * sizeof(*g));

				if (g == NULL)
					continue;
				l->addrs = g;
				l->addrs[l->naddrs++] = addr;
			}
		}
	}
	for (size_t i = 0; i < *n; i++) {
		struct line_total *l = &v[i];

		if (l->naddrs > 0)
			qsort(l->addrs, l->naddrs, sizeof(*l->addrs), ull_cmp);
		for (size_t k = 0; k < l->naddrs; k++)
			l->addresses += k == 0 || l->addrs[k] != l->addrs[k - 1];
	}
	if (*n > 0)
		qsort(v, *n, sizeof(*v), line_cmp);
	return v;
}

static void check_line(const cJSON *e, const struct line_total *l, double all, size_t rank,
		       int exact)
{
	const char *got = str(e, "source");
	double share = floor(l->cycles * 10000 / all + 0.5);

	if (got == NULL || strcmp(got, l->code) != 0) {
		sumcheck_fail("top_source_lines[%zu]: source %s, the rows' Inner Code is %s", rank,
			      got != NULL ? got : "(none)", l->code);
		return;
	}
	if (!exact) {   /* rows named by API_FILE ranges may add to it */
		if (!(sumcheck_num(e, "cycles") >= l->cycles))
			sumcheck_fail("top_source_lines[%zu]: %s has %g cycles, its Inner Code rows %g",
				      rank, l->code, sumcheck_num(e, "cycles"), l->cycles);
		return;
	}
	if (sumcheck_num(e, "cycles") != l->cycles || sumcheck_num(e, "executed") != l->executed ||
	    sumcheck_num(e, "addresses") != (double)l->addresses)
		sumcheck_fail("top_source_lines[%zu]: %s cycles/executed/addresses %g/%g/%g, the rows give %g/%g/%ld",
			      rank, l->code, sumcheck_num(e, "cycles"), sumcheck_num(e, "executed"),
			      sumcheck_num(e, "addresses"), l->cycles, l->executed, l->addresses);
	if (llround(sumcheck_num(e, "cycle_share") * 10000) != (long long)share)
		sumcheck_fail("top_source_lines[%zu]: cycle_share %g, %g / %g is %.4f", rank,
			      sumcheck_num(e, "cycle_share"), l->cycles, all, share / 10000);
}

/*
 * top_source_lines: the lines with the most cycles, at most ten, ties in
 * byte order, 0-cycle lines left out. When every row with cycles has an
 * Inner Code the list must be exactly that; otherwise (API_FILE lines) each
 * listed Inner Code line must have at least its rows' cycles.
 */
void sumcheck_instr_lines(const cJSON *metrics, const cJSON *summary)
{
	const cJSON *top = cJSON_GetObjectItemCaseSensitive(summary, "top_source_lines"), *e;
	struct line_total *v;
	size_t n, want = 0;
	int unnamed;
	double all;

	if (metrics == NULL) {
		if (!cJSON_IsNull(top))
			sumcheck_fail("top_source_lines is not null, the run has no API_INSTR");
		return;
	}
	if (!cJSON_IsArray(top)) {
		sumcheck_fail("top_source_lines is not a list");
		return;
	}
	v = sum_lines(metrics, &n, &unnamed, &all);
	while (want < n && want < TOP_N && v[want].cycles > 0)
		want++;
	if (!unnamed && (size_t)cJSON_GetArraySize(top) != want)
		sumcheck_fail("top_source_lines: %d lines, the rows have %zu with cycles (10 at most)",
			      cJSON_GetArraySize(top), want);
	if (!unnamed)
		for (size_t k = 0; k < want && k < (size_t)cJSON_GetArraySize(top); k++)
			check_line(cJSON_GetArrayItem(top, (int)k), &v[k], all, k, 1);
	if (unnamed)
		cJSON_ArrayForEach(e, top)
			for (size_t k = 0; k < n; k++)
				if (str(e, "source") != NULL && strcmp(str(e, "source"), v[k].code) == 0)
					check_line(e, &v[k], all, k, 0);
	for (size_t k = 0; k < n; k++)
		free(v[k].addrs);
	free(v);
}
