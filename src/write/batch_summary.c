#include "write/batch_summary.h"

#include <dirent.h>
#include <errno.h>
#include <stdio.h>
#include <string.h>


/* Pipes with a column of their own, each with the names it goes by. */
static const char *const fixed_pipes[][2] = {
	{ "MTE2", NULL }, { "MTE1", NULL }, { "CUBE", NULL },
	{ "VECTOR", "VEC" }, { "FIXP", "FIXPIPE" }, { "MTE3", NULL },
	{ "SCALAR", NULL },
};
#define NFIXED (sizeof(fixed_pipes) / sizeof(fixed_pipes[0]))

const char csim_batch_csv_header[] =
	"index,dump,status,message,op_name,slowest_span_us,slowest_span_cycles,"
	"slices,arrows,skipped_events,skipped_flags,"
	"busy_MTE2,busy_MTE1,busy_CUBE,busy_VECTOR,busy_FIXP,busy_MTE3,busy_SCALAR,"
	"busy_other,diagnosis_ids,diagnosis,primary_diagnosis,primary_cores,"
	"critical_path_top,critical_path_share,input,summary,seconds\n";

void csim_batch_csv_field(struct csim_out *o, const char *s)
{
	if (strpbrk(s, ",\"\r\n") == NULL) {
		csim_out_text(o, s);
		return;
	}
	csim_out_char(o, '"');
	for (const char *p = s; *p != '\0'; p++) {
		if (*p == '"')
			csim_out_char(o, '"');
		csim_out_char(o, *p);
	}
	csim_out_char(o, '"');
}

/* A share in 1/10000 as 0.dddd. */
static void out_share(struct csim_out *o, int64_t e4)
{
	csim_out_format(o, "%lld.%04lld", (long long)(e4 / 10000), (long long)(e4 % 10000));
}

/* Index in fig->shares of the fixed pipe k, or nshares when absent. */
static size_t fixed_share(const struct csim_dump_figures *f, size_t k)
{
	for (size_t i = 0; i < f->nshares; i++)
		for (size_t a = 0; a < 2; a++)
			if (fixed_pipes[k][a] != NULL && strcmp(f->shares[i].pipe, fixed_pipes[k][a]) == 0)
				return i;
	return f->nshares;
}

static int is_fixed(const struct csim_dump_figures *f, size_t i)
{
	for (size_t k = 0; k < NFIXED; k++)
		if (fixed_share(f, k) == i)
			return 1;
	return 0;
}

static const char *status_text(const struct csim_batch_row *r)
{
	return r->status == CSIM_OK ? "ok" : "failed";
}

/* ns as µs with 3 decimals (summary.json's span_us); spans are never negative. */
static void out_us(struct csim_out *o, int64_t ns)
{
	csim_out_format(o, "%lld.%03lld", (long long)(ns / 1000), (long long)(ns % 1000));
}

/* Seconds with 3 decimals. */
static void out_seconds(struct csim_out *o, int64_t micros)
{
	int64_t ms = (micros + 500) / 1000;

	csim_out_format(o, "%lld.%03lld", (long long)(ms / 1000), (long long)(ms % 1000));
}

/* The pipes without a column, as "NAME=share NAME=share", one CSV field. */
static void csv_other_shares(struct csim_out *o, const struct csim_dump_figures *f)
{
	int quote = 0, first = 1;

	for (size_t i = 0; i < f->nshares; i++)
		if (!is_fixed(f, i) && strpbrk(f->shares[i].pipe, ",\"\r\n") != NULL)
			quote = 1;
	if (quote)
		csim_out_char(o, '"');
	for (size_t i = 0; i < f->nshares; i++) {
		int64_t e4 = csim_dump_share_e4(f->shares[i].busy_ns, f->shares[i].span_ns);

		if (is_fixed(f, i) || e4 < 0)
			continue;
		if (!first)
			csim_out_char(o, ' ');
		first = 0;
		for (const char *p = f->shares[i].pipe; *p != '\0'; p++) {
			if (quote && *p == '"')
				csim_out_char(o, '"');
			csim_out_char(o, *p);
		}
		csim_out_char(o, '=');
		out_share(o, e4);
	}
	if (quote)
		csim_out_char(o, '"');
}

/* The primary diagnosis id, then its cores space-separated: two fields. */
static void csv_primary(struct csim_out *o, const struct csim_dump_figures *f)
{
	int quote = 0;

	csim_batch_csv_field(o, f->diag_primary);
	csim_out_char(o, ',');
	for (size_t i = 0; i < f->nprimary_cores; i++)
		if (strpbrk(f->primary_cores[i], ",\"\r\n") != NULL)
			quote = 1;
	if (quote)
		csim_out_char(o, '"');
	for (size_t i = 0; i < f->nprimary_cores; i++) {
		if (i > 0)
			csim_out_char(o, ' ');
		for (const char *p = f->primary_cores[i]; *p != '\0'; p++) {
			if (quote && *p == '"')
				csim_out_char(o, '"');
			csim_out_char(o, *p);
		}
	}
	if (quote)
		csim_out_char(o, '"');
}

/* Figures built by hand (tests) may have no path text. */
static int has_path(const struct csim_dump_figures *f)
{
	return f->path_top != NULL && f->path_share_e4 >= 0;
}

static void csv_row(struct csim_out *o, const struct csim_batch_row *r)
{
	const struct csim_dump_figures *f = &r->fig;
	const int ok = r->status == CSIM_OK;

	csim_out_uint(o, r->index);
	csim_out_char(o, ',');
	csim_batch_csv_field(o, r->dump);
	csim_out_char(o, ',');
	csim_out_text(o, status_text(r));
	csim_out_char(o, ',');
	csim_batch_csv_field(o, r->message);
	csim_out_char(o, ',');
	csim_batch_csv_field(o, ok && f->op_name != NULL ? f->op_name : "");
	csim_out_char(o, ',');
	if (ok && f->has_span)
		out_us(o, f->slowest_span_ns);
	csim_out_char(o, ',');
	if (ok && f->has_cycles)
		csim_out_int(o, f->slowest_span_cycles);
	if (ok)
		csim_out_format(o, ",%llu,%llu,%llu,%llu", (unsigned long long)f->slices,
				(unsigned long long)f->arrows,
				(unsigned long long)f->skipped_events,
				(unsigned long long)f->skipped_flags);
	else
		csim_out_text(o, ",,,,");
	for (size_t k = 0; k < NFIXED; k++) {
		size_t i = fixed_share(f, k);
		int64_t e4 = i < f->nshares ? csim_dump_share_e4(f->shares[i].busy_ns,
								   f->shares[i].span_ns) : -1;

		csim_out_char(o, ',');
		if (e4 >= 0)
			out_share(o, e4);
	}
	csim_out_char(o, ',');
	csv_other_shares(o, f);
	csim_out_char(o, ',');
	csim_batch_csv_field(o, ok ? f->diag_ids : "");
	csim_out_char(o, ',');
	csim_batch_csv_field(o, ok ? f->diag_text : "");
	csim_out_char(o, ',');
	if (ok)
		csv_primary(o, f);
	else
		csim_out_char(o, ',');
	csim_out_char(o, ',');
	csim_batch_csv_field(o, ok && has_path(f) ? f->path_top : "");
	csim_out_char(o, ',');
	if (ok && has_path(f))
		out_share(o, f->path_share_e4);
	csim_out_char(o, ',');
	csim_batch_csv_field(o, r->input);
	csim_out_char(o, ',');
	csim_batch_csv_field(o, r->summary != NULL ? r->summary : "");
	csim_out_char(o, ',');
	out_seconds(o, r->micros);
	csim_out_char(o, '\n');
}

static void json_key(struct csim_out *o, const char *key)
{
	csim_out_char(o, '"');
	csim_out_text(o, key);
	csim_out_text(o, "\":");
}

static void json_text(struct csim_out *o, const char *s)
{
	csim_out_json_string(o, s, strlen(s));
}

static void json_figures(struct csim_out *o, const struct csim_dump_figures *f)
{
	const char *id = f->diag_ids;

	json_key(o, "op_name");
	if (f->op_name != NULL)
		json_text(o, f->op_name);
	else
		csim_out_text(o, "null");
	csim_out_char(o, ',');
	json_key(o, "slowest_span_us");
	if (f->has_span)
		out_us(o, f->slowest_span_ns);
	else
		csim_out_text(o, "null");
	csim_out_char(o, ',');
	json_key(o, "slowest_span_cycles");
	if (f->has_cycles)
		csim_out_int(o, f->slowest_span_cycles);
	else
		csim_out_text(o, "null");
	csim_out_char(o, ',');
	csim_out_format(o, "\"slices\":%llu,\"arrows\":%llu,\"skipped_events\":%llu,\"skipped_flags\":%llu,",
			(unsigned long long)f->slices, (unsigned long long)f->arrows,
			(unsigned long long)f->skipped_events,
			(unsigned long long)f->skipped_flags);
	json_key(o, "busy_share");
	csim_out_char(o, '{');
	for (size_t i = 0; i < f->nshares; i++) {
		int64_t e4 = csim_dump_share_e4(f->shares[i].busy_ns, f->shares[i].span_ns);

		if (i > 0)
			csim_out_char(o, ',');
		json_text(o, f->shares[i].pipe);
		csim_out_char(o, ':');
		if (e4 < 0)
			csim_out_text(o, "null");
		else
			out_share(o, e4);
	}
	csim_out_text(o, "},");
	json_key(o, "diagnosis_ids");
	csim_out_char(o, '[');
	while (*id != '\0') {
		size_t n = strcspn(id, " ");

		if (id != f->diag_ids)
			csim_out_char(o, ',');
		csim_out_json_string(o, id, n);
		id += n;
		id += *id == ' ';
	}
	csim_out_text(o, "],");
	json_key(o, "diagnosis");
	json_text(o, f->diag_text);
	csim_out_char(o, ',');
	json_key(o, "primary_diagnosis");
	if (f->diag_primary[0] == '\0')
		csim_out_text(o, "null");
	else
		json_text(o, f->diag_primary);
	csim_out_char(o, ',');
	json_key(o, "primary_cores");
	csim_out_char(o, '[');
	for (size_t i = 0; i < f->nprimary_cores; i++) {
		if (i > 0)
			csim_out_char(o, ',');
		json_text(o, f->primary_cores[i]);
	}
	csim_out_text(o, "],");
	json_key(o, "critical_path_top");
	if (has_path(f))
		json_text(o, f->path_top);
	else
		csim_out_text(o, "null");
	csim_out_char(o, ',');
	json_key(o, "critical_path_share");
	if (has_path(f))
		out_share(o, f->path_share_e4);
	else
		csim_out_text(o, "null");
	csim_out_char(o, ',');
}

static void json_row(struct csim_out *o, const struct csim_batch_row *r)
{
	csim_out_char(o, '{');
	json_key(o, "index");
	csim_out_uint(o, r->index);
	csim_out_char(o, ',');
	json_key(o, "dump");
	json_text(o, r->dump);
	csim_out_char(o, ',');
	json_key(o, "status");
	json_text(o, status_text(r));
	csim_out_char(o, ',');
	json_key(o, "message");
	if (r->status == CSIM_OK)
		csim_out_text(o, "null");
	else
		json_text(o, r->message);
	csim_out_char(o, ',');
	if (r->status == CSIM_OK)
		json_figures(o, &r->fig);
	else
		csim_out_text(o, "\"op_name\":null,\"slowest_span_us\":null,"
			      "\"slowest_span_cycles\":null,"
			      "\"slices\":null,\"arrows\":null,\"skipped_events\":null,"
			      "\"skipped_flags\":null,\"busy_share\":null,"
			      "\"diagnosis_ids\":null,\"diagnosis\":null,"
			      "\"primary_diagnosis\":null,\"primary_cores\":null,"
			      "\"critical_path_top\":null,\"critical_path_share\":null,");
	json_key(o, "input");
	json_text(o, r->input);
	csim_out_char(o, ',');
	json_key(o, "summary");
	if (r->summary != NULL)
		json_text(o, r->summary);
	else
		csim_out_text(o, "null");
	csim_out_char(o, ',');
	json_key(o, "seconds");
	out_seconds(o, r->micros);
	csim_out_char(o, '}');
}

static void json_file(struct csim_out *o, const struct csim_batch_row *rows, size_t n,
		      const struct csim_batch_totals *t)
{
	size_t ok = 0;

	for (size_t i = 0; i < n; i++)
		ok += rows[i].status == CSIM_OK;
	csim_out_text(o, "{\"schema\":1,");
	json_key(o, "shard");
	if (t->shard_n == 0)
		csim_out_text(o, "null,");
	else
		csim_out_format(o, "{\"k\":%u,\"n\":%u},", t->shard_k, t->shard_n);
	csim_out_format(o, "\"found\":%llu,\"dumps\":%zu,\"ok\":%zu,\"failed\":%zu,",
			(unsigned long long)t->found, n, ok, n - ok);
	json_key(o, "rows");
	csim_out_text(o, "[\n");
	for (size_t i = 0; i < n; i++) {
		json_row(o, &rows[i]);
		csim_out_text(o, i + 1 < n ? ",\n" : "\n");
	}
	csim_out_text(o, "]}\n");
}

/* summary.json's bytes on one line: its newlines all lie between values
   (a JSON string holds none), so dropping them changes no value. */
static void json_one_line(struct csim_out *o, const char *doc)
{
	while (*doc != '\0') {
		size_t n = strcspn(doc, "\n");

		csim_out_bytes(o, doc, n);
		doc += n + (doc[n] == '\n');
	}
}

void csim_batch_summary_line(FILE *f, const struct csim_batch_row *row, const char *summary)
{
	char buf[4096];
	struct csim_out o;

	csim_out_stream(&o, buf, sizeof(buf), f);
	csim_out_format(&o, "{\"index\":%llu,", (unsigned long long)row->index);
	json_key(&o, "dump");
	json_text(&o, row->dump);
	csim_out_char(&o, ',');
	json_key(&o, "input");
	json_text(&o, row->input);
	csim_out_char(&o, ',');
	json_key(&o, "status");
	json_text(&o, status_text(row));
	csim_out_char(&o, ',');
	json_key(&o, "message");
	if (row->status == CSIM_OK)
		csim_out_text(&o, "null");
	else
		json_text(&o, row->message);
	csim_out_char(&o, ',');
	json_key(&o, "summary");
	if (row->status == CSIM_OK)
		json_one_line(&o, summary);
	else
		csim_out_text(&o, "null");
	csim_out_text(&o, "}\n");
	csim_out_flush(&o);
}

/*
 * The summaries' name: batch_summary, or with --shard K/N
 * batch_summary.shard-K-of-N, so shards written into one folder keep each
 * their own (docs/batch.md).
 */
static void summary_name(char *dst, size_t cap, const struct csim_batch_totals *totals,
			 const char *ext)
{
	if (totals->shard_n == 0)
		snprintf(dst, cap, "batch_summary.%s", ext);
	else
		snprintf(dst, cap, "batch_summary.shard-%u-of-%u.%s", totals->shard_k,
			 totals->shard_n, ext);
}

/*
 * Is name a batch summary of another split than this run's: the whole
 * batch's when this run is a shard, any shard's when it is the whole, a
 * shard of another N? Those describe older conversions of the folder's
 * dumps and go in the commit; shards of this N are other machines' work.
 */
static int stale_summary(const char *name, const struct csim_batch_totals *totals)
{
	unsigned k, n;
	int end = 0;

	if (strcmp(name, "batch_summary.json") == 0 || strcmp(name, "batch_summary.csv") == 0)
		return totals->shard_n != 0;
	if (sscanf(name, "batch_summary.shard-%u-of-%u.json%n", &k, &n, &end) != 2 ||
	    (size_t)end != strlen(name))
		if (sscanf(name, "batch_summary.shard-%u-of-%u.csv%n", &k, &n, &end) != 2 ||
		    (size_t)end != strlen(name))
			return 0;
	return totals->shard_n == 0 || n != totals->shard_n;
}

/* Every stale batch summary of dir (above) dropped in the set's commit. */
static int drop_stale(struct csim_out_set *set, const char *dir,
		      const struct csim_batch_totals *totals, struct csim_error *err)
{
	DIR *d = opendir(dir);
	struct dirent *e;
	int rc = CSIM_OK;

	if (d == NULL)
		return errno == ENOMEM ? csim_error_nomem(err, CSIM_E_OUTPUT)
		       : csim_error_set(err, CSIM_E_OUTPUT, CSIM_NO_OFFSET, "cannot list %s: %s",
					dir, strerror(errno));
	while (rc == CSIM_OK && (e = readdir(d)) != NULL)
		if (stale_summary(e->d_name, totals))
			rc = csim_out_set_drop(set, e->d_name, 0, err);
	closedir(d);
	return rc;
}

int csim_batch_summary_write(struct csim_out_set *set, const char *dir,
			     const struct csim_batch_row *rows, size_t n,
			     const struct csim_batch_totals *totals, struct csim_error *err)
{
	struct csim_out json, csv;
	char json_name[64], csv_name[64];
	int rc = CSIM_OK;

	memset(&json, 0, sizeof(json));
	json.fd = -1;
	memset(&csv, 0, sizeof(csv));
	csv.fd = -1;
	summary_name(json_name, sizeof(json_name), totals, "json");
	summary_name(csv_name, sizeof(csv_name), totals, "csv");
	/* The two commit as one set (write/out_set.h), as a dump's outputs do. */
	if (!csim_out_set_begun(set))
		rc = csim_error_set(err, CSIM_E_OUTPUT, CSIM_NO_OFFSET, "cannot write %s: %s", dir,
				    strerror(ENOENT));
	if (rc == CSIM_OK)
		rc = csim_out_open(&json, dir, json_name, err);
	if (rc == CSIM_OK)
		rc = csim_out_open(&csv, dir, csv_name, err);
	if (rc == CSIM_OK) {
		json_file(&json, rows, n, totals);
		csim_out_text(&csv, csim_batch_csv_header);
		for (size_t i = 0; i < n; i++)
			csv_row(&csv, &rows[i]);
	}
	if (rc == CSIM_OK)
		rc = csim_out_set_add(set, &json, err);
	if (rc == CSIM_OK)
		rc = csim_out_set_add(set, &csv, err);
	if (rc == CSIM_OK)
		rc = drop_stale(set, dir, totals, err);
	if (rc == CSIM_OK)
		rc = csim_out_set_commit(set, err);
	csim_out_abort(&json);
	csim_out_abort(&csv);
	return rc;
}

void csim_batch_summary_names(const struct csim_batch_totals *totals, char *json, char *csv,
			      size_t cap)
{
	summary_name(json, cap, totals, "json");
	summary_name(csv, cap, totals, "csv");
}
