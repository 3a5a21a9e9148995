#include "write/trace_meta.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

#include "model/clock.h"

static struct csim_meta_fact *add(struct csim_trace_meta *meta, const char *key,
				  enum csim_meta_kind kind)
{
	struct csim_meta_fact *f = &meta->fact[meta->n++];

	*f = (struct csim_meta_fact){ .key = key, .kind = kind };
	return f;
}

static void add_text(struct csim_trace_meta *meta, const char *key, const char *text)
{
	add(meta, key, CSIM_META_STRING)->value = csim_span_of(text, strlen(text));
}

/* An OP_BASIC_INFO string, when the run has it as a string. */
static void add_basic(struct csim_trace_meta *meta, const char *key,
		      const struct csim_basic_info *bi, enum csim_basic_field field)
{
	const struct csim_span text = csim_basic_info_text(bi, field);

	if (text.p != NULL)
		add(meta, key, CSIM_META_ESCAPED)->value = text;
}

static void add_number(struct csim_trace_meta *meta, const char *key, long long v)
{
	struct csim_meta_fact *f = add(meta, key, CSIM_META_NUMBER);

	snprintf(f->num, sizeof(f->num), "%lld", v);
}

/* block_dim as a number, when OP_BASIC_INFO gives a whole one. */
static void add_block_dim(struct csim_trace_meta *meta, const struct csim_basic_info *bi)
{
	double v;

	if (csim_basic_info_number(bi, CSIM_BASIC_BLOCK_DIM, &v) && v >= 0 && v < 1e15 &&
	    v == floor(v))
		add_number(meta, "block_dim", (long long)v);
}

/* The clock in MHz (as the summary gives it, to the kHz) and its source. */
static void add_clock(struct csim_trace_meta *meta, const struct csim_model *m)
{
	struct csim_clock clock;
	struct csim_meta_fact *f;
	long long milli;

	if (!csim_clock_of_run(&m->run, m->summary.derived_mhz, &clock)) {
		add_text(meta, "clock_source", "unknown");
		return;
	}
	f = add(meta, "clock_mhz", CSIM_META_NUMBER);
	milli = llround(clock.mhz * 1000.0);
	if (milli % 1000 == 0)
		snprintf(f->num, sizeof(f->num), "%lld", milli / 1000);
	else
		snprintf(f->num, sizeof(f->num), "%lld.%03lld", milli / 1000, milli % 1000);
	add_text(meta, "clock_source", csim_clock_source_name(clock.source));
}

void csim_trace_meta_fill(struct csim_trace_meta *meta, const struct csim_model *m,
			  size_t nruns, const struct csim_view_input *in, const char *options)
{
	const struct csim_basic_info *bi = &m->run.basic;

	meta->n = 0;
	add_text(meta, "converter", "clean_sim_trace");
	add_text(meta, "version", CSIM_VERSION);
	add_basic(meta, "op", bi, CSIM_BASIC_NAME);
	add_basic(meta, "op_type", bi, CSIM_BASIC_OP_TYPE);
	add_basic(meta, "soc", bi, CSIM_BASIC_SOC);
	add_block_dim(meta, bi);
	add_clock(meta, m);
	add_text(meta, "dump", in->path);
	add_number(meta, "dump_bytes", (long long)in->size);
	/* --run all: every run of the file, each in processes of its own. */
	if (nruns > 1)
		add_text(meta, "run", "all");
	else
		add_number(meta, "run", (long long)m->run.run);
	add_number(meta, "runs_in_file", (long long)m->run.choice.runs);
	add_text(meta, "options", options != NULL ? options : "");
}

void csim_trace_meta_json(const struct csim_trace_meta *meta, struct csim_out *o)
{
	csim_out_text(o, ",\"metadata\":{");
	for (size_t i = 0; i < meta->n; i++) {
		const struct csim_meta_fact *f = &meta->fact[i];

		if (i > 0)
			csim_out_char(o, ',');
		csim_out_json_string(o, f->key, strlen(f->key));
		csim_out_char(o, ':');
		switch (f->kind) {
		case CSIM_META_STRING:
			csim_out_json_string(o, f->value.p, f->value.n);
			break;
		case CSIM_META_ESCAPED:
			/* Valid JSON string contents: the scanner accepted them. */
			csim_out_char(o, '"');
			csim_out_bytes(o, f->value.p, f->value.n);
			csim_out_char(o, '"');
			break;
		case CSIM_META_NUMBER:
			csim_out_text(o, f->num);
			break;
		}
	}
	csim_out_char(o, '}');
}
